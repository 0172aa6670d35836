"""The one error family of the engine: a record or a play that cannot happen.

A `RulesError` carries every `Problem` found, not just the first, so that a player
fixes a deal in one go. Each problem names the deal (numbered from 1, as players
count them) and the field it blames, and renders itself in French or English from
the message catalogue in `messages.py`: the engine never formats prose at raise time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from types import MappingProxyType
from typing import Final

from referee.engine.messages import render

_EMPTY: Final[Mapping[str, object]] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a record: which deal, which field, and why (`code`)."""

    code: str
    field: str | None = None
    deal: int | None = None
    params: Mapping[str, object] = dataclass_field(default_factory=lambda: _EMPTY)

    def message(self, lang: str = "en") -> str:
        """Render the problem in the player's language, prefixed by its deal."""
        return render(self.code, self.field, self.params, self.deal, lang)

    def at_deal(self, deal: int) -> Problem:
        """Return the same problem, located at `deal` (numbered from 1)."""
        return Problem(self.code, self.field, deal, self.params)

    def shown_as(self, words: str) -> Problem:
        """The same problem, its field named with the words of `words` (a field name
        of the catalogue) where the record's name is not what players call it."""
        return Problem(self.code, self.field, self.deal, {**self.params, "as_field": words})

    def under(self, prefix: str) -> Problem:
        """Return the same problem with its field nested under `prefix` (`rules.target`)."""
        name = prefix if self.field is None else f"{prefix}.{self.field}"
        return Problem(self.code, name, self.deal, self.params)


def problem(code: str, field: str | None = None, **params: object) -> Problem:
    """Build a `Problem` with keyword parameters for its message."""
    return Problem(code, field, None, MappingProxyType(dict(params)))


class RulesError(ValueError):
    """Something a record or a player asked for cannot happen under the rules.

    `.problems` lists every defect found; `.field` and `.deal` are those of the
    first, for callers that show one message beside one input.
    """

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: tuple[Problem, ...] = tuple(problems)
        if not self.problems:
            raise ValueError("a RulesError needs at least one problem")
        super().__init__("; ".join(p.message("en") for p in self.problems))

    @property
    def field(self) -> str | None:
        """The field the first problem blames."""
        return self.problems[0].field

    @property
    def deal(self) -> int | None:
        """The deal (from 1) of the first problem, or None for the record itself."""
        return self.problems[0].deal

    def messages(self, lang: str = "en") -> list[str]:
        """Every problem rendered in `lang`, one line each."""
        return [p.message(lang) for p in self.problems]

    def at_deal(self, deal: int) -> RulesError:
        """Return the same error with every problem located at `deal`."""
        return RulesError(p.at_deal(deal) for p in self.problems)


def check(problems: list[Problem]) -> None:
    """Raise a `RulesError` if `problems` is not empty."""
    if problems:
        raise RulesError(problems)
