"""`referee explain`: each deal's steps, as lines or JSON, in the user's language; the
steps' deltas add up to the deltas `referee score` gives."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from referee.cli import explain_command, score_command
from tests.cli.test_score import FakeStdin
from tests.conftest import EXAMPLES


def run(path: str, as_json: bool, lang: str = "en", stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = explain_command(path, as_json, lang, out, err, FakeStdin(stdin))
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("example", ["boulmous-with-stake", "bombu-first-manche", "pitch-moon"])
def test_the_steps_add_up_to_the_scored_deltas(example: str) -> None:
    path = str(EXAMPLES / f"{example}.json")
    status, out, err = run(path, as_json=True)
    assert (status, err) == (0, "")
    explained = json.loads(out)
    scored = io.StringIO()
    score_command(path, "en", scored, io.StringIO(), FakeStdin(b""))
    deals = json.loads(scored.getvalue())["deals"]
    assert [d["deal"] for d in explained] == list(range(1, len(deals) + 1))
    for deal, expected in zip(explained, deals, strict=True):
        sums = [
            sum(s["deltas"][seat] for s in deal["steps"]) for seat in range(len(expected["deltas"]))
        ]
        assert sums == expected["deltas"]
        assert all(s["text"] for s in deal["steps"])


def test_lines_in_french_from_standard_input() -> None:
    data = (EXAMPLES / "pitch-moon.json").read_bytes()
    status, out, _ = run("-", as_json=False, lang="fr", stdin=data)
    assert status == 0
    assert out.splitlines()[:2] == [
        "Donne 1",
        "  Rhonda & Peggy ont pris 7 des 10 points\u202f; les autres 3.",
    ]
    # A team in seat order, as the scoreboard shows it (issue 38, item 8).
    assert "  Lune réussie depuis 9\u202f: Rhonda & Peggy passent à 52." in out.splitlines()


def test_a_record_that_cannot_be_and_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "referee-game/1", "game": "chess"}')
    status, out, err = run(str(bad), as_json=True)
    assert (status, out) == (1, "")
    assert "Unknown game" in err
    status, out, err = run(str(tmp_path / "missing.json"), as_json=False)
    assert (status, out) == (2, "")
    assert "annot read" in err
