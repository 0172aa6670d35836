"""Benchmark the app over HTTP, against the real server on loopback, on SQLite and on
PostgreSQL, every figure of one run side by side (issue 19).

    .venv/bin/python bench/http.py            # both databases, about twelve minutes
    .venv/bin/python bench/http.py --quick    # shorter runs, for a smoke check
    .venv/bin/python bench/http.py --database sqlite --levels 400,500 --follow 0

For each database (an SQLite file; a throwaway PostgreSQL server on loopback, fsync
on) it fills a fresh database with games of 30 different deals (imports, before the
server starts), starts `referee serve` on a free loopback port, then:

(a) flat out: 32 clients, each alternating a deal entry (GET the form, POST it)
    and a scoreboard reload, as fast as the server answers; then the scoreboard
    alone, `/ping` alone and `/health` alone, to give the scoreboard's throughput as
    a ratio of a trivial endpoint of the same app in the same run;
(b) paced like real tables: each table enters a deal every 10 s while 4 phones
    follow its scoreboard live (or reload it every 2 s: --phones reload); the
    phones join first (at most 250 a second), the level is measured 10 s after; the number of
    tables rises until a level has an error or a p95 over 100 ms; the server's
    cores (and its CPU per deal recorded), this client's and the machine's (busy,
    and taken by the hypervisor) are shown;
(c) spectators following live: 30 per game, each game's editor entering a deal
    every 10 s; each spectator holds the page's stream of events open, as the
    page under the service worker does (`?pages=1`), and takes the new page from
    it, or loads the page again when it says only a new version; the delay is from
    the editor's answer to each spectator having the new page.

Every loop is bounded in time and only talks to 127.0.0.1. Clients send
`Accept-Language: fr` and `Accept-Encoding: gzip` and keep their connections, as a
phone's browser does. Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gzip
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
CONTRACTS = ["spades", "hearts", "diamonds", "clubs", "no-trump"]


@dataclass
class Stats:
    """Latencies (seconds) and errors of one kind of request."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    kinds: dict[str, int] = field(default_factory=dict)
    #: The latencies again, per kind of request ("GET /g/…/deal").
    by: dict[str, list[float]] = field(default_factory=dict)
    #: Requests started before this moment (`time.perf_counter()`) go to `before`
    #: instead: a level's phones joining, measured apart from the level itself.
    since: float = 0.0
    before: Stats | None = None
    #: The server's cores over the measure (`paced`), when it was given the server.
    cores: float = float("nan")
    #: The whole machine over the measure: cores busy (every process) and cores the
    #: hypervisor took away (steal): a slow minute on this shared machine says so.
    machine: tuple[float, float] = (float("nan"), float("nan"))
    #: The phones' streams (`follow_stream`): opened, ended, pages pushed in them.
    streams: dict[str, int] = field(default_factory=dict)
    #: (when it started, seconds) of each request of the level: its course in time.
    timeline: list[tuple[float, float]] = field(default_factory=list)

    def add(self, seconds: float, ok: bool, kind: str = "", started: float | None = None) -> None:
        if self.before is not None and started is not None and started < self.since:
            self.before.add(seconds, ok, kind)
            return
        self.latencies.append(seconds)
        if started is not None:
            self.timeline.append((started, seconds))
        if not ok:
            self.errors += 1
            self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def pct(self, q: float) -> float:
        data = sorted(self.latencies)
        return data[min(len(data) - 1, int(q * len(data)))] * 1000 if data else float("nan")


class Client:
    """One phone: a keep-alive HTTP/1.1 connection with its own cookie."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""
        self.location = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        """Send one request; like a browser, retry once if the server had closed an idle
        keep-alive connection (an empty answer on a reused connection)."""
        reused = self.writer is not None
        try:
            return await self._request(method, path, body)
        except (ConnectionError, IndexError):
            if not reused:
                raise
            self.writer = None
            return await self._request(method, path, body)

    async def _request(self, method: str, path: str, body: bytes) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        # As a phone's browser would: French, and gzip accepted.
        headers = [
            f"{method} {path} HTTP/1.1",
            f"Host: {HOST}:{self.port}",
            "Accept-Language: fr",
            "Accept-Encoding: gzip",
        ]
        if self.cookie:
            headers.append(f"Cookie: {self.cookie}")
        if body:
            headers.append("Content-Type: application/x-www-form-urlencoded")
        headers.append(f"Content-Length: {len(body)}")
        self.writer.write(("\r\n".join(headers) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        close = False
        gzipped = False
        while True:
            line = (await self.reader.readline()).decode("latin-1").strip()
            if not line:
                break
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "location":
                self.location = value.strip()
            elif name == "set-cookie":  # every cookie kept, as a browser
                jar = dict(c.split("=", 1) for c in self.cookie.split("; ") if "=" in c)
                key, _, kept = value.strip().split(";", 1)[0].partition("=")
                jar[key] = kept
                self.cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
            elif name == "connection" and value.strip().lower() == "close":
                close = True
            elif name == "content-encoding" and value.strip().lower() == "gzip":
                gzipped = True
        data = await self.reader.readexactly(length)
        if gzipped:  # as a browser does (the pages are gzipped since issue 19)
            data = gzip.decompress(data)
        if close:
            self.writer.close()
            self.writer = None
        return status, data

    async def timed(self, stats: Stats, method: str, path: str, body: bytes = b"") -> bytes:
        start = time.perf_counter()
        try:
            status, data = await self.request(method, path, body)
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError) as error:
            stats.add(time.perf_counter() - start, False, f"{method} {type(error).__name__}", start)
            self.writer = None
            return b""
        took = time.perf_counter() - start
        stats.add(took, status < 400, f"{method} {status}", start)
        if start >= stats.since or stats.before is None:
            stats.by.setdefault(f"{method} {_KIND.sub('/…', path)}", []).append(took)
        return data

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def random_deal(rng: random.Random) -> dict[str, str]:
    tricks = [0, 0, 0, 0]
    for _ in range(6):
        tricks[rng.randrange(4)] += 1
    deal = {
        "action": "save",
        "taker": str(rng.randrange(4)),
        "bid": str(rng.choice([3, 4, 5])),
        "contract": rng.choice(CONTRACTS),
    }
    deal.update({f"tricks{seat}": str(n) for seat, n in enumerate(tricks)})
    return deal


def seed_records(count: int, history: int, seed: int = 3) -> list[bytes]:
    """`count` Boulmous records of `history` deals each, every one different (so that
    no cache of the server's serves one game's work for another)."""
    rng = random.Random(seed)
    records = []
    for n in range(count):
        deals = []
        for _ in range(history):
            tricks = [0, 0, 0, 0]
            for _ in range(6):
                tricks[rng.randrange(4)] += 1
            deals.append(
                {
                    "taker": rng.randrange(4),
                    "bid": rng.choice([3, 4, 5]),
                    "contract": rng.choice(CONTRACTS),
                    "tricks": tricks,
                }
            )
        record = {
            "format": "referee-game/1",
            "game": "boulmous",
            "players": [f"{name} {n}" for name in PLAYERS],
            "first_dealer": n % 4,
            "rules": {"target": 999},
            "currency": "EUR",
            "deals": deals,
        }
        records.append(json.dumps(record).encode())
    return records


def seed(url: str, count: int, history: int) -> list[tuple[str, str]]:
    """Fill the database at `url` with `count` games of `history` deals, as imports
    (one process, before the server starts: seeding 600 games through the forms
    would take longer than the measurement). (editor token, spectator token) each."""
    code = (
        "import json, sys\n"
        "from referee.app import create_app\n"
        "from referee.services import games\n"
        "from referee.extensions import db\n"
        "app = create_app({'PDF_IN_PROCESS': True})\n"
        "out = []\n"
        "with app.app_context():\n"
        "    for line in sys.stdin.buffer:\n"
        "        game = games.import_record(line)\n"
        "        out.append((game.token, game.view_token))\n"
        # PostgreSQL vacuums and analyzes freshly filled tables by itself, a minute
        # or so later: in the middle of the measure, on the same two cores.
        "    if db.engine.dialect.name == 'postgresql':\n"
        "        db.session.remove()\n"
        "        with db.engine.connect().execution_options(isolation_level='AUTOCOMMIT') as c:\n"
        "            c.exec_driver_sql('VACUUM ANALYZE')\n"
        "print(json.dumps(out))\n"
    )
    env = {**os.environ, "DATABASE_URL": url, "REFEREE_SECRET_KEY": "bench"}
    lines = b"\n".join(seed_records(count, history)) + b"\n"
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=lines,
        env=env,
        capture_output=True,
        check=True,
        timeout=600,
    )
    return [tuple(pair) for pair in json.loads(done.stdout)]  # type: ignore[misc]


#: A request's kind: its path with the tokens left out.
_KIND = re.compile(r"/[A-Za-z0-9_-]{16,}(?:/\d+)?")
_CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')
_KEY = re.compile(rb'name="key" value="([^"]+)"')


async def enter_deal(client: Client, token: str, rng: random.Random, stats: Stats) -> float:
    """What a phone does for one deal: load the form, post it (with its CSRF token and
    key) and, as a browser does, load the page the answer sends it to (the scores,
    with the deal's undo; until 2026-12-03 the benchmark left that page out).
    Returns the moment the post was answered."""
    page = await client.timed(stats, "GET", f"/g/{token}/deal")
    csrf, key = _CSRF.search(page), _KEY.search(page)
    if not csrf or not key:
        stats.errors += 1
        return time.perf_counter()
    form = {**random_deal(rng), "csrf_token": csrf.group(1).decode(), "key": key.group(1).decode()}
    client.location = ""
    await client.timed(stats, "POST", f"/g/{token}/deal", urlencode(form).encode())
    answered = time.perf_counter()
    if client.location:
        await client.timed(stats, "GET", client.location)
    return answered


async def create_game(port: int) -> str:
    """Create a game through the new-game form; its address comes back as the redirect."""
    client = Client(port)
    page = (await client.request("GET", "/new?game=boulmous"))[1]
    match = _CSRF.search(page)
    assert match, "no CSRF token on the new-game form"
    form = {
        "game": "boulmous",
        "csrf_token": match.group(1).decode(),
        "first_dealer": "0",
        "currency": "EUR",
        "rule_target": "999",
    }
    form.update({f"player{i}": name for i, name in enumerate(PLAYERS)})
    status, _ = await client.request("POST", "/new", urlencode(form).encode())
    client.close()
    assert status == 302, status
    assert client.location.startswith("/g/"), client.location
    return client.location.removeprefix("/g/")


async def flat_out(port: int, tokens: list[str], seconds: float, clients: int) -> dict[str, Stats]:
    """(a) Each client alternates a deal entry and a scoreboard reload, without pause."""
    stats = {"deal": Stats(), "scoreboard": Stats()}
    stop = time.perf_counter() + seconds
    rng = random.Random(7)

    async def one(n: int) -> None:
        client = Client(port)
        token = tokens[n % len(tokens)]
        while time.perf_counter() < stop:
            await enter_deal(client, token, rng, stats["deal"])
            await client.timed(stats["scoreboard"], "GET", f"/g/{token}")
        client.close()

    await asyncio.gather(*(one(n) for n in range(clients)))
    return stats


async def only(port: int, path: str, seconds: float, clients: int) -> Stats:
    """Requests to one path, flat out."""
    stats = Stats()
    stop = time.perf_counter() + seconds

    async def one() -> None:
        client = Client(port)
        while time.perf_counter() < stop:
            await client.timed(stats, "GET", path)
        client.close()

    await asyncio.gather(*(one() for _ in range(clients)))
    return stats


#: Seconds in which a level's phones join (each opens its table's page, and its
#: stream when it follows), then seconds before the level's measure starts: 10 since
#: 2026-12-03, when the p95 by 5 s showed the joining's backlog in a level's first
#: 5 s (PostgreSQL, 350 tables: 655 / 54 / 65 / 61 ms).
JOINING, SETTLING = 5.0, 10.0
#: Phones joining a second at most: past 1,200 phones (300 tables) their joining
#: takes longer than `JOINING`. At 500 tables 2,000 phones in 5 s kept the server
#: busy with their backlog through the level's first 10 s (its p95 by 5 s: 1,132 /
#: 494 / 94 / 66 ms, 2026-12-03): the level measured the flood again, not the tables.
JOIN_RATE = 250.0


def joining_seconds(tables: int) -> float:
    """How long a level's phones take to join (4 a table, `JOIN_RATE` a second)."""
    return max(JOINING, 4 * tables / JOIN_RATE)


async def paced(
    port: int, tokens: list[str], seconds: float, phones: str = "follow", pid: int = 0
) -> Stats:
    """(b) One table per token: a deal every 10 s; 4 phones on its scoreboard, either
    following it as the page's script does (`follow`: the stream of events, and the
    page again at each new version) or reloading it every 2 s (`reload`).

    The phones join in the level's first seconds (`joining_seconds`: every phone of
    every table within 5 s, at most 250 a second: a flood no evening makes, 2,000
    pages and 2,000 streams in 8 s at 500 tables). The level is measured over the
    `seconds` after `SETTLING` more; the joining requests are in the answer's
    `before`, shown apart. (Until 2026-12-02 the phones joined within 2 s and inside
    the measure: at 300 tables a third of the level's pages were that flood's, and
    its p95 was the flood's.)"""
    joining = joining_seconds(len(tokens))
    stats = Stats(before=Stats())
    stats.since = time.perf_counter() + joining + SETTLING
    stats.streams = {}
    stop = stats.since + seconds
    rng = random.Random(11)

    async def entering(token: str) -> None:
        client = Client(port)
        await asyncio.sleep(rng.uniform(0, 10))
        while time.perf_counter() < stop:
            started = time.perf_counter()
            await enter_deal(client, token, rng, stats)
            await asyncio.sleep(max(0.0, 10 - (time.perf_counter() - started)))
        client.close()

    async def reloading(token: str) -> None:
        client = Client(port)
        await asyncio.sleep(rng.uniform(0, joining))
        while time.perf_counter() < stop:
            started = time.perf_counter()
            await client.timed(stats, "GET", f"/g/{token}")
            await asyncio.sleep(max(0.0, 2 - (time.perf_counter() - started)))
        client.close()

    async def following(token: str) -> None:
        page = Client(port)
        await asyncio.sleep(rng.uniform(0, joining))
        await page.timed(stats, "GET", f"/g/{token}")
        await follow_stream(
            port, f"/g/{token}/live", stop, stats, page, f"/g/{token}", streams=stats.streams
        )
        page.close()

    async def measuring() -> None:
        await asyncio.sleep(max(0.0, stats.since - time.perf_counter()))
        used, busy = server_cpu(pid), machine_cpu()
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        stats.cores = (server_cpu(pid) - used) / seconds
        after = machine_cpu()
        stats.machine = ((after[0] - busy[0]) / seconds, (after[1] - busy[1]) / seconds)

    phone = following if phones == "follow" else reloading
    tasks = [entering(t) for t in tokens] + [phone(t) for t in tokens for _ in range(4)]
    await asyncio.gather(*tasks, *([measuring()] if pid else []))
    return stats


async def follow_stream(
    port: int,
    path: str,
    stop: float,
    stats: Stats,
    page: Client,
    page_path: str,
    seen: Callable[[int], None] | None = None,
    streams: dict[str, int] | None = None,
) -> None:
    """What a page's script does until `stop`: hold the stream of events at `path`
    open (again after it ends, 1.5 s later, as EventSource does) and load the page
    again each time it says a version other than the last one.

    As a page under the service worker does (since 2026-12-03), the stream is asked
    with `?pages=1`: a new version may come with its page (`event: page`), which the
    phone takes as it is (inflated here as a browser would) instead of loading it.
    A server that does not send pages answers the same stream with versions only.
    A stream refused as gone (404, 410: the game's link was taken away) ends the
    following, as EventSource stops on such an answer."""
    streams = streams if streams is not None else {}
    known: int | None = None
    while time.perf_counter() < stop:
        try:
            reader, writer = await asyncio.open_connection(HOST, port, limit=1 << 22)
            writer.write(
                f"GET {path}?pages=1 HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                "Accept: text/event-stream\r\nAccept-Language: fr\r\n\r\n".encode()
            )
            await writer.drain()
            status = int((await reader.readline()).split()[1])
            while (await reader.readline()).strip():
                pass  # the head
            if status in (404, 410):  # EventSource gives up on a refusal; the page
                writer.close()  # is loaded once, as its script does, and leads on
                streams["gone"] = streams.get("gone", 0) + 1
                await page.timed(stats, "GET", page_path)
                return
            if status != 200:
                raise ConnectionError(status)
            streams["opened"] = streams.get("opened", 0) + 1
        except (OSError, ValueError, IndexError):
            streams["failed"] = streams.get("failed", 0) + 1
            stats.add(0.0, False, "stream refused")
            await asyncio.sleep(1.5)
            continue
        try:
            while time.perf_counter() < stop:
                remaining = stop - time.perf_counter()
                text = await asyncio.wait_for(reader.readline(), max(0.1, remaining))
                if not text:
                    streams["ended"] = streams.get("ended", 0) + 1
                    await asyncio.sleep(1.5)
                    break
                if not text.startswith(b"data: "):
                    continue
                number, _, pushed = text[6:].strip().partition(b" ")
                version = int(number)
                if known is not None and version != known:
                    if pushed:  # the page came with it: taken, no request
                        gzip.decompress(base64.b64decode(pushed))
                        streams["pages pushed"] = streams.get("pages pushed", 0) + 1
                    else:
                        await page.timed(stats, "GET", page_path)
                    if seen is not None:
                        seen(version)
                known = version
        except (TimeoutError, OSError, ValueError):
            pass
        writer.close()


async def followers(
    port: int, games: list[tuple[str, str]], per_game: int, seconds: float, every: float
) -> dict[str, Any]:
    """(c) Each game's editor enters a deal every `every` s; `per_game` spectators follow
    it as the page's script does: a stream of events on `/v/<token>/live`, and the page
    again when the version it says is new. The delay is from the editor's answer to
    each spectator having the new page (none when it had it first)."""
    rng = random.Random(5)
    stats = Stats()  # the editors' requests and the spectators' pages
    sightings: list[tuple[str, int, float]] = []
    recorded: dict[tuple[str, int], float] = {}
    streams = {"opened": 0, "failed": 0, "ended": 0}
    warmup = 8.0  # every stream opened before the first deal
    stop = time.perf_counter() + warmup + seconds

    async def editor(token: str) -> None:
        client = Client(port)
        await asyncio.sleep(warmup + rng.uniform(0, every))
        while time.perf_counter() < stop - 3:
            started = time.perf_counter()
            answered = await enter_deal(client, token, rng, stats)
            answer = await client.timed(stats, "GET", f"/g/{token}/version.json")
            version = int(re.search(rb"\d+", answer).group(0)) if answer else -1  # type: ignore[union-attr]
            recorded[(token, version)] = answered
            await asyncio.sleep(max(0.0, every - (time.perf_counter() - started)))
        client.close()

    async def spectator(token: str, view: str) -> None:
        page = Client(port)
        await asyncio.sleep(rng.uniform(0, warmup - 2))

        def seen(version: int) -> None:
            # Kept, and matched with the deal's answer at the end: a spectator may
            # have the page before the editor has its answer to the version asked
            # (until 2026-12-02 those updates, the fastest, were not counted).
            sightings.append((token, version, time.perf_counter()))

        await follow_stream(port, f"/v/{view}/live", stop, stats, page, f"/v/{view}", seen, streams)
        page.close()

    tasks = [editor(t) for t, _ in games]
    tasks += [spectator(t, v) for t, v in games for _ in range(per_game)]
    await asyncio.gather(*tasks)
    delays = sorted(
        max(0.0, at - recorded[(token, version)])
        for token, version, at in sightings
        if (token, version) in recorded
    )
    pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))] if delays else float("nan")  # noqa: E731
    return {
        "stats": stats,
        "streams": streams,
        "updates": len(delays),
        "expected": sum(1 for _ in recorded) * per_game,
        "p50": pick(0.5),
        "p95": pick(0.95),
        "p99": pick(0.99),
    }


def machine_cpu() -> tuple[float, float]:
    """CPU seconds so far of the whole machine: busy (not idle, not waiting for the
    disk) and stolen by the hypervisor (`/proc/stat`); zeros where there is none."""
    try:
        fields = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return (0.0, 0.0)
    ticks = os.sysconf("SC_CLK_TCK")
    steal = fields[7] if len(fields) > 7 else 0
    busy = sum(fields[:8]) - fields[3] - fields[4] - steal
    return (busy / ticks, steal / ticks)


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by the server and all its processes (its process group)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pid:  # process group
            total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def start_server(
    port: int, url: str, threads: int | None, workers: int | None, log: Path
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REFEREE_SECRET_KEY": "bench",
        # Every client of the benchmark comes from 127.0.0.1: one address, far more
        # writes a minute than the per-address limit lets through.
        "REFEREE_RATE_LIMITS": "0",
    }
    more = ["--threads", str(threads)] if threads else []
    more += ["--workers", str(workers)] if workers else []
    server = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--host", HOST, "--port", str(port), *more],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),  # shown at the end if the server complained
        start_new_session=True,  # its own process group: its CPU is counted apart
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


@contextlib.contextmanager
def database(kind: str, workdir: Path) -> Iterator[str]:
    """The URL of a fresh database: an SQLite file, or a throwaway PostgreSQL server
    on loopback (.ci/postgres.sh, with fsync on: commits as durable as SQLite's)."""
    if kind == "sqlite":
        yield f"sqlite:///{workdir / 'bench.sqlite3'}"
        return
    env = {
        **os.environ,
        # Outside `workdir` (private to this user): PostgreSQL runs as its own user
        # when this runs as root.
        "PGTEST_DIR": f"/tmp/referee-bench-pg-{os.getpid()}",
        "PGTEST_PORT": str(free_port()),
        "PGTEST_FSYNC": "on",
    }
    script = str(ROOT / ".ci" / "postgres.sh")
    started = subprocess.run(
        ["bash", script, "start"], env=env, capture_output=True, text=True, check=True, timeout=300
    )
    url = started.stdout.strip().rsplit("DATABASE_URL=", 1)[1]
    try:
        yield url
    finally:
        subprocess.run(["bash", script, "stop"], env=env, capture_output=True, timeout=60)
        shutil.rmtree(env["PGTEST_DIR"], ignore_errors=True)


def course(stats: Stats, step: float) -> str:
    """The level's p95 in each `step` seconds, in order: whether a level over 100 ms
    is so all along, or only while it still digests its phones' joining."""
    parts: dict[int, list[float]] = {}
    for started, seconds in stats.timeline:
        parts.setdefault(int((started - stats.since) // step), []).append(seconds)
    shown = []
    for _, took in sorted(parts.items()):
        took.sort()
        shown.append(f"{took[int(len(took) * 0.95)] * 1000:.0f}")
    return " / ".join(shown) + " ms"


def line(name: str, stats: Stats, seconds: float) -> str:
    return (
        f"  {name}: {len(stats.latencies) / seconds:,.0f} req/s, p50 {stats.pct(0.5):.1f} ms, "
        f"p95 {stats.pct(0.95):.1f} ms, p99 {stats.pct(0.99):.1f} ms, errors {stats.errors}"
        + (f" {stats.kinds}" if stats.kinds else "")
    )


async def main_async(
    args: argparse.Namespace, port: int, pid: int, games: list[tuple[str, str]]
) -> None:
    tokens = [token for token, _ in games]
    flat, rest = tokens[:8], tokens[8:]
    seconds = args.seconds
    if not args.no_flat:
        print(f"(a) flat out, 32 clients, {seconds:.0f} s each, games of {args.history}+ deals")
        mixed = await flat_out(port, flat, seconds, 32)
        total = Stats(
            mixed["deal"].latencies + mixed["scoreboard"].latencies,
            mixed["deal"].errors + mixed["scoreboard"].errors,
        )
        print(line("mixed (form, post, scoreboard)", total, seconds))
        print(line("  of which deal entry requests", mixed["deal"], seconds))
        print(line("  of which scoreboard", mixed["scoreboard"], seconds))
        board = await only(port, f"/g/{flat[0]}", seconds, 32)
        print(line("scoreboard alone", board, seconds))
        # /ping, not /health: since /health asks the database it is no longer trivial.
        trivial = await only(port, "/ping", seconds, 32)
        print(line("/ping alone", trivial, seconds))
        health = await only(port, "/health", seconds, 32)
        print(line("/health alone (one database query)", health, seconds))
        ratio = len(board.latencies) / max(1, len(trivial.latencies))
        print(f"  scoreboard / trivial endpoint: {ratio:.0%} (target >= 60%)")

    if args.levels:
        # An evening under way: every table's pages already seen by each worker
        # process (a worker's first look at a game reads, scores and renders all of
        # it; that is the start of an evening, not what a level measures). A new
        # connection lands on either worker: six of them per page miss one worker
        # for 3 % of the pages.
        queue = [token for token in rest[: max(args.levels)] for _ in range(6)]

        async def touch() -> None:
            while queue:
                token = queue.pop()
                for path in (f"/g/{token}", f"/g/{token}/deal"):
                    client = Client(port)
                    await client.request("GET", path)
                    client.close()

        await asyncio.gather(*(touch() for _ in range(8)))
        doing = "following live" if args.phones == "follow" else "reloading every 2 s"
        print(
            f"(b) paced tables of {args.history}+ deals: a deal every 10 s, 4 phones "
            f"{doing}, {args.paced_seconds:.0f} s a level"
        )
        best = 0
        for count in args.levels:
            mine = time.process_time()
            stats = await paced(port, rest[:count], args.paced_seconds, args.phones, pid)
            mine = time.process_time() - mine
            ok = stats.errors == 0 and stats.pct(0.95) <= 100
            joined = stats.before or Stats()
            print(
                f"    joining ({count * 4} phones within {joining_seconds(count):.0f} s, "
                "not in the level): "
                f"{len(joined.latencies)} requests, p50 {joined.pct(0.5):.1f} ms, "
                f"p95 {joined.pct(0.95):.1f} ms, errors {joined.errors}"
            )
            for kind, took in sorted(stats.by.items()):
                took.sort()
                print(
                    f"    {kind}: {len(took)}, p50 {took[len(took) // 2] * 1000:.1f} ms, "
                    f"p95 {took[int(len(took) * 0.95)] * 1000:.1f} ms"
                )
            if stats.streams:
                print(f"    streams (the level and its joining): {stats.streams}")
            print(f"    p95 by 5 s of the level: {course(stats, 5.0)}")
            # The server's CPU per deal recorded: a measure of the code that the
            # machine's minute moves less than a level's knee (what the latency
            # does near it); every deal brings its share of the phones' work.
            posts = len(stats.by.get("POST /g/…/deal", []))
            per_deal = stats.cores * args.paced_seconds / posts * 1000 if posts else float("nan")
            print(
                line(f"{count} tables", stats, args.paced_seconds)
                + f", server {stats.cores:.2f} cores ({per_deal:.1f} ms a deal), "
                f"this client "
                f"{mine / (args.paced_seconds + joining_seconds(count) + SETTLING):.2f}, "
                f"machine busy {stats.machine[0]:.2f} of {os.cpu_count()} cores, "
                f"stolen {stats.machine[1]:.2f}" + ("" if ok else "  <- over")
            )
            if not ok:
                break
            best = count
        print(f"  largest number of tables served with no error and p95 <= 100 ms: {best}")

    if args.follow:
        count = args.follow // args.per_game
        print(
            f"(c) {count} games, {args.per_game} spectators each following live "
            f"({count * args.per_game} in all), a deal every {args.every:.0f} s a game, "
            f"{args.follow_seconds:.0f} s"
        )
        cpu, mine = server_cpu(pid), time.process_time()
        result = await followers(
            port, games[-count:], args.per_game, args.follow_seconds, args.every
        )
        cpu, mine = server_cpu(pid) - cpu, time.process_time() - mine
        span = args.follow_seconds + 8
        print(line("editors' requests and spectators' pages", result["stats"], span))
        print(
            f"  streams {result['streams']}; {result['updates']} of {result['expected']} "
            f"updates seen: delay p50 {result['p50']:.2f} s, p95 {result['p95']:.2f} s, "
            f"p99 {result['p99']:.2f} s (target p95 <= 1 s); server "
            f"{cpu / span:.2f} cores, this client {mine / span:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="short runs for a smoke check")
    parser.add_argument("--threads", type=int, help="threads per server worker (serve's default)")
    parser.add_argument("--workers", type=int, help="server worker processes (serve's default)")
    parser.add_argument(
        "--database", choices=["sqlite", "postgres", "both"], default="both", help="default both"
    )
    parser.add_argument("--no-flat", action="store_true", help="skip part (a)")
    parser.add_argument("--levels", help="tables per level of part (b), comma-separated; 0: skip")
    parser.add_argument(
        "--phones",
        choices=["follow", "reload"],
        default="follow",
        help="part (b): the table's phones follow live (as the page does) or reload every 2 s",
    )
    parser.add_argument("--follow", type=int, help="spectators of part (c); 0: skip")
    parser.add_argument("--flat-only", action="store_true", help="part (a) only")
    args = parser.parse_args()
    args.seconds = 3.0 if args.quick else 15.0
    args.paced_seconds = 6.0 if args.quick else 20.0
    args.history = 5 if args.quick else 30
    levels = args.levels or ("25,50" if args.quick else "300,400,500,600")
    args.levels = [int(n) for n in levels.split(",") if int(n)]
    if args.follow is None:
        args.follow = 200 if args.quick else 3000
    args.per_game = 10 if args.quick else 30
    args.every = 10.0
    args.follow_seconds = 15.0 if args.quick else 60.0
    if args.flat_only:
        args.levels, args.follow = [], 0
    kinds = ["sqlite", "postgres"] if args.database == "both" else [args.database]
    needed = 8 + max(args.levels, default=0) + args.follow // args.per_game
    for kind in kinds:
        with tempfile.TemporaryDirectory() as workdir, database(kind, Path(workdir)) as url:
            print(f"== {kind}: seeding {needed} games of {args.history} deals")
            games = seed(url, needed, args.history)
            port = free_port()
            log = Path(workdir) / "server.log"
            server = start_server(port, url, args.threads, args.workers, log)
            try:
                asyncio.run(main_async(args, port, server.pid, games))
            finally:
                server.terminate()
                server.wait(timeout=15)
                said = log.read_text(errors="replace").strip().splitlines()
                crashed = sum("was sent SIGSEGV" in text for text in said)
                print(f"  server workers that crashed (SIGSEGV): {crashed}")
                if said:
                    print(f"  the server said ({len(said)} lines, the last 20):")
                    print("\n".join(f"    {text}" for text in said[-20:]))


if __name__ == "__main__":
    main()
