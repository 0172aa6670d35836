"""Benchmark the PDF score sheets: render time and peak memory, warm, in one process.

    .venv/bin/python bench/pdf.py

Renders in one process, warm (WeasyPrint loaded and one page drawn first), eleven
rounds in which each document is drawn in turn (so that the machine's drift touches
them alike), through the app's renderer (services/pdf.html_to_pdf: the sheets'
stylesheet, parsed once); then each document once in a fresh process, for a peak
memory of its own:
- a trivial one-page WeasyPrint document (the reference);
- the full sheet of a finished 24-deal Bombu game;
- the text of that sheet alone, in one preformatted block: the least WeasyPrint can
  do for this much text, whatever the layout (the floor);
- the full sheet of a 40-deal Boulmous game.
Then asks the app (its renderer started, as the server does) twice for a finished
game's sheet: the second answer comes from the cache. Figures go to
docs/PERFORMANCE.md.
"""

from __future__ import annotations

import multiprocessing
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# bench/http.py would shadow the standard library's `http` (which WeasyPrint's
# urllib needs) for a script run from this folder: take the folder off the path.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

RUNS = 11
TRIVIAL = "<html><body><h1>Referee</h1><p>Trivial page.</p></body></html>"


def _games() -> Any:
    """bench/engine.py, loaded by its path (this folder is off the import path)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_games", Path(__file__).with_name("engine.py")
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bombu_record() -> dict[str, Any]:
    """A finished 24-deal Bombu game with a stake (the engine benchmark's)."""
    return _games().bombu_game(random.Random(24))  # type: ignore[no-any-return]


def boulmous_record() -> dict[str, Any]:
    """A 40-deal Boulmous game that nobody has won yet (the engine benchmark's deals)."""
    games = _games()
    rng = random.Random(40)
    return games.boulmous_record([games.random_boulmous_deal(rng) for _ in range(40)], 999)  # type: ignore[no-any-return]


def sheet_html_of(record: dict[str, Any]) -> str:
    from flask_babel import force_locale

    from referee.app import create_app
    from referee.engine.records import parse_record
    from referee.services.games import transient_game
    from referee.web.sheets import sheet_html

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": "sqlite://", "AUTO_UPGRADE": False, "SECRET_KEY": "bench"}
    )
    with app.test_request_context(), force_locale("fr"):
        return sheet_html(transient_game(parse_record(record)))


def text_only(html: str) -> str:
    """The text of a sheet, in one preformatted block of DejaVu Sans Mono."""
    import html as markup
    from io import BytesIO

    from pypdf import PdfReader

    from referee.services.pdf import html_to_pdf

    text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(html_to_pdf(html))).pages)
    return f'<pre style="font: 6pt/1.15 Referee Mono">{markup.escape(text)}</pre>'


KINDS = ("trivial", "bombu", "floor", "boulmous")


def document(kind: str) -> str:
    """The HTML of one of the benchmark's documents."""
    return {
        "trivial": lambda: TRIVIAL,
        "bombu": lambda: sheet_html_of(bombu_record()),
        "floor": lambda: text_only(sheet_html_of(bombu_record())),
        "boulmous": lambda: sheet_html_of(boulmous_record()),
    }[kind]()


def timings() -> dict[str, tuple[list[float], list[float], int]]:
    """Wall and CPU times (s) and pages of each document, warm, in one process, the
    documents taken in turn in each round: the machine's drift touches them alike,
    so their ratios hold."""
    from io import BytesIO

    from pypdf import PdfReader

    from referee.services.pdf import WARM_UP, html_to_pdf

    html = {kind: document(kind) for kind in KINDS}
    html_to_pdf(WARM_UP)
    wall: dict[str, list[float]] = {kind: [] for kind in KINDS}
    cpu: dict[str, list[float]] = {kind: [] for kind in KINDS}
    pages = {kind: len(PdfReader(BytesIO(html_to_pdf(html[kind]))).pages) for kind in KINDS}
    for _ in range(RUNS):
        for kind in KINDS:
            start, start_cpu = time.perf_counter(), time.process_time()
            html_to_pdf(html[kind])
            wall[kind].append(time.perf_counter() - start)
            cpu[kind].append(time.process_time() - start_cpu)
    return {kind: (wall[kind], cpu[kind], pages[kind]) for kind in KINDS}


def peak_memory(kind: str) -> int:
    """In a fresh process: peak RSS (KiB) after WeasyPrint's warm-up and one render."""
    from referee.services.pdf import WARM_UP, html_to_pdf

    html = document(kind)
    html_to_pdf(WARM_UP)
    html_to_pdf(html)
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def cached_sheet() -> tuple[float, float]:
    """First and second download of a finished game's sheet through the app."""
    import io
    import json
    import tempfile

    from referee.app import create_app

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.db",
                "SECRET_KEY": "bench",
                "WTF_CSRF_ENABLED": False,
            }
        )
        from referee.web.sheets import warm

        warm(app)  # as `referee serve` does in each worker
        client = app.test_client()
        data = json.dumps(bombu_record()).encode()
        token = client.post(
            "/import",
            data={"record": (io.BytesIO(data), "g.json")},
            content_type="multipart/form-data",
        ).headers["Location"][3:]
        timings = []
        for _ in range(2):
            start = time.perf_counter()
            assert client.get(f"/g/{token}/sheet.pdf").status_code == 200
            timings.append(time.perf_counter() - start)
        hits = [time.perf_counter()]
        for _ in range(20):
            client.get(f"/g/{token}/sheet.pdf")
        hits.append(time.perf_counter())
        return timings[0], (hits[1] - hits[0]) / 20


def main() -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as pool:
        times = pool.apply(timings)
    memory = {}
    for kind in KINDS:
        with context.Pool(1) as pool:
            memory[kind] = pool.apply(peak_memory, (kind,))
    reference = statistics.median(times["trivial"][0])
    print(f"warm, median of {RUNS} rounds of renders in one process; memory in a fresh one each")
    for kind, label in (
        ("trivial", "trivial one-page document"),
        ("bombu", "finished 24-deal Bombu sheet"),
        ("floor", "its text alone, one <pre> block"),
        ("boulmous", "40-deal Boulmous sheet"),
    ):
        wall, cpu, pages = times[kind]
        median = statistics.median(wall)
        print(
            f"  {label}: median {median * 1000:.0f} ms wall (fastest {min(wall) * 1000:.0f} ms), "
            f"{statistics.median(cpu) * 1000:.0f} ms CPU, {median / reference:.1f}x the trivial, "
            f"{pages} page(s), peak RSS {memory[kind] / 1024:.0f} MB"
        )
    with context.Pool(1) as pool:
        first, hit = pool.apply(cached_sheet)
    print(f"  through the app: first sheet {first * 1000:.0f} ms, cached {hit * 1000:.1f} ms")


if __name__ == "__main__":
    main()
