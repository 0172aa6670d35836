"""French tarot's scoring of one deal, as the French Tarot Federation counts it
(FFT, "règlement officiel"; docs/RULES.md, "Tarot", to be written with the
package). The start of issue 54: the deal's value and its sharing, pure and
standard library only; the record, the form and the pages come with the package.

A deal's value, for the taker's side, per defender:
- the points needed by the bouts the taker's side holds at the end: none 56, one
  51, two 41, three 36; the card points are counted in halves (91 in all);
- the contract is made with at least the points needed; the margin is the gap,
  a half point rounded in favour of the side that scores (41.5 of 41: made by 1;
  40.5 of 41: failed by 1);
- (25 + the margin) × the contract's multiplier (petite 1, garde 2, garde sans 4,
  garde contre 6), for the side that won the contract;
- the petit au bout: 10 × the multiplier to the side that won the last trick with
  the petit, whichever side won the contract;
- a poignée: 20, 30 or 40 (simple, double, triple), never multiplied, to the side
  that wins the deal, whoever showed it;
- a chelem: announced and made +400, made unannounced +200, announced and failed
  −200; made by the defence, +200 to the defence (to be checked against the FFT's
  own text before the package lands: the sources read so far agree on the first
  three only).
Sharing: the taker scores the value times the defenders (three at four players,
two at three), each defender minus it; at five the taker ×2 and his partner ×1, or
the taker alone ×4. Every deal adds up to zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final


class Contract(StrEnum):
    """What the taker undertakes, by its multiplier."""

    PETITE = "petite"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"


MULTIPLIER: Final = {
    Contract.PETITE: 1,
    Contract.GARDE: 2,
    Contract.GARDE_SANS: 4,
    Contract.GARDE_CONTRE: 6,
}
#: The points the taker's side needs, by the bouts it holds at the end.
NEEDED: Final = (56, 51, 41, 36)
#: The card points of a deal.
ALL_POINTS: Final = 91
BASE: Final = 25
PETIT_AU_BOUT: Final = 10
#: A poignée's bonus, by its size (1 simple, 2 double, 3 triple).
POIGNEE: Final = (0, 20, 30, 40)


class Side(StrEnum):
    """Who did something that scores: the taker's side or the defence."""

    TAKER = "taker"
    DEFENCE = "defence"


class Chelem(StrEnum):
    """Every trick taken: announced or not, made or not, and by whom."""

    NONE = "none"
    ANNOUNCED_MADE = "announced_made"
    MADE = "made"
    ANNOUNCED_FAILED = "announced_failed"
    DEFENCE = "defence"


CHELEM: Final = {
    Chelem.NONE: 0,
    Chelem.ANNOUNCED_MADE: 400,
    Chelem.MADE: 200,
    Chelem.ANNOUNCED_FAILED: -200,
    Chelem.DEFENCE: -200,
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a deal gave, for the taker's side per defender (`value`), with its
    parts as the "Why?" tells them."""

    made: bool
    needed: int
    margin: int
    base: int
    petit: int
    poignee: int
    chelem: int

    @property
    def value(self) -> int:
        return self.base + self.petit + self.poignee + self.chelem


def outcome(
    contract: Contract,
    bouts: int,
    points: Fraction,
    petit_au_bout: Side | None = None,
    poignee: int = 0,
    chelem: Chelem = Chelem.NONE,
) -> Outcome:
    """The deal's value for the taker's side, per defender (negative: it pays).
    `points`: the taker's side's card points, in halves."""
    needed = NEEDED[bouts]
    gap = points - needed
    made = gap >= 0
    margin = math.ceil(abs(gap))  # a half point, in favour of the side that scores
    multiplier = MULTIPLIER[contract]
    sign = 1 if made else -1
    base = sign * (BASE + margin) * multiplier
    petit = 0
    if petit_au_bout is not None:
        petit = (1 if petit_au_bout is Side.TAKER else -1) * PETIT_AU_BOUT * multiplier
    return Outcome(made, needed, margin, base, petit, sign * POIGNEE[poignee], CHELEM[chelem])


def shares(players: int, taker: int, partner: int | None, value: int) -> tuple[int, ...]:
    """Each seat's score of a deal worth `value` to the taker's side per defender:
    the defenders −value each, the taker the rest (with his partner at five, who
    scores `value` once). Adds up to zero."""
    scores = [-value] * players
    if partner is not None and partner != taker:
        scores[partner] = value
        scores[taker] = 2 * value
    else:
        scores[taker] = (players - 1) * value
    return tuple(scores)
