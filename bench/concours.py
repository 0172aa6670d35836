"""A concours of 100 tables, measured (issue 41).

    .venv/bin/python bench/concours.py             # about two minutes
    .venv/bin/python bench/concours.py --quick     # shorter

(a) In process: the ranking of 400 players after 6 rounds (`referee.events.
    concours.rank`, the median of 21), and the same as the pages ask it
    (`services.events.ranking`: the event read from SQLite, then ranked).
(b) Served: a fresh SQLite database holds a concours of 400 players (the score
    pad, rounds of 4 deals), round 1 drawn: 100 tables, each with its game. Then
    `referee serve` (its defaults: 2 workers x 4 threads) on a free loopback port
    and, for `--seconds`:
    - 100 table phones enter a deal every 10 s (the deal form, then its post), and
      when the round's 4 deals are in, an opponent accepts on the table's card;
    - the 300 other phones of the tables follow their game live (its stream of
      events, the page again at each version, as the page's script does);
    - 400 followers read the public page and poll its version every 5 s (as its
      script does: `data-poll`), loading it again when it changes, at most every
      10 s (`data-calm`);
    - 50 TVs do the same with the TV page.
    Every request's latency is kept by kind; the p95 of each kind and of all is
    printed (target: 100 ms at most), with the errors and the server's cores.

Only 127.0.0.1; every loop is bounded in time. Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/: its http.py would shadow the standard http

from bench.http import Client, Stats, follow_stream, free_port, server_cpu, start_server  # noqa: E402

PLAYERS = 400
ROUNDS = 6
DEALS = 4
#: A concours's page reloads at most this often (its `data-calm`)...
CALM = 10.0
#: ... and asks its version this often (its `data-poll`).
POLL = 5.0
_CSRF = re.compile(rb'name="csrf_token" value="([^"]+)"')
_KEY = re.compile(rb'name="key" value="([^"]+)"')
_VERSION = re.compile(rb'"version":\s*(\d+)')


def ranking_in_process(runs: int) -> None:
    """(a) 400 players, 6 rounds, every result in: the pure ranking, timed."""
    from referee.events.concours import Concours, Played, Player, Ranking, Table, draw_next, rank
    from referee.events.draw import Format

    rng = random.Random(7)
    concours = Concours(
        game="pad",
        format=Format.INDIVIDUAL,
        rounds=ROUNDS,
        seed=3,
        ranking=Ranking(),
        players=tuple(Player(n, f"Joueur {n}") for n in range(1, PLAYERS + 1)),
    )
    for number in range(1, ROUNDS + 1):
        seating = draw_next(concours)
        tables = tuple(
            Table(i, seats, tuple(rng.randint(-60, 60) for _ in seats), True)
            for i, seats in enumerate(seating.tables, 1)
        )
        concours = replace(concours, played=(*concours.played, Played(number, tables)))
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        lines = rank(concours)
        times.append(time.perf_counter() - started)
    assert len(lines) == PLAYERS
    assert all(isinstance(line.points, int | Fraction) for line in lines)
    print(
        f"(a) rank(): {PLAYERS} players, {ROUNDS} rounds: median "
        f"{statistics.median(times) * 1000:.1f} ms (fastest {min(times) * 1000:.1f}) over {runs}"
    )


def seeded(url: str, runs: int) -> tuple[str, str, str, list[str]]:
    """A concours of 400 in the database, round 1 drawn; the event's tokens and its
    tables' games' tokens. Also times the ranking as the pages ask it, on an event
    of 6 rounds with every result in (another event of the same database)."""
    os.environ["DATABASE_URL"] = url
    from referee.app import create_app
    from referee.extensions import db
    from referee.services import events as service

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    names = [f"Joueur {n}" for n in range(1, PLAYERS + 1)]
    with app.app_context():

        def setup(rounds: int, deals: int) -> service.Setup:
            return service.Setup(
                name="Grand concours",
                game="pad",
                format="individual",
                table_size=4,
                rounds=rounds,
                deals=deals,
                minutes=None,
                ranking={"rule": "score", "tie_breaks": ["wins", "opponents", "lot"]},
                players=names,
            )

        # The ranking as the pages ask it: 6 rounds played, every result accepted.
        full = service.create(setup(ROUNDS, 1))
        rng = random.Random(5)
        for _ in range(ROUNDS):
            service.draw_round(full)
            for table in [t for t in full.tables if t.round == len(full.rounds)]:
                assert table.game_row is not None
                points = [rng.randint(-30, 30) for _ in range(3)]
                service.game_service.add_deal(table.game_row, {"points": [*points, -sum(points)]})
                service.accept(full, table, None, reason="bench")
        times = []
        for _ in range(runs):
            db.session.expire_all()
            started = time.perf_counter()
            loaded = service.loaded(full.id)
            assert loaded is not None
            lines = service.ranking(loaded)
            times.append(time.perf_counter() - started)
        assert len(lines) == PLAYERS
        print(
            f"(a) services.events.ranking(): read from SQLite and ranked: median "
            f"{statistics.median(times) * 1000:.1f} ms (fastest {min(times) * 1000:.1f})"
        )
        event = service.create(setup(ROUNDS, DEALS))
        service.draw_round(event)
        games = [t.game_row.token for t in event.tables if t.game_row is not None]
        tokens = event.view_token, event.play_token, event.token
        db.session.remove()
        db.engine.dispose()
    return (*tokens, games)


async def table(
    port: int,
    stats: Stats,
    play: str,
    number: int,
    game: str,
    stop: float,
    rng: random.Random,
    director: str = "",
) -> None:
    """A table's entering phone: a deal every 10 s; the round's deals in, it
    accepts the result on the table's card, with the table's code (its card's QR
    code) and the director's PIN (it is the phone that entered the deals)."""
    from referee.models import Event
    from referee.services.events import director_pin, table_key

    held = Event(token=director)
    code, pin = table_key(held, number), director_pin(held)
    phone = Client(port)
    await asyncio.sleep(rng.uniform(0, 10))
    dealt = 0
    while time.perf_counter() < stop:
        started = time.perf_counter()
        if dealt < DEALS:
            form = await phone.timed(stats, "GET", f"/g/{game}/deal")
            csrf, key = _CSRF.search(form), _KEY.search(form)
            points = [rng.randint(-20, 20) for _ in range(3)]
            post = {"action": "save", "csrf_token": csrf.group(1).decode() if csrf else ""}
            post["key"] = key.group(1).decode() if key else ""
            post |= {f"points{i}": str(p) for i, p in enumerate([*points, -sum(points)])}
            await phone.timed(stats, "POST", f"/g/{game}/deal", urlencode(post).encode())
            dealt += 1
        elif dealt == DEALS:
            card = await phone.timed(stats, "GET", f"/c/{play}/{number}?k={code}")
            csrf = _CSRF.search(card)
            who = re.search(rb"<option>([^<]+)</option>", card)
            post = {"csrf_token": csrf.group(1).decode() if csrf else "", "k": code, "pin": pin}
            post["who"] = who.group(1).decode() if who else ""
            await phone.timed(stats, "POST", f"/c/{play}/{number}", urlencode(post).encode())
            dealt += 1
        await asyncio.sleep(max(0.0, 10 - (time.perf_counter() - started)))
    phone.close()


async def reader(
    port: int,
    stats: Stats,
    page: str,
    version: str,
    stop: float,
    joining: float,
    rng: random.Random,
) -> None:
    """A follower or a TV: the page, then its version every 5 s (`data-poll`), the
    page again when the version changed, at most every 10 s (`data-calm`), as its
    script does."""
    client = Client(port)
    await asyncio.sleep(rng.uniform(0, joining))
    await client.timed(stats, "GET", page)
    loaded = time.perf_counter()
    known = None
    stale = False
    while time.perf_counter() < stop:
        started = time.perf_counter()
        answer = await client.timed(stats, "GET", version)
        found = _VERSION.search(answer)
        now = found.group(1) if found else None
        stale = stale or (known is not None and now is not None and now != known)
        if stale and started - loaded >= CALM:
            await client.timed(stats, "GET", page)
            loaded, stale = time.perf_counter(), False
        known = now or known
        await asyncio.sleep(max(0.0, POLL - (time.perf_counter() - started)))
    client.close()


async def served(
    port: int, tokens: tuple[str, str, str, list[str]], seconds: float, pid: int
) -> Stats:
    view, play, director, games = tokens
    joining = 8.0
    stats = Stats(before=Stats())
    stats.since = time.perf_counter() + joining
    stop = stats.since + seconds
    stats.streams = {}
    rng = random.Random(11)

    async def following(game: str) -> None:
        page = Client(port)
        await asyncio.sleep(rng.uniform(0, joining))
        await page.timed(stats, "GET", f"/g/{game}")
        await follow_stream(
            port, f"/g/{game}/live", stop, stats, page, f"/g/{game}", streams=stats.streams
        )
        page.close()

    async def measuring() -> None:
        await asyncio.sleep(max(0.0, stats.since - time.perf_counter()))
        used = server_cpu(pid)
        await asyncio.sleep(max(0.0, stop - time.perf_counter()))
        stats.cores = (server_cpu(pid) - used) / seconds

    version = f"/ev/{view}/version.json"
    tasks = [table(port, stats, play, i, g, stop, rng, director) for i, g in enumerate(games, 1)]
    tasks += [following(g) for g in games for _ in range(3)]
    tasks += [reader(port, stats, f"/ev/{view}", version, stop, joining, rng) for _ in range(400)]
    tasks += [reader(port, stats, f"/ev/{view}/tv", version, stop, joining, rng) for _ in range(50)]
    await asyncio.gather(*tasks, measuring())
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--quick", action="store_true", help="20 s, 5 runs")
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.runs = 20.0, 5
    ranking_in_process(args.runs)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'concours.sqlite3'}"
        tokens = seeded(url, args.runs)
        port = free_port()
        log = Path(folder) / "server.log"
        server = start_server(port, url, None, None, log)
        try:
            stats = asyncio.run(served(port, tokens, args.seconds, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=30)
        print(
            f"(b) 100 tables, 400 phones, 400 followers, 50 TVs, {args.seconds:.0f} s "
            f"(after 8 s of joining): {len(stats.latencies)} requests, "
            f"{len(stats.latencies) / args.seconds:,.0f} a second, errors {stats.errors} "
            f"{stats.kinds or ''}; the server used {stats.cores:.2f} cores"
        )
        print(
            f"    all: p50 {stats.pct(0.5):.1f} ms, p95 {stats.pct(0.95):.1f} ms, "
            f"p99 {stats.pct(0.99):.1f} ms"
        )
        for kind, took in sorted(stats.by.items()):
            took.sort()
            p95 = took[min(len(took) - 1, int(0.95 * len(took)))] * 1000
            print(
                f"    {kind}: n {len(took)}, p50 {took[len(took) // 2] * 1000:.1f} ms, "
                f"p95 {p95:.1f} ms"
            )
        print(f"    streams: {stats.streams}")
        complaints = log.read_text(errors="replace")
        if "Traceback" in complaints:
            print(complaints[-3000:])
        print(json.dumps({"p95_ms": round(stats.pct(0.95), 1), "errors": stats.errors}))


if __name__ == "__main__":
    main()
