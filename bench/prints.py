"""What a concours of 100 tables prints, timed (issue 42).

    .venv/bin/python bench/prints.py            # about a minute
    .venv/bin/python bench/prints.py --runs 1   # shorter
    .venv/bin/python bench/prints.py --players 1000 --rounds 30 --concours 1 \
        --kinds slips,results --runs 1 --no-memory   # the largest the forms allow

A fresh SQLite database holds a concours of 400 players (the score pad, 6 rounds
of one deal, every result accepted, a prize split stated). Each document is drawn
as the director's page asks it (the HTML from the event, then WeasyPrint, in this
process; the server draws in its renderer process, the same work): the 100 table
cards, the 400 route slips, the ranking sheet of 400 lines and the 400 pages of
personal results; and a season of 3 such concours (its ranking, and its PDF). The
median of `--runs` is printed with the PDF's pages and size, and the peak memory
of the drawing (tracemalloc). A document must be drawn well within the renderer's
30-second limit (`referee.services.pdf.TIMEOUT`).

Only this process; nothing listens. Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)

PLAYERS = 400
ROUNDS = 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    parser.add_argument("--concours", type=int, default=3, help="concours of the season")
    parser.add_argument("--kinds", default="cards,slips,ranking,results,season")
    parser.add_argument("--no-memory", action="store_true", help="no traced run")
    args = parser.parse_args()
    players, rounds = args.players, args.rounds
    folder = tempfile.mkdtemp(prefix="referee-bench-prints-")
    url = f"sqlite:///{folder}/bench.db"
    os.environ["DATABASE_URL"] = url
    from pypdf import PdfReader

    from referee.app import create_app
    from referee.extensions import db
    from referee.services import events as service
    from referee.services import seasons
    from referee.services.pdf import html_to_pdf
    from referee.web.event_prints import document_html
    from referee.web.seasons import season_html

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "SERVER_NAME": "club.example"}
    )
    names = [f"Joueur {n}" for n in range(1, players + 1)]
    with app.app_context():
        events = []
        rng = random.Random(5)
        for month in range(args.concours):
            event = service.create(
                service.Setup(
                    name=f"Grand concours {month + 1}",
                    game="pad",
                    format="individual",
                    table_size=4,
                    rounds=rounds,
                    deals=1,
                    minutes=None,
                    ranking={"rule": "score", "tie_breaks": ["wins", "opponents", "lot"]},
                    players=names,
                    entry_fee="10",
                    prizes={"split": ["40", "25", "15", "10", "5", "5"], "kept": "10"},
                )
            )
            for _ in range(rounds):
                service.draw_round(event)
                for table in [t for t in event.tables if t.round == len(event.rounds)]:
                    assert table.game_row is not None
                    points = [rng.randint(-30, 30) for _ in range(3)]
                    service.game_service.add_deal(
                        table.game_row, {"points": [*points, -sum(points)]}
                    )
                    service.accept(event, table, None, reason="bench")
            events.append(event.id)
        season = seasons.create(
            "Saison",
            {"points": list(range(50, 0, -1)), "drop_worst": 1},
            [
                service.loaded(i)
                for i in events  # type: ignore[misc]
            ],
            "fr",
        )
        html_to_pdf("<p>warm</p>")  # WeasyPrint loaded before the clock starts
        tables = players // 4
        print(f"{players} players, {rounds} rounds, {tables} tables; median of {args.runs}")
        for kind in args.kinds.split(","):
            times, html_times = [], []
            data = b""
            peak = 0
            # The last run is traced for memory (tracemalloc slows it several
            # times): timed runs are untraced.
            for run in range(args.runs + (0 if args.no_memory else 1)):
                traced = run == args.runs
                db.session.expire_all()
                with app.test_request_context():
                    if traced:
                        tracemalloc.start()
                    started = time.perf_counter()
                    if kind == "season":
                        html = season_html(seasons.standings(season), "a4")
                    else:
                        loaded = service.loaded(events[0])
                        assert loaded is not None
                        html = document_html(loaded, kind, "a4")
                    made = time.perf_counter() - started
                    data = html_to_pdf(html)
                    if traced:
                        peak = tracemalloc.get_traced_memory()[1]
                        tracemalloc.stop()
                    else:
                        html_times.append(made)
                        times.append(time.perf_counter() - started)
            pages = len(PdfReader(io.BytesIO(data)).pages)
            made = statistics.median(html_times) * 1000
            print(
                f"  {kind:8} {statistics.median(times):6.2f} s (HTML {made:5.0f} ms)"
                f"  {pages:4} pages  {len(data) / 1024:7.0f} KB  peak {peak / 2**20:5.0f} MB"
            )
        db.session.remove()
        db.engine.dispose()


if __name__ == "__main__":
    main()
