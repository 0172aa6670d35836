"""The prizes of a concours: the pot, and its split by place.

Pure Python (standard library only). The director states the rule before the
event: the share of the entry fees the club keeps, and the split by place, either
as percentages of the pot or as fixed sums. Everything is counted in cents, whole
numbers, so that nothing is lost or created by rounding:

- the pot is the fees (entry fee × players checked in) minus the kept share, the
  kept share rounded to the nearest cent (half up);
- percentages give each place its exact share of the pot, rounded down to the
  cent, then the cents left over go one each to the places whose share was cut the
  most (the earlier place first where two were cut alike): the places add up to
  the pot exactly;
- players who share a place (the same rank) share the prizes of the places they
  cover equally; the cents that do not divide go one each to the first of them in
  the ranking's order (the ranking is published before the prizes are paid).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Final

from referee.engine.errors import RulesError, problem

#: The most places a split may name.
MAX_PLACES: Final = 50
#: A number as the form or the file may give it: ASCII digits, a decimal point.
_PLAIN: Final = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?")
#: The largest sum in a split or a pot (cents are whole numbers far below it).
MAX_AMOUNT: Final = Decimal("1000000")


class Split(StrEnum):
    """How the split is stated."""

    PERCENT = "percent"
    AMOUNT = "amount"


@dataclass(frozen=True)
class Prizes:
    """The prize rule stated before the event."""

    #: The split by place, first place first: percentages of the pot (adding up to
    #: 100) or fixed sums (in the event's currency).
    split: tuple[Decimal, ...]
    by: Split = Split.PERCENT
    #: The share of the entry fees the club keeps, in percent (0 to 100).
    kept: Decimal = Decimal(0)


@dataclass(frozen=True)
class Pot:
    """The money of a concours, in cents."""

    fees: int
    kept: int

    @property
    def pot(self) -> int:
        return self.fees - self.kept


def cents(amount: Decimal) -> int:
    """An amount of money as whole cents (two decimals at most, checked before)."""
    return int((amount * 100).to_integral_value(rounding=ROUND_HALF_UP))


def amount_text(cents: int) -> str:
    """Cents as the event file writes an amount ("81.00")."""
    return f"{cents // 100}.{cents % 100:02d}"


def pot_of(fee: Decimal | None, players: int, prizes: Prizes | None) -> Pot:
    """The fees collected and the share kept (the kept percentage of the fees,
    rounded to the nearest cent, half up)."""
    fees = cents(fee) * players if fee is not None else 0
    kept_share = prizes.kept if prizes is not None else Decimal(0)
    kept = int((Fraction(fees) * Fraction(kept_share) / 100 + Fraction(1, 2)) // 1)
    return Pot(fees, min(kept, fees))


def by_place(prizes: Prizes, pot: int) -> tuple[int, ...]:
    """Each place's prize in cents, first place first: fixed sums as stated, or the
    places' percentages of `pot`, adding up to it to the cent (largest remainders)."""
    if prizes.by is Split.AMOUNT:
        return tuple(cents(amount) for amount in prizes.split)
    exact = [Fraction(pot) * Fraction(share) / 100 for share in prizes.split]
    floors = [int(value // 1) for value in exact]
    # The cents the rounding down left, one each to the largest remainders.
    left = int(sum(exact) // 1) - sum(floors)
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    for i in order[:left]:
        floors[i] += 1
    return tuple(floors)


def share_out(places: Sequence[int], ranks: Sequence[int]) -> tuple[int, ...]:
    """Each ranking line's prize in cents, from the places' prizes and the lines'
    ranks in ranking order (lines of one rank share a place): the lines of a shared
    place share the prizes of the places they cover, equally to the cent, the first
    lines taking the cents left over. The total is the places' total, to the cent
    (as long as the lines are at least as many as the places paid)."""
    got = [0] * len(ranks)
    start = 0
    while start < len(ranks):
        end = start
        while end < len(ranks) and ranks[end] == ranks[start]:
            end += 1
        total = sum(places[start:end])
        share, extra = divmod(total, end - start)
        for i in range(start, end):
            got[i] = share + (1 if i - start < extra else 0)
        start = end
    return tuple(got)


def _number(raw: object, field: str, high: Decimal) -> Decimal:
    """A number from 0 to `high` of at most two decimals, from text or a number;
    refused with the field blamed."""
    text = str(raw).strip().replace(",", ".")
    # Digits as written everywhere (no exponent, no underscores, no other scripts'
    # digits, which Decimal would take).
    value = Decimal(text) if _PLAIN.fullmatch(text) else Decimal("NaN")
    if isinstance(raw, bool) or not value.is_finite() or not 0 <= value <= high:
        raise RulesError([problem("prize_number", field, value=raw, high=f"{high:f}")])
    if value != value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP):
        raise RulesError([problem("prize_decimals", field, value=raw)])
    return value


def parse(raw: object, field: str = "prizes") -> Prizes | None:
    """The prize rule from a mapping such as the event file's (`split`, `by`,
    `kept`), or None for none; refused with the field blamed."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise RulesError([problem("not_object", field)])
    unknown = sorted(set(raw) - {"split", "by", "kept"})
    if unknown:
        raise RulesError([problem("unknown_field", f"{field}.{unknown[0]}", value=unknown[0])])
    by_raw = raw.get("by", Split.PERCENT.value)
    if by_raw not in {s.value for s in Split}:
        choices = tuple(s.value for s in Split)
        raise RulesError([problem("unknown_choice", f"{field}.by", value=by_raw, choices=choices)])
    by = Split(by_raw)
    split_raw = raw.get("split", [])
    if not isinstance(split_raw, list) or not 1 <= len(split_raw) <= MAX_PLACES:
        raise RulesError([problem("prize_places", f"{field}.split", high=MAX_PLACES)])
    high = Decimal(100) if by is Split.PERCENT else MAX_AMOUNT
    split = tuple(_number(value, f"{field}.split[{i}]", high) for i, value in enumerate(split_raw))
    kept = _number(raw.get("kept", 0), f"{field}.kept", Decimal(100))
    return checked(Prizes(split, by, kept), field)


def checked(prizes: Prizes, field: str = "prizes") -> Prizes:
    """`prizes`, if its percentages add up to 100 (the whole pot is given out);
    else refused, with their total said."""
    if prizes.by is Split.PERCENT and sum(prizes.split) != 100:
        total = f"{sum(prizes.split, Decimal(0)).normalize():f}"
        raise RulesError([problem("prize_total", f"{field}.split", total=total)])
    return prizes


def as_json(prizes: Prizes) -> dict[str, object]:
    """The prize rule as the event file writes it (amounts as text, like the fee)."""
    return {
        "split": [f"{value.normalize():f}" for value in prizes.split],
        "by": prizes.by.value,
        "kept": f"{prizes.kept.normalize():f}",
    }
