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
    assert standings["money"]["net"] == ["47.50", "12.50", "-15.00", "-27.50", "-17.50"]


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
