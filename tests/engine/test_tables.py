"""A table's people and its file (engine/tables.py): names, merging two names of one
person, and `referee-table/1` read back, refused whole when anything is wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest

from referee.engine.errors import RulesError
from referee.engine.records import dump_record, parse_record
from referee.engine.tables import (
    MAX_GAMES,
    TableGameError,
    dump_table,
    load_table,
    merged,
    name_problems,
    people_of,
    person_of,
    split,
)
from tests.engine.helpers import BOMBU_MANCHE, bombu_record, boulmous_record, played

#: The message codes these tests reach (tests/engine/test_errors.py checks them all).
TABLE_CODES = {
    "table_name",
    "table_name_long",
    "person_unknown",
    "person_same",
    "person_together",
    "table_not_object",
    "table_format",
    "table_field_unknown",
    "table_aliases",
    "table_games",
    "table_people",
}

SEATINGS = [
    ("Ana", "Bruno", "Chloé", "Driss"),
    ("Anna", "Bruno", "Chloé", "Élodie"),
    ("Zoé", "Bruno", "Chloé", "Driss"),
]


def codes(error: pytest.ExceptionInfo[RulesError]) -> list[str]:
    return [p.code for p in error.value.problems]


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("", "table_name"),
        ("   ", "table_name"),
        (None, "table_name"),
        ("x" * 81, "table_name_long"),
        ("Club\ndu mardi", "text_unusable"),
    ],
)
def test_a_name_is_one_line_of_80_characters_at_most(name: object, code: str) -> None:
    assert [p.code for p in name_problems(name)] == [code]


def test_a_good_name_has_no_problem() -> None:
    assert name_problems("  Les cousins  ") == []
    assert name_problems("x" * 80) == []


def test_merging_two_names_and_splitting_them_again() -> None:
    aliases = merged({}, SEATINGS, "Anna", "Ana")
    assert aliases == {"Anna": "Ana"}
    assert people_of(aliases, SEATINGS[1]) == ("Ana", "Bruno", "Chloé", "Élodie")
    # Merged again into another: every typed name follows (no chain is left).
    again = merged(aliases, SEATINGS, "Ana", "Zoé")
    assert again == {"Anna": "Zoé", "Ana": "Zoé"}
    assert person_of(again, "Anna") == "Zoé"
    assert split(again, "Anna") == {"Ana": "Zoé"}


@pytest.mark.parametrize(
    ("name", "into", "code", "english"),
    [
        ("Yann", "Ana", "person_unknown", 'Nobody called "Yann" has played at this table'),
        ("Ana", "Ana", "person_same", '"Ana" is one person already'),
        (
            "Ana",
            "Bruno",
            "person_together",
            "Ana and Bruno played in the same game: they are two people, not one",
        ),
    ],
)
def test_merges_that_cannot_be(name: str, into: str, code: str, english: str) -> None:
    with pytest.raises(RulesError) as caught:
        merged({}, SEATINGS, name, into)
    assert codes(caught) == [code]
    assert caught.value.messages("en") == [english]
    assert caught.value.messages("fr")[0] != english


def test_a_merge_counts_names_already_merged() -> None:
    """Anna is Ana: Ana and Élodie sat at the same game (as Anna and Élodie)."""
    with pytest.raises(RulesError) as caught:
        merged({"Anna": "Ana"}, SEATINGS, "Élodie", "Ana")
    assert codes(caught) == ["person_together"]


def table_file(**changes: Any) -> dict[str, Any]:
    games = [
        dump_record(parse_record(boulmous_record([played(0, 3, [3, 1, 1, 1])]))),
        dump_record(parse_record(bombu_record(BOMBU_MANCHE))),
    ]
    data = dump_table("Les cousins", {"Anna": "Ana"}, games)
    data.update(changes)
    return data


def test_the_file_reads_back_as_it_was_written() -> None:
    data = table_file()
    parsed = load_table(json.dumps(data))
    assert parsed.name == "Les cousins"
    assert parsed.aliases == {"Anna": "Ana"}
    assert [dump_record(g) for g in parsed.games] == data["games"]


def test_a_tables_people_read_back_and_are_optional() -> None:
    """The people named when the table was made (its first game's seats): written
    when there are some, read back cleaned; a file without them has none."""
    games = table_file()["games"]
    data = dump_table("Les voisins", {}, games, [" Ana ", "Bruno"])
    assert data["people"] == [" Ana ", "Bruno"]
    assert load_table(json.dumps(data)).people == ("Ana", "Bruno")
    assert "people" not in table_file()
    assert load_table(json.dumps(table_file())).people == ()


def test_alias_chains_read_as_their_last_person() -> None:
    parsed = load_table(json.dumps(table_file(aliases={"a": "b", "b": "c"})))
    assert parsed.aliases == {"a": "c", "b": "c"}


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "table_not_object"),
        ({"format": "referee-table/9"}, "table_format"),
        (table_file(extra=1), "table_field_unknown"),
        (table_file(name=""), "table_name"),
        (table_file(aliases=["Ana"]), "table_aliases"),
        (table_file(people="Ana"), "table_people"),
        (table_file(people=["Ana", 3]), "table_people"),
        (table_file(people=["Ana", "ana"]), "player_twice"),
        (table_file(aliases={"Ana": 3}), "table_aliases"),
        (table_file(aliases={"a": "b", "b": "a"}), "table_aliases"),
        (table_file(games={}), "table_games"),
        (table_file(games=[{}] * (MAX_GAMES + 1)), "table_games"),
    ],
)
def test_a_file_that_cannot_be_is_refused_whole(data: object, code: str) -> None:
    with pytest.raises(RulesError) as caught:
        load_table(json.dumps(data))
    assert codes(caught) == [code]
    assert caught.value.messages("fr")[0] != caught.value.messages("en")[0]


def test_a_bad_game_is_named_by_its_place_in_the_file() -> None:
    data = table_file()
    data["games"][1]["deals"][0]["tricks"] = [8, 8, 8, 8]
    with pytest.raises(TableGameError) as caught:
        load_table(json.dumps(data))
    assert caught.value.number == 2
    assert caught.value.error.problems[0].deal == 1


def test_a_file_of_bad_json_is_refused_as_a_record_is() -> None:
    with pytest.raises(RulesError) as caught:
        load_table(b"{")
    assert codes(caught) == ["bad_json"]
