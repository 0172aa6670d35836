"""What the JSON parser accepts but no record can hold: refused with a message, never a crash.

Each case here crashed `referee score` or `/import` before (a traceback, a 500): huge
numbers, exponent stakes, deep nesting, lone surrogates. Stakes are money as people
write it; a game has a length a table can reach; the record keeps currency, place, date.
"""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest

from referee.engine.cards import Suit
from referee.engine.errors import RulesError
from referee.engine.records import MAX_DEALS, dump_record, load_record, parse_record
from referee.games.pitch.rules import VARIANTS, Rules, judge_trick, parse_card, trump_order
from tests.engine.helpers import boulmous_record, hand, pitch_points, pitch_record

#: The message codes these tests raise (test_errors checks every code is tested).
CODES = {
    "number_too_long",
    "not_json_value",
    "duplicate_key",
    "too_deep",
    "file_text_unusable",
    "text_unusable",
    "stake_malformed",
    "stake_precision",
    "stake_not_positive",
    "stake_too_high",
    "deals_too_many",
    "currency_malformed",
    "date_malformed",
    "place_long",
    "place_malformed",
    "stake_per_unknown",
    "auction_dealer_four",
}


def _codes(text: str | bytes) -> list[str]:
    with pytest.raises(RulesError) as caught:
        load_record(text)
    for lang in ("en", "fr"):
        for line in caught.value.messages(lang):
            assert line.encode("utf-8")  # every message can be sent as it is
            assert len(line) < 300
    return [p.code for p in caught.value.problems]


def _record_text(**fields: Any) -> str:
    return json.dumps(boulmous_record([], **fields))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        pytest.param('{"format": ' + "9" * 5000 + "}", "number_too_long", id="5000-digit-int"),
        pytest.param('{"first_dealer": -' + "9" * 40 + "}", "number_too_long", id="long-negative"),
        pytest.param('{"x": 1' + "0" * 400 + ".5}", "number_too_long", id="long-float"),
        pytest.param('{"x": NaN}', "not_json_value", id="nan"),
        pytest.param('{"x": -Infinity}', "not_json_value", id="infinity"),
        pytest.param('{"x": 1e999}', "number_too_long", id="overflowing-float"),
        pytest.param('{"game": "a", "game": "b"}', "duplicate_key", id="duplicate-key"),
        pytest.param('{"deals": [{"x": 1, "x": 2}]}', "duplicate_key", id="duplicate-inner-key"),
        pytest.param("[" * 980 + "]" * 980, "too_deep", id="980-deep-list"),
        pytest.param('{"a":' * 500 + "1" + "}" * 500, "too_deep", id="500-deep-object"),
        pytest.param("[" * 100_000, "too_deep", id="100000-deep"),
        pytest.param('["\\ud800x"]', "file_text_unusable", id="lone-surrogate-anywhere"),
        pytest.param('{"\\udfff": 1}', "file_text_unusable", id="lone-surrogate-key"),
        pytest.param('["\\ufffe"]', "file_text_unusable", id="non-character"),
    ],
)
def test_what_json_reads_but_no_record_holds(text: str, code: str) -> None:
    assert _codes(text) == [code]


def test_a_name_with_a_lone_surrogate_is_refused_at_its_seat() -> None:
    record = boulmous_record([])
    record["players"][1] = "\ud800x"
    with pytest.raises(RulesError) as caught:
        parse_record(record)
    assert [(p.code, p.field) for p in caught.value.problems] == [("text_unusable", "players[1]")]


@pytest.mark.parametrize("name", ["A\nB", "A\tB", "\x00A", "A\x85"])
def test_a_name_holds_no_control_character(name: str) -> None:
    record = boulmous_record([])
    record["players"][0] = name
    with pytest.raises(RulesError) as caught:
        parse_record(record)
    assert caught.value.problems[0].code == "text_unusable"


def test_a_refusal_of_a_deep_value_is_short() -> None:
    deep: Any = 1
    for _ in range(7):
        deep = [deep]
    record = boulmous_record([{"taker": deep}])
    with pytest.raises(RulesError) as caught:
        parse_record(record)
    assert "[[[…]]]" in caught.value.messages("en")[0]


@pytest.mark.parametrize(
    "stake", ["0.50", "1", "2.5", "10000", "10000.00", "007", " 3.00 "], ids=str
)
def test_stakes_as_people_write_money(stake: str) -> None:
    record = load_record(_record_text(stake=stake))
    assert record.stake == Decimal(stake.strip())


@pytest.mark.parametrize(
    ("stake", "code"),
    [
        ("1E+1000000", "stake_malformed"),
        ("1E+26", "stake_malformed"),
        ("1e2", "stake_malformed"),
        ("1_0", "stake_malformed"),
        ("+1", "stake_malformed"),
        ("-1", "stake_malformed"),
        (".5", "stake_malformed"),
        ("5.", "stake_malformed"),
        ("0,50", "stake_malformed"),
        ("١٠", "stake_malformed"),
        ("NaN", "stake_malformed"),
        ("Infinity", "stake_malformed"),
        ("0x10", "stake_malformed"),
        ("0.505", "stake_precision"),
        ("0", "stake_not_positive"),
        ("0.00", "stake_not_positive"),
        ("10000.01", "stake_too_high"),
        ("1" + "0" * 8, "stake_too_high"),
        ("1" + "0" * 30, "stake_malformed"),
    ],
)
def test_stakes_refused(stake: str, code: str) -> None:
    assert _codes(_record_text(stake=stake)) == [code]


def test_the_stake_message_shows_the_expected_form() -> None:
    with pytest.raises(RulesError) as caught:
        load_record(_record_text(stake="1e2"))
    assert '"0.50"' in caught.value.messages("en")[0]
    assert "deux décimales" in caught.value.messages("fr")[0]


def test_a_game_has_a_length_a_table_can_reach() -> None:
    rules = {"target": 999}
    load_record(json.dumps(boulmous_record([{"passed": True}] * MAX_DEALS, rules=rules)))
    longer = boulmous_record([{"passed": True}] * (MAX_DEALS + 1), rules=rules)
    assert _codes(json.dumps(longer)) == ["deals_too_many"]


def test_currency_place_and_date_survive_a_round_trip() -> None:
    text = _record_text(currency="CHF", place="Café du Cours, Aix", date="2026-11-28")
    record = load_record(text)
    assert (record.currency, record.place, record.date) == (
        "CHF",
        "Café du Cours, Aix",
        datetime.date(2026, 11, 28),
    )
    dumped = dump_record(record)
    assert (dumped["currency"], dumped["place"], dumped["date"]) == (
        "CHF",
        "Café du Cours, Aix",
        "2026-11-28",
    )
    assert "currency" not in dump_record(load_record(_record_text()))


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"currency": "eur"}, "currency_malformed"),
        ({"currency": "EURO"}, "currency_malformed"),
        ({"currency": 978}, "currency_malformed"),
        ({"date": "2026-02-30"}, "date_malformed"),
        ({"date": "1/12/2026"}, "date_malformed"),
        ({"date": "２０２６-01-01"}, "date_malformed"),
        ({"place": "x" * 81}, "place_long"),
        ({"place": ["Aix"]}, "place_malformed"),
        ({"place": "Aix\nMarseille"}, "text_unusable"),
        ({"stake_per": "points"}, "stake_per_unknown"),
        ({"stake_per": "POINT"}, "stake_per_unknown"),
        ({"stake_per": 1}, "stake_per_unknown"),
        ({"stake_per": None}, "stake_per_unknown"),
    ],
)
def test_record_details_refused(fields: dict[str, Any], code: str) -> None:
    assert _codes(_record_text(**fields)) == [code]


def test_stakes_per_game_are_the_default_and_accepted() -> None:
    assert load_record(_record_text(stake="1", stake_per="game")).stake == Decimal(1)


# --- Pitch rulings revised on 2026-12-01 ------------------------------------------------

POINTS = pitch_points(ace=1, jack=3, off_jack=0, joker_high=1, joker_low=2, ten=3, three=1, two=0)


@pytest.mark.parametrize("call", [5, "moon"])
def test_a_stuck_dealer_takes_the_bid_at_four_nothing_else(call: int | str) -> None:
    # Dealer 0; the others (1, 2, 3) pass; the dealer is stuck at four.
    deal = hand(0, call, POINTS, auction=["pass", "pass", "pass", call])
    with pytest.raises(RulesError) as caught:
        load_record(json.dumps(pitch_record([deal])))
    problem = caught.value.problems[0]
    assert (problem.code, problem.field) == ("auction_dealer_four", "auction")
    assert "at 4" in problem.message("en")
    assert "à 4" in problem.message("fr")


def test_a_stuck_dealer_at_four_is_accepted() -> None:
    deal = hand(0, 4, POINTS, auction=["pass", "pass", "pass", 4])
    assert load_record(json.dumps(pitch_record([deal]))).deals[0].bid == 4


def test_a_dealer_may_overcall_when_someone_bid() -> None:
    deal = hand(0, 6, POINTS, auction=[5, "pass", "pass", 6])
    assert load_record(json.dumps(pitch_record([deal]))).deals[0].bid == 6


def _names(order: tuple[Any, ...]) -> list[str]:
    return [str(card) for card in order]


def test_reverse_keeps_off_cards_below_and_the_high_joker_above() -> None:
    order = _names(trump_order(Suit.HEARTS, VARIANTS[16], reverse=True))
    assert order == [
        "2♥", "2♦", "3♥", "3♦", "4♥", "5♥", "6♥", "7♥", "8♥", "9♥", "10♥", "10♦",
        "JK+", "JK-", "J♥", "J♦", "Q♥", "K♥", "A♥", "A♦",
    ]  # fmt: skip


def test_reverse_in_10_point() -> None:
    order = _names(trump_order(Suit.SPADES, VARIANTS[10], reverse=True))
    assert order[:2] == ["2♠", "3♠"]
    assert order[order.index("10♠") + 1 :][:4] == ["JK+", "JK-", "J♠", "J♣"]
    assert order[-1] == "A♠"


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ("JD JH", 1),  # the off-jack stays just below the jack
        ("JK- JK+", 1),  # the high joker stays above the low one
        ("AD AH", 1),  # the off-ace stays just below the ace: the lowest of all
        ("JK+ 10H", 1),  # reversed, the 10 is above the jokers
    ],
)
def test_reverse_trick_judge(cards: str, winner: int) -> None:
    plays = [(seat, parse_card(card)) for seat, card in enumerate(cards.split())]
    assert judge_trick(plays, Suit.HEARTS, Rules(points=16, reverse=True)).winner == winner
