"""Boulmous: hand-worked deals and games, one row per ruling and flag (docs/RULES.md)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from referee.engine.errors import RulesError
from referee.engine.game import MarkKind
from referee.engine.settlement import Transfer
from tests.engine.helpers import PASSED, boulmous_record, played, standings

# (id, rules, deal, expected deltas, expected marks as (kind, seat))
DEALS = [
    ("made-scores-tricks", {}, played(2, 4, [1, 0, 4, 1]), [1, 0, 4, 1], []),
    ("made-overtricks-count", {}, played(0, 3, [5, 1, 0, 0]), [5, 1, 0, 0], []),
    (
        "failed-minus-bid-and-boite",
        {},
        played(3, 5, [2, 0, 1, 3]),
        [2, 0, 1, -5],
        [("boite", 3)],
    ),
    (
        "flag-taker-scores-bid",
        {"taker_scores": "bid"},
        played(0, 3, [5, 1, 0, 0]),
        [3, 1, 0, 0],
        [],
    ),
    (
        "flag-taker-scores-bid-failed-unchanged",
        {"taker_scores": "bid"},
        played(0, 4, [3, 1, 1, 1]),
        [-4, 1, 1, 1],
        [("boite", 0)],
    ),
    (
        "flag-failed-taker-keeps-tricks",
        {"failed_taker_keeps_tricks": True},
        played(3, 5, [2, 0, 1, 3]),
        [2, 0, 1, -2],
        [("boite", 3)],
    ),
    (
        "boulmous-made",
        {},
        played(1, "boulmous", [0, 6, 0, 0], "no-trump"),
        [0, 6, 0, 0],
        [("boulmous-made", 1)],
    ),
    (
        "six-is-boulmous",
        {},
        played(1, 6, [0, 6, 0, 0], "spades"),
        [0, 6, 0, 0],
        [("boulmous-made", 1)],
    ),
    (
        "boulmous-failed-is-a-boite",
        {},
        played(1, "boulmous", [1, 5, 0, 0]),
        [1, -6, 0, 0],
        [("boite", 1), ("boulmous-failed", 1)],
    ),
    ("all-passed-void", {}, PASSED, [0, 0, 0, 0], [("void", None)]),
]


@pytest.mark.parametrize(
    ("rules", "deal", "deltas", "marks"),
    [row[1:] for row in DEALS],
    ids=[row[0] for row in DEALS],
)
def test_one_deal(
    rules: dict[str, Any], deal: dict[str, Any], deltas: list[int], marks: list[Any]
) -> None:
    result = standings(boulmous_record([deal], rules=rules))
    assert list(result.deals[0].deltas) == deltas
    assert [(m.kind.value, m.seat) for m in result.deals[0].marks] == marks
    assert list(result.scores) == deltas
    assert not result.finished


def test_dealer_passes_left_after_every_deal_void_included() -> None:
    record = boulmous_record(
        [PASSED, played(1, 3, [1, 3, 1, 1]), PASSED, {**PASSED, "dealer": 2}], first_dealer=3
    )
    result = standings(record)
    assert [d.dealer for d in result.deals] == [3, 0, 1, 2]
    assert result.next_dealer == 3


# Games to a small target, so each end-of-game ruling takes two or three deals.
GAMES = [
    (
        "taker-who-made-wins-over-a-higher-total",
        [played(1, 3, [1, 4, 1, 0]), played(0, 4, [4, 2, 0, 0])],
        [5, 6, 1, 0],
        [0],
    ),
    (
        "failed-taker-unique-highest-wins",
        [played(1, 4, [1, 4, 1, 0]), played(3, 4, [0, 2, 1, 3])],
        [1, 6, 2, -4],
        [1],
    ),
    (
        "tie-at-the-top-plays-on",
        [played(0, 3, [3, 3, 0, 0]), played(2, 5, [2, 2, 2, 0])],
        [5, 5, -5, 0],
        [],
    ),
    (
        "tie-then-void-still-plays-on",
        [played(0, 3, [3, 3, 0, 0]), played(2, 5, [2, 2, 2, 0]), PASSED],
        [5, 5, -5, 0],
        [],
    ),
    (
        "tie-broken-by-the-next-deal",
        [played(0, 3, [3, 3, 0, 0]), played(2, 5, [2, 2, 2, 0]), played(3, 3, [0, 1, 2, 3])],
        [5, 6, -3, 3],
        [1],
    ),
    (
        "taker-made-below-target-does-not-win",
        [played(1, 3, [1, 4, 1, 0]), played(2, 3, [1, 2, 3, 0])],
        [2, 6, 4, 0],
        [1],
    ),
]


@pytest.mark.parametrize(
    ("deals", "scores", "winners"), [g[1:] for g in GAMES], ids=[g[0] for g in GAMES]
)
def test_end_of_game(deals: list[Any], scores: list[int], winners: list[int]) -> None:
    result = standings(boulmous_record(deals, rules={"target": 5}))
    assert list(result.scores) == scores
    assert list(result.winners) == winners
    assert result.finished is bool(winners)
    assert (result.next_dealer is None) is bool(winners)
    if winners:
        assert (MarkKind.WIN, winners[0]) in [(m.kind, m.seat) for m in result.deals[-1].marks]


def test_default_target_is_21() -> None:
    deals = [played(0, 5, [5, 1, 0, 0])] * 4  # 20
    assert not standings(boulmous_record(deals)).finished
    assert standings(boulmous_record([*deals, played(0, 3, [3, 1, 1, 1])])).winners == (0,)


def test_no_deal_after_the_win() -> None:
    deals = [played(1, 4, [1, 5, 0, 0]), PASSED, PASSED]
    with pytest.raises(RulesError) as caught:
        standings(boulmous_record(deals, rules={"target": 5}))
    assert caught.value.deal == 2
    assert caught.value.field == "deals"
    assert caught.value.messages() == ["deal 2: the game was won at deal 1; no deal may follow"]


def _net(result: Any) -> list[str]:
    return [str(n) for n in result.money.net]


def test_money_winner_collects_one_stake_from_each() -> None:
    result = standings(
        boulmous_record([played(1, 4, [1, 5, 0, 0])], rules={"target": 5}, stake="1")
    )
    assert _net(result) == ["-1", "3", "-1", "-1"]
    assert len(result.money.transfers) == 3


def test_money_boulmous_made_paid_during_play() -> None:
    result = standings(boulmous_record([played(2, "boulmous", [0, 0, 6, 0])], stake="0.50"))
    assert not result.finished
    assert result.money.net == (
        Decimal("-0.50"),
        Decimal("-0.50"),
        Decimal("1.50"),
        Decimal("-0.50"),
    )


def test_money_failed_boulmous_pays_each_and_is_also_a_boite() -> None:
    deals = [
        played(0, "boulmous", [5, 1, 0, 0]),  # A -6, boîte; A pays 1 to each
        played(1, 5, [0, 6, 0, 0]),  # B 7
        played(1, 3, [0, 3, 3, 0]),  # B 10: wins
    ]
    result = standings(boulmous_record(deals, rules={"target": 10}, stake="1"))
    assert result.winners == (1,)
    assert result.extras["boites"] == (1, 0, 0, 0)
    # A: -3 (failed boulmous) -1 (winner) -1 (boîte) = -5; B: +1 +3 +1 = +5; C, D: +1 -1.
    assert _net(result) == ["-5", "5", "0", "0"]
    assert result.money.transfers == (Transfer(0, 1, Decimal(5)),)


def test_money_boites_paid_to_the_winner_only_at_the_end() -> None:
    deals = [played(3, 5, [2, 0, 1, 3]), played(3, 4, [2, 1, 0, 3])]
    unfinished = standings(boulmous_record(deals, stake="2"))
    assert unfinished.extras["boites"] == (0, 0, 0, 2)
    assert _net(unfinished) == ["0", "0", "0", "0"]
    assert unfinished.money.transfers == ()
    finished = standings(
        boulmous_record([*deals, played(0, 3, [5, 1, 0, 0])], rules={"target": 5}, stake="2")
    )
    # D pays 1 + 2 boîtes = 3 stakes; B and C 1 stake each: A +10.
    assert _net(finished) == ["10", "-2", "-2", "-6"]


def test_no_money_without_stake() -> None:
    assert standings(boulmous_record([played(1, 4, [1, 5, 0, 0])])).money is None


def test_boites_counted_per_player() -> None:
    deals = [played(0, 4, [3, 1, 1, 1]), played(2, 3, [2, 2, 2, 0]), played(0, 3, [2, 2, 1, 1])]
    assert standings(boulmous_record(deals)).extras["boites"] == (2, 0, 1, 0)


def test_auction_agreeing_with_the_deal_is_accepted() -> None:
    # Dealer 0: calls from seat 1, 2, 3, then 0.
    deal = {**played(2, 5, [0, 1, 5, 0]), "auction": [4, 5, "pass", "pass"]}
    result = standings(boulmous_record([deal]))
    assert result.scores == (0, 1, 5, 0)


def test_auction_with_boulmous() -> None:
    deal = {**played(0, "boulmous", [6, 0, 0, 0]), "auction": [3, "pass", "pass", "boulmous"]}
    assert standings(boulmous_record([deal])).scores == (6, 0, 0, 0)


def test_passed_deal_with_all_pass_auction() -> None:
    deal = {**PASSED, "auction": ["pass"] * 4}
    assert standings(boulmous_record([deal])).deals[0].deltas == (0, 0, 0, 0)
