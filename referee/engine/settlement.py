"""Money: exact net balances from stake payments, and the fewest transfers that settle them.

Amounts are `Decimal` throughout (never floats). Payments are counted in stakes
and multiplied by the stake once, so every balance is exact and the balances of a
table always sum to zero.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum


class StakePer(StrEnum):
    """What a stake is paid for (the record's `stake_per`)."""

    #: The stakes of each game's rulings: the winner collects, a failed bid pays…
    GAME = "game"
    #: Every pair of players settles the difference of their scores times the stake;
    #: in a zero-sum game, each player's score is what he wins or loses (`by_own_score`).
    POINT = "point"


@dataclass(frozen=True, slots=True)
class Payment:
    """`payer` owes `payee` this many stakes."""

    payer: int
    payee: int
    stakes: int


@dataclass(frozen=True, slots=True)
class Transfer:
    """`payer` hands `payee` this amount of money."""

    payer: int
    payee: int
    amount: Decimal


@dataclass(frozen=True, slots=True)
class Money:
    """The money of a game: each seat's net balance and the transfers that settle it."""

    stake: Decimal
    net: tuple[Decimal, ...]
    transfers: tuple[Transfer, ...]


def net_balances(players: int, payments: Iterable[Payment], stake: Decimal) -> tuple[Decimal, ...]:
    """Sum payments into one net balance per seat (positive: receives)."""
    units = [0] * players
    for p in payments:
        units[p.payer] -= p.stakes
        units[p.payee] += p.stakes
    return tuple(stake * u for u in units)


def winners_collect(players: int, winners: Iterable[int]) -> list[Payment]:
    """Each player who did not win pays each winner one stake (most games' stakes)."""
    won = set(winners)
    return [
        Payment(seat, winner, 1)
        for winner in sorted(won)
        for seat in range(players)
        if seat not in won
    ]


def by_points(scores: Sequence[int], lowest_wins: bool) -> list[Payment]:
    """Stakes by the point (docs/RECORD-FORMAT.md, `stake_per: "point"`): every pair of
    players settles the difference of their scores, the one behind paying the one
    ahead; where the lowest total wins the sign turns. A seat's net is then
    the stake times the sum of its differences with every other seat: zero-sum, and
    exact, since whole points are counted before the stake multiplies them. Team
    mates have the same score and settle nothing between them."""
    sign = -1 if lowest_wins else 1
    payments = []
    for a in range(len(scores)):
        for b in range(a + 1, len(scores)):
            ahead = sign * (scores[a] - scores[b])
            if ahead > 0:
                payments.append(Payment(b, a, ahead))
            elif ahead < 0:
                payments.append(Payment(a, b, -ahead))
    return payments


def by_own_score(scores: Sequence[int], lowest_wins: bool) -> tuple[int, ...]:
    """Stakes by the point in a zero-sum game (docs/RULES.md, "Stakes", Referee's
    ruling): each player's total is already what he won or lost from the others, so
    his net is his score (in stakes; the sign turned where the lowest total wins).
    Settling every pair's difference would pay each player n times his score, a
    table of five five times what it plays for."""
    if sum(scores):
        raise ValueError(f"scores do not sum to zero: {list(scores)}")
    sign = -1 if lowest_wins else 1
    return tuple(sign * score for score in scores)


def money_of(
    stake: Decimal | None,
    per: StakePer,
    scores: Sequence[int],
    by_game: Iterable[Payment],
    lowest_wins: bool,
    balanced: bool = False,
) -> Money | None:
    """The money of a game: none without a stake; else its payments by the game's
    rulings (`by_game`) or by the point, as the record says: where every deal is
    `balanced` (adds up to zero) each player's score times the stake, in any other
    game each pair's difference."""
    if stake is None:
        return None
    if per is StakePer.POINT and balanced:
        net = tuple(stake * units for units in by_own_score(scores, lowest_wins))
        return Money(stake, net, fewest_transfers(net))
    payments = by_points(scores, lowest_wins) if per is StakePer.POINT else by_game
    return settle(len(scores), payments, stake)


def settle(players: int, payments: Iterable[Payment], stake: Decimal) -> Money:
    """Net the payments and find the fewest transfers that settle them."""
    net = net_balances(players, payments, stake)
    return Money(stake, net, fewest_transfers(net))


#: Up to this many non-zero balances the transfers found are the fewest (an exact
#: search over subsets, 4,096 of them at most).
EXACT_UP_TO = 12


def fewest_transfers(net: Sequence[Decimal]) -> tuple[Transfer, ...]:
    """Return a shortest list of transfers that brings every balance to zero.

    Seats split into as many groups summing to zero as possible; a group of k seats
    settles in k - 1 transfers, so more groups mean fewer transfers. The split is
    found exactly by a search over subsets: 2**n of them, and a table has 4 or 5
    players.
    """
    if sum(net, Decimal(0)) != 0:
        raise ValueError(f"balances do not sum to zero: {list(net)}")
    seats = [i for i, amount in enumerate(net) if amount != 0]
    # The exact search costs 2**n; past EXACT_UP_TO balances (an evening of many
    # tables, never one game) everyone settles as one group: n - 1 transfers.
    groups = _zero_sum_groups(seats, net) if len(seats) <= EXACT_UP_TO else [seats]
    transfers: list[Transfer] = []
    for group in groups:
        transfers.extend(_settle_group(group, net))
    return tuple(transfers)


def _zero_sum_groups(seats: list[int], net: Sequence[Decimal]) -> list[list[int]]:
    """Partition `seats` into the most subsets that each sum to zero."""
    n = len(seats)
    full = (1 << n) - 1
    total = [Decimal(0)] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + net[seats[low]]
    # best[mask]: most zero-sum blocks when the seats of `mask` are settled in
    # some order, a block closing each time the running sum returns to zero.
    best = [0] * (1 << n)
    last = [0] * (1 << n)
    for mask in range(1, 1 << n):
        choice = max(
            (i for i in range(n) if mask >> i & 1),
            key=lambda i: (best[mask & ~(1 << i)], -i),
        )
        last[mask] = choice
        best[mask] = best[mask & ~(1 << choice)] + (1 if total[mask] == 0 else 0)
    order: list[int] = []
    mask = full
    while mask:
        order.append(last[mask])
        mask &= ~(1 << last[mask])
    order.reverse()
    groups: list[list[int]] = []
    current: list[int] = []
    running = Decimal(0)
    for i in order:
        current.append(seats[i])
        running += net[seats[i]]
        if running == 0:
            groups.append(sorted(current))
            current = []
    return groups


def _settle_group(group: list[int], net: Sequence[Decimal]) -> list[Transfer]:
    """Settle a zero-sum group in at most len(group) - 1 transfers (largest debts first)."""
    debtors = sorted((seat for seat in group if net[seat] < 0), key=lambda s: (net[s], s))
    creditors = sorted((seat for seat in group if net[seat] > 0), key=lambda s: (-net[s], s))
    owed = {seat: -net[seat] for seat in debtors}
    due = {seat: net[seat] for seat in creditors}
    transfers: list[Transfer] = []
    d = c = 0
    while d < len(debtors) and c < len(creditors):
        payer, payee = debtors[d], creditors[c]
        amount = min(owed[payer], due[payee])
        transfers.append(Transfer(payer, payee, amount))
        owed[payer] -= amount
        due[payee] -= amount
        if owed[payer] == 0:
            d += 1
        if due[payee] == 0:
            c += 1
    return transfers
