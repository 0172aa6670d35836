"""A table: people who play together, and its file (`referee-table/1`, issue 17).

A table's people are not seats: the same person plays many games, sometimes typed
under another spelling ("Pegy", "Peggy"). The table keeps which typed names are
the same person (`aliases`: typed name -> person), and the people named when it
was made (the seats of its first game), nothing else of its own: its games are
games, its evenings and statistics are derived from them.

Its file holds its name, its aliases and its games' records in full
(`referee-game/1`, currency, place and date included), in the order they were
played. See docs/TABLE-FORMAT.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.fields import text_problem
from referee.engine.names import PERSON_MAX, TITLE_MAX, alike, clean, fault, skeleton
from referee.engine.records import (
    MAX_DEPTH,
    MAX_RECORD_BYTES,
    AnyRecord,
    decode_json,
    parse_record,
)

FORMAT: Final = "referee-table/1"
MAX_NAME: Final = TITLE_MAX
#: A table file holds at most this many games (a club's years of Tuesdays).
MAX_GAMES: Final = 2000
#: A table file is at most this large: its games' records, each at most a record's size.
MAX_TABLE_BYTES: Final = 32 * MAX_RECORD_BYTES
_FIELDS: Final = frozenset({"format", "name", "people", "aliases", "games"})


def name_problems(name: object, field: str = "name") -> list[Problem]:
    """What is wrong with a table's name (or a person's, when merging): it must be
    one line of text, not empty (nor only invisible characters), at most `MAX_NAME`
    characters."""
    if not isinstance(name, str) or not name.strip():
        return [problem("table_name", field)]
    bad = text_problem(name, field, controls=True)
    if bad is not None:
        return [bad]
    wrong = fault(name, MAX_NAME)
    if wrong == "empty":
        return [problem("table_name", field)]
    if wrong == "long":
        return [problem("table_name_long", field, high=MAX_NAME)]
    return []


def people_problems(names: Sequence[str], field: str = "people") -> list[Problem]:
    """What is wrong with the people named for a new table, box by box (blank boxes
    left out): each a player's name (one line, at most a player's name's length), no
    two reading the same."""
    found: list[Problem] = []
    cleaned: list[str] = []
    seats: list[int] = []
    for seat, name in enumerate(names):
        if not name.strip():
            continue
        bad = text_problem(name, field, controls=True)
        if bad is not None:
            found.append(bad)
        elif not (tidy := clean(name)):
            found.append(problem("player_name", field, seat=seat, value=name))
        elif len(tidy) > PERSON_MAX:
            found.append(problem("player_name_long", field, seat=seat, high=PERSON_MAX))
        else:
            cleaned.append(tidy)
            seats.append(seat)
    for a, b in alike(cleaned):
        found.append(
            problem("player_twice", field, name=cleaned[a], seat=seats[a], other_seat=seats[b])
        )
    return found


def person_of(aliases: Mapping[str, str], name: str) -> str:
    """The person a typed name is (itself, unless merged into another)."""
    return aliases.get(name, name)


def people_of(aliases: Mapping[str, str], players: Sequence[str]) -> tuple[str, ...]:
    """The person in each seat."""
    return tuple(person_of(aliases, name) for name in players)


def reading(aliases: Mapping[str, str], seatings: Sequence[Sequence[str]]) -> dict[str, str]:
    """The aliases a table reads its games' names with: its merges (`aliases`), and
    every typed name that reads like an earlier one (`names.skeleton`: "Аna" with a
    Cyrillic А, "Ana" with a zero-width space) as that one, so that an evening never
    has "Ana pays Ana". Two names that sat at one game stay two people (a game kept
    from before names were compared so).

    `seatings` are the typed names of each game, in the order played: the first
    spelling of a name is the one shown.
    """
    games: dict[str, set[int]] = {}
    for index, seats in enumerate(seatings):
        for typed in seats:
            games.setdefault(typed, set()).add(index)
    # Each reading (skeleton) -> its spellings, each with the games of its group.
    groups: dict[str, list[tuple[str, set[int]]]] = {}
    leader: dict[str, str] = {}
    for typed, played in games.items():
        spellings = groups.setdefault(skeleton(typed), [])
        for first, together in spellings:
            if not together & played:
                leader[typed] = first
                together |= played
                break
        else:
            spellings.append((typed, set(played)))
    out: dict[str, str] = {}
    for typed in {*games, *aliases}:
        person = typed
        for _ in range(len(games) + len(aliases) + 1):  # no loop can hold it
            step = leader.get(person, person)
            step = aliases.get(step, step)
            if step == person:
                break
            person = step
        if person != typed:
            out[typed] = person
    return out


def find_person(aliases: Mapping[str, str], seatings: Sequence[Sequence[str]], name: str) -> str:
    """The person a name typed by a player means at this table (`aliases` as
    `reading` gives them): a typed name's person, else the person whose name reads
    the same (`names.skeleton`), else the name itself (nobody)."""
    name = clean(name)
    known = {person_of(aliases, n) for seats in seatings for n in seats}
    if name in known or name in aliases:
        return person_of(aliases, name)
    same = [person for person in known if skeleton(person) == skeleton(name)]
    for typed in (n for seats in seatings for n in seats):
        if skeleton(typed) == skeleton(name):
            same.append(person_of(aliases, typed))
    return same[0] if same else name


def merged(
    aliases: Mapping[str, str], seatings: Sequence[Sequence[str]], name: str, into: str
) -> dict[str, str]:
    """The aliases once `name` is the same person as `into` (both as players see
    them: typed names or people, spelled in any way that reads the same). Refused
    (RulesError) when they are one already (names that read the same are), when
    either never sat at the table, or when they sat at the same game: two seats of
    one game are two people."""
    read = reading(aliases, seatings)
    known = {person_of(read, n) for seats in seatings for n in seats}
    source, target = find_person(read, seatings, name), find_person(read, seatings, into)
    problems: list[Problem] = []
    for field, person in (("name", source), ("into", target)):
        if person not in known:
            problems.append(problem("person_unknown", field, value=person))
    check(problems)
    if source == target:
        raise RulesError([problem("person_same", "into", value=target)])
    for seats in seatings:
        people = people_of(read, seats)
        if source in people and target in people:
            raise RulesError([problem("person_together", "into", name=source, other=target)])
    # Every typed name of `source` (itself included) now reads as `target`.
    out = {typed: target if person == source else person for typed, person in aliases.items()}
    out[source] = target
    return {typed: person for typed, person in out.items() if typed != person}


def split(aliases: Mapping[str, str], name: str) -> dict[str, str]:
    """The aliases once the typed `name` is its own person again."""
    return {typed: person for typed, person in aliases.items() if typed != name}


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A parsed table file: its name, aliases and games (in the order played), and
    the people named when it was made (its first game's seats)."""

    name: str
    aliases: Mapping[str, str]
    games: tuple[AnyRecord, ...]
    people: tuple[str, ...] = ()


class TableGameError(RulesError):
    """A game of a table file cannot be: `number` (from 1) says which, `error` why."""

    def __init__(self, number: int, error: RulesError) -> None:
        super().__init__(error.problems)
        self.number = number
        self.error = error


def load_table(text: str | bytes) -> TableRecord:
    """Read a table file; refuse it whole (RulesError) if anything in it cannot be."""
    return parse_table(decode_json(text, MAX_TABLE_BYTES, MAX_DEPTH + 2))


def parse_table(data: object) -> TableRecord:
    """Check a decoded table file, every game by the rules of its game."""
    if not isinstance(data, dict):
        raise RulesError([problem("table_not_object")])
    if data.get("format") != FORMAT:
        raise RulesError([problem("table_format", "format", value=data.get("format"))])
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise RulesError([problem("table_field_unknown", unknown[0], value=unknown[0])])
    check(name_problems(data.get("name")))
    raw_aliases = data.get("aliases", {})
    if not isinstance(raw_aliases, dict) or not all(
        isinstance(v, str) and not name_problems(k) and not name_problems(v)
        for k, v in raw_aliases.items()
    ):
        raise RulesError([problem("table_aliases", "aliases")])
    people = data.get("people", [])
    if not isinstance(people, list) or not all(isinstance(p, str) and p.strip() for p in people):
        raise RulesError([problem("table_people", "people")])
    check(people_problems(people))
    games = data.get("games")
    if not isinstance(games, list):
        raise RulesError([problem("table_games", "games", high=MAX_GAMES)])
    if len(games) > MAX_GAMES:
        raise RulesError([problem("table_games", "games", high=MAX_GAMES)])
    records = []
    for number, raw in enumerate(games, start=1):
        try:
            records.append(parse_record(raw))
        except RulesError as error:
            raise TableGameError(number, error) from None
    aliases: dict[str, str] = {}
    for typed, person in raw_aliases.items():
        aliases[clean(typed)] = clean(person)  # as the games' names are read
    # An alias chain (a -> b -> c) reads as everyone -> c; a loop is refused.
    for typed in list(aliases):
        seen = {typed}
        person = aliases[typed]
        while person in aliases:
            if person in seen:
                raise RulesError([problem("table_aliases", "aliases")])
            seen.add(person)
            person = aliases[person]
        aliases[typed] = person
    return TableRecord(
        clean(data["name"]), aliases, tuple(records), tuple(clean(p) for p in people)
    )


def dump_table(
    name: str,
    aliases: Mapping[str, str],
    games: Sequence[dict[str, Any]],
    people: Sequence[str] = (),
) -> dict[str, Any]:
    """A table file's data: `games` are the games' records as `referee-game/1` data;
    `people` (written when there are some) those named when the table was made."""
    out: dict[str, Any] = {"format": FORMAT, "name": name}
    if people:
        out["people"] = list(people)
    out["aliases"] = dict(sorted(aliases.items()))
    out["games"] = list(games)
    return out
