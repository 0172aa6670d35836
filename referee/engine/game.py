"""What every game shares: the parsed record, the standings, and the `Game` protocol.

A game is a pure function of its record: `score(record) -> Standings`. Nothing is
stored but what players entered, so undo is dropping the last deal and a corrected
rule re-scores every old game.
"""

from __future__ import annotations

import datetime
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from enum import Enum, StrEnum
from typing import Generic, TypeVar

from referee.engine.errors import Problem, problem
from referee.engine.explain import Step
from referee.engine.flags import Flag, parse_flags
from referee.engine.settlement import Money, StakePer
from referee.engine.words import Words

R = TypeVar("R")
D = TypeVar("D")


@dataclass(frozen=True, slots=True)
class Record(Generic[R, D]):
    """A parsed game record (`referee-game/1`): who played, under which rules, what was dealt."""

    game: str
    players: tuple[str, ...]
    first_dealer: int
    rules: R
    stake: Decimal | None
    deals: tuple[D, ...]
    #: What the score sheet prints beside the game: the stake's ISO 4217 code, where
    #: and on which day it was played (all optional in the record).
    currency: str | None = None
    place: str | None = None
    date: datetime.date | None = None
    #: What the stake is paid for: by each game's rulings, or by the point.
    stake_per: StakePer = StakePer.GAME


class MarkKind(StrEnum):
    """The marks every game may put on a deal; a game adds its own kinds (a
    `StrEnum` of its package), with their words in its `Words.marks`."""

    WIN = "win"  # the deal that ended the game


@dataclass(frozen=True, slots=True)
class Mark:
    """A mark on a deal, for one seat (or the whole table when `seat` is None)."""

    #: A `MarkKind` or one of the game's own kinds (its `Words.marks` name it).
    kind: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class BidOutcome:
    """What a bid would give its taker now, from the players' current scores (issue
    18, item 2): made and failed, the stakes it moves, who would win by making it."""

    #: The bid as the record writes it ("4", or a bid's word).
    bid: str
    #: The taker's (his side's) change when made: at least this (`more`: the tricks
    #: or points taken beyond the bid count too). None: it depends on the score
    #: (a bid that sets the scores: `reaches`).
    made: int | None
    more: bool
    #: The change when failed; None: the game is lost.
    failed: int | None
    #: Failed, the tricks taken are kept on top (a house rule).
    plus_taken: bool = False
    #: Stakes each other player pays the taker when made, and he pays each when failed.
    stakes: int = 0
    #: Where the bid takes each seat's score when made (None: it adds, as most do).
    reaches: tuple[int, ...] | None = None
    #: The seats that, bidding it and making it, would win the game now.
    wins: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one deal did: each seat's change of score, who dealt, and its marks."""

    deltas: tuple[int, ...]
    dealer: int
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True, slots=True)
class Standings:
    """The state of a game after its recorded deals, derived from the record alone."""

    game: str
    finished: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    deals: tuple[DealResult, ...]
    next_dealer: int | None
    money: Money | None = None
    #: The game's own figures of the standings, by the names a scored record gives
    #: them (`referee score`): counts per seat, the round being played, what is left
    #: in it. Shared code copies them; the game's home shows them.
    extras: Mapping[str, object] = field(default_factory=dict)


class Game(ABC, Generic[R, D]):
    """A game's rules: how to read and write its record, and how to score it.

    Besides the rules, a game states the facts the table sees: who plays together
    (`sides`), whether the lowest total leads, how long a full game is and whether
    its deals come in rounds. Code outside the game asks these; it never tests a
    game's name. A game states only what differs from the defaults below (each
    player alone, the deal passing to the left, no bids, no contracts to choose
    among, the highest total leading); what has no default is abstract: reading,
    writing and scoring a deal, and explaining it.
    """

    key: str
    player_counts: tuple[int, ...]
    #: The house rules, declared once (`referee.engine.flags`), and the rules a
    #: record with no flags plays by.
    flags: tuple[Flag, ...] = ()
    default_rules: R
    #: Bad points: the lowest total leads, whatever the house rules.
    lowest_wins: bool = False
    #: Its stakes by the game are `settlement.winners_collect`'s: each player who did
    #: not win pays each winner one stake (the money's notes say so beside it).
    stakes_to_winners: bool = False
    #: Deals in a full game when it has a fixed length (24 deals), else None.
    length: int | None = None
    #: Deals in a round, each round with one dealer (the game's word for it is its own), else None.
    round_deals: int | None = None
    #: The figures of `tally`, in the order a statistics page shows them.
    figures: tuple[Figure, ...] = ()
    #: What players read of the game (`referee.engine.words`).
    words: Words = Words()

    def lowest_wins_under(self, rules: R) -> bool:
        """Whether the lowest total leads under these house rules (a game where the
        table chooses says so here; the others by `lowest_wins`)."""
        del rules
        return self.lowest_wins

    def title_under(self, rules: R) -> str:
        """What the table called the game under these house rules (a game that
        takes any name: "Rami"), kept apart in its statistics; "": its own name."""
        del rules
        return ""

    def balanced_under(self, rules: R) -> bool:
        """Whether every deal adds up to zero, so that a total is what a player won
        from the others (stakes by the point then pay each his score: `settlement.
        money_of`); by default a game's points are not."""
        del rules
        return False

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Who scores together, seat by seat: teams, or each player alone."""
        return alone(players)

    def sides_under(self, rules: R, players: int) -> tuple[tuple[int, ...], ...]:
        """Who scores together under these house rules (a game whose teams are a
        house rule says so here; the others by `sides`)."""
        del rules
        return self.sides(players)

    def contracts_for(self, record: Record[R, D], number: int) -> tuple[str, ...]:
        """The contracts deal `number` (from 1; one past the last: the next deal) may
        be, where a deal's contract is chosen among a set; else empty."""
        del record, number
        return ()

    def dealer_of(self, first_dealer: int, number: int, players: int) -> int:
        """Who deals deal `number` (from 1), by the rotation alone, even past the end
        of a game (a next game at the same table starts with the one after): the
        deal passes to the left, one seat a deal, unless the game says otherwise."""
        return to_the_left(first_dealer, number, players)

    def parse_rules(self, raw: Mapping[str, object]) -> R:
        """Read the house-rule flags (missing ones take their defaults)."""
        return parse_flags(self.flags, self.default_rules, raw)

    def dump_rules(self, rules: R) -> dict[str, object]:
        """Write every flag, defaults included, so a record states its rules in full."""
        return dump_flags(rules)

    @abstractmethod
    def parse_deal(self, raw: object, players: tuple[str, ...], rules: R) -> D:
        """Read one deal as entered; raise `RulesError` for what no deal could be.

        `players` are the names in seat order, so that messages can name a player;
        `rules` are the game's flags (a variant may change what a deal holds).
        """

    @abstractmethod
    def dump_deal(self, deal: D) -> dict[str, object]:
        """Write one deal back as the record format has it."""

    @abstractmethod
    def score(self, record: Record[R, D]) -> Standings:
        """Play the deals in order; raise `RulesError` for the first impossible one."""

    def bids_now(self, record: Record[R, D], standings: Standings) -> tuple[BidOutcome, ...]:
        """What each bid would give, from the current scores (empty: no bids)."""
        del record, standings
        return ()

    def tally(self, record: Record[R, D], standings: Standings) -> Tally:
        """The game's telling figures, one count per seat (bids taken, failed
        bids, feats…), under the keys the game declares in `figures`: what a
        table's statistics add up person by person."""
        del record, standings
        return {}

    @abstractmethod
    def explain_deal(
        self, record: Record[R, D], standings: Standings, number: int
    ) -> tuple[Step, ...]:
        """Why deal `number` (from 1) scored what it did: its steps
        (`referee.engine.explain`), whose deltas add up to the deal's, from the deal
        as entered, its result and the scores before it, never a later deal (a page
        that draws one new row of its history explains one deal: issue 19). The
        whole game's: `explain`."""


#: Counts per seat, by figure (`Game.tally`).
Tally = dict[str, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class Figure:
    """One of a game's telling figures: a count (`bids`, `made`), or, when `per`
    names another count, an average (points of a contract per deal of it)."""

    key: str
    per: str | None = None


def explain(
    game: Game[R, D], record: Record[R, D], standings: Standings
) -> tuple[tuple[Step, ...], ...]:
    """Why each deal of the game scored what it did, deal by deal (`explain_deal`)."""
    return tuple(
        game.explain_deal(record, standings, number) for number in range(1, len(record.deals) + 1)
    )


def totals_before(standings: Standings, number: int, players: int) -> list[int]:
    """Each seat's total before deal `number` (from 1)."""
    totals = [0] * players
    for deal in standings.deals[: number - 1]:
        totals = [t + d for t, d in zip(totals, deal.deltas, strict=True)]
    return totals


def mark_counts(standings: Standings, kind: str, players: int) -> tuple[int, ...]:
    """How many deals bear this mark, seat by seat."""
    counts = [0] * players
    for deal in standings.deals:
        for mark in deal.marks:
            if mark.kind is kind and mark.seat is not None:
                counts[mark.seat] += 1
    return tuple(counts)


def seat_counts(seats: Sequence[int | None], players: int) -> tuple[int, ...]:
    """How many times each seat appears in `seats` (None: nobody)."""
    counts = [0] * players
    for seat in seats:
        if seat is not None:
            counts[seat] += 1
    return tuple(counts)


def to_the_left(first_dealer: int, number: int, players: int) -> int:
    """Who deals deal `number` (from 1) when the deal passes to the left, one seat a
    deal: a `Game.dealer_of` for the games that rotate so."""
    return (first_dealer + number - 1) % players


def alone(players: int) -> tuple[tuple[int, ...], ...]:
    """Sides of a game where everyone plays for himself."""
    return tuple((seat,) for seat in range(players))


def dealer_problems(stated: int | None, dealer: int, players: Sequence[str]) -> list[Problem]:
    """A deal may state its dealer; it must then be the one the rules expect."""
    if stated is None or stated == dealer:
        return []
    given = players[stated] if 0 <= stated < len(players) else str(stated)
    return [problem("dealer_wrong", "dealer", given=given, name=players[dealer])]


def dump_flags(rules: object) -> dict[str, object]:
    """Every house-rule flag of a game's `Rules` dataclass, as the record writes it."""
    out: dict[str, object] = {}
    for flag in fields(rules):  # type: ignore[arg-type]
        value = getattr(rules, flag.name)
        out[flag.name] = value.value if isinstance(value, Enum) else value
    return out


def with_flags(default: R, given: Mapping[str, object]) -> R:
    """The default rules with the flags a record gave (None: not given) put in."""
    return replace(default, **{k: v for k, v in given.items() if v is not None})  # type: ignore[type-var]
