"""Database connections (issue 19): a PostgreSQL connection pinged only after it sat
idle, the plain reads made without a transaction. The fakes run everywhere; the
tests marked for PostgreSQL run on the real server (`make test-postgres`)."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.exc import InvalidatePoolError

from referee.app import PING_AFTER_IDLE, engine_options, ping_after_idle
from referee.extensions import db
from referee.models import Game
from referee.services import games
from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import PLAYERS, deal

postgres_only = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="needs PostgreSQL (make test-postgres)",
)


class FakeConnection:
    """A DBAPI connection that notes what it is asked, and can be dead."""

    def __init__(self, dead: bool = False) -> None:
        self.dead = dead
        self.autocommit = False
        self.executed: list[tuple[str, bool]] = []

    def cursor(self) -> FakeConnection:
        return self

    def execute(self, sql: str) -> None:
        if self.dead:
            import psycopg

            raise psycopg.OperationalError("server closed the connection unexpectedly")
        self.executed.append((sql, self.autocommit))

    def close(self) -> None:
        pass


class Record:
    def __init__(self) -> None:
        self.info: dict[str, Any] = {}


def test_no_ping_at_every_use() -> None:
    assert engine_options("sqlite://") == {}
    for url in ("sqlite:////x.db", "postgresql+psycopg://h/db"):
        assert "pool_pre_ping" not in engine_options(url)


def test_a_connection_is_pinged_only_after_it_sat_idle() -> None:
    engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:9/none", **engine_options("x"))
    ping_after_idle(engine, idle=0.05)
    pool, connection, record = engine.pool, FakeConnection(), Record()
    pool.dispatch.checkout(connection, record, None)
    assert connection.executed == []  # a new connection: not pinged
    pool.dispatch.checkin(connection, record)
    pool.dispatch.checkout(connection, record, None)
    assert connection.executed == []  # in use a moment ago
    pool.dispatch.checkin(connection, record)
    time.sleep(0.06)
    pool.dispatch.checkout(connection, record, None)
    # Pinged, in autocommit (no transaction left open), then back as it was.
    assert connection.executed == [("SELECT 1", True)]
    assert connection.autocommit is False


def test_a_dead_idle_connection_is_replaced_with_the_pool() -> None:
    engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:9/none", **engine_options("x"))
    ping_after_idle(engine, idle=0)
    dead, record = FakeConnection(dead=True), Record()
    engine.pool.dispatch.checkin(dead, record)
    with pytest.raises(InvalidatePoolError):
        engine.pool.dispatch.checkout(dead, record, None)


def test_the_app_pings_postgresql_connections_and_never_sqlite_ones(app: Flask) -> None:
    """On the database the tests run on (SQLite here, PostgreSQL in `make
    test-postgres`): a file has nothing to drop, a server's connections are watched."""
    with app.app_context():
        watched = bool(db.engine.pool.dispatch.checkout)
        assert watched == (db.engine.dialect.name != "sqlite")


@postgres_only
def test_a_plain_read_takes_no_transaction(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    token = new_game(app.test_client(), "boulmous", PLAYERS)
    seen: list[bool] = []
    with app.app_context():
        real = db.engine.raw_connection

        def spied() -> Any:
            raw = real()
            cursor = raw.cursor

            def noted() -> Any:
                seen.append(raw.driver_connection.autocommit)  # type: ignore[union-attr]
                return cursor()

            raw.cursor = noted  # type: ignore[method-assign]
            return raw

        monkeypatch.setattr(db.engine, "raw_connection", spied)
        assert games.version_of(token) == 0  # a new game's
        assert seen == [True]  # no BEGIN before it, no ROLLBACK after it
        monkeypatch.undo()
        raw = db.engine.raw_connection()
        try:
            import psycopg.pq

            status = raw.driver_connection.info.transaction_status  # type: ignore[union-attr]
            assert status == psycopg.pq.TransactionStatus.IDLE
            assert raw.driver_connection.autocommit is False  # type: ignore[union-attr]
        finally:
            raw.close()


@postgres_only
def test_a_game_read_to_be_shown_takes_no_transaction(app: Flask) -> None:
    """`games.shown` (the deal form, each version's page): the game's row read in
    autocommit (no BEGIN before it, no ROLLBACK after it), the session left with
    no transaction and its next read in one as before (issue 19)."""
    client = app.test_client()
    token = new_game(client, "boulmous", PLAYERS)
    assert deal(client, token, passed=1).status_code == 302
    modes: list[bool] = []

    def noted(conn: Any, *_args: Any) -> None:
        modes.append(conn.connection.dbapi_connection.autocommit)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", noted)
        try:
            found = games.shown(token)
            assert found is not None
            game, deals = found
            assert modes == [True]  # the game's row (its deals: a plain read, `_rows`)
            assert not db.session().in_transaction()
            assert (game.players, deals) == (PLAYERS, [{"passed": True}])  # still loaded
            assert modes == [True]  # nothing read again
            db.session.scalar(select(Game.version).where(Game.token == token))
            assert modes == [True, False]  # the next read: in a transaction, as before
        finally:
            event.remove(db.engine, "before_cursor_execute", noted)
            db.session.remove()


@postgres_only
def test_a_read_to_be_shown_that_fails_tells_its_own_error(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read that fails inside `shown`'s autocommit, its connection lost with it:
    its error reaches the caller (not the one of committing on a lost connection),
    and the session reads again after."""
    token = new_game(app.test_client(), "boulmous", PLAYERS)

    def broken(sql: str, *params: object) -> list[Any]:
        db.session.connection().invalidate()  # the database went away meanwhile
        raise RuntimeError("the deals' read failed")

    with app.app_context():
        monkeypatch.setattr(games, "_rows", broken)
        with pytest.raises(RuntimeError, match="deals' read failed"):
            games.shown(token)
        monkeypatch.undo()
        assert not db.session().in_transaction()
        found = games.shown(token)
        assert found is not None
        assert found[0].token == token
        db.session.remove()


@postgres_only
def test_a_connection_the_server_dropped_is_replaced(app: Flask) -> None:
    """A pooled connection killed on the server (a restart, a firewall) while idle:
    the next request gets a working one."""
    with app.app_context():
        engine = db.engine
        raw = engine.raw_connection()
        pid = raw.driver_connection.info.backend_pid  # type: ignore[union-attr]
        raw.close()
        admin = create_engine(engine.url.render_as_string(hide_password=False))
        with admin.begin() as connection:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        admin.dispose()
        time.sleep(PING_AFTER_IDLE + 0.1)
        with engine.connect() as connection:
            assert connection.execute(text("SELECT 1")).scalar() == 1
