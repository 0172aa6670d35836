"""Rate limits on writes, counted in the database so that they hold across every
worker process and every app server sharing it."""

from __future__ import annotations

import threading
import time

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from referee.extensions import db
from referee.models import RateLimit


def allow(key: str, limit: int, per: int = 60) -> bool:
    """Count one more action for `key` in the current window; False once over `limit`."""
    window = int(time.time() // per)
    table = RateLimit.__table__
    for _attempt in range(3):
        bumped = db.session.execute(
            update(table)
            .where(table.c.key == key, table.c.window == window)
            .values(count=table.c.count + 1)
        )
        if bumped.rowcount == 0:  # type: ignore[attr-defined]
            try:
                db.session.add(RateLimit(key=key, window=window, count=1))
                db.session.flush()
                # A new window: forget this key's old ones.
                db.session.execute(delete(table).where(table.c.key == key, table.c.window < window))
            except IntegrityError:  # another process opened the window meanwhile
                db.session.rollback()
                continue
        count = db.session.scalar(
            select(table.c.count).where(table.c.key == key, table.c.window == window)
        )
        db.session.commit()
        return (count or 0) <= limit
    return False


class CountedHere:
    """The same count, kept in this process's memory: for reads that must not write
    to the database (the deal form's live preview, asked at every tap: issue 19).
    Each worker process counts apart, so a client may reach `limit` per worker;
    enough to stop a flood, and nothing a phone at the table can notice."""

    #: Keys kept at most (an address per key): beyond, the window starts afresh.
    KEYS = 10_000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._window = -1
        self._counts: dict[str, int] = {}

    def allow(self, key: str, limit: int, per: int = 60) -> bool:
        """Count one more action for `key` in the current window; False once over `limit`."""
        window = int(time.time() // per)
        with self._lock:
            if window != self._window or len(self._counts) >= self.KEYS:
                self._window, self._counts = window, {}
            count = self._counts[key] = self._counts.get(key, 0) + 1
        return count <= limit
