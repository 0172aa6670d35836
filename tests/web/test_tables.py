"""Tables through the web (issue 17): a table and its links, games started at it or
joined to it, names merged, the evening and its one settlement, the statistics,
the table's file and CSV exports. French and English."""

from __future__ import annotations

import csv
import io
import json
import re
from decimal import Decimal
from typing import Any

from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.conftest import EXAMPLES
from tests.web.conftest import new_game
from tests.web.test_table_loop import english

BOULMOUS = ["Ana", "Bruno", "Chloé", "Driss"]


def new_table(client: FlaskClient, name: str = "Tuesday club") -> str:
    response = client.post("/tables/new", data={"name": name})
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/t/")


def imported(client: FlaskClient, example: str, **changes: Any) -> str:
    """An example record, changed, imported as a game of its own: its token."""
    record = json.loads((EXAMPLES / f"{example}.json").read_text())
    record.update(changes)
    data = json.dumps(record).encode()
    response = client.post(
        "/import",
        data={"record": (io.BytesIO(data), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.headers["Location"]).removeprefix("/g/")


def join(client: FlaskClient, table: str, link: str) -> str:
    response = client.post(f"/t/{table}/join", data={"game": link}, follow_redirects=True)
    return response.get_data(as_text=True)


def version_of(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def evening_of_three(client: FlaskClient) -> tuple[str, list[str]]:
    """Three examples at one table, on one day: Boulmous at 2 € a game (finished:
    Ana 14, Bruno −4, Chloé −4, Driss −6), Pitch's moon (no stake), Bombu's first
    manche at 0.10 € a point (scores 100, −30, 170, 80 for Bruno, Chloé, Driss, Ana)."""
    table = new_table(client)
    day = {"date": "2026-11-27"}
    games = [
        imported(client, "boulmous-with-stake", players=BOULMOUS, **day),
        imported(client, "pitch-moon", players=["Ana", "Bruno", "Chloé", "Élodie"], **day),
        imported(
            client,
            "bombu-first-manche",
            players=["Bruno", "Chloé", "Driss", "Ana"],
            stake="0.10",
            stake_per="point",
            **day,
        ),
    ]
    for token in games:
        join(client, table, f"http://localhost/g/{token}")
    return table, games


def test_a_table_needs_a_name_said_in_the_players_language(client: FlaskClient) -> None:
    response = client.post("/tables/new", data={"name": "  "})
    assert response.status_code == 422
    assert "Une table a besoin d’un nom" in response.get_data(as_text=True)
    english(client)
    response = client.post("/tables/new", data={"name": "x" * 81})
    assert "a name is at most 80 characters long" in response.get_data(as_text=True).lower()


def test_a_game_started_at_the_table_and_the_same_table_again(client: FlaskClient) -> None:
    english(client)
    table = new_table(client)
    choose = client.get(f"/new?table={table}").get_data(as_text=True)
    assert f"/new?game=boulmous&amp;table={table}" in choose
    form = client.get(f"/new?game=boulmous&table={table}").get_data(as_text=True)
    assert f'name="table" value="{table}"' in form
    token = new_game(client, "boulmous", BOULMOUS, table=table, rule_target="4")
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert f"/g/{token}" in page
    assert "Ana, Bruno, Chloé, Driss" in page
    scoreboard = client.get(f"/g/{token}").get_data(as_text=True)
    assert "The table: Tuesday club" in scoreboard
    # Finished (Bruno reaches 4), then the next game: at the same table.
    deal = {"taker": "1", "bid": "4", "contract": "spades"}
    deal.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 4, 1, 0])})
    client.post(f"/g/{token}/deal", data={**deal, "action": "save"})
    again = client.post(f"/g/{token}/again").headers["Location"].removeprefix("/g/")
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert f"/g/{again}" in page
    assert "Bruno wins" in page


def test_joining_takes_the_editors_link_only(client: FlaskClient) -> None:
    english(client)
    table = new_table(client)
    token = new_game(client, "boulmous", BOULMOUS)
    viewer = re.search(
        r"/v/([A-Za-z0-9_-]+)", client.get(f"/g/{token}/share").get_data(as_text=True)
    )
    assert viewer is not None
    # The spectators' link (what a spectator holds) is refused, saying which link to
    # paste instead (issue "the table at first sight", item 13); the token alone too.
    for pasted in (f"https://example.org/v/{viewer.group(1)}", viewer.group(1)):
        page = join(client, table, pasted)
        # One kind of quotes, curly: the apostrophes as the quotation marks.
        said = page[page.index("This is the game") :].split("</p>", 1)[0]
        assert "This is the game\u2019s spectators\u2019 link" in said, pasted
        assert "Paste its editors\u2019 link" in said
        assert "\u201cEditors: the link that can change the game\u201d" in said
        for straight in ("'", "&#39;", '"', "&#34;"):
            assert straight not in said
        assert "No game has this link" not in page
        assert f"/g/{token}" not in page  # not joined
    page = join(client, table, "not a link")
    assert "No game has this link" in page
    page = join(client, table, f"  https://example.org/g/{token}/  ")
    assert "The game joined the table." in page
    assert "This game is at this table already." in join(client, table, token)
    # Taken off again: still a game, no longer at the table.
    client.post(f"/t/{table}/leave", data={"game": token})
    assert f"/g/{token}" not in client.get(f"/t/{table}").get_data(as_text=True)
    assert client.get(f"/g/{token}").status_code == 200


def test_the_evening_settles_once_and_a_player_checks_it_by_hand(client: FlaskClient) -> None:
    english(client)
    table, _games = evening_of_three(client)
    page = client.get(f"/t/{table}").get_data(as_text=True)
    assert "Friday, November 27, 2026" in page
    evening = client.get(f"/t/{table}/evening/2026-11-27").get_data(as_text=True)
    # Bombu by the point: each seat gets 0.10 × (320 − 4 × its score), lowest wins:
    # Bruno −8, Chloé +44, Driss −36, Ana 0. With the Boulmous (14, −4, −4, −6):
    # Ana 14, Bruno −12, Chloé 40, Driss −42; no two of them cancel out: 3 transfers.
    ledger = evening[evening.index('class="ledger') :]
    rows = {
        name: re.findall(r"<td class=\"num[^\"]*\"[^>]*>(?:<strong>)?([^<]+)", row)
        for name, row in re.findall(r'<th scope="row">([^<]+)</th>(.*?)</tr>', ledger)
    }
    assert rows["Ana"] == ["€14.00", "€0.00", "€14.00"]
    assert rows["Bruno"] == ["−€4.00", "−€8.00", "−€12.00"]
    assert rows["Chloé"] == ["−€4.00", "€44.00", "€40.00"]
    assert rows["Driss"] == ["−€6.00", "−€36.00", "−€42.00"]
    transfers = re.findall(r"<li>(\w+) pays (\w+) €([0-9.]+)</li>", evening)
    assert len(transfers) == 3
    balance = {
        "Ana": Decimal(14),
        "Bruno": Decimal(-12),
        "Chloé": Decimal(40),
        "Driss": Decimal(-42),
    }
    for payer, payee, amount in transfers:
        balance[payer] += Decimal(amount)
        balance[payee] -= Decimal(amount)
    assert set(balance.values()) == {Decimal(0)}
    assert "as the scores stand" in evening  # the Bombu goes on
    sheet = PdfReader(io.BytesIO(client.get(f"/t/{table}/evening/2026-11-27/sheet.pdf").data))
    assert len(sheet.pages) == 1
    text = sheet.pages[0].extract_text()
    for payer, payee, amount in transfers:
        assert f"{payer} pays {payee} €{amount}" in text
    assert "Élodie" in text  # her signature line: she played the Pitch
    assert client.get(f"/t/{table}/evening/2026-11-28").status_code == 404


def test_a_game_in_progress_shows_its_totals_on_the_tables_page(client: FlaskClient) -> None:
    """As a finished game shows its result, a game in progress shows where it stands:
    each player's total (a team's once, its names together)."""
    english(client)
    table, _games = evening_of_three(client)
    pitch = json.loads((EXAMPLES / "pitch-moon.json").read_text())
    token = imported(client, "pitch-moon", players=BOULMOUS, deals=pitch["deals"][:1])
    join(client, table, f"http://localhost/g/{token}")
    page = client.get(f"/t/{table}").get_data(as_text=True)
    games = re.findall(r'<li><a href="/g/[^"]+">(.*?)</a>', page)
    bombu = next(g for g in games if "Bombu" in g)
    assert '<span class="scores">Bruno 100 · Chloé −30 · Driss 170 · Ana 80</span>' in bombu
    assert "in progress · 6 deals" in bombu
    teams = next(g for g in games if "Pitch" in g and "in progress" in g)
    assert '<span class="scores">Ana & Chloé 3 · Bruno & Driss 5</span>' in teams
    # A finished game says its result, and the names alone.
    boulmous = next(g for g in games if "Boulmous" in g)
    assert "Ana wins" in boulmous
    assert '<span class="scores">' not in boulmous


def test_the_evening_in_french(client: FlaskClient) -> None:
    table, _games = evening_of_three(client)
    evening = client.get(f"/t/{table}/evening/2026-11-27").get_data(as_text=True)
    assert "vendredi 27 novembre 2026" in evening
    assert "40,00\u00a0€" in evening
    assert " paie " in evening


def test_statistics_and_merging_two_names_of_one_person(client: FlaskClient) -> None:
    english(client)
    table, _games = evening_of_three(client)
    anna = new_game(client, "boulmous", ["Anna", "Bruno", "Chloé", "Driss"], table=table)
    stats = client.get(f"/t/{table}/statistics").get_data(as_text=True)
    assert '<th scope="row">Anna</th>' not in stats  # a game with no deal was not played
    client.post(f"/g/{anna}/deal", data={"action": "save", "passed": "1"})
    stats = client.get(f"/t/{table}/statistics").get_data(as_text=True)
    assert '<th scope="row">Anna</th>' in stats
    assert "bids taken" in stats
    assert "Réussite: first out" in stats
    assert "moons made" in stats
    # Anna is Ana: merged, one line; refused for two who sat at the same game.
    page = client.get(f"/t/{table}").get_data(as_text=True)
    refused = client.post(
        f"/t/{table}/merge",
        data={"name": "Bruno", "into": "Ana", "version": version_of(page)},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "Bruno and Ana played in the same game" in refused
    merged = client.post(
        f"/t/{table}/merge",
        data={"name": "Anna", "into": "Ana", "version": version_of(refused)},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "Anna and Ana are one person now." in merged
    stats = client.get(f"/t/{table}/statistics").get_data(as_text=True)
    assert '<th scope="row">Anna</th>' not in stats
    ana = re.search(r'<th scope="row">Ana</th><td class="num">(\d+)</td>', stats)
    assert ana is not None
    assert ana.group(1) == "4"  # three imported games and Anna's
    # A stale form changes nothing; the split puts Anna back.
    stale = client.post(
        f"/t/{table}/unmerge", data={"name": "Anna", "version": "0"}, follow_redirects=True
    ).get_data(as_text=True)
    assert "changed the table meanwhile" in stale
    client.post(f"/t/{table}/unmerge", data={"name": "Anna", "version": version_of(stale)})
    stats = client.get(f"/t/{table}/statistics").get_data(as_text=True)
    assert '<th scope="row">Anna</th>' in stats


def test_the_table_file_round_trips_and_the_csv_exports(client: FlaskClient) -> None:
    english(client)
    table, _games = evening_of_three(client)
    page = client.get(f"/t/{table}").get_data(as_text=True)
    client.post(
        f"/t/{table}/merge", data={"name": "Élodie", "into": "Driss", "version": version_of(page)}
    )
    data = client.get(f"/t/{table}/export.json").data
    exported_table = json.loads(data)
    assert exported_table["format"] == "referee-table/1"
    assert exported_table["aliases"] == {"Élodie": "Driss"}
    assert [g["game"] for g in exported_table["games"]] == ["boulmous", "pitch", "bombu"]
    response = client.post(
        "/tables/import",
        data={"table": (io.BytesIO(data), "table.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    copy = str(response.headers["Location"]).removeprefix("/t/")
    assert copy != table
    again = json.loads(client.get(f"/t/{copy}/export.json").data)
    assert again == exported_table
    # Every deal, one line per seat: 10 Boulmous deals × 4 + 3 Pitch × 4 + 6 Bombu × 4.
    deals = list(
        csv.DictReader(io.StringIO(client.get(f"/t/{table}/deals.csv").get_data(as_text=True)))
    )
    assert len(deals) == (10 + 3 + 6) * 4
    last_boulmous = [r for r in deals if r["kind"] == "boulmous" and r["deal"] == "10"]
    assert [r["total"] for r in last_boulmous] == ["21", "19", "9", "-3"]
    stats = list(
        csv.DictReader(io.StringIO(client.get(f"/t/{table}/statistics.csv").get_data(as_text=True)))
    )
    ana = next(r for r in stats if r["person"] == "Ana")
    assert (ana["games"], ana["wins"], ana["money:EUR"]) == ("3", "1", "14.00")
    assert ana["boulmous:bids"] == "4"
    assert "Élodie" not in {r["person"] for r in stats}  # merged into Driss


def test_a_bad_table_file_is_refused_whole_with_the_game_it_blames(client: FlaskClient) -> None:
    english(client)
    table, _games = evening_of_three(client)
    data = json.loads(client.get(f"/t/{table}/export.json").data)
    data["games"][1]["deals"][0]["bid"] = 99
    response = client.post(
        "/tables/import",
        data={"table": (io.BytesIO(json.dumps(data).encode()), "t.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Game 2 of the file: deal 1:" in response.get_data(as_text=True)
    for bad in (
        b"[]",
        b'{"format": "referee-table/9"}',
        b"{",
        b'{"format": "referee-table/1", "name": "x", "games": [], "extra": 1}',
    ):
        response = client.post(
            "/tables/import",
            data={"table": (io.BytesIO(bad), "t.json")},
            content_type="multipart/form-data",
        )
        assert response.status_code == 422, bad


def test_spectators_see_without_any_editor_link_and_rotation_cuts_off(client: FlaskClient) -> None:
    english(client)
    table, games = evening_of_three(client)
    share = client.get(f"/t/{table}/share").get_data(as_text=True)
    viewer = re.search(r"/tv/([A-Za-z0-9_-]+)", share)
    assert viewer is not None
    for path in ("", "/statistics", "/evening/2026-11-27"):
        page = client.get(f"/tv/{viewer.group(1)}{path}").get_data(as_text=True)
        assert table not in page, path
        assert not any(token in page for token in games), path
    assert client.get(f"/tv/{viewer.group(1)}/evening/2026-11-27/sheet.pdf").status_code == 200
    client.post(f"/t/{table}/rotate", data={"which": "viewer"})
    assert client.get(f"/tv/{viewer.group(1)}").status_code == 404
    response = client.post(f"/t/{table}/rotate", data={"which": "editor"})
    assert client.get(f"/t/{table}").status_code == 404
    assert response.status_code == 302


def test_each_games_outcome_memo_is_kept_and_used_only_while_it_holds(
    app: Any, client: FlaskClient
) -> None:
    """The statistics read each game's memo of its outcome; a memo of another
    version or another engine is never used, and is derived again from the deals."""
    from referee.engine.statistics import outcome
    from referee.extensions import db
    from referee.lru import LRU
    from referee.models import Game
    from referee.services import games as game_service
    from referee.services import tables as table_service

    english(client)
    table, tokens = evening_of_three(client)
    deal = {"taker": "1", "bid": "4", "contract": "spades", "action": "save"}
    deal.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 4, 1, 0])})
    played_here = new_game(client, "boulmous", BOULMOUS, table=table)
    client.post(f"/g/{played_here}/deal", data=deal)
    truth = client.get(f"/t/{table}/statistics.csv").get_data(as_text=True)
    with app.app_context():
        for game in db.session.scalars(db.select(Game)).all():
            memo = game_service.current_outcome(game)
            assert memo is not None, game.game  # written by every write, imports too
            derived = game_service.scored(game)
            assert memo == outcome(derived.record, derived.standings)
        # Poisoned memos: one of an older version, one of another engine, one gone.
        games = {g.token: g for g in db.session.scalars(db.select(Game)).all()}
        lie = {**games[tokens[0]].outcome, "version": games[tokens[0]].version - 1}
        lie["outcome"] = {**lie["outcome"], "winners": [3], "tally": {}}
        games[tokens[0]].outcome = lie
        other = dict(games[played_here].outcome)
        other["engine"] = "another engine"
        other["outcome"] = {**other["outcome"], "scores": [0, 99, 0, 0]}
        games[played_here].outcome = other
        games[tokens[1]].outcome = None
        db.session.commit()
    table_service._STATISTICS = LRU(64)  # nothing derived before may answer
    assert client.get(f"/t/{table}/statistics.csv").get_data(as_text=True) == truth
    with app.app_context():
        for game in db.session.scalars(db.select(Game)).all():
            assert game_service.current_outcome(game) is not None  # derived, and kept


def test_a_new_game_at_the_table_suggests_its_people_and_a_rename_shows(
    client: FlaskClient,
) -> None:
    english(client)
    table = new_table(client)
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Pegy"], table=table)
    new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Peggy"], table=table)
    page = client.get(f"/t/{table}").get_data(as_text=True)
    client.post(
        f"/t/{table}/merge", data={"name": "Pegy", "into": "Peggy", "version": version_of(page)}
    )
    form = client.get(f"/new?game=pitch&table={table}").get_data(as_text=True)
    suggested = re.findall(r'<option value="([^"]+)">', form[form.index('id="known-names"') :])
    assert suggested[:4] == ["Ana", "Bruno", "Chloé", "Peggy"]
    assert client.get(f"/g/{token}").get_data(as_text=True).count("Tuesday club") == 1
    page = client.get(f"/t/{table}").get_data(as_text=True)
    client.post(f"/t/{table}/rename", data={"name": "The cousins", "version": version_of(page)})
    assert "The table: The cousins" in client.get(f"/g/{token}").get_data(as_text=True)


def seated(form: str) -> list[str]:
    """The names a new-game form puts in its seats, seat by seat (empty: none)."""
    return re.findall(r'<input id="player\d+" name="player\d+" value="([^"]*)"', form)


def test_a_new_tables_people_sit_at_its_first_game(client: FlaskClient) -> None:
    """The new-table form takes the table's people, as the new-game form does: its
    first game starts with them in their seats; once a game is played, the seats
    are that game's."""
    english(client)
    form = client.get("/tables/new").get_data(as_text=True)
    assert 'name="person0"' in form
    assert 'name="person11"' in form  # a big table (the score pad seats 12)
    people = {"person0": "Ana", "person1": " Bruno ", "person3": "Chloé", "person4": "Driss"}
    response = client.post("/tables/new", data={"name": "The cousins", **people})
    assert response.status_code == 302
    table = str(response.headers["Location"]).removeprefix("/t/")
    form = client.get(f"/new?game=boulmous&table={table}").get_data(as_text=True)
    assert seated(form) == ["Ana", "Bruno", "Chloé", "Driss"]
    suggested = re.findall(r'<option value="([^"]+)">', form[form.index('id="known-names"') :])
    assert suggested[:4] == ["Ana", "Bruno", "Chloé", "Driss"]
    # Pitch seats five: the fifth stays empty.
    assert seated(client.get(f"/new?game=pitch&table={table}").get_data(as_text=True)) == [
        "Ana", "Bruno", "Chloé", "Driss", "",
    ]  # fmt: skip
    # Once a game is played there, the seats are the last game's.
    new_game(client, "boulmous", ["Driss", "Chloé", "Bruno", "Ana"], table=table)
    form = client.get(f"/new?game=bombu&table={table}").get_data(as_text=True)
    assert seated(form) == ["Driss", "Chloé", "Bruno", "Ana"]


def test_a_new_tables_people_are_checked_as_players_names(client: FlaskClient) -> None:
    english(client)
    response = client.post(
        "/tables/new", data={"name": "The cousins", "person0": "Ana", "person2": "ana"}
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "two players have the same name" in page.lower()
    assert 'value="ana"' in page  # what was typed, kept
    response = client.post("/tables/new", data={"name": "The cousins", "person0": "x" * 41})
    assert response.status_code == 422
    # A table of no people is made as before.
    assert client.post("/tables/new", data={"name": "The cousins"}).status_code == 302


def test_a_game_of_another_table_moves_only_when_asked(client: FlaskClient) -> None:
    """Its editors' link pasted at a second table: the page asks first, naming the
    table it is at; "No" leaves it there, "Yes" moves it."""
    english(client)
    first = new_table(client, "Grande tablée")
    second = new_table(client, "Les voisins")
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"], table=first)
    asked = client.post(f"/t/{second}/join", data={"game": f"http://localhost/g/{token}"})
    text = asked.get_data(as_text=True)
    assert asked.status_code == 200
    assert "This game is at the table “Grande tablée”" in text
    assert f"/g/{token}" in client.get(f"/t/{first}").get_data(as_text=True)
    assert f"/g/{token}" not in client.get(f"/t/{second}").get_data(as_text=True)
    again = client.get(f"/t/{second}/join")  # the asking page's address, reloaded
    assert again.status_code == 302
    assert again.headers["Location"] == f"/t/{second}"
    client.post(f"/t/{second}/join", data={"game": f"http://localhost/g/{token}", "move": "1"})
    assert f"/g/{token}" in client.get(f"/t/{second}").get_data(as_text=True)
    assert f"/g/{token}" not in client.get(f"/t/{first}").get_data(as_text=True)
