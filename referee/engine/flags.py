"""House-rule flags, declared once per game as data.

A game's `Rules` dataclass holds each flag's default; its `FLAGS` tuple says, for
each, what values it takes, the words players read (message ids of the catalogue,
marked with `N_` so that the translation tools find them) and the rule it
implements. Reading a record's `rules`, writing them back, the new-game form, the
rules page and the score sheet all derive from that declaration.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from referee.engine.errors import Problem, check
from referee.engine.fields import read_bool, read_choice, read_int, read_line, read_object

R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Flag:
    """One house rule: its name in the record, its values, its words and its rule.

    The kind follows the default in the game's `Rules`: a bool is on or off, a
    `StrEnum` is one of its values, an int is a number from `low` to `high`, or one
    of `numbers` when they are given (a game's variants by their number), a plain
    str is a line of text of at most `high` characters ("" when not given).
    """

    name: str
    label: str  # message id: the new-game form's label
    help: str  # message id: a line under it
    rule: str  # where the flag comes from (docs/RULES.md: a ruling, or Referee's own)
    low: int = 1
    high: int = 999
    numbers: tuple[int, ...] = ()
    #: Message ids of a choice's values, value -> words.
    choices: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: Message id of what 0 means for a number that may be 0 ("no target").
    zero: str = ""


def kind_of(flag: Flag, default: object) -> str:
    """ "bool", "choice", "text" or "int", from the flag's default value."""
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, StrEnum) or flag.numbers:
        return "choice"
    if isinstance(default, str):
        return "text"
    return "int"


def read_flags(
    flags: Sequence[Flag], defaults: R, raw: Mapping[str, object], problems: list[Problem]
) -> dict[str, object]:
    """Read every flag a record gives (None: not given), appending problems."""
    read_object(raw, frozenset(flag.name for flag in flags), problems)
    given: dict[str, object] = {}
    for flag in flags:
        default = getattr(defaults, flag.name)
        if isinstance(default, bool):
            given[flag.name] = read_bool(raw, flag.name, problems, optional=True)
        elif isinstance(default, StrEnum):
            given[flag.name] = read_choice(raw, flag.name, type(default), problems, optional=True)
        elif isinstance(default, str):
            given[flag.name] = read_line(raw, flag.name, problems, flag.high)
        else:
            given[flag.name] = read_int(raw, flag.name, problems, flag.low, flag.high, True)
    return given


def parse_flags(flags: Sequence[Flag], defaults: R, raw: Mapping[str, object]) -> R:
    """The rules a record's `rules` give: the defaults with the given flags put in."""
    problems: list[Problem] = []
    given = read_flags(flags, defaults, raw, problems)
    check(problems)
    return _with(defaults, given)


def _with(defaults: R, given: Mapping[str, object]) -> R:
    changes: dict[str, Any] = {k: v for k, v in given.items() if v is not None}
    return dataclasses.replace(defaults, **changes)  # type: ignore[type-var]
