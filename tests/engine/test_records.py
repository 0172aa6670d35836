"""The record format: parse, dump, round trips, and properties of whole games."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings

from referee.engine.errors import RulesError
from referee.engine.game import Standings
from referee.engine.records import (
    FORMAT,
    dump_record,
    load_record,
    money_text,
    parse_record,
    score_record,
    standings_json,
)
from referee.games import GAMES
from referee.games.boulmous.rules import BOULMOUS, Played
from tests.conftest import EXAMPLES
from tests.engine.helpers import PASSED, boulmous_record, played
from tests.engine.strategies import boulmous_games


def _matches(expected: Any, actual: Any) -> bool:
    """Every field shown in `expected` matches; fields it does not show are free."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _matches(v, actual[k]) for k, v in expected.items()
        )
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(_matches(e, a) for e, a in zip(expected, actual, strict=True))
        )
    return bool(expected == actual)


def _example_names() -> list[str]:
    return sorted(
        p.name.removesuffix(".json")
        for p in EXAMPLES.glob("*.json")
        if not p.name.endswith(".expected.json")
    )


@pytest.mark.parametrize("name", _example_names())
def test_examples_score_as_expected(name: str) -> None:
    """Each record of `examples/` scores as its `.expected.json` says (the fields it
    shows; money transfers are free in form but must settle the balances)."""
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
    out = standings_json(score_record(load_record((EXAMPLES / f"{name}.json").read_bytes())))
    assert _matches(expected, out), name
    money = out.get("money")
    if isinstance(money, dict):
        _check_transfers_settle(money)


def test_examples_cover_every_game() -> None:
    """`examples/` holds a few records of each game, each with its expected standings."""
    games = [
        json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))["game"]
        for name in _example_names()
    ]
    assert all(games.count(game) >= 3 for game in GAMES), games
    assert all((EXAMPLES / f"{name}.expected.json").is_file() for name in _example_names())


def _check_transfers_settle(money: dict[str, Any]) -> None:
    net = [Decimal(n) for n in money["net"]]
    for t in money["transfers"]:
        net[t["from"]] += Decimal(t["amount"])
        net[t["to"]] -= Decimal(t["amount"])
    assert all(n == 0 for n in net)


def test_defaults_applied() -> None:
    record = parse_record(
        {"format": "referee-game/1", "game": "boulmous", "players": ["A", "B", "C", "D"]}
    )
    assert record.first_dealer == 0
    assert record.deals == ()
    assert record.stake is None
    assert record.rules.target == 21


def test_dump_states_every_flag_and_canonical_bid() -> None:
    record = parse_record(
        boulmous_record(
            [
                {**played(1, 6, [0, 6, 0, 0]), "auction": ["pass", 6, "pass", "pass"], "dealer": 0},
                PASSED,
            ],
            stake="0.50",
        )
    )
    out = dump_record(record)
    assert out["rules"] == {
        "target": 21,
        "taker_scores": "tricks",
        "failed_taker_keeps_tricks": False,
    }
    assert out["stake"] == "0.50"
    assert out["deals"] == [
        {
            "taker": 1,
            "bid": "boulmous",
            "contract": "hearts",
            "tricks": [0, 6, 0, 0],
            "auction": ["pass", "boulmous", "pass", "pass"],
            "dealer": 0,
        },
        {"passed": True},
    ]
    deal = record.deals[0]
    assert isinstance(deal, Played)
    assert deal.bid == BOULMOUS


def test_names_are_trimmed() -> None:
    record = parse_record(boulmous_record([], players=[" Ana ", "Bruno", "Chloé", "Driss"]))
    assert record.players[0] == "Ana"


@pytest.mark.parametrize(("amount", "text"), [("14", "14.00"), ("0.5", "0.50"), ("-3.00", "-3.00")])
def test_money_text(amount: str, text: str) -> None:
    assert money_text(Decimal(amount)) == text


def test_standings_json_shape() -> None:
    record = boulmous_record([played(3, 5, [2, 0, 1, 3]), PASSED], stake="1")
    out = standings_json(score_record(parse_record(record)))
    assert out["deals"] == [
        {"deltas": [2, 0, 1, -5], "dealer": 0, "marks": [{"kind": "boite", "seat": 3}]},
        {"deltas": [0, 0, 0, 0], "dealer": 1, "marks": [{"kind": "void"}]},
    ]
    assert out["boites"] == [0, 0, 0, 1]
    assert out["money"] == {"stake": "1.00", "net": ["0.00"] * 4, "transfers": []}
    assert out["next_dealer"] == 2


@settings(max_examples=150)
@given(boulmous_games())
def test_property_dump_parse_round_trip(data: dict[str, Any]) -> None:
    record = parse_record(data)
    dumped = dump_record(record)
    assert parse_record(dumped) == record
    assert dump_record(parse_record(json.loads(json.dumps(dumped)))) == dumped


@settings(max_examples=150)
@given(boulmous_games())
def test_property_scoring_is_deterministic_and_bounded(data: dict[str, Any]) -> None:
    record = parse_record(data)
    first = score_record(record)
    assert score_record(parse_record(dump_record(record))) == first
    for deal, result in zip(record.deals, first.deals, strict=True):
        bid = deal.bid if isinstance(deal, Played) else 0
        # A deal never changes the sum of scores by more than 6 plus the bid.
        assert abs(sum(result.deltas)) <= 6 + bid
    assert list(first.scores) == [sum(d.deltas[s] for d in first.deals) for s in range(4)]
    assert first.finished is bool(first.winners)


@settings(max_examples=150)
@given(boulmous_games())
def test_property_money_is_zero_sum_and_settles(data: dict[str, Any]) -> None:
    result = score_record(parse_record(data))
    if result.money is None:
        assert "stake" not in data
        return
    assert sum(result.money.net, Decimal(0)) == 0
    net = list(result.money.net)
    for t in result.money.transfers:
        net[t.payer] += t.amount
        net[t.payee] -= t.amount
    assert all(n == 0 for n in net)


def test_standings_json_leaves_out_what_a_game_does_not_have() -> None:
    bare = Standings("x", False, (), (0, 0), (), 1)
    out = standings_json(bare)
    assert "boites" not in out
    assert "money" not in out


# --- Stakes by the point ----------------------------------------------------------------


def test_stakes_by_the_point_in_a_record() -> None:
    """`stake_per: "point"` is read, scored by the point as the game stands, written
    back, and the standings' money says so; "game" stays the default, not written."""
    from tests.engine.helpers import bombu_record

    record = boulmous_record([played(1, 4, [1, 4, 1, 0])], stake="0.10", stake_per="point")
    parsed = load_record(json.dumps(record).encode())
    assert parsed.stake_per.value == "point"
    standings = score_record(parsed)
    # Scores 1, 4, 1, 0: Bruno's differences are 3 + 3 + 4 = 10 points, 1.00;
    # Ana's −3 + 0 + 1 = −2, −0.20; Driss's −1 − 4 − 1 = −6, −0.60.
    assert not standings.finished
    assert standings.scores == (1, 4, 1, 0)
    money = standings_json(standings)["money"]
    assert money["net"] == ["-0.20", "1.00", "-0.20", "-0.60"]
    assert dump_record(parsed)["stake_per"] == "point"
    plain = load_record(json.dumps(boulmous_record([], stake="0.10")).encode())
    assert "stake_per" not in dump_record(plain)
    # Bombu: the lowest total wins, so the one with more points pays.
    deal = {"contract": "no-tricks", "tricks": [2, 3, 1, 2]}
    bombu = score_record(
        load_record(json.dumps(bombu_record([deal], stake="1", stake_per="point")).encode())
    )
    assert bombu.money is not None
    assert bombu.scores == (20, 30, 10, 20)
    assert [str(n) for n in bombu.money.net] == ["0", "-40", "40", "0"]


def test_a_record_saved_with_a_byte_order_mark_reads() -> None:
    """Windows' Notepad saves UTF-8 with a byte-order mark (a fresh-eyes trial)."""
    data = (EXAMPLES / "pitch-moon.json").read_bytes()
    assert load_record(b"\xef\xbb\xbf" + data) == load_record(data)
    assert load_record("\ufeff" + data.decode()) == load_record(data)


def test_players_refused_leave_the_deals_unread() -> None:
    """Thirteen players for a pad of at most twelve: that alone is said, not one
    false "one number per player, 2 in all" for each deal read for two players."""
    names = [f"P{seat}" for seat in range(13)]
    record = {"format": FORMAT, "game": "pad", "players": names, "first_dealer": 0}
    record["deals"] = [{"points": [1] * 13}, {"points": [2] * 13}]
    with pytest.raises(RulesError) as refused:
        parse_record(record)
    assert [p.field for p in refused.value.problems] == ["players"]
