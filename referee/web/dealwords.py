"""What the deal being entered gives, in one line, before Record (the deal form's bar).

Team games speak per team ("Ana & Chloé +5 · Bruno & David −6"); a game whose
hand makes its own sides per side of the hand (taker and partner, then the
defenders), with the game's short reasons when a rule surprises (the home's
`preview_notes`); a deal that ends the game says so ("This deal ends the game: Ana wins").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from referee.engine.game import Standings
from referee.web.format import signed
from referee.web.home import Home, together

#: Between the sides of the line.
DOT = " · "


@dataclass(frozen=True)
class DealWords:
    """The one-line preview, the end of the game it brings (or None), short reasons."""

    line: str
    ends: str | None
    notes: tuple[str, ...]


def line_of(sides: Sequence[Sequence[int]], deltas: Sequence[int], names: Sequence[str]) -> str:
    """Each side with its change, in seat order: one figure for a side whose players
    all score the same, else each player with his own. Where two or more of three or
    more sides score nothing, they are said once at the end ("the others 0"), so that
    the line stays one line on a phone."""
    parts: list[tuple[str, int]] = []
    for side in sides:
        if len({deltas[seat] for seat in side}) == 1:
            parts.append((together([names[s] for s in side]), deltas[side[0]]))
        else:
            parts.extend((names[s], deltas[s]) for s in side)
    idle = [who for who, delta in parts if not delta]
    if len(parts) >= 3 and len(idle) >= 2 and len(idle) < len(parts):
        said = [f"{who} {signed(delta)}" for who, delta in parts if delta]
        return DOT.join([*said, _("the others %(points)s", points=signed(0))])
    return DOT.join(f"{who} {signed(delta)}" for who, delta in parts)


def words_of(
    home: Home,
    entered: Mapping[str, Any],
    after: Standings,
    number: int,
    names: Sequence[str],
    rules: Any,
) -> DealWords:
    """The words of deal `number` (from 1) as `after` scored it."""
    deltas = after.deals[number - 1].deltas
    players = len(names)
    if not any(deltas) and entered.get("passed"):
        line = _("Everyone passed: nobody scores.")
    else:
        line = line_of(home.deal_sides(entered, players, rules), deltas, names)
    ends = None
    last = number == len(after.deals)
    if last and after.finished and after.winners:
        winners = [names[s] for s in after.winners]
        words = together(winners)
        if len(winners) == 1:
            ends = _("This deal ends the game: %(names)s wins.", names=words)
        else:
            ends = _("This deal ends the game: %(names)s win.", names=words)
    before = (
        [score - delta for score, delta in zip(after.scores, deltas, strict=True)] if last else None
    )
    notes = home.preview_notes(entered, deltas, before, after.winners if last else (), names, rules)
    return DealWords(line, ends, tuple(notes))
