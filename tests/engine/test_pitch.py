"""10-point Pitch: teams, every flag, every moon case, the nine variants, five-handed."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.cards import Card, Suit
from referee.engine.errors import RulesError
from referee.games.pitch.rules import (
    VARIANTS,
    Joker,
    Marks,
    Rules,
    judge_trick,
    parse_card,
    point_card,
    trump_order,
)
from tests.engine.helpers import assert_refused, hand, pitch_points, pitch_record, standings

# Team {0,2} takes ace, jack, ten, two (4 points); team {1,3} the off-jack, both
# jokers and the three (6 points).
SPLIT_4_6 = pitch_points(
    ace=0, jack=2, off_jack=1, joker_high=3, joker_low=1, ten=0, three=3, two=2
)
# Team {1,3} takes 7: ace, jack, joker_high, ten, three; team {0,2} 3.
EXAMPLE_7_3 = pitch_points(
    ace=1, jack=3, off_jack=0, joker_high=1, joker_low=2, ten=3, three=1, two=0
)

HANDS = [
    ("made-receives-the-bid", {}, hand(1, 5, EXAMPLE_7_3), [3, 5, 3, 5], []),
    ("set-loses-the-bid", {}, hand(0, 6, SPLIT_4_6), [-6, 6, -6, 6], [("set", 0)]),
    (
        "flag-bidder-scores-points",
        {"bidder_scores": "points"},
        hand(1, 5, EXAMPLE_7_3),
        [3, 7, 3, 7],
        [],
    ),
    (
        "flag-defenders-do-not-score",
        {"defenders_score": False},
        hand(1, 5, EXAMPLE_7_3),
        [0, 5, 0, 5],
        [],
    ),
    ("dead-card-scores-nobody", {}, hand(2, 4, {**SPLIT_4_6, "three": None}), [4, 3, 4, 3], []),
    ("negative-score-allowed", {}, hand(3, 10, SPLIT_4_6), [4, -10, 4, -10], [("set", 3)]),
    (
        "moon-from-zero-jumps-to-target",
        {},
        hand(0, "moon", pitch_points(default=2)),
        [52, 0, 52, 0],
        [("moon-made", 0), ("win", 0), ("win", 2)],
    ),
    (
        "moon-target-flag",
        {"target": 21},
        hand(1, "moon", pitch_points(default=3)),
        [0, 21, 0, 21],
        [("moon-made", 1), ("win", 1), ("win", 3)],
    ),
    (
        "failed-moon-loses-the-game",
        {},
        hand(1, "moon", pitch_points(default=1, two=0)),
        [0, 0, 0, 0],
        [("moon-failed", 1), ("win", 0), ("win", 2)],
    ),
    (
        "dead-card-makes-the-moon-fail",
        {},
        hand(1, "moon", pitch_points(default=1, ten=None)),
        [0, 0, 0, 0],
        [("moon-failed", 1), ("win", 0), ("win", 2)],
    ),
]


@pytest.mark.parametrize(
    ("rules", "deal", "deltas", "marks"), [h[1:] for h in HANDS], ids=[h[0] for h in HANDS]
)
def test_one_hand(
    rules: dict[str, Any], deal: dict[str, Any], deltas: list[int], marks: list[Any]
) -> None:
    result = standings(pitch_record([deal], rules=rules))
    assert list(result.deals[0].deltas) == deltas
    assert [(m.kind.value, m.seat) for m in result.deals[0].marks] == marks
    assert result.finished is any(kind == "win" for kind, _ in marks)


def test_moon_from_positive_score(examples_dir: Any) -> None:
    deals = [hand(1, 5, EXAMPLE_7_3), hand(3, "moon", pitch_points(default=3))]
    result = standings(pitch_record(deals))
    assert list(result.scores) == [3, 52, 3, 52]
    assert result.winners == (1, 3)


def test_moon_from_below_zero_lifts_to_zero() -> None:
    deals = [hand(0, 6, SPLIT_4_6), hand(2, "moon", pitch_points(default=0))]
    result = standings(pitch_record(deals))
    assert list(result.deals[1].deltas) == [6, 0, 6, 0]
    assert list(result.scores) == [0, 6, 0, 6]
    assert not result.finished
    assert result.next_dealer == 2


def test_both_teams_over_the_target_bidders_made() -> None:
    result = standings(pitch_record([hand(1, 4, SPLIT_4_6)], rules={"target": 4}))
    assert list(result.scores) == [4, 4, 4, 4]
    assert result.winners == (1, 3)


def test_bidders_set_defenders_reach_the_target() -> None:
    result = standings(pitch_record([hand(1, 7, SPLIT_4_6)], rules={"target": 4}))
    assert list(result.scores) == [4, -7, 4, -7]
    assert result.winners == (0, 2)


def test_first_to_52_wins_and_nothing_follows() -> None:
    deals = [hand(1, 5, EXAMPLE_7_3)] * 10  # team {1,3} +5 a hand: 50, then 55
    result = standings(pitch_record(deals[:10]))
    assert list(result.scores) == [30, 50, 30, 50]
    assert not result.finished
    final = standings(pitch_record([*deals, hand(1, 5, EXAMPLE_7_3)]))
    assert final.winners == (1, 3)
    with pytest.raises(RulesError) as caught:
        standings(pitch_record([*deals, hand(1, 5, EXAMPLE_7_3), hand(2, 4, SPLIT_4_6)]))
    assert caught.value.problems[0].code == "after_win"
    assert caught.value.deal == 12


def test_dealer_passes_left() -> None:
    deals = [hand(1, 5, EXAMPLE_7_3), {**hand(1, 5, EXAMPLE_7_3), "dealer": 3}]
    result = standings(pitch_record(deals, first_dealer=2))
    assert [d.dealer for d in result.deals] == [2, 3]
    assert result.next_dealer == 0


@pytest.mark.parametrize("total", sorted(VARIANTS))
def test_each_variant_totals(total: int) -> None:
    variant = VARIANTS[total]
    assert sum(card.value_in_points for card in variant.points) == total
    # Every point to team {0,2}, who bid 4: they receive 4 (or all under "points").
    deal = hand(0, 4, pitch_points(total, default=2))
    result = standings(pitch_record([deal], rules={"points": total, "bidder_scores": "points"}))
    assert list(result.deals[0].deltas) == [total, 0, total, 0]


def test_variant_cards() -> None:
    assert "joker_high" not in {c.value for c in VARIANTS[5].points}
    assert not VARIANTS[5].jokers
    assert "three" not in {c.value for c in VARIANTS[7].points}
    assert "off_three" in {c.value for c in VARIANTS[11].points}
    assert "off_two" not in {c.value for c in VARIANTS[15].points}
    assert len(VARIANTS[16].points) == 12


def test_moon_in_a_variant_needs_all_its_points() -> None:
    deal = hand(0, "moon", pitch_points(5, default=2))
    result = standings(pitch_record([deal], rules={"points": 5}))
    assert result.winners == (0, 2)


class TestFiveHanded:
    """Five players, per-player scores, a called partner for each hand."""

    def test_made_with_partner(self) -> None:
        deal = hand(0, 5, pitch_points(default=3, ace=1, jack=2, ten=4), partner=3)
        result = standings(pitch_record([deal], five=True))
        # Bidding side {0,3}: 7 points, receives 5 each; defenders took 3: 3 each.
        assert list(result.deals[0].deltas) == [5, 3, 3, 5, 3]

    def test_set_alone(self) -> None:
        # Alone (the called card was in the blind): seat 0 takes 6 points of a bid of 7.
        deal = hand(0, 7, pitch_points(default=0, ace=1, jack=2, ten=4, two=4), partner=None)
        result = standings(pitch_record([deal], five=True))
        # Each of the four defenders scores the 4 points the defenders took.
        assert list(result.deals[0].deltas) == [-7, 4, 4, 4, 4]
        assert [(m.kind, m.seat) for m in result.deals[0].marks] == [(Marks.SET, 0)]

    def test_moon_made_lifts_each_by_own_score(self) -> None:
        deals = [
            hand(1, 6, pitch_points(default=0), partner=None),  # 0 gets 10 as defender, 1 set
            hand(4, "moon", pitch_points(default=1), partner=1),
        ]
        result = standings(pitch_record(deals, five=True))
        # Before the moon: [10, -6, 10, 10, 10]. Seat 1 was below zero: to 0; seat 4 to 52.
        assert list(result.deals[1].deltas) == [0, 6, 0, 0, 42]
        assert result.winners == (4,)

    def test_moon_failed_best_defenders_share_the_win(self) -> None:
        deals = [
            hand(0, 4, pitch_points(default=0, three=2), partner=1),  # 0,1: +4; 2,3,4: +3
            hand(3, 4, pitch_points(default=3, ace=2, jack=2), partner=4),  # 3,4 +4; 0,1,2 +2
            hand(1, "moon", pitch_points(default=1, two=2), partner=0),
        ]
        result = standings(pitch_record(deals, five=True))
        assert list(result.scores) == [6, 6, 5, 7, 7]
        assert result.winners == (3, 4)

    def test_bidder_goes_out_first_then_partner(self) -> None:
        deal = hand(0, 4, pitch_points(default=0), partner=2)
        result = standings(pitch_record([deal], five=True, rules={"target": 4}))
        assert result.winners == (0,)

    def test_tie_among_defenders_plays_on(self) -> None:
        deal = hand(0, 10, pitch_points(default=1, ace=3, jack=3, ten=3), partner=4)
        result = standings(pitch_record([deal], five=True, rules={"target": 5}))
        # Defenders 1, 2, 3 took 10 points between them: each scores 10; the bidders set.
        assert list(result.scores) == [-10, 10, 10, 10, -10]
        assert result.winners == ()
        assert not result.finished

    def test_unique_highest_wins_when_the_bidders_are_set(self) -> None:
        deals = [
            hand(0, 4, pitch_points(default=0), partner=1),  # 0,1 +4
            hand(2, 10, pitch_points(default=0), partner=3, dealer=1),  # 0,1,4 +10; 2,3 -10
        ]
        result = standings(pitch_record(deals, five=True, rules={"target": 12}))
        assert list(result.scores) == [14, 14, -10, -10, 10]
        assert result.winners == ()  # 0 and 1 tie at the top


@given(st.data())
def test_property_sides_plus_dead_make_the_total(data: st.DataObject) -> None:
    total = data.draw(st.sampled_from(sorted(VARIANTS)))
    five = data.draw(st.booleans())
    players = 5 if five else 4
    won = {
        card.value: data.draw(st.one_of(st.none(), st.integers(0, players - 1)))
        for card in VARIANTS[total].points
    }
    extra = {"partner": data.draw(st.one_of(st.none(), st.integers(1, 4)))} if five else {}
    deal = hand(0, 4, won, **extra)
    rules = {"points": total, "bidder_scores": "points", "target": 999}
    result = standings(pitch_record([deal], five=five, rules=rules))
    side = {0, 2} if not five else {0} | ({extra["partner"]} if extra["partner"] else set())
    side_points = sum(
        VARIANTS[total].points[i].value_in_points for i, s in enumerate(won.values()) if s in side
    )
    defender_points = sum(
        VARIANTS[total].points[i].value_in_points
        for i, s in enumerate(won.values())
        if s is not None and s not in side
    )
    dead = sum(
        VARIANTS[total].points[i].value_in_points for i, s in enumerate(won.values()) if s is None
    )
    assert side_points + defender_points + dead == total
    deltas = result.deals[0].deltas
    defender = next(seat for seat in range(players) if seat not in side)
    assert deltas[defender] == defender_points
    assert deltas[0] == (side_points if side_points >= 4 else -4)


def test_auction_checked() -> None:
    # Dealer 0: calls from seat 1, 2, 3, then the dealer.
    deal = {**hand(2, "moon", pitch_points(default=2)), "auction": [5, "moon", "pass", "pass"]}
    assert standings(pitch_record([deal])).winners == (0, 2)
    stuck = {**hand(0, 4, SPLIT_4_6), "auction": ["pass", "pass", "pass", 4]}
    assert standings(pitch_record([stuck])).scores == (4, 6, 4, 6)


def test_record_round_trip() -> None:
    from referee.engine.records import dump_record, parse_record

    deals = [
        {**hand(0, 5, pitch_points(default=3), partner=None), "dealer": 0},
        {
            **hand(1, "moon", pitch_points(default=1), partner=3),
            "auction": ["moon", "pass", "pass", "pass", "pass"],
        },
    ]
    record = parse_record(pitch_record(deals, five=True))
    dumped = dump_record(record)
    assert dumped["deals"][0]["partner"] is None
    assert dumped["deals"][1]["bid"] == "moon"
    assert dumped["deals"][1]["auction"][0] == "moon"
    assert parse_record(dumped) == record
    four = dump_record(parse_record(pitch_record([hand(1, 5, EXAMPLE_7_3)])))
    assert "partner" not in four["deals"][0]
    assert four["rules"] == {
        "points": 10,
        "bidder_scores": "bid",
        "defenders_score": True,
        "target": 52,
        "reverse": False,
        "dirty": False,
    }


def test_stake_each_loser_pays_each_winner() -> None:
    result = standings(pitch_record([hand(0, "moon", pitch_points(default=2))], stake="1"))
    assert result.money is not None
    assert [str(n) for n in result.money.net] == ["2", "-2", "2", "-2"]
    assert len(result.money.transfers) == 2


def _deal(deal: Any, five: bool = False, **fields: Any) -> dict[str, Any]:
    return pitch_record([deal], five=five, **fields)


GOOD = hand(1, 5, EXAMPLE_7_3)

ERRORS: list[tuple[str, Any, str, str | None, int | None, str | None]] = [
    (
        "variant-9",
        _deal(GOOD, rules={"points": 9}),
        "pitch_variant",
        "rules.points",
        None,
        "9-point pitch does not exist; the variants are 5, 7, 8, 10, 11, 13, 14, 15, 16",
    ),
    (
        "bid-3",
        _deal(hand(1, 3, EXAMPLE_7_3)),
        "pitch_bid_range",
        "bid",
        1,
        'deal 1: bid 3 is not a bid: 4 to 10, or "moon"',
    ),
    (
        "bid-above-total",
        _deal(hand(1, 6, pitch_points(5, default=1)), rules={"points": 5}),
        "pitch_bid_range",
        "bid",
        1,
        'deal 1: bid 6 is not a bid: 4 to 5, or "moon"',
    ),
    (
        "bid-missing",
        _deal({k: v for k, v in GOOD.items() if k != "bid"}),
        "missing",
        "bid",
        1,
        None,
    ),
    (
        "trump-no-trump",
        _deal(hand(1, 5, EXAMPLE_7_3, trump="no-trump")),
        "unknown_choice",
        "trump",
        1,
        None,
    ),
    (
        "point-missing",
        _deal(hand(1, 5, {k: v for k, v in EXAMPLE_7_3.items() if k != "two"})),
        "point_missing",
        "points.two",
        1,
        'deal 1: who won the two? Choose the player, or "Dead" if it was burned or thrown away',
    ),
    (
        "joker-in-5-point",
        _deal(hand(1, 4, {**pitch_points(5), "joker_high": 1}), rules={"points": 5}),
        "point_not_in_variant",
        "points.joker_high",
        1,
        "deal 1: the high joker is not a point card in 5-point pitch",
    ),
    (
        "unknown-point-card",
        _deal(hand(1, 5, {**EXAMPLE_7_3, "king": 1})),
        "unknown_field",
        "points.king",
        1,
        None,
    ),
    ("points-not-object", _deal(hand(1, 5, [1, 2])), "not_object", "points", 1, None),
    (
        "points-missing",
        _deal({k: v for k, v in GOOD.items() if k != "points"}),
        "missing",
        "points",
        1,
        None,
    ),
    (
        "point-seat-4-of-4",
        _deal(hand(1, 5, {**EXAMPLE_7_3, "ace": 4})),
        "seat_unknown",
        "points.ace",
        1,
        None,
    ),
    ("deal-not-object", _deal("hand"), "not_object", None, 1, None),
    ("bidder-seat", _deal(hand(7, 5, EXAMPLE_7_3)), "seat_unknown", "bidder", 1, None),
    (
        "partner-four-handed",
        _deal({**GOOD, "partner": 3}),
        "partner_four_handed",
        "partner",
        1,
        "deal 1: a four-handed game has no called partner: partners sit opposite",
    ),
    (
        "partner-is-bidder",
        _deal({**GOOD, "partner": 1}, five=True),
        "partner_is_bidder",
        "partner",
        1,
        "deal 1: Rhonda, the bidder, cannot be his own partner",
    ),
    ("partner-missing-five", _deal(GOOD, five=True), "missing", "partner", 1, None),
    (
        "partner-seat-5",
        _deal({**GOOD, "partner": 5}, five=True),
        "seat_unknown",
        "partner",
        1,
        None,
    ),
    (
        "auction-dealer-passed",
        _deal({**GOOD, "auction": ["pass"] * 4}),
        "auction_dealer_stuck",
        "auction",
        1,
        "deal 1: everyone else passed, so the dealer must bid",
    ),
    (
        "auction-above-moon",
        _deal({**GOOD, "auction": ["moon", 5, "pass", "pass"]}),
        "auction_not_rising",
        "auction",
        1,
        None,
    ),
    (
        "auction-bid-4-min",
        _deal({**GOOD, "auction": [3, 5, "pass", "pass"]}),
        "pitch_bid_range",
        "auction[0]",
        1,
        None,
    ),
    (
        "auction-ends-elsewhere",
        _deal({**GOOD, "auction": [4, "pass", "pass", "pass"]}),
        "auction_bid",
        "auction",
        1,
        None,
    ),
    (
        "auction-wrong-bidder",
        _deal({**GOOD, "auction": ["pass", 5, "pass", "pass"]}),
        "auction_bidder",
        "auction",
        1,
        "deal 1: the highest bid of the auction was made by Earl, not by the bidder",
    ),
    ("wrong-dealer", _deal({**GOOD, "dealer": 2}), "dealer_wrong", "dealer", 1, None),
    (
        "six-players",
        pitch_record([], players=["a", "b", "c", "d", "e", "f"]),
        "players_count",
        "players",
        None,
        "This game is played by 4 or 5 players, not 6",
    ),
    (
        "unknown-flag",
        _deal(GOOD, rules={"jokers": False}),
        "rule_unknown",
        "rules.jokers",
        None,
        None,
    ),
]

OTHER_CODES = {"card_not_trump"}


@pytest.mark.parametrize(
    ("record", "code", "field", "deal", "english"),
    [c[1:] for c in ERRORS],
    ids=[c[0] for c in ERRORS],
)
def test_refused(
    record: Any, code: str, field: str | None, deal: int | None, english: str | None
) -> None:
    assert_refused(record, code, field, deal, english)


def test_broken_rules_report_only_the_rules() -> None:
    with pytest.raises(RulesError) as caught:
        standings(_deal(hand(1, 12, EXAMPLE_7_3), rules={"points": 9}))
    assert [p.code for p in caught.value.problems] == ["pitch_variant"]


class TestTrickJudge:
    """Trumps only: the off-jack, both jokers, off cards, reverse and dirty."""

    def plays(self, text: str) -> list[tuple[int, Any]]:
        return [(seat, parse_card(card)) for seat, card in enumerate(text.split())]

    def test_order_in_10_point(self) -> None:
        order = [str(c) for c in trump_order(Suit.HEARTS, VARIANTS[10])]
        assert order[:8] == ["A♥", "K♥", "Q♥", "J♥", "J♦", "JK+", "JK-", "10♥"]
        assert order[-1] == "2♥"

    def test_off_cards_rank_just_below_their_counterparts(self) -> None:
        order = [str(c) for c in trump_order(Suit.SPADES, VARIANTS[16])]
        assert order[:2] == ["A♠", "A♣"]
        assert order[order.index("10♠") + 1] == "10♣"
        assert order[-4:] == ["3♠", "3♣", "2♠", "2♣"]
        assert "JK+" not in [str(c) for c in trump_order(Suit.SPADES, VARIANTS[14])]

    def test_highest_trump_wins_and_takes_the_points(self) -> None:
        result = judge_trick(self.plays("10H JD JK- 3H"), Suit.HEARTS, Rules())
        assert result.winner == 1  # the off-jack beats the jokers and the ten
        assert dict(result.points) == {"ten": 1, "off_jack": 1, "joker_low": 1, "three": 1}

    def test_the_two_stays_with_its_player(self) -> None:
        result = judge_trick(self.plays("2H AH"), Suit.HEARTS, Rules())
        assert result.winner == 1
        assert dict(result.points) == {"two": 0, "ace": 1}

    def test_dirty_two_is_won_like_any_card(self) -> None:
        result = judge_trick(self.plays("2H AH"), Suit.HEARTS, Rules(dirty=True))
        assert dict(result.points) == {"two": 1, "ace": 1}

    def test_reverse_hierarchy(self) -> None:
        result = judge_trick(self.plays("AH 2H KH"), Suit.HEARTS, Rules(reverse=True))
        assert result.winner == 1

    def test_seven_point_three_scores_nothing(self) -> None:
        result = judge_trick(self.plays("3C AC"), Suit.CLUBS, Rules(points=7))
        assert dict(result.points) == {"ace": 1}

    @pytest.mark.parametrize(
        ("rules", "text", "code"),
        [
            (Rules(), "KH 9S", "card_not_trump"),
            (Rules(points=5), "KH JK+", "card_not_in_deck"),
            (Rules(), "KH KH", "card_twice"),
            (Rules(), "", "trick_empty"),
            (Rules(), "AH KH QH JH 10H", "trick_too_long"),
        ],
    )
    def test_bad_tricks(self, rules: Rules, text: str, code: str) -> None:
        with pytest.raises(RulesError) as caught:
            judge_trick(self.plays(text), Suit.HEARTS, rules)
        assert caught.value.problems[0].code == code

    def test_point_cards_of_a_variant(self) -> None:
        assert point_card(Card.parse("KS"), Suit.HEARTS, VARIANTS[16]) is None
        assert point_card(Card.parse("AD"), Suit.HEARTS, VARIANTS[10]) is None
        assert point_card(Card.parse("AD"), Suit.HEARTS, VARIANTS[16]) == "off_ace"
        assert point_card(Joker.HIGH, Suit.HEARTS, VARIANTS[8]) is None

    def test_joker_notation(self) -> None:
        assert parse_card("jk+") is Joker.HIGH
        assert parse_card("JOKER−") is Joker.LOW
        assert parse_card("QS") == Card.parse("QS")
        assert str(Joker.LOW) == "JK-"
