"""The API on a real server (`referee serve`): the examples of docs/API.md run with
curl as a reader would run them, and Schemathesis fuzzes every operation of the
OpenAPI document, bounded in examples and time."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.app import create_app
from referee.extensions import db
from referee.services import events as event_service
from referee.services import games as game_service
from referee.services import tables as table_service
from tests.server.conftest import ONE_ADDRESS, Server, free_port

DOC = Path(__file__).parents[2] / "docs" / "API.md"
#: A runnable example of docs/API.md: a `sh` block that says the status it expects.
EXAMPLE = re.compile(r"```sh status=(\d{3})\n(.*?)```", re.DOTALL)
CURL = shutil.which("curl")


@pytest.fixture
def api_server(database: str, tmp_path: Path) -> Iterator[Server]:
    """A server whose writes from this one address are not rate limited."""
    running = Server(free_port(), database, tmp_path, more_env=dict(ONE_ADDRESS))
    running.start()
    yield running
    running.stop()


def a_table(database: str) -> tuple[str, str]:
    """A table with one game played at it, written in the server's database: its
    spectators' token and the game's editors' token."""
    app = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database})
    with app.app_context():
        record = {
            "format": "referee-game/1",
            "game": "boulmous",
            "players": ["Ana", "Bruno", "Chloé", "David"],
            "stake": "1",
            "deals": [{"taker": 0, "bid": 3, "contract": "hearts", "tricks": [3, 1, 1, 1]}] * 3,
        }
        game = game_service.import_record(json.dumps(record).encode())
        table = table_service.create_table("Le club")
        table_service.join(table, game)
        tokens = table.view_token, game.token
        db.session.remove()
        db.engine.dispose()
    return tokens


def a_concours(database: str) -> tuple[str, str, str]:
    """A concours of four at one table, round 1 drawn and its one deal played, in
    the server's database: its public and its tables' tokens, and table 1's code."""
    app = create_app({"SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": database})
    with app.app_context():
        setup = event_service.Setup(
            name="Concours du club",
            game="pad",
            format="individual",
            table_size=4,
            rounds=3,
            deals=1,
            minutes=None,
            ranking={"rule": "score", "tie_breaks": ["wins", "lot"]},
            players=["Ana", "Bruno", "Chloé", "David"],
        )
        event = event_service.create(setup)
        event_service.draw_round(event)
        (table,) = event.tables
        assert table.game_row is not None
        game_service.add_deal(table.game_row, {"points": [10, -5, 0, -5]})
        tokens = event.view_token, event.play_token, event_service.table_key(event, 1)
        db.session.remove()
        db.engine.dispose()
    return tokens


@pytest.mark.skipif(CURL is None, reason="curl is installed by tools/debian-packages.sh test")
def test_the_documents_examples_run_as_written(
    api_server: Server, database: str, tmp_path: Path
) -> None:
    """Each `sh` example of docs/API.md, in order, answers the status it says; the
    first one's answer gives EDITOR and VIEW to the others, as the text tells."""
    examples = EXAMPLE.findall(DOC.read_text(encoding="utf-8"))
    assert len(examples) >= 15
    table, _ = a_table(database)
    event, play, key = a_concours(database)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "BASE": f"http://127.0.0.1:{api_server.port}",
        "TABLE": table,
        "EVENT": event,
        "PLAY": play,
        "KEY": key,
        # Every curl also prints the status on a last line of its own.
        "CURL_HOME": str(tmp_path),
    }
    (tmp_path / ".curlrc").write_text('write-out = "\\n%{http_code}"\n')
    for status, script in examples:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        body, _, code = done.stdout.rpartition("\n")
        assert code == status, (script, done.stdout)
        answer: Any = json.loads(body)
        if "EDITOR" not in env:
            env["EDITOR"], env["VIEW"] = answer["editor_token"], answer["view_token"]
    # The game went where the text says: deal 1 corrected to hearts, deal 2 taken back.
    assert answer["openapi"] == "3.1.0"


def test_schemathesis_finds_no_server_error_and_nothing_outside_the_document(
    api_server: Server, database: str, tmp_path: Path
) -> None:
    """Schemathesis reads /api/v1/openapi.json and sends valid and invalid requests
    to every operation (examples, coverage, fuzzing, stateful phases), on a real
    game, table and concours: no answer may be a server error, nor break the document
    (status, content type, headers, schema), and every invalid request must be
    refused.

    One check is left out: `positive_data_acceptance` (a request the document
    allows must be accepted). A deal or a record the document allows may still be
    refused by the game's rules (the tricks of a deal must add up), which no
    schema says; those refusals are documented answers (422)."""
    table, editor = a_table(database)
    event, play, _key = a_concours(database)
    base = f"http://127.0.0.1:{api_server.port}"
    view = json.loads(
        subprocess.run(
            [sys.executable, "-c", _READ, f"{base}/api/v1/edit/{editor}"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout
    )["view_token"]
    (tmp_path / "schemathesis.toml").write_text(
        "[parameters]\n"
        f'"path.editor_token" = "{editor}"\n'
        f'"path.view_token" = "{view}"\n'
        # Deal 1 is there to correct (and to refuse taking back: not the last);
        # other numbers are tested in tests/web/test_api.py.
        '"path.number" = 1\n'
        f'"path.event_token" = "{event}"\n'
        f'"path.play_token" = "{play}"\n'
        '"path.table" = 1\n'
        "\n[[operations]]\n"
        'include-path = "/tables/{view_token}"\n'
        f'parameters = {{ "path.view_token" = "{table}" }}\n'
    )
    st = Path(sys.executable).with_name("st")
    done = subprocess.run(
        [
            str(st),
            "--config-file",
            str(tmp_path / "schemathesis.toml"),
            "run",
            f"{base}/api/v1/openapi.json",
            "--checks",
            "all",
            "--exclude-checks",
            "positive_data_acceptance",
            "--max-examples",
            "40",
            "--max-time",
            "60",
            "--workers",
            "1",
            "--seed",
            "40",
            "--generation-database",
            "none",
            "--no-color",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    found = re.search(r"(\d+) generated, (\d+) passed", done.stdout)
    assert found is not None, done.stdout[-2000:]
    assert int(found.group(1)) >= 300
    assert found.group(1) == found.group(2)
    assert "Missing test data" not in done.stdout, done.stdout[-3000:]


_READ = "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())"
