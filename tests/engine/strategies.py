"""Hypothesis strategies: valid Boulmous deals and whole games."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from referee.engine.errors import RulesError
from referee.engine.records import parse_record, score_record
from tests.engine.helpers import boulmous_record

CONTRACTS = ["spades", "hearts", "diamonds", "clubs", "no-trump"]


@st.composite
def tricks(draw: st.DrawFn) -> list[int]:
    """Six tricks shared among four seats."""
    cuts = sorted(draw(st.lists(st.integers(0, 6), min_size=3, max_size=3)))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 6 - cuts[2]]


@st.composite
def boulmous_deals(draw: st.DrawFn) -> dict[str, Any]:
    """A played or passed deal, with or without the optional fields."""
    if draw(st.integers(0, 9)) == 0:
        return {"passed": True}
    bid = draw(st.sampled_from([3, 4, 5, 6, "boulmous"]))
    return {
        "taker": draw(st.integers(0, 3)),
        "bid": bid,
        "contract": draw(st.sampled_from(CONTRACTS)),
        "tricks": draw(tricks()),
    }


@st.composite
def boulmous_games(draw: st.DrawFn) -> dict[str, Any]:
    """A valid record: random flags and stake, deals cut at the win."""
    rules: dict[str, Any] = {}
    if draw(st.booleans()):
        rules["target"] = draw(st.integers(1, 40))
    if draw(st.booleans()):
        rules["taker_scores"] = draw(st.sampled_from(["tricks", "bid"]))
    if draw(st.booleans()):
        rules["failed_taker_keeps_tricks"] = draw(st.booleans())
    fields: dict[str, Any] = {"rules": rules, "first_dealer": draw(st.integers(0, 3))}
    if draw(st.booleans()):
        fields["stake"] = draw(st.sampled_from(["1", "0.50", "2.25", "10"]))
    deals = draw(st.lists(boulmous_deals(), max_size=30))
    record = boulmous_record(deals, **fields)
    return cut_at_win(record)


def cut_at_win(record: dict[str, Any]) -> dict[str, Any]:
    """Drop the deals that would follow the win."""
    try:
        score_record(parse_record(record))
    except RulesError as error:
        (problem,) = error.problems
        assert problem.code == "after_win"
        assert problem.deal is not None
        return {**record, "deals": record["deals"][: problem.deal - 1]}
    return record


HEART_RANKS = ["A", "10", "K", "Q", "J", "9", "8", "7"]
DECK32 = [(rank, suit) for rank in HEART_RANKS for suit in "SHDC"]


@st.composite
def real_salad(draw: st.DrawFn, capot: bool = False) -> dict[str, Any]:
    """A salad entry counted from real cards: 32 shuffled cards, 8 tricks, random winners."""
    deck = draw(st.permutations(DECK32))
    if capot:
        winners = [draw(st.integers(0, 3))] * 8
    else:
        winners = draw(st.lists(st.integers(0, 3), min_size=8, max_size=8))
    tricks, hearts, queens = [0] * 4, [0] * 4, [0] * 4
    bombu = -1
    for number, winner in enumerate(winners):
        tricks[winner] += 1
        for rank, suit in deck[number * 4 : number * 4 + 4]:
            hearts[winner] += suit == "H"
            queens[winner] += rank == "Q"
            if (rank, suit) == ("K", "H"):
                bombu = winner
    return {
        "contract": "salad",
        "tricks": tricks,
        "hearts": hearts,
        "queens": queens,
        "bombu": bombu,
    }


@st.composite
def bombu_manche(draw: st.DrawFn) -> tuple[list[dict[str, Any]], int, int]:
    """Six deals, one of each contract in random order, from real cards.

    Returns the deals and how many capots fell in contract 1 and in contract 5.
    """
    capot1 = draw(st.booleans())
    capot5 = draw(st.booleans())
    salad = draw(real_salad(capot=capot5))
    if capot1:
        taker = draw(st.integers(0, 3))
        no_tricks = [8 if seat == taker else 0 for seat in range(4)]
    else:
        no_tricks = draw(real_salad())["tricks"]
    deals = [
        {"contract": "no-tricks", "tricks": no_tricks},
        {"contract": "no-hearts", "hearts": draw(real_salad())["hearts"]},
        {"contract": "no-queens", "queens": draw(real_salad())["queens"]},
        {"contract": "no-bombu", "bombu": draw(st.integers(0, 3))},
        salad,
        {
            "contract": "reussite",
            "finish": draw(st.permutations([0, 1, 2, 3]))[: draw(st.integers(2, 4))],
        },
    ]
    return draw(st.permutations(deals)), int(capot1), int(capot5)
