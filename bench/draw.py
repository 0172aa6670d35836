"""The draw of a concours (`referee.events.draw`): how long each count the issue
names takes, and 400 players in 6 rounds (target: under 1 s).

    .venv/bin/python bench/draw.py [--runs 5]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time
from collections import Counter

from referee.events.draw import Draw, Format, draw

CASES = [
    (16, 5, Format.INDIVIDUAL, 4),
    (20, 5, Format.INDIVIDUAL, 4),
    (24, 6, Format.INDIVIDUAL, 4),
    (32, 8, Format.INDIVIDUAL, 4),
    (40, 8, Format.INDIVIDUAL, 4),
    (25, 6, Format.INDIVIDUAL, 5),
    (18, 5, Format.INDIVIDUAL, 4),
    (17, 5, Format.INDIVIDUAL, 4),
    (400, 6, Format.INDIVIDUAL, 4),
    (32, 7, Format.PARTNERS, 4),
    (400, 6, Format.PARTNERS, 4),
    (400, 6, Format.PAIRS, 4),
]


def repeats(drawn: Draw) -> int:
    met: Counter[frozenset[int]] = Counter()
    for played in drawn.rounds:
        for table in played.tables:
            met.update(frozenset(p) for p in itertools.combinations(table, 2))
    return sum(count - 1 for count in met.values() if count > 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = min(max(parser.parse_args().runs, 1), 50)
    for players, rounds, format, size in CASES:
        times = []
        for seed in range(runs):
            start = time.perf_counter()
            drawn = draw(players, rounds, format, size, seed)
            times.append(time.perf_counter() - start)
        met = repeats(drawn) if format is Format.INDIVIDUAL else "-"
        print(
            f"{players:4d} players {rounds} rounds {format:10s} tables of {size}: "
            f"median {statistics.median(times) * 1000:8.1f} ms, "
            f"slowest {max(times) * 1000:8.1f} ms over {runs} seeds; repeats {met}"
        )


if __name__ == "__main__":
    main()
