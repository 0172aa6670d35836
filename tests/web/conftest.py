"""Fixtures for the web tests: an app on a fresh database, and a client.

With `DATABASE_URL` set (PostgreSQL in CI), the same tests run against that
database: each test gets its own schema, dropped afterwards.
"""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, text

from referee.app import create_app
from referee.extensions import db


def _postgres_url() -> str | None:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return None
    return re.sub(r"^postgres(ql)?://", "postgresql+psycopg://", url)


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    """A database URL of our own: a SQLite file, or a fresh PostgreSQL schema."""
    url = _postgres_url()
    if url is None:
        yield f"sqlite:///{tmp_path / 'test.sqlite3'}"
        return
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in url else "?"
    yield f"{url}{sep}options=-csearch_path%3D{schema}"
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture
def app(database: str, tmp_path: Path) -> Iterator[Flask]:
    """The app, upgraded to the latest schema, CSRF off (one test turns it on)."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": database,
            "WTF_CSRF_ENABLED": False,
        }
    )
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A browser without JavaScript."""
    return app.test_client(use_cookies=True)


def new_game(client: FlaskClient, game: str, players: list[str], **fields: Any) -> str:
    """Create a game through the form; return its token."""
    data: dict[str, Any] = {"game": game, "first_dealer": "0", "currency": "EUR"}
    for seat, name in enumerate(players):
        data[f"player{seat}"] = name
    data.update(fields)
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert location.startswith("/g/")
    return location.removeprefix("/g/")
