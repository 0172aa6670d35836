"""`referee backup` and `referee restore`: every game, exactly, never twice."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee import cli
from referee.app import create_app
from referee.extensions import db
from referee.services.backup import backup, restore
from tests.web.conftest import new_game


def play(client: FlaskClient) -> str:
    token = new_game(
        client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"], stake="1", place="Marseille"
    )
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    client.post(
        f"/g/{token}/deal",
        data={
            "action": "save",
            "taker": "2",
            "bid": "4",
            "contract": "hearts",
            "tricks2": "4",
            "tricks0": "2",
        },
    )
    client.post(f"/g/{token}/undo", data={"version": "2"})
    new_game(client, "pitch", ["Dale", "Rhonda", "Earl", "Peggy", "Walt"])
    return token


def test_backup_restore_round_trip(
    app: Flask, client: FlaskClient, tmp_path: Path, database: str
) -> None:
    token = play(client)
    with app.app_context():
        assert backup(tmp_path / "one") == 2
    assert (tmp_path / "one" / f"{token}.json").exists()
    fresh = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.db'}",
            "SECRET_KEY": "t",
            "TESTING": True,
        }
    )
    with fresh.app_context():
        assert restore(tmp_path / "one") == (2, 0)
        assert restore(tmp_path / "one") == (0, 2)  # again: nothing doubled
        backup(tmp_path / "two")
        db.engine.dispose()
    for path in (tmp_path / "one").iterdir():
        assert path.read_bytes() == (tmp_path / "two" / path.name).read_bytes(), path.name
    guest = fresh.test_client()
    page = guest.get(f"/g/{token}/history").get_data(as_text=True)
    assert "<del>" in page  # the undone deal is still in the history


def test_restore_into_an_existing_database(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    play(client)
    with app.app_context():
        backup(tmp_path)
        assert restore(tmp_path) == (0, 2)


def test_restore_refuses_a_bad_record(app: Flask, tmp_path: Path) -> None:
    (tmp_path / "x.json").write_text('{"format": "nope"}', encoding="utf-8")
    with app.app_context(), pytest.raises(Exception, match="not supported"):
        restore(tmp_path)


def test_commands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("REFEREE_SECRET_KEY", "t")
    out, err = io.StringIO(), io.StringIO()
    assert cli.backup_command("backup", str(tmp_path / "b"), out, err) == 0
    assert out.getvalue().startswith("0 games written")
    (tmp_path / "b" / "bad.json").write_text("[]", encoding="utf-8")
    assert cli.backup_command("restore", str(tmp_path / "b"), out, err) == 1
    assert "JSON object" in err.getvalue()
