"""The application factory: configuration, extensions, blueprints, schema upgrade."""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path
from typing import Any

from flask import Flask, request, session
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import InvalidatePoolError

from referee.api import PREFIX as API_PREFIX
from referee.engine.messages import LANGUAGES
from referee.extensions import babel, csrf, db, migrate
from referee.paths import STATIC, TEMPLATES, TRANSLATIONS, data_dir
from referee.web import DEFAULT_RATE_LIMITS, register
from referee.web.hosts import HostCheck, hosts_setting, public_url_setting
from referee.web.session import CheckedOnceSessionInterface

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def database_url(instance_path: str) -> str:
    """`DATABASE_URL` if set (PostgreSQL), else SQLite in the data folder."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        return f"sqlite:///{Path(instance_path) / 'referee.sqlite3'}"
    # Hosting platforms often say postgres://; SQLAlchemy wants a driver name.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def engine_options(url: str) -> dict[str, Any]:
    """Pool settings: a connection per server thread, kept open.

    An overflow connection is closed after each use, and reopening one (with its
    pragmas) costs more than a request. A PostgreSQL connection that sat idle is
    pinged before its use (`ping_after_idle`), not every connection at every use.
    """
    if url in ("sqlite://", "sqlite:///:memory:"):
        return {}  # one in-memory database, one connection (SQLAlchemy's StaticPool)
    return {"pool_size": 16, "max_overflow": 16}


#: Seconds a pooled PostgreSQL connection may sit unused before it is pinged on its
#: next use (`ping_after_idle`).
PING_AFTER_IDLE = 1.0


def ping_after_idle(engine: Engine, idle: float = PING_AFTER_IDLE) -> None:
    """Ping a PostgreSQL connection taken from the pool only if it sat there `idle`
    seconds or more; a dead one is replaced, and the pool with it (a restarted
    database, a connection a server or a firewall dropped).

    SQLAlchemy's `pool_pre_ping` pinged at every use, inside a transaction: a
    cached scoreboard's one read of the game's version took four round trips
    (BEGIN, the ping, the read, ROLLBACK), where this leaves one (issue 19). A
    connection in use within the last second is taken as alive; a database that
    goes away and comes back within that second fails the requests that were
    using it, as a database that goes away does, once.
    """
    if engine.dialect.name == "sqlite":
        return  # a file: nothing to drop

    @event.listens_for(engine, "checkin")
    def _returned(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < idle:
            return  # new, or in use a moment ago
        try:
            # In autocommit: the ping leaves no transaction open behind it.
            dbapi_connection.autocommit = True
            try:
                cursor = dbapi_connection.cursor()
                cursor.execute("SELECT 1")
                cursor.close()
            finally:
                dbapi_connection.autocommit = False
        except engine.dialect.loaded_dbapi.Error as error:
            # The pool drops this connection and every one as old, and tries again.
            raise InvalidatePoolError() from error


def secret_key(instance_path: str) -> str:
    """`REFEREE_SECRET_KEY`, else a key kept in the data folder across restarts."""
    if os.environ.get("REFEREE_SECRET_KEY"):
        return os.environ["REFEREE_SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        _create_private(path, secrets.token_hex(32).encode("ascii"))
    return path.read_text(encoding="ascii").strip()


def _create_private(path: Path, data: bytes = b"") -> None:
    """Create a file readable and writable by its owner only, from the first byte on
    (no moment where another user could open it). An existing file is left alone."""
    try:
        handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    with os.fdopen(handle, "wb") as out:
        out.write(data)


def private_sqlite_file(url: str) -> None:
    """A SQLite database file is created owner-only before SQLite opens it (its -wal
    and -shm files then take the same permissions)."""
    prefix = "sqlite:///"
    if url.startswith(prefix) and url != "sqlite:///:memory:":
        path = Path(url[len(prefix) :].split("?", 1)[0])
        if path.parent.is_dir():
            _create_private(path)


def select_locale() -> str:
    """The player's choice (cookie), else the browser's preference; French first.
    A program's request to the API speaks its `Accept-Language` alone."""
    chosen = None if request.path.startswith(API_PREFIX) else session.get("lang")
    if chosen in LANGUAGES:
        return str(chosen)
    return request.accept_languages.best_match(LANGUAGES) or LANGUAGES[0]


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. `test_config` overrides the configuration (tests).

    Its own files come from `referee.paths` (a checkout's folders or a wheel's
    copies); its data folder (Flask's instance folder) is `paths.data_dir()`.
    """
    app = Flask(
        __name__,
        instance_path=str(data_dir()),
        instance_relative_config=True,
        template_folder=str(TEMPLATES),
        static_folder=str(STATIC),
    )
    Path(app.instance_path).mkdir(mode=0o700, parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        SQLALCHEMY_ENGINE_OPTIONS=engine_options(database_url(app.instance_path)),
        WTF_CSRF_TIME_LIMIT=None,  # a game lasts an evening: tokens must not expire
        MAX_CONTENT_LENGTH=1024 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        PERMANENT_SESSION_LIFETIME=60 * 60 * 24 * 365,
        # The cookie is written when the list of games changes, not on every page.
        SESSION_REFRESH_EACH_REQUEST=False,
        BABEL_DEFAULT_LOCALE="fr",
        BABEL_TRANSLATION_DIRECTORIES=str(TRANSLATIONS),
        AUTO_UPGRADE=True,
        # REFEREE_RATE_LIMITS=0 turns them off (load tests from one address).
        RATE_LIMITS={}
        if os.environ.get("REFEREE_RATE_LIMITS") == "0"
        else dict(DEFAULT_RATE_LIMITS),
        # Behind an HTTPS proxy (REFEREE_HTTPS=1) the session cookie is Secure.
        SESSION_COOKIE_SECURE=os.environ.get("REFEREE_HTTPS") == "1",
        # The address players open, for shared links (referee.web.hosts), and the
        # host names the server answers to.
        PUBLIC_URL=public_url_setting(os.environ.get("REFEREE_URL")),
        ALLOWED_HOSTS=os.environ.get("REFEREE_HOSTS", ""),
    )
    if test_config:
        app.config.update(test_config)
        if "SQLALCHEMY_DATABASE_URI" in test_config:
            app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(
                test_config["SQLALCHEMY_DATABASE_URI"]
            )
    private_sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_key(app.instance_path)

    if os.environ.get("REFEREE_BEHIND_PROXY") == "1":
        # One proxy in front: trust its X-Forwarded-For/-Proto (rate limits, https).
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
    # Outermost: a request for a host that is malformed or not this server's is
    # answered 400 before anything is built from it.
    hosts = hosts_setting(app.config["ALLOWED_HOSTS"], app.config["PUBLIC_URL"])
    app.wsgi_app = HostCheck(app.wsgi_app, hosts)  # type: ignore[method-assign]
    db.init_app(app)
    with app.app_context():
        ping_after_idle(db.engine)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    app.session_interface = CheckedOnceSessionInterface()

    register(app)
    if app.config["AUTO_UPGRADE"]:
        upgrade_database(app)
    return app


def schema_is_current(app: Flask) -> bool:
    """Whether the database's schema is the latest migration's (read only)."""
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    with app.app_context(), db.engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_heads()
    heads = ScriptDirectory(str(MIGRATIONS)).get_heads()
    return set(current) == set(heads)


def upgrade_database(app: Flask) -> None:
    """Create or upgrade the schema to the latest migration."""
    from flask_migrate import upgrade

    with app.app_context():
        upgrade(directory=str(MIGRATIONS))


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """SQLite: write-ahead log, wait on locks, durable commits, foreign keys."""
    if type(connection).__module__ != "sqlite3":
        return
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
