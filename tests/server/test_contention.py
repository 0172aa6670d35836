"""16 phones writing to one game at once, on one server and on two sharing the database.

On SQLite (one file) and, with `DATABASE_URL` (CI's `make test-postgres`), on
PostgreSQL. Each phone's form says which deal it was opened for: when another phone
took that deal, the form comes back offering the next one, and the phone records it
there (one tap). The answer is never a 5xx, and every deal acknowledged is stored
exactly once.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.server.conftest import ONE_ADDRESS, servers_sharing, writers_burst
from tests.server.test_concurrency import as_form, key_of, random_deal, stored

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
WRITERS = 16
DEALS_EACH = 5


@pytest.mark.parametrize("servers", [1, 2], ids=["one-server", "two-servers"])
def test_16_writers_on_one_game(database: str, tmp_path: Path, servers: int) -> None:
    with servers_sharing(database, tmp_path, servers, ONE_ADDRESS) as (running, token):
        burst = writers_burst(
            [server.port for server in running],
            token,
            WRITERS,
            DEALS_EACH,
            lambda rng: as_form(random_deal(rng)),
        )
        statuses = burst.statuses
        assert not any(status >= 500 for status in statuses), statuses
        assert set(statuses) <= {302, 409}, statuses
        recorded = [key_of(as_form(d)) for d in stored(running[0].port, token)]
        # Each acknowledged deal is stored, once.
        assert Counter(recorded) == Counter(key_of(f) for f in burst.acknowledged)
        # 16 phones racing for each number with no pause: each number is won by one,
        # the others are told and tap "record it as the next deal" (16 times at most,
        # then the form stays with them: 409). The game moves on all the same.
        assert statuses[302] >= WRITERS * DEALS_EACH / 2, (statuses, burst.offers)
        assert burst.offers > 0
        for server in running:
            log = (server.workdir / "server.log").read_text()
            assert "Traceback" not in log, log[-2000:]
