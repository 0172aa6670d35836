"""The table agrees (issue 18, item 5): a game may ask that every deal be confirmed
by a phone other than the one that recorded it; a correction asks again; at the
end each player signs the result; all of it in the history, the sheet and the
backups."""

from __future__ import annotations

import io
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.extensions import db
from referee.services.backup import backup, restore
from tests.web.conftest import new_game
from tests.web.test_backup import _fresh

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
BRUNO_FOUR = {"action": "save", "taker": "1", "bid": "4", "contract": "spades"}
BRUNO_FOUR.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 4, 1, 0])})


def version(page: str) -> str:
    found = re.search(r'name="version" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def test_another_phone_confirms_and_a_correction_asks_again(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en")
    token = new_game(client, "boulmous", PLAYERS, confirm_deals="on", rule_target="8")
    other = app.test_client(use_cookies=True)
    other.get("/lang/en")
    client.post(f"/g/{token}/deal", data=BRUNO_FOUR)
    mine = client.get(f"/g/{token}").get_data(as_text=True)
    assert "to confirm" in mine
    assert "agree?" not in mine  # not the phone that recorded it
    page = other.get(f"/g/{token}").get_data(as_text=True)
    assert "Deal 1 · " in page
    assert "agree?" in page
    # The recording phone cannot confirm its own deal.
    refused = client.post(
        f"/g/{token}/deal/1/confirm", data={"version": version(mine)}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Another phone confirms this deal" in refused
    done = other.post(
        f"/g/{token}/deal/1/confirm", data={"version": version(page)}, follow_redirects=True
    ).get_data(as_text=True)
    assert "Deal 1 confirmed." in done
    assert "to confirm" not in done
    # A correction (from the other phone) asks the first one to agree.
    edit = other.get(f"/g/{token}/deal/1/edit").get_data(as_text=True)
    correction = {**BRUNO_FOUR, "version": version(edit)}
    correction.update({"tricks1": "3", "tricks3": "1"})
    other.post(f"/g/{token}/deal/1/edit", data=correction)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "agree?" in page
    history = client.get(f"/g/{token}/history").get_data(as_text=True)
    assert "Deal 1 confirmed by another phone" in history


def test_a_game_without_the_option_asks_nothing(client: FlaskClient) -> None:
    client.get("/lang/en")
    token = new_game(client, "boulmous", PLAYERS)
    client.post(f"/g/{token}/deal", data=BRUNO_FOUR)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "to confirm" not in page
    response = client.post(f"/g/{token}/deal/1/confirm", data={"version": "1"})
    assert response.status_code == 302  # refused, said on the page


def test_the_players_sign_the_result_kept_by_backups(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    client.get("/lang/en")
    token = new_game(client, "boulmous", PLAYERS, confirm_deals="on", rule_target="4")
    client.post(f"/g/{token}/deal", data=BRUNO_FOUR)  # Bruno wins
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "I am Ana: I agree with this result" in page
    client.post(f"/g/{token}/sign", data={"seat": "0", "version": version(page)})
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Signed by: Ana" in page
    assert "I am Ana: I agree" not in page
    sheet = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data))
    text = "".join(p.extract_text() for p in sheet.pages)
    assert "Ana · signed in the app" in text
    assert "not yet: 1" in text
    with app.app_context():
        backup(tmp_path / "b")
    fresh = _fresh(tmp_path)
    with fresh.app_context():
        assert restore(tmp_path / "b").restored == 1
        db.engine.dispose()
    guest = fresh.test_client()
    guest.get("/lang/en")
    page = guest.get(f"/g/{token}").get_data(as_text=True)
    assert "Signed by: Ana" in page
    assert "to confirm" in page
    assert "agree?" in page  # the guest is another phone
