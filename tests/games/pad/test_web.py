"""The score pad through the app, as a table plays it without JavaScript: a new
game, deals, "the rest", the ± button, a correction, undo, the three ends, stakes,
the sheets, export and import, the statistics."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from markupsafe import Markup

from referee.geometry import content_width
from referee.services import games as service
from referee.web.board import build
from referee.web.ledger import NARROWEST, NUMBER, ledger_of
from tests.web.conftest import new_game
from tests.web.test_sheets import pdf_text

NAMES = ["Ana", "Bruno", "Chloé", "Driss"]


def deal(client: FlaskClient, token: str, *points: str, **more: str) -> Any:
    form = {"action": "save", **{f"points{row}": p for row, p in enumerate(points)}, **more}
    return client.post(f"/g/{token}/deal", data=form)


def page(client: FlaskClient, path: str) -> str:
    return client.get(path).get_data(as_text=True)


def test_a_pad_game_with_the_rest_a_correction_undo_and_the_last_deal(
    client: FlaskClient,
) -> None:
    client.get("/lang/en?next=/")
    assert "Score pad" in page(client, "/new")
    form_page = page(client, "/new?game=pad")
    assert "Each deal adds up to zero" in form_page
    # The new-game form has five seats today (referee/web/forms.py); more by import.
    assert 'name="player4"' in form_page
    token = new_game(client, "pad", NAMES[:3], rule_zero_sum="on", stake="0.50")
    entry = page(client, f"/g/{token}/deal")
    assert entry.count('inputmode="numeric"') == 3
    assert 'placeholder="the rest"' in entry
    assert "This is the last deal" in entry

    # "= the rest" fills the last box, without recording.
    filled = client.post(
        f"/g/{token}/deal", data={"points0": "12", "points1": "-5", "points2": "", "rest": "1"}
    )
    assert filled.status_code == 200
    assert 'name="points2" value="-7"' in filled.get_data(as_text=True)
    # ± turns a box's sign (no minus on the keypad).
    flipped = client.post(
        f"/g/{token}/deal", data={"points0": "12", "points1": "5", "points2": "", "flip": "1"}
    )
    assert 'name="points1" value="-5" autofocus' in flipped.get_data(as_text=True)
    # Digits grouped as the app writes them ("1 086") read as one number.
    grouped = client.post(
        f"/g/{token}/deal",
        data={"points0": "1 086", "points1": "\u22121\u202f000", "points2": "", "rest": "1"},
    )
    assert 'name="points2" value="-86"' in grouped.get_data(as_text=True)
    # In English a comma groups digits too; in French it is a decimal point.
    english = {"points0": "1,086", "points1": "-1,000", "points2": "", "rest": "1"}
    assert 'value="-86"' in client.post(f"/g/{token}/deal", data=english).get_data(as_text=True)
    client.get("/lang/fr?next=/")
    french = client.post(f"/g/{token}/deal", data=english).get_data(as_text=True)
    assert 'name="points0" value="1,086"' in french
    assert 'name="points2" value=""' in french
    client.get("/lang/en?next=/")

    # The last box left empty is the rest.
    assert deal(client, token, "12", "-5", "").status_code == 302
    board = page(client, f"/g/{token}")
    assert ">the rest: Chloé" in board
    assert "Points · " not in board
    assert (
        "Ana&nbsp;<strong>+12</strong>, Bruno&nbsp;<strong>−5</strong>, "
        "Chloé&nbsp;<strong>−7</strong>" in board
    )
    assert "The rest: Chloé −7." in board  # Why?

    refused = deal(client, token, "10", "-3", "-5")
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "points add up to 2, not 0" in text
    assert 'value="-3"' in text  # the entries are kept

    assert deal(client, token, "1", "2", "-3").status_code == 302
    assert client.post(f"/g/{token}/undo", data={"version": "2"}).status_code == 302
    assert "Bruno +2" not in page(client, f"/g/{token}")

    edit = page(client, f"/g/{token}/deal/1/edit")
    assert 'name="points0" value="12"' in edit
    assert 'name="points2" value=""' in edit  # the rest stays the rest
    correction = {"action": "save", "points0": "20", "points1": "-5", "version": "3"}
    assert client.post(f"/g/{token}/deal/1/edit", data=correction).status_code == 302
    assert "Chloé&nbsp;<strong>−15</strong>" in page(client, f"/g/{token}")
    # The history says what the correction changed (the numbers), and what undo took.
    history = page(client, f"/g/{token}/history")
    assert (
        "Deal 1 corrected: <del>Ana&nbsp;+12, Bruno&nbsp;−5 · the rest: Chloé</del>"
        " → Ana&nbsp;+20, Bruno&nbsp;−5 · the rest: Chloé"
    ) in history
    assert "Deal 2 taken back: <del>Ana&nbsp;+1, Bruno&nbsp;+2, Chloé&nbsp;−3</del>" in history

    assert deal(client, token, "-4", "8", "", last="1").status_code == 302
    board = page(client, f"/g/{token}")
    assert "The table ended the game." in board
    assert "Winner:" in board
    assert "Ana" in board
    assert deal(client, token, "1", "-1", "").status_code != 302

    # Each loser pays the winner (Ana, 16) one stake.
    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["game"] == "pad"
    assert record["rules"] == {
        "name": "",
        "teams": 0,
        "zero_sum": True,
        "total": 0,
        "lowest_wins": False,
        "goal": 0,
        "deals": 0,
    }
    assert record["deals"] == [{"points": [20, -5, None]}, {"points": [-4, 8, None], "last": True}]
    scored = client.get(f"/g/{token}/standings.json")
    if scored.status_code == 200:
        assert scored.get_json()["winners"] == [0]
    imported = client.post(
        "/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "pad.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 302
    again = imported.headers["Location"].removeprefix("/g/")
    assert client.get(f"/g/{again}/export.json").get_json()["deals"] == record["deals"]

    pages, lines = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert pages >= 1
    sheet = "\n".join(lines)
    assert "the rest: Chloé · last deal" in sheet
    assert "−15" in sheet
    blank = client.get(f"/g/{token}/blank.pdf")
    assert blank.status_code == 200
    assert blank.data.startswith(b"%PDF")
    assert "Chloé" in "\n".join(pdf_text(blank.data)[1])
    assert "Each deal adds up to zero" in page(client, f"/g/{token}/rules")


def test_the_target_ends_a_team_game_and_settles_by_the_point(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = new_game(
        client, "pad", NAMES, rule_teams="2", rule_goal="100", stake="0.10", stake_per="point"
    )
    entry = page(client, f"/g/{token}/deal")
    assert "Ana &amp; Chloé" in entry
    assert entry.count('inputmode="numeric"') == 2
    assert deal(client, token, "60", "30").status_code == 302
    assert "need 40" in page(client, f"/g/{token}")  # a team: "need", not "needs"
    assert deal(client, token, "45", "10").status_code == 302
    board = page(client, f"/g/{token}")
    assert "reach 100: the game is over." in board
    assert "Ana &amp; Chloé win the game." in board
    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["stake_per"] == "point"
    money = client.get(f"/g/{token}").get_data(as_text=True)
    # Each of Ana and Chloé is 65 ahead of Bruno and of Driss: +13.00 each.
    assert "13.00" in money or "13,00" in money


def test_a_team_count_that_does_not_divide_the_players_is_refused(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    data = {"game": "pad", "first_dealer": "0", "currency": "EUR", "rule_teams": "2"}
    data.update({f"player{seat}": name for seat, name in enumerate(NAMES[:3])})
    refused = client.post("/new", data=data)
    assert refused.status_code == 422
    assert "3 players cannot sit in 2 teams of the same size" in refused.get_data(as_text=True)


def test_the_number_of_deals_ends_the_game_lowest_wins(client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    token = new_game(client, "pad", NAMES[:2], rule_deals="2", rule_lowest_wins="on")
    entry = page(client, f"/g/{token}/deal")
    assert "C’est la dernière donne" in entry
    assert deal(client, token, "5", "9").status_code == 302
    assert deal(client, token, "5", "0").status_code == 302
    board = page(client, f"/g/{token}")
    assert "2 donnes jouées : la partie est finie." in board.replace("\u202f", " ")
    assert "Bruno gagne la partie." in board


def test_twelve_players_and_the_sample(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = imported(client, [f"P{seat}" for seat in range(12)], [])
    entry = page(client, f"/g/{token}/deal")
    assert entry.count('inputmode="numeric"') == 12
    assert deal(client, token, *[str(seat) for seat in range(12)]).status_code == 302
    sample = client.get("/sample/pad")
    assert sample.status_code == 200
    assert "Score pad" in sample.get_data(as_text=True)


def test_two_phones_on_one_deal_never_record_it_twice(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = new_game(client, "pad", NAMES[:3])
    first = deal(client, token, "1", "2", "3", number="1", key="a" * 32)
    assert first.status_code == 302
    second = deal(client, token, "4", "5", "6", number="1", key="b" * 32)
    assert second.status_code == 409
    text = second.get_data(as_text=True)
    assert "Meanwhile another phone recorded this deal" in text
    assert 'name="points0" value="4"' in text  # its entries kept, for deal 2
    again = deal(client, token, "1", "2", "3", number="1", key="a" * 32)  # resent
    assert again.status_code == 302
    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["deals"] == [{"points": [1, 2, 3]}]


def test_a_pad_at_a_table_its_evening_and_statistics(client: FlaskClient) -> None:
    from tests.web.test_tables import imported, join, new_table

    client.get("/lang/en?next=/")
    table = new_table(client)
    day = {"date": "2026-11-27"}
    low = imported(client, "pad-lowest-wins", stake="1.00", **day)
    tarot = imported(client, "pad-tarot-zero-sum", **day)
    for token in (low, tarot):
        join(client, table, f"http://localhost/g/{token}")
    # The lowest total wins: Bruno (4) first, then Chloé (5), Ana (6) last.
    board = page(client, f"/g/{low}")
    assert '3rd</span> <span class="who">Ana' in board
    assert '2nd</span> <span class="who">Chloé' in board
    evening = page(client, f"/t/{table}/evening/2026-11-27")
    # Bruno collects a stake from Ana and from Chloé (−1, +2, −1); the tarot's 0.10 a
    # point on top, each his score × the stake (9.50, 2.50, −3.00, −5.50, −3.50):
    # Ana 8.50, Bruno 4.50, Chloé −4.00.
    assert "Score pad" in evening
    assert "8.50" in evening
    assert "4.50" in evening
    assert "4.00" in evening
    assert "46.50" not in evening
    stats = page(client, f"/t/{table}/statistics")
    assert '<th scope="row">deals won</th>' in stats
    assert '<th scope="row">points a deal</th>' in stats


def test_the_preview_without_javascript_says_the_rest_and_the_end(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = new_game(client, "pad", NAMES[:3], rule_zero_sum="on", rule_goal="10")
    form = {"action": "preview", "points0": "12", "points1": "-5", "points2": ""}
    shown = client.post(f"/g/{token}/deal", data=form)
    assert shown.status_code == 200
    text = shown.get_data(as_text=True)
    assert "This deal gives" in text
    assert "The rest: Chloé −7." in text
    assert "Ana reaches 10: the game is over." in text
    assert "This deal ends the game: Ana wins." in text
    assert client.get(f"/g/{token}/export.json").get_json()["deals"] == []


def test_twelve_players_start_from_the_new_game_form(client: FlaskClient) -> None:
    """The form has the pad's twelve seats (six at hand, six folded) and its dealer
    may sit in any of them; another game's form keeps its own seats."""
    client.get("/lang/en?next=/")
    twelve = [f"Player {n}" for n in range(1, 13)]
    form = client.get("/new?game=pad").get_data(as_text=True)
    assert 'name="player11"' in form
    assert 'name="player12"' not in form
    assert '<details class="more-seats"><summary>Seats 7 to 12</summary>' in form
    token = new_game(client, "pad", twelve, first_dealer="11")
    record = client.get(f"/g/{token}/export.json").get_json()
    assert (record["players"], record["first_dealer"]) == (twelve, 11)
    board = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Player 12" in board
    # Boulmous has four seats: a first dealer in the fifth is refused beside its field.
    data = {"game": "boulmous", "first_dealer": "4", "currency": "EUR"}
    data.update({f"player{seat}": name for seat, name in enumerate(NAMES)})
    refused = client.post("/new", data=data)
    assert refused.status_code == 422
    assert "Choose a seat." in refused.get_data(as_text=True)
    assert 'name="player4"' not in refused.get_data(as_text=True)


def test_a_game_at_the_most_deals_says_so_instead_of_offering_one_more(
    client: FlaskClient,
) -> None:
    """A record holds at most 300 deals: the page offers a new game, not deal 301,
    and a deal posted anyway is refused with its reason shown (not an empty form)."""
    client.get("/lang/en?next=/")
    token = imported(client, NAMES[:3], [{"points": [1, 2, 3]} for _ in range(300)])
    board = page(client, f"/g/{token}")
    assert "Enter deal 301" not in board
    assert "A game holds at most 300 deals: the table goes on in a new game." in board
    assert 'href="/new?game=pad"' in board
    assert client.get(f"/g/{token}/deal").status_code == 302
    refused = deal(client, token, "1", "1", "1")
    assert refused.status_code == 422
    assert "at most 300" in refused.get_data(as_text=True)


def test_the_pad_offers_no_trick_judge(client: FlaskClient) -> None:
    """The score pad has no tricks: no "Who wins this trick?" under More, and its
    address is not a page; a game of tricks keeps its judge."""
    client.get("/lang/en?next=/")
    token = new_game(client, "pad", NAMES[:3])
    assert "Who wins this trick?" not in page(client, f"/g/{token}")
    assert client.get(f"/g/{token}/judge").status_code == 404
    tricks = new_game(client, "boulmous", NAMES)
    assert "Who wins this trick?" in page(client, f"/g/{tricks}")
    assert client.get(f"/g/{tricks}/judge").status_code == 200


TWELVE = ["Ana", "Bruno", "Chloé", "Driss", "Élise", "Farid"]
TWELVE += ["Gaspard", "Hugo", "Inès", "Jules", "Karim", "Léa"]


def imported(client: FlaskClient, players: list[str], deals: list[dict[str, Any]]) -> str:
    """A pad game made by importing its record; its token."""
    record = {"format": "referee-game/1", "game": "pad", "players": players, "first_dealer": 0}
    record["deals"] = deals
    response = client.post(
        "/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "pad.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/g/")


def test_twelve_lines_of_the_chart_each_with_its_own_key(client: FlaskClient) -> None:
    """Past the six colours, a line's colour comes again dashed, and its key in the
    legend says so (it was a black square)."""
    client.get("/lang/en?next=/")
    token = imported(client, TWELVE, [{"points": list(range(12))}, {"points": [1] * 12}])
    board = page(client, f"/g/{token}")
    keys = re.findall(r'<li class="(c\d+(?: again)?)">', board)
    assert keys == [f"c{i % 6}" + (" again" if i >= 6 else "") for i in range(12)]
    lines = re.findall(r"<polyline [^>]*>", board)
    assert len(lines) == 12
    assert ["stroke-dasharray" in line for line in lines] == [i >= 6 for i in range(12)]
    # Every rank in words, past the fifth too (Ana, last, was a bare "12").
    rank = re.compile(r'<span class="rank"[^>]*>(?:★ )?([^<]*)</span>')
    ranks = rank.findall(board)
    assert ranks == [f"{12 - seat}th" for seat in range(9)] + ["3rd", "2nd", "1st"]
    client.get("/lang/fr?next=/")
    assert rank.findall(page(client, f"/g/{token}"))[0] == "12e"


def test_twelve_long_names_fit_across_the_sheet(app: Flask, client: FlaskClient) -> None:
    """Twelve players with long names: every column on the page (the last two were
    off it), the names wrapping in their headers."""
    client.get("/lang/en?next=/")
    names = [f"{name}-Baptiste" for name in TWELVE]
    token = imported(client, names, [{"points": [100 * seat for seat in range(12)]}])
    with app.test_request_context():
        game = service.find(token)
        assert game is not None
        ledger = ledger_of(build(game, service.scored(game)), "a4", lambda deal: Markup("—"))
        assert ledger.landscape
        columns = NUMBER + ledger.dealer + len(ledger.sides) * ledger.column * 25.4 / 72
        assert columns + NARROWEST / 2 <= content_width("a4", True), ledger
        assert ledger.figure_size >= 5.5
    _pages, lines = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    sheet = "\n".join(lines)
    for name in TWELVE:
        assert name in sheet


def test_the_rules_say_what_a_zero_means(client: FlaskClient) -> None:
    """A house rule at 0 (no teams, no target, no limit) is said in words, with the
    French colon's space, on the rules page and the sheet."""
    client.get("/lang/en?next=/")
    token = new_game(client, "pad", NAMES[:3])
    rules = page(client, f"/g/{token}/rules")
    assert "Teams: <strong>none (each plays alone)</strong>" in rules
    assert "Target score: <strong>none</strong>" in rules
    assert "Number of deals: <strong>no limit</strong>" in rules
    client.get("/lang/fr?next=/")
    rules = page(client, f"/g/{token}/rules")
    assert "Équipes\u202f: <strong>aucune (chacun pour soi)</strong>" in rules
    sheet = "\n".join(pdf_text(client.get(f"/g/{token}/sheet.pdf").data)[1])
    assert "Règles maison\u202f:" in sheet
    assert "Nombre de donnes\u202f: sans limite" in sheet
    assert "Place 1\u202f: Ana" in sheet
    blank = "\n".join(pdf_text(client.get(f"/g/{token}/blank.pdf").data)[1])
    assert "Date\u202f:" in blank


def test_a_plus_and_the_minus_the_app_shows_are_read(client: FlaskClient) -> None:
    """A gain written "+10", and "−10" pasted from a score the app shows (its
    minus is U+2212): both read as numbers; other digits do not."""
    client.get("/lang/en?next=/")
    token = new_game(client, "pad", NAMES[:3])
    assert deal(client, token, "+10", "\u221210", "0").status_code == 302
    deals = client.get(f"/g/{token}/export.json").get_json()["deals"]
    assert deals == [{"points": [10, -10, 0]}]
    assert deal(client, token, "\u0663", "1_0", "0").status_code == 422


def test_a_pad_says_which_game_it_is_wherever_it_is_named(client: FlaskClient) -> None:
    """A belote and a tarot on the pad: each named on the home, the table, the evening,
    the TV, the sheet, the picture's title, the API and the export; the statistics
    keep them apart ("belote" and "Belote" together)."""
    from tests.web.test_tables import join, new_table

    client.get("/lang/en?next=/")
    table = new_table(client)
    form = page(client, f"/new?game=pad&table={table}")
    assert 'id="rule_name"' in form
    assert '<option value="Belote">' in form  # the usual names suggested
    belote = new_game(client, "pad", NAMES, rule_name="Belote", rule_teams="2", table=table)
    tarot = new_game(client, "pad", NAMES, rule_name="Tarot", rule_zero_sum="on", table=table)
    again = new_game(client, "pad", NAMES, rule_name="  belote ", rule_teams="2", table=table)
    unplayed = new_game(client, "pad", NAMES, rule_name="Yams", table=table)
    for token in (belote, tarot, again, unplayed):
        join(client, table, f"http://localhost/g/{token}")
    assert deal(client, belote, "92", "70").status_code == 302
    assert deal(client, again, "100", "62").status_code == 302
    assert deal(client, tarot, "60", "-20", "-20", "").status_code == 302
    # Suggested next time: this table's own names first.
    form = page(client, f"/new?game=pad&table={table}")
    assert form.index('<option value="belote">') < form.index('<option value="Coinche">')
    # A deal with nothing to say but its points: no empty part between two dots.
    for shown in (page(client, f"/g/{belote}"), page(client, f"/t/{table}")):
        assert not re.search(r"·\s*(<[^>]+>\s*)*·", shown)
        assert "<summary> <small>· " not in shown
    home = page(client, "/")
    mine = home[home.index("<h2>Your games</h2>") :]  # the game "Belote" has its own card
    assert mine.count("<strong>Belote</strong>") == 1
    assert "<strong>Tarot</strong>" in page(client, "/")
    board = page(client, f"/g/{tarot}")
    assert '<h1 id="title">Tarot</h1>' in board
    assert "<title>Tarot · Ana" in board
    shown = page(client, f"/t/{table}")
    assert "<strong>Belote</strong>" in shown
    assert "<strong>Tarot</strong>" in shown
    day = client.get(f"/g/{tarot}/export.json").get_json()
    assert day["rules"]["name"] == "Tarot"
    evening = page(client, f"/t/{table}")
    found = re.search(r'href="(/t/[^"]+/evening/[0-9-]+)"', evening)
    assert found is not None
    text = page(client, found.group(1))
    assert "Tarot" in text
    assert "Belote" in text
    tv = re.search(r"/tv/[A-Za-z0-9_-]+", page(client, f"/t/{table}/share"))
    assert tv is not None
    assert re.search(r'class="tv-title">(Tarot|[Bb]elote)', page(client, tv.group(0)))
    assert pdf_text(client.get(f"/g/{tarot}/sheet.pdf").data)[1][0].startswith("Tarot\n")
    shared = re.search(r"/v/([A-Za-z0-9_-]+)", page(client, f"/g/{tarot}/share"))
    assert shared is not None
    state = client.get(f"/api/v1/games/{shared.group(1)}").get_json()
    assert state["name"] == "Tarot"
    spectated = page(client, f"/v/{shared.group(1)}")
    assert '<meta property="og:title" content="' in spectated
    assert "· Tarot" in spectated
    stats = page(client, f"/t/{table}/statistics")
    assert "Belote (2 games)" in stats or "Belote" in stats
    assert stats.count("points a deal") == 2  # two blocks: belote and tarot
    assert "Yams" not in stats  # a game with no deal was not played
    # The files too: a column per figure and name, each with its own numbers.
    lines = list(csv.DictReader(io.StringIO(page(client, f"/t/{table}/statistics.csv"))))
    ana = next(line for line in lines if line["person"] == "Ana")
    assert ana["pad:Belote:deals"] == "2"
    assert ana["pad:Tarot:deals"] == "1"
    assert ana["pad:Tarot:points"] == "60.00"
    rows = list(csv.DictReader(io.StringIO(page(client, f"/t/{table}/deals.csv"))))
    assert {row["name"] for row in rows} == {"Belote", "belote", "Tarot"}
