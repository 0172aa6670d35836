"""Every `referee` subcommand, given what a user may type by mistake, answers in one
short line in the user's language with a non-zero exit status: never a traceback
(issue 36). Bad arguments, unreadable files, deep or huge JSON, ports out of range,
missing or existing paths, each tried on each subcommand that takes it."""

from __future__ import annotations

import argparse
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.cli import build_parser, main
from tests.conftest import EXAMPLES

#: A file of each kind a user may hand a command by mistake, made in `folder`.
FILES: dict[str, Callable[[Path], str]] = {
    "deep": lambda d: _write(d / "deep.json", b"[" * 100_000 + b"]" * 100_000),
    "huge": lambda d: _write(d / "huge.json", b"[" + b"1," * 600_000 + b"1]"),
    "latin1": lambda d: _write(d / "latin1.json", '{"players": ["Chloé"]}'.encode("latin-1")),
    "pdf": lambda d: _write(d / "sheet.pdf", b"%PDF-1.7\n\x00\x01binary"),
    "plain": lambda d: _write(d / "plain.txt", b"not a folder"),
    "missing": lambda d: str(d / "no" / "such" / "file.json"),
    "folder": lambda d: str(d),
    "good": lambda d: str(EXAMPLES / "pitch-moon.json"),
    "copy": lambda d: _write(d / "game.json", (EXAMPLES / "pitch-moon.json").read_bytes()),
    "endless": lambda d: "/dev/zero",
    "seven": lambda d: _write(
        d / "seven.json",
        b'{"format": "referee-game/1", "game": "pitch", "players": ["A","B","C","D","E","F","G"]}',
    ),
}


def _write(path: Path, data: bytes) -> str:
    path.write_bytes(data)
    return str(path)


#: (id, argv with {kind} for a file of `FILES` and {busy} for a port in use, what
#: the English line says). The id starts with the subcommand it tries.
CASES: list[tuple[str, list[str], str]] = [
    ("referee-no-command", [], "missing: COMMAND"),
    ("referee-unknown-command", ["frobnicate"], "'frobnicate' is not one of"),
    ("referee-unknown-option", ["--colour", "score", "{good}"], "not understood: --colour"),
    ("score-no-file", ["score"], "missing: file"),
    ("score-missing-file", ["score", "{missing}"], "no such file or folder"),
    ("score-a-folder", ["score", "{folder}"], "it is a folder"),
    ("score-deep-json", ["score", "{deep}"], "nest too deep"),
    ("score-huge-json", ["score", "{huge}"], "larger than 1024 KB"),
    ("score-endless-input", ["score", "{endless}"], "larger than 1024 KB"),
    ("score-not-utf8", ["score", "{latin1}"], "not UTF-8"),
    ("score-a-pdf", ["score", "{pdf}"], "cannot be read"),
    ("score-seven-players", ["score", "{seven}"], "played by 4 or 5 players, not 7"),
    ("score-two-files", ["score", "{good}", "{good}"], "not understood"),
    ("explain-missing-file", ["explain", "{missing}"], "no such file or folder"),
    ("explain-deep-json", ["explain", "--json", "{deep}"], "nest too deep"),
    ("explain-a-folder", ["explain", "{folder}"], "it is a folder"),
    ("draw-no-players", ["draw", "--rounds", "3"], "missing: --players"),
    (
        "draw-three-players",
        ["draw", "--players", "3", "--rounds", "3"],
        "Players 3 is out of range",
    ),
    ("draw-no-round", ["draw", "--players", "16", "--rounds", "0"], "Rounds 0 is out of range"),
    (
        "draw-unknown-format",
        ["draw", "--players", "16", "--rounds", "3", "--format", "swiss"],
        'Format: "swiss" is not one of',
    ),
    (
        "draw-ten-million-players",
        ["draw", "--players", "10000000", "--rounds", "6"],
        "Players 10000000 is out of range: 4 to 1000",
    ),
    ("draw-not-a-number", ["draw", "--players", "many", "--rounds", "3"], "not a whole number"),
    ("rank-no-file", ["rank"], "missing: file"),
    ("rank-missing-file", ["rank", "{missing}"], "no such file or folder"),
    ("rank-a-folder", ["rank", "--json", "{folder}"], "it is a folder"),
    ("rank-deep-json", ["rank", "{deep}"], "nest too deep"),
    ("rank-not-utf8", ["rank", "{latin1}"], "not UTF-8"),
    ("rank-a-game-record", ["rank", "{good}"], '"referee-game/1" is not one of'),
    ("rank-a-pdf", ["rank", "{pdf}"], "cannot be read"),
    ("judge-no-cards", ["judge", "pitch"], "missing: CARD"),
    ("judge-unknown-game", ["judge", "chess", "AH"], 'Unknown game "chess"'),
    ("judge-bombu-given-a-trump", ["judge", "bombu", "--trump", "hearts", "AH"], "without trump"),
    ("judge-boulmous-without-trump", ["judge", "boulmous", "AH", "KH"], "Which trump?"),
    ("judge-unknown-trump", ["judge", "pitch", "--trump", "stars", "AH"], "not a trump"),
    ("judge-players-not-a-number", ["judge", "pitch", "--players", "x", "AH"], "'x' is not"),
    ("judge-players-huge", ["judge", "pitch", "--players", "9" * 40, "AH"], "is not a whole"),
    ("judge-players-three", ["judge", "pitch", "--players", "3", "AH"], "4 or 5 players"),
    (
        "judge-deep-rules",
        ["judge", "pitch", "--trump", "hearts", "--rules", "DEEP", "AH"],
        "House rules cannot be read",
    ),
    (
        "judge-huge-rules",
        ["judge", "pitch", "--trump", "hearts", "--rules", "HUGE", "AH"],
        'does not know "x"',
    ),
    (
        "judge-rules-not-json",
        ["judge", "pitch", "--trump", "hearts", "--rules", "{x", "AH"],
        "House rules cannot be read",
    ),
    (
        "judge-rules-a-list",
        ["judge", "pitch", "--trump", "hearts", "--rules", "[1]", "AH"],
        "rules",
    ),
    ("judge-bad-card", ["judge", "pitch", "--trump", "hearts", "ZZ"], "ZZ"),
    ("pdf-no-output", ["pdf", "{good}"], "missing: -o/--output"),
    ("pdf-output-no-value", ["pdf", "{good}", "-o"], "needs a value"),
    ("pdf-output-a-folder", ["pdf", "{good}", "-o", "{folder}"], "it is a folder"),
    ("pdf-output-missing-folder", ["pdf", "{good}", "-o", "{missing}"], "no such file"),
    ("pdf-over-its-own-record", ["pdf", "{copy}", "-o", "{copy}"], "the game's own file"),
    ("pdf-deep-json", ["pdf", "{deep}", "-o", "{missing}"], "nest too deep"),
    ("pdf-unknown-size", ["pdf", "{good}", "-o", "x.pdf", "--size", "a5"], "'a5' is not one of"),
    ("backup-no-folder", ["backup"], "missing: DIR"),
    ("backup-into-a-file", ["backup", "{plain}", "--data", "{folder}"], "is not a folder"),
    ("backup-data-empty", ["backup", "{folder}", "--data", ""], "--data needs a value"),
    ("backup-data-a-file", ["backup", "{folder}", "--data", "{plain}"], "check --data"),
    ("restore-missing-folder", ["restore", "{missing}", "--data", "{folder}"], "not a folder"),
    ("restore-from-a-file", ["restore", "{plain}", "--data", "{folder}"], "not a folder"),
    ("restore-data-a-file", ["restore", "{folder}", "--data", "{plain}"], "not a folder: check"),
    ("backup-data-a-typo", ["backup", "{folder}", "--data", "{missing}"], "no Referee database"),
    ("serve-port-too-high", ["serve", "--port", "99999"], "is not a port"),
    ("serve-port-negative", ["serve", "--port", "-1"], "is not a port"),
    ("serve-port-not-a-number", ["serve", "--port", "http"], "is not a port"),
    ("serve-port-in-use", ["serve", "--port", "{busy}"], "another program listens there"),
    ("serve-no-such-host", ["serve", "--host", "no.such.host.invalid"], "no such address"),
    ("serve-no-workers", ["serve", "--workers", "0"], "from 1 to 64"),
    ("serve-threads-huge", ["serve", "--threads", "100000"], "from 1 to 256"),
    ("serve-data-a-file", ["serve", "--port", "{free}", "--data", "{plain}"], "data folder"),
    ("serve-unknown-language", ["serve", "--lang", "de"], "'de' is not one of"),
]


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        yield int(listener.getsockname()[1])


def _argv(template: list[str], folder: Path, busy: int) -> list[str]:
    folder.mkdir(exist_ok=True)
    values = {kind: make(folder) for kind, make in FILES.items()}
    values["busy"] = str(busy)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        values["free"] = str(probe.getsockname()[1])
    values["DEEP"] = "[" * 5_000 + "]" * 5_000
    values[""] = ""
    values["HUGE"] = '{"x": "' + "y" * 100_000 + '"}'
    return [values.get(arg.strip("{}"), arg) if arg[:1] in "{DH" else arg for arg in template]


def _run(
    argv: list[str],
    lang: str,
    data: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, str, str]:
    # `--data` sets REFEREE_DATA for the process: monkeypatch puts it back.
    monkeypatch.setenv("REFEREE_DATA", str(data))
    monkeypatch.delenv("DATABASE_URL", raising=False)
    status = main(["--lang", lang, *argv] if argv[:1] != ["serve"] else [*argv, "--lang", lang])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("argv", "english"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_one_short_line_in_each_language(
    argv: list[str],
    english: str,
    tmp_path: Path,
    busy_port: int,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said = {}
    for lang in ("en", "fr"):
        given = _argv(argv, tmp_path / "files", busy_port)
        status, out, err = _run(given, lang, tmp_path / "data", capsys, monkeypatch)
        assert status != 0, err
        assert "Traceback" not in err + out
        lines = err.splitlines()
        assert len(lines) == 1, err
        assert len(lines[0]) <= 200, lines[0]
        said[lang] = lines[0]
    assert english in said["en"]
    assert said["fr"] != said["en"]  # the French catalogue spoke


def test_every_subcommand_is_swept() -> None:
    """A new subcommand joins the sweep: the cases name every one of them."""
    parser = build_parser()
    commands = next(
        action for action in parser._actions if isinstance(action, argparse._SubParsersAction)
    )
    swept = {case[0].split("-", 1)[0] for case in CASES}
    assert swept == {"referee", *commands.choices}


@pytest.mark.parametrize(
    "argv",
    [
        ["judge", "boulmous", "--trump", "hearts", "--rules", "[" * 1000 + "]" * 1000, "AH"],
        ["serve", "--port", "99999"],
        ["backup", "--data", "PLAIN", "BACKUP"],
    ],
    ids=["judge-deep-rules", "serve-port-out-of-range", "backup-data-a-file"],
)
def test_the_installed_command_shows_no_traceback(argv: list[str], tmp_path: Path) -> None:
    """The issue's own tries, as a user runs them: a process of its own."""
    plain = tmp_path / "plain"
    plain.write_text("x")
    argv = [
        str(plain) if a == "PLAIN" else str(tmp_path / "b") if a == "BACKUP" else a for a in argv
    ]
    done = subprocess.run(
        [sys.executable, "-m", "referee", *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr


def test_the_sheet_goes_to_standard_output(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """`-o -` writes the PDF to standard output, as `-` reads standard input."""
    assert main(["pdf", str(EXAMPLES / "pitch-moon.json"), "-o", "-"]) == 0
    assert capsysbinary.readouterr().out.startswith(b"%PDF-")


@pytest.mark.parametrize("command", [["score", "-"], ["explain", "-"], ["pdf", "-", "-o", "-"]])
def test_an_endless_pipe_stops_with_a_message(command: list[str]) -> None:
    """Issue 37: `referee score -` on an endless pipe read until memory ran out. It
    reads at most one byte more than a record may hold, then says why it stops."""
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "--lang", "en", *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None
    written = 0
    try:
        while process.poll() is None and written < 64 * 1024 * 1024:  # bounded
            process.stdin.write(b"[" * 65536)
            written += 65536
    except BrokenPipeError:
        pass  # it stopped reading, and went
    _out, err = process.communicate(timeout=30)
    assert process.returncode == 1
    assert err.decode().strip() == "The file is larger than 1024 KB; a game's file is far smaller"
    assert written < 16 * 1024 * 1024  # it did not read the 64 MB on offer
