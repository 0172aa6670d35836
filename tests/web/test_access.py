"""Links, not accounts: spectators change nothing, rotated links stop, guesses get 404."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import new_game

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]


def links(client: FlaskClient, token: str) -> tuple[str, str]:
    page = client.get(f"/g/{token}/share").get_data(as_text=True)
    viewer = re.search(r'href="http://localhost/v/([A-Za-z0-9_-]+)"', page)
    editor = re.search(r'href="http://localhost/g/([A-Za-z0-9_-]+)"', page)
    assert viewer
    assert editor
    assert "<svg" in page  # the QR codes
    # A button for each link that replaces it.
    forms = re.findall(
        r'action="/g/([A-Za-z0-9_-]+)/rotate".*?name="which" value="(\w+)"', page, re.S
    )
    assert [which for _, which in forms] == ["viewer", "editor"]
    assert {game for game, _ in forms} == {editor.group(1)}
    return editor.group(1), viewer.group(1)


WRITES = [
    ("/g/{t}/deal", {"action": "save", "passed": "1"}),
    ("/g/{t}/deal/1/edit", {"action": "save", "passed": "1", "version": "1"}),
    ("/g/{t}/undo", {"version": "1"}),
    ("/g/{t}/rotate", {"which": "editor"}),
    ("/g/{t}/rotate", {"which": "viewer"}),
    ("/g/{t}/preview.json", {"passed": "1"}),
]


def test_spectator_token_can_write_nothing(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    _, viewer = links(client, token)
    stranger = client.application.test_client()
    for path, data in WRITES:
        assert stranger.post(path.format(t=viewer), data=data).status_code == 404, path
    for path in ("/g/{t}", "/g/{t}/deal", "/g/{t}/share", "/g/{t}/export.json", "/g/{t}/history"):
        assert stranger.get(path.format(t=viewer)).status_code == 404, path
    export = client.get(f"/g/{token}/export.json").get_json()
    assert export["deals"] == [{"passed": True}]


def test_spectator_page_follows_the_game(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    _, viewer = links(client, token)
    stranger = client.application.test_client()
    stranger.get("/lang/en?next=/")
    page = stranger.get(f"/v/{viewer}").get_data(as_text=True)
    assert "You are following this game." in page
    assert f"/g/{token}" not in page  # no editor link anywhere
    assert "Enter deal" not in page
    before = stranger.get(f"/v/{viewer}/version.json").get_json()["version"]
    client.post(
        f"/g/{token}/deal",
        data={
            "action": "save",
            "taker": "1",
            "bid": "3",
            "contract": "spades",
            "tricks1": "3",
            "tricks0": "3",
        },
    )
    after = stranger.get(f"/v/{viewer}/version.json")
    assert after.get_json()["version"] == before + 1
    assert after.headers["Cache-Control"] == "no-store"
    assert "+3" in stranger.get(f"/v/{viewer}").get_data(as_text=True)
    assert client.get(f"/g/{token}/version.json").get_json()["version"] == before + 1


def test_rotated_links_stop_working(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    _, viewer = links(client, token)
    client.post(f"/g/{token}/rotate", data={"which": "viewer"})
    assert client.get(f"/v/{viewer}").status_code == 404
    _, new_viewer = links(client, token)
    assert client.get(f"/v/{new_viewer}").status_code == 200
    response = client.post(f"/g/{token}/rotate", data={"which": "editor"})
    new_token = response.headers["Location"].split("/")[2]
    assert new_token != token
    assert client.get(f"/g/{token}").status_code == 404
    assert client.get(f"/g/{new_token}").status_code == 200
    assert new_token in client.get("/").get_data(as_text=True)
    history = client.get(f"/g/{new_token}/history").get_data(as_text=True)
    assert "Lien de marque renouvelé" in history
    assert "Lien spectateur renouvelé" in history


def test_a_guessed_token_reveals_nothing(client: FlaskClient) -> None:
    new_game(client, "boulmous", PLAYERS)
    for path in ("/g/AAAAAAAAAAAAAAAAAAAAAAAA", "/v/AAAAAAAAAAAAAAAAAAAAAAAA", "/g/1", "/v/1"):
        response = client.get(path)
        assert response.status_code == 404
        page = response.get_data(as_text=True)
        assert "Ana" not in page
        assert "Traceback" not in page


@pytest.mark.parametrize(
    "path",
    ["/", "/new?game=bombu", "/import", "/g/nope", "/health", "/ping", "/static/app.css"],
)
def test_every_response_carries_the_security_headers(client: FlaskClient, path: str) -> None:
    with client.get(path) as response:
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp
        assert "frame-ancestors 'none'" in csp
        assert response.headers["Referrer-Policy"] == "same-origin"
        assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_session_cookie_flags(client: FlaskClient) -> None:
    response = client.get("/lang/en?next=/")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


def test_writes_are_rate_limited(app: Flask, client: FlaskClient) -> None:
    app.config["RATE_LIMITS"] = {**app.config["RATE_LIMITS"], "write": 3, "create": 2}
    token = new_game(client, "boulmous", PLAYERS)
    statuses = [
        client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"}).status_code
        for _ in range(4)
    ]
    assert statuses == [302, 302, 302, 429]
    new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en?next=/")
    third = client.post(
        "/new", data={"game": "boulmous", **{f"player{i}": n for i, n in enumerate(PLAYERS)}}
    )
    assert third.status_code == 429
    assert "Too many changes at once" in third.get_data(as_text=True)
    export = client.get(f"/g/{token}/export.json").get_json()
    assert len(export["deals"]) == 3
