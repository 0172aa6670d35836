"""A game's words: what players read of it, as the one catalogue's message ids.

Each game declares its own (`Game.words`): its refusals, the names of its fields,
the words of what its record names (contracts, cards), its explanation
steps and its marks. Registering a game (`referee.games.register`) puts them in
the shared tables the engine renders from (`referee.engine.messages`,
`referee.engine.explain`), so that shared code renders a game's message by its code
without naming the game. Two games may share a code only with the same words.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Final

from referee.engine.catalog import N_
from referee.engine.explain import EXPLANATIONS
from referee.engine.messages import FIELD_NAMES, MESSAGES, WORDS

#: A mark's words by its kind (`referee.engine.game.Mark`), as a score sheet shows it
#: beside a deal; the shared ones here, each game's added when it is registered.
MARKS: Final[dict[str, str]] = {"win": N_("wins")}


@dataclass(frozen=True)
class Words:
    """A game's words, each table code -> English message id (`N_`; the field
    names `NC_("field", …)`)."""

    #: Refusals: problem code -> message (`referee.engine.messages.MESSAGES`).
    messages: Mapping[str, str] = field(default_factory=dict)
    #: The names of the game's own fields (`FIELD_NAMES`).
    fields: Mapping[str, str] = field(default_factory=dict)
    #: What its record names with a key, in the players' words (`WORDS`).
    values: Mapping[str, str] = field(default_factory=dict)
    #: Its explanation steps (`referee.engine.explain.EXPLANATIONS`).
    steps: Mapping[str, str] = field(default_factory=dict)
    #: Its marks, as a score sheet shows them (`MARKS`).
    marks: Mapping[str, str] = field(default_factory=dict)

    def register(self) -> None:
        """Add these words to the shared tables (ValueError where another game
        gave the same code other words)."""
        for own, shared in (
            (self.messages, MESSAGES),
            (self.fields, FIELD_NAMES),
            (self.values, WORDS),
            (self.steps, EXPLANATIONS),
            (self.marks, MARKS),
        ):
            _merge(own, shared)


def _merge(own: Mapping[str, str], shared: MutableMapping[str, str]) -> None:
    for code, words in own.items():
        if shared.get(code, words) != words:
            raise ValueError(f"{code!r} already has other words: {shared[code]!r}")
    shared.update(own)
