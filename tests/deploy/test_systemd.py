"""deploy/systemd/: the units pass `systemd-analyze verify` without a word, and
their command lines, run as written (but for this machine's paths and a free
port), serve the app and back it up."""

from __future__ import annotations

import configparser
import datetime
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from tests.deploy.conftest import DEPLOY, replaced
from tests.server.conftest import Phone, free_port

pytestmark = pytest.mark.deploy

UNITS = DEPLOY / "systemd"
#: Where the kit installs the app, and where this test's environment has it.
INSTALLED, HERE = "/opt/referee/bin/referee", str(Path(sys.executable).parent / "referee")


def service(name: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNITS / name, encoding="utf-8")
    return parser["Service"]


def settings(database: str) -> dict[str, str]:
    """referee.env as the units read it, with this test's database and key."""
    values = {}
    for line in (UNITS / "referee.env").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            key, value = line.split("=", 1)
            values[key] = value
    assert set(values) == {
        "REFEREE_SECRET_KEY",
        "DATABASE_URL",
        "REFEREE_URL",
        "REFEREE_HTTPS",
        "REFEREE_BEHIND_PROXY",
    }
    return {**values, "DATABASE_URL": database, "REFEREE_SECRET_KEY": "systemd-test"}


def test_the_units_verify_cleanly(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is needed (make test-deploy installs systemd)"
    for name in ("referee.service", "referee-backup.service", "referee-backup.timer"):
        text = (UNITS / name).read_text(encoding="utf-8").replace(INSTALLED, HERE)
        (tmp_path / name).write_text(text, encoding="utf-8")
    done = subprocess.run(
        [analyze, "verify", *(str(p) for p in sorted(tmp_path.iterdir()))],
        capture_output=True,
        text=True,
        env={**os.environ, "SYSTEMD_LOG_LEVEL": "notice"},
    )
    assert (done.returncode, done.stderr) == (0, "")


def test_the_service_command_line_serves(database: str, tmp_path: Path) -> None:
    unit = service("referee.service")
    assert unit["ExecStart"].startswith(INSTALLED)
    assert unit["StateDirectory"] == "referee"
    port = free_port()
    command = replaced(
        unit["ExecStart"],
        [(INSTALLED, HERE), ("--port 8000", f"--port {port}"), ("/var/lib/referee", str(tmp_path))],
    )
    assert "--host 127.0.0.1" in command  # only the proxy on this machine reaches it
    env = {**os.environ, **settings(database)}
    with (tmp_path / "serve.log").open("wb") as log:
        process = subprocess.Popen(
            shlex.split(command), env=env, stdout=log, stderr=log, start_new_session=True
        )
    try:
        phone = Phone(port)
        assert phone.healthy(process, 30), (tmp_path / "serve.log").read_text()
        token = phone.new_game(["Ana", "Bruno", "Chloé", "Driss"])
        status, page, _ = phone.request("GET", f"/g/{token}")
        assert status == 200
        assert "Chloé" in page
        phone.close()
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # what systemd's KillSignal sends
        stopped = time.monotonic()
        process.wait(timeout=int(unit["TimeoutStopSec"]))
    assert time.monotonic() - stopped < int(unit["TimeoutStopSec"])
    log_text = (tmp_path / "serve.log").read_text()
    assert f'"GET /g/{token} HTTP/1.1" 200' in log_text  # --access-log


def test_the_backup_command_line_writes_todays_folder(database: str, tmp_path: Path) -> None:
    unit = service("referee-backup.service")
    assert unit["Type"] == "oneshot"
    command = replaced(
        unit["ExecStart"], [(INSTALLED, HERE), ("/var/lib/referee", str(tmp_path)), ("%%", "%")]
    )
    env = {**os.environ, **settings(database)}
    # The schema is brought up to date by the server's first start; a restore (of an
    # empty folder) does it too.
    (tmp_path / "none").mkdir()
    subprocess.run(
        [HERE, "restore", "--data", str(tmp_path), str(tmp_path / "none")], env=env, check=True
    )
    done = subprocess.run(shlex.split(command), env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    weekday = datetime.datetime.now().strftime("%a")
    assert (tmp_path / "backups" / weekday / "manifest.json").is_file()
    # Last week's backup of a game this (empty) database lacks: the night fails,
    # and the folder keeps it (issue 37: it was deleted, the unit exiting 0).
    folder = tmp_path / "backups" / weekday
    token = "A" * 24
    game = (EXAMPLES / "pitch-moon.json").read_bytes()
    (folder / f"{token}.json").write_bytes(game)
    manifest = {"format": "referee-backup/1", "taken_at": "2026-11-28T04:00:00", "games": [token]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    kept = {path.name: path.read_bytes() for path in folder.iterdir()}
    done = subprocess.run(shlex.split(command), env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert "--replace" in done.stderr
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == kept


def test_the_timer_runs_nightly() -> None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(UNITS / "referee-backup.timer", encoding="utf-8")
    assert parser["Timer"]["OnCalendar"] == "*-*-* 04:00:00"
    assert parser["Timer"]["Persistent"] == "true"
