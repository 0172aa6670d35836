"""16 phones writing to one game at once, on one server and on two sharing the database.

On SQLite (one file) and, with `DATABASE_URL` (CI's `make test-postgres`), on
PostgreSQL. A deal that loses the race for its place is tried again until it lands;
the answer is never a 5xx, and every deal acknowledged is stored exactly once.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.server.conftest import Phone, Server, free_port
from tests.server.test_concurrency import as_form, key_of, random_deal, stored

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
WRITERS = 16
DEALS_EACH = 5


@pytest.mark.parametrize("servers", [1, 2], ids=["one-server", "two-servers"])
def test_16_writers_on_one_game(database: str, tmp_path: Path, servers: int) -> None:
    running = []
    for number in range(servers):
        folder = tmp_path / f"server{number}"
        folder.mkdir()
        running.append(Server(free_port(), database, folder))
    try:
        for server in running:
            server.start()
        host = Phone(running[0].port)
        token = host.new_game(PLAYERS, target="999")
        host.close()
        statuses: Counter[int] = Counter()
        acknowledged: list[str] = []
        lock = threading.Lock()

        def write(writer: int) -> None:
            rng = random.Random(writer)
            phone = Phone(running[writer % servers].port)
            deadline = time.monotonic() + 120
            try:
                for _ in range(DEALS_EACH):
                    if time.monotonic() > deadline:
                        break
                    deal = random_deal(rng)
                    fields = phone.form(f"/g/{token}/deal")
                    status, _body, _location = phone.request(
                        "POST", f"/g/{token}/deal", {**fields, **as_form(deal)}, timeout=60
                    )
                    with lock:
                        statuses[status] += 1
                        if status == 302:
                            acknowledged.append(key_of(deal))
            finally:
                phone.close()

        threads = [threading.Thread(target=write, args=(w,)) for w in range(WRITERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=180)
        assert not any(status >= 500 for status in statuses), statuses
        assert set(statuses) <= {302, 409}, statuses
        recorded = [key_of(d) for d in stored(running[0].port, token)]
        assert Counter(recorded) == Counter(acknowledged)  # each acknowledged deal, once
        assert statuses[302] >= WRITERS * DEALS_EACH * 0.9
        for server in running:
            log = (server.workdir / "server.log").read_text()
            assert "Traceback" not in log, log[-2000:]
    finally:
        for server in running:
            server.stop()
