"""A concours in the API (issue 41, item 8): its rules and ranking and its rounds
read by the public token, a table's result accepted by the tables' token; every
answer checked against the OpenAPI document."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from referee.services import events as service
from tests.web.test_api import Api
from tests.web.test_concours import create, fresh


def played(app: Flask, client: FlaskClient, token: str, event_id: int, table: int) -> str:
    """Table `table` plays the round's two deals on its game's page; its game's token."""
    event = fresh(app, event_id)
    found = next(t for t in event.tables if t.number == table)
    assert found.game_row is not None
    for _ in range(2):
        points = {f"points{i}": str(i * 3 - 4) for i in range(4)}
        client.post(f"/g/{found.game_row.token}/deal", data={"action": "save", **points})
    return found.game_row.token


def test_a_concours_read_and_a_result_accepted_through_the_api(
    app: Flask, client: FlaskClient
) -> None:
    api = Api(client)
    token, event = create(app, client)
    view, play = event.view_token, event.play_token
    state = api.call("GET", f"/api/v1/events/{view}").get_json()
    assert state["rounds_drawn"] == 0
    assert state["rule"] == "score"
    assert state["tie_breaks"] == ["wins", "opponents", "lot"]
    assert len(state["ranking"]) == 18
    assert api.call("GET", f"/api/v1/events/{view}/rounds").get_json() == {"rounds": []}

    client.post(f"/e/{token}/draw")
    rounds = api.call("GET", f"/api/v1/events/{view}/rounds").get_json()["rounds"]
    (first,) = rounds
    assert len(first["tables"]) == 4
    assert len(first["byes"]) == 2
    assert all(t["scores"] is None for t in first["tables"])
    game_api = first["tables"][0]["game"]
    assert "/api/v1/games/" in game_api

    accept = f"/api/v1/concours/{play}/tables/1/accept"
    seated = first["tables"][0]["players"]
    with app.app_context():
        found = service.find(token)
        assert found is not None
        key = service.table_key(found, 1)
    # Before the round's deals: refused, in the asked language.
    early = api.call("POST", accept, {"who": seated[1], "key": key}, lang="fr")
    assert early.status_code == 422
    assert "le tour n’est pas fini" in early.get_json()["errors"][0]["message"].lower()
    game_token = played(app, client, token, event.id, 1)
    assert api.call("POST", accept, {"who": "Nobody", "key": key}).status_code == 422
    assert api.call("POST", accept, {"who": seated[1], "key": key, "version": 0}).status_code == 422
    assert api.call("POST", accept, {"whom": seated[1], "key": key}).status_code == 422
    # Without the table's code (the tables' link alone), or another table's: refused.
    assert api.call("POST", accept, {"who": seated[1], "key": "0" * 16}).status_code == 403
    with app.app_context():
        other = service.table_key(found, 2)
    assert api.call("POST", accept, {"who": seated[1], "key": other}).status_code == 403
    assert api.call("POST", accept, {"who": seated[1], "key": "clé ☃"}).status_code == 403
    number = api.call("POST", accept, {"who": 123, "key": key})
    assert number.status_code == 422
    assert (
        number.get_json()["errors"][0]["message"] == "Who accepts must be written as text, not 123"
    )
    assert api.call("POST", accept, data="{not json").status_code == 400
    done = api.call("POST", accept, {"who": seated[1], "key": key})
    assert done.status_code == 200, done.get_json()
    assert api.call("POST", accept, {"who": seated[1], "key": key}).status_code == 409
    # The table's editors' token no longer writes its game.
    locked = api.call(
        "POST", f"/api/v1/edit/{game_token}/deals", {"deal": {"points": [1, 2, 3, -6]}}
    )
    assert locked.status_code == 404
    rounds = api.call("GET", f"/api/v1/events/{view}/rounds").get_json()["rounds"]
    assert rounds[0]["tables"][0]["scores"] == [-8, -2, 4, 10]
    state = api.call("GET", f"/api/v1/events/{view}").get_json()
    leader = state["ranking"][0]
    assert leader["points"] == 10
    assert leader["name"] == seated[3]
    assert state["provisional"]
    assert state["pot"] is None
    assert leader["prize"] is None

    assert api.call("GET", "/api/v1/events/nothing").status_code == 404
    assert api.call("GET", "/api/v1/events/nothing/rounds").status_code == 404
    assert (
        api.call(
            "POST", "/api/v1/concours/nothing/tables/1/accept", {"who": "x", "key": key}
        ).status_code
        == 404
    )
    assert (
        api.call(
            "POST", f"/api/v1/concours/{play}/tables/9/accept", {"who": "x", "key": key}
        ).status_code
        == 404
    )
    # The public token does not accept; the tables' token does not read.
    assert (
        api.call(
            "POST", f"/api/v1/concours/{view}/tables/2/accept", {"who": "x", "key": key}
        ).status_code
        == 404
    )
    assert client.get(f"/api/v1/events/{play}").status_code == 404
    with app.app_context():
        assert service.find_view(token) is None


def test_a_concours_prizes_through_the_api(app: Flask, client: FlaskClient) -> None:
    api = Api(client)
    token, event = create(app, client, entry_fee="10", prize_kept="10", prize_split="50, 30, 20")
    state = api.call("GET", f"/api/v1/events/{event.view_token}").get_json()
    assert (state["pot"], state["currency"]) == ("162.00", "EUR")
    assert {line["prize"] for line in state["ranking"]} == {None}  # no result yet
    client.post(f"/e/{token}/draw")
    for number in range(1, 5):
        played(app, client, token, event.id, number)
        table = f"/api/v1/concours/{event.play_token}/tables/{number}/accept"
        rounds = api.call("GET", f"/api/v1/events/{event.view_token}/rounds").get_json()
        seated = rounds["rounds"][0]["tables"][number - 1]["players"]
        with app.app_context():
            found = service.find(token)
            assert found is not None
            key = service.table_key(found, number)
        assert api.call("POST", table, {"who": seated[1], "key": key}).status_code == 200
    state = api.call("GET", f"/api/v1/events/{event.view_token}").get_json()
    prizes = [line["prize"] for line in state["ranking"]]
    assert sum(int(p.replace(".", "")) for p in prizes) == 16200
