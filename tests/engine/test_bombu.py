"""Bombu provençal: contracts, capots, the manche structure, the Réussite, the trick judge."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.cards import Card, parse_cards
from referee.engine.errors import RulesError
from referee.engine.records import parse_record, score_record, standings_json
from referee.games.bombu.rules import Contract, Layout, Marks, check_play, legal_plays, trick_winner
from tests.engine.helpers import BOMBU_MANCHE, assert_refused, bombu_record, standings
from tests.engine.strategies import bombu_manche, real_salad

# (id, deal, deltas, capot seat or None)
DEALS = [
    ("no-tricks", {"contract": "no-tricks", "tricks": [1, 3, 2, 2]}, [10, 30, 20, 20], None),
    ("no-tricks-capot", {"contract": "no-tricks", "tricks": [0, 8, 0, 0]}, [0, -320, 0, 0], 1),
    ("no-hearts", {"contract": "no-hearts", "hearts": [3, 0, 4, 1]}, [30, 0, 40, 10], None),
    (
        "no-hearts-all-eight-is-no-capot",
        {"contract": "no-hearts", "hearts": [8, 0, 0, 0]},
        [80, 0, 0, 0],
        None,
    ),
    ("no-queens", {"contract": "no-queens", "queens": [0, 2, 1, 1]}, [0, 40, 20, 20], None),
    ("no-bombu", {"contract": "no-bombu", "bombu": 2}, [0, 0, 80, 0], None),
    (
        "salad-adds-all-four",
        {
            "contract": "salad",
            "tricks": [2, 3, 1, 2],
            "hearts": [2, 3, 0, 3],
            "queens": [1, 2, 0, 1],
            "bombu": 3,
        },
        [60, 100, 10, 150],
        None,
    ),
    (
        "salad-seed-example-130",
        # "Un pli contenant 2 cœurs, une dame de pique et le roi de cœur rapporte
        # 10 + 20 + 20 + 80 = 130": the K♥ is one of the 2 hearts (see docs/RULES.md).
        {
            "contract": "salad",
            "tricks": [1, 3, 2, 2],
            "hearts": [2, 2, 2, 2],
            "queens": [1, 1, 1, 1],
            "bombu": 0,
        },
        [130, 70, 60, 60],
        None,
    ),
    (
        "salad-only-one-player-can-hold-the-queen-of-hearts",
        {
            "contract": "salad",
            "tricks": [2, 1, 3, 2],
            "hearts": [1, 2, 3, 2],
            "queens": [1, 3, 0, 0],
            "bombu": 2,
        },
        [50, 90, 140, 40],
        None,
    ),
    (
        "salad-capot-counts-left-out",
        {"contract": "salad", "tricks": [0, 0, 8, 0]},
        [0, 0, -320, 0],
        2,
    ),
    (
        "salad-capot-with-counts",
        {
            "contract": "salad",
            "tricks": [8, 0, 0, 0],
            "hearts": [8, 0, 0, 0],
            "queens": [4, 0, 0, 0],
            "bombu": 0,
        },
        [-320, 0, 0, 0],
        0,
    ),
    ("reussite-four", {"contract": "reussite", "finish": [1, 3, 0, 2]}, [0, -200, 0, -120], None),
    ("reussite-first-two", {"contract": "reussite", "finish": [2, 0]}, [-120, 0, -200, 0], None),
]


@pytest.mark.parametrize(
    ("deal", "deltas", "capot"), [d[1:] for d in DEALS], ids=[d[0] for d in DEALS]
)
def test_one_deal(deal: dict[str, Any], deltas: list[int], capot: int | None) -> None:
    result = standings(bombu_record([deal]))
    assert list(result.deals[0].deltas) == deltas
    marks = [(m.kind, m.seat) for m in result.deals[0].marks]
    assert marks == ([] if capot is None else [(Marks.CAPOT, capot)])


def test_first_manche_then_the_dealer_passes_right() -> None:
    result = standings(bombu_record(BOMBU_MANCHE, first_dealer=1))
    assert list(result.scores) == [100, -30, 170, 80]
    assert [d.dealer for d in result.deals] == [1] * 6
    assert result.next_dealer == 0  # the previous dealer's right: 1 - 1
    assert result.extras["manche"] == 2
    assert result.extras["contracts_left"] == tuple(c.value for c in Contract)


def test_standings_offer_only_the_contracts_left() -> None:
    result = standings(bombu_record(BOMBU_MANCHE[:2]))
    assert result.extras["manche"] == 1
    assert result.next_dealer == 0
    assert result.extras["contracts_left"] == ("no-queens", "no-bombu", "salad", "reussite")
    out = standings_json(result)
    assert out["manche"] == 1
    assert out["contracts_left"] == ["no-queens", "no-bombu", "salad", "reussite"]


def test_fixed_order_offers_only_the_next_contract() -> None:
    result = standings(bombu_record(BOMBU_MANCHE[:2], rules={"contract_order": "fixed"}))
    assert result.extras["contracts_left"] == ("no-queens",)


def test_any_order_in_a_manche() -> None:
    deals = list(reversed(BOMBU_MANCHE))
    assert list(standings(bombu_record(deals)).scores) == [100, -30, 170, 80]


def test_full_game_lowest_total_wins() -> None:
    result = standings(bombu_record(BOMBU_MANCHE * 4, first_dealer=2))
    assert result.finished
    assert list(result.scores) == [400, -120, 680, 320]
    assert result.winners == (1,)
    assert result.next_dealer is None
    assert result.extras["manche"] is None
    assert result.extras["contracts_left"] == ()
    assert [result.deals[i].dealer for i in (0, 6, 12, 18)] == [2, 1, 0, 3]


def test_equal_lowest_totals_share_the_win() -> None:
    # Fanny and Honorine swap roles in half the manches: they end level.
    swapped = [
        {"contract": "no-tricks", "tricks": [1, 2, 2, 3]},
        {"contract": "no-hearts", "hearts": [3, 1, 4, 0]},
        {"contract": "no-queens", "queens": [0, 1, 1, 2]},
        {"contract": "no-bombu", "bombu": 2},
        {
            "contract": "salad",
            "tricks": [2, 2, 1, 3],
            "hearts": [2, 3, 0, 3],
            "queens": [1, 1, 0, 2],
            "bombu": 1,
        },
        {"contract": "reussite", "finish": [3, 1, 0, 2]},
    ]
    result = standings(bombu_record(BOMBU_MANCHE * 2 + swapped * 2, stake="1"))
    assert result.scores[1] == result.scores[3]
    assert result.winners == (1, 3)
    assert result.money is not None
    # Referee's ruling: each player who did not win pays each winner one stake.
    assert [str(n) for n in result.money.net] == ["-2", "2", "-2", "2"]


def test_no_money_until_the_end() -> None:
    result = standings(bombu_record(BOMBU_MANCHE, stake="5"))
    assert result.money is not None
    assert result.money.transfers == ()


@settings(max_examples=60, deadline=None)
@given(st.lists(bombu_manche(), min_size=4, max_size=4))
def test_property_grand_total(manches: list[tuple[list[dict[str, Any]], int, int]]) -> None:
    deals = [deal for manche, _, _ in manches for deal in manche]
    capots1, capots5 = (
        sum(1 for deal in deals if deal["contract"] == contract and 8 in deal["tricks"])
        for contract in ("no-tricks", "salad")
    )
    assert capots1 >= sum(c1 for _, c1, _ in manches)
    result = score_record(parse_record(bombu_record(deals)))
    assert result.finished
    # +1280 without capots, -400 per capot in contract 1, -640 per capot in contract 5.
    assert sum(result.scores) == 1280 - 400 * capots1 - 640 * capots5
    assert result.winners
    assert all(result.scores[w] == min(result.scores) for w in result.winners)


@given(real_salad())
def test_property_real_salads_accepted_and_total_320(deal: dict[str, Any]) -> None:
    result = standings(bombu_record([deal]))
    total = sum(result.deals[0].deltas)
    assert total == (-320 if 8 in deal["tricks"] else 320)


@given(real_salad(capot=True))
def test_property_real_capots_total_minus_320(deal: dict[str, Any]) -> None:
    assert sum(standings(bombu_record([deal])).deals[0].deltas) == -320


def _mutations(deal: dict[str, Any]) -> list[dict[str, Any]]:
    """Entries that no real cards can give, made from a real one."""
    out = []
    tricks, hearts, queens = deal["tricks"], deal["hearts"], deal["queens"]
    for seat in range(4):
        others = [s for s in range(4) if s != seat]
        if tricks[seat] == 0:
            # A heart, a queen or the K♥ given to a player with no trick.
            giver = next(s for s in others if hearts[s])
            moved = list(hearts)
            moved[giver] -= 1
            moved[seat] += 1
            out.append({**deal, "hearts": moved})
            out.append({**deal, "bombu": seat})
        if hearts[seat] == 0 and tricks[seat]:
            out.append({**deal, "bombu": seat})  # the K♥ is a heart
    out.append({**deal, "hearts": [h + (s == 0) for s, h in enumerate(hearts)]})  # 9 hearts
    out.append({**deal, "queens": [q + (s == 0) for s, q in enumerate(queens)]})  # 5 queens
    return out


@settings(max_examples=60)
@given(real_salad())
def test_property_impossible_salads_refused(deal: dict[str, Any]) -> None:
    if 8 in deal["tricks"]:
        return
    for bad in _mutations(deal):
        with pytest.raises(RulesError):
            standings(bombu_record([bad]))


def test_card_order_and_trick_judge() -> None:
    # Order A 10 K Q J 9 8 7, no trump: the ten beats the king.
    assert trick_winner(parse_cards(["KS", "10S", "AH", "QS"])) == 1
    assert trick_winner(parse_cards(["7D", "AS", "AH", "AC"])) == 0
    assert trick_winner(parse_cards(["9C", "AC", "10C", "JC"])) == 1


@pytest.mark.parametrize(
    ("trick", "code"),
    [
        ([], "trick_empty"),
        (["AS", "KS", "QS", "JS", "9S"], "trick_too_long"),
        (["6S"], "card_not_in_deck"),
    ],
)
def test_bad_trick(trick: list[str], code: str) -> None:
    with pytest.raises(RulesError) as caught:
        trick_winner(parse_cards(trick))
    assert caught.value.problems[0].code == code


def test_follow_suit_no_obligation_to_overtake() -> None:
    hand = parse_cards(["7S", "AH", "KD"])
    led = Card.parse("AS")
    assert legal_plays(hand, led) == (Card.parse("7S"),)
    assert legal_plays(hand, None) == hand
    assert legal_plays(hand, Card.parse("9C")) == hand
    check_play(Card.parse("7S"), hand, led)
    with pytest.raises(RulesError) as caught:
        check_play(Card.parse("AH"), hand, led)
    assert caught.value.problems[0].code == "must_follow"
    with pytest.raises(RulesError) as caught:
        check_play(Card.parse("AC"), hand, led)
    assert caught.value.problems[0].code == "card_not_in_hand"


class TestReussite:
    """The Réussite: the turned card's rank opens suits; runs build up and down."""

    def test_new_suit_opens_only_with_the_turned_rank(self) -> None:
        layout = Layout.begin(Card.parse("9H"))
        assert layout.fits(Card.parse("9D"))
        assert not layout.fits(Card.parse("10D"))
        with pytest.raises(RulesError) as caught:
            layout.play(Card.parse("10D"))
        assert caught.value.problems[0].code == "reussite_not_open"
        assert caught.value.messages("fr")[0].endswith("qu’avec le 9")

    def test_build_up_and_down_by_natural_rank(self) -> None:
        layout = Layout.from_cards(Card.parse("9H"), parse_cards(["10H", "8H", "JH", "7H"]))
        assert layout.run(Card.parse("9H").suit) == (Card.parse("7H").rank, Card.parse("JH").rank)
        assert layout.fits(Card.parse("QH"))
        assert not layout.fits(Card.parse("KH"))
        assert not layout.fits(Card.parse("6H"))  # not in the 32-card deck

    def test_ace_is_the_top(self) -> None:
        layout = Layout.from_cards(Card.parse("KC"), parse_cards(["AC"]))
        assert layout.playable(parse_cards(["QC", "KD", "10D"])) == parse_cards(["QC", "KD"])

    def test_no_fit_names_the_card(self) -> None:
        with pytest.raises(RulesError) as caught:
            Layout.from_cards(Card.parse("9H"), parse_cards(["10H", "QH"]))
        problem = caught.value.problems[0]
        assert (problem.code, problem.field) == ("reussite_no_fit", "played[1].card")

    def test_must_play_if_able(self) -> None:
        layout = Layout.begin(Card.parse("9H"))
        with pytest.raises(RulesError) as caught:
            layout.check_turn(parse_cards(["10H", "KS"]), None)
        assert caught.value.problems[0].code == "reussite_must_play"
        layout.check_turn(parse_cards(["KS", "QD"]), None)  # a pass when nothing fits
        layout.check_turn(parse_cards(["10H", "KS"]), Card.parse("10H"))
        with pytest.raises(RulesError) as caught:
            layout.check_turn(parse_cards(["KS"]), Card.parse("10H"))
        assert caught.value.problems[0].code == "card_not_in_hand"

    def test_start_must_be_in_the_deck(self) -> None:
        with pytest.raises(RulesError):
            Layout.begin(Card.parse("2H"))


def _deal(deal: Any) -> dict[str, Any]:
    return bombu_record([deal])


SALAD = BOMBU_MANCHE[4]

# (id, record, code, field, deal, English message or None)
ERRORS: list[tuple[str, Any, str, str | None, int | None, str | None]] = [
    (
        "tricks-add-to-7",
        _deal({"contract": "no-tricks", "tricks": [1, 2, 2, 2]}),
        "tricks_total",
        "tricks",
        1,
        "deal 1: tricks add up to 7, a deal has 8",
    ),
    (
        "hearts-add-to-9",
        _deal({"contract": "no-hearts", "hearts": [3, 2, 3, 1]}),
        "hearts_total",
        "hearts",
        1,
        "deal 1: hearts add up to 9, there are 8",
    ),
    (
        "queens-add-to-3",
        _deal({"contract": "no-queens", "queens": [1, 1, 1, 0]}),
        "queens_total",
        "queens",
        1,
        "deal 1: queens add up to 3, there are 4",
    ),
    (
        "unknown-contract",
        _deal({"contract": "barbu", "tricks": [2, 2, 2, 2]}),
        "unknown_choice",
        "contract",
        1,
        None,
    ),
    (
        "field-of-another-contract",
        _deal({"contract": "no-hearts", "hearts": [2, 2, 2, 2], "queens": [1, 1, 1, 1]}),
        "not_for_contract",
        "queens",
        1,
        "deal 1: queens: not counted in No hearts",
    ),
    ("missing-count", _deal({"contract": "no-queens"}), "missing", "queens", 1, None),
    (
        "bombu-two-holders",
        _deal({"contract": "no-bombu", "bombu": [1, 2]}),
        "seat_not_integer",
        "bombu",
        1,
        None,
    ),
    (
        "hearts-without-a-trick",
        _deal({**SALAD, "tricks": [2, 3, 0, 3], "hearts": [2, 3, 1, 2]}),
        "no_trick_hearts",
        "hearts",
        1,
        "deal 1: César took no trick, so cannot have 1 heart",
    ),
    (
        "queens-without-a-trick",
        _deal({**SALAD, "tricks": [2, 3, 0, 3], "hearts": [2, 3, 0, 3], "queens": [1, 2, 1, 0]}),
        "no_trick_queens",
        "queens",
        1,
        None,
    ),
    (
        "bombu-without-a-trick",
        _deal({**SALAD, "tricks": [2, 3, 0, 3], "hearts": [2, 3, 0, 3], "bombu": 2}),
        "no_trick_bombu",
        "bombu",
        1,
        "deal 1: César took no trick, so cannot have the Bombu (K♥)",
    ),
    (
        "more-cards-than-tricks-hold",
        _deal({**SALAD, "tricks": [1, 3, 2, 2], "hearts": [4, 1, 0, 3], "queens": [2, 1, 1, 0]}),
        "too_many_cards",
        "hearts",
        1,
        "deal 1: Marius took 1 trick, 4 cards, but 4 hearts and 2 queens make at least 5 cards",
    ),
    (
        "bombu-holder-without-heart",
        _deal({**SALAD, "bombu": 2}),
        "bombu_without_heart",
        "bombu",
        1,
        None,
    ),
    (
        "nobody-can-hold-the-queen-of-hearts",
        _deal(
            {
                "contract": "salad",
                "tricks": [2, 2, 2, 2],
                "hearts": [4, 4, 0, 0],
                "queens": [0, 0, 2, 2],
                "bombu": 0,
            }
        ),
        "queen_of_hearts",
        "queens",
        1,
        None,
    ),
    (
        "finish-one-seat",
        _deal({"contract": "reussite", "finish": [2]}),
        "finish_length",
        "finish",
        1,
        None,
    ),
    (
        "finish-not-list",
        _deal({"contract": "reussite", "finish": 2}),
        "finish_length",
        "finish",
        1,
        None,
    ),
    ("finish-missing", _deal({"contract": "reussite"}), "missing", "finish", 1, None),
    (
        "finish-seat-4",
        _deal({"contract": "reussite", "finish": [0, 4]}),
        "seat_unknown",
        "finish",
        1,
        None,
    ),
    (
        "finish-repeated",
        _deal({"contract": "reussite", "finish": [1, 3, 1]}),
        "finish_repeated",
        "finish",
        1,
        "deal 1: Fanny goes out twice in the Réussite order",
    ),
    (
        "contract-twice-in-a-manche",
        bombu_record([BOMBU_MANCHE[0], BOMBU_MANCHE[1], BOMBU_MANCHE[0]]),
        "contract_twice",
        "contract",
        3,
        "deal 3: No tricks was already played in manche 1, at deal 1",
    ),
    (
        "fixed-order",
        bombu_record([BOMBU_MANCHE[1]], rules={"contract_order": "fixed"}),
        "contract_out_of_order",
        "contract",
        1,
        None,
    ),
    (
        "unknown-order",
        bombu_record([], rules={"contract_order": "random"}),
        "unknown_choice",
        "rules.contract_order",
        None,
        None,
    ),
    (
        "wrong-dealer-in-manche-2",
        bombu_record([*BOMBU_MANCHE, {**BOMBU_MANCHE[0], "dealer": 1}]),
        "dealer_wrong",
        "dealer",
        7,
        "deal 7: the dealer is Honorine, not Fanny",
    ),
    (
        "a-25th-deal",
        bombu_record([*(BOMBU_MANCHE * 4), BOMBU_MANCHE[0]]),
        "after_last_deal",
        "deals",
        25,
        "deal 25: a game of Bombu has 24 deals; no deal may follow",
    ),
]

#: Message codes exercised in this module outside the table.
OTHER_CODES = {"reussite_not_open", "reussite_no_fit", "reussite_must_play"}


@pytest.mark.parametrize(
    ("record", "code", "field", "deal", "english"),
    [c[1:] for c in ERRORS],
    ids=[c[0] for c in ERRORS],
)
def test_refused(
    record: Any, code: str, field: str | None, deal: int | None, english: str | None
) -> None:
    assert_refused(record, code, field, deal, english)


def test_dealer_given_and_right_is_accepted() -> None:
    deals = [*BOMBU_MANCHE, {**BOMBU_MANCHE[0], "dealer": 3}]
    assert standings(bombu_record(deals)).deals[6].dealer == 3


def test_dump_round_trip() -> None:
    from referee.engine.records import dump_record

    record = parse_record(bombu_record([*BOMBU_MANCHE, {**BOMBU_MANCHE[0], "dealer": 3}]))
    dumped = dump_record(record)
    assert dumped["rules"] == {"contract_order": "free"}
    assert dumped["deals"][4] == SALAD
    assert dumped["deals"][6]["dealer"] == 3
    assert parse_record(dumped) == record


def test_contract_numbers() -> None:
    assert [c.number for c in Contract] == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("deal", "codes"),
    [
        ([1, 2], ["not_object"]),
        ({"contract": "no-bombu", "bombu": 1, "notes": "x"}, ["unknown_field"]),
    ],
)
def test_malformed_deals(deal: Any, codes: list[str]) -> None:
    with pytest.raises(RulesError) as caught:
        standings(_deal(deal))
    assert [p.code for p in caught.value.problems] == codes


def test_reussite_opens_a_second_suit() -> None:
    layout = Layout.begin(Card.parse("9H")).play(Card.parse("9S")).play(Card.parse("8S"))
    assert [suit.value for suit, _, _ in layout.runs] == ["hearts", "spades"]


@pytest.mark.parametrize(
    "given",
    [{"bombu": 1}, {"hearts": [0, 8, 0, 0]}, {"queens": [0, 4, 0, 0], "bombu": 1}],
    ids=["the-bombu", "the-hearts", "queens-and-bombu"],
)
def test_a_capot_with_some_counts_given_is_accepted(given: dict[str, Any]) -> None:
    """The capot trap: Bruno took all 8 tricks of a Salad and the K♥ was ticked for him;
    the other counts are his too, so nothing is missing."""
    from referee.engine.records import dump_record

    deal = {"contract": "salad", "tricks": [0, 8, 0, 0], **given}
    record = parse_record(bombu_record([deal]))
    assert score_record(record).scores == (0, -320, 0, 0)
    stored = dump_record(record)["deals"][0]
    assert (stored["hearts"], stored["queens"], stored["bombu"]) == ([0, 8, 0, 0], [0, 4, 0, 0], 1)


def test_a_capot_with_a_count_elsewhere_is_refused() -> None:

    deal = {"contract": "salad", "tricks": [0, 8, 0, 0], "bombu": 2}
    with pytest.raises(RulesError) as caught:
        parse_record(bombu_record([deal]))
    assert caught.value.problems[0].code == "no_trick_bombu"
