"""A table's statistics (issue 17, item 4): derived from its games' records, every time.

Nothing is stored but what players entered: the games' records and who each seat
was (a table's people). From them: per person, games, wins and win rate, the money
won or lost and how it went game after game; per game type the figures that game
declares (`Game.figures`, counted by `Game.tally`: bids taken and made, failed
bids, places, the game's feats); and head to head,
how often one person finished ahead of another.

"Finished ahead" is read on finished games only: a winner is ahead of everyone who
did not win; between two who did not (or both did, as partners may), the better
total (the lower in a game where the lowest wins) is ahead; partners are never
ahead of each other, and equal totals are a tie.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from referee.engine.evening import Sitting
from referee.engine.game import Figure, Record, Standings, Tally, alone
from referee.engine.settlement import Money, Transfer
from referee.games import GAMES


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a table's statistics keep of one game's standings, seat by seat: whether
    it is finished, who won, the totals, the money, and the game's tally. Small,
    and written as plain JSON (`dump` / `load`), so that a table of 500 games need
    not replay 15,000 deals to show its statistics (see `services.tables`)."""

    game: str
    finished: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    money: Money | None
    tally: Tally
    #: How many deals were played.
    deals: int = 0
    #: The lowest total leads, and who scored together, under the game's house rules
    #: (`Game.lowest_wins_under`, `Game.sides_under`); empty sides: each alone.
    lowest_wins: bool = False
    sides: tuple[tuple[int, ...], ...] = ()
    #: What the table called the game (`Game.title_under`: "Rami", where a game
    #: takes any name; "": its own name). Games of one kind and title count together.
    title: str = ""

    def dump(self) -> dict[str, Any]:
        money = None
        if self.money is not None:
            money = {
                "stake": str(self.money.stake),
                "net": [str(n) for n in self.money.net],
                "transfers": [[t.payer, t.payee, str(t.amount)] for t in self.money.transfers],
            }
        return {
            "game": self.game,
            "finished": self.finished,
            "winners": list(self.winners),
            "scores": list(self.scores),
            "money": money,
            "tally": {key: list(counts) for key, counts in self.tally.items()},
            "deals": self.deals,
            "lowest_wins": self.lowest_wins,
            "sides": [list(side) for side in self.sides],
            "title": self.title,
        }

    @classmethod
    def load(cls, data: dict[str, Any]) -> Outcome:
        raw = data["money"]
        money = None
        if raw is not None:
            money = Money(
                Decimal(raw["stake"]),
                tuple(Decimal(n) for n in raw["net"]),
                tuple(Transfer(a, b, Decimal(m)) for a, b, m in raw["transfers"]),
            )
        return cls(
            data["game"],
            bool(data["finished"]),
            tuple(data["winners"]),
            tuple(data["scores"]),
            money,
            {key: tuple(counts) for key, counts in data["tally"].items()},
            int(data["deals"]),
            bool(data.get("lowest_wins", False)),
            tuple(tuple(side) for side in data.get("sides", ())),
            str(data.get("title", "")),
        )


def outcome(record: Record[Any, Any], standings: Standings) -> Outcome:
    """A game's outcome, tallied by its own rules."""
    game = GAMES[record.game]
    tally = game.tally(record, standings)
    return Outcome(
        record.game,
        standings.finished,
        standings.winners,
        standings.scores,
        standings.money,
        tally,
        len(standings.deals),
        game.lowest_wins_under(record.rules),
        game.sides_under(record.rules, len(record.players)),
        game.title_under(record.rules),
    )


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """The engine's own version: a digest of its source. An outcome kept beside a
    game is used only while it is the same (a corrected rule re-scores every game)."""
    digest = hashlib.blake2b(digest_size=12)
    package = Path(__file__).parent.parent
    rules = [*(package / "engine").glob("*.py"), *(package / "games").rglob("*.py")]
    for path in sorted(rules):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class Played:
    """One game of a table as its statistics see it: the person in each seat (a
    table's names, aliases resolved), its outcome, its day and currency."""

    people: tuple[str, ...]
    outcome: Outcome
    day: datetime.date
    currency: str

    @property
    def game(self) -> str:
        return self.outcome.game

    @property
    def title(self) -> str:
        return self.outcome.title

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who scores together, seat by seat (an outcome kept before it said so: each
        alone)."""
        return self.outcome.sides or alone(len(self.people))

    @property
    def tally(self) -> Tally:
        return self.outcome.tally

    @property
    def sitting(self) -> Sitting:
        """The game as an evening's settlement sees it."""
        return Sitting(self.people, self.outcome.money, self.currency)


def played(
    record: Record[Any, Any],
    standings: Standings,
    people: Sequence[str],
    day: datetime.date,
    currency: str,
) -> Played:
    """A game of a table, tallied by its own rules."""
    return seated(outcome(record, standings), people, day, currency)


def seated(game: Outcome, people: Sequence[str], day: datetime.date, currency: str) -> Played:
    """A game's outcome with the person in each seat."""
    if len(people) != len(game.scores):
        raise ValueError(f"{len(people)} people for {len(game.scores)} seats")
    return Played(tuple(people), game, day, currency)


@dataclass(frozen=True, slots=True)
class PersonLine:
    """One person's record at the table."""

    person: str
    games: int
    finished: int
    wins: int
    #: Net money per currency (positive: won), in the order the currencies appear.
    money: tuple[tuple[str, Decimal], ...]

    @property
    def win_rate(self) -> Fraction | None:
        """Wins over finished games (None before any finished game)."""
        return Fraction(self.wins, self.finished) if self.finished else None


@dataclass(frozen=True, slots=True)
class MoneyTrend:
    """How each person's money went in one currency, after each game played for it:
    `series[i][g]` is person i's total after the g-th such game (0 if he sat out)."""

    currency: str
    people: tuple[str, ...]
    days: tuple[datetime.date, ...]
    series: tuple[tuple[Decimal, ...], ...]


@dataclass(frozen=True, slots=True)
class FigureRow:
    """One person's figures in one game type: a count (int) or an average
    (Fraction; None when there was nothing to average)."""

    person: str
    games: int
    values: tuple[int | Fraction | None, ...]


@dataclass(frozen=True, slots=True)
class GameFigures:
    """The figures of one game type, person by person (people who played it)."""

    game: str
    games: int
    figures: tuple[Figure, ...]
    rows: tuple[FigureRow, ...]
    #: What the table called these games ("Rami"); "": the game's own name.
    title: str = ""


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """`person` against `other`: finished games both played on different sides,
    how often `person` finished ahead, and how often behind (the rest: ties)."""

    person: str
    other: str
    together: int
    ahead: int
    behind: int


@dataclass(frozen=True, slots=True)
class Statistics:
    """Everything a table's statistics page shows."""

    games: int
    people: tuple[PersonLine, ...]
    money: tuple[MoneyTrend, ...]
    figures: tuple[GameFigures, ...]
    head_to_head: tuple[HeadToHead, ...]

    def against(self, person: str, other: str) -> HeadToHead | None:
        for line in self.head_to_head:
            if line.person == person and line.other == other:
                return line
        return None


def _standing_key(game: Played, seat: int) -> tuple[bool, int]:
    score = game.outcome.scores[seat]
    return (seat in game.outcome.winners, -score if game.outcome.lowest_wins else score)


def statistics(games: Sequence[Played]) -> Statistics:
    """The statistics of these games (in the order they were played); a game with no
    deal (started by mistake, or not yet) was not played, and counts for nothing."""
    games = [game for game in games if game.outcome.deals]
    people: list[str] = []
    for game in games:
        people.extend(p for p in game.people if p not in people)
    index = {person: i for i, person in enumerate(people)}
    count = [0] * len(people)
    finished = [0] * len(people)
    wins = [0] * len(people)
    money: dict[str, list[Decimal]] = {}
    trend_days: dict[str, list[datetime.date]] = {}
    trend: dict[str, list[list[Decimal]]] = {}
    pairs: dict[tuple[int, int], list[int]] = {}  # (a, b) -> [together, a ahead, b ahead]
    for game in games:
        sides = game.sides
        side_of = {seat: n for n, side in enumerate(sides) for seat in side}
        for seat, person in enumerate(game.people):
            i = index[person]
            count[i] += 1
            if game.outcome.finished:
                finished[i] += 1
                wins[i] += seat in game.outcome.winners
        if game.outcome.money is not None:
            nets = money.setdefault(game.currency, [Decimal(0)] * len(people))
            for seat, person in enumerate(game.people):
                nets[index[person]] += game.outcome.money.net[seat]
            trend_days.setdefault(game.currency, []).append(game.day)
            trend.setdefault(game.currency, []).append(list(nets))
        if not game.outcome.finished:
            continue
        for a, first in enumerate(game.people):
            for b, second in enumerate(game.people):
                if a >= b or side_of[a] == side_of[b]:
                    continue
                i, j = index[first], index[second]
                mine = _standing_key(game, a)
                theirs = _standing_key(game, b)
                if i > j:
                    i, j, mine, theirs = j, i, theirs, mine
                key = (i, j)
                tally = pairs.setdefault(key, [0, 0, 0])
                tally[0] += 1
                tally[1] += mine > theirs
                tally[2] += theirs > mine
    lines = tuple(
        PersonLine(
            person,
            count[i],
            finished[i],
            wins[i],
            tuple((currency, nets[i]) for currency, nets in money.items()),
        )
        for i, person in enumerate(people)
    )
    trends = tuple(
        MoneyTrend(
            currency,
            tuple(people),
            tuple(trend_days[currency]),
            tuple(tuple(after[i] for after in rows) for i in range(len(people))),
        )
        for currency, rows in trend.items()
    )
    h2h: list[HeadToHead] = []
    for (a, b), (together, ahead, behind) in sorted(pairs.items()):
        h2h.append(HeadToHead(people[a], people[b], together, ahead, behind))
        h2h.append(HeadToHead(people[b], people[a], together, behind, ahead))
    return Statistics(len(games), lines, trends, _figures(games), tuple(h2h))


def _figures(games: Sequence[Played]) -> tuple[GameFigures, ...]:
    """Per game type and title (in the order first played: two games played as
    the same kind but named apart, "rami" and "Rami" together), each person's
    sums of the tally."""
    kinds: dict[tuple[str, str], str] = {}
    for game in games:
        kinds.setdefault((game.game, game.title.casefold()), game.title)
    out = []
    for (kind, folded), title in kinds.items():
        declared = GAMES[kind].figures
        of_kind = [g for g in games if g.game == kind and g.title.casefold() == folded]
        sums: dict[str, dict[str, int]] = {}
        played_by: dict[str, int] = {}
        for game in of_kind:
            for seat, person in enumerate(game.people):
                played_by[person] = played_by.get(person, 0) + 1
                mine = sums.setdefault(person, {})
                for key, counts in game.tally.items():
                    mine[key] = mine.get(key, 0) + counts[seat]
        rows = []
        for person, total in sums.items():
            values: list[int | Fraction | None] = []
            for figure in declared:
                if figure.per is None:
                    values.append(total.get(figure.key, 0))
                else:
                    over = total.get(figure.per, 0)
                    values.append(Fraction(total.get(figure.key, 0), over) if over else None)
            rows.append(FigureRow(person, played_by[person], tuple(values)))
        out.append(GameFigures(kind, len(of_kind), declared, tuple(rows), title))
    return tuple(out)
