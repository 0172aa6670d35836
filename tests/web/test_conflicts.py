"""Every 409 says which conflict it is, in a header a client reads without parsing
the page (issue 37, item 8): the page itself says it in the player's language.

`Referee-Conflict` is one of: `taken` (another phone recorded the deal this form
was opened for), `taken-back` (a deal was taken back since the form was opened),
`busy` (too many phones at once: nothing recorded), `other-game` (the form's key
is another game's), `no-version` (a correction that does not say which state of
the game it was made on), `stale` (the game changed since the correction's or the
rename's form was opened).
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy.orm.exc import StaleDataError

from referee.services import games as service
from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import PLAYERS, deal
from tests.web.test_table_loop import BRUNO_FOUR, CHLOE_THREE, english, form_fields

HEADER = "Referee-Conflict"


def test_a_deal_taken_by_another_phone(app: Any) -> None:
    first, second = app.test_client(), app.test_client()
    token = new_game(first, "boulmous", PLAYERS)
    fields = form_fields(second.get(f"/g/{token}/deal").get_data(as_text=True))
    assert deal(first, token, **BRUNO_FOUR).status_code == 302
    response = deal(second, token, **fields, **BRUNO_FOUR)
    assert response.status_code == 409
    assert response.headers[HEADER] == "taken"


def test_a_deal_taken_back_since_the_form_was_opened(app: Any) -> None:
    first, second = app.test_client(), app.test_client()
    token = new_game(first, "boulmous", PLAYERS)
    deal(first, token, **BRUNO_FOUR)
    fields = form_fields(second.get(f"/g/{token}/deal").get_data(as_text=True))
    first.post(f"/g/{token}/undo", data={"version": "1"})
    response = deal(second, token, **fields, **CHLOE_THREE)
    assert response.status_code == 409
    assert response.headers[HEADER] == "taken-back"


def test_too_many_phones_at_once(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    token = new_game(client, "boulmous", PLAYERS)

    def lose(*_args: Any) -> None:
        raise StaleDataError("another phone was faster")

    monkeypatch.setattr(service, "_append", lose)
    monkeypatch.setattr(service, "RETRY_FOR", 0.05)
    response = deal(client, token, **BRUNO_FOUR, key="key-busy-conflict")
    assert response.status_code == 409
    assert response.headers[HEADER] == "busy"


def test_a_form_key_of_another_game(client: FlaskClient) -> None:
    one = new_game(client, "boulmous", PLAYERS)
    two = new_game(client, "boulmous", PLAYERS)
    assert deal(client, one, **BRUNO_FOUR, key="key-of-game-one").status_code == 302
    response = deal(client, two, **BRUNO_FOUR, key="key-of-game-one")
    assert response.status_code == 409
    assert response.headers[HEADER] == "other-game"


def test_a_correction_without_its_version(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR)
    response = deal_edit(client, token, 1, CHLOE_THREE)
    assert response.status_code == 409
    assert response.headers[HEADER] == "no-version"


def test_a_correction_on_a_game_that_changed(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR)
    deal(client, token, **BRUNO_FOUR)
    response = deal_edit(client, token, 1, CHLOE_THREE, version="1")
    assert response.status_code == 409
    assert response.headers[HEADER] == "stale"


def test_a_rename_on_a_game_that_changed(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR)
    response = client.post(
        f"/g/{token}/players", data={"seat": "0", "name": "Anna", "version": "0"}
    )
    assert response.status_code == 409
    assert response.headers[HEADER] == "stale"


def test_answers_that_are_not_conflicts_say_none(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    assert HEADER not in deal(client, token, **BRUNO_FOUR).headers  # recorded
    refused = deal(client, token, **{**BRUNO_FOUR, "tricks0": "6"})  # 422: the rules
    assert refused.status_code == 422
    assert HEADER not in refused.headers


def deal_edit(
    client: FlaskClient, token: str, number: int, fields: dict[str, Any], **more: str
) -> Any:
    data = {"action": "save", **{k: str(v) for k, v in fields.items()}, **more}
    return client.post(f"/g/{token}/deal/{number}/edit", data=data)
