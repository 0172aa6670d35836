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
