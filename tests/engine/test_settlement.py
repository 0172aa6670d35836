"""Money: exact nets, zero-sum, and the fewest transfers (checked against brute force)."""

from __future__ import annotations

from decimal import Decimal
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.settlement import Payment, Transfer, fewest_transfers, net_balances, settle

D = Decimal


def _apply(net: list[Decimal], transfers: tuple[Transfer, ...]) -> list[Decimal]:
    after = list(net)
    for t in transfers:
        assert t.amount > 0
        after[t.payer] += t.amount
        after[t.payee] -= t.amount
    return after


def _brute_force_count(net: list[Decimal]) -> int:
    """Fewest transfers by trying every order of the greedy settlement (small n only)."""
    seats = [i for i, a in enumerate(net) if a]
    best = max(len(seats) - 1, 0)
    for order in permutations(seats):
        # Settle in this order: each seat passes its running balance to the next.
        count, running = 0, D(0)
        for seat in order:
            if running != 0:
                count += 1
            running += net[seat]
        best = min(best, count)
    return best


TABLE = [
    ("nobody-owes", ["0", "0", "0", "0"], 0),
    ("one-pays-one", ["-5", "5", "0", "0"], 1),
    ("winner-takes-from-three", ["14", "-4", "-4", "-6"], 3),
    ("two-pairs-settle-apart", ["3", "-3", "7", "-7"], 2),
    ("cents", ["0.50", "-1.50", "1.00", "0.00"], 2),
    ("five-players", ["4", "-1", "-1", "-1", "-1"], 4),
]


@pytest.mark.parametrize(("net", "count"), [t[1:] for t in TABLE], ids=[t[0] for t in TABLE])
def test_fewest_transfers_table(net: list[str], count: int) -> None:
    amounts = [D(a) for a in net]
    transfers = fewest_transfers(amounts)
    assert len(transfers) == count
    assert all(a == 0 for a in _apply(amounts, transfers))


def test_pairs_are_found_even_when_greedy_would_chain() -> None:
    # Greedy largest-first would make 3 transfers here; two pairs need only 2.
    net = [D(6), D(-5), D(5), D(-6)]
    assert len(fewest_transfers(net)) == 2


def test_unbalanced_refused() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        fewest_transfers([D(1), D(0)])


def test_net_balances_multiply_by_stake() -> None:
    payments = [Payment(0, 1, 2), Payment(2, 1, 1)]
    assert net_balances(3, payments, D("0.25")) == (D("-0.50"), D("0.75"), D("-0.25"))


def test_settle() -> None:
    money = settle(2, [Payment(1, 0, 3)], D("1.5"))
    assert money.net == (D("4.5"), D("-4.5"))
    assert money.transfers == (Transfer(1, 0, D("4.5")),)


payments = st.lists(
    st.tuples(st.integers(0, 4), st.integers(0, 4), st.integers(1, 5)).filter(
        lambda p: p[0] != p[1]
    ),
    max_size=12,
)
stakes = st.decimals(min_value=D("0.01"), max_value=D(100), places=2)


@given(payments, stakes)
def test_property_nets_sum_to_zero_and_transfers_settle(
    raw: list[tuple[int, int, int]], stake: Decimal
) -> None:
    money = settle(5, [Payment(*p) for p in raw], stake)
    assert sum(money.net, D(0)) == 0
    assert all(a == 0 for a in _apply(list(money.net), money.transfers))
    nonzero = sum(1 for a in money.net if a)
    assert len(money.transfers) <= max(nonzero - 1, 0)


@given(st.lists(st.integers(-20, 20), min_size=1, max_size=6))
def test_property_fewest_is_optimal(head: list[int]) -> None:
    net = [D(a) for a in head] + [D(-sum(head))]
    assert len(fewest_transfers(net)) == _brute_force_count(net)


# --- Stakes by the point (docs/RECORD-FORMAT.md, `stake_per: "point"`) -----------------------

from referee.engine.settlement import StakePer, by_points, money_of  # noqa: E402

STAKES = st.decimals(min_value=D("0.01"), max_value=D("10000"), places=2)
SCORES = st.lists(st.integers(min_value=-2000, max_value=2000), min_size=3, max_size=5)


@given(SCORES, STAKES, st.booleans())
def test_by_the_point_is_exact_zero_sum_and_the_formula(
    scores: list[int], stake: Decimal, lowest_wins: bool
) -> None:
    """A seat's net is the stake times the sum of its differences with each other seat
    (the sign turned where the lowest total wins); the nets sum to zero exactly and
    the transfers settle them."""
    money = money_of(stake, StakePer.POINT, scores, [], lowest_wins)
    assert money is not None
    n, total, sign = len(scores), sum(scores), -1 if lowest_wins else 1
    assert money.net == tuple(stake * sign * (n * s - total) for s in scores)
    assert sum(money.net, D(0)) == 0
    assert all(amount == amount.quantize(D("0.01")) for amount in money.net)  # cents, exact
    assert _apply(list(money.net), money.transfers) == [D(0)] * n
    assert len(money.transfers) <= n - 1


def test_by_the_point_by_hand() -> None:
    # Boulmous at 21: Ana 21, Bruno 15, Chloé 9, Driss -3; 0.10 a point.
    # Ana: (6 + 12 + 24) × 0.10 = 4.20; Bruno: (−6 + 6 + 18) = 1.80;
    # Chloé: (−12 − 6 + 12) = −0.60; Driss: (−24 − 18 − 12) = −5.40.
    money = money_of(D("0.10"), StakePer.POINT, [21, 15, 9, -3], [], lowest_wins=False)
    assert money is not None
    assert money.net == (D("4.20"), D("1.80"), D("-0.60"), D("-5.40"))
    # Bombu, lowest wins: the same scores turn round.
    bombu = money_of(D("0.10"), StakePer.POINT, [21, 15, 9, -3], [], lowest_wins=True)
    assert bombu is not None
    assert bombu.net == (D("-4.20"), D("-1.80"), D("0.60"), D("5.40"))


def test_team_mates_settle_nothing_between_them() -> None:
    # Pitch four-handed: seats 0 and 2 against 1 and 3, each seat showing its team's score.
    payments = by_points([40, 25, 40, 25], lowest_wins=False)
    assert all({p.payer, p.payee} not in ({0, 2}, {1, 3}) for p in payments)
    money = settle(4, payments, D("1"))
    assert money.net == (D(30), D(-30), D(30), D(-30))


def test_per_game_stakes_stay_the_default() -> None:
    by_game = [Payment(1, 0, 2)]
    money = money_of(D("0.50"), StakePer.GAME, [21, 3, 2, 1], by_game, lowest_wins=False)
    assert money is not None
    assert money.net == (D("1.00"), D("-1.00"), D(0), D(0))
    assert money_of(None, StakePer.POINT, [1, 2, 3], [], lowest_wins=False) is None
