"""Names that read alike, through the web (issue 37, item 7): refused as two seats of
a game (new game, rename, import), one person at a table and its evening, and shown
isolated wherever a page, a sheet or a chart puts them inside other text."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader
from sqlalchemy import select

from referee.app import create_app
from referee.extensions import db
from referee.models import Game
from referee.services.backup import backup, restore
from referee.services.games import bump
from tests.conftest import EXAMPLES
from tests.web.conftest import new_game
from tests.web.test_table_loop import english
from tests.web.test_tables import imported, join, new_table, version_of

CYRILLIC_ANA = "\u0410na"  # А (Cyrillic capital A), then Latin "na"
ZWSP = "\u200b"
RLO, PDF, FSI, PDI = "\u202e", "\u202c", "\u2068", "\u2069"
NOUR = "نور"  # a name written right to left
DAY = {"date": "2026-11-27"}


def refused_new_game(client: FlaskClient, players: list[str]) -> str:
    data = {"game": "boulmous", "first_dealer": "0", "currency": "EUR"}
    data.update({f"player{seat}": name for seat, name in enumerate(players)})
    response = client.post("/new", data=data)
    assert response.status_code == 422
    return response.get_data(as_text=True)


@pytest.mark.parametrize("twin", [CYRILLIC_ANA, "Ana" + ZWSP, "ANA"])
def test_a_new_game_refuses_two_names_that_read_the_same(client: FlaskClient, twin: str) -> None:
    english(client)
    page = refused_new_game(client, ["Ana", "Bruno", twin, "Driss"])
    assert "Two players have the same name: Ana (seats 1 and 3)" in page
    client.get("/lang/fr?next=/")
    page = refused_new_game(client, ["Ana", "Bruno", twin, "Driss"])
    assert "Deux joueurs s’appellent pareil\u202f: Ana (places 1 et 3)" in page


def test_a_name_of_only_invisible_characters_is_refused(client: FlaskClient) -> None:
    english(client)
    page = refused_new_game(client, ["Ana", ZWSP + "\u2060", "Chloé", "Driss"])
    assert "The player at seat 2 needs a name" in page


def test_names_are_stored_clean(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["Ana" + ZWSP, "Bruno", "Chloe\u0301", f"{RLO}Driss"])
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["players"] == ["Ana", "Bruno", "Chloé", "Driss"]


def test_a_rename_to_a_name_that_reads_like_another_seat_is_refused(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    response = client.post(
        f"/g/{token}/players", data={"seat": "2", "version": "0", "name": CYRILLIC_ANA}
    )
    assert response.status_code == 422
    assert "Two players have the same name: Ana (seats 1 and 3)" in response.get_data(True)
    # The same name with an invisible character is no new name: nothing changes.
    client.post(f"/g/{token}/players", data={"seat": "1", "version": "0", "name": "Bruno\u200b"})
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["players"] == ["Ana", "Bruno", "Chloé", "Driss"]
    assert len(client.get(f"/g/{token}/history").get_data(True).split("renamed")) == 1


def test_an_imported_record_with_names_that_read_the_same_is_refused(client: FlaskClient) -> None:
    english(client)
    record = json.loads((EXAMPLES / "boulmous-with-stake.json").read_text())
    record["players"] = ["Ana", "Bruno", "Chloé", "ana" + ZWSP]
    response = client.post(
        "/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "game.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Two players have the same name: Ana (seats 1 and 4)" in response.get_data(True)


def test_a_game_kept_with_names_that_read_the_same_still_opens(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """Kept from before names were compared (its seats "Ana" and "Ana" + U+200B): it
    opens, takes deals back, is backed up and restored; a rename is checked in full."""
    english(client)
    token, _viewer = legacy_game(app, client, ["Ana", "Ana" + ZWSP, "Chloé", "Driss"])
    for path in ("", "/history", "/players", "/sheet.pdf", "/export.json"):
        assert client.get(f"/g/{token}{path}").status_code == 200, path
    with app.app_context():
        version = db.session.scalar(select(Game.version).where(Game.token == token))
    client.post(f"/g/{token}/undo", data={"version": str(version)})
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert (record["players"], len(record["deals"])) == (["Ana", "Ana" + ZWSP, "Chloé", "Driss"], 2)
    with app.app_context():
        assert backup(tmp_path / "b")[:2] == (1, [])
    fresh = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.db'}", "SECRET_KEY": "t"}
    )
    with fresh.app_context():
        assert restore(tmp_path / "b").restored == 1
        db.engine.dispose()
    assert fresh.test_client().get(f"/g/{token}").status_code == 200
    # Renaming another seat says what is wrong; renaming one of the two mends it.
    refused = client.post(
        f"/g/{token}/players", data={"seat": "3", "version": str(version + 1), "name": "Dris"}
    )
    assert "Two players have the same name: Ana (seats 1 and 2)" in refused.get_data(True)
    client.post(
        f"/g/{token}/players", data={"seat": "1", "version": str(version + 1), "name": "Bea"}
    )
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["players"] == ["Ana", "Bea", "Chloé", "Driss"]


# --- a table ------------------------------------------------------------------------


def evening_of_look_alikes(client: FlaskClient) -> str:
    """Two games of one evening at a table: Ana's, then "Аna"'s (Cyrillic А)."""
    table = new_table(client)
    games = [
        imported(client, "boulmous-with-stake", players=["Ana", "Bruno", "Chloé", "Driss"], **DAY),
        imported(
            client, "boulmous-with-stake", players=["Bruno", CYRILLIC_ANA, "Chloé", "Driss"], **DAY
        ),
    ]
    for token in games:
        join(client, table, f"http://localhost/g/{token}")
    return table


def test_an_evening_reads_names_that_read_the_same_as_one_person(client: FlaskClient) -> None:
    english(client)
    table = evening_of_look_alikes(client)
    evening = client.get(f"/t/{table}/evening/2026-11-27").get_data(as_text=True)
    assert CYRILLIC_ANA not in evening
    ledger = evening[evening.index('class="ledger') :]
    rows = re.findall(r'<th scope="row">([^<]+)</th>', ledger)
    assert rows == ["Ana", "Bruno", "Chloé", "Driss"]
    transfers = re.findall(r"<li>(\w+) pays (\w+) €", evening)
    assert transfers
    assert all(payer != payee for payer, payee in transfers)
    stats = client.get(f"/t/{table}/statistics").get_data(as_text=True)
    assert CYRILLIC_ANA not in stats
    ana = re.search(r'<th scope="row">Ana</th><td class="num">(\d+)</td>', stats)
    assert ana is not None
    assert ana.group(1) == "2"


def test_merging_two_names_that_read_the_same_is_refused(client: FlaskClient) -> None:
    english(client)
    table = evening_of_look_alikes(client)
    page = client.get(f"/t/{table}").get_data(as_text=True)
    refused = client.post(
        f"/t/{table}/merge",
        data={"name": CYRILLIC_ANA, "into": "Ana", "version": version_of(page)},
        follow_redirects=True,
    ).get_data(as_text=True)
    assert "&#34;Ana&#34; is one person already" in refused


# --- names shown inside other text ----------------------------------------------------


def legacy_game(app: Flask, client: FlaskClient, kept: list[str] | None = None) -> tuple[str, str]:
    """A game kept from before names were cleaned, three deals in (by default a
    right-to-left override at the head of Ana's name, which a new game drops; else
    `kept`). Its editor and spectator tokens."""
    deals = json.loads((EXAMPLES / "boulmous-with-stake.json").read_text())["deals"][:3]
    players = ["Ana", NOUR, "Bruno", "Chloé"]
    token = imported(
        client, "boulmous-with-stake", players=players, deals=deals, stake_per="point", **DAY
    )
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        game.players = kept or [RLO + "Ana", NOUR, "Bruno", "Chloé"]
        bump(game)
        db.session.commit()
        return token, game.view_token


#: What a chat reads of a page (its preview card, the text sent with the result
#: picture): plain text, without the override and without isolates, which chats
#: draw as boxes (tests/web/test_result_picture.py).
CHAT_TEXT = re.compile(
    r'<meta (?:property|name)="(?:og|twitter):[^>]*>|data-(?:title|text)="[^"]*"'
)


def assert_isolated(page: str, where: str) -> None:
    """Every name that could move its line is shown isolated: the override closed
    inside its isolate, the right-to-left name inside one too."""
    for chat in CHAT_TEXT.findall(page):
        assert RLO not in chat, (where, chat)
    page = CHAT_TEXT.sub("", page)
    assert page.count(RLO) == page.count(f"{FSI}{RLO}Ana{PDF}{PDI}"), where
    for match in re.finditer(NOUR, page):
        assert page[: match.start()].endswith(FSI), (where, page[match.start() - 40 : match.end()])


def test_no_name_reorders_the_text_around_it_in_any_page(app: Flask, client: FlaskClient) -> None:
    english(client)
    token, viewer = legacy_game(app, client)
    table = new_table(client)
    join(client, table, f"http://localhost/g/{token}")
    pages = [
        f"/g/{token}",
        f"/g/{token}/history",
        f"/g/{token}/deal",
        f"/g/{token}/deal/1/edit",
        f"/g/{token}/players",
        f"/g/{token}/judge",
        f"/g/{token}/share",
        f"/v/{viewer}",
        "/",
        f"/new?game=boulmous&table={table}",
        f"/t/{table}",
        f"/t/{table}/evening/2026-11-27",
        f"/t/{table}/statistics",
    ]
    seen = 0
    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        page = response.get_data(as_text=True)
        assert_isolated(page, path)
        seen += page.count(RLO)
    assert seen > 20
    # "Ana pays Bruno": the line reads as it should, the override kept to the name.
    board = client.get(f"/g/{token}").get_data(as_text=True)
    assert f"{FSI}{RLO}Ana{PDF}{PDI} pays Bruno" in board or f"pays {FSI}{RLO}Ana" in board


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_no_name_reorders_the_text_around_it_on_the_sheets(app: Flask, client: FlaskClient) -> None:
    """The sheet as drawn: an override left open would print the rest of its line
    backwards ("onurB" for Bruno)."""
    english(client)
    token, _viewer = legacy_game(app, client)
    table = new_table(client)
    join(client, table, f"http://localhost/g/{token}")
    for path in (f"/g/{token}/sheet.pdf", f"/t/{table}/evening/2026-11-27/sheet.pdf"):
        text = pdf_text(client.get(path).data)
        assert "Bruno" in text, path
        assert "onurB" not in text, path
        assert "olhC" not in text, path
    sheet = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert "Seat 3: Bruno" in sheet
