"""Every message speaks the table's words: names, contracts and cards by their names,
seats counted from 1, plurals as the count wants, no record keys, no `null`."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from referee.engine.messages import _PLURAL, MESSAGES, WORDS, render

#: Sample values for each placeholder: the record's own spellings, where a message
#: could leak them, and counts of one, where a plural could go wrong.
SAMPLES: dict[str, object] = {
    "value": "x",
    "field": "x",
    "seat": 0,
    "count": 1,
    "tricks": 1,
    "hearts": 1,
    "queens": 1,
    "cards": 4,
    "needed": 5,
    "name": "Ana",
    "given": "Bruno",
    "expected": 4,
    "players": 4,
    "high": 3,
    "low": 0,
    "total": 5,
    "card": "joker_low",
    "contract": "no-queens",
    "choices": ("spades", "no-trump"),
    "suit": "hearts",
}
#: Per message, the values that its code raises with (a contract, a point card).
SPECIAL: dict[str, dict[str, object]] = {
    "contract_twice": {"value": "no-queens"},
    "contract_out_of_order": {"value": "no-queens", "expected": "no-tricks"},
    "point_not_in_variant": {"value": "off_jack"},
}
RECORD_KEYS = re.compile(
    r"\b(" + "|".join(re.escape(k) for k in WORDS if "_" in k or "-" in k) + r")\b"
)
FIELD_PATH = re.compile(r"[A-Za-z_]\.[A-Za-z_]|\[\d+\]")
WRONG = [
    (re.compile(r"\bnull\b"), "null"),
    (re.compile(r"\b(seat|place) 0\b"), "a seat counted from 0"),
    (
        re.compile(
            r"\b1 (hearts|queens|tricks|players|cards|calls|numbers|cœurs|dames|plis|"
            r"joueurs|cartes|annonces|nombres|levées)\b"
        ),
        "a plural after 1",
    ),
]


def _placeholders(code: str) -> set[str]:
    english = _PLURAL.sub(r"{\1}", MESSAGES[code])
    return {name for _, name, _, _ in Formatter().parse(english) if name}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_message_speaks_the_tables_words(code: str, lang: str) -> None:
    params = {name: SAMPLES.get(name, 2) for name in _placeholders(code) if name != "field"}
    params.update(SPECIAL.get(code, {}))
    for field in ("tricks", "points.joker_low", "contract"):
        text = render(code, field, params, 3, lang)
        assert not RECORD_KEYS.search(text), text
        assert not FIELD_PATH.search(text), text
        for pattern, what in WRONG:
            assert not pattern.search(text), f"{what}: {text}"


def test_a_boulmous_contract_is_its_trump_at_the_table() -> None:
    from referee.engine.errors import RulesError
    from referee.engine.records import parse_record
    from tests.engine.helpers import boulmous_record

    with pytest.raises(RulesError) as caught:
        parse_record(boulmous_record([{"taker": 0, "bid": 3, "tricks": [3, 1, 1, 1]}]))
    assert caught.value.messages("en") == ["deal 1: trump is missing"]
    assert caught.value.messages("fr") == ["donne 1\u202f: atout\u202f: manquant"]


@pytest.mark.parametrize(
    ("count", "english", "french"), [(0, "0 hearts", "0 cœur"), (1, "1 heart", "1 cœur")]
)
def test_plurals_in_both_languages(count: int, english: str, french: str) -> None:
    params = {"name": "Ana", "count": count}
    assert english in render("no_trick_hearts", "hearts", params, None, "en")
    assert french in render("no_trick_hearts", "hearts", params, None, "fr")
