"""Hostile input: generated posts to every form and malformed uploads.

Never a 500, never a partial write, always an answer the player can read.
"""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine.records import parse_record, score_record
from tests.web.conftest import new_game
from tests.web.fuzz import FORM_FIELDS, GOOD_FORMS, mutated_forms, mutated_records

OK = {200, 302, 400, 404, 409, 413, 422, 429}
NASTY = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "<script>alert(1)</script>",
            "\u0000",
            "9" * 400,
            "-1",
            "1e309",
            "NaN",
            "moon",
            "boulmous",
            "dead",
            "alone",
            "on",
            "salad",
            " ",
            "٣",
            "①",
        ]
    ),
    st.integers(-(10**20), 10**20).map(str),
)
FORMS = st.dictionaries(st.sampled_from(FORM_FIELDS), NASTY, max_size=14)
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def deal_count(client: FlaskClient, token: str) -> int:
    record = client.get(f"/g/{token}/export.json").get_json()
    score_record(parse_record(record))  # the stored game still scores
    return len(record["deals"])


@SETTINGS
@given(form=FORMS, game=st.sampled_from(["boulmous", "bombu", "pitch"]))
def test_deal_forms(app: Flask, client: FlaskClient, form: dict[str, str], game: str) -> None:
    app.config["RATE_LIMITS"] = {}  # many examples, one client: limits are tested elsewhere
    players = ["A", "B", "C", "D"] + (["E"] if game == "pitch" and "player4" in form else [])
    token = new_game(client, game, players)
    before = deal_count(client, token)
    for path in (f"/g/{token}/deal", f"/g/{token}/preview.json", f"/g/{token}/judge"):
        response = client.post(path, data=form)
        assert response.status_code in OK, (path, response.status_code)
    after = deal_count(client, token)
    assert after - before in (0, 1)
    for path in (f"/g/{token}/undo", f"/g/{token}/deal/1/edit", f"/g/{token}/rotate"):
        assert client.post(path, data=form).status_code in OK


@SETTINGS
@given(form=FORMS)
def test_new_game_and_blank_sheet_forms(
    app: Flask, client: FlaskClient, form: dict[str, str]
) -> None:
    app.config["RATE_LIMITS"] = {}
    for path in ("/new", "/blank.pdf"):
        response = client.post(path, data=form)
        assert response.status_code in OK, (path, response.status_code)
        if response.status_code == 422 and path == "/new":
            page = response.get_data(as_text=True)
            assert "<script>alert(1)</script>" not in page


JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=30,
)


@SETTINGS
@given(
    data=st.one_of(
        JSONISH.map(lambda v: json.dumps(v).encode()),
        st.binary(max_size=300),
        st.fixed_dictionaries(
            {
                "format": st.just("referee-game/1"),
                "game": st.sampled_from(["boulmous", "bombu", "pitch", "x"]),
                "players": st.lists(st.text(max_size=50), max_size=6),
                "deals": st.lists(JSONISH, max_size=4),
                "stake": JSONISH,
            }
        ).map(lambda v: json.dumps(v).encode()),
    )
)
def test_malformed_uploads(app: Flask, client: FlaskClient, data: bytes) -> None:
    app.config["RATE_LIMITS"] = {}
    response = client.post(
        "/import", data={"record": (io.BytesIO(data), "r.json")}, content_type="multipart/form-data"
    )
    assert response.status_code in (302, 422)
    if response.status_code == 422:
        assert 'class="problems"' in response.get_data(as_text=True)


def test_huge_and_deep_uploads(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    deep = b"[" * 50_000 + b"]" * 50_000
    response = client.post(
        "/import", data={"record": (io.BytesIO(deep), "r.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    assert "nest too deep" in response.get_data(as_text=True)
    huge = b" " * (2 * 1024 * 1024)
    response = client.post(
        "/import", data={"record": (io.BytesIO(huge), "r.json")}, content_type="multipart/form-data"
    )
    # The test client spooled this body to a temporary file that the server, refusing
    # it unread, never opened: the test closes it.
    response.request.environ["wsgi.input"].close()
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)
    latin = '{"players": ["Chloé"]}'.encode("latin-1")
    response = client.post(
        "/import",
        data={"record": (io.BytesIO(latin), "r.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422


def test_html_in_an_imported_record_is_escaped(client: FlaskClient) -> None:
    record: dict[str, Any] = {
        "format": "referee-game/1",
        "game": "boulmous",
        "players": ["<img src=x onerror=alert(1)>", "B", "C", "D"],
    }
    response = client.post(
        "/import",
        data={"record": (io.BytesIO(json.dumps(record).encode()), "r.json")},
        content_type="multipart/form-data",
    )
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "<img src=x" not in page
    assert "&lt;img src=x" in page


FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@FUZZ
@given(data=mutated_records())
def test_mutated_records_are_refused_with_a_message(
    app: Flask, client: FlaskClient, caplog: pytest.LogCaptureFixture, data: bytes
) -> None:
    """An example record broken in a few places: imported, or refused with a message."""
    app.config["RATE_LIMITS"] = {}
    response = client.post(
        "/import", data={"record": (io.BytesIO(data), "r.json")}, content_type="multipart/form-data"
    )
    assert response.status_code in (302, 422)
    if response.status_code == 302:
        assert client.get(response.headers["Location"]).status_code == 200
    else:
        assert 'class="problems"' in response.get_data(as_text=True)
    assert "unhandled error" not in caplog.text


@FUZZ
@given(game=st.sampled_from(sorted(GOOD_FORMS)), data=st.data())
def test_mutated_deal_forms(
    app: Flask, client: FlaskClient, caplog: pytest.LogCaptureFixture, game: str, data: Any
) -> None:
    """A deal form that records, broken in a few places, on every deal path."""
    app.config["RATE_LIMITS"] = {}
    form = data.draw(mutated_forms(game))
    token = new_game(client, game, ["A", "B", "C", "D"])
    for path in (
        f"/g/{token}/deal",
        f"/g/{token}/preview.json",
        f"/g/{token}/deal/1/edit",
        f"/g/{token}/judge",
    ):
        assert client.post(path, data=form).status_code in OK, path
    assert client.get(f"/g/{token}").status_code == 200
    assert "unhandled error" not in caplog.text


def test_invalid_utf8_in_a_form_is_read_as_replacement_characters(client: FlaskClient) -> None:
    body = b"game=boulmous&first_dealer=0&currency=EUR&player0=%ED%A0%80x&player1=B"
    body += b"&player2=C&player3=D"
    response = client.post("/new", data=body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 302
    assert client.get(response.headers["Location"]).status_code == 200
