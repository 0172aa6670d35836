"""Mutated valid posts and records, for the fuzz tests and `bench/fuzz.py`.

Each example starts from something the app accepts (an example record of examples/, a
deal form that records) and breaks it in one or a few places: a value swapped for
a huge or deep one, unicode the app cannot store, a field removed or added.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from tests.conftest import EXAMPLES

#: Values that broke the app, or could: sizes, depths, encodings, spellings of numbers.
HUGE_TEXTS = [
    "9" * 5000,
    "-" + "9" * 40,
    "1E+1000000",
    "1e309",
    "NaN",
    "Infinity",
    "1_0",
    "+1",
    ".5",
    "٣",
    "①",
    "²",
    "\ud800x",
    "x\udfff",
    "\ufffe",
    "\u0000",
    "A\nB",
    "\u202e",
    "<script>alert(1)</script>",
    " ",
    "",
    "a" * 5000,
]
JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(HUGE_TEXTS),
    st.text(max_size=30),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


def example_records() -> list[dict[str, Any]]:
    """The example records of examples/ (never their expected standings)."""
    return [
        json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(Path(EXAMPLES).glob("*.json"))
        if not path.name.endswith(".expected.json")
    ]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_paths(item, (*prefix, index)))
    return found


def _put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _put(value[head], rest, new)}
    copy = list(value)
    copy[head] = _put(copy[head], rest, new)
    return copy


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def mutated_records(draw: st.DrawFn) -> bytes:
    """A valid example record with one to three places broken, as file bytes."""
    record: Any = draw(st.sampled_from(example_records()))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(record)))
        record = _put(record, path, draw(JSON_VALUES))
    text = json.dumps(record, ensure_ascii=draw(st.booleans()))
    # What json.dumps cannot write, spliced into the text: a number of thousands of
    # digits, nesting past any limit, NaN.
    splice = draw(st.sampled_from(["", "9" * 5000, _deep(990), _deep(20), "NaN", "-Infinity"]))
    if splice and '"deals": [' in text:
        text = text.replace('"deals": [', f'"deals": [{splice}, ', 1)
    return text.encode("utf-8", "surrogatepass")


#: Every field name a form of the app reads.
FORM_FIELDS = [
    "game",
    "player0",
    "player1",
    "player2",
    "player3",
    "player4",
    "first_dealer",
    "stake",
    "currency",
    "place",
    "rule_target",
    "rule_points",
    "rule_taker_scores",
    "rule_contract_order",
    "rule_bidder_scores",
    "rule_reverse",
    "rule_dirty",
    "action",
    "key",
    "version",
    "passed",
    "taker",
    "bid",
    "contract",
    "trump",
    "bidder",
    "partner",
    "bombu",
    "tricks0",
    "tricks1",
    "tricks2",
    "tricks3",
    "hearts0",
    "hearts1",
    "queens1",
    "finish0",
    "finish1",
    "call0",
    "call3",
    "p_ace",
    "p_two",
    "p_jack",
    "p_off_jack",
    "p_joker_low",
    "which",
    "cards",
]
#: A deal form that records, per game, to mutate.
GOOD_FORMS: dict[str, dict[str, str]] = {
    "boulmous": {
        "action": "save",
        "taker": "1",
        "bid": "4",
        "contract": "hearts",
        "tricks0": "1",
        "tricks1": "4",
        "tricks2": "1",
        "tricks3": "0",
    },
    "bombu": {
        "action": "save",
        "contract": "no-tricks",
        "tricks0": "2",
        "tricks1": "2",
        "tricks2": "2",
        "tricks3": "2",
    },
    "pitch": {
        "action": "save",
        "bidder": "1",
        "bid": "4",
        "trump": "spades",
        "p_ace": "1",
        "p_jack": "3",
        "p_off_jack": "0",
        "p_joker_high": "1",
        "p_joker_low": "2",
        "p_ten": "3",
        "p_three": "1",
        "p_two": "0",
    },
    # The score pad: two boxes typed (the others, and "the rest", as the pad reads
    # them: bench/fuzz.py imports the pad's examples too, issue 51).
    "pad": {"action": "save", "points0": "3", "points1": "-3"},
}
FORM_VALUES = st.one_of(
    st.sampled_from(HUGE_TEXTS).map(lambda t: t.encode("utf-8", "replace").decode()),
    st.text(max_size=40),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(["moon", "boulmous", "dead", "alone", "on", "salad", "reussite", "pass"]),
)


@st.composite
def mutated_forms(draw: st.DrawFn, game: str) -> dict[str, str]:
    """A deal form that records, with one to four fields changed, added or removed."""
    form = dict(GOOD_FORMS[game])
    for _ in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(sorted({*form, *FORM_FIELDS})))
        if draw(st.booleans()) and name in form:
            del form[name]
        else:
            form[name] = draw(FORM_VALUES)
    return form
