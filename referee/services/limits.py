"""Rate limits on writes, counted in the database so that they hold across every
worker process and every app server sharing it."""

from __future__ import annotations

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
