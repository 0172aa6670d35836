"""A game's score sheet while a concours's and a season's heaviest documents are
asked for, on a real server (issue 51).

    .venv/bin/python bench/starvation.py            # about two minutes
    .venv/bin/python bench/starvation.py --players 200

A fresh SQLite database holds three concours of `--players` players (the score
pad, 6 rounds of one deal, every result in), a season of the three, and 40 games
of a few deals. `referee serve --workers 1 --threads 8` (one worker: its two
renderer processes, the sheets' and the long documents', are the only ones) on a
free port of 127.0.0.1. Then, side by side in one run:

1. idle: 20 games' sheets, one after the other (each a new sheet: never cached);
2. loaded: 20 other games' sheets, one after the other, while 4 clients ask the
   public personal results of concours 1 at once, 2 the season's PDF, and 2 the
   personal results of concours 2 and 3 (more long documents than their queue
   holds);
3. again: the same personal results, asked every 2 s until they come (each
   document is drawn in a thread of its own; a reader is told at once, 202, while
   it is being drawn), then once more (kept: answered at once).

Every request is bounded (180 s); the server is stopped at the end, by its id.
Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # bench/http.py is not the standard library's http

import urllib.error  # noqa: E402
import urllib.request  # noqa: E402

from bench.http import HOST, free_port  # noqa: E402

ROUNDS = 6
GAMES = 40
LIMIT = 180.0


def seed(url: str, players: int) -> tuple[list[str], list[str], str]:
    """The database: three concours and their season, and `GAMES` games. The public
    links of the concours, the games' links and the season's public link."""
    os.environ["DATABASE_URL"] = url
    from referee.app import create_app
    from referee.services import events as service
    from referee.services import games, seasons

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench"})
    names = [f"Joueur {n}" for n in range(1, players + 1)]
    rng = random.Random(5)
    with app.app_context():
        events = []
        for month in range(3):
            event = service.create(
                service.Setup(
                    name=f"Grand concours {month + 1}",
                    game="pad",
                    format="individual",
                    table_size=4,
                    rounds=ROUNDS,
                    deals=1,
                    minutes=None,
                    ranking={"rule": "score", "tie_breaks": ["wins", "opponents", "lot"]},
                    players=names,
                )
            )
            for _ in range(ROUNDS):
                service.draw_round(event)
                for table in [t for t in event.tables if t.round == len(event.rounds)]:
                    assert table.game_row is not None
                    points = [rng.randint(-30, 30) for _ in range(3)]
                    games.add_deal(table.game_row, {"points": [*points, -sum(points)]})
                    service.accept(event, table, None, reason="bench")
            events.append(event)
        loaded = [service.loaded(e.id) for e in events]
        rule = {"points": list(range(50, 0, -1))}
        season = seasons.create("Saison", rule, [e for e in loaded if e is not None], "fr")
        tokens = []
        for n in range(GAMES):
            game = games.create(
                games.Settings(
                    game="pad",
                    players=["Ana", "Bruno", "Chloé", "Driss"],
                    first_dealer=0,
                    rules={},
                    stake=None,
                )
            )
            for _ in range(8):
                points = [rng.randint(-20, 20) for _ in range(3)]
                games.add_deal(game, {"points": [*points, -sum(points)]})
            tokens.append(game.token)
            del n
        return [e.view_token for e in events], tokens, season.view_token


def get(port: int, path: str) -> tuple[int, float]:
    """One request: its status and seconds."""
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(f"http://{HOST}:{port}{path}", timeout=LIMIT) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError:
        status = 0
    return status, time.perf_counter() - started


def sheets(port: int, tokens: list[str]) -> tuple[list[float], list[int]]:
    times, statuses = [], []
    for token in tokens:
        status, seconds = get(port, f"/g/{token}/sheet.pdf")
        times.append(seconds)
        statuses.append(status)
    return times, statuses


def say(label: str, times: list[float], statuses: list[int]) -> None:
    ok = sum(1 for s in statuses if s == 200)
    print(
        f"  {label:34} p50 {statistics.median(times) * 1000:6.0f} ms  "
        f"max {max(times) * 1000:6.0f} ms  200: {ok}/{len(statuses)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=400)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="referee-bench-starvation-"))
    url = f"sqlite:///{folder / 'bench.sqlite3'}"
    started = time.perf_counter()
    views, tokens, season = seed(url, args.players)
    print(f"seeded in {time.perf_counter() - started:.0f} s: 3 concours of {args.players}")
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "REFEREE_SECRET_KEY": "bench"}
    env["REFEREE_RATE_LIMITS"] = "0"
    command = [sys.executable, "-m", "referee.cli", "serve", "--host", HOST]
    command += ["--port", str(port), "--workers", "1", "--threads", "8"]
    server = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(folder / "server.log").open("wb"),
        start_new_session=True,
    )
    try:
        deadline = time.time() + 60
        while get(port, "/ping")[0] != 200:
            if time.time() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.3)
        print("a game's sheet (8 deals), each a new one:")
        say("idle", *sheets(port, tokens[:20]))
        heavy: dict[str, list[tuple[int, float]]] = {}
        lock = threading.Lock()

        def ask(label: str, path: str) -> None:
            answer = get(port, path)
            with lock:
                heavy.setdefault(label, []).append(answer)

        asked = [("results 1", f"/ev/{views[0]}/results.pdf")] * 4
        asked += [("season", f"/se/{season}/season.pdf")] * 2
        asked += [("results 2", f"/ev/{views[1]}/results.pdf")]
        asked += [("results 3", f"/ev/{views[2]}/results.pdf")]
        threads = [threading.Thread(target=ask, args=item) for item in asked]
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        say("while the long documents are drawn", *sheets(port, tokens[20:]))
        for thread in threads:
            thread.join(LIMIT + 10)
        print("the long documents (status: seconds):")
        for label, answers in heavy.items():
            shown = ", ".join(f"{s}: {t:.1f}" for s, t in answers)
            print(f"  {label:34} {shown}")
        began = time.perf_counter()
        again = [get(port, f"/ev/{views[0]}/results.pdf")]
        while again[-1][0] != 200 and time.perf_counter() - began < LIMIT:
            time.sleep(2)
            again.append(get(port, f"/ev/{views[0]}/results.pdf"))
        waited = time.perf_counter() - began
        kept = get(port, f"/ev/{views[0]}/results.pdf")
        shown = ", ".join(f"{s}" for s, _t in again)
        print(f"  results 1 asked until drawn      {shown} ({waited:.0f} s)")
        print(f"  results 1 once drawn             {kept[0]}: {kept[1] * 1000:.0f} ms")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(30)


if __name__ == "__main__":
    main()
