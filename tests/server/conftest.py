"""The real server (gunicorn, as `referee serve` runs it) on a free loopback port."""

from __future__ import annotations

import http.client
import os
import random
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import database  # noqa: F401  (the same databases as the web tests)

HOST = "127.0.0.1"
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_KEY = re.compile(r'name="key" value="([^"]+)"')
_NUMBER = re.compile(r'name="number" value="([0-9]+)"')
#: The answer to a deal whose number another phone took: its form, offered again.
#: The form back after another phone recorded its deal: a different deal, or the same.
OFFERED = ("Meanwhile another phone recorded", "Another phone already recorded this same deal")
#: The servers' environment for phones that all post from one address and tap again
#: when their deal was taken: the rate limits (600 writes a minute an address) are
#: not what a burst measures.
ONE_ADDRESS = {"REFEREE_RATE_LIMITS": "0"}
#: A phone of a burst taps "record it as the next deal" up to this many times (as
#: many as there are phones racing, at most).
WRITERS_AT_MOST = 16


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """A running `referee serve`, in its own process group (so kill -9 takes it all)."""

    port: int
    database: str
    workdir: Path
    process: subprocess.Popen[bytes] | None = None
    #: More of the server's environment (REFEREE_RATE_LIMITS=0 for a load from one address).
    more_env: dict[str, str] = field(default_factory=dict)
    #: Threads per worker (2 workers).
    threads: int = 4
    #: Another gunicorn worker class than `referee serve`'s (benches compare them).
    worker_class: str | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database,
            "REFEREE_SECRET_KEY": "server-tests",
            **self.more_env,
        }
        with (self.workdir / "server.log").open("ab") as log:  # the child keeps its copy
            if self.worker_class is None:
                command = [sys.executable, "-m", "referee.cli"]
            else:
                run = f"import referee.cli as c; c.WORKER_CLASS = {self.worker_class!r}; "
                command = [sys.executable, "-c", run + "raise SystemExit(c.main())"]
            self.process = subprocess.Popen(
                [
                    *command,
                    "serve",
                    "--host",
                    HOST,
                    "--port",
                    str(self.port),
                    "--workers",
                    "2",
                    "--threads",
                    str(self.threads),
                ],
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()  # nothing left running behind a server that did not start
        raise AssertionError(
            "the server did not start: " + (self.workdir / "server.log").read_text()
        )

    def kill(self) -> None:
        """kill -9 the whole server: master, workers and their PDF processes."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:  # stuck: its whole group goes
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


@pytest.fixture
def server(database: str, tmp_path: Path) -> Iterator[Server]:  # noqa: F811
    running = Server(free_port(), database, tmp_path)
    running.start()
    yield running
    running.stop()


def fields_of(page: str) -> dict[str, str]:
    """The hidden fields of a form page: CSRF token, one-time key, deal number."""
    fields = {"csrf_token": _CSRF.search(page).group(1)}  # type: ignore[union-attr]
    for name, pattern in (("key", _KEY), ("number", _NUMBER)):
        found = pattern.search(page)
        if found:
            fields[name] = found.group(1)
    return fields


@dataclass
class Phone:
    """One browser: a keep-alive connection and its session cookie."""

    port: int
    cookie: str = ""
    conn: http.client.HTTPConnection | None = field(default=None, repr=False)
    #: HTTPS, with this context (the deployment tests, through a proxy).
    tls: ssl.SSLContext | None = None
    #: The body of the last deal post's answer: what a failing test shows.
    last_page: str = field(default="", repr=False)

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None, timeout: float = 20
    ) -> tuple[int, str, str]:
        """(status, body, Location) of one request."""
        if self.conn is None:
            self.conn = (
                http.client.HTTPSConnection(HOST, self.port, timeout=timeout, context=self.tls)
                if self.tls is not None
                else http.client.HTTPConnection(HOST, self.port, timeout=timeout)
            )
        headers = {"Accept-Language": "en"}
        if self.tls is not None:
            # A browser's same-origin Referer: over HTTPS the CSRF check wants it.
            headers["Referer"] = f"https://{HOST}:{self.port}{path}"
        if self.cookie:
            headers["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
        except (ConnectionError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        data = response.read().decode()
        # Every cookie the server sets (the session, the phone's name), as a browser.
        jar = dict(c.split("=", 1) for c in self.cookie.split("; ") if "=" in c)
        for cookie in response.msg.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            jar[name] = value
        self.cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
        return response.status, data, response.getheader("Location") or ""

    def healthy(self, process: subprocess.Popen[bytes], seconds: float) -> bool:
        """Poll /health until it answers 200 (True), or the server stops or `seconds`
        pass (False)."""
        deadline = time.monotonic() + seconds
        while process.poll() is None and time.monotonic() < deadline:
            try:
                if self.request("GET", "/health")[0] == 200:
                    return True
            except OSError:
                self.conn = None
            time.sleep(0.2)
        return False

    def form(self, path: str) -> dict[str, str]:
        """The hidden fields of a form page (CSRF token, one-time key)."""
        status, page, _ = self.request("GET", path)
        assert status == 200, (status, page[:300])
        return fields_of(page)

    def post_deal(self, token: str, form: dict[str, str], taps: int = 3) -> tuple[int, int]:
        """Post a deal form as a player would: when another phone took its deal, the
        form comes back (409) offering the next number, and the player taps "record
        it as the next deal", up to `taps` times. (last status, offers seen)."""
        offers = 0
        while True:
            status, page, _ = self.request("POST", f"/g/{token}/deal", form, timeout=60)
            self.last_page = page
            if status != 409 or not any(o in page for o in OFFERED) or offers >= taps:
                return status, offers
            offers += 1
            form = {**form, **fields_of(page)}

    def new_game(self, players: list[str], **rules: str) -> str:
        fields = self.form("/new?game=boulmous")
        form = {**fields, "game": "boulmous", "first_dealer": "0", "currency": "EUR"}
        form.update({f"player{i}": name for i, name in enumerate(players)})
        form.update({f"rule_{k}": v for k, v in rules.items()})
        status, _, location = self.request("POST", "/new", form)
        assert status == 302, status
        return location.split("/g/", 1)[1]

    def said(self) -> str:
        """The messages of the last deal post's answer (its form's errors), in one line."""
        found = re.findall(r'role="alert">(.*?)</(?:div|p)>', self.last_page, re.S)
        lines = (" ".join(re.sub(r"<[^>]+>", " ", m).split()) for m in found)
        return " | ".join(line for line in lines if line)[:300]

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


@dataclass
class Burst:
    """What `writers_burst` saw: every answer, the POST latencies, the deals acknowledged."""

    statuses: Counter[int] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    acknowledged: list[dict[str, Any]] = field(default_factory=list)
    #: Times a phone heard that its deal was taken and recorded it as the next one.
    offers: int = 0


def writers_burst(
    ports: list[int],
    token: str,
    writers: int,
    deals_each: int,
    deal_of: Callable[[random.Random], dict[str, str]],
    seconds: float = 120,
) -> Burst:
    """`writers` phones (spread over the servers of `ports`) each get the deal form and
    post a deal, `deals_each` times, as fast as the servers answer; bounded in time."""
    burst = Burst()
    lock = threading.Lock()

    def write(writer: int) -> None:
        rng = random.Random(writer)
        phone = Phone(ports[writer % len(ports)])
        deadline = time.monotonic() + seconds
        try:
            for _ in range(deals_each):
                if time.monotonic() > deadline:
                    return
                form = deal_of(rng)
                fields = phone.form(f"/g/{token}/deal")
                started = time.perf_counter()
                status, offers = phone.post_deal(token, {**fields, **form}, taps=WRITERS_AT_MOST)
                with lock:
                    burst.latencies.append(time.perf_counter() - started)
                    burst.statuses[status] += 1
                    burst.offers += offers
                    if status == 302:
                        burst.acknowledged.append(form)
        finally:
            phone.close()

    threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 60)
    return burst


@contextmanager
def servers_sharing(
    url: str, folder: Path, count: int, more_env: dict[str, str] | None = None
) -> Iterator[tuple[list[Server], str]]:
    """`count` servers started on one database, and a new Boulmous game (to 999) on it:
    (the servers, the game's token). Every server is stopped at the end."""
    running = []
    for number in range(count):
        workdir = folder / f"server{number}"
        workdir.mkdir()
        running.append(Server(free_port(), url, workdir, more_env=dict(more_env or {})))
    try:
        for server in running:
            server.start()
        host = Phone(running[0].port)
        token = host.new_game(["Ana", "Bruno", "Chloé", "Driss"], target="999")
        host.close()
        yield running, token
    finally:
        for server in running:
            server.stop()
