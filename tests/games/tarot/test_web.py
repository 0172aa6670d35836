"""Tarot through the app's pages, as a table of five would play it (issue 54): a new
game, the deal form's entries read (the grid, the partner, the defence's points, a
comma's half point, what "More" holds), refusals kept with their entries, a
correction, undo, the scoreboard and its "Why?", the score sheet and the blank
sheet, the picture, the API, the TV, export and import, the statistics; and a
concours of tarot at tables of five, ranked as `referee rank` ranks its export."""

from __future__ import annotations

import io
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.events.concours import rank
from referee.events.eventfile import parse_event
from referee.services import events as service
from tests.web.test_concours import create, fresh, page, version
from tests.web.test_sheets import pdf_text

FIVE = ["Ana", "Bruno", "Chloé", "Driss", "Élise"]


def new_game(client: FlaskClient, names: list[str], **more: str) -> str:
    form = {"game": "tarot", "first_dealer": "0", "currency": "EUR", **more}
    form.update({f"player{seat}": name for seat, name in enumerate(names)})
    created = client.post("/new", data=form)
    assert created.status_code == 302, created.get_data(as_text=True)
    return str(created.headers["Location"]).removeprefix("/g/")


def deal(client: FlaskClient, token: str, **fields: str) -> int:
    return client.post(f"/g/{token}/deal", data={"action": "save", **fields}).status_code


def test_a_tarot_evening_of_five_through_every_page(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    assert "Tarot" in page(client, "/new")
    token = new_game(client, FIVE, stake="0.10", stake_per="point")
    form = page(client, f"/g/{token}/deal")
    assert "King called: who holds it" in form
    assert 'id="take_4_garde_contre"' in form
    # Bruno takes a garde, Driss holds the king; the defence counted 46½: 44½ theirs.
    assert deal(client, token, take="1:garde", partner="3", bouts="2", defence="46,5") == 302
    # A refusal keeps what was typed, and says why in the players' words.
    refused = client.post(
        f"/g/{token}/deal",
        data={"action": "save", "take": "0:petite", "partner": "0", "bouts": "3", "points": "12"},
    )
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "12 points cannot hold 3 bouts" in text
    assert 'value="12"' in text
    # Élise alone (her own king), a garde sans with a simple poignée and the petit lost.
    more = {"petit": "defence", "poignees1": "1", "poignees2": "0", "poignees3": "0"}
    assert (
        deal(client, token, take="4:garde_sans", partner="4", bouts="2", points="52", **more) == 302
    )
    assert deal(client, token, take="passed") == 302
    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["deals"] == [
        {"taker": 1, "contract": "garde", "partner": 3, "bouts": 2, "points": 44.5},
        {
            "taker": 4,
            "contract": "garde_sans",
            "partner": 4,
            "bouts": 2,
            "points": 52,
            "petit_au_bout": "defence",
            "poignees": [1],
        },
        {"taker": None},
    ]
    # (25 + 4) × 2 = 58: Bruno +116, Driss +58; (25 + 11) × 4 − 40 + 20 = 124, ×4.
    board = page(client, f"/g/{token}")
    assert "Bruno · garde · with Driss · 2 bouts · 44½ points" in board
    assert "Élise · garde sans le chien · alone" in board
    assert "Everyone passed" in board
    assert "Bruno took a garde (×2) with 2 bouts: 41 points needed." in board
    assert "44½ points: made by 4, (25 + 4) × 2 = 58." in board
    assert client.get(f"/g/{token}/history").status_code == 200
    # A correction: the form comes back with the deal, then saved with 47.
    edit = page(client, f"/g/{token}/deal/1/edit")
    assert re.search(r'value="1:garde"\s+checked', edit)
    assert 'value="44½"' in edit
    fixed = client.post(
        f"/g/{token}/deal/1/edit",
        data={
            "action": "save",
            "take": "1:garde",
            "partner": "3",
            "bouts": "2",
            "points": "47",
            "version": re.search(r'name="version" value="(\d+)"', edit)[1],  # type: ignore[index]
        },
    )
    assert fixed.status_code == 302, fixed.get_data(as_text=True)
    scores = client.get(f"/g/{token}/export.json").get_json()["deals"][0]["points"]
    assert scores == 47
    # Undo the deal everyone passed, and the game goes on.
    board = page(client, f"/g/{token}")
    now = re.search(r'name="version" value="(\d+)"', board)
    assert now is not None
    assert client.post(f"/g/{token}/undo", data={"version": now[1]}).status_code == 302
    assert len(client.get(f"/g/{token}/export.json").get_json()["deals"]) == 2
    # The last deal ends the game: Élise's petite failed.
    last = {"take": "2:petite", "partner": "0", "bouts": "1", "points": "40", "last": "1"}
    assert deal(client, token, **last) == 302
    board = page(client, f"/g/{token}")
    assert "Winner" in board
    # The sheets, the rules, the history, export and import.
    pages, lines = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert pages >= 1
    sheet = "\n".join(lines)
    assert "Tarot" in sheet
    assert "garde sans le chien" in sheet
    blank = client.get(f"/g/{token}/blank.pdf")
    assert blank.data.startswith(b"%PDF")
    assert "8, 10, 13 trumps" in "\n".join(pdf_text(blank.data)[1])
    assert "FFT" in page(client, f"/g/{token}/rules") or "Tarot" in page(
        client, f"/g/{token}/rules"
    )
    imported = client.post(
        "/import",
        data={"record": (io.BytesIO(client.get(f"/g/{token}/export.json").data), "t.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 302
    # The picture, the TV, the API and the statistics at a table.
    share = page(client, f"/g/{token}/share")
    view = re.search(r"/v/([A-Za-z0-9_-]+)", share)
    assert view is not None
    picture = client.get(f"/v/{view[1]}/picture.png")
    assert picture.status_code == 200
    assert picture.data.startswith(b"\x89PNG")
    table = client.post("/tables/new", data={"name": "Club"}).headers["Location"]
    client.post(f"{table}/join", data={"game": token})
    stats = page(client, f"{table}/statistics")
    assert "contracts taken" in stats
    assert "contracts made" in stats
    tv = re.search(r"/tv/[A-Za-z0-9_-]+", page(client, f"{table}/share"))
    assert tv is not None
    assert "Élise" in page(client, tv[0])


def test_the_api_reads_and_writes_a_tarot_deal(client: FlaskClient) -> None:
    token = new_game(client, FIVE[:4])
    posted = client.post(
        f"/api/v1/edit/{token}/deals",
        data=json.dumps({"deal": {"taker": 0, "contract": "garde", "bouts": 2, "points": 47}}),
        content_type="application/json",
    )
    assert posted.status_code in (200, 201), posted.get_data(as_text=True)
    bad = client.post(
        f"/api/v1/edit/{token}/deals",
        data=json.dumps({"deal": {"taker": 0, "contract": "garde", "bouts": 2, "points": 47.5}}),
        content_type="application/json",
    )
    assert bad.status_code == 422
    assert "nombre pair de cartes" in json.dumps(bad.get_json(), ensure_ascii=False)
    assert client.get(f"/g/{token}/export.json").get_json()["deals"][0]["points"] == 47


@pytest.mark.parametrize("size", [4, 5])
def test_a_concours_of_tarot_at_tables_of_four_and_five(
    app: Flask, client: FlaskClient, size: int
) -> None:
    """The club's players at tables of four or five, one round of two deals each;
    the ranking the pages show is `referee rank`'s on the export."""
    client.get("/lang/en?next=/")
    token, event = create(app, client, game="tarot", table_size=str(size), rounds="1")
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    event = fresh(app, event.id)
    play = event.play_token
    tables = [t for t in event.tables if t.round == 1]
    assert {len(t.seats) for t in tables} == {size}
    for table in tables:
        assert table.game_row is not None
        key = service.table_key(event, table.number)
        page(client, f"/c/{play}/{table.number}?k={key}")
        game = table.game_row.token
        bouts = str(table.number % 4)
        called = {"partner": "2"} if size == 5 else {}
        alone = {"partner": "3"} if size == 5 else {}
        assert deal(client, game, take="0:garde", bouts=bouts, points="60", **called) == 302
        assert deal(client, game, take="3:petite", bouts="1", points="30", **alone) == 302
        names = [p.name for p in event.players]
        who = names[table.seats[1] - 1]
        opponent = app.test_client()
        page(opponent, f"/c/{play}/{table.number}?k={key}")
        current = version(client, event.view_token)
        accepted = opponent.post(f"/c/{play}/{table.number}", data={"who": who, "version": current})
        assert accepted.status_code == 302, accepted.get_data(as_text=True)
    exported = client.get(f"/e/{token}/export.json")
    data = exported.get_json()
    shown = rank(parse_event(data).concours)
    assert len(shown) == len(event.players)
    ranking = page(client, f"/ev/{event.view_token}")
    order = [line.name for line in shown]
    assert [name for name in order if name in ranking] == order
    assert ranking.index(order[0]) < ranking.index(order[-1])


def test_a_table_that_says_prise_reads_prise(client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    new = page(client, "/new?game=tarot")
    assert "Nom du plus petit contrat" in new
    token = new_game(client, FIVE[:4], rule_small="prise")
    form = page(client, f"/g/{token}/deal")
    assert ">Prise</th>" in form
    assert deal(client, token, take="2:petite", bouts="1", points="51") == 302
    assert "Chloé · prise · 1 bout · 51 points" in page(client, f"/g/{token}")
    assert client.get(f"/g/{token}/export.json").get_json()["rules"]["small"] == "prise"


def test_an_empty_form_is_no_deal_and_every_reason_reaches_the_live_preview(
    client: FlaskClient,
) -> None:
    """Record on an empty form records nothing (only "Everyone passed" passes); the
    live preview shows the reasons of the defence's box and of the poignées, whose
    boxes are named after the fields the engine blames."""
    client.get("/lang/en?next=/")
    token = new_game(client, FIVE)
    empty = client.post(f"/g/{token}/deal", data={"action": "save"})
    assert empty.status_code == 422
    assert client.get(f"/g/{token}/export.json").get_json()["deals"] == []
    base = {"take": "1:garde", "partner": "3", "bouts": "2"}
    typo = client.post(f"/g/{token}/preview.json", data={**base, "defence": "4o"}).get_json()
    assert "4o" in json.dumps(typo["errors"]["defence"], ensure_ascii=False)
    both = {**base, "points": "50", "defence": "30", "poignees3": "2"}
    answer = client.post(f"/g/{token}/preview.json", data=both).get_json()
    assert "add up to 91" in answer["errors"]["defence"][0]
    assert "26 trumps" in answer["errors"]["poignees"][0]
    hostile = {**base, "points": "50", "petit": "both", "chelem": "always", "poignees1": "x"}
    refused = client.post(f"/g/{token}/deal", data={"action": "save", **hostile})
    assert refused.status_code == 422
    four = new_game(client, FIVE[:4])
    partner = {"take": "0:garde", "partner": "2", "bouts": "2", "points": "50"}
    assert client.post(f"/g/{four}/deal", data={"action": "save", **partner}).status_code == 422
