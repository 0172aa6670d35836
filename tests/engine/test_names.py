"""Names that read alike (issue 37, item 7): a name is stored clean (NFC, no
invisible characters), two names that read the same are one name (refused as two
seats of a game, one person at a table and its evenings), and a name shown inside
other text is isolated so that no right-to-left override in it reorders the line."""

from __future__ import annotations

import unicodedata
from decimal import Decimal
from typing import Any

import pytest

from referee.engine.errors import RulesError
from referee.engine.evening import Sitting, settle_evening
from referee.engine.explain import Step
from referee.engine.explain import render as explain_render
from referee.engine.names import FSI, PDI, alike, clean, isolate, skeleton
from referee.engine.records import dump_record, parse_record, score_record
from referee.engine.tables import merged, people_of, reading
from tests.engine.helpers import boulmous_record, played

CYRILLIC_ANA = "\u0410na"  # А (Cyrillic capital A), then Latin "na"
ZWSP = "\u200b"
RLO = "\u202e"


def record(players: list[Any], deals: list[Any] | None = None, **fields: Any) -> dict[str, Any]:
    return boulmous_record(deals or [], players=players, **fields)


def refused(players: list[Any]) -> list[str]:
    with pytest.raises(RulesError) as caught:
        parse_record(record(players))
    return caught.value.messages("en")


# --- one game's seats ---------------------------------------------------------------


@pytest.mark.parametrize(
    "twin",
    [
        "Ana" + ZWSP,  # a zero-width space
        ZWSP + "Ana",
        CYRILLIC_ANA,
        "\u0391na",  # Greek capital alpha
        "ana",
        "ＡＮＡ",  # full-width letters
        "A\u00adna",  # a soft hyphen
        "Ana\ufeff",  # a byte-order mark
        "\u2066Ana\u2069",  # a left-to-right isolate around it
    ],
)
def test_two_seats_that_read_the_same_are_refused(twin: str) -> None:
    assert refused(["Ana", "Bruno", twin, "Driss"]) == [
        "Two players have the same name: Ana (seats 1 and 3)"
    ]


def test_the_refusal_is_in_french_too() -> None:
    with pytest.raises(RulesError) as caught:
        parse_record(record(["Ana", CYRILLIC_ANA, "Chloé", "Driss"]))
    assert caught.value.messages("fr") == [
        "Deux joueurs s’appellent pareil\u202f: Ana (places 1 et 2)"
    ]


def test_names_that_only_look_close_are_two_names() -> None:
    """Accents count, and so do letters some fonts draw alike (l and I, 0 and O)."""
    for names in (
        ["José", "Jose", "Chloé", "Driss"],
        ["Al", "AI", "Chloé", "Driss"],
        ["Zoé", "Zoe", "Zoë", "Driss"],
        ["Léo", "Leo", "Léa", "Lea"],
    ):
        assert parse_record(record(names)).players == tuple(names)


@pytest.mark.parametrize(
    "invisible",
    [ZWSP, ZWSP * 3, "\u200d", "\u2060", "\u3164", "\u202e", "\u00ad \u200b", "\u2800"],
)
def test_a_name_of_only_invisible_characters_is_refused(invisible: str) -> None:
    assert refused(["Ana", invisible, "Chloé", "Driss"]) == ["The player at seat 2 needs a name"]


def test_names_are_stored_clean() -> None:
    decomposed = "Chloe\u0301"  # e + combining acute: NFD
    parsed = parse_record(record(["Ana" + ZWSP, decomposed, f"{RLO}Driss", "Jean\u00a0 Paul"]))
    assert parsed.players == ("Ana", "Chloé", "Driss", "Jean Paul")
    assert all(unicodedata.is_normalized("NFC", name) for name in parsed.players)
    assert dump_record(parsed)["players"] == ["Ana", "Chloé", "Driss", "Jean Paul"]


def test_joiners_that_hold_a_name_together_are_kept() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one emoji, three people
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    persian = "\u0645\u06cc\u200c\u0631\u0648\u0645"  # a word with a ZWNJ inside
    names = [f"Ana {family}", england, persian, "Driss\u200d"]
    assert parse_record(record(names)).players == (f"Ana {family}", england, persian, "Driss")


def test_a_stored_game_with_names_that_read_the_same_still_opens() -> None:
    """A game kept before names were compared so (its rows, a backup) is read as it
    was: its seats stay four people; a new game with those names is refused."""
    names = ["Ana", "Ana" + ZWSP, CYRILLIC_ANA, ZWSP]
    data = record(names, [played(0, 4, [5, 1, 0, 0])])
    kept = parse_record(data, stored=True)
    assert kept.players == ("Ana", "Ana" + ZWSP, CYRILLIC_ANA, ZWSP)
    assert score_record(kept).scores[0] == 5
    with pytest.raises(RulesError):
        parse_record(data)


def test_a_stored_game_has_its_other_names_cleaned() -> None:
    kept = parse_record(record(["Ana" + ZWSP, "Bruno", "Chloe\u0301", "Driss"]), stored=True)
    assert kept.players == ("Ana", "Bruno", "Chloé", "Driss")


# --- the skeleton -------------------------------------------------------------------


def test_the_skeleton_reads_look_alikes_as_latin() -> None:
    assert skeleton("Аna") == skeleton("ana") == skeleton(" A\u200bNA ") == "ana"
    assert skeleton("Ρеtеr") == "peter"  # Greek Ρ, Cyrillic е
    assert skeleton("O’Neil") == skeleton("O'Neil")
    assert skeleton("Jean‐Paul") == skeleton("Jean-Paul")
    assert skeleton("Jose\u0301") == skeleton("José") != skeleton("Jose")
    assert skeleton("Ёлка") == skeleton("Ëлka")  # the accent stays on the look-alike


def test_alike_pairs_each_later_name_with_the_first() -> None:
    assert alike(["Ana", "Bruno", "аna", "ANA"]) == [(0, 2), (0, 3)]
    assert alike(["Ana", "Bruno"]) == []


def test_clean_keeps_a_plain_name_as_it_is() -> None:
    assert clean("  Ana  ") == "Ana"
    assert clean("Ana  Maria") == "Ana Maria"
    assert clean("Ana\u2028Maria") == "Ana Maria"


# --- isolation ----------------------------------------------------------------------


def test_a_left_to_right_name_is_shown_as_it_is() -> None:
    assert isolate("Ana") == "Ana"
    assert isolate("Chloé & Zoë 2") == "Chloé & Zoë 2"


def test_a_right_to_left_name_is_isolated() -> None:
    assert isolate("نور") == FSI + "نور" + PDI
    assert isolate("Ana" + RLO + "Bruno") == FSI + "Ana" + RLO + "Bruno\u202c" + PDI


def test_no_stray_control_reaches_past_the_isolate() -> None:
    """A closing isolate inside a name would close ours early: it is dropped."""
    shown = isolate(PDI + RLO + "Ana")
    assert shown == FSI + RLO + "Ana\u202c" + PDI
    assert isolate("a\u202bb\u2067c") == FSI + "a\u202bb\u2067c\u2069\u202c" + PDI


def test_a_message_isolates_the_names_it_holds() -> None:
    with pytest.raises(RulesError) as caught:
        parse_record(record(["نور", "ن\u200bور", "Chloé", "Driss"]))
    message = caught.value.messages("en")[0]
    assert message == f"Two players have the same name: {FSI}نور{PDI} (seats 1 and 2)"


def test_an_explanation_isolates_the_names_it_holds() -> None:
    step = Step("reaches", (0, 0), {"who": 1, "total": 21})
    players = ["Ana", f"{RLO}Bruno"]
    assert f"{FSI}{RLO}Bruno\u202c{PDI}" in explain_render(step, players, "en")


# --- a table's people and its evenings ----------------------------------------------

SEATINGS = [
    ("Ana", "Bruno", "Chloé", "Driss"),
    (CYRILLIC_ANA, "Bruno", "Chloé", "Driss" + ZWSP),
]


def test_a_table_reads_names_that_read_the_same_as_one_person() -> None:
    read = reading({}, SEATINGS)
    assert people_of(read, SEATINGS[1]) == ("Ana", "Bruno", "Chloé", "Driss")


def test_names_that_sat_at_one_game_stay_two_people() -> None:
    seatings = [("Ana", CYRILLIC_ANA, "Chloé", "Driss"), ("ana", "Bruno", "Chloé", "Driss")]
    read = reading({}, seatings)
    assert people_of(read, seatings[0]) == ("Ana", CYRILLIC_ANA, "Chloé", "Driss")
    assert people_of(read, seatings[1]) == ("Ana", "Bruno", "Chloé", "Driss")


def test_a_merge_follows_every_spelling_that_reads_the_same() -> None:
    seatings = [*SEATINGS, ("Anna", "Bruno", "Chloé", "Élodie")]
    aliases = merged({}, seatings, "Anna", CYRILLIC_ANA)
    read = reading(aliases, seatings)
    assert {people_of(read, seats)[0] for seats in seatings} == {"Ana"}


@pytest.mark.parametrize("name", [CYRILLIC_ANA, "Ana" + ZWSP, "ANA"])
def test_merging_two_names_that_read_the_same_is_refused(name: str) -> None:
    with pytest.raises(RulesError) as caught:
        merged({}, SEATINGS, name, "Ana")
    assert caught.value.messages("en") == ['"Ana" is one person already']


def test_merging_finds_a_person_by_a_spelling_that_reads_the_same() -> None:
    seatings = [*SEATINGS, ("Anna", "Bruno", "Chloé", "Élodie")]
    assert merged({}, seatings, "Аnnа", "Ana") == {"Anna": "Ana"}  # Cyrillic А, а


def test_an_evening_never_has_a_person_pay_their_look_alike() -> None:
    """Ana wins game 1, "Аna" (Cyrillic А) loses game 2 to Bruno: one person."""
    read = reading({}, SEATINGS)
    rules = {"target": 5}
    one = score_record(
        parse_record(
            record(list(SEATINGS[0]), [played(0, 4, [5, 1, 0, 0])], rules=rules, stake="1")
        )
    )
    two = score_record(
        parse_record(
            record(list(SEATINGS[1]), [played(1, 4, [1, 5, 0, 0])], rules=rules, stake="1")
        )
    )
    assert one.money is not None
    assert two.money is not None
    (settlement,) = settle_evening(
        [
            Sitting(people_of(read, SEATINGS[0]), one.money, "EUR"),
            Sitting(people_of(read, SEATINGS[1]), two.money, "EUR"),
        ]
    )
    assert settlement.people == ("Ana", "Bruno", "Chloé", "Driss")
    assert settlement.net_of("Ana") == Decimal(3) - Decimal(1)
    assert all(t.payer != t.payee for t in settlement.transfers)


def test_names_sort_as_a_reader_expects() -> None:
    """Accents and case aside: "Émile" between "Driss" and "Farid", not after "Zoé"."""
    from referee.engine.names import sort_key

    names = ["Zoé", "émile", "Hélène", "Ana", "Émile", "Driss", "Farid"]
    assert sorted(names, key=sort_key) == [
        "Ana",
        "Driss",
        "Émile",
        "émile",
        "Farid",
        "Hélène",
        "Zoé",
    ]
