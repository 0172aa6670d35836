"""A table of 500 games of 30 deals: its statistics page, cold (issue 17, item 6).

Builds a SQLite database with one table of GAMES games (a third each of Boulmous,
Pitch and Bombu; Boulmous and Pitch played to a target of 999 so that 30 deals
fit, Bombu's full 24), then, in a fresh process each time (nothing cached, no
template compiled), times the table's statistics page, its evening-list page and
the same statistics page again (warm). Prints milliseconds; the target is the
cold statistics page under 300 ms.

    .venv/bin/python bench/table_statistics.py [--games 500] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# This folder holds http.py: the standard library's http must not be shadowed by it.
sys.path[0] = str(ROOT)

DEALS = 30
PEOPLE = ["Ana", "Bruno", "Chloé", "Driss", "Élodie", "Farid"]


# Every game differs from the others (drawn from its own seeded generator), as at a
# real table: no cache may serve one game's scoring for another's.


def split(rng: random.Random, total: int, players: int) -> list[int]:
    """`total` tricks (or cards) among `players`, at random."""
    cuts = sorted(rng.randint(0, total) for _ in range(players - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def turn(counts: list[int], seats: int) -> list[int]:
    return counts[-seats:] + counts[:-seats] if seats else counts


def boulmous(rng: random.Random) -> dict[str, Any]:
    deals: list[dict[str, Any]] = []
    for _ in range(DEALS):
        if rng.random() < 0.1:
            deals.append({"passed": True})
            continue
        deals.append(
            {
                "taker": rng.randrange(4),
                "bid": rng.randint(3, 5),
                "contract": rng.choice(["hearts", "spades", "no-trump"]),
                "tricks": split(rng, 6, 4),
            }
        )
    return {"game": "boulmous", "rules": {"target": 999}, "deals": deals, "stake": "0.50"}


def pitch(rng: random.Random) -> dict[str, Any]:
    cards = ["ace", "jack", "off_jack", "joker_high", "joker_low", "ten", "three", "two"]
    deals = [
        {
            "bidder": rng.randrange(4),
            "bid": rng.randint(4, 7),
            "trump": rng.choice(["spades", "clubs"]),
            "points": {card: rng.randrange(4) for card in cards},
        }
        for _ in range(DEALS)
    ]
    return {"game": "pitch", "rules": {"target": 999}, "deals": deals}


def bombu(rng: random.Random) -> dict[str, Any]:
    deals: list[dict[str, Any]] = []
    for _ in range(4):
        contracts = ["no-tricks", "no-hearts", "no-queens", "no-bombu", "salad", "reussite"]
        rng.shuffle(contracts)
        for contract in contracts:
            tricks, hearts, queens = split(rng, 8, 4), split(rng, 8, 4), split(rng, 4, 4)
            bombu_seat = rng.randrange(4)
            deal: dict[str, Any] = {"contract": contract}
            if contract == "salad":
                # A salad's counts must agree with its tricks: a valid one, turned
                # round the table by a random number of seats.
                r = rng.randrange(4)
                deal.update(
                    tricks=turn([2, 3, 1, 2], r),
                    hearts=turn([2, 3, 0, 3], r),
                    queens=turn([1, 2, 0, 1], r),
                    bombu=(3 + r) % 4,
                )
            if contract == "no-tricks":
                while max(tricks) == 8:  # no capot here: it counts nothing else
                    tricks = split(rng, 8, 4)
                deal["tricks"] = tricks
            if contract == "no-hearts":
                deal["hearts"] = hearts
            if contract == "no-queens":
                deal["queens"] = queens
            if contract == "no-bombu":
                deal["bombu"] = bombu_seat
            if contract == "reussite":
                order = [0, 1, 2, 3]
                rng.shuffle(order)
                deal["finish"] = order
            deals.append(deal)
    return {"game": "bombu", "rules": {}, "deals": deals, "stake": "0.10", "stake_per": "point"}


def build(path: Path, games: int) -> str:
    """The database, with one table of `games` games; its token."""
    from referee.app import create_app
    from referee.engine.records import parse_record, score_record
    from referee.extensions import db
    from referee.models import Table
    from referee.services.games import game_from_record, remember_outcome

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "bench"})
    makers = (boulmous, pitch, bombu)
    with app.app_context():
        table = Table(name="Bench club", aliases={})
        db.session.add(table)
        db.session.flush()
        for n in range(games):
            seats = [PEOPLE[(n + k) % len(PEOPLE)] for k in range(4)]
            raw = {
                "format": "referee-game/1",
                "players": seats,
                "first_dealer": 0,
                **makers[n % 3](random.Random(n)),
                "date": f"2026-{1 + n // 60 % 12:02d}-{1 + n % 28:02d}",
            }
            record = parse_record(raw)
            standings = score_record(record)
            game = game_from_record(
                record, finished=standings.finished, version=1, table_id=table.id
            )
            remember_outcome(game, record, standings)  # as every write through the app does
            db.session.add(game)
        # A small table, to warm the code (templates, queries) but not the data.
        small = Table(name="Warm-up", aliases={})
        db.session.add(small)
        db.session.flush()
        for n in range(3):
            record = parse_record(
                {
                    "format": "referee-game/1",
                    "players": PEOPLE[:4],
                    "first_dealer": 0,
                    **makers[n](random.Random(-n)),
                }
            )
            db.session.add(game_from_record(record, version=1, table_id=small.id))
        db.session.commit()
        return f"{table.token} {small.token}"


def one_run(path: Path, tokens: str) -> dict[str, float]:
    """In this process (a fresh one): the statistics page as the first request of
    the process; then, in another fresh process, after a small table's pages (the
    server's code warm, this table's data cold); then warm; then the table page."""
    token, small = tokens.split()
    from referee.app import create_app

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}", "SECRET_KEY": "bench"})
    client = app.test_client()
    times = {}
    mode = os.environ.get("BENCH_WARM_CODE")
    if mode in ("1", "forget"):
        for url in (f"/t/{small}/statistics", f"/t/{small}"):
            assert client.get(url).status_code == 200
    first = {
        "0": "statistics, new process",
        "1": "statistics, data cold",
        "forget": "statistics, no memo",
    }[mode or "0"]
    for name, url in (
        (first, f"/t/{token}/statistics"),
        ("statistics, warm", f"/t/{token}/statistics"),
        ("table page", f"/t/{token}"),
    ):
        start = time.perf_counter()
        response = client.get(url)
        times[name] = (time.perf_counter() - start) * 1000
        assert response.status_code == 200, response.status_code
    return times


def forget_outcomes(path: Path) -> None:
    """Every game's outcome memo dropped (as after a restore or an engine upgrade):
    the next statistics page derives them all from the deals, and keeps them."""
    import sqlite3

    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE game SET outcome = NULL")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_run(Path(args.child[0]), args.child[1])))
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        started = time.perf_counter()
        token = build(path, args.games)
        print(
            f"{args.games} games of up to {DEALS} deals built in "
            f"{time.perf_counter() - started:.1f} s"
        )
        runs: list[dict[str, float]] = []
        for _ in range(args.runs):
            merged: dict[str, float] = {}
            for warm in ("0", "1", "forget"):  # side by side, alternating
                if warm == "forget":
                    forget_outcomes(path)
                out = subprocess.run(
                    [sys.executable, __file__, "--child", str(path), token],
                    check=True,
                    capture_output=True,
                    text=True,
                    timeout=300,
                    env={**os.environ, "PYTHONHASHSEED": "0", "BENCH_WARM_CODE": warm},
                )
                found = json.loads(out.stdout.strip().splitlines()[-1])
                merged.update({k: v for k, v in found.items() if k not in merged})
            runs.append(merged)
        for name in runs[0]:
            values = [r[name] for r in runs]
            print(
                f"{name:18} median {statistics.median(values):7.1f} ms  "
                f"(min {min(values):.1f}, max {max(values):.1f}, {len(values)} fresh processes)"
            )


if __name__ == "__main__":
    main()
