"""One-round auctions, as bidding games have them: calls from the dealer's left to the dealer.

A call is a bid (an int; a bid above every number is an int above them all) or None for a
pass. Each game reads and writes its own bids; this module checks what both share:
one call per player, each bid strictly above the standing one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from referee.engine.errors import Problem, problem

PASS: Final = "pass"

#: One call of an auction: a bid, or None for a pass.
Call = int | None

#: Reads one bid (value, field, problems) -> the bid, or None after a problem.
BidReader = Callable[[object, str, list[Problem]], int | None]
#: Writes one bid back as the record has it.
BidWriter = Callable[[int], int | str]


def read_auction(
    raw: object, players: int, read_bid: BidReader, dump_bid: BidWriter, problems: list[Problem]
) -> tuple[Call, ...] | None:
    """Read one round of calls, strictly rising; None after any problem."""
    if not isinstance(raw, list):
        problems.append(problem("auction_not_list", "auction", value=raw))
        return None
    if len(raw) != players:
        problems.append(problem("auction_length", "auction", count=len(raw), players=players))
        return None
    calls: list[Call] = []
    standing = 0
    found = len(problems)
    for number, value in enumerate(raw, start=1):
        if value == PASS:
            calls.append(None)
            continue
        bid = read_bid(value, f"auction[{number - 1}]", problems)
        if bid is None:
            continue
        if bid <= standing:
            problems.append(
                problem(
                    "auction_not_rising",
                    "auction",
                    call=number,
                    value=dump_bid(bid),
                    standing=dump_bid(standing),
                )
            )
        standing = max(standing, bid)
        calls.append(bid)
    return tuple(calls) if len(problems) == found else None


def dump_auction(auction: Sequence[Call], dump_bid: BidWriter) -> list[int | str]:
    """Write the calls back as the record has them."""
    return [PASS if call is None else dump_bid(call) for call in auction]


def highest_call(auction: Sequence[Call]) -> tuple[int, int] | None:
    """The winning call as (position in the auction, bid), or None if all passed."""
    best: tuple[int, int] | None = None
    for position, call in enumerate(auction):
        if call is not None and (best is None or call > best[1]):
            best = (position, call)
    return best


def caller(dealer: int, position: int, players: int) -> int:
    """The seat that made the call at `position`: the first call is the dealer's left."""
    return (dealer + 1 + position) % players
