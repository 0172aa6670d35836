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
