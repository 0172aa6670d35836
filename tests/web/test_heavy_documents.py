"""A concours's and a season's heavy documents and pages: drawn once per version,
a failure kept as a success is, and bounded apart from the games' score sheets."""

from __future__ import annotations

import re
import threading
import time

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.services.pdf import Renderer, RenderTimeout
from tests.web.conftest import new_game
from tests.web.test_concours import page, round_one_played
from tests.web.test_seasons import concours


class _Slow(Renderer):
    """A renderer whose documents time out, counted."""

    def __init__(self) -> None:
        super().__init__(in_process=True)
        self.asked = 0

    def render(self, html: str, timeout: float | None = None) -> bytes:
        self.asked += 1
        time.sleep(0.2)  # long enough for the other readers to arrive meanwhile
        raise RenderTimeout()


def test_a_document_too_long_to_draw_is_not_drawn_again_for_the_same_version(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token, event = round_one_played(app, client, rounds="2", seed=2)
    slow = _Slow()
    app.extensions["pdf_long"] = slow
    path = f"/ev/{event.view_token}/results.pdf"
    answers: list[int] = []

    def reader() -> None:
        answers.append(app.test_client().get(path).status_code)

    readers = [threading.Thread(target=reader) for _ in range(4)]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join()
    again = client.get(path)
    # The first reader waited for its drawing and was told it failed; the others
    # were told at once it was being drawn (none held a thread waiting for it), or
    # that it failed.
    assert set(answers) <= {202, 503}
    assert 503 in answers
    assert again.status_code == 503
    assert "too long to be drawn on this server" in again.get_data(as_text=True)
    assert slow.asked == 1  # four readers at once and one after: drawn once
    # Meanwhile a game's score sheet has a renderer of its own.
    game = new_game(client, "pad", ["Ana", "Bruno"])
    assert app.extensions["pdf"] is not slow
    assert client.get(f"/g/{game}/sheet.pdf").status_code == 200
    # A new version of the concours is drawn anew.
    director = page(client, f"/e/{token}")
    version = re.search(r'name="version" value="(\d+)"', director)
    assert version is not None
    client.post(f"/e/{token}/rounds", data={"rounds": "3", "version": version.group(1)})
    assert client.get(path).status_code == 503
    assert slow.asked == 2


def test_a_seasons_public_page_is_drawn_once_per_state(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = concours(app, client, "Janvier", "Ana\nBruno\nChloé\nDora", 1)
    form = page(client, "/seasons/new")
    assert client.get("/seasons/new").headers["Cache-Control"] == "no-store"
    uids = re.findall(r'name="events" value="([^"]+)"', form)
    made = client.post("/seasons/new", data={"name": "Saison", "points": "10, 6", "events": uids})
    organiser = made.headers["Location"]
    assert client.get(organiser).headers["Cache-Control"] == "no-store"
    view = re.findall(r"/se/([A-Za-z0-9_-]+)", page(client, organiser))[0]
    first = client.get(f"/se/{view}")
    assert first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    assert client.get(f"/se/{view}", headers={"If-None-Match": etag}).status_code == 304
    # A concours of the season changes: the page is drawn again.
    director = page(client, f"/e/{token}")
    version = re.search(r'name="version" value="(\d+)"', director)
    assert version is not None
    client.post(f"/e/{token}/rounds", data={"rounds": "2", "version": version.group(1)})
    changed = client.get(f"/se/{view}", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_an_export_larger_than_a_games_record_is_imported(app: Flask, client: FlaskClient) -> None:
    """Issue 51: a 1,000-player concours exports 1.48 MB; the import answered 413."""
    token, _event = round_one_played(app, client, rounds="2", seed=6)
    exported = client.get(f"/e/{token}/export.json").get_data()
    large = exported[:-1] + b" " * 1_600_000 + exported[-1:]  # the same file, 1.6 MB
    # With the CSRF check on, as served: it reads the form before the view does.
    app.config["WTF_CSRF_ENABLED"] = True
    form = client.get("/events/import").get_data(as_text=True)
    token_field = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert token_field is not None
    answer = client.post("/events/import", **_multipart(large, token_field.group(1)))
    assert answer.status_code == 302, answer.status_code
    # A game's record keeps its own limit.
    assert client.post("/import", **_multipart(b" " * 1_600_000, "")).status_code == 413


def _multipart(content: bytes, csrf: str) -> dict[str, object]:
    """A form with one file, as a browser sends it (built here: the test client
    spools a large one to a temporary file it leaves open)."""
    body = (
        b'--b\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
        + csrf.encode()
        + b"\r\n--b\r\n"
        b'Content-Disposition: form-data; name="file"; filename="f.json"\r\n'
        b"Content-Type: application/json\r\n\r\n" + content + b"\r\n--b--\r\n"
    )
    return {"data": body, "content_type": "multipart/form-data; boundary=b"}


def test_a_long_document_is_drawn_apart_and_said_being_drawn(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 51: ten readers waiting for a 400-page document held every thread of
    the server. The reader who asks first waits a few seconds; the others are told
    at once it is being drawn, by a page that asks again by itself."""
    _token, event = round_one_played(app, client, rounds="2", seed=3)
    gate = threading.Event()

    class Held(Renderer):
        def render(self, html: str, timeout: float | None = None) -> bytes:
            gate.wait(30)
            return b"%PDF-1.7 drawn"

    app.extensions["pdf_long"] = Held(in_process=True)
    app.config["DOCUMENT_WAIT"] = 0.2
    path = f"/ev/{event.view_token}/ranking.pdf"
    started = time.perf_counter()
    first = client.get(path)
    others = [client.get(path) for _ in range(5)]
    assert time.perf_counter() - started < 5  # nobody waited for the drawing
    assert first.status_code == 202
    assert {o.status_code for o in others} == {202}
    assert first.headers["Refresh"] == first.headers["Retry-After"] == "5"
    assert "being drawn" in first.get_data(as_text=True)
    assert "<title>202 ·" in first.get_data(as_text=True)
    # How far it is, as foreseen from its length and the renderer's pace.
    drawings = app.extensions["drawings"]
    drawings.rate = 1.0  # a slow renderer: seconds and seconds left
    slow = client.get(path).get_data(as_text=True)
    assert re.search(r'<progress max="100" value="\d+">', slow)
    assert re.search(r"About \d+ seconds left\.", slow)
    drawings.rate = 1e12  # a fast one, late: nearly done
    time.sleep(1.1)
    assert "Nearly done." in client.get(path).get_data(as_text=True)
    gate.set()
    for _ in range(100):  # the drawing's thread puts it in the cache
        answer = client.get(path)
        if answer.status_code == 200:
            break
        time.sleep(0.05)
    assert answer.status_code == 200
    assert answer.data == b"%PDF-1.7 drawn"
