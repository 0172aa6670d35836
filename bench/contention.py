"""16 phones entering deals into one game at once: answers, latencies, what is stored.

    .venv/bin/python bench/contention.py                    # SQLite, 1 and 2 servers
    .venv/bin/python bench/contention.py --postgres URL     # PostgreSQL too

Each server is `referee serve` (2 workers x 4 threads) on a free loopback port;
with two servers both share the database. Each phone GETs the deal form and POSTs
a deal, as fast as the servers answer: 16 phones 18 deals each (288 in one game,
under its 300-deal bound), then 2 phones 72 each. A form says which deal it was
opened for; when another phone took that deal, the phone taps "record it as the
next deal" (up to 16 times). Reports every final status, the taps on "next", the
latency from the first POST to the last, and whether the stored game holds each
acknowledged deal once. Bounded: 288 deals a run, 180 s at most. The rate limits are
off (every phone posts from one address). Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the server helpers of tests/server; not bench/ (http.py)

from tests.server.conftest import ONE_ADDRESS, servers_sharing, writers_burst  # noqa: E402
from tests.server.test_concurrency import as_form, key_of, random_deal, stored  # noqa: E402

#: (phones, deals each): 16 hammering one game, and the real case, two phones at a table.
LOADS = ((16, 18), (2, 72))


def run(database: str, servers: int, label: str, writers: int, deals_each: int) -> bool:
    folder = Path(tempfile.mkdtemp(prefix="referee-contention-"))
    with servers_sharing(database, folder, servers, ONE_ADDRESS) as (running, token):
        began = time.perf_counter()
        burst = writers_burst(
            [server.port for server in running],
            token,
            writers,
            deals_each,
            lambda rng: as_form(random_deal(rng)),
            seconds=180,
        )
        seconds = time.perf_counter() - began
        statuses, latencies = burst.statuses, sorted(burst.latencies)
        recorded = [key_of(as_form(d)) for d in stored(running[0].port, token)]
        once = Counter(recorded) == Counter(key_of(f) for f in burst.acknowledged)
        tracebacks = sum((s.workdir / "server.log").read_text().count("Traceback") for s in running)

        def pct(q: float) -> float:
            return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

        errors = sum(n for status, n in statuses.items() if status >= 500)
        print(
            f"| {label} | {servers} | {writers} | {sum(statuses.values())} | {statuses[302]} | "
            f"{statuses[409]} | {burst.offers} | {errors} | {pct(0.5):.0f} | {pct(0.95):.0f} | "
            f"{latencies[-1] * 1000:.0f} | {len(recorded) / seconds:.0f} | "
            f"{'yes' if once else 'NO'} | {tracebacks} |",
            flush=True,
        )
        return once and errors == 0 and tracebacks == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--postgres", help="a PostgreSQL URL (a scratch database) to try too")
    args = parser.parse_args()
    print(
        "| database | servers | phones | deals | recorded (302) | form back (409) | "
        "taken, then recorded as the next (taps) | 5xx | "
        "p50 ms | p95 ms | max ms | deals/s | each acknowledged deal stored once | "
        "tracebacks |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    good = True
    for writers, deals_each in LOADS:
        for servers in (1, 2):
            folder = Path(tempfile.mkdtemp(prefix="referee-contention-db-"))
            url = f"sqlite:///{folder / 'db.sqlite3'}"
            good &= run(url, servers, "SQLite", writers, deals_each)
        if args.postgres:
            for servers in (1, 2):
                good &= run(args.postgres, servers, "PostgreSQL", writers, deals_each)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
