"""The evening's settlement (engine/evening.py): per person, the sum of the games'
nets, in each currency apart, settled in the fewest transfers."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.evening import Settlement, Sitting, settle_evening
from referee.engine.records import load_record, score_record
from referee.engine.settlement import EXACT_UP_TO, Payment, fewest_transfers, settle
from tests.engine.helpers import bombu_record
from tests.engine.test_settlement import _apply, _brute_force_count

D = Decimal
PEOPLE = ["Ana", "Bruno", "Chloé", "Driss", "Élodie", "Farid"]


def test_three_games_of_three_kinds_checked_by_hand() -> None:
    """Boulmous by the game, Bombu by the point, Pitch five-handed: one evening."""
    boulmous = Sitting(
        ("Ana", "Bruno", "Chloé", "Driss"),
        settle(4, [Payment(1, 0, 1), Payment(2, 0, 1), Payment(3, 0, 1)], D(1)),
        "EUR",
    )
    # Bombu by the point at 0.10, one deal: 20, 30, 10, 20; lowest wins.
    deal = {"contract": "no-tricks", "tricks": [2, 3, 1, 2]}
    record = bombu_record([deal], stake="0.10", stake_per="point")
    record["players"] = ["Bruno", "Chloé", "Driss", "Ana"]
    bombu_money = score_record(load_record(json.dumps(record).encode())).money
    assert bombu_money is not None
    assert bombu_money.net == (D(0), D("-4.00"), D("4.00"), D(0))
    bombu = Sitting(("Bruno", "Chloé", "Driss", "Ana"), bombu_money, "EUR")
    # Pitch five-handed: Élodie wins and collects a stake from each.
    pitch = Sitting(
        ("Ana", "Bruno", "Chloé", "Driss", "Élodie"),
        settle(5, [Payment(seat, 4, 1) for seat in range(4)], D(1)),
        "EUR",
    )
    (evening,) = settle_evening([boulmous, bombu, pitch])
    # Ana 3 + 0 − 1 = 2; Bruno −1 + 0 − 1 = −2; Chloé −1 − 4 − 1 = −6;
    # Driss −1 + 4 − 1 = 2; Élodie 4. Two groups settle apart: 3 transfers.
    assert dict(zip(evening.people, evening.net, strict=True)) == {
        "Ana": D(2),
        "Bruno": D(-2),
        "Chloé": D(-6),
        "Driss": D(2),
        "Élodie": D(4),
    }
    paid = {(evening.people[t.payer], evening.people[t.payee], t.amount) for t in evening.transfers}
    assert paid == {("Bruno", "Ana", D(2)), ("Chloé", "Élodie", D(4)), ("Chloé", "Driss", D(2))}


def test_currencies_settle_apart_and_games_without_a_stake_do_not_count() -> None:
    euros = Sitting(("Ana", "Bruno", "Chloé"), settle(3, [Payment(0, 1, 2)], D("0.50")), "EUR")
    francs = Sitting(("Ana", "Bruno", "Chloé"), settle(3, [Payment(1, 2, 1)], D(3)), "CHF")
    free = Sitting(("Ana", "Bruno", "Chloé"), None, "EUR")
    eur, chf = settle_evening([euros, free, francs])
    assert (eur.currency, eur.net_of("Ana"), eur.net_of("Bruno")) == ("EUR", D(-1), D(1))
    assert (chf.currency, chf.net_of("Chloé"), chf.net_of("Bruno")) == ("CHF", D(3), D(-3))
    assert settle_evening([free]) == ()


def test_a_game_with_more_people_than_seats_is_refused() -> None:
    money = settle(3, [Payment(0, 1, 1)], D(1))
    with pytest.raises(ValueError, match="4 people for 3 seats"):
        settle_evening([Sitting(("Ana", "Bruno", "Chloé", "Driss"), money, "EUR")])


@st.composite
def evenings(draw: st.DrawFn) -> list[Sitting]:
    games = []
    for _ in range(draw(st.integers(1, 5))):
        seats = draw(st.integers(3, 5))
        people = tuple(draw(st.permutations(PEOPLE))[:seats])
        payments = draw(
            st.lists(
                st.tuples(st.integers(0, seats - 1), st.integers(0, seats - 1), st.integers(1, 9))
                .filter(lambda t: t[0] != t[1])
                .map(lambda t: Payment(*t)),
                max_size=8,
            )
        )
        stake = draw(st.decimals(min_value=D("0.01"), max_value=D(50), places=2))
        money = draw(st.none() | st.just(settle(seats, payments, stake)))
        games.append(Sitting(people, money, draw(st.sampled_from(["EUR", "CHF"]))))
    return games


@given(evenings())
def test_the_evening_is_the_sum_of_its_games_in_the_fewest_transfers(
    games: list[Sitting],
) -> None:
    settlements = settle_evening(games)
    assert len({s.currency for s in settlements}) == len(settlements)
    for settlement in settlements:
        for person in settlement.people:
            expected = sum(
                (
                    game.money.net[game.people.index(person)]
                    for game in games
                    if game.money is not None
                    and game.currency == settlement.currency
                    and person in game.people
                ),
                D(0),
            )
            assert settlement.net_of(person) == expected
        _settles_in_the_fewest(settlement)


def _settles_in_the_fewest(settlement: Settlement) -> None:
    assert sum(settlement.net, D(0)) == 0
    assert _apply(list(settlement.net), settlement.transfers) == [D(0)] * len(settlement.net)
    assert len(settlement.transfers) == _brute_force_count(list(settlement.net))


def test_past_the_exact_search_everyone_settles_as_one_group() -> None:
    net = [D(1)] * (EXACT_UP_TO + 1) + [D(-(EXACT_UP_TO + 1))]
    transfers = fewest_transfers(net)
    assert len(transfers) == EXACT_UP_TO + 1  # n - 1: here also the fewest
    assert _apply(net, transfers) == [D(0)] * len(net)
