"""Builders for records in tests: a valid base, changed only where a test says."""

from __future__ import annotations

from typing import Any

from referee.engine.records import parse_record, score_record

PLAYERS4 = ["Ana", "Bruno", "Chloé", "Driss"]


def boulmous_record(deals: list[Any], **fields: Any) -> dict[str, Any]:
    """A Boulmous record dict with these deals; other fields default to a plain game."""
    record: dict[str, Any] = {
        "format": "referee-game/1",
        "game": "boulmous",
        "players": list(PLAYERS4),
        "first_dealer": 0,
        "rules": {},
        "deals": deals,
    }
    record.update(fields)
    return record


def played(
    taker: int, bid: int | str, tricks: list[int], contract: str = "hearts"
) -> dict[str, Any]:
    """A played Boulmous deal."""
    return {"taker": taker, "bid": bid, "contract": contract, "tricks": tricks}


PASSED: dict[str, Any] = {"passed": True}


def standings(record: dict[str, Any]) -> Any:
    """Parse and score a record dict."""
    return score_record(parse_record(record))


PLAYERS_BOMBU = ["Marius", "Fanny", "César", "Honorine"]
BOMBU_CONTRACTS = ["no-tricks", "no-hearts", "no-queens", "no-bombu", "salad", "reussite"]


def bombu_record(deals: list[Any], **fields: Any) -> dict[str, Any]:
    """A Bombu record dict with these deals."""
    record: dict[str, Any] = {
        "format": "referee-game/1",
        "game": "bombu",
        "players": list(PLAYERS_BOMBU),
        "first_dealer": 0,
        "rules": {},
        "deals": deals,
    }
    record.update(fields)
    return record


#: One plain manche of Bombu, valid in any order (deltas in the comments).
BOMBU_MANCHE: list[dict[str, Any]] = [
    {"contract": "no-tricks", "tricks": [1, 3, 2, 2]},  # 10 30 20 20
    {"contract": "no-hearts", "hearts": [3, 0, 4, 1]},  # 30 0 40 10
    {"contract": "no-queens", "queens": [0, 2, 1, 1]},  # 0 40 20 20
    {"contract": "no-bombu", "bombu": 2},  # 0 0 80 0
    {
        "contract": "salad",
        "tricks": [2, 3, 1, 2],
        "hearts": [2, 3, 0, 3],
        "queens": [1, 2, 0, 1],
        "bombu": 3,
    },  # 60 100 10 150
    {"contract": "reussite", "finish": [1, 3, 0, 2]},  # 0 -200 0 -120
]


PLAYERS_PITCH = ["Dale", "Rhonda", "Earl", "Peggy"]
PLAYERS_PITCH5 = ["Dale", "Rhonda", "Earl", "Peggy", "Walt"]


def pitch_record(deals: list[Any], five: bool = False, **fields: Any) -> dict[str, Any]:
    """A Pitch record dict (four-handed unless `five`)."""
    record: dict[str, Any] = {
        "format": "referee-game/1",
        "game": "pitch",
        "players": list(PLAYERS_PITCH5 if five else PLAYERS_PITCH),
        "first_dealer": 0,
        "rules": {},
        "deals": deals,
    }
    record.update(fields)
    return record


def pitch_points(variant: int = 10, default: int | None = 0, **won: int | None) -> dict[str, Any]:
    """Every point card of the variant won by `default`, except those named."""
    from referee.games.pitch.rules import VARIANTS

    points: dict[str, Any] = {card.value: default for card in VARIANTS[variant].points}
    points.update(won)
    return points


def hand(
    bidder: int, bid: int | str, points: dict[str, Any], trump: str = "spades", **extra: Any
) -> dict[str, Any]:
    """A Pitch hand."""
    return {"bidder": bidder, "bid": bid, "trump": trump, "points": points, **extra}


def assert_refused(
    record: dict[str, Any], code: str, field: str | None, deal: int | None, english: str | None
) -> None:
    """The record is refused: its first problem has this code, field and deal, reads
    `english` in English (when given) and has its own French."""
    import pytest

    from referee.engine.errors import RulesError

    with pytest.raises(RulesError) as caught:
        standings(record)
    first = caught.value.problems[0]
    assert (first.code, first.field, first.deal) == (code, field, deal)
    assert (caught.value.field, caught.value.deal) == (field, deal)
    if english is not None:
        assert caught.value.messages("en")[0] == english
    french = caught.value.messages("fr")[0]
    assert french
    assert french != caught.value.messages("en")[0]
