"""`referee score`: standings on stdout; problems on stderr, one per line, no traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.cli import main, score_command, user_language
from tests.engine.helpers import boulmous_record, played


class FakeStdin(io.StringIO):
    """A text stdin with a binary buffer, as sys.stdin has."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.buffer = io.BytesIO(data)


def _run(path: str, lang: str = "en", stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = score_command(path, lang, out, err, FakeStdin(stdin))
    return status, out.getvalue(), err.getvalue()


def _write(tmp_path: Path, record: Any) -> str:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return str(path)


def test_scores_a_file(tmp_path: Path) -> None:
    status, out, err = _run(_write(tmp_path, boulmous_record([played(2, 4, [1, 0, 4, 1])])))
    assert (status, err) == (0, "")
    assert json.loads(out)["scores"] == [1, 0, 4, 1]


def test_reads_standard_input() -> None:
    record = json.dumps(boulmous_record([played(2, 4, [1, 0, 4, 1])])).encode()
    status, out, _ = _run("-", stdin=record)
    assert status == 0
    assert json.loads(out)["next_dealer"] == 1


def test_invalid_record_one_line_per_problem(tmp_path: Path) -> None:
    record = boulmous_record([played(2, 4, [1, 0, 3, 1]), played(9, 4, [1, 0, 4, 1])])
    status, out, err = _run(_write(tmp_path, record))
    assert status == 1
    assert out == ""
    assert err.splitlines() == [
        "deal 1: tricks add up to 5, a deal has 6",
        "deal 2: taker names a player who is not at this table",
    ]


def test_invalid_record_in_french(tmp_path: Path) -> None:
    status, _, err = _run(_write(tmp_path, boulmous_record([played(2, 4, [1, 0, 3, 1])])), "fr")
    assert status == 1
    assert err == "donne 1\u202f: les levées font 5 au total, une donne en compte 6\n"


def test_missing_file(tmp_path: Path) -> None:
    status, out, err = _run(str(tmp_path / "nope.json"), "fr")
    assert status == 2
    assert out == ""
    assert err.startswith("impossible de lire ")


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text("hello", encoding="utf-8")
    status, _, err = _run(str(path))
    assert status == 1
    assert err.startswith("The file cannot be read: it is damaged at line 1")


@pytest.mark.parametrize(
    ("option", "environ", "lang"),
    [
        ("fr", {"LANG": "en_US.UTF-8"}, "fr"),
        (None, {"LANG": "fr_FR.UTF-8"}, "fr"),
        (None, {"LC_ALL": "en_GB.UTF-8", "LANG": "fr_FR.UTF-8"}, "en"),
        (None, {"LC_MESSAGES": "fr_CA", "LANG": "en_US"}, "fr"),
        (None, {}, "en"),
    ],
)
def test_user_language(option: str | None, environ: dict[str, str], lang: str) -> None:
    assert user_language(option, environ) == lang


def test_main_with_lang_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, boulmous_record([played(2, 4, [1, 0, 3, 1])]))
    assert main(["--lang", "fr", "score", path]) == 1
    assert capsys.readouterr().err.startswith("donne 1\u202f: ")
    assert main(["score", path, "--lang", "en"]) == 1
    assert capsys.readouterr().err.startswith("deal 1: ")


def _score_in_a_process(path: Path, lang: str) -> subprocess.CompletedProcess[str]:
    """`referee score` as a user runs it, in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "referee.cli", "score", str(path)],
        capture_output=True,
        text=True,
        check=False,
        env={"LANG": lang, "PATH": ""},
    )


def test_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(b"\xff\xfe{")
    done = _score_in_a_process(path, "fr_FR.UTF-8")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.strip()


def test_closed_pipe_stops_quietly() -> None:
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    # A record with many deals prints more than a pipe holds once `head` has gone.
    record = boulmous_record([{"passed": True}] * 300, rules={"target": 999})
    done = subprocess.run(
        [sys.executable, "-m", "referee.cli", "score", "-"],
        input=json.dumps(record).encode(),
        stdout=reader.stdin,
        stderr=subprocess.PIPE,
        check=False,
    )
    assert reader.stdin is not None
    reader.stdin.close()
    reader.wait()
    assert done.returncode == 0
    assert done.stderr == b""


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"format": "referee-game/1", "first_dealer": ' + "9" * 5000 + "}", "digits"),
        (
            json.dumps(boulmous_record([], stake="1E+1000000")),
            'not an amount like "0.50"',
        ),
        ('{"rules": ' + "[" * 980 + "]" * 980 + "}", "nest too deep"),
        (json.dumps(boulmous_record([])).replace("Ana", "\\ud800x"), "U+D800"),
    ],
    ids=["5000-digits", "exponent-stake", "980-deep", "lone-surrogate"],
)
def test_what_json_reads_but_no_record_holds_is_one_line(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    done = _score_in_a_process(path, "C.UTF-8")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert words in done.stderr
