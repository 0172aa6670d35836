"""A fourth game plays through the whole app without a line of `referee/` changed.

Tally (tests/web/fourth/) registers its rules beside the engine's `GAMES` and its
home beside `HOMES`, with its own templates, and is then played as a table would:
new game, deals, a correction, the scoreboard, export and import, the score sheet,
the rules page and the blank sheet.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from referee.games import GAMES
from referee.web.homes import HOMES
from tests.web.fourth.tally import HOME, TALLY
from tests.web.test_sheets import pdf_text


@pytest.fixture
def tally() -> Iterator[None]:
    GAMES[TALLY.key] = TALLY
    HOMES[HOME.key] = HOME
    yield
    del GAMES[TALLY.key]
    del HOMES[HOME.key]


def test_a_fourth_game_plays_through_every_page(tally: None, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    assert "Tally" in client.get("/new").get_data(as_text=True)
    page = client.get("/new?game=tally").get_data(as_text=True)
    assert "Target score" in page
    assert 'name="player3"' in page  # four seats, the fourth optional
    form = {"game": "tally", "first_dealer": "1", "currency": "EUR", "rule_target": "6"}
    form.update({"player0": "Ana", "player1": "Bruno", "player2": "Chloé"})
    created = client.post("/new", data=form)
    assert created.status_code == 302, created.get_data(as_text=True)
    token = created.headers["Location"].removeprefix("/g/")

    deal_page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert "Points made" in deal_page
    assert "Dealer: Bruno" in deal_page
    save = {"action": "save", "points0": "3", "points1": "1", "points2": "0"}
    assert client.post(f"/g/{token}/deal", data=save).status_code == 302
    too_many = {"action": "save", "points0": "9", "points1": "1", "points2": "0"}
    refused = client.post(f"/g/{token}/deal", data=too_many)
    assert refused.status_code == 422
    assert 'value="9"' in refused.get_data(as_text=True)  # the entries are kept

    edit = client.get(f"/g/{token}/deal/1/edit").get_data(as_text=True)
    assert 'name="points0" value="3"' in edit
    correction = {"action": "save", "points0": "2", "points1": "2", "points2": "1"}
    corrected = client.post(f"/g/{token}/deal/1/edit", data={**correction, "version": "1"})
    assert corrected.status_code == 302
    last = {"action": "save", "points0": "4", "points1": "0", "points2": "0"}
    assert client.post(f"/g/{token}/deal", data=last).status_code == 302

    board = client.get(f"/g/{token}").get_data(as_text=True)
    assert "tally 2-2-1" in board
    assert "tally 4-0-0" in board
    assert "Winner:" in board
    assert "Ana" in board

    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["game"] == "tally"
    assert [d["points"] for d in record["deals"]] == [[2, 2, 1], [4, 0, 0]]
    imported = client.post(
        "/import",
        data={"record": (io.BytesIO(client.get(f"/g/{token}/export.json").data), "t.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 302
    assert client.get(imported.headers["Location"]).status_code == 200

    pages, lines = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert pages == 1
    text = "\n".join(lines)
    assert "Tally" in text
    assert "tally 4-0-0" in text
    assert "Chloé" in text
    rules = client.get(f"/g/{token}/rules").get_data(as_text=True)
    assert "first to the target wins" in rules
    assert "Target score" in rules
    blank = client.get(f"/g/{token}/blank.pdf")
    assert blank.status_code == 200
    assert blank.data.startswith(b"%PDF")
    assert client.get(f"/g/{token}/history").status_code == 200
    # At a table: its statistics count what the game declares, in its own words.
    table = client.post("/tables/new", data={"name": "Club"}).headers["Location"]
    client.post(f"{table}/join", data={"game": token})
    stats = client.get(f"{table}/statistics").get_data(as_text=True)
    assert '<th scope="row">full deals</th>' in stats
