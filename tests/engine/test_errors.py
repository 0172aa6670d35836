"""One test per error message: each bad record is refused naming its deal and field."""

from __future__ import annotations

import importlib
from pathlib import Path
from string import Formatter
from typing import Any

import pytest

from referee.engine.catalog import translate
from referee.engine.errors import Problem, RulesError
from referee.engine.messages import _PLURAL, MESSAGES, field_label, language, render
from referee.engine.records import load_record, parse_record
from referee.games import GAMES, PACKAGES
from tests.engine.helpers import PASSED, assert_refused, boulmous_record, played, standings

GOOD = played(2, 4, [1, 0, 4, 1])


def _with(**fields: Any) -> dict[str, Any]:
    return {**boulmous_record([GOOD]), **fields}


def _deal(deal: Any, first_dealer: int = 0) -> dict[str, Any]:
    return boulmous_record([deal], first_dealer=first_dealer)


def _without(key: str) -> dict[str, Any]:
    record = _with()
    del record[key]
    return record


# (id, record, code, field, deal, English message or None)
CASES: list[tuple[str, Any, str, str | None, int | None, str | None]] = [
    ("record-not-object", [1, 2], "record_not_object", None, None, None),
    (
        "unknown-top-field",
        _with(notes="x"),
        "unknown_field",
        "notes",
        None,
        'Referee does not know "notes" here',
    ),
    ("bad-format", _with(format="referee-game/2"), "format_unknown", "format", None, None),
    (
        "unknown-game",
        _with(game="rami"),
        "game_unknown",
        "game",
        None,
        f'Unknown game "rami"; known games: {", ".join(GAMES)}',
    ),
    ("players-not-list", _with(players="Ana"), "players_not_list", "players", None, None),
    (
        "three-players",
        _with(players=["A", "B", "C"]),
        "players_count",
        "players",
        None,
        "This game is played by 4 players, not 3",
    ),
    ("empty-name", _with(players=["A", " ", "C", "D"]), "player_name", "players[1]", None, None),
    (
        "long-name",
        _with(players=["A" * 41, "B", "C", "D"]),
        "player_name_long",
        "players[0]",
        None,
        None,
    ),
    (
        "same-name-twice",
        _with(players=["Ana", "Bruno", "ana", "D"]),
        "player_twice",
        "players",
        None,
        "Two players have the same name: Ana (seats 1 and 3)",
    ),
    (
        "first-dealer-seat",
        _with(first_dealer=4),
        "seat_unknown",
        "first_dealer",
        None,
        "First dealer names a player who is not at this table",
    ),
    ("first-dealer-text", _with(first_dealer="0"), "seat_not_integer", "first_dealer", None, None),
    ("rules-not-object", _with(rules=[]), "not_object", "rules", None, None),
    (
        "unknown-rule",
        _with(rules={"jokers": True}),
        "rule_unknown",
        "rules.jokers",
        None,
        'Unknown house rule "jokers"',
    ),
    (
        "target-text",
        _with(rules={"target": "21"}),
        "not_integer",
        "rules.target",
        None,
        'Target score must be a whole number, not "21"',
    ),
    ("target-zero", _with(rules={"target": 0}), "out_of_range", "rules.target", None, None),
    (
        "taker-scores-unknown",
        _with(rules={"taker_scores": "all"}),
        "unknown_choice",
        "rules.taker_scores",
        None,
        None,
    ),
    (
        "keeps-tricks-not-bool",
        _with(rules={"failed_taker_keeps_tricks": 1}),
        "not_boolean",
        "rules.failed_taker_keeps_tricks",
        None,
        None,
    ),
    ("stake-number", _with(stake=0.5), "stake_not_string", "stake", None, None),
    (
        "stake-words",
        _with(stake="five"),
        "stake_malformed",
        "stake",
        None,
        'The stake "five" is not an amount like "0.50" (digits, a point, two decimals at most)',
    ),
    ("stake-negative", _with(stake="-1"), "stake_malformed", "stake", None, None),
    ("stake-zero", _with(stake="0"), "stake_not_positive", "stake", None, None),
    ("stake-millis", _with(stake="0.125"), "stake_precision", "stake", None, None),
    ("deals-not-list", _with(deals={}), "deals_not_list", "deals", None, None),
    ("deals-too-many", _with(deals=[PASSED] * 10_001), "deals_too_many", "deals", None, None),
    ("deal-not-object", _deal(3), "not_object", None, 1, None),
    ("deal-unknown-field", _deal({**GOOD, "trump": "hearts"}), "unknown_field", "trump", 1, None),
    (
        "tricks-add-to-5",
        _deal(played(2, 4, [1, 0, 3, 1])),
        "tricks_total",
        "tricks",
        1,
        "deal 1: tricks add up to 5, a deal has 6",
    ),
    (
        "tricks-missing",
        _deal({k: v for k, v in GOOD.items() if k != "tricks"}),
        "missing",
        "tricks",
        1,
        None,
    ),
    ("tricks-not-list", _deal({**GOOD, "tricks": 6}), "not_counts", "tricks", 1, None),
    ("tricks-three-seats", _deal(played(2, 4, [2, 0, 4])), "counts_length", "tricks", 1, None),
    (
        "tricks-negative",
        _deal(played(2, 4, [-1, 2, 4, 1])),
        "count_range",
        "tricks",
        1,
        "deal 1: tricks of the player at seat 1: -1 is not a number from 0 to 6",
    ),
    (
        "bid-7",
        _deal(played(2, 7, [1, 0, 4, 1])),
        "bid_range",
        "bid",
        1,
        'deal 1: bid 7 is not a bid: 3 to 6 tricks, or "boulmous"',
    ),
    ("bid-2", _deal(played(2, 2, [1, 0, 4, 1])), "bid_range", "bid", 1, None),
    ("bid-true", _deal(played(2, True, [1, 0, 4, 1])), "bid_range", "bid", 1, None),
    (
        "bid-missing",
        _deal({k: v for k, v in GOOD.items() if k != "bid"}),
        "missing",
        "bid",
        1,
        "deal 1: bid is missing",
    ),
    (
        "taker-missing",
        _deal({k: v for k, v in GOOD.items() if k != "taker"}),
        "seat_missing",
        "taker",
        1,
        "deal 1: taker: choose a player",
    ),
    (
        "taker-seat-4",
        _deal(played(4, 4, [1, 0, 4, 1])),
        "seat_unknown",
        "taker",
        1,
        "deal 1: taker names a player who is not at this table",
    ),
    (
        "taker-left-empty",
        _deal({**played(2, 4, [1, 0, 4, 1]), "taker": None}),
        "seat_missing",
        "taker",
        1,
        "deal 1: taker: choose a player",
    ),
    (
        "unknown-contract",
        _deal(played(2, 4, [1, 0, 4, 1], "stars")),
        "unknown_choice",
        "contract",
        1,
        'deal 1: trump: "stars" is not one of: spades, hearts, diamonds, clubs, no trump',
    ),
    ("auction-not-list", _deal({**GOOD, "auction": "4"}), "auction_not_list", "auction", 1, None),
    (
        "auction-too-short",
        _deal({**GOOD, "auction": ["pass", 4]}),
        "auction_length",
        "auction",
        1,
        None,
    ),
    (
        "auction-bad-call",
        _deal({**GOOD, "auction": ["pass", "double", 4, "pass"]}),
        "bid_range",
        "auction[1]",
        1,
        None,
    ),
    (
        "auction-not-rising",
        _deal({**GOOD, "auction": [4, 4, "pass", "pass"]}),
        "auction_not_rising",
        "auction",
        1,
        "deal 1: call 2 of the auction, 4, does not rise above 4",
    ),
    (
        "auction-all-passed-but-taker",
        _deal({**GOOD, "auction": ["pass"] * 4}),
        "auction_all_passed",
        "auction",
        1,
        None,
    ),
    (
        "auction-ends-elsewhere",
        _deal({**GOOD, "auction": ["pass", 3, "pass", "pass"]}),
        "auction_bid",
        "auction",
        1,
        "deal 1: the auction ends at 3, but the bid is 4",
    ),
    (
        "auction-wrong-taker",
        _deal({**GOOD, "auction": ["pass", "pass", 4, "pass"]}),
        "auction_taker",
        "auction",
        1,
        "deal 1: the highest bid of the auction was made by Driss, not by the taker",
    ),
    ("passed-false", _deal({"passed": False}), "passed_not_true", "passed", 1, None),
    ("passed-with-taker", _deal({"passed": True, "taker": 1}), "unknown_field", "taker", 1, None),
    (
        "passed-with-a-bid",
        _deal({"passed": True, "auction": ["pass", 3, "pass", "pass"]}),
        "passed_with_bid",
        "auction",
        1,
        None,
    ),
    (
        "wrong-dealer",
        _deal({**GOOD, "dealer": 1}, first_dealer=2),
        "dealer_wrong",
        "dealer",
        1,
        "deal 1: the dealer is Chloé, not Bruno",
    ),
    (
        "after-win",
        boulmous_record([played(1, 4, [1, 5, 0, 0]), PASSED], rules={"target": 5}),
        "after_win",
        "deals",
        2,
        None,
    ),
]


@pytest.mark.parametrize(
    ("record", "code", "field", "deal", "english"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_refused(
    record: Any, code: str, field: str | None, deal: int | None, english: str | None
) -> None:
    assert_refused(record, code, field, deal, english)


JSON_CASES = [
    ("truncated", b'{"format": ', "bad_json"),
    ("latin-1", '{"players": ["Chloé"]}'.encode("latin-1"), "bad_encoding"),
    ("deep", b"[" * 100_000 + b"]" * 100_000, "too_deep"),
    ("huge", b" " * (1024 * 1024 + 1), "too_large"),
]


@pytest.mark.parametrize(
    ("text", "code"), [c[1:] for c in JSON_CASES], ids=[c[0] for c in JSON_CASES]
)
def test_unreadable_json(text: bytes, code: str) -> None:
    with pytest.raises(RulesError) as caught:
        load_record(text)
    assert caught.value.problems[0].code == code


def test_every_problem_of_a_deal_is_reported_at_once() -> None:
    deal = {"taker": 9, "bid": 8, "contract": "stars", "tricks": [1, 1, 1, 1]}
    with pytest.raises(RulesError) as caught:
        parse_record(_deal(deal))
    assert [p.code for p in caught.value.problems] == [
        "seat_unknown",
        "bid_range",
        "unknown_choice",
        "tricks_total",
    ]
    assert all(p.deal == 1 for p in caught.value.problems)


def test_problems_of_several_deals_are_all_reported() -> None:
    record = boulmous_record([played(0, 3, [1, 1, 1, 1]), PASSED, played(0, 9, [6, 0, 0, 0])])
    with pytest.raises(RulesError) as caught:
        parse_record(record)
    assert [(p.deal, p.code) for p in caught.value.problems] == [
        (1, "tricks_total"),
        (3, "bid_range"),
    ]


def test_french_message() -> None:
    with pytest.raises(RulesError) as caught:
        standings(_deal(played(2, 4, [1, 0, 3, 1])))
    assert caught.value.messages("fr") == [
        "donne 1\u202f: les levées font 5 au total, une donne en compte 6"
    ]


def test_long_values_are_cut_when_quoted() -> None:
    text = render("stake_malformed", "stake", {"value": "9" * 100}, None, "en")
    assert "…" in text
    assert len(text) < 140


def test_unquotable_value_falls_back_to_repr() -> None:
    assert "{1}" in render("unknown_field", None, {"value": {1}}, None, "en")


def test_field_labels() -> None:
    assert field_label("tricks[1]", "fr") == "levées"
    assert field_label("auction[2]", "en") == "auction"
    assert field_label("mystery", "fr") == "mystery"
    assert field_label(None, "fr") == ""


@pytest.mark.parametrize(
    ("locale", "lang"), [("fr_FR.UTF-8", "fr"), ("en-GB", "en"), ("de_DE", "en"), (None, "en")]
)
def test_language(locale: str | None, lang: str) -> None:
    assert language(locale) == lang


def test_rules_error_needs_a_problem() -> None:
    with pytest.raises(ValueError, match="at least one problem"):
        RulesError([])


def test_problem_at_deal_keeps_the_rest() -> None:
    p = Problem("missing", "bid").at_deal(4)
    assert (p.code, p.field, p.deal) == ("missing", "bid", 4)
    assert RulesError([Problem("missing", "bid")]).at_deal(2).deal == 2


def test_every_message_has_a_test() -> None:
    from tests.cli.test_judge import JUDGE_CODES
    from tests.engine.test_bombu import ERRORS as BOMBU_CASES
    from tests.engine.test_bombu import OTHER_CODES as BOMBU_CODES
    from tests.engine.test_boundaries import CODES as BOUNDARY_CODES
    from tests.engine.test_cards import CARD_CODES
    from tests.engine.test_pitch import ERRORS as PITCH_CASES
    from tests.engine.test_pitch import OTHER_CODES as PITCH_CODES
    from tests.engine.test_tables import TABLE_CODES
    from tests.events.test_draw import DRAW_CODES
    from tests.events.test_eventfile import EVENT_CODES
    from tests.events.test_prizes import PRIZE_CODES
    from tests.events.test_season import SEASON_CODES
    from tests.web.test_api import API_CODES
    from tests.web.test_concours import CONCOURS_CODES
    from tests.web.test_concours_afternoon import AFTERNOON_CODES
    from tests.web.test_concours_prints import PRINT_CODES

    tested = {c[2] for c in CASES} | {c[2] for c in JSON_CASES} | CARD_CODES
    tested |= {c[2] for c in BOMBU_CASES} | BOMBU_CODES
    tested |= {c[2] for c in PITCH_CASES} | PITCH_CODES | BOUNDARY_CODES | TABLE_CODES
    tested |= JUDGE_CODES | API_CODES | DRAW_CODES | EVENT_CODES | CONCOURS_CODES
    tested |= PRIZE_CODES | SEASON_CODES | PRINT_CODES | AFTERNOON_CODES
    # A game added as a package names the codes its own tests raise.
    for key in PACKAGES:
        if (Path(__file__).parents[1] / "games" / key / "test_rules.py").is_file():
            tested |= importlib.import_module(f"tests.games.{key}.test_rules").CODES
    assert set(MESSAGES) == tested


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_both_languages_take_the_same_placeholders(code: str) -> None:
    texts = (MESSAGES[code], translate("fr", MESSAGES[code]))
    english, french = (_PLURAL.sub(r"{\1}", text) for text in texts)
    assert french != MESSAGES[code]  # the catalogue has its French
    names = {name for _, name, _, _ in Formatter().parse(english) if name}
    assert names == {name for _, name, _, _ in Formatter().parse(french) if name}
    params = {name: 1 for name in names if name != "field"}
    assert render(code, "bid", params, 2, "fr").startswith("donne 2\u202f: ")


def test_a_house_rule_is_named_by_its_own_label() -> None:
    """A flag's problem names it with the label the new-game form shows (its one
    declaration), not with its record key."""
    record = {**boulmous_record([]), "rules": {"target": 0}}
    with pytest.raises(RulesError) as caught:
        parse_record(record)
    assert caught.value.messages("en") == ["Target score 0 is out of range: 1 to 999"]
    assert caught.value.messages("fr")[0].startswith("Score à atteindre 0")
