"""French tarot's record (the start of issue 54): reading a deal as the table
enters it, refusing what no deal can be, and adding the deals up. Not registered
yet (`referee.games.PACKAGES`): its words, form and pages come with the package.

A deal (`"game": "tarot"`): `taker` (a seat; absent when everyone passed, and the
next dealer deals again), `contract`, `partner` at five (the seat of the called
king; the taker himself when he called his own king or one in the dog), `bouts`
(0 to 3, held by the taker's side at the end), `points` (the taker's side's card
points, a whole or half number from 0 to 91), and where they happened
`petit_au_bout` ("taker" or "defence"), `poignees` (their sizes, 1 simple, 2
double, 3 triple) and `chelem`. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.fields import is_int, read_choice, read_int, read_object, read_seat
from referee.games.tarot.scoring import (
    ALL_POINTS,
    POIGNEE,
    Chelem,
    Contract,
    Side,
    outcome,
    shares,
)

KEY: Final = "tarot"
PLAYERS: Final = (3, 4, 5)
#: A bout's card points: three hold 13.5 by themselves.
BOUT_POINTS: Final = Fraction(9, 2)
#: The most poignées a deal can see: one a player.
MOST_POIGNEES: Final = 5

_FIELDS: Final = frozenset(
    {"taker", "contract", "partner", "bouts", "points", "petit_au_bout", "poignees", "chelem"}
    | {"dealer"}
)


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal; `taker` None: everyone passed (it scores nothing)."""

    taker: int | None
    contract: Contract | None = None
    partner: int | None = None
    bouts: int = 0
    points: Fraction = Fraction(0)
    petit_au_bout: Side | None = None
    poignees: tuple[int, ...] = ()
    chelem: Chelem = Chelem.NONE
    dealer: int | None = None

    def deltas(self, players: int) -> tuple[int, ...]:
        """Each seat's score of this deal (all zero when everyone passed)."""
        if self.taker is None or self.contract is None:
            return (0,) * players
        scored = outcome(self.contract, self.bouts, self.points, self.petit_au_bout, 0, self.chelem)
        # The poignées go to the side that wins the deal (FFT), never multiplied.
        poignees = sum(POIGNEE[size] for size in self.poignees)
        value = scored.value + (poignees if scored.made else -poignees)
        return shares(players, self.taker, self.partner, value)


def read_points(obj: Mapping[str, object], problems: list[Problem]) -> Fraction | None:
    """The taker's side's card points: a whole or half number from 0 to 91 (the FFT
    counts halves)."""
    if "points" not in obj:
        problems.append(problem("missing", "points"))
        return None
    value = obj["points"]
    if isinstance(value, bool) or not isinstance(value, int | float):
        problems.append(problem("tarot_points", "points", value=value))
        return None
    halves = Fraction(value) * 2
    if halves.denominator != 1 or not 0 <= value <= ALL_POINTS:
        problems.append(problem("tarot_points", "points", value=value))
        return None
    return Fraction(value)


def parse_deal(raw: object, players: int) -> Deal:
    """Read one deal; every problem at once (codes `tarot_…`)."""
    problems: list[Problem] = []
    obj = read_object(raw, _FIELDS, problems)
    if obj is None:
        raise RulesError(problems)
    dealer = read_seat(obj, "dealer", players, problems, optional=True)
    if obj.get("taker") is None:
        extra = sorted(set(obj) - {"taker", "dealer"})
        if extra:
            problems.append(problem("tarot_passed_with", extra[0]))
        check(problems)
        return Deal(None, dealer=dealer)
    taker = read_seat(obj, "taker", players, problems)
    contract = read_choice(obj, "contract", Contract, problems)
    partner = None
    if players == 5:
        partner = read_seat(obj, "partner", players, problems)
    elif "partner" in obj:
        problems.append(problem("tarot_partner", "partner", players=players))
    bouts = read_int(obj, "bouts", problems, 0, 3)
    points = read_points(obj, problems)
    petit = read_choice(obj, "petit_au_bout", Side, problems, optional=True)
    chelem = read_choice(obj, "chelem", Chelem, problems, optional=True) or Chelem.NONE
    poignees = _read_poignees(obj, problems)
    # Each bout is 4.5 points: the side holding them holds at least those.
    if (
        bouts is not None
        and points is not None
        and (points < BOUT_POINTS * bouts or ALL_POINTS - points < BOUT_POINTS * (3 - bouts))
    ):
        problems.append(problem("tarot_bouts_points", "points", bouts=bouts, points=points))
    made = chelem in (Chelem.ANNOUNCED_MADE, Chelem.MADE)
    if made and points is not None and points < ALL_POINTS - BOUT_POINTS:
        # Every trick, the excuse aside (played by the defence, it stays theirs).
        problems.append(problem("tarot_chelem_points", "chelem", points=points))
    check(problems)
    assert taker is not None
    assert contract is not None
    assert bouts is not None
    assert points is not None
    return Deal(taker, contract, partner, bouts, points, petit, poignees, chelem, dealer)


def _read_poignees(obj: Mapping[str, object], problems: list[Problem]) -> tuple[int, ...]:
    raw = obj.get("poignees", [])
    if not isinstance(raw, list) or len(raw) > MOST_POIGNEES:
        problems.append(problem("tarot_poignees", "poignees"))
        return ()
    if not all(is_int(size) and isinstance(size, int) and 1 <= size <= 3 for size in raw):
        problems.append(problem("tarot_poignees", "poignees"))
        return ()
    return tuple(int(size) for size in raw)


def dump_deal(deal: Deal) -> dict[str, object]:
    """Write a deal as the record has it (what did not happen left out)."""
    if deal.taker is None or deal.contract is None:
        out: dict[str, object] = {"taker": None}
    else:
        points: object = int(deal.points) if deal.points.denominator == 1 else float(deal.points)
        out = {"taker": deal.taker, "contract": deal.contract.value}
        if deal.partner is not None:
            out["partner"] = deal.partner
        out.update({"bouts": deal.bouts, "points": points})
        if deal.petit_au_bout is not None:
            out["petit_au_bout"] = deal.petit_au_bout.value
        if deal.poignees:
            out["poignees"] = list(deal.poignees)
        if deal.chelem is not Chelem.NONE:
            out["chelem"] = deal.chelem.value
    if deal.dealer is not None:
        out["dealer"] = deal.dealer
    return out
