"""The rest of a concours's draw, as the route slips print it: each player's table
and seat in the rounds still to draw, when they are known (nobody comes or goes),
and the draw's code; and which slips a later draw changed.

Pure Python (standard library only), like the rest of `referee.events`.
"""

from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass, replace
from typing import Any

from referee.engine.errors import RulesError
from referee.events.concours import Concours, Played, Table, draw_next
from referee.events.draw import Format, Round


@dataclass(frozen=True)
class Planned:
    """The rounds still to draw, when the whole draw is known (nobody comes or goes
    before them): each player's table and seat by round, and the draw's code, which
    the slips print so that a slip of another draw is told apart at a glance."""

    code: str
    seats: dict[int, dict[int, tuple[int, int] | None]]


@functools.lru_cache(maxsize=16)
def planned(concours: Concours) -> Planned:
    """The rest of the draw as it will be made if nobody comes or goes: each round
    drawn as the director's "Draw" would, in turn (the draw is seeded, so the same
    each time). A Swiss draw (fixed pairs) reads the results: none is known."""
    seats: dict[int, dict[int, tuple[int, int] | None]] = {}
    rounds: list[Round] = []
    now = concours
    if concours.format is not Format.PAIRS:
        for number in range(len(concours.played) + 1, concours.rounds + 1):
            try:
                seating = draw_next(now)
            except RulesError:
                break
            rounds.append(seating)
            tables = tuple(Table(i, seats_) for i, seats_ in enumerate(seating.tables, 1))
            now = replace(now, played=(*now.played, Played(number, tables, seating.byes)))
            for t in tables:
                for seat, player in enumerate(t.seats, 1):
                    seats.setdefault(player, {})[number] = (t.number, seat)
            for player in seating.byes:
                seats.setdefault(player, {})[number] = None
    drawn = [p.seating for p in concours.played] + rounds
    text = repr([(r.tables, r.byes) for r in drawn]) + repr(concours.seed)
    code = f"{zlib.crc32(text.encode()) & 0xFFFF:04X}"
    return Planned(code, seats)


def changed_since(plan: Planned, printed: dict[str, Any] | None) -> set[int] | None:
    """The players whose slip differs from the one printed with the draw `printed`
    (as `remember_slips` kept it): their seat in a round still to play moved, or
    they had none. None: every slip (no such print)."""
    if not printed:
        return None
    before = printed.get("seats") or {}
    changed = set()
    for player, seats in plan.seats.items():
        then = before.get(str(player))
        now = {str(r): (list(at) if at else None) for r, at in seats.items()}
        if then is None or any(then.get(r) != at for r, at in now.items()):
            changed.add(player)
    return changed
