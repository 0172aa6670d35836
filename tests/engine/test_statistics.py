"""A table's statistics (engine/statistics.py and each game's `tally`), against small
tables counted by hand: three examples (examples/) played by one table's people."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

from referee.engine.records import parse_record, score_record
from referee.engine.statistics import Played, played, statistics
from tests.conftest import EXAMPLES
from tests.engine.helpers import BOMBU_MANCHE, PASSED, bombu_record, boulmous_record
from tests.engine.helpers import played as boulmous_deal

DAY = datetime.date(2026, 11, 27)


def example(name: str, people: list[str], **changes: Any) -> Played:
    record = json.loads((EXAMPLES / f"{name}.json").read_text())
    record.update(changes)
    parsed = parse_record(record)
    return played(parsed, score_record(parsed), people, DAY, "EUR")


def tally_of(record: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    parsed = parse_record(record)
    return played(parsed, score_record(parsed), record["players"], DAY, "EUR").tally


def test_boulmous_tally_counted_by_hand() -> None:
    record = boulmous_record(
        [
            boulmous_deal(0, 3, [3, 1, 1, 1]),  # Ana makes 3
            boulmous_deal(1, 4, [1, 2, 2, 1]),  # Bruno: boîte
            PASSED,
            boulmous_deal(2, "boulmous", [0, 0, 6, 0]),  # Chloé's boulmous made
            boulmous_deal(3, "boulmous", [1, 1, 1, 3]),  # Driss's failed: a boîte too
        ]
    )
    assert tally_of(record) == {
        "bids": (1, 1, 1, 1),
        "made": (1, 0, 1, 0),
        "boites": (0, 1, 0, 1),
        "boulmous_made": (0, 0, 1, 0),
        "boulmous_failed": (0, 0, 0, 1),
    }


def test_bombu_tally_capot_reussite_and_points_per_contract() -> None:
    capot = {"contract": "no-tricks", "tricks": [8, 0, 0, 0]}  # manche 2: Marius, −320
    tally = tally_of(bombu_record([*BOMBU_MANCHE, capot]))
    assert tally["capots"] == (1, 0, 0, 0)
    assert tally["reussite_first"] == (0, 1, 0, 0)  # finish [1, 3, 0, 2]
    assert tally["reussite_second"] == (0, 0, 0, 1)
    assert tally["points:no-tricks"] == (10 - 320, 30, 20, 20)
    assert tally["deals:no-tricks"] == (2, 2, 2, 2)
    assert tally["points:salad"] == (60, 100, 10, 150)
    assert tally["deals:reussite"] == (1, 1, 1, 1)


def three_games() -> list[Played]:
    """Three examples at one table: Boulmous for money (finished, Ana wins), the
    Pitch moon (Bruno & Élodie win), Bombu's first manche (not finished)."""
    return [
        example("boulmous-with-stake", ["Ana", "Bruno", "Chloé", "Driss"]),
        example("pitch-moon", ["Ana", "Bruno", "Chloé", "Élodie"]),
        example("bombu-first-manche", ["Bruno", "Chloé", "Driss", "Ana"]),
    ]


def test_people_games_wins_and_money() -> None:
    stats = statistics(three_games())
    assert stats.games == 3
    lines = {line.person: line for line in stats.people}
    assert [line.person for line in stats.people] == ["Ana", "Bruno", "Chloé", "Driss", "Élodie"]
    counted = {p: (n.games, n.finished, n.wins) for p, n in lines.items()}
    assert counted == {
        "Ana": (3, 2, 1),
        "Bruno": (3, 2, 1),
        "Chloé": (3, 2, 0),
        "Driss": (2, 1, 0),
        "Élodie": (1, 1, 1),
    }
    assert lines["Ana"].win_rate == Fraction(1, 2)
    assert lines["Élodie"].win_rate == 1
    # The Boulmous at 2 € is the only game played for money: 14, −4, −4, −6.
    money = {p: dict(line.money).get("EUR") for p, line in lines.items()}
    assert money == {
        "Ana": Decimal("14.00"),
        "Bruno": Decimal("-4.00"),
        "Chloé": Decimal("-4.00"),
        "Driss": Decimal("-6.00"),
        "Élodie": Decimal(0),
    }
    (trend,) = stats.money
    assert trend.currency == "EUR"
    assert trend.days == (DAY,)
    assert trend.series[0] == (Decimal("14.00"),)


def test_money_over_time_adds_up_game_after_game() -> None:
    games = three_games()
    twice = [games[0], example("boulmous-with-stake", ["Driss", "Chloé", "Bruno", "Ana"])]
    (trend,) = statistics(twice).money
    by_person = dict(zip(trend.people, trend.series, strict=True))
    # Second game: Driss (seat 0) +14, Chloé −4, Bruno −4, Ana −6.
    assert by_person["Ana"] == (Decimal(14), Decimal(8))
    assert by_person["Driss"] == (Decimal(-6), Decimal(8))
    assert by_person["Chloé"] == (Decimal(-4), Decimal(-8))


def test_head_to_head_on_finished_games_partners_apart() -> None:
    stats = statistics(three_games())

    def h2h(a: str, b: str) -> tuple[int, int, int] | None:
        line = stats.against(a, b)
        return None if line is None else (line.together, line.ahead, line.behind)

    # Boulmous: 21 (Ana wins), 19, 9, −3. Pitch: Bruno & Élodie win, 52 to 7.
    assert h2h("Ana", "Bruno") == (2, 1, 1)
    assert h2h("Bruno", "Ana") == (2, 1, 1)
    assert h2h("Ana", "Chloé") == (1, 1, 0)  # partners in the Pitch game
    assert h2h("Bruno", "Chloé") == (2, 2, 0)
    assert h2h("Chloé", "Élodie") == (1, 0, 1)
    assert h2h("Driss", "Ana") == (1, 0, 1)
    assert h2h("Bruno", "Élodie") is None  # partners, never against each other
    assert h2h("Driss", "Élodie") is None  # never at the same finished game


def test_figures_per_game_type_per_person() -> None:
    stats = statistics(three_games())
    kinds = {f.game: f for f in stats.figures}
    assert list(kinds) == ["boulmous", "pitch", "bombu"]
    boulmous = {row.person: row.values for row in kinds["boulmous"].rows}
    keys = [f.key for f in kinds["boulmous"].figures]
    assert keys == ["bids", "made", "boites", "boulmous_made", "boulmous_failed"]
    # Takers: Hédi (Bruno) deals 1, 5, 9; Yasmine (Ana) 3, 6, 8, 10 (3: boulmous);
    # Karim (Driss) deal 4, 5 bid and 3 taken: a boîte; Sonia (Chloé) deal 7.
    assert boulmous == {
        "Ana": (4, 4, 0, 1, 0),
        "Bruno": (3, 3, 0, 0, 0),
        "Chloé": (1, 1, 0, 0, 0),
        "Driss": (1, 0, 1, 0, 0),
    }
    pitch = {row.person: row.values for row in kinds["pitch"].rows}
    assert pitch == {
        "Ana": (0, 0, 0, 0),
        "Bruno": (1, 0, 0, 0),
        "Chloé": (1, 0, 0, 0),
        "Élodie": (1, 0, 1, 1),  # Peggy's moon, made
    }
    bombu = kinds["bombu"]
    row = {r.person: r.values for r in bombu.rows}
    at = {f.key: i for i, f in enumerate(bombu.figures)}
    # Réussite finish [1, 3, 0, 2]: Chloé (seat 1) first, Ana (seat 3) second.
    assert row["Chloé"][at["reussite_first"]] == 1
    assert row["Ana"][at["reussite_second"]] == 1
    assert row["Bruno"][at["capots"]] == 0
    # No tricks, one deal: 10, 30, 20, 20.
    assert row["Bruno"][at["points:no-tricks"]] == 10
    assert row["Chloé"][at["points:no-tricks"]] == 30
    assert all(r.games == 1 for r in bombu.rows)


def test_no_games_no_figures() -> None:
    stats = statistics([])
    assert (stats.games, stats.people, stats.money, stats.figures) == (0, (), (), ())
