"""The evening: one settlement for the games of one sitting (issue 17, item 2).

A table plays several games in an evening, of any type, and settles once. Each
game's money (`Standings.money`, by the game or by the point) says what each seat
wins or loses; the evening adds them up per person (the table says who sat where,
under one name per person) and finds the fewest transfers that settle the total.
Money of different currencies is never added: each currency settles on its own.
Like the games' own money it is derived, never stored: the same games give the
same settlement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from referee.engine.settlement import Money, Transfer, fewest_transfers


@dataclass(frozen=True, slots=True)
class Sitting:
    """One game of the evening as its money sees it: the person in each seat (in
    seat order), the game's money (None: played without a stake) and its currency."""

    people: tuple[str, ...]
    money: Money | None
    currency: str


@dataclass(frozen=True, slots=True)
class Settlement:
    """The evening's money in one currency: each person's net over the evening's
    games (positive: receives), and the fewest transfers that settle it. Transfers
    name people by their index in `people`."""

    currency: str
    people: tuple[str, ...]
    net: tuple[Decimal, ...]
    transfers: tuple[Transfer, ...]

    def net_of(self, person: str) -> Decimal:
        return self.net[self.people.index(person)]


def settle_evening(games: Sequence[Sitting]) -> tuple[Settlement, ...]:
    """One settlement per currency played for, in the order the currencies first
    appear; people in the order they first sat down with money in that currency.
    Games without a stake count for nothing."""
    totals: dict[str, dict[str, Decimal]] = {}
    for game in games:
        if game.money is None:
            continue
        if len(game.money.net) != len(game.people):
            raise ValueError(f"{len(game.people)} people for {len(game.money.net)} seats")
        nets = totals.setdefault(game.currency, {})
        for person, amount in zip(game.people, game.money.net, strict=True):
            nets[person] = nets.get(person, Decimal(0)) + amount
    settlements = []
    for currency, nets in totals.items():
        people = tuple(nets)
        net = tuple(nets[p] for p in people)
        settlements.append(Settlement(currency, people, net, fewest_transfers(net)))
    return tuple(settlements)
