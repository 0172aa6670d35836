"""Stakes by the point (issue 17, item 3) through the web: chosen on the new-game
form, the balance on the scoreboard while the game runs, kept by export, import and
"same table again", printed on the rules page and the sheet. French and English."""

from __future__ import annotations

import io
import json

from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import PLAYERS, deal, tricks
from tests.web.test_table_loop import BRUNO_FOUR, english, exported


def test_the_new_game_form_offers_both_and_defaults_to_the_game(client: FlaskClient) -> None:
    english(client)
    page = client.get("/new?game=boulmous").get_data(as_text=True)
    assert 'id="stake_per_game" name="stake_per" value="game" checked' in page
    assert 'id="stake_per_point" name="stake_per" value="point" >' in page
    assert "each pair of players settles the difference of their scores" in page
    token = new_game(client, "boulmous", PLAYERS, stake="0,10")
    assert "stake_per" not in exported(client, token)


def test_a_game_by_the_point_from_form_to_sheet(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "boulmous", PLAYERS, stake="0,10", stake_per="point")
    record = exported(client, token)
    assert (record["stake"], record["stake_per"]) == ("0.10", "point")
    deal(client, token, **BRUNO_FOUR)  # scores 1, 4, 1, 0
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "€0.10 per point, as the scores stand" in page
    # Bruno: (3 + 3 + 4) × 0.10; Ana −0.20, Chloé −0.20, Driss −0.60.
    for name, net in (("Ana", "−€0.20"), ("Bruno", "€1.00"), ("Driss", "−€0.60")):
        assert f"<span>{name}</span> <strong>{net}</strong>" in page, name
    assert "Driss pays Bruno €0.60" in page
    rules = client.get(f"/g/{token}/rules").get_data(as_text=True)
    assert "€0.10 per point" in rules
    sheet = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data))
    text = sheet.pages[0].extract_text()
    assert "€0.10 per point" in text
    assert "Driss pays Bruno €0.60" in text


def test_by_the_point_in_french(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS, stake="0,10", stake_per="point")
    deal(client, token, **BRUNO_FOUR)
    client.get("/lang/fr")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "0,10\u00a0€ par point, selon les scores actuels" in page
    assert "Driss paie 0,60\u00a0€ à Bruno" in page


def test_export_import_and_the_same_table_keep_it(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "boulmous", PLAYERS, stake="1", stake_per="point", rule_target="4")
    deal(client, token, **BRUNO_FOUR)  # Bruno reaches 4: finished
    record = exported(client, token)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "as the scores stand" not in page  # the game is over: the balance is final
    response = client.post(
        "/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "g.json")},
        content_type="multipart/form-data",
    )
    imported = response.headers["Location"].removeprefix("/g/")
    assert exported(client, imported)["stake_per"] == "point"
    again = client.post(f"/g/{token}/again").headers["Location"].removeprefix("/g/")
    assert exported(client, again)["stake_per"] == "point"


def test_a_stake_per_anything_else_is_refused_with_the_form_kept(client: FlaskClient) -> None:
    english(client)
    data = {"game": "boulmous", "first_dealer": "0", "currency": "EUR", "stake": "1"}
    data.update({f"player{i}": name for i, name in enumerate(PLAYERS)})
    response = client.post("/new", data={**data, "stake_per": "deal"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'value="Chloé"' in page
    assert "Choose whether the stake is paid by the game or by the point." in page
    assert "Invalid value" not in page


def test_bombu_by_the_point_turns_the_sign(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "bombu", PLAYERS, stake="1", stake_per="point")
    client.post(
        f"/g/{token}/deal?contract=no-tricks",
        data={"action": "save", "contract": "no-tricks", **tricks(2, 3, 1, 2)},
    )
    record = exported(client, token)
    assert len(record["deals"]) == 1
    page = client.get(f"/g/{token}").get_data(as_text=True)
    # Scores 20, 30, 10, 20: lowest wins, so Bruno (30) pays and Chloé (10) receives.
    assert "<span>Bruno</span> <strong>−€40.00</strong>" in page
    assert "<span>Chloé</span> <strong>€40.00</strong>" in page
