"""Benchmark the table app over HTTP, against the real WSGI server on loopback.

    .venv/bin/python bench/http.py            # both parts, about three minutes
    .venv/bin/python bench/http.py --quick    # shorter runs, for a smoke check

It starts `referee serve` on a free loopback port with a fresh SQLite database,
creates games through the forms, then:

(a) flat out: 32 clients, each alternating a deal entry (GET the form, POST it)
    and a scoreboard reload, as fast as the server answers; then the scoreboard
    alone and `/ping` alone, to give the scoreboard's throughput as a ratio of a
    trivial endpoint of the same app in the same run;
(b) paced like real tables: each table enters a deal every 10 s while 4 phones
    reload its scoreboard every 2 s; the number of tables rises until a level has
    an error or a p95 over 100 ms.

Every loop is bounded in time and only talks to 127.0.0.1. Figures go to
docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
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

    def add(self, seconds: float, ok: bool, kind: str = "") -> None:
        self.latencies.append(seconds)
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
            elif name == "set-cookie":
                self.cookie = value.strip().split(";", 1)[0]
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        data = await self.reader.readexactly(length)
        if close:
            self.writer.close()
            self.writer = None
        return status, data

    async def timed(self, stats: Stats, method: str, path: str, body: bytes = b"") -> bytes:
        start = time.perf_counter()
        try:
            status, data = await self.request(method, path, body)
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError) as error:
            stats.add(time.perf_counter() - start, False, f"{method} {type(error).__name__}")
            self.writer = None
            return b""
        stats.add(time.perf_counter() - start, status < 400, f"{method} {status}")
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


_CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')
_KEY = re.compile(rb'name="key" value="([^"]+)"')


async def enter_deal(client: Client, token: str, rng: random.Random, stats: Stats) -> None:
    """What a phone does for one deal: load the form, post it (with its CSRF token and key)."""
    page = await client.timed(stats, "GET", f"/g/{token}/deal")
    csrf, key = _CSRF.search(page), _KEY.search(page)
    if not csrf or not key:
        stats.errors += 1
        return
    form = {**random_deal(rng), "csrf_token": csrf.group(1).decode(), "key": key.group(1).decode()}
    await client.timed(stats, "POST", f"/g/{token}/deal", urlencode(form).encode())


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


async def paced(port: int, tokens: list[str], seconds: float) -> Stats:
    """(b) One table per token: a deal every 10 s, 4 phones reloading every 2 s."""
    stats = Stats()
    stop = time.perf_counter() + seconds
    rng = random.Random(11)

    async def entering(token: str) -> None:
        client = Client(port)
        await asyncio.sleep(rng.uniform(0, 10))
        while time.perf_counter() < stop:
            started = time.perf_counter()
            await enter_deal(client, token, rng, stats)
            await asyncio.sleep(max(0.0, 10 - (time.perf_counter() - started)))
        client.close()

    async def watching(token: str) -> None:
        client = Client(port)
        await asyncio.sleep(rng.uniform(0, 2))
        while time.perf_counter() < stop:
            started = time.perf_counter()
            await client.timed(stats, "GET", f"/g/{token}")
            await asyncio.sleep(max(0.0, 2 - (time.perf_counter() - started)))
        client.close()

    tasks = [entering(t) for t in tokens] + [watching(t) for t in tokens for _ in range(4)]
    await asyncio.gather(*tasks)
    return stats


async def spectators(
    port: int, seconds: float, games: int = 8, per_game: int = 5
) -> dict[str, Any]:
    """(c) Each game's editor enters a deal every 5 s; 5 spectators follow it as the
    page's script does (ask the version every 1.5 s, reload the page when it changes).
    The delay is from the editor's answer to each spectator having the new page."""
    host = Client(port)
    rng = random.Random(5)
    stats = Stats()
    delays: list[float] = []
    recorded: dict[tuple[str, int], float] = {}
    stop = time.perf_counter() + seconds
    tables = []
    for _ in range(games):
        token = await create_game(port)
        page = (await host.request("GET", f"/g/{token}/share"))[1]
        match = re.search(rb"/v/([A-Za-z0-9_-]+)", page)
        assert match, "no spectator link on the share page"
        tables.append((token, match.group(1).decode()))
    host.close()

    async def editor(token: str) -> None:
        client = Client(port)
        await asyncio.sleep(rng.uniform(0, 5))
        while time.perf_counter() < stop - 3:
            await enter_deal(client, token, rng, stats)
            answer = await client.timed(stats, "GET", f"/g/{token}/version.json")
            version = int(re.search(rb"\d+", answer).group(0)) if answer else -1  # type: ignore[union-attr]
            recorded[(token, version)] = time.perf_counter()
            await asyncio.sleep(5)
        client.close()

    async def spectator(token: str, view: str) -> None:
        client = Client(port)
        known = None
        await asyncio.sleep(rng.uniform(0, 1.5))
        while time.perf_counter() < stop:
            answer = await client.timed(stats, "GET", f"/v/{view}/version.json")
            match = re.search(rb"\d+", answer)
            version = int(match.group(0)) if match else None
            if version is not None and version != known:
                await client.timed(stats, "GET", f"/v/{view}")
                if known is not None and (token, version) in recorded:
                    delays.append(time.perf_counter() - recorded[(token, version)])
                known = version
            await asyncio.sleep(1.5)
        client.close()

    tasks = [editor(t) for t, _ in tables]
    tasks += [spectator(t, v) for t, v in tables for _ in range(per_game)]
    await asyncio.gather(*tasks)
    delays.sort()
    pick = lambda q: delays[min(len(delays) - 1, int(q * len(delays)))] if delays else float("nan")  # noqa: E731
    return {"stats": stats, "updates": len(delays), "p50": pick(0.5), "p95": pick(0.95)}


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


def start_server(port: int, workdir: Path, threads: int | None = None) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
        "REFEREE_SECRET_KEY": "bench",
        # Every client of the benchmark comes from 127.0.0.1: one address, far more
        # writes a minute than the per-address limit lets through.
        "REFEREE_RATE_LIMITS": "0",
    }
    more = ["--threads", str(threads)] if threads else []
    server = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "serve", "--host", HOST, "--port", str(port), *more],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: its CPU is counted apart
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start")


def line(name: str, stats: Stats, seconds: float) -> str:
    return (
        f"  {name}: {len(stats.latencies) / seconds:,.0f} req/s, p50 {stats.pct(0.5):.1f} ms, "
        f"p95 {stats.pct(0.95):.1f} ms, p99 {stats.pct(0.99):.1f} ms, errors {stats.errors}"
        + (f" {stats.kinds}" if stats.kinds else "")
    )


async def main_async(args: argparse.Namespace, port: int, pid: int) -> None:
    tables = 8
    tokens = [await create_game(port) for _ in range(tables)]
    # Give each game some history, as a real evening would (re-scored on every view).
    warm = Client(port)
    rng = random.Random(3)
    for token in tokens:
        for _ in range(args.history):
            await enter_deal(warm, token, rng, Stats())
    warm.close()

    seconds = args.seconds
    print(f"(a) flat out, 32 clients, {seconds:.0f} s each, games of {args.history}+ deals")
    mixed = await flat_out(port, tokens, seconds, 32)
    total = Stats(
        mixed["deal"].latencies + mixed["scoreboard"].latencies,
        mixed["deal"].errors + mixed["scoreboard"].errors,
    )
    print(line("mixed (form, post, scoreboard)", total, seconds))
    print(line("  of which deal entry requests", mixed["deal"], seconds))
    print(line("  of which scoreboard", mixed["scoreboard"], seconds))
    board = await only(port, f"/g/{tokens[0]}", seconds, 32)
    print(line("scoreboard alone", board, seconds))
    # /ping, not /health: since /health asks the database it is no longer trivial.
    trivial = await only(port, "/ping", seconds, 32)
    print(line("/ping alone", trivial, seconds))
    print(
        line(
            "/health alone (one database query)", await only(port, "/health", seconds, 32), seconds
        )
    )
    ratio = len(board.latencies) / max(1, len(trivial.latencies))
    print(f"  scoreboard / trivial endpoint: {ratio:.0%} (target >= 40%)")
    if args.flat_only:
        return

    print(f"(b) paced tables, {args.paced_seconds:.0f} s a level")
    best = 0
    for count in args.levels:
        while len(tokens) < count:
            tokens.append(await create_game(port))
        stats = await paced(port, tokens[:count], args.paced_seconds)
        ok = stats.errors == 0 and stats.pct(0.95) <= 100
        print(line(f"{count} tables", stats, args.paced_seconds) + ("" if ok else "  <- over"))
        if not ok:
            break
        best = count
    print(f"  largest number of tables served with no error and p95 <= 100 ms: {best}")

    print(f"(c) 8 games, 5 spectators each following live, {args.spectator_seconds:.0f} s")
    cpu = server_cpu(pid)
    result = await spectators(port, args.spectator_seconds)
    cpu = server_cpu(pid) - cpu
    print(line("all requests", result["stats"], args.spectator_seconds))
    print(
        f"  {result['updates']} updates seen by spectators: delay p50 {result['p50']:.2f} s, "
        f"p95 {result['p95']:.2f} s (target <= 2 s); server CPU {cpu:.1f} s over "
        f"{args.spectator_seconds:.0f} s ({cpu / args.spectator_seconds:.0%} of one core)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="short runs for a smoke check")
    parser.add_argument("--threads", type=int, help="threads per server worker (serve's default)")
    parser.add_argument("--flat-only", action="store_true", help="part (a) only")
    args = parser.parse_args()
    args.seconds = 3.0 if args.quick else 15.0
    args.paced_seconds = 6.0 if args.quick else 20.0
    args.history = 5 if args.quick else 30
    args.levels = [25, 50] if args.quick else [50, 100, 150, 200, 300, 400]
    args.spectator_seconds = 15.0 if args.quick else 60.0
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        server = start_server(port, Path(workdir), args.threads)
        try:
            asyncio.run(main_async(args, port, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
