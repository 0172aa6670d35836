"""Every message speaks the table's words: names, contracts and cards by their names,
seats counted from 1, plurals as the count wants; never the file's (issue 36): no
"record", no `null` or `true`, no field name or JSON type, in French or English.

Two walks: every message of the catalogue rendered with every kind of value a file
may hold and every field the engine blames, and every refusal the engine's tests
provoke, as the player reads it."""

from __future__ import annotations

import re
from string import Formatter

import pytest

from referee.engine.errors import RulesError
from referee.engine.messages import (
    _PLURAL,
    FIELD_NAMES,
    MESSAGES,
    WORDS,
    field_label,
    quote,
    render,
)
from tests.engine.helpers import standings
from tests.engine.test_bombu import ERRORS as BOMBU_CASES
from tests.engine.test_errors import CASES
from tests.engine.test_pitch import ERRORS as PITCH_CASES

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
    "games": "boulmous, bombu, pitch",
}
#: Per message, the values that its code raises with (a contract, a point card).
SPECIAL: dict[str, dict[str, object]] = {
    "contract_twice": {"value": "no-queens"},
    "contract_out_of_order": {"value": "no-queens", "expected": "no-tricks"},
    "point_not_in_variant": {"value": "off_jack"},
    "players_count": {"expected": (4, 5)},
    "players_not_list": {"expected": (4, 5)},
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
            r"\b(record|relevé|enregistrement|true|false|json|object|objet|array|string"
            r"|chaîne|integer|boolean|booléen|list|liste|field|champ)\b",
            re.IGNORECASE,
        ),
        "the file's words",
    ),
    (re.compile(r"[{}]"), "a placeholder or a JSON object"),
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
    for value in FILE_VALUES if "value" in params else [None]:
        given = {**params, "value": value} if "value" in params else params
        for field in FIELDS:
            text = render(code, field, given, 3, lang)
            _assert_table_words(text, value)


def _assert_table_words(text: str, value: object = None) -> None:
    """`text` speaks the table's words. The bad input it quotes as it was given (a
    text, a number, a list) is left out: `null`, `true`, `false` are not."""
    if value is not None and not isinstance(value, bool):
        text = text.replace(quote(value), "«input»")
    assert not RECORD_KEYS.search(text), text
    assert not FIELD_PATH.search(text), text
    for pattern, what in WRONG:
        assert not pattern.search(text), f"{what}: {text}"


#: The kinds of value a file may hold where a field is expected.
FILE_VALUES: list[object] = [None, True, False, "stars", 9, -1, 2.5, [1, None], {"a": 1}]
#: Every field the engine blames, as it names them (indexes, nesting, house rules).
FIELDS = [*FIELD_NAMES, *WORDS, "tricks[2]", "auction[3]", "points.joker_low", "rules.target"]


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize(
    "record",
    [case[1] for case in CASES + BOMBU_CASES + PITCH_CASES],
    ids=[case[0] for case in CASES + BOMBU_CASES + PITCH_CASES],
)
def test_every_refusal_of_the_tests_speaks_the_tables_words(record: object, lang: str) -> None:
    """The refusals the engine's tests provoke, as the player reads them."""
    with pytest.raises(RulesError) as caught:
        standings(record)  # type: ignore[arg-type]
    for line in caught.value.messages(lang):
        _assert_table_words(line)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("field", FIELDS)
def test_a_field_is_named_in_the_players_words(field: str, lang: str) -> None:
    label = field_label(field, lang)
    assert label
    _assert_table_words(label)


def test_a_missing_player_is_asked_for_not_called_null() -> None:
    """A Bombu deal whose K♥ taker was left empty."""
    record = {
        "format": "referee-game/1",
        "game": "bombu",
        "players": ["Ana", "Bruno", "Chloé", "Driss"],
        "deals": [{"contract": "no-bombu", "bombu": None}],
    }
    with pytest.raises(RulesError) as caught:
        standings(record)
    assert caught.value.messages("en") == ["deal 1: Bombu (K♥): choose a player"]
    assert caught.value.messages("fr")[0].endswith("choisissez un joueur")


def test_seven_players_are_told_as_the_table_counts() -> None:
    record = {"format": "referee-game/1", "game": "pitch", "players": list("ABCDEFG")}
    with pytest.raises(RulesError) as caught:
        standings(record)
    assert caught.value.messages("en") == ["This game is played by 4 or 5 players, not 7"]
    assert caught.value.messages("fr") == ["Ce jeu se joue à 4 ou 5 joueurs, pas à 7"]


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


@pytest.mark.parametrize(
    ("record", "english", "french"),
    [
        (
            {"format": "referee-game/1", "players": ["A", "B", "C", "D"]},
            "Game is missing",
            "Jeu\u202f: manquant",
        ),
        (
            {
                "format": "referee-game/1",
                "game": "boulmous",
                "players": list("ABCD"),
                "deals": [[]],
            },
            "deal 1: the deal cannot be read",
            "donne 1\u202f: la donne\u202f: illisible",
        ),
    ],
    ids=["no-game", "a-deal-not-a-deal"],
)
def test_what_names_no_field_is_named_by_what_it_is(
    record: dict[str, object], english: str, french: str
) -> None:
    """A record without its game, a deal that is not one: said by what they are."""
    with pytest.raises(RulesError) as caught:
        standings(record)
    assert caught.value.messages("en")[0] == english
    assert caught.value.messages("fr")[0] == french
