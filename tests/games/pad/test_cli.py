"""`referee score` on a score pad record: the standings, the money, and a refusal in
the player's language."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli.test_score import _run, _write

ROOT = Path(__file__).resolve().parents[3]


def test_referee_score_reads_a_pad_record(tmp_path: Path) -> None:
    status, out, err = _run(str(ROOT / "examples" / "pad-tarot-zero-sum.json"))
    assert (status, err) == (0, "")
    standings = json.loads(out)
    assert standings["game"] == "pad"
    assert standings["scores"] == [95, 25, -30, -55, -35]
    assert standings["winners"] == [0]
    # Zero-sum by the point: each player's score × 0.10 (Referee's ruling).
    assert standings["money"]["net"] == ["9.50", "2.50", "-3.00", "-5.50", "-3.50"]


def _money(tmp_path: Path, record: dict[str, object]) -> list[str]:
    status, out, err = _run(_write(tmp_path, record))
    assert (status, err) == (0, "")
    net: list[str] = json.loads(out)["money"]["net"]
    return net


def test_by_the_point_a_zero_sum_pad_pays_each_his_score(tmp_path: Path) -> None:
    """The issue's tarot: Émile at +452 and 0.10 a point gets 45.20, not 5 × that;
    Ana at −10 pays 1.00. Teams and "the lowest wins" keep the ruling's shape."""
    record: dict[str, object] = {
        "format": "referee-game/1",
        "game": "pad",
        "players": ["Ana", "Bruno", "Chloé", "Driss", "Émile"],
        "rules": {"zero_sum": True},
        "stake": "0.10",
        "stake_per": "point",
        "deals": [{"points": [-10, -150, -140, -152, 452]}],
    }
    assert _money(tmp_path, record) == ["-1.00", "-15.00", "-14.00", "-15.20", "45.20"]
    record["rules"] = {"zero_sum": True, "lowest_wins": True}
    assert _money(tmp_path, record) == ["1.00", "15.00", "14.00", "15.20", "-45.20"]
    # Two teams of two, zero-sum: each seat wins or loses its team's score.
    record["players"] = ["Ana", "Bruno", "Chloé", "Driss"]
    record["rules"] = {"zero_sum": True, "teams": 2}
    record["deals"] = [{"points": [82, -82]}]
    assert _money(tmp_path, record) == ["8.20", "-8.20", "8.20", "-8.20"]


def test_by_the_point_any_other_pad_settles_each_pair_difference(tmp_path: Path) -> None:
    """Not zero-sum: each pair settles its difference (Ana 6 − 3 − 1 = +2 stakes)."""
    record: dict[str, object] = {
        "format": "referee-game/1",
        "game": "pad",
        "players": ["Ana", "Bruno", "Chloé"],
        "stake": "0.10",
        "stake_per": "point",
        "deals": [{"points": [5, 2, 4]}],
    }
    assert _money(tmp_path, record) == ["0.40", "-0.50", "0.10"]


def test_referee_score_refuses_a_pad_deal_that_does_not_add_up(tmp_path: Path) -> None:
    record = json.loads((ROOT / "examples" / "pad-tarot-zero-sum.json").read_text("utf-8"))
    record["deals"][0]["points"] = [40, -10, -10, -10, -9]
    status, out, err = _run(_write(tmp_path, record), lang="fr")
    assert (status, out) == (1, "")
    assert err.splitlines() == [
        "donne 1\u202f: les points font 1, pas 0\u202f: avec cette règle maison une donne fait zéro"
    ]


def test_the_command_line_scores_the_pad_examples() -> None:
    for name in ("pad-teams-target", "pad-lowest-wins"):
        path = ROOT / "examples" / f"{name}.json"
        done = subprocess.run(
            [sys.executable, "-m", "referee", "score", str(path)],
            capture_output=True,
            text=True,
            check=True,
        )
        expected = json.loads((ROOT / "examples" / f"{name}.expected.json").read_text("utf-8"))
        assert json.loads(done.stdout)["winners"] == expected["winners"]
