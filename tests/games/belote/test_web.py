"""Belote and coinche through the app's pages, as a table would play them (issue 55):
a new game, the deal form's entries read (the taker, the trump, the bid and its
coinche, the defence's points, the capot, the belote, the announcements), refusals
kept with their entries, a correction, undo, the scoreboard and its "Why?", the
score sheet and the blank sheet, the picture, the API, the TV, export and import, the
statistics; and a concours de belote in fixed pairs, ranked as `referee rank` ranks
its export."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.app import create_app
from referee.events.concours import rank
from referee.events.eventfile import parse_event
from referee.services import events as service
from referee.services.backup import backup, restore
from tests.web.conftest import new_game as web_new_game
from tests.web.test_concours import create, fresh, page, version
from tests.web.test_sheets import pdf_text

FOUR = ["Ana", "Bruno", "Chloé", "Driss"]


def new_game(client: FlaskClient, **more: str) -> str:
    """A belote game of the four through the new-game form (tests/web/conftest.py's)."""
    return web_new_game(client, "belote", FOUR, **more)


def deal(client: FlaskClient, token: str, **fields: str) -> int:
    return client.post(f"/g/{token}/deal", data={"action": "save", **fields}).status_code


def test_a_belote_evening_through_every_page(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    assert "Belote" in page(client, "/new")
    token = new_game(client, stake="1")
    form = page(client, f"/g/{token}/deal")
    assert "Ana &amp; Chloé against Bruno &amp; Driss" in form
    assert "id=take_passed" in form
    assert 'name="bid"' not in form  # classic belote has no bids
    # Bruno takes at hearts; the defence counted 65: 97 for his side, and his belote.
    assert deal(client, token, take="1", trump="hearts", defence="65", belote="taker") == 302
    refused = client.post(
        f"/g/{token}/deal",
        data={"action": "save", "take": "0", "trump": "spades", "points": "161"},
    )
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "no side ends with 161 points" in text
    assert 'value="161"' in text
    more = {"announces_d_tierce": "1", "announces_t_tierce": ""}
    assert deal(client, token, take="0", trump="spades", points="70", **more) == 302
    assert deal(client, token, take="passed") == 302
    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["deals"] == [
        {"taker": 1, "trump": "hearts", "points": 97, "belote": "taker"},
        {"taker": 0, "trump": "spades", "points": 70, "announces": {"defence": ["tierce"]}},
        {"taker": None},
    ]
    board = page(client, f"/g/{token}")
    assert "97 to 65" in board
    assert "belote to the taking side" in board
    assert "dedans" in board
    assert "Everyone passed" in board
    assert "Card points: 97 to the taking side, 65 to the defence." in board
    assert "70 against 112: dedans. The defence scores 182" in board
    # A correction: the form comes back with the deal, then saved with the defence's 60.
    edit = page(client, f"/g/{token}/deal/1/edit")
    assert re.search(r"value=1\s+checked", edit)
    assert 'value="97"' in edit
    version = re.search(r'name="version" value="(\d+)"', edit)
    assert version is not None
    fixed = client.post(
        f"/g/{token}/deal/1/edit",
        data={
            "action": "save",
            "take": "1",
            "trump": "hearts",
            "defence": "60",
            "belote": "taker",
            "version": version[1],
        },
    )
    assert fixed.status_code == 302, fixed.get_data(as_text=True)
    assert client.get(f"/g/{token}/export.json").get_json()["deals"][0]["points"] == 102
    # Undo the deal everyone passed, and the game goes on.
    now = re.search(r'name="version" value="(\d+)"', page(client, f"/g/{token}"))
    assert now is not None
    assert client.post(f"/g/{token}/undo", data={"version": now[1]}).status_code == 302
    assert len(client.get(f"/g/{token}/export.json").get_json()["deals"]) == 2
    # Capots to the end: Ana & Chloé reach 1000 first.
    for _ in range(4):
        assert deal(client, token, take="2", trump="clubs", capot="taker") == 302
    board = page(client, f"/g/{token}")
    assert "Winner" in board
    # The sheets, the rules, export and import.
    pages, lines = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert pages >= 1
    sheet = "\n".join(lines)
    assert "Belote" in sheet
    assert "capot by the taking side" in sheet
    blank = client.get(f"/g/{token}/blank.pdf")
    assert blank.data.startswith(b"%PDF")
    assert "Game to 1000" in "\n".join(pdf_text(blank.data)[1])
    assert "dedans" in page(client, f"/g/{token}/rules")
    imported = client.post(
        "/import",
        data={"record": (io.BytesIO(client.get(f"/g/{token}/export.json").data), "b.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 302
    # The picture, the TV and the statistics at a table.
    share = page(client, f"/g/{token}/share")
    view = re.search(r"/v/([A-Za-z0-9_-]+)", share)
    assert view is not None
    picture = client.get(f"/v/{view[1]}/picture.png")
    assert picture.data.startswith(b"\x89PNG")
    table = client.post("/tables/new", data={"name": "Club"}).headers["Location"]
    client.post(f"{table}/join", data={"game": token})
    stats = page(client, f"{table}/statistics")
    assert "contracts taken" in stats
    assert "capots" in stats
    tv = re.search(r"/tv/[A-Za-z0-9_-]+", page(client, f"{table}/share"))
    assert tv is not None
    assert "Driss" in page(client, tv[0])


def test_the_api_reads_and_writes_a_belote_deal(client: FlaskClient) -> None:
    token = new_game(client)
    posted = client.post(
        f"/api/v1/edit/{token}/deals",
        data=json.dumps({"deal": {"taker": 0, "trump": "spades", "points": 100}}),
        content_type="application/json",
    )
    assert posted.status_code in (200, 201), posted.get_data(as_text=True)
    client.get("/lang/fr?next=/")
    bad = client.post(
        f"/api/v1/edit/{token}/deals",
        data=json.dumps(
            {"deal": {"taker": 0, "trump": "spades", "belote": ["taker", "defence"], "points": 90}}
        ),
        content_type="application/json",
    )
    assert bad.status_code == 422
    assert "un seul camp" in json.dumps(bad.get_json(), ensure_ascii=False)
    assert client.get(f"/g/{token}/export.json").get_json()["deals"] == [
        {"taker": 0, "trump": "spades", "points": 100}
    ]


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_coinche_form_offers_the_bids_and_the_coinche(client: FlaskClient, lang: str) -> None:
    client.get(f"/lang/{lang}?next=/")
    token = new_game(client, rule_variant="coinche", rule_generale="on")
    form = page(client, f"/g/{token}/deal")
    for bid in ("80", "160", "capot", "generale"):
        assert f"id=bid_{bid} " in form
    assert "id=coinche_surcoinche " in form
    assert (
        deal(client, token, take="2", trump="clubs", bid="110", coinche="coinche", points="90")
        == 302
    )
    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["deals"] == [
        {"taker": 2, "trump": "clubs", "bid": 110, "coinche": "coinche", "points": 90}
    ]
    # Failed coinché: (160 + 110) × 2 = 540 to the defence.
    assert record["rules"]["variant"] == "coinche"
    scored = client.get(f"/api/v1/games/{token}").get_json() if False else None
    del scored


def test_a_concours_de_belote_plays_rounds_of_12_deals_unless_the_director_says(
    app: Flask, client: FlaskClient
) -> None:
    """The length left empty is the game's usual round: 12 deals at belote, 8 at the
    others; ranked by games won, then points (points by place: 1 and 0, tie-break
    the table scores)."""
    client.get("/lang/fr?next=/")
    new = page(client, "/events/new")
    assert "8 donnes (Belote 12)" in new
    token, event = create(
        app,
        client,
        game="belote",
        length="",
        format="pairs",
        rule="places",
        places="1, 0",
        tie_breaks=["score", "lot"],
    )
    assert event.length_deals == 12
    _pad, other = create(app, client, game="pad", length="")
    assert other.length_deals == 8
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    event = fresh(app, event.id)
    for table in [t for t in event.tables if t.round == 1][:1]:
        assert table.game_row is not None
        game = table.game_row.token
        # Twelve deals: the team of seats 1 and 3 takes and makes 12 times by 82 to 80
        # (984: under the 1000 that would end the game, and the round, sooner).
        for _ in range(12):
            assert deal(client, game, take="0", trump="hearts", points="82") == 302
        # The thirteenth is not taken: the round is played, the phone goes to the card.
        moved = client.post(
            f"/g/{game}/deal",
            data={"action": "save", "take": "0", "trump": "hearts", "points": "82"},
        )
        assert f"/c/{event.play_token}/" in moved.headers["Location"]
        assert len(client.get(f"/g/{game}/export.json").get_json()["deals"]) == 12
        names = [p.name for p in event.players]
        key = service.table_key(event, table.number)
        opponent = app.test_client()
        page(opponent, f"/c/{event.play_token}/{table.number}?k={key}")
        who = names[table.seats[1] - 1]
        current = version(client, event.view_token)
        accepted = opponent.post(
            f"/c/{event.play_token}/{table.number}", data={"who": who, "version": current}
        )
        assert accepted.status_code == 302
        winners = (names[table.seats[0] - 1], names[table.seats[2] - 1])
    data = client.get(f"/e/{token}/export.json").get_json()
    shown = rank(parse_event(data).concours)
    first = shown[0]
    assert all(name in first.name for name in winners)
    assert first.points == 1  # one game won


def test_the_scoreboard_says_what_each_team_needs_and_what_a_litige_holds(
    client: FlaskClient,
) -> None:
    client.get("/lang/en?next=/")
    token = new_game(client)
    assert deal(client, token, take="3", trump="clubs", points="81") == 302
    board = page(client, f"/g/{token}")
    assert "81 points in litige, for the winner of the next deal." in board
    assert "need 919" in board  # Ana & Chloé: the defence's 81 of 1000
    assert "need 1000" in board  # Bruno & Driss: theirs wait
    assert deal(client, token, take="0", trump="hearts", points="100") == 302
    board = page(client, f"/g/{token}")
    assert "in litige" not in board
    assert "need 738" in board  # 81 + 100 + 81 held
    coinche = new_game(client, rule_variant="coinche")
    board = page(client, f"/g/{coinche}")
    assert "need 2000" in board
    assert '<h1 id="title">Coinche</h1>' in board  # named so wherever the game is
    rounds = new_game(client, rule_deals="12")
    assert "need" not in page(client, f"/g/{rounds}")


def test_every_reason_reaches_the_form_and_the_live_preview(client: FlaskClient) -> None:
    """A bid sent to classic belote is refused with its reason on the form; the
    announcements' reasons reach the live preview (their boxes are named after the
    record's field)."""
    client.get("/lang/en?next=/")
    token = new_game(client)
    refused = client.post(
        f"/g/{token}/deal",
        data={"action": "save", "take": "0", "trump": "hearts", "points": "100", "bid": "90"},
    )
    assert refused.status_code == 422
    assert "classic belote has no bids" in refused.get_data(as_text=True)
    too_many = {"take": "0", "trump": "hearts", "points": "100"}
    too_many.update({"announces_t_cinquante": "2", "announces_t_cent": "2"})
    answer = client.post(f"/g/{token}/preview.json", data=too_many).get_json()
    assert "need 18 cards" in answer["errors"]["announces"][0]
    jacks = {"take": "0", "trump": "hearts", "points": "100"}
    jacks.update({"announces_t_carre_j": "1", "announces_d_carre_j": "1"})
    answer = client.post(f"/g/{token}/preview.json", data=jacks).get_json()
    assert "carré of jacks: the game holds only 1" in answer["errors"]["announces"][0]
    assert "best" not in answer["errors"]


def test_a_concours_states_its_game_s_house_rules_and_every_table_plays_by_them(
    app: Flask, client: FlaskClient
) -> None:
    """The new-concours form holds each game's house rules, folded under its name;
    the chosen game's are the event's, and each table's game plays by them: a
    concours de coinche with the competition's litige."""
    client.get("/lang/en?next=/")
    form = page(client, "/events/new")
    assert "House rules of the game" in form
    assert 'name="rule_belote_variant"' in form
    assert 'name="rule_tarot_small"' in form
    rules = {"rule_belote_variant": "coinche", "rule_belote_litige": "dedans"}
    # Another game's boxes sent along are not this concours's.
    rules["rule_tarot_small"] = "prise"
    token, event = create(app, client, game="belote", length="4", **rules)
    assert event.rules == {"variant": "coinche", "litige": "dedans"}
    # Stated to everyone before the first round, the game called as the table plays it.
    public = page(client, f"/ev/{event.view_token}")
    assert "Coinche ·" in public
    assert (
        "House rules: Game: Coinche; Litige (equal counts, at belote): The taker is dedans."
        in public
    )
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    table = next(t for t in fresh(app, event.id).tables if t.round == 1)
    assert table.game_row is not None
    assert "id=bid_80 " in page(client, f"/g/{table.game_row.token}/deal")
    # A house rule the game does not have is refused in words, the form kept.
    refused = client.post(
        "/events/new",
        data={
            "name": "Concours",
            "game": "belote",
            "rounds": "3",
            "length": "4",
            "players": "\n".join(f"Joueur {n}" for n in range(1, 9)),
            "rule_belote_capot": "300",
        },
    )
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "300" in text
    assert '<details class="game-rules" open>' in text


def test_a_backup_restores_a_concours_de_coinche_and_its_tables_games_exactly(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """Everything belote stores (a concours's house rules, its tables' games with a
    litige waiting, a game of its own) comes back from a backup into an empty
    database: the same export, the same pages."""
    client.get("/lang/fr?next=/")
    rules = {"rule_belote_variant": "coinche", "rule_belote_litige": "dedans"}
    token, event = create(app, client, game="belote", length="4", **rules)
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    table = next(t for t in fresh(app, event.id).tables if t.round == 1)
    assert table.game_row is not None
    playing = table.game_row.token
    bid = {"take": "0", "trump": "hearts", "bid": "100", "coinche": "coinche", "points": "90"}
    assert deal(client, playing, **bid) == 302
    own = new_game(client)
    assert deal(client, own, take="1", trump="clubs", points="81") == 302  # a litige
    paths = [
        f"/e/{token}/export.json",
        f"/ev/{event.view_token}",
        f"/g/{playing}",
        f"/g/{own}",
        f"/g/{own}/export.json",
    ]
    before = {path: page(client, path) for path in paths}
    with app.app_context():
        written = backup(tmp_path / "b")
    assert written.events == 1
    other = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'restored.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )
    with other.app_context():
        report = restore(tmp_path / "b")
    assert report.skipped == []
    browser = other.test_client(use_cookies=True)
    browser.get("/lang/fr?next=/")
    keys = re.compile(r'(name="(?:key|csrf_token)" value=")[^"]*"')
    for path, text in before.items():
        assert keys.sub(r"\1", page(browser, path)) == keys.sub(r"\1", text), path
    assert "81 points en litige" in before[f"/g/{own}"]
