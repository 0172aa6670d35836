"""A concours: its rules, its players, its rounds and their results, its ranking.

Pure Python (standard library only), like the games' rules. A concours stores
what happened: who checked in and when they came and went, where each sat in
each round, and each table's result (the totals of its seats when the round
stopped, or the game they come from). The ranking is derived from these, every
time, by the rule and the tie-breaks the director stated before the first round
(`Ranking`), so that a corrected result moves every rank it touches at once.

- **Rule** `score`: a player's points are the sum of their table scores (the
  card clubs' way), in the game's direction (the lowest first where the lowest
  total wins). Rule `places`: points by place at the table (`Ranking.places`,
  first place first; places shared by equal totals share their points).
- **Tie-breaks**, in the stated order: `wins` (tables won, shared firsts
  included), `score` (the sum of table scores), `opponents` (the points of the
  opponents met, added up: their strength), `best` (the best round), `lot` (a lot
  drawn from the event's seed: it separates any two players, so it comes last).
- **Byes**: a player who sits out a round (`Round.byes`) gets the bye's stated
  points (`Ranking.bye`), or the round's average when it is None. A late
  arrival's rounds played before they came, and a player's rounds missed between
  a withdrawal and its undoing, score as the club states apart (`Ranking.late`:
  nothing, the bye's points, or the round's average). A player who withdrew gets
  nothing for the rounds after, and ranks after every player still in (points
  missing would otherwise lead where the lowest total wins).
- **Fixed pairs** are ranked as pairs (players 2k−1 and 2k); everyone else one by
  one, a partner's points being their side's.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from fractions import Fraction
from typing import Final, TypeAlias

from referee.engine.catalog import N_, translate
from referee.engine.errors import Problem, RulesError, problem
from referee.events.draw import Format, Round, draw, next_round

#: A ranking figure: whole, or exact where a shared place splits its points.
Figure: TypeAlias = int | Fraction

#: What separated two neighbours of the ranking besides the tie-breaks.
POINTS: Final = "points"
#: What separates the players who withdrew from those who played to the end.
WITHDRAWN: Final = "withdrawn"
#: What separated two neighbours, as the ranking says it ("ahead on tables won").
SEPARATED: Final = {
    WITHDRAWN: N_("withdrew: ranked after those who played to the end"),
    POINTS: N_("on points"),
    "wins": N_("on tables won"),
    "score": N_("on table scores"),
    "opponents": N_("on the opponents' points"),
    "best": N_("on the best round"),
    "lot": N_("by lot"),
}
#: The tie-breaks and rules, named for the players (the event's page, `referee rank`).
NAMES: Final = {
    "wins": N_("tables won"),
    "score": N_("table scores"),
    "opponents": N_("opponents' points"),
    "best": N_("best round"),
    "lot": N_("drawn lot"),
    "rule-score": N_("the sum of the table scores"),
    "rule-places": N_("points by place at the table"),
}


class Rule(StrEnum):
    """How a table's result becomes ranking points."""

    SCORE = "score"
    PLACES = "places"


class Late(StrEnum):
    """What a player scores for a round they were not in the event for: a late
    arrival's rounds before they came, or a withdrawal's rounds before it was
    undone. A club states it apart from the byes (a bye is the draw's, a late
    arrival's missed round the player's own doing)."""

    ZERO = "zero"
    #: The bye's points (`Ranking.bye`): what a bye scores.
    BYE = "bye"
    #: The average of the round's points.
    AVERAGE = "average"


class TieBreak(StrEnum):
    WINS = "wins"
    SCORE = "score"
    OPPONENTS = "opponents"
    BEST = "best"
    LOT = "lot"


@dataclass(frozen=True)
class Ranking:
    """The ranking rule, stated before the event starts and shown to everyone."""

    rule: Rule = Rule.SCORE
    #: Points by place at the table, first place first (rule `places`); empty: one
    #: point fewer per place, the last place none.
    places: tuple[int, ...] = ()
    tie_breaks: tuple[TieBreak, ...] = (TieBreak.WINS, TieBreak.OPPONENTS, TieBreak.LOT)
    #: A bye's points; None: the average of the round's points.
    bye: int | None = 0
    #: A late arrival's missed rounds (`Late`): as a bye by default, the rule before
    #: the setting existed.
    late: Late = Late.BYE

    def place_points(self, sides: int) -> tuple[int, ...]:
        """Points by place at a table of `sides` sides."""
        if self.places:
            return (*self.places[:sides], *([0] * max(0, sides - len(self.places))))
        return tuple(range(sides - 1, -1, -1))


@dataclass(frozen=True)
class Player:
    """A player checked in: numbered from 1 in the order they came, playing from
    round `joined` to round `left` (None: to the end), but for the rounds `missed`
    (between a withdrawal and its undoing). `paid`: the director marked the entry
    fee paid (a player who never played then counts in the pot)."""

    number: int
    name: str
    joined: int = 1
    left: int | None = None
    missed: tuple[int, ...] = ()
    paid: bool = False

    def plays(self, number: int) -> bool:
        """Whether the player is in the event at round `number`."""
        return (
            self.joined <= number
            and (self.left is None or number <= self.left)
            and number not in self.missed
        )

    def absent(self, number: int) -> bool:
        """Whether round `number` is one the player missed while in the event: drawn
        before they came (a late arrival) or while withdrawn for a time (`Late`)."""
        return number < self.joined or number in self.missed


@dataclass(frozen=True)
class Table:
    """A table of a round: its players in seat order, and its result once in."""

    number: int
    seats: tuple[int, ...]
    #: Each seat's total when the round stopped; None until the result is in.
    scores: tuple[int, ...] | None = None
    #: Accepted by an opponent (or entered by the director): only accepted results rank.
    accepted: bool = False


@dataclass(frozen=True)
class Played:
    """A round as it was drawn and played."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()

    @property
    def seating(self) -> Round:
        """The round as the draw writes it."""
        return Round(tuple(t.seats for t in self.tables), self.byes)

    @property
    def complete(self) -> bool:
        """Every table's result is in and accepted."""
        return all(t.scores is not None and t.accepted for t in self.tables)


@dataclass(frozen=True)
class Concours:
    """A concours, as its director set it up and its tables played it."""

    game: str
    format: Format
    rounds: int
    seed: int
    ranking: Ranking
    players: tuple[Player, ...]
    played: tuple[Played, ...] = ()
    table_size: int = 4
    #: The game's direction: the lowest total leads (asked of the game).
    lowest_wins: bool = False
    #: The seats that score together at a table, from the game (partners facing).
    sides: tuple[tuple[int, ...], ...] = ((0,), (1,), (2,), (3,))

    def player(self, number: int) -> Player:
        for found in self.players:
            if found.number == number:
                return found
        raise KeyError(number)

    def present(self, number: int) -> tuple[int, ...]:
        """The players in the event at round `number`."""
        return tuple(p.number for p in self.players if p.plays(number))

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """Who is ranked together: pairs (2k−1, 2k) in fixed pairs, else each player."""
        numbers = [p.number for p in self.players]
        if self.format is Format.PAIRS:
            return tuple((n, n + 1) for n in numbers if n % 2 == 1 and n + 1 in numbers)
        return tuple((n,) for n in numbers)

    def name_of(self, unit: Sequence[int]) -> str:
        return " & ".join(self.player(n).name for n in unit)


def check_players(concours: Concours) -> None:
    """Refuse a list of players the draw cannot seat (at the next round)."""
    problems: list[Problem] = []
    number = len(concours.played) + 1
    present = concours.present(number)
    if len(present) < concours.table_size:
        problems.append(
            problem("concours_few", "players", count=len(present), low=concours.table_size)
        )
    if concours.format is Format.PAIRS and any(
        (n % 2 == 1) != (n + 1 in present) and n % 2 == 1 for n in present
    ):
        problems.append(problem("draw_pairs_odd", "players", value=len(present)))
    if problems:
        raise RulesError(problems)


def plan(concours: Concours) -> tuple[Round, ...]:
    """The whole draw for the players of round 1 (`draw`), relabelled to their
    numbers: followed while nobody comes or goes, so that the counts with a draw
    without repeats keep it."""
    first = concours.present(1)
    if concours.format is Format.PAIRS or not first:
        return ()
    return _plan(first, concours.rounds, concours.format, concours.table_size, concours.seed)


@functools.lru_cache(maxsize=64)
def _plan(
    first: tuple[int, ...], rounds: int, format: Format, size: int, seed: int
) -> tuple[Round, ...]:
    """`plan`, kept: an event asks for it at every round (a search of up to seconds)."""
    whole = draw(len(first), rounds, format, size, seed)
    label = dict(enumerate(first, 1))
    return tuple(
        Round(
            tuple(tuple(label[p] for p in t) for t in r.tables),
            tuple(label[p] for p in r.byes),
        )
        for r in whole.rounds
    )


def draw_next(concours: Concours) -> Round:
    """The next round's seating: the plan's while the players and the earlier rounds
    are the plan's, else drawn for who is present given every earlier round (pairs:
    by the ranking so far, Swiss)."""
    check_players(concours)
    number = len(concours.played) + 1
    present = concours.present(number)
    earlier = [p.seating for p in concours.played]
    planned = plan(concours) if set(present) == set(concours.present(1)) else ()
    if number <= len(planned) and all(
        _same(e, p) for e, p in zip(earlier, planned[: len(earlier)], strict=True)
    ):
        return planned[number - 1]
    order = None
    if concours.format is Format.PAIRS:
        order = [line.players[0] for line in rank(concours)]
    return next_round(
        present, earlier, concours.format, concours.table_size, concours.seed, ranking=order
    )


def _same(a: Round, b: Round) -> bool:
    return {frozenset(t) for t in a.tables} == {frozenset(t) for t in b.tables}


@dataclass(frozen=True)
class Line:
    """A line of the ranking."""

    rank: int
    players: tuple[int, ...]
    name: str
    points: Figure
    #: Each tie-break's value, by tie-break.
    values: Mapping[TieBreak, Figure]
    #: Points per round: None where the player was not in the event.
    rounds: tuple[Figure | None, ...]
    #: What put this line below the one above: POINTS, a tie-break, or None (the
    #: first line, or level with the line above: the same rank).
    separated_by: str | None
    withdrawn: bool = False
    #: Rounds the player sat out with a bye.
    byes: tuple[int, ...] = field(default_factory=tuple)
    #: Rounds the player missed, being late or away for a time (scored by `Late`).
    late: tuple[int, ...] = field(default_factory=tuple)


def exact(numerator: int, denominator: int) -> Figure:
    """A quotient, whole where it is (most are: whole numbers add up fast)."""
    whole, rest = divmod(numerator, denominator)
    return whole if rest == 0 else Fraction(numerator, denominator)


def rank(concours: Concours) -> tuple[Line, ...]:
    """The ranking from the accepted results (provisional while rounds remain)."""
    units = concours.units
    players = {p.number: p for p in concours.players}
    owner = {n: unit for unit in units for n in unit}
    low = concours.lowest_wins and concours.ranking.rule is Rule.SCORE
    per_round: dict[tuple[int, ...], list[Figure | None]] = {u: [] for u in units}
    scores: dict[tuple[int, ...], int] = dict.fromkeys(units, 0)
    wins: dict[tuple[int, ...], int] = dict.fromkeys(units, 0)
    met: dict[tuple[int, ...], list[tuple[int, ...]]] = {u: [] for u in units}
    byes: dict[tuple[int, ...], list[int]] = {u: [] for u in units}
    late: dict[tuple[int, ...], list[int]] = {u: [] for u in units}
    bye = concours.ranking.bye
    missed = concours.ranking.late
    for played in concours.played:
        got = _round_points(concours, played, owner, scores, wins, met)
        average: Figure = 0
        if got:
            total = sum(got.values())
            average = (
                exact(total, len(got)) if isinstance(total, int) else Fraction(total) / len(got)
            )
        as_bye: Figure = average if bye is None else bye
        as_late: Figure = {Late.ZERO: 0, Late.BYE: as_bye, Late.AVERAGE: average}[missed]
        out = set(played.byes)
        for unit in units:
            if unit[0] in out:
                got[unit] = as_bye
                byes[unit].append(played.number)
            elif players[unit[0]].absent(played.number):
                got[unit] = as_late
                late[unit].append(played.number)
            per_round[unit].append(got.get(unit))
    points: dict[tuple[int, ...], Figure] = {
        u: sum(p for p in per_round[u] if p is not None) for u in units
    }
    lot = list(units)
    random.Random(f"lot:{concours.seed}").shuffle(lot)
    drawn = {unit: i for i, unit in enumerate(lot)}
    stated = concours.ranking.tie_breaks
    values: dict[tuple[int, ...], dict[TieBreak, Figure]] = {}
    for unit in units:
        found: dict[TieBreak, Figure] = {}
        for t in stated:  # in the stated order
            if t is TieBreak.WINS:
                found[t] = wins[unit]
            elif t is TieBreak.SCORE:
                found[t] = scores[unit]
            elif t is TieBreak.OPPONENTS:
                found[t] = sum(points[o] for o in met[unit])
            elif t is TieBreak.BEST:
                got_rounds = [p for p in per_round[unit] if p is not None]
                found[t] = (min(got_rounds) if low else max(got_rounds)) if got_rounds else 0
            else:
                found[t] = drawn[unit]
        values[unit] = found
    lower_first = {
        TieBreak.WINS: False,
        TieBreak.SCORE: concours.lowest_wins,
        TieBreak.OPPONENTS: low,
        TieBreak.BEST: low,
        TieBreak.LOT: True,
    }
    names = [POINTS, *(t.value for t in stated)]
    columns = [points, *({u: values[u][t] for u in units} for t in stated)]
    lower = [low, *(lower_first[t] for t in stated)]
    gone = {u: any(players[n].left is not None for n in u) for u in units}
    keys = {
        u: (
            gone[u],
            *(c[u] if down else -c[u] for c, down in zip(columns, lower, strict=True)),
            u,
        )
        for u in units
    }
    ordered = sorted(units, key=keys.__getitem__)
    lines: list[Line] = []
    for i, unit in enumerate(ordered):
        separated = None
        position = i + 1
        if i:
            above = ordered[i - 1]
            separated = next(
                (n for n, c in zip(names, columns, strict=True) if c[unit] != c[above]), None
            )
            if gone[unit] and not gone[above]:
                separated = WITHDRAWN
            if separated is None:
                position = lines[-1].rank
        lines.append(
            Line(
                position,
                unit,
                " & ".join(players[n].name for n in unit),
                points[unit],
                values[unit],
                tuple(per_round[unit]),
                separated,
                gone[unit],
                tuple(byes[unit]),
                tuple(late[unit]),
            )
        )
    return tuple(lines)


def _round_points(
    concours: Concours,
    played: Played,
    owner: Mapping[int, tuple[int, ...]],
    scores: dict[tuple[int, ...], int],
    wins: dict[tuple[int, ...], int],
    met: dict[tuple[int, ...], list[tuple[int, ...]]],
) -> dict[tuple[int, ...], Figure]:
    """Each unit's points at the round's accepted tables; their scores, wins and
    opponents added up on the way."""
    got: dict[tuple[int, ...], Figure] = {}
    by_score = concours.ranking.rule is Rule.SCORE
    low = concours.lowest_wins
    for table in played.tables:
        if table.scores is None or not table.accepted:
            continue
        seats = table.seats
        sides = [s for s in concours.sides if all(i < len(seats) for i in s)]
        if sum(len(s) for s in sides) != len(seats):
            sides = [(i,) for i in range(len(seats))]
        totals = [table.scores[s[0]] for s in sides]
        best = min(totals) if low else max(totals)
        table_points = concours.ranking.place_points(len(sides))
        for side, total in zip(sides, totals, strict=True):
            units_here = {owner[seats[s]] for s in side if seats[s] in owner}
            if not units_here:
                continue
            if by_score:
                earned: Figure = total
            else:
                place = sum(1 for t in totals if (t < total if low else t > total))
                level = totals.count(total)
                earned = exact(sum(table_points[place : place + level]), level)
            others = [
                owner[seats[s]]
                for other in sides
                if other != side
                for s in other
                if seats[s] in owner
            ]
            for unit in units_here:
                if unit in got:
                    continue
                got[unit] = earned
                scores[unit] += total
                if total == best:
                    wins[unit] += 1
                met[unit].extend(o for o in others if o != unit)
    return got


@dataclass(frozen=True)
class Move:
    """A line whose rank a change moves."""

    players: tuple[int, ...]
    name: str
    before: int
    after: int


@dataclass(frozen=True)
class Impact:
    """What a change of results changes: ranks that move, and the later rounds
    whose draw would have been different had the change been known then."""

    moves: tuple[Move, ...]
    redrawn: tuple[int, ...]


def impact(before: Concours, after: Concours) -> Impact:
    """Compare the event before and after a correction (the same rounds, another
    result)."""
    was = {line.players: line.rank for line in rank(before)}
    moves = tuple(
        Move(line.players, line.name, was[line.players], line.rank)
        for line in rank(after)
        if line.players in was and was[line.players] != line.rank
    )
    redrawn = []
    if after.format is not Format.PAIRS:  # only a Swiss draw reads the results
        return Impact(moves, ())
    for number in range(2, len(after.played) + 1):
        upto = replace(after, played=after.played[: number - 1])
        then = replace(before, played=before.played[: number - 1])
        try:
            if draw_next(upto) != draw_next(then):
                redrawn.append(number)
        except RulesError:
            continue
    return Impact(moves, tuple(redrawn))


def number(value: Figure) -> int | float:
    """A ranking figure for JSON: whole, or to two decimals (a shared place's points)."""
    return int(value) if value.denominator == 1 else round(float(value), 2)


def figure(value: Figure, lang: str = "en") -> str:
    """A ranking figure for people: whole, or to two decimals with the language's
    comma; a minus sign, not a hyphen."""
    if value.denominator == 1:
        text = str(int(value))
    else:
        text = f"{float(value):.2f}".rstrip("0")
        text = text.replace(".", ",") if lang == "fr" else text
    return text.replace("-", "\u2212")


def ranking_json(lines: Sequence[Line], lang: str = "en") -> list[dict[str, object]]:
    """The ranking as `referee rank --json` and the API write it."""
    return [
        {
            "rank": line.rank,
            "players": list(line.players),
            "name": line.name,
            "points": number(line.points),
            "tie_breaks": {t.value: number(v) for t, v in line.values.items()},
            "rounds": [None if r is None else number(r) for r in line.rounds],
            "byes": list(line.byes),
            "late": list(line.late),
            "withdrawn": line.withdrawn,
            "separated_by": line.separated_by,
            "separated": None
            if line.separated_by is None
            else translate(lang, SEPARATED[line.separated_by]),
        }
        for line in lines
    ]
