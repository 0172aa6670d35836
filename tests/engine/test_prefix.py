"""A deal's score and its explanation read only the record up to that deal, and a
deal explained alone (`explain_deal`) is explained as in the whole game.

The scoreboard keeps each drawn history row under a digest of the record up to its
deal (`web/board.prefix_digests`, issue 19): a new deal draws one row, and a
correction draws its deal's row and those after it. That holds only if no game
scores or explains a deal from a later one: checked here for every game, on the
examples and on random whole games (a win, capots, manches, moons, five
hands), by scoring each prefix of a record apart."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.errors import RulesError
from referee.engine.game import explain
from referee.engine.records import MAX_DEALS, parse_record, score_record, with_deal
from referee.games import GAMES
from referee.games.pitch.rules import MOON_WORD, VARIANTS
from tests.engine.helpers import bombu_record, pitch_record
from tests.engine.strategies import bombu_manche, boulmous_games


def assert_prefixes_agree(record: dict[str, Any]) -> None:
    """Each deal's result (deltas, dealer, marks) and its steps, scored with the
    deals after it and without them, are the same."""
    whole = parse_record(record)
    standings = score_record(whole)
    explained = explain(GAMES[whole.game], whole, standings)
    for count in range(1, len(record["deals"]) + 1):
        part = parse_record({**record, "deals": record["deals"][:count]})
        scored = score_record(part)
        assert scored.deals == standings.deals[:count], count
        assert explain(GAMES[part.game], part, scored) == explained[:count], count
        assert GAMES[part.game].explain_deal(part, scored, count) == explained[count - 1]


@pytest.mark.parametrize(
    "example", ["boulmous-with-stake.json", "bombu-first-manche.json", "pitch-moon.json"]
)
def test_the_shared_examples(examples_dir: Path, example: str) -> None:
    assert_prefixes_agree(json.loads((examples_dir / example).read_text()))


@settings(max_examples=40)
@given(boulmous_games())
def test_boulmous_games(record: dict[str, Any]) -> None:
    assert_prefixes_agree(record)


@settings(max_examples=15)
@given(st.lists(bombu_manche(), min_size=1, max_size=4))
def test_bombu_manches(manches: list[tuple[list[dict[str, Any]], int, int]]) -> None:
    assert_prefixes_agree(bombu_record([deal for deals, _1, _5 in manches for deal in deals]))


@st.composite
def pitch_games(draw: st.DrawFn) -> dict[str, Any]:
    """A valid Pitch record: random variant, four or five hands, up to 20 hands kept
    where the record stays valid (a win ends it)."""
    total = draw(st.sampled_from(sorted(VARIANTS)))
    five = draw(st.booleans())
    players = 5 if five else 4
    rules = {"points": total, "target": draw(st.sampled_from([11, 21, 52]))}
    record = pitch_record([], five=five, rules=rules)
    for _hand in range(draw(st.integers(1, 20))):
        won = {
            card.value: draw(st.one_of(st.none(), st.integers(0, players - 1)))
            for card in VARIANTS[total].points
        }
        deal: dict[str, Any] = {
            "bidder": draw(st.integers(0, players - 1)),
            "bid": draw(st.one_of(st.integers(4, total), st.just(MOON_WORD))),
            "trump": draw(st.sampled_from(["spades", "hearts", "diamonds", "clubs"])),
            "points": won,
        }
        if five:
            deal["partner"] = draw(st.one_of(st.none(), st.integers(0, 4)))
        tried = {**record, "deals": [*record["deals"], deal]}
        try:
            score_record(parse_record(tried))
        except RulesError:
            continue  # not a hand this game allows here: drawn again
        record = tried
    return record


@settings(max_examples=40)
@given(pitch_games())
def test_pitch_games(record: dict[str, Any]) -> None:
    assert_prefixes_agree(record)


# --- one deal more (`with_deal`) --------------------------------------------------------


def _problems(record: dict[str, Any]) -> list[Any] | None:
    try:
        parse_record(record)
    except RulesError as error:
        return list(error.problems)
    return None


@pytest.mark.parametrize(
    "example", ["boulmous-with-stake.json", "bombu-first-manche.json", "pitch-moon.json"]
)
def test_a_deal_more_is_read_as_the_whole_record_reads_it(examples_dir: Path, example: str) -> None:
    """`with_deal` reads the new deal as `parse_record` reads it in the whole
    record: the same record, or the same problems at the same deal."""
    record = json.loads((examples_dir / example).read_text())
    deals = record["deals"]
    for count in range(len(deals)):
        before = parse_record({**record, "deals": deals[:count]})
        assert with_deal(before, deals[count]) == parse_record(
            {**record, "deals": deals[: count + 1]}
        )
        for broken in ({}, [], None, {**deals[count], "tricks": "six"}, {"contract": "x"}):
            whole = {**record, "deals": [*deals[:count], broken]}
            expected = _problems(whole)
            assert expected is not None
            with pytest.raises(RulesError) as caught:
                with_deal(before, broken)
            assert list(caught.value.problems) == expected
            assert caught.value.deal == count + 1


def test_a_deal_past_the_most_a_record_holds_is_refused(examples_dir: Path) -> None:
    record = json.loads((examples_dir / "boulmous-with-stake.json").read_text())
    full = parse_record(record)
    full = dataclasses.replace(full, deals=(full.deals[1],) * MAX_DEALS)  # 300 passed deals
    assert len(full.deals) == MAX_DEALS
    with pytest.raises(RulesError) as caught:
        with_deal(full, {"passed": True})
    assert caught.value.problems[0].code == "deals_too_many"
