"""What a table or a stranger sends cannot break a game, a page or a link.

Each test here failed on the main of 2026-11-30: records the engine did not expect
answered 500, stakes like 1E+26 broke a game's pages for good, `next=` redirected
to another site, a lost race or a re-used form key answered 500 or lied.
"""

from __future__ import annotations

import io
import json
import logging
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm.exc import StaleDataError

from referee.app import private_sqlite_file, secret_key
from referee.services import games as service
from referee.services.pdf import RendererBusy, RenderTimeout
from tests.web.conftest import new_game

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
PITCH5 = ["Dale", "Rhonda", "Earl", "Peggy", "Walt"]


def upload(client: FlaskClient, data: bytes | str) -> Any:
    body = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return client.post(
        "/import", data={"record": (io.BytesIO(body), "r.json")}, content_type="multipart/form-data"
    )


def record_text(**fields: Any) -> str:
    record = {"format": "referee-game/1", "game": "boulmous", "players": PLAYERS, **fields}
    return json.dumps(record)


POISON = {
    "thousands-of-digits": '{"format": "referee-game/1", "first_dealer": ' + "9" * 5000 + "}",
    "exponent-stake": record_text(stake="1E+1000000"),
    "stake-1e26": record_text(stake="1E+26"),
    "980-deep": '{"format": "referee-game/1", "rules": ' + "[" * 980 + "]" * 980 + "}",
    "lone-surrogate-name": record_text().replace("Ana", "\\ud800x"),
    "nan": '{"format": "referee-game/1", "stake": NaN}',
}


@pytest.mark.parametrize("name", sorted(POISON))
def test_a_poisoned_record_is_refused_and_breaks_nothing(
    client: FlaskClient, name: str, caplog: pytest.LogCaptureFixture
) -> None:
    client.get("/lang/fr?next=/")
    token = new_game(client, "boulmous", PLAYERS)
    response = upload(client, POISON[name])
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert 'class="problems"' in page
    for path in ("/", "/new?game=boulmous", f"/g/{token}", "/import"):
        assert client.get(path).status_code == 200, path
    assert "unhandled error" not in caplog.text


def test_stakes_on_the_new_game_form(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS, stake="0,50")
    assert client.get(f"/g/{token}/export.json").get_json()["stake"] == "0.50"
    token = new_game(client, "boulmous", PLAYERS, stake="10000")
    for path in (f"/g/{token}", f"/g/{token}/rules"):
        assert client.get(path).status_code == 200


@pytest.mark.parametrize("value", ["²", "①", "٣", "1_0", "+1", "1e2"])
@pytest.mark.parametrize("rule", ["rule_target", "rule_points"])
def test_house_rule_values_that_are_not_ascii_numbers(
    client: FlaskClient, rule: str, value: str
) -> None:
    data = {"game": "pitch", "first_dealer": "0", "currency": "EUR", rule: value}
    data.update({f"player{i}": n for i, n in enumerate(PLAYERS)})
    assert client.post("/new", data=data).status_code == 422


@pytest.mark.parametrize("field", ["tricks0", "taker", "bid"])
def test_deal_numbers_are_ascii_digits(client: FlaskClient, field: str) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    data = {"taker": "1", "bid": "4", "contract": "hearts", "tricks0": "1", "tricks1": "4"}
    data.update({"tricks2": "1", "tricks3": "0", field: "١"})
    response = client.post(f"/g/{token}/deal", data={"action": "save", **data})
    assert response.status_code == 422
    assert client.get(f"/g/{token}/export.json").get_json()["deals"] == []


@pytest.mark.parametrize(
    "target",
    [
        "/%09/evil.example",
        "/%0a",
        "/%0d%0aSet-Cookie:x=1",
        "//evil.example",
        "/\\evil.example",
        "https://evil.example/",
        "/%E2%80%8B/evil.example",
        "/%20/evil.example",
        "evil.example",
    ],
)
def test_language_switch_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    response = client.get(f"/lang/en?next={target}")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_language_switch_goes_back_to_a_page_of_the_site(client: FlaskClient) -> None:
    response = client.get("/lang/en?next=/g/abc/deal%3Fx%3D1")
    assert response.headers["Location"] == "/g/abc/deal?x=1"


def _deal_form(**fields: str) -> dict[str, str]:
    return {"action": "save", "taker": "1", "bid": "4", "contract": "hearts", **fields}


def test_a_deal_that_keeps_losing_races_comes_back_with_its_entries(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    tries: list[int] = []

    def lose(*_args: Any) -> None:
        tries.append(1)
        raise StaleDataError("another phone was faster")

    monkeypatch.setattr(service, "_append", lose)
    monkeypatch.setattr(service, "RETRY_FOR", 0.2)
    client.get("/lang/en?next=/")
    form = _deal_form(tricks0="1", tricks1="4", tricks2="1", tricks3="0", key="key-lost-races-1")
    response = client.post(f"/g/{token}/deal", data=form)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Your entries are kept" in page
    assert "name=tricks1 value=4 checked" in page
    assert len(tries) > 8  # tried again and again until the time ran out


def test_form_keys_belong_to_their_game(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    one = new_game(client, "boulmous", PLAYERS)
    two = new_game(client, "boulmous", PLAYERS)
    form = _deal_form(tricks0="1", tricks1="4", tricks2="1", tricks3="0", key="shared-key-of-one")
    assert client.post(f"/g/{one}/deal", data=form).status_code == 302
    response = client.post(f"/g/{two}/deal", data=form)
    assert response.status_code == 409
    assert "another game" in response.get_data(as_text=True)
    assert client.get(f"/g/{two}/export.json").get_json()["deals"] == []


def test_a_form_key_no_form_carries_is_ignored(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    form = _deal_form(tricks0="1", tricks1="4", tricks2="1", tricks3="0", key="9" * 5000)
    assert client.post(f"/g/{token}/deal", data=form).status_code == 302
    assert len(client.get(f"/g/{token}/export.json").get_json()["deals"]) == 1


def test_a_form_sent_again_after_its_deal_was_undone(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = new_game(client, "boulmous", PLAYERS)
    form = _deal_form(tricks0="1", tricks1="4", tricks2="1", tricks3="0", key="key-undone-form")
    assert client.post(f"/g/{token}/deal", data=form).status_code == 302
    assert client.post(f"/g/{token}/undo", data={"version": "1"}).status_code == 302
    response = client.post(f"/g/{token}/deal", data=form, follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "then taken back" in page
    assert "already recorded" not in page
    assert client.get(f"/g/{token}/export.json").get_json()["deals"] == []
    # And a form sent twice while its deal stands is "already recorded".
    form["key"] = "key-sent-twice-1"
    client.post(f"/g/{token}/deal", data=form)
    page = client.post(f"/g/{token}/deal", data=form, follow_redirects=True).get_data(as_text=True)
    assert "already recorded" in page
    assert len(client.get(f"/g/{token}/export.json").get_json()["deals"]) == 1


def test_a_correction_without_its_version_is_refused(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = new_game(client, "boulmous", PLAYERS)
    client.post(f"/g/{token}/deal", data=_deal_form(tricks0="1", tricks1="4", tricks2="1"))
    correction = _deal_form(tricks0="0", tricks1="5", tricks2="1", tricks3="0")
    response = client.post(f"/g/{token}/deal/1/edit", data=correction)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "which state of the game" in page
    assert 'name="version" value="1"' in page  # sent again, it now says its version
    assert client.get(f"/g/{token}/export.json").get_json()["deals"][0]["tricks"] == [1, 4, 1, 0]
    assert client.post(f"/g/{token}/undo", data={}).status_code == 302
    assert len(client.get(f"/g/{token}/export.json").get_json()["deals"]) == 1


def test_rate_limited_deal_keeps_its_entries(app: Flask, client: FlaskClient) -> None:
    app.config["RATE_LIMITS"] = {"write": 1, "import": 30, "create": 60, "preview": 99}
    client.get("/lang/en?next=/")
    token = new_game(client, "boulmous", PLAYERS)
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})  # the one allowed
    response = client.post(f"/g/{token}/deal", data=_deal_form(tricks1="4"))
    assert response.status_code == 429
    assert 0 < int(response.headers["Retry-After"]) <= 60
    page = response.get_data(as_text=True)
    assert "Your entries are kept" in page
    assert 'value="4"' in page
    other = client.post(f"/g/{token}/rotate", data={"which": "viewer"})
    assert other.status_code == 429
    assert "Retry-After" in other.headers


def test_security_headers(app: Flask, client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    for path in ("/", f"/g/{token}/deal", f"/g/{token}/share", "/new?game=boulmous", "/import"):
        assert client.get(path).headers["Cache-Control"] == "no-store", path
    assert "no-store" not in client.get(f"/g/{token}").headers["Cache-Control"]
    assert "Strict-Transport-Security" not in client.get("/").headers
    app.config["SESSION_COOKIE_SECURE"] = True
    assert client.get("/").headers["Strict-Transport-Security"].startswith("max-age=")


def test_database_and_secret_key_are_owner_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        key = secret_key(str(tmp_path))
        database = tmp_path / "db.sqlite3"
        private_sqlite_file(f"sqlite:///{database}")
    finally:
        os.umask(old)
    assert len(key) == 64
    for path in (tmp_path / "secret_key", database):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_the_trick_judge_follows_the_player_count(client: FlaskClient) -> None:
    four = new_game(client, "pitch", PLAYERS)
    five = new_game(client, "pitch", PITCH5)
    trick = {"trump": "hearts", "cards": "AH KH QH JH 10H"}
    assert client.post(f"/g/{four}/judge", data=trick).status_code == 422
    assert client.post(f"/g/{five}/judge", data=trick).status_code == 200


def test_currency_place_and_date_survive_export_and_import(client: FlaskClient) -> None:
    response = upload(client, record_text(currency="CHF", place="Café du Cours", date="2026-11-28"))
    assert response.status_code == 302
    token = response.headers["Location"].removeprefix("/g/")
    record = client.get(f"/g/{token}/export.json").get_json()
    assert (record["currency"], record["place"], record["date"]) == (
        "CHF",
        "Café du Cours",
        "2026-11-28",
    )
    sheet_name = client.get(f"/g/{token}/export.json").headers["Content-Disposition"]
    assert "2026-11-28" in sheet_name
    again = upload(client, json.dumps(record))
    copy = client.get(again.headers["Location"] + "/export.json").get_json()
    assert copy["place"] == "Café du Cours"


def test_export_is_made_once_per_version(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    made: list[int] = []
    real = service.export_json
    monkeypatch.setattr(service, "export_json", lambda game: made.append(1) or real(game))
    for _ in range(3):
        assert client.get(f"/g/{token}/export.json").status_code == 200
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    assert client.get(f"/g/{token}/export.json").get_json()["deals"] == [{"passed": True}]
    assert len(made) == 2


def test_a_game_is_scored_once_per_state(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = new_game(client, "bombu", PLAYERS)
    scored: list[int] = []
    real = service.score_record
    monkeypatch.setattr(service, "score_record", lambda r: scored.append(1) or real(r))
    for path in (f"/g/{token}/deal", f"/g/{token}/deal", f"/g/{token}/sheet.pdf"):
        assert client.get(path).status_code == 200
    assert len(scored) == 1


@pytest.mark.parametrize(
    ("error", "words"), [(RendererBusy, "being drawn"), (RenderTimeout, "too long")]
)
def test_busy_sheets_say_try_again(
    app: Flask, client: FlaskClient, error: type[Exception], words: str
) -> None:
    token = new_game(client, "boulmous", PLAYERS)

    def refuse(_html: str) -> bytes:
        raise error()

    app.extensions["pdf"].render = refuse
    client.get("/lang/en?next=/")
    response = client.get(f"/g/{token}/sheet.pdf")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert words in response.get_data(as_text=True)


def test_the_migration_mends_a_name_an_old_import_let_in(tmp_path: Path) -> None:
    from flask_migrate import upgrade
    from sqlalchemy import text

    from referee.app import MIGRATIONS, create_app
    from referee.extensions import db

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'old.db'}",
            "SECRET_KEY": "t",
            "AUTO_UPGRADE": False,
        }
    )
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="b7c1f0e2a9d4")
        db.session.execute(
            text(
                "INSERT INTO game (token, view_token, game, players, first_dealer, rules,"
                " currency, finished, version, created_at, updated_at) VALUES ('t', 'v',"
                " 'boulmous', :players, 0, '{}', 'EUR', 0, 0, '2026-11-30', '2026-11-30')"
            ),
            {"players": json.dumps(["\ud800x", "B", "C", "D"])},
        )
        db.session.commit()
        upgrade(directory=str(MIGRATIONS))
        players, uid = db.session.execute(text("SELECT players, uid FROM game")).one()
        db.engine.dispose()
    assert json.loads(players)[0] == "\ufffdx"
    assert len(uid) == 32


def test_no_traceback_in_the_log_for_bad_json_numbers(
    client: FlaskClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    for text in ("[" + "1" * 20 + "]", '{"a": -Infinity}', '"\\udfff"'):
        assert upload(client, text).status_code == 422
    assert "Traceback" not in caplog.text
