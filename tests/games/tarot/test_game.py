"""A tarot game as a record: deals added up, the end, the money by the point (each
player's score × the stake: a zero-sum game), the dealer passing to the right."""

from __future__ import annotations

from typing import Any

from referee.engine.records import dump_record, parse_record, score_record
from referee.games.tarot.rules import GAME


def tarot(deals: list[Any], players: int = 4, **fields: Any) -> dict[str, Any]:
    names = ["Ana", "Bruno", "Chloé", "Driss", "Émile"][:players]
    return {
        "format": "referee-game/1",
        "game": "tarot",
        "players": names,
        "first_dealer": 0,
        "rules": {},
        "deals": deals,
        **fields,
    }


def test_a_short_evening_of_five() -> None:
    record = tarot(
        [
            {"taker": 1, "contract": "garde", "partner": 3, "bouts": 2, "points": 47},
            {"taker": None},
            {"taker": 4, "contract": "petite", "partner": 4, "bouts": 1, "points": 45},
            {
                "taker": 0,
                "contract": "garde_sans",
                "partner": 2,
                "bouts": 2,
                "points": 51,
                "petit_au_bout": "defence",
                "last": True,
            },
        ],
        players=5,
        stake="0.10",
        stake_per="point",
    )
    standings = score_record(parse_record(record))
    # 62 to Bruno's side; the petite failed by 6: −31 × 4 for Émile alone; 100 ×2.
    assert standings.deals[0].deltas == (-62, 124, -62, 62, -62)
    assert standings.deals[1].deltas == (0, 0, 0, 0, 0)
    assert standings.deals[2].deltas == (31, 31, 31, 31, -124)
    assert standings.deals[3].deltas == (200, -100, 100, -100, -100)
    assert standings.scores == (169, 55, 69, -7, -286)
    assert standings.finished
    assert standings.winners == (0,)
    assert standings.money is not None
    assert [str(n) for n in standings.money.net] == ["16.90", "5.50", "6.90", "-0.70", "-28.60"]
    assert dump_record(parse_record(record))["deals"] == record["deals"]


def test_the_deal_passes_to_the_right_and_a_number_of_deals_ends_it() -> None:
    assert [GAME.dealer_of(0, n, 4) for n in (1, 2, 3, 4, 5)] == [0, 3, 2, 1, 0]
    deals = [{"taker": None}] * 3
    standings = score_record(parse_record(tarot(deals, rules={"deals": 3})))
    assert standings.finished
    tally = GAME.tally(parse_record(tarot(deals[:1])), standings)
    assert tally["taken"] == (0, 0, 0, 0)
