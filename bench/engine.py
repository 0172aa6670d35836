"""Benchmark the rules engine: re-scoring whole games from their records.

Run with `make bench` (or `.venv/bin/python bench/engine.py`). A fixed seed makes
the games the same on every run. Figures go to docs/PERFORMANCE.md.

Measured: parse (record dict -> typed Record) plus score (Record -> Standings),
which is what the app does on every scoreboard request.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from referee.engine.errors import RulesError
from referee.engine.records import parse_record, score_record

CONTRACTS = ["spades", "hearts", "diamonds", "clubs", "no-trump"]
PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]


def random_boulmous_deal(rng: random.Random) -> dict[str, Any]:
    """A plausible deal: one in ten passed, the rest with six tricks dealt out at random."""
    if rng.random() < 0.1:
        return {"passed": True}
    tricks = [0, 0, 0, 0]
    for _ in range(6):
        tricks[rng.randrange(4)] += 1
    return {
        "taker": rng.randrange(4),
        "bid": rng.choice([3, 3, 3, 4, 4, 5, 6]),
        "contract": rng.choice(CONTRACTS),
        "tricks": tricks,
    }


def boulmous_record(deals: list[dict[str, Any]], target: int) -> dict[str, Any]:
    return {
        "format": "referee-game/1",
        "game": "boulmous",
        "players": PLAYERS,
        "first_dealer": 0,
        "rules": {"target": target},
        "stake": "0.50",
        "deals": deals,
    }


def random_boulmous_game(rng: random.Random) -> dict[str, Any]:
    """A game played to its end at 21 (deals after the win cut off)."""
    record = boulmous_record([random_boulmous_deal(rng) for _ in range(60)], 21)
    try:
        score_record(parse_record(record))
    except RulesError as error:
        won_at = error.problems[0].params["won_at"]
        assert isinstance(won_at, int)
        record["deals"] = record["deals"][:won_at]
    return record


BOMBU_MANCHE: list[dict[str, Any]] = [
    {"contract": "no-tricks", "tricks": [1, 3, 2, 2]},
    {"contract": "no-hearts", "hearts": [3, 0, 4, 1]},
    {"contract": "no-queens", "queens": [0, 2, 1, 1]},
    {"contract": "no-bombu", "bombu": 2},
    {
        "contract": "salad",
        "tricks": [2, 3, 1, 2],
        "hearts": [2, 3, 0, 3],
        "queens": [1, 2, 0, 1],
        "bombu": 3,
    },
    {"contract": "reussite", "finish": [1, 3, 0, 2]},
]


def bombu_game(rng: random.Random) -> dict[str, Any]:
    """A full 24-deal game, each manche's contracts in a random order."""
    deals: list[dict[str, Any]] = []
    for _ in range(4):
        manche = list(BOMBU_MANCHE)
        rng.shuffle(manche)
        deals.extend(manche)
    return {
        "format": "referee-game/1",
        "game": "bombu",
        "players": PLAYERS,
        "rules": {},
        "stake": "1",
        "deals": deals,
    }


PITCH_POINTS = ["ace", "jack", "off_jack", "joker_high", "joker_low", "ten", "three", "two"]


def pitch_game(rng: random.Random, hands: int) -> dict[str, Any]:
    """A long four-handed game that nobody wins (target 999), with random hands."""
    deals = [
        {
            "bidder": rng.randrange(4),
            "bid": rng.choice([4, 5, 6, 7]),
            "trump": rng.choice(CONTRACTS[:4]),
            "points": {card: rng.choice([0, 1, 2, 3, None]) for card in PITCH_POINTS},
        }
        for _ in range(hands)
    ]
    return {
        "format": "referee-game/1",
        "game": "pitch",
        "players": PLAYERS,
        "rules": {"target": 999},
        "stake": "1",
        "deals": deals,
    }


def report(name: str, record: dict[str, Any], repeat: int = 2000) -> None:
    """Time re-scoring one game many times; print median and p95."""
    times = per_call(lambda: rescore(record), repeat)
    p95 = statistics.quantiles(times, n=20)[-1]
    print(
        f"  {name}: median {statistics.median(times) * 1e3:.3f} ms, "
        f"p95 {p95 * 1e3:.3f} ms (target <= 2 ms)"
    )


def rescore(record: dict[str, Any]) -> None:
    score_record(parse_record(record))


def per_call(fn: Callable[[], None], repeat: int) -> list[float]:
    """Wall time of each call, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    games = [random_boulmous_game(rng) for _ in range(args.games)]
    deals = sum(len(g["deals"]) for g in games)
    start = time.perf_counter()
    for game in games:
        rescore(game)
    elapsed = time.perf_counter() - start
    print(f"Boulmous: {args.games} random games to 21, {deals} deals, seed {args.seed}")
    print(f"  {args.games / elapsed:,.0f} games/s, {elapsed / deals * 1e6:.1f} µs per deal")

    report("40-deal game", boulmous_record([random_boulmous_deal(rng) for _ in range(40)], 999))
    print("Bombu provençal")
    report("24-deal game", bombu_game(rng))
    print("Pitch")
    report("40-hand game", pitch_game(rng, 40))


if __name__ == "__main__":
    main()
