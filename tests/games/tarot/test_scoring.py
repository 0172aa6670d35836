"""French tarot's deal scoring, rule by rule (the FFT's count; the start of issue 54)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from referee.games.tarot.scoring import Chelem, Contract, Side, outcome, shares


def test_a_garde_with_two_bouts_and_47_points() -> None:
    """6 over 41: (25 + 6) × 2 = 62, the taker ×3 against the defence at four."""
    deal = outcome(Contract.GARDE, 2, Fraction(47))
    assert (deal.made, deal.needed, deal.margin, deal.value) == (True, 41, 6, 62)
    assert shares(4, 0, None, deal.value) == (186, -62, -62, -62)


def test_the_points_needed_follow_the_bouts() -> None:
    assert [outcome(Contract.PETITE, b, Fraction(0)).needed for b in range(4)] == [56, 51, 41, 36]


def test_just_made_scores_25_and_a_half_point_goes_to_the_side_that_scores() -> None:
    assert outcome(Contract.PETITE, 2, Fraction(41)).value == 25
    assert outcome(Contract.PETITE, 2, Fraction(83, 2)).value == 26  # 41.5: made by 1
    assert outcome(Contract.PETITE, 2, Fraction(81, 2)).value == -26  # 40.5: failed by 1


def test_the_contracts_multiply_the_base_and_the_petit() -> None:
    for contract, times in (
        (Contract.PETITE, 1),
        (Contract.GARDE, 2),
        (Contract.GARDE_SANS, 4),
        (Contract.GARDE_CONTRE, 6),
    ):
        deal = outcome(contract, 1, Fraction(55), petit_au_bout=Side.TAKER)
        assert (deal.base, deal.petit) == (29 * times, 10 * times)


def test_the_petit_au_bout_goes_to_its_side_whoever_won_the_contract() -> None:
    """A garde sans made by 10, the petit lost at the end: 35 × 4 − 40 = 100."""
    assert outcome(Contract.GARDE_SANS, 3, Fraction(46), petit_au_bout=Side.DEFENCE).value == 100
    # Failed by 5 but the petit taken at the end: −30 × 2 + 20 = −40.
    assert outcome(Contract.GARDE, 1, Fraction(46), petit_au_bout=Side.TAKER).value == -40


def test_a_poignee_goes_to_the_side_that_wins_never_multiplied() -> None:
    assert outcome(Contract.GARDE_CONTRE, 2, Fraction(41), poignee=1).poignee == 20
    assert outcome(Contract.GARDE_CONTRE, 2, Fraction(40), poignee=2).poignee == -30
    assert outcome(Contract.PETITE, 0, Fraction(60), poignee=3).poignee == 40


def test_a_chelem() -> None:
    assert outcome(Contract.GARDE, 3, Fraction(91), chelem=Chelem.ANNOUNCED_MADE).chelem == 400
    assert outcome(Contract.GARDE, 3, Fraction(91), chelem=Chelem.MADE).chelem == 200
    failed = outcome(Contract.GARDE, 3, Fraction(80), chelem=Chelem.ANNOUNCED_FAILED)
    assert failed.chelem == -200


def test_five_players_share_with_the_called_king() -> None:
    assert shares(5, 1, 3, 62) == (-62, 124, -62, 62, -62)
    assert shares(5, 1, 1, 62) == (-62, 248, -62, -62, -62)  # he called his own king
    assert shares(3, 2, None, 30) == (-30, -30, 60)


@given(
    st.sampled_from(list(Contract)),
    st.integers(0, 3),
    st.integers(0, 182),
    st.sampled_from([None, Side.TAKER, Side.DEFENCE]),
    st.integers(0, 3),
    st.sampled_from(list(Chelem)),
    st.sampled_from([3, 4, 5]),
    st.data(),
)
def test_every_deal_adds_up_to_zero(
    contract: Contract,
    bouts: int,
    halves: int,
    petit: Side | None,
    poignee: int,
    chelem: Chelem,
    players: int,
    data: st.DataObject,
) -> None:
    value = outcome(contract, bouts, Fraction(halves, 2), petit, poignee, chelem).value
    taker = data.draw(st.integers(0, players - 1))
    partner = data.draw(st.one_of(st.none(), st.integers(0, players - 1))) if players == 5 else None
    assert sum(shares(players, taker, partner, value)) == 0
