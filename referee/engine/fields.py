"""Readers for the JSON values of a record: each checks one field and collects problems.

A reader returns the value, or None after appending a `Problem` that names the field
and quotes what was there. Callers read every field before raising, so that a record
with three mistakes reports three lines, not one.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from enum import StrEnum
from typing import TypeVar

from referee.engine.errors import Problem, problem
from referee.engine.names import clean

E = TypeVar("E", bound=StrEnum)


def read_object(
    raw: object, allowed: frozenset[str], problems: list[Problem], field: str | None = None
) -> Mapping[str, object] | None:
    """Check that `raw` is a JSON object whose keys are all in `allowed`."""
    if not isinstance(raw, dict):
        problems.append(problem("not_object", field, value=raw))
        return None
    for key in raw:
        if key not in allowed:
            name = key if field is None else f"{field}.{key}"
            problems.append(problem("unknown_field", name, value=key))
    return raw


def everyone_passed(obj: Mapping[str, object], code: str, problems: list[Problem]) -> bool:
    """Whether the deal is one everyone passed (`"taker": null`; no taker at all is a
    deal not told); anything it tells besides its dealer is refused (`code`)."""
    if "taker" not in obj or obj["taker"] is not None:
        return False
    extra = sorted(set(obj) - {"taker", "dealer"})
    if extra:
        problems.append(problem(code, extra[0]))
    return True


def is_int(value: object) -> bool:
    """True for a JSON whole number (not a boolean, which Python counts as an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_int(
    obj: Mapping[str, object],
    key: str,
    problems: list[Problem],
    low: int,
    high: int,
    optional: bool = False,
) -> int | None:
    """Read a whole number between `low` and `high` inclusive (None when absent and optional)."""
    if key not in obj:
        _missing(key, problems, optional)
        return None
    value = obj[key]
    if not is_int(value):
        problems.append(_wrong("not_integer", key, value))
        return None
    assert isinstance(value, int)
    if not low <= value <= high:
        problems.append(problem("out_of_range", key, value=value, low=low, high=high))
        return None
    return value


def read_seat(
    obj: Mapping[str, object],
    key: str,
    players: int,
    problems: list[Problem],
    optional: bool = False,
) -> int | None:
    """Read a seat number, 0 to players - 1; one left out asks for the player."""
    if key not in obj:
        if not optional:
            problems.append(problem("seat_missing", key))
        return None
    return seat_value(obj[key], key, players, problems)


def seat_value(value: object, field: str, players: int, problems: list[Problem]) -> int | None:
    """Check one seat number."""
    # `type() is int` also keeps out booleans; this runs for every count of every deal.
    if type(value) is not int:
        problems.append(_wrong("seat_not_integer", field, value, empty="seat_missing"))
        return None
    if not 0 <= value < players:
        problems.append(problem("seat_unknown", field, value=value, high=players - 1))
        return None
    return value


def read_counts(
    obj: Mapping[str, object],
    key: str,
    players: int,
    problems: list[Problem],
    high: int,
) -> tuple[int, ...] | None:
    """Read a list with one count (0 to `high`) per seat."""
    if key not in obj:
        problems.append(problem("missing", key))
        return None
    value = obj[key]
    if not isinstance(value, list):
        problems.append(problem("not_counts", key, value=value, players=players))
        return None
    if len(value) != players:
        problems.append(problem("counts_length", key, count=len(value), players=players))
        return None
    counts: list[int] = []
    found = len(problems)
    for seat, count in enumerate(value):
        if not is_int(count) or not 0 <= count <= high:
            problems.append(problem("count_range", key, seat=seat, value=count, high=high))
        else:
            counts.append(count)
    return tuple(counts) if len(problems) == found else None


def read_choice(
    obj: Mapping[str, object],
    key: str,
    choices: type[E],
    problems: list[Problem],
    optional: bool = False,
) -> E | None:
    """Read one of a closed vocabulary (a `StrEnum`'s values)."""
    if key not in obj:
        _missing(key, problems, optional)
        return None
    value = obj[key]
    for choice in choices:
        if choice.value == value:
            return choice
    choices_given = tuple(c.value for c in choices)
    problems.append(_wrong("unknown_choice", key, value, choices=choices_given))
    return None


def read_bool(
    obj: Mapping[str, object], key: str, problems: list[Problem], optional: bool = False
) -> bool | None:
    """Read true or false."""
    if key not in obj:
        _missing(key, problems, optional)
        return None
    value = obj[key]
    if not isinstance(value, bool):
        problems.append(_wrong("not_boolean", key, value))
        return None
    return value


def _wrong(
    code: str, field: str | None, value: object, empty: str = "missing", **params: object
) -> Problem:
    """The problem of a value of the wrong kind, quoted; an entry left empty (`null`)
    is `empty` instead (missing, or a player to choose): the table never reads null."""
    if value is None:
        return problem(empty, field)
    return problem(code, field, value=value, **params)


def _missing(key: str, problems: list[Problem], optional: bool) -> None:
    """An absent field: a problem unless it is optional (the caller applies its default)."""
    if not optional:
        problems.append(problem("missing", key))


def _unusable(char: str, controls: bool) -> bool:
    """A character no text of a record may hold: a lone surrogate (it cannot be
    encoded), a Unicode non-character, or (in names) a control character."""
    code = ord(char)
    if 0xD800 <= code <= 0xDFFF or 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE:
        return True
    return controls and unicodedata.category(char) == "Cc"


def read_line(
    obj: Mapping[str, object], key: str, problems: list[Problem], high: int
) -> str | None:
    """Read an optional line of text (a house rule's: the game a table names), as a
    name is stored (`names.clean`), of at most `high` characters; None when absent."""
    if key not in obj:
        return None
    value = obj[key]
    if not isinstance(value, str):
        problems.append(_wrong("not_text", key, value))
        return None
    if (bad := text_problem(value, key, controls=True)) is not None:
        problems.append(bad)
        return None
    cleaned = clean(value)
    if len(cleaned) > high:
        problems.append(problem("text_long", key, high=high))
        return None
    return cleaned


def text_problem(text: str, field: str | None, controls: bool = False) -> Problem | None:
    """The problem with a text that cannot be stored, printed or sent, if any.

    `controls` also refuses control characters (tabs, line feeds, NUL), which a
    name or a place printed on one line of a score sheet cannot hold.
    """
    if text.isascii() and (not controls or text.isprintable()):
        return None  # the usual case, checked at C speed
    for position, char in enumerate(text, start=1):
        if _unusable(char, controls):
            code = "text_unusable" if field else "file_text_unusable"
            return problem(code, field, position=position, char=f"U+{ord(char):04X}")
    return None
