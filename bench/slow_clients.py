"""Slow clients against `referee serve`, exposed directly and behind the kit's proxies.

    .venv/bin/python bench/slow_clients.py            # every row, about four minutes
    .venv/bin/python bench/slow_clients.py --quick    # fewer rows

For each server setting (gunicorn's own `gthread` worker or `referee serve`'s
`BufferingWorker`, 2 workers × N threads) it measures, in one run, side by side:

- **direct**: a table playing (scoreboard, version poll, deal form, deal: see
  tests/server/slow.py), each request on a new connection, while 0, 16, 64 or
  128 slow connections from one address hold the server (a third stalled in their
  headers, a third dripping a body, a third silent): the table's p95 and how many
  of its requests failed;
- **flat out**, no slow client: 8 tables playing as fast as the server answers, the
  requests served per second (what more threads cost or give);
- **behind nginx / Caddy** (deploy/, as `make test-deploy` runs them): the table's
  p95 beside 64 slow connections.

Everything listens on loopback; each measure is bounded by a number of requests and
seconds; the servers and proxies are stopped by their ids. Figures go to
docs/DEPLOY.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the helpers of tests/; not bench/ (its http.py shadows http)

from tests.deploy.conftest import start_caddy, start_nginx  # noqa: E402
from tests.server.conftest import Server, free_port  # noqa: E402
from tests.server.slow import SlowClients, Table, p95  # noqa: E402

ENV = {"REFEREE_RATE_LIMITS": "0"}
GTHREAD = "gthread"
BUFFERING = "referee.server.BufferingWorker"


def table_beside(port: int, slow: int, tls: object = None, requests: int = 80) -> str:
    table = Table(port, tls=tls)  # type: ignore[arg-type]
    clients = SlowClients(port, slow, deadline=60, tls=tls)  # type: ignore[arg-type]
    clients.open()
    try:
        time.sleep(1.0)  # the slow ones settle into the server's threads
        latencies = table.play(requests=requests, seconds=30, fresh=True)
        held = clients.still_open()
    finally:
        clients.close()
        table.close()
    failed = sum(latency >= 10 for latency in latencies)
    return (
        f"p95 {p95(latencies) * 1000:7.0f} ms, {failed:3d}/{len(latencies)} failed, "
        f"{held:3d} slow held"
    )


def flat_out(port: int, tables: int = 8, seconds: float = 10.0) -> float:
    done: list[int] = []
    players = [Table(port) for _ in range(tables)]

    def play(table: Table) -> None:
        done.append(len(table.play(requests=100_000, seconds=seconds)))

    threads = [threading.Thread(target=play, args=(t,)) for t in players]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - started
    for table in players:
        table.close()
    return sum(done) / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    settings = [(GTHREAD, 4), (BUFFERING, 4)]
    if not args.quick:
        settings.insert(1, (GTHREAD, 32))
    slow_counts = [0, 64] if args.quick else [0, 16, 64, 128]
    with tempfile.TemporaryDirectory(prefix="referee-slow-") as tmp:
        for worker, threads in settings:
            work = Path(tmp) / f"{worker.rsplit('.', 1)[-1]}-{threads}"
            work.mkdir()
            server = Server(free_port(), f"sqlite:///{work}/db.sqlite3", work, dict(ENV))
            server.threads = threads
            server.worker_class = worker
            server.start()
            try:
                print(f"{worker}, 2 workers × {threads} threads", flush=True)
                rate = flat_out(server.port, seconds=5 if args.quick else 10)
                print(f"  flat out, 8 tables:      {rate:6.0f} requests/s", flush=True)
                for slow in slow_counts:
                    print(f"  direct, {slow:3d} slow:       {table_beside(server.port, slow)}")
                for name, start in (("nginx", start_nginx), ("caddy", start_caddy)):
                    folder = work / name
                    folder.mkdir()
                    proxy = start(folder, server.port)
                    try:
                        line = table_beside(proxy.port, 64, tls=proxy.tls)
                        print(f"  behind {name:5s}, 64 slow: {line}", flush=True)
                    finally:
                        proxy.stop()
            finally:
                server.stop()
    print(f"(os: {os.cpu_count()} cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
