"""French tarot's deal as the table enters it: read, refused, written back, scored."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from referee.engine.errors import RulesError
from referee.games.tarot.rules import dump_deal, parse_deal
from referee.games.tarot.scoring import Chelem, Contract, Side


def codes(raw: Any, players: int = 4) -> list[str]:
    with pytest.raises(RulesError) as caught:
        parse_deal(raw, players)
    return [p.code for p in caught.value.problems]


GARDE = {"taker": 0, "contract": "garde", "bouts": 2, "points": 47}


def test_a_plain_deal_reads_and_writes_back() -> None:
    deal = parse_deal(GARDE, 4)
    assert (deal.taker, deal.contract, deal.bouts, deal.points) == (0, Contract.GARDE, 2, 47)
    assert dump_deal(deal) == GARDE
    assert deal.deltas(4) == (186, -62, -62, -62)


def test_everyone_passed_scores_nothing() -> None:
    deal = parse_deal({"taker": None}, 4)
    assert deal.deltas(4) == (0, 0, 0, 0)
    assert dump_deal(deal) == {"taker": None}
    assert codes({"taker": None, "bouts": 2}) == ["tarot_passed_with"]


def test_half_points_and_their_bounds() -> None:
    """Halves at three and five; at four each side has an even number of cards,
    every card a half point more than a whole: whole points only."""
    for players in (3, 5):
        deal = {**GARDE, "points": 40.5, **({"partner": 1} if players == 5 else {})}
        assert parse_deal(deal, players).points == Fraction(81, 2)
        assert dump_deal(parse_deal(deal, players))["points"] == 40.5
    assert codes({**GARDE, "points": 40.5}) == ["tarot_points_whole"]
    for bad in (40.25, -1, 91.5, "47", True):
        assert codes({**GARDE, "points": bad}) == ["tarot_points"], bad


def test_points_the_bouts_make_impossible() -> None:
    """Three bouts are 13.5 points by themselves; none leaves the defence 13.5."""
    assert codes({**GARDE, "bouts": 3, "points": 13}) == ["tarot_bouts_points"]
    assert codes({**GARDE, "bouts": 0, "points": 78}) == ["tarot_bouts_points"]
    assert parse_deal({**GARDE, "bouts": 3, "points": 13.5}, 3).bouts == 3
    assert parse_deal({**GARDE, "bouts": 3, "points": 14}, 4).bouts == 3
    assert codes({**GARDE, "bouts": 4}) == ["out_of_range"]


def test_a_partner_only_at_five_and_a_chelem_needs_the_tricks_points() -> None:
    assert codes({**GARDE, "partner": 2}) == ["tarot_partner"]
    assert codes({**GARDE, "players": 1}) == ["unknown_field"]
    five = parse_deal({**GARDE, "partner": 3}, 5)
    assert five.deltas(5) == (124, -62, -62, 62, -62)
    alone = parse_deal({**GARDE, "partner": 0}, 5)  # he called his own king
    assert alone.deltas(5) == (248, -62, -62, -62, -62)
    assert codes({**GARDE, "chelem": "made"}) == ["tarot_chelem_points"]


def test_the_extras_score_as_the_ffts_count() -> None:
    """A garde sans made by 10 with two bouts, the petit lost at the end, a
    simple poignée: 35 × 4 − 40 + 20 = 120 per defender."""
    deal = parse_deal(
        {
            "taker": 1,
            "contract": "garde_sans",
            "bouts": 2,
            "points": 51,
            "petit_au_bout": "defence",
            "poignees": [1],
        },
        4,
    )
    assert deal.petit_au_bout is Side.DEFENCE
    assert deal.deltas(4) == (-120, 360, -120, -120)
    # Failed, the poignée goes to the defence, whoever showed it.
    failed = parse_deal({**GARDE, "points": 40, "poignees": [2]}, 4)
    assert failed.deltas(4)[0] == -3 * (26 * 2 + 30)  # 1 short: (25 + 1) × 2, + 30
    assert codes({**GARDE, "poignees": [4]}) == ["tarot_poignees"]
    chelem = parse_deal({**GARDE, "bouts": 3, "points": 91, "chelem": "announced_made"}, 4)
    assert chelem.chelem is Chelem.ANNOUNCED_MADE
    assert chelem.deltas(4)[1] == -((25 + 55) * 2 + 400)
