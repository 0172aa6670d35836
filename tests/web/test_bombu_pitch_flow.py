"""Bombu and Pitch through the forms, each played to the end."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.engine.helpers import BOMBU_MANCHE
from tests.web.conftest import new_game


def form_of_bombu(deal: dict[str, Any]) -> dict[str, str]:
    data = {"action": "save", "contract": deal["contract"]}
    for key in ("tricks", "hearts", "queens"):
        for seat, count in enumerate(deal.get(key, [])):
            data[f"{key}{seat}"] = str(count)
    if "bombu" in deal:
        data["bombu"] = str(deal["bombu"])
    for place, seat in enumerate(deal.get("finish", [])):
        data[f"finish{place}"] = str(seat)
    return data


def record(client: FlaskClient, token: str) -> Any:
    return json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))


def test_bombu_whole_game(client: FlaskClient) -> None:
    token = new_game(client, "bombu", ["Marius", "Fanny", "César", "Honorine"], stake="1")
    client.get("/lang/en?next=/")
    choose = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert "id=contract_salad " in choose  # a pill of the deal form itself
    form = client.get(f"/g/{token}/deal?contract=salad").get_data(as_text=True)
    assert "id=contract_salad name=contract value=salad checked" in form
    # The Salad's fields are shown for it; the Réussite's are not (CSS: its class only).
    assert "name=hearts0 " in form
    hearts = form[: form.index("name=hearts0 ")]
    assert "cf-salad" in hearts[hearts.rindex('<div class="cf') :]
    finish = form[: form.index("name=finish0 ")]
    assert "cf-salad" not in finish[finish.rindex('class="finish cf') :]
    for number in range(24):
        deal = BOMBU_MANCHE[number % 6]
        r = client.post(f"/g/{token}/deal", data=form_of_bombu(deal))
        assert r.status_code == 302, (number, r.get_data(as_text=True)[-3000:])
        if number == 1:
            left = client.get(f"/g/{token}/deal").get_data(as_text=True)
            assert "id=contract_no-tricks " not in left
            assert "id=contract_no-queens " in left
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Fanny" in page
    assert "Winner" in page
    assert len(record(client, token)["deals"]) == 24


def test_bombu_miscount_and_contract_twice(client: FlaskClient) -> None:
    token = new_game(client, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    client.get("/lang/en?next=/")
    salad = {**BOMBU_MANCHE[4], "tricks": [2, 3, 0, 3], "hearts": [2, 3, 1, 2]}
    r = client.post(f"/g/{token}/deal", data=form_of_bombu(salad))
    assert r.status_code == 422
    assert "César took no trick, so cannot have 1 heart" in r.get_data(as_text=True)
    client.post(f"/g/{token}/deal", data=form_of_bombu(BOMBU_MANCHE[0]))
    r = client.post(f"/g/{token}/deal", data=form_of_bombu(BOMBU_MANCHE[0]))
    assert r.status_code == 422
    assert "already played in manche 1" in r.get_data(as_text=True)


def test_bombu_capot_in_salad_with_counts_left_empty(client: FlaskClient) -> None:
    token = new_game(client, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    data = {"action": "save", "contract": "salad", "tricks0": "8"}
    r = client.post(f"/g/{token}/deal", data=data)
    assert r.status_code == 302
    assert record(client, token)["deals"][0] == {"contract": "salad", "tricks": [8, 0, 0, 0]}


def test_bombu_capot_with_the_bombu_ticked_for_its_taker(client: FlaskClient) -> None:
    """The capot trap of the table: all 8 tricks to Fanny, the K♥ ticked for her."""
    token = new_game(client, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    data = {"action": "save", "contract": "salad", "tricks1": "8", "bombu": "1"}
    r = client.post(f"/g/{token}/deal", data=data)
    assert r.status_code == 302
    stored = record(client, token)["deals"][0]
    assert (stored["hearts"], stored["queens"], stored["bombu"]) == ([0, 8, 0, 0], [0, 4, 0, 0], 1)


PITCH = ["Dale", "Rhonda", "Earl", "Peggy"]
CARDS = ["ace", "jack", "off_jack", "joker_high", "joker_low", "ten", "three", "two"]


def pitch_form(
    bidder: int, bid: str, trump: str, won: dict[str, str], **extra: str
) -> dict[str, str]:
    data = {"action": "save", "bidder": str(bidder), "bid": bid, "trump": trump, **extra}
    data.update({f"p_{card}": seat for card, seat in won.items()})
    return data


def test_pitch_four_handed_to_the_moon(client: FlaskClient) -> None:
    token = new_game(client, "pitch", PITCH, stake="0.50")
    won = dict(zip(CARDS, ["1", "3", "0", "1", "2", "3", "1", "0"], strict=True))
    assert (
        client.post(f"/g/{token}/deal", data=pitch_form(1, "5", "hearts", won)).status_code == 302
    )
    moon = dict.fromkeys(CARDS, "3")
    assert (
        client.post(f"/g/{token}/deal", data=pitch_form(3, "moon", "spades", moon)).status_code
        == 302
    )
    exported = record(client, token)
    from referee.engine.records import parse_record, score_record

    result = score_record(parse_record(exported))
    assert result.winners == (1, 3)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Rhonda &amp; Peggy" in page


def test_pitch_dead_card_and_missing_card(client: FlaskClient) -> None:
    token = new_game(client, "pitch", PITCH)
    client.get("/lang/en?next=/")
    won = dict.fromkeys(CARDS, "0")
    won["off_jack"] = "dead"
    assert client.post(f"/g/{token}/deal", data=pitch_form(0, "4", "clubs", won)).status_code == 302
    assert record(client, token)["deals"][0]["points"]["off_jack"] is None
    del won["two"]
    r = client.post(f"/g/{token}/deal", data=pitch_form(0, "4", "clubs", won))
    assert r.status_code == 422
    assert "Who won the two?" in r.get_data(as_text=True)


def test_pitch_five_handed(client: FlaskClient) -> None:
    token = new_game(client, "pitch", [*PITCH, "Walt"])
    form = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert "name=partner " in form
    won = dict.fromkeys(CARDS, "4")
    r = client.post(f"/g/{token}/deal", data=pitch_form(0, "6", "spades", won, partner="4"))
    assert r.status_code == 302
    r = client.post(f"/g/{token}/deal", data=pitch_form(1, "4", "spades", won, partner="alone"))
    assert r.status_code == 302
    deals = record(client, token)["deals"]
    assert deals[0]["partner"] == 4
    assert deals[1]["partner"] is None


def test_pitch_variant_form_lists_its_cards(client: FlaskClient) -> None:
    token = new_game(client, "pitch", PITCH, rule_points="16")
    form = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert "name=p_off_two " in form
    assert 'id="bid_16"' in form


def test_bombu_left_empty_asks_for_its_taker_in_both_languages(client: FlaskClient) -> None:
    """Issue 36: "No Bombu" recorded before anyone is chosen for the K♥ asks for the
    player, with the table's words (no "null", no field name)."""
    token = new_game(client, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    for lang, said in (("en", "Bombu (K♥): choose a player"), ("fr", "choisissez un joueur")):
        client.get(f"/lang/{lang}?next=/")
        r = client.post(f"/g/{token}/deal", data={"action": "save", "contract": "no-bombu"})
        assert r.status_code == 422
        page = r.get_data(as_text=True)
        assert said in page
        assert "null" not in page
    assert record(client, token)["deals"] == []
