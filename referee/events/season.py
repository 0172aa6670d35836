"""A club's season: a championship over several concours.

Pure Python (standard library only). Each concours gives its players season
points by their final rank, from a table of points the club chooses (first place
first; the places past the table get `beyond`); players who share a place share
the points of the places they cover (their average, exact). Each player counts
their best results only: with `drop_worst` K and E events, the best E − K, one
at least (a player who played fewer counts all they played; a missed event is no
result, so it is the first "worst" dropped). Players are the same player across events when
their names are the same, letters' case and spaces aside.

Ties on the counted points are broken by the stated tie-breaks, in order:
`wins` (events won), `best` (the best place reached), `all` (every result
counted, the dropped ones too), `last` (the points of the latest event). Players
still level share the place.
"""

from __future__ import annotations

import datetime
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import pairwise
from typing import Final

from referee.engine.catalog import N_
from referee.engine.errors import RulesError, problem
from referee.events.concours import Concours, Figure, exact, rank

#: The most events a season reads, and the most places its table of points names.
MAX_EVENTS: Final = 60
MAX_PLACES: Final = 100
#: A table of points that rewards the podium and everyone who came.
DEFAULT_POINTS: Final = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


class SeasonTieBreak(StrEnum):
    WINS = "wins"
    BEST = "best"
    ALL = "all"
    LAST = "last"


#: The season's tie-breaks and separations, named for the players.
SEASON_NAMES: Final = {
    "points": N_("on points"),
    "wins": N_("on events won"),
    "best": N_("on the best place"),
    "all": N_("on every result, dropped ones included"),
    "last": N_("on the latest event"),
}
#: The tie-breaks, named in the rules shown above a season's ranking.
TIE_BREAK_NAMES: Final = {
    "wins": N_("events won"),
    "best": N_("best place"),
    "all": N_("all results"),
    "last": N_("latest event"),
}


@dataclass(frozen=True)
class SeasonRules:
    """The championship's rule, stated by the club."""

    #: Season points by final place, first place first.
    points: tuple[int, ...] = DEFAULT_POINTS
    #: Points for a place past the table (taking part).
    beyond: int = 0
    #: Each player's worst results not counted.
    drop_worst: int = 0
    tie_breaks: tuple[SeasonTieBreak, ...] = (
        SeasonTieBreak.WINS,
        SeasonTieBreak.BEST,
        SeasonTieBreak.LAST,
    )

    def place(self, number: int) -> int:
        """The points of place `number` (from 1)."""
        return self.points[number - 1] if number <= len(self.points) else self.beyond


@dataclass(frozen=True)
class Held:
    """One concours as the season reads it: its final ranking, by names."""

    name: str
    date: datetime.date | None
    #: The ranking's lines, best first: the names of a line's players and its rank
    #: (lines of one rank share the place).
    lines: tuple[tuple[tuple[str, ...], int], ...]
    #: Whether every round was played (a season counts a provisional ranking too,
    #: and says so).
    final: bool = True


@dataclass(frozen=True)
class SeasonLine:
    """A line of the season's ranking."""

    rank: int
    name: str
    #: The points counted (the best results).
    points: Figure
    #: Points per event, in the season's order: None where the player did not play.
    results: tuple[Figure | None, ...]
    #: The events (indexes) whose result was dropped.
    dropped: tuple[int, ...]
    #: Each event's place, None where not played.
    places: tuple[int | None, ...]
    values: Mapping[SeasonTieBreak, Figure]
    #: What put this line below the one above ("points" or a tie-break), or None
    #: (the first line, or level with the line above: the same rank).
    separated_by: str | None


def same_player(name: str) -> str:
    """The key that makes two spellings of a name one player: case and spaces aside."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def bare(name: str) -> str:
    """A name with its accents, case, hyphens and spaces aside: "Éric Lefèvre",
    "eric  lefevre" and "Eric Lefevre" are one bare name. Two players whose names
    are one bare name may be one player spelled two ways: the organiser decides
    (`proposals`), never the ranking alone (Ana and Aña may be two people)."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(letters.replace("-", " ").replace("\u2010", " ").split()).casefold()


def proposals(
    events: Sequence[Held], aliases: Mapping[str, str] | None = None
) -> tuple[tuple[str, ...], ...]:
    """The names of the season that differ only by accents, case, hyphens or spaces
    and are not merged yet: each group as written, the most frequent first."""
    seen: dict[str, dict[str, int]] = {}
    for held in _merged(events, aliases or {}):
        for names, _place in held.lines:
            for name in names:
                spelled = seen.setdefault(bare(name), {})
                key = same_player(name)
                if not any(same_player(n) == key for n in spelled):
                    spelled[name] = 0
                written = next(n for n in spelled if same_player(n) == key)
                spelled[written] += 1
    return tuple(
        tuple(sorted(group, key=lambda n: (-group[n], n)))
        for _key, group in sorted(seen.items())
        if len(group) > 1
    )


def _merged(events: Sequence[Held], aliases: Mapping[str, str]) -> tuple[Held, ...]:
    """The events with each merged name written as the name it counts as."""
    if not aliases:
        return tuple(events)
    keyed = {same_player(k): v for k, v in aliases.items()}
    return tuple(
        Held(
            held.name,
            held.date,
            tuple(
                (tuple(keyed.get(same_player(n), n) for n in names), place)
                for names, place in held.lines
            ),
            held.final,
        )
        for held in events
    )


def held_of(name: str, date: datetime.date | None, concours: Concours) -> Held:
    """A concours's final (or provisional) ranking, by its players' names; none
    before its first result (a lot would rank them: not a result)."""
    names = {p.number: p.name for p in concours.players}
    results = any(t.scores is not None for p in concours.played for t in p.tables)
    lines = tuple(
        (tuple(names[n] for n in line.players), line.rank)
        for line in (rank(concours) if results else ())
    )
    played = sum(1 for p in concours.played if p.complete)
    return Held(name, date, lines, played >= concours.rounds)


def event_points(rules: SeasonRules, held: Held) -> dict[str, tuple[Figure, int, str]]:
    """Each player's season points and place in one event, by `same_player` key
    (with the name as written): a shared place shares its places' points."""
    got: dict[str, tuple[Figure, int, str]] = {}
    lines = held.lines
    start = 0
    while start < len(lines):
        end = start
        while end < len(lines) and lines[end][1] == lines[start][1]:
            end += 1
        total = sum(rules.place(place) for place in range(start + 1, end + 1))
        share = exact(total, end - start)
        for names, place in lines[start:end]:
            for name in names:
                got.setdefault(same_player(name), (share, place, name))
        start = end
    return got


def counted_results(rules: SeasonRules, events: int) -> int:
    """How many results each player counts over `events` concours: all but the
    worst `drop_worst`, one at least (early in a season, fewer concours may have
    been played than the results to drop)."""
    return max(1, events - rules.drop_worst)


def season_rank(
    rules: SeasonRules, events: Sequence[Held], aliases: Mapping[str, str] | None = None
) -> tuple[SeasonLine, ...]:
    """The season's ranking over `events` (in the season's order, oldest first);
    `aliases`: the names the organiser merged (as written -> the name it counts as)."""
    per_event = [event_points(rules, held) for held in _merged(events, aliases or {})]
    names: dict[str, str] = {}
    for got in per_event:
        for key, (_points, _place, name) in got.items():
            names.setdefault(key, name)
    counted_events = counted_results(rules, len(events))
    built: dict[
        str,
        tuple[
            Figure,
            tuple[Figure | None, ...],
            tuple[int, ...],
            tuple[int | None, ...],
            dict[SeasonTieBreak, Figure],
        ],
    ] = {}
    for key in names:
        results = tuple(got[key][0] if key in got else None for got in per_event)
        places = tuple(got[key][1] if key in got else None for got in per_event)
        played = [i for i, r in enumerate(results) if r is not None]
        # The worst first, the earlier of two equal results dropped first.
        worst_first = sorted(played, key=lambda i: (results[i], i))
        dropped = tuple(sorted(worst_first[: max(0, len(played) - counted_events)]))
        counted = sum(r for i, r in enumerate(results) if r is not None and i not in dropped)
        values: dict[SeasonTieBreak, Figure] = {}
        for t in rules.tie_breaks:
            if t is SeasonTieBreak.WINS:
                values[t] = sum(1 for p in places if p == 1)
            elif t is SeasonTieBreak.BEST:
                values[t] = -min((p for p in places if p is not None), default=10**9)
            elif t is SeasonTieBreak.ALL:
                values[t] = sum(r for r in results if r is not None)
            else:
                values[t] = results[-1] if results and results[-1] is not None else 0
        built[key] = (counted, results, dropped, places, values)
    columns = ["points", *(t.value for t in rules.tie_breaks)]

    def figures(key: str) -> tuple[Figure, ...]:
        counted, _r, _d, _p, values = built[key]
        return (counted, *(values[t] for t in rules.tie_breaks))

    ordered = sorted(names, key=lambda k: (tuple(-f for f in figures(k)), same_player(names[k])))
    lines: list[SeasonLine] = []
    for i, key in enumerate(ordered):
        separated = None
        position = i + 1
        if i:
            above = figures(ordered[i - 1])
            mine = figures(key)
            separated = next(
                (c for c, a, m in zip(columns, above, mine, strict=True) if a != m), None
            )
            if separated is None:
                position = lines[-1].rank
        counted, results, dropped, places, values = built[key]
        lines.append(
            SeasonLine(position, names[key], counted, results, dropped, places, values, separated)
        )
    return tuple(lines)


def parse_rules(raw: Mapping[str, object], field: str = "season") -> SeasonRules:
    """Season rules from a mapping (`points`, `beyond`, `drop_worst`, `tie_breaks`);
    refused with the field blamed."""
    unknown = sorted(set(raw) - {"points", "beyond", "drop_worst", "tie_breaks"})
    if unknown:
        raise RulesError([problem("unknown_field", f"{field}.{unknown[0]}", value=unknown[0])])
    points = raw.get("points", list(DEFAULT_POINTS))
    if (
        not isinstance(points, list | tuple)
        or not 1 <= len(points) <= MAX_PLACES
        or not all(
            isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 10_000 for p in points
        )
    ):
        raise RulesError([problem("season_points", f"{field}.points", high=MAX_PLACES)])
    # A better place never scores less ("25,5; 20" typed for 25.5 and 20 reads as
    # 25, 5, 20: refused, not taken).
    if any(later > earlier for earlier, later in pairwise(points)):
        raise RulesError(
            [problem("season_points_rise", f"{field}.points", value=", ".join(map(str, points)))]
        )
    whole: dict[str, int] = {}
    for name, high in (("beyond", 10_000), ("drop_worst", MAX_EVENTS)):
        value = raw.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= high:
            raise RulesError([problem("season_whole", f"{field}.{name}", value=value, high=high)])
        whole[name] = value
    breaks_raw = raw.get("tie_breaks", [t.value for t in SeasonRules().tie_breaks])
    choices = tuple(t.value for t in SeasonTieBreak)
    if not isinstance(breaks_raw, list | tuple):
        raise RulesError(
            [problem("unknown_choice", f"{field}.tie_breaks", value=breaks_raw, choices=choices)]
        )
    for i, value in enumerate(breaks_raw):
        if value not in choices:
            raise RulesError(
                [problem("unknown_choice", f"{field}.tie_breaks", value=value, choices=choices)]
            )
        if value in breaks_raw[:i]:
            raise RulesError([problem("event_twice", f"{field}.tie_breaks", value=value)])
    return SeasonRules(
        tuple(points),
        whole["beyond"],
        whole["drop_worst"],
        tuple(SeasonTieBreak(v) for v in breaks_raw),
    )


def rules_json(rules: SeasonRules) -> dict[str, object]:
    return {
        "points": list(rules.points),
        "beyond": rules.beyond,
        "drop_worst": rules.drop_worst,
        "tie_breaks": [t.value for t in rules.tie_breaks],
    }
