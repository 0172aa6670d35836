"""The server's worker processes share their renders and keep their pauses short (issue 19).

Two apps on one database stand for two workers of one `referee serve`: what one of
them rendered, the other serves without rendering it again.
"""

from __future__ import annotations

import gc
import gzip
import json
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from referee import cli
from referee.app import create_app
from referee.extensions import db
from referee.lru import LRU
from referee.web import assets, board, games, share
from referee.web.cache import CachedPage, SharedPages, SharedRows
from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import PLAYERS, deal, tricks


def worker(database: str, shared: Path | None) -> Flask:
    config: dict[str, Any] = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": database,
        "WTF_CSRF_ENABLED": False,
    }
    if shared is not None:
        config["SHARED_PAGES"] = str(shared)
    return create_app(config)


@pytest.fixture
def workers(database: str, tmp_path: Path) -> Iterator[tuple[Flask, Flask]]:
    folder = tmp_path / "pages"
    folder.mkdir()
    pair = (worker(database, folder), worker(database, folder))
    yield pair
    for app in pair:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Every scoreboard rendered (True: a spectator's)."""
    made: list[bool] = []
    real = games.render_game_page

    def counted(game: Any, spectator: bool = False, just: Any = None, deals: Any = None) -> str:
        made.append(spectator)
        return real(game, spectator=spectator, just=just, deals=deals)

    monkeypatch.setattr(games, "render_game_page", counted)
    monkeypatch.setattr(share, "render_game_page", counted)
    return made


def test_a_page_one_worker_rendered_is_served_by_the_other(
    workers: tuple[Flask, Flask], renders: list[bool]
) -> None:
    first, second = (app.test_client() for app in workers)
    token = new_game(first, "boulmous", PLAYERS)
    with workers[0].app_context():
        view = db.session.scalar(db.select(games.Game.view_token).where(games.Game.token == token))
    seen = first.get(f"/g/{token}", headers={"Accept-Language": "fr"})
    assert renders == [False]
    # The other worker has it in no memory of its own: it reads the first one's.
    other = second.get(f"/g/{token}", headers={"Accept-Language": "fr"})
    assert renders == [False]
    assert other.get_data() == seen.get_data()
    assert other.headers["ETag"] == seen.headers["ETag"]
    # Each language, each kind of page (the spectators'), each version: one render.
    second.get(f"/g/{token}", headers={"Accept-Language": "en"})
    first.get(f"/g/{token}", headers={"Accept-Language": "en"})
    assert renders == [False, False]
    second.get(f"/v/{view}", headers={"Accept-Language": "fr"})
    first.get(f"/v/{view}", headers={"Accept-Language": "fr"})
    assert renders == [False, False, True]
    answer = deal(second, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    assert answer.status_code == 302
    # The phone that recorded it sees its "just recorded" line once, in the new
    # version's page: the one render of that version, which the other worker serves.
    mine = second.get(f"/g/{token}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    fresh = first.get(f"/g/{token}", headers={"Accept-Language": "fr"})
    after = second.get(f"/g/{token}", headers={"Accept-Language": "fr"})
    assert after.get_data() == fresh.get_data() != seen.get_data()
    assert 'class="just card"' in mine
    assert 'class="just card"' not in fresh.get_data(as_text=True)
    assert renders.count(False) == 3  # the new version once, the "just recorded" line in it


@pytest.fixture
def rows_drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The deal number of every history row drawn from its template."""
    drawn: list[int] = []
    real = board._draw_row

    def counted(game: Any, row: Any, *args: Any) -> Any:
        drawn.append(row.number)
        return real(game, row, *args)

    monkeypatch.setattr(board, "_draw_row", counted)
    return drawn


def _history(page: bytes) -> list[str]:
    text = gzip.decompress(page).decode() if page[:2] == b"\x1f\x8b" else page.decode()
    return re.findall(r"<tr[ >].*?</tr>", text.split('class="history"', 1)[1], re.S)


def _imported(app: Flask, deals: int) -> str:
    """A game of `deals` Boulmous deals, imported (an evening's game a worker never drew)."""
    record = {
        "format": "referee-game/1",
        "game": "boulmous",
        "players": PLAYERS,
        "first_dealer": 0,
        "rules": {"target": 999},
        "deals": [
            {"taker": n % 4, "bid": 3, "contract": "spades", "tricks": [3, 1, 1, 1]}
            for n in range(deals)
        ],
    }
    with app.app_context():
        token = str(games.service.import_record(json.dumps(record).encode()).token)
        db.session.remove()
    return token


def test_rows_one_worker_drew_are_taken_by_the_other(
    workers: tuple[Flask, Flask], rows_drawn: list[int]
) -> None:
    """The other worker draws the next version of a game whose pages it only served:
    it takes the rows the first one drew, and draws only the new deal's."""
    first, second = (app.test_client() for app in workers)
    fr = {"Accept-Language": "fr"}
    token = _imported(workers[0], 3)
    first.get(f"/g/{token}", headers=fr)
    assert rows_drawn == [1, 2, 3]  # a page drawn cold: its rows kept for the others
    second.get(f"/g/{token}", headers=fr)  # the first worker's page: no row drawn
    assert rows_drawn == [1, 2, 3]
    answer = deal(second, token, taker=0, bid=4, contract="hearts", **tricks(4, 1, 1, 0))
    assert answer.status_code == 302
    drawn = second.get(f"/g/{token}", headers=fr)
    assert rows_drawn == [1, 2, 3, 4]  # the new deal's row only
    # The same page as a worker draws with every row its own.
    for app in workers:
        app.extensions["row_cache"] = LRU[object](64)
        app.extensions["page_cache"] = LRU[CachedPage](64)
    folder = workers[0].extensions["shared_pages"].folder
    for path in folder.iterdir():
        path.unlink()
    again = first.get(f"/g/{token}", headers=fr)
    assert rows_drawn == [1, 2, 3, 4, 1, 2, 3, 4]
    assert _history(again.get_data()) == _history(drawn.get_data())
    assert len(_history(drawn.get_data())) == 9  # the head and four deals, two rows each


def test_a_page_drawn_warm_keeps_its_rows_every_few_deals(
    workers: tuple[Flask, Flask], rows_drawn: list[int]
) -> None:
    first, second = (app.test_client() for app in workers)
    fr = {"Accept-Language": "fr"}
    token = _imported(workers[0], board.SHARE_EVERY - 2)
    first.get(f"/g/{token}", headers=fr)  # cold: kept
    for _deal in range(4):  # warm: the new rows kept at SHARE_EVERY deals
        assert deal(first, token, passed=1).status_code == 302
        first.get(f"/g/{token}", headers=fr)
    rows_drawn.clear()
    assert deal(second, token, passed=1).status_code == 302
    second.get(f"/g/{token}", headers=fr)
    newest = board.SHARE_EVERY + 3
    assert rows_drawn == [newest - 2, newest - 1, newest]  # those after the last kept


def test_rows_of_another_state_or_a_broken_file_are_drawn_again(
    workers: tuple[Flask, Flask], rows_drawn: list[int]
) -> None:
    first, second = (app.test_client() for app in workers)
    fr = {"Accept-Language": "fr"}
    token = _imported(workers[0], 2)
    first.get(f"/g/{token}", headers=fr)
    folder = workers[0].extensions["shared_pages"].folder
    assert [path for path in folder.iterdir() if path.name.startswith(SharedRows.PREFIX)]
    # A player renamed (every row shows the name): the kept rows are of another state.
    with workers[1].app_context():
        version = games.service.version_of(token)
    answer = second.post(
        f"/g/{token}/players", data={"seat": "1", "name": "Bernard", "version": str(version)}
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)
    rows_drawn.clear()
    renamed = second.get(f"/g/{token}", headers=fr)
    assert rows_drawn == [1, 2]
    assert "Bruno" not in "".join(_history(renamed.get_data()))
    # A file cut short: drawn again too.
    for path in folder.iterdir():
        if path.name.startswith(SharedRows.PREFIX):
            path.write_bytes(path.read_bytes()[:40])
    workers[1].extensions["row_cache"] = LRU[object](64)
    assert deal(second, token, passed=1).status_code == 302
    rows_drawn.clear()
    assert second.get(f"/g/{token}", headers=fr).status_code == 200
    assert rows_drawn == [1, 2, 3]


def test_a_file_of_another_version_or_broken_is_not_the_page(tmp_path: Path) -> None:
    store = SharedPages(tmp_path)
    page = CachedPage.of("<p>deal 3</p>", "3-fr-x")
    store.put(("edit", "abc", 3, "fr"), page)
    assert store.get(("edit", "abc", 3, "fr")) == page
    assert store.get(("edit", "abc", 4, "fr")) is None  # the next version: not yet drawn
    assert store.get(("edit", "abc", 3, "en")) is None
    assert store.get(("view", "abc", 3, "fr")) is None
    store.put(("edit", "abc", 4, "fr"), CachedPage.of("<p>deal 4</p>", "4-fr-x"))
    assert store.get(("edit", "abc", 3, "fr")) is None  # replaced: one file per page
    assert len(list(tmp_path.iterdir())) == 1
    (file,) = tmp_path.iterdir()
    for broken in (
        b"",
        b"not json\n",
        b'{"key": ["edit", "abc", 4, "fr"]}\n',
        file.read_bytes()[:-9],
    ):
        file.write_bytes(broken)
        assert store.get(("edit", "abc", 4, "fr")) is None
    # A folder that went away costs a render, not an error.
    gone = SharedPages(tmp_path / "gone")
    gone.put(("edit", "abc", 3, "fr"), page)
    assert gone.get(("edit", "abc", 3, "fr")) is None


def test_pages_are_kept_gzipped_only_and_read_without_inflating(
    app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: a worker keeps 1,000 tables' pages in both languages, gzipped only
    (22 KB of HTML is about 4 KB so); the shared folder's page is read as it is."""
    import gzip

    assert app.extensions["page_cache"].size >= 2 * 1000
    html = "<p>" + "Ana +4 · Bruno −4 " * 1000 + "</p>"
    page = CachedPage.of(html, "7-fr-x")
    assert set(vars(page)) == {"gzipped", "etag"}
    assert page.body.decode() == html
    store = SharedPages(tmp_path)
    store.put(("edit", "abc", 7, "fr"), page)

    def inflate(data: bytes) -> bytes:
        raise AssertionError("inflated")

    monkeypatch.setattr(gzip, "decompress", inflate)
    assert store.get(("edit", "abc", 7, "fr")) == page


def test_a_broken_shared_page_is_drawn_again(
    workers: tuple[Flask, Flask], renders: list[bool], tmp_path: Path
) -> None:
    first, second = (app.test_client() for app in workers)
    token = new_game(first, "boulmous", PLAYERS)
    seen = first.get(f"/g/{token}").get_data()
    for file in (tmp_path / "pages").iterdir():
        file.write_bytes(b"garbage")
    assert second.get(f"/g/{token}").get_data() == seen
    assert len(renders) == 2


def test_without_a_shared_folder_each_worker_renders(database: str, renders: list[bool]) -> None:
    alone = [worker(database, None), worker(database, None)]
    token = new_game(alone[0].test_client(), "boulmous", PLAYERS)
    for app in alone:
        app.test_client().get(f"/g/{token}")
        with app.app_context():
            db.engine.dispose()
    assert renders == [False, False]


def test_a_ready_worker_keeps_what_it_holds_out_of_the_collector(
    monkeypatch: pytest.MonkeyPatch, app: Flask
) -> None:
    import faulthandler

    warmed: list[object] = []
    monkeypatch.setattr("referee.web.sheets.warm", lambda app, wait: warmed.append(app))
    assert gc.get_freeze_count() == 0
    was_enabled = faulthandler.is_enabled()
    faulthandler.disable()
    interval = sys.getswitchinterval()
    try:
        cli.ready_worker(app)
        assert warmed == [app]
        # A thread back from the database gets the lock back sooner than Python's 5 ms.
        assert sys.getswitchinterval() == pytest.approx(cli.SWITCH_INTERVAL)
        assert interval > cli.SWITCH_INTERVAL
        assert gc.get_freeze_count() > 1000  # the modules, the templates, the app
        # A crash in C code says where: every thread's stack on the error log.
        assert faulthandler.is_enabled()
    finally:
        gc.enable()
        gc.unfreeze()
        sys.setswitchinterval(interval)
        if not was_enabled:
            faulthandler.disable()


def test_the_server_makes_the_shared_folder_and_removes_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import io

    import gunicorn.app.base

    made: dict[str, Any] = {}

    def run(self: Any) -> None:
        application = self.load()
        made["folder"] = Path(application.config["SHARED_PAGES"])
        made["there"] = made["folder"].is_dir()
        made["workers"] = self.cfg.workers
        made["heartbeat"] = self.cfg.worker_tmp_dir

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setattr(gunicorn.app.base.BaseApplication, "run", run)
    said = io.StringIO()
    assert cli.serve_command("127.0.0.1", 0, 2, 4, said) == 0
    # A SQLite file DATABASE_URL named was not there: its creation is said (issue 51).
    assert f"a new, empty database was created at {tmp_path / 'db.sqlite3'}" in said.getvalue()
    assert made["there"]
    assert made["workers"] == 2
    assert not made["folder"].exists()
    # Both in memory where the system has a folder for it (not on the disk's /tmp).
    assert made["heartbeat"] == cli.memory_folder()
    assert made["folder"].parent == Path(cli.memory_folder())


def test_scratch_files_go_to_memory_where_there_is_a_folder_for_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import tempfile

    monkeypatch.setattr(cli, "IN_MEMORY", tmp_path)
    assert cli.memory_folder() == str(tmp_path)
    monkeypatch.setattr(cli, "IN_MEMORY", tmp_path / "not-there")
    assert cli.memory_folder() == tempfile.gettempdir()


def test_a_static_file_is_looked_at_once_a_second(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, database: str
) -> None:
    (tmp_path / "static").mkdir()
    style = tmp_path / "static" / "app.css"
    style.write_text("a { color: red; }\n")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database})
    app.static_folder = str(tmp_path / "static")
    app.view_functions.pop("static")
    app.url_default_functions[None] = []
    assets.register(app, {})
    now = [1000.0]
    monkeypatch.setattr(assets.time, "monotonic", lambda: now[0])

    def address() -> str:
        with app.test_request_context("/"):
            return games.url_for("static", filename="app.css")

    first = address()
    style.write_text("a { color: blue; }\n")
    now[0] += 0.5
    assert address() == first  # not looked at again within the second
    now[0] += 0.6
    assert address() != first  # the edited file, its new address
    with app.app_context():
        db.engine.dispose()


def test_workers_asking_at_once_wait_for_one_drawing(tmp_path: Path) -> None:
    """Every worker hears of a new deal at once: one of them draws the page."""
    import threading

    drawn: list[str] = []
    started = threading.Event()

    def slow(name: str) -> CachedPage:
        drawn.append(name)
        started.set()
        time.sleep(0.3)
        return CachedPage.of(f"<p>by {name}</p>", "5-fr-x")

    key = ("edit", "abc", 5, "fr")
    got: dict[str, CachedPage] = {}
    first = threading.Thread(
        target=lambda: got.update(a=SharedPages(tmp_path).make(key, lambda: slow("a")))
    )
    first.start()
    assert started.wait(5)
    got["b"] = SharedPages(tmp_path).make(key, lambda: slow("b"))
    first.join(5)
    assert drawn == ["a"]
    assert got["a"] == got["b"]
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".drawing")] == []


def test_a_worker_that_failed_or_died_drawing_is_not_waited_for(tmp_path: Path) -> None:
    import os

    key = ("edit", "abc", 5, "fr")
    page = CachedPage.of("<p>5</p>", "5-fr-x")
    store = SharedPages(tmp_path)

    def fails() -> CachedPage:
        raise RuntimeError("the engine refused")

    with pytest.raises(RuntimeError):
        store.make(key, fails)
    assert list(tmp_path.iterdir()) == []  # its mark went with it
    assert store.make(key, lambda: page) == page
    # A mark left by a worker killed while drawing: older than WAIT, not waited for.
    other = ("edit", "abc", 6, "fr")
    path = store._path(other)
    mark = path.parent / f"{path.name}.6.drawing"
    mark.touch()
    os.utime(mark, (time.time() - 10, time.time() - 10))
    began = time.monotonic()
    assert store.make(other, lambda: page) == page
    assert time.monotonic() - began < SharedPages.WAIT / 2


def test_the_folder_of_a_server_that_was_killed_is_removed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import os
    import subprocess
    import sys

    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = tmp_path / f"referee-pages-{gone.stdout.strip()}-abc"
    alive = tmp_path / f"referee-pages-{os.getppid()}-def"
    other = tmp_path / "referee-pages-notapid-x"
    for folder in (dead, alive, other):
        folder.mkdir()
    made = Path(cli.shared_folder(str(tmp_path)))
    assert made.parent == tmp_path
    assert made.is_dir()
    assert made.name.startswith(f"referee-pages-{os.getpid()}-")
    assert not dead.exists()
    assert alive.exists()
    assert other.exists()


def test_the_server_may_hold_a_connection_per_phone_open() -> None:
    """Every connection is an open file: a soft limit of 1,024 (a systemd service's
    default) is fewer than one busy worker's phones (500 tables: 1,250 a worker)."""
    import resource

    from referee.cli import open_files

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(512, hard), hard))
        wanted = 2 * 4000 + 256
        expected = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        assert open_files(wanted) == expected
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (expected, hard)
        assert open_files(100) == expected  # never lowered
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_worker_collects_garbage_only_between_requests(
    monkeypatch: pytest.MonkeyPatch, app: Flask
) -> None:
    """Once ready, a worker's collector does not run by itself (run anywhere, in the
    middle of a request's library code, a worker crashed under load): the server
    runs it after each request, when its own policy says one is due."""
    monkeypatch.setattr("referee.web.sheets.warm", lambda app, wait: None)
    collected: list[int] = []
    monkeypatch.setattr(gc, "collect", lambda generation=2: collected.append(generation) or 0)
    interval = sys.getswitchinterval()
    try:
        cli.ready_worker(app)
        assert not gc.isenabled()
        monkeypatch.setattr(gc, "get_threshold", lambda: (700, 10, 10))
        monkeypatch.setattr(gc, "get_count", lambda: (12, 3, 1))
        assert cli.collect_between_requests() == -1  # not due
        monkeypatch.setattr(gc, "get_count", lambda: (701, 3, 1))
        assert cli.collect_between_requests() == 0
        monkeypatch.setattr(gc, "get_count", lambda: (701, 11, 1))
        assert cli.collect_between_requests() == 1
        # A full collection is due by the counts, but one ran when the worker got
        # ready: not before `FULL_COLLECTION_EVERY` seconds, then once.
        monkeypatch.setattr(gc, "get_count", lambda: (701, 11, 11))
        start = time.monotonic()
        assert cli.collect_between_requests(lambda: start + 1) == 1
        later = start + cli.FULL_COLLECTION_EVERY + 1
        assert cli.collect_between_requests(lambda: later) == 2
        assert cli.collect_between_requests(lambda: later + 1) == 1
        assert collected[-5:] == [0, 1, 1, 2, 1]
    finally:
        gc.enable()
        gc.unfreeze()
        sys.setswitchinterval(interval)


def test_the_server_collects_after_each_request(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`referee serve` hands gunicorn the collection as its post_request hook."""
    import io

    import gunicorn.app.base

    seen: dict[str, Any] = {}

    def run(self: Any) -> None:
        seen["hook"] = self.cfg.post_request

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite3'}")
    monkeypatch.setattr(gunicorn.app.base.BaseApplication, "run", run)
    monkeypatch.setattr(cli, "collect_between_requests", lambda: seen.setdefault("ran", True))
    assert cli.serve_command("127.0.0.1", 0, 1, 1, io.StringIO()) == 0
    seen["hook"](None, None, {}, None)
    assert seen.get("ran") is True
