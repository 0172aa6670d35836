"""Why a deal scored what it did (issue 18, item 1): its arithmetic as data.

Each game explains its deals (`Game.explain_deal`; the whole game: `game.explain`)
as steps, each with its rule's words (a code of `EXPLANATIONS`), its parameters
and the part of the deal's deltas it accounts for; the steps of a deal add up to
the deal's deltas (a property the tests check on every kind of deal). The steps
are rebuilt from the deal as entered and its result, beside the scoring, not
inside it, so that the scoring stays as it was checked; the sum is what ties the
two together.

Rendering speaks the table's words: names for seats, "Ana & Chloé" for a side,
"Ana +1, Chloé +2" for what several players score, signs as the score sheet
writes them (a real minus), contracts and trumps by their names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from referee.engine.catalog import N_, translate
from referee.engine.messages import WORDS, _plurals, language
from referee.engine.names import isolate

MINUS: Final = "\u2212"

#: code -> the step's words (English message id; French in the catalogue).
EXPLANATIONS: Final[dict[str, str]] = {
    # Five-handed: each defender scores what the defenders took together.
    # Any game
    "points": N_("Points: {gains}."),
    # Why a card wins a trick (the trick judge)
    "highest_trump": N_("{card} is the highest trump played."),
}


def reason(code: str, **params: object) -> Step:
    """Why a card wins a trick: a step that moves no points."""
    return Step(code, (), MappingProxyType(dict(params)))


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a deal's arithmetic: its rule (`code`), what it says and the part
    of the deal's deltas it accounts for, seat by seat."""

    code: str
    deltas: tuple[int, ...]
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def text(self, players: Sequence[str], lang: str) -> str:
        """The step in the player's language."""
        return render(self, players, lang)


def step(code: str, deltas: Sequence[int], **params: object) -> Step:
    """A step; its parameters as the words need them (`who` a seat, `side` seats,
    whose count `n` chooses the verb's number, `gains` (seat, points) pairs,
    `amount` a signed number)."""
    side = params.get("side")
    if isinstance(side, tuple):
        params["n"] = len(side)
    return Step(code, tuple(deltas), MappingProxyType(dict(params)))


def nothing(players: int) -> tuple[int, ...]:
    """The deltas of a step that only says something (who wins)."""
    return (0,) * players


def signed(value: int) -> str:
    """+4, −4 (a real minus), 0."""
    if value > 0:
        return f"+{value}"
    return f"{MINUS}{-value}" if value < 0 else "0"


def render(item: Step, players: Sequence[str], lang: str) -> str:
    """A step's words, in `lang`, with the players' names."""
    lang = language(lang)
    players = [isolate(name) for name in players]  # a name cannot reorder the line
    values: dict[str, object] = {}
    for key, value in item.params.items():
        if key == "who" and isinstance(value, int):
            values[key] = players[value]
        elif key == "side" and isinstance(value, tuple):
            values[key] = together([players[seat] for seat in value])
        elif key == "gains" and isinstance(value, tuple):
            values[key] = ", ".join(f"{players[seat]} {signed(points)}" for seat, points in value)
        elif key == "amount" and isinstance(value, int):
            values[key] = signed(value)
        elif key == "score" and isinstance(value, int):
            values[key] = str(value).replace("-", MINUS)
        elif isinstance(value, str) and value in WORDS:
            values[key] = translate(lang, WORDS[value])
        else:
            values[key] = value
    template = _plurals(translate(lang, EXPLANATIONS[item.code]), item.params, lang)
    return template.format(**values)


def together(names: Sequence[str]) -> str:
    """Names of one side: "Ana & Chloé", "Bruno, Earl & Walt"."""
    if len(names) < 3:
        return " & ".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def gains(deltas: Sequence[int], seats: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """(seat, points) of these seats, as a step's `gains`."""
    return tuple((seat, deltas[seat]) for seat in seats)


def only(players: int, seats: Sequence[int], deltas: Sequence[int]) -> tuple[int, ...]:
    """The deltas of these seats, the others 0."""
    wanted = set(seats)
    return tuple(deltas[seat] if seat in wanted else 0 for seat in range(players))
