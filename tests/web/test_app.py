"""The factory's settings, the migrations, the `referee serve` and `referee pdf` commands."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from pypdf import PdfReader

from referee import cli
from referee.app import create_app, database_url, secret_key
from referee.web.format import number, signed


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ("", "sqlite:////inst/referee.sqlite3"),
        ("postgres://u:p@h/db", "postgresql+psycopg://u:p@h/db"),
        ("postgresql://u@h:5432/db", "postgresql+psycopg://u@h:5432/db"),
        ("sqlite:////tmp/x.db", "sqlite:////tmp/x.db"),
    ],
)
def test_database_url(monkeypatch: pytest.MonkeyPatch, env: str, expected: str) -> None:
    monkeypatch.setenv("DATABASE_URL", env)
    assert database_url("/inst") == expected


def test_secret_key_kept_in_the_instance_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    first = secret_key(str(tmp_path))
    assert len(first) == 64
    assert secret_key(str(tmp_path)) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    monkeypatch.setenv("REFEREE_SECRET_KEY", "from-env")
    assert secret_key(str(tmp_path)) == "from-env"


def test_migrations_go_down_and_up(app: Flask) -> None:
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect

    from referee.app import MIGRATIONS
    from referee.extensions import db

    with app.app_context():
        downgrade(directory=str(MIGRATIONS), revision="base")
        assert "game" not in inspect(db.engine).get_table_names()
        upgrade(directory=str(MIGRATIONS))
        assert {"game", "deal", "change", "submission", "rate_limit"} <= set(
            inspect(db.engine).get_table_names()
        )


@pytest.mark.parametrize(
    ("value", "fr", "en"),
    [
        (0, "0", "0"),
        (-30, "−30", "−30"),
        (1280, "1\u202f280", "1,280"),
        (-1280, "−1\u202f280", "−1,280"),
    ],
)
def test_numbers_per_locale(app: Flask, value: int, fr: str, en: str) -> None:
    from flask_babel import force_locale

    with app.test_request_context():
        with force_locale("fr"):
            assert number(value) == fr
        with force_locale("en"):
            assert number(value) == en
            assert signed(5) == "+5"


def test_serve_prints_the_address_and_a_qr_code(monkeypatch: pytest.MonkeyPatch) -> None:
    started: dict[str, Any] = {}

    def fake_run(self: Any) -> None:
        self.load_config()
        started["bind"] = self.cfg.bind
        started["workers"] = self.cfg.workers
        started["app"] = self.load()

    monkeypatch.setattr("gunicorn.app.base.BaseApplication.run", fake_run)
    monkeypatch.setattr(cli, "lan_address", lambda: "192.0.2.10")
    monkeypatch.setattr(
        "referee.app.create_app",
        lambda config=None: create_app(
            {"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "t", **(config or {})}
        ),
    )
    out = io.StringIO()
    assert cli.serve_command("0.0.0.0", 5123, 2, 4, out) == 0
    text = out.getvalue()
    assert "http://192.0.2.10:5123/" in text
    assert "█" in text or "▀" in text  # the QR code, drawn in the terminal
    assert started["bind"] == ["0.0.0.0:5123"]
    assert started["workers"] == 2
    assert isinstance(started["app"], Flask)


def test_lan_address_is_an_address() -> None:
    address = cli.lan_address()
    assert address.count(".") == 3


def test_pdf_command_in_process(tmp_path: Path, examples_dir: Path) -> None:
    out, err = tmp_path / "s.pdf", io.StringIO()
    status = cli.pdf_command(
        str(examples_dir / "boulmous-with-stake.json"), str(out), "letter", "fr", err, io.StringIO()
    )
    assert (status, err.getvalue()) == (0, "")
    page = PdfReader(str(out)).pages[0]
    assert round(float(page.mediabox.width)) == 612
    assert "Vainqueur\u202f: Yasmine" in page.extract_text()


def test_pdf_command_errors(tmp_path: Path, examples_dir: Path) -> None:
    err = io.StringIO()
    assert (
        cli.pdf_command(str(tmp_path / "none.json"), "x.pdf", "a4", "en", err, io.StringIO()) == 2
    )
    assert err.getvalue().startswith("cannot read")
    err = io.StringIO()
    target = tmp_path / "missing-folder" / "s.pdf"
    example = str(examples_dir / "pitch-moon.json")
    assert cli.pdf_command(example, str(target), "a4", "en", err, io.StringIO()) == 2
    assert err.getvalue().startswith("cannot write")


def test_rate_limits_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_RATE_LIMITS", "0")
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": "sqlite://", "AUTO_UPGRADE": False, "SECRET_KEY": "t"}
    )
    assert app.config["RATE_LIMITS"] == {}
