"""Benchmark the PDF score sheets: render time and peak memory, warm, in one process.

    .venv/bin/python bench/pdf.py

Renders, each in a fresh process (so its peak memory is its own), warm (WeasyPrint
loaded and one page drawn first), eleven times each, through the app's renderer
(services/pdf.html_to_pdf: the sheets' stylesheet, parsed once):
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
    return f'<pre style="font: 6pt/1.15 DejaVu Sans Mono">{markup.escape(text)}</pre>'


def measure(kind: str) -> tuple[list[float], list[float], int, int]:
    """In a fresh process: render wall and CPU times (s), pages, and peak RSS (KiB)."""
    from io import BytesIO

    from pypdf import PdfReader

    from referee.services.pdf import WARM_UP, html_to_pdf

    html = {
        "trivial": lambda: TRIVIAL,
        "bombu": lambda: sheet_html_of(bombu_record()),
        "floor": lambda: text_only(sheet_html_of(bombu_record())),
        "boulmous": lambda: sheet_html_of(boulmous_record()),
    }[kind]()
    html_to_pdf(WARM_UP)
    times, cpu = [], []
    pdf = b""
    for _ in range(RUNS):
        start, start_cpu = time.perf_counter(), time.process_time()
        pdf = html_to_pdf(html)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    pages = len(PdfReader(BytesIO(pdf)).pages)
    return times, cpu, pages, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


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
    results = {}
    for kind in ("trivial", "bombu", "floor", "boulmous"):
        with context.Pool(1) as pool:
            results[kind] = pool.apply(measure, (kind,))
    reference = statistics.median(results["trivial"][0])
    print(f"warm, median of {RUNS} renders each, in a fresh process per document")
    for kind, label in (
        ("trivial", "trivial one-page document"),
        ("bombu", "finished 24-deal Bombu sheet"),
        ("floor", "its text alone, one <pre> block"),
        ("boulmous", "40-deal Boulmous sheet"),
    ):
        times, cpu, pages, rss = results[kind]
        median = statistics.median(times)
        print(
            f"  {label}: median {median * 1000:.0f} ms wall (fastest {min(times) * 1000:.0f} ms), "
            f"{statistics.median(cpu) * 1000:.0f} ms CPU, {median / reference:.1f}x the trivial, "
            f"{pages} page(s), peak RSS {rss / 1024:.0f} MB"
        )
    with context.Pool(1) as pool:
        first, hit = pool.apply(cached_sheet)
    print(f"  through the app: first sheet {first * 1000:.0f} ms, cached {hit * 1000:.1f} ms")


if __name__ == "__main__":
    main()
