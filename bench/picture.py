"""Benchmark the result picture (issue 40): drawing a finished 24-deal game's PNG.

    .venv/bin/python bench/picture.py [--runs 21]

Measured, in one process:
- the drawing alone (`services.picture.draw` of the game's `Picture`, fonts warm):
  median and fastest of `--runs` draws, and the PNG's size;
- Python's memory for one draw (tracemalloc's peak), and the process's peak RSS
  before and after the first draw in a fresh process (the fonts and Pillow's
  buffers);
- through the app: the first request for the picture (scoring, layout, drawing)
  and the next one (from the worker's cache);
- for the ratio, the same content drawn the other way the app could: WeasyPrint
  (HTML with the page's SVG chart, to PDF) then poppler's `pdftoppm` to a PNG of
  the same size, median of a few runs (skipped without `pdftoppm`).

Every loop is bounded by `--runs`. Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import io
import multiprocessing
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

# bench/http.py would shadow the standard library's `http` for a script run from
# this folder: take the folder off the path (as bench/pdf.py does).
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "examples" / "bombu-full-game.json"


def _app(folder: Path) -> Any:
    from referee.app import create_app

    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )


def _imported(client: Any) -> str:
    data = {"record": (io.BytesIO(RECORD.read_bytes()), "game.json")}
    answer = client.post("/import", data=data, content_type="multipart/form-data")
    assert answer.status_code == 302, answer.status_code
    token = str(answer.headers["Location"]).removeprefix("/g/")
    page = client.get(f"/g/{token}/share").get_data(as_text=True)
    start = page.index("/v/") + 3
    return page[start : page.index('"', start)].split("/")[0]


def _picture(app: Any, client: Any, view: str) -> Any:
    """The game's `Picture` (plain values), in English."""
    from flask_babel import force_locale

    from referee.services import games as service
    from referee.web.board import build
    from referee.web.result import picture_of

    with app.test_request_context(), force_locale("en"):
        found = service.view_version_of(view)
        assert found is not None
        shown = service.shown(found[0])
        assert shown is not None
        game, deals = shown
        scored = service.scored(game, deals)
        return picture_of(game, build(game, scored, deals), scored)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _fresh_rss(queue: Any) -> None:
    """In a fresh process: peak RSS (KB) after the imports, then after one draw."""
    with tempfile.TemporaryDirectory() as folder:
        app = _app(Path(folder))
        client = app.test_client()
        view = _imported(client)
        picture = _picture(app, client, view)
        from referee.services.picture import draw

        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        draw(picture)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        queue.put((before, after))


def _html(picture: Any) -> str:
    """The picture's content as a page WeasyPrint lays out (the page's SVG chart)."""
    from markupsafe import escape

    from referee.web.chart import chart

    sides = "".join(
        f"<tr><td>{escape(s.rank)}</td><td>{escape(s.label)}</td><td>{escape(s.total)}</td></tr>"
        for s in picture.sides
    )
    money = "".join(
        f"<li>{escape(picture.pays % {'payer': a, 'payee': b, 'amount': c})}</li>"
        for a, b, c in picture.money
    )
    svg = chart([s.label for s in picture.chart], [s.values for s in picture.chart], "chart")
    return (
        "<html><head><style>@page { size: 1080px 1350px; margin: 0 }"
        "body { font-family: 'DejaVu Sans'; font-size: 40px; margin: 64px }"
        "header { background: #14532d; color: white; margin: -64px -64px 32px; padding: 44px 64px }"
        "table { width: 100% } td:last-child { text-align: right; font-weight: bold }"
        "svg { width: 100% }</style></head><body>"
        f"<header><h1>{escape(picture.title)}</h1><p>{escape(picture.subtitle)}</p></header>"
        f"<h2>{escape(picture.headline)}</h2><table>{sides}</table>"
        f"<h3>{escape(picture.money_title)}</h3><ul>{money}</ul>{svg}</body></html>"
    )


def _weasyprint(picture: Any, runs: int) -> tuple[float, float, int] | None:
    """Median (HTML -> PDF, PDF -> PNG) in seconds and the PNG's size, or None."""
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm is None:
        return None
    import weasyprint

    html = _html(picture)
    weasyprint.HTML(string=html).write_pdf()  # warm: WeasyPrint's first page loads a lot
    to_pdf, to_png, size = [], [], 0
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(runs):
            start = time.perf_counter()
            pdf = weasyprint.HTML(string=html).write_pdf()
            to_pdf.append(time.perf_counter() - start)
            path = Path(folder) / "result.pdf"
            path.write_bytes(pdf)
            start = time.perf_counter()
            subprocess.run(
                [
                    pdftoppm,
                    "-png",
                    "-singlefile",
                    "-scale-to-x",
                    "1080",
                    "-scale-to-y",
                    "1350",
                    str(path),
                    str(Path(folder) / "result"),
                ],
                check=True,
                timeout=60,
            )
            to_png.append(time.perf_counter() - start)
            size = (Path(folder) / "result.png").stat().st_size
    return statistics.median(to_pdf), statistics.median(to_png), size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21, help="draws measured (default 21)")
    parser.add_argument("--weasyprint-runs", type=int, default=5)
    args = parser.parse_args()
    runs = max(1, min(args.runs, 1000))

    from referee.services.picture import draw

    with tempfile.TemporaryDirectory() as folder:
        app = _app(Path(folder))
        client = app.test_client()
        view = _imported(client)
        picture = _picture(app, client, view)
        print(f"{RECORD.name}: {len(picture.chart[0].values)} deals, {len(picture.sides)} sides")

        # Through the app, nothing cached, then cached.
        start = time.perf_counter()
        first = client.get(f"/v/{view}/picture.png?lang=en")
        cold = time.perf_counter() - start
        start = time.perf_counter()
        client.get(f"/v/{view}/picture.png?lang=en")
        warm = time.perf_counter() - start
        assert first.status_code == 200
        print(f"through the app: first request {_ms(cold)}, cached {_ms(warm)}")

        draw(picture)  # fonts loaded
        times = []
        png = b""
        for _ in range(runs):
            start = time.perf_counter()
            png = draw(picture)
            times.append(time.perf_counter() - start)
        print(
            f"draw: median {_ms(statistics.median(times))} (fastest {_ms(min(times))}) "
            f"over {runs} draws; PNG {len(png):,} bytes"
        )
        tracemalloc.start()
        draw(picture)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"tracemalloc peak of one draw: {peak / 1e6:.1f} MB")

        compared = _weasyprint(picture, max(1, min(args.weasyprint_runs, 50)))
        if compared is None:
            print("WeasyPrint -> PDF -> PNG: skipped (no pdftoppm: make system-test)")
        else:
            to_pdf, to_png, size = compared
            ratio = (to_pdf + to_png) / statistics.median(times)
            print(
                f"WeasyPrint -> PDF -> PNG: median {_ms(to_pdf)} + {_ms(to_png)} "
                f"= {_ms(to_pdf + to_png)}, {ratio:.0f}x the drawing; PNG {size:,} bytes"
            )

    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_fresh_rss, args=(queue,))
    process.start()
    before, after = queue.get(timeout=120)
    process.join(timeout=60)
    print(
        f"fresh process: peak RSS {before / 1024:.0f} MB before the first draw, "
        f"{after / 1024:.0f} MB after (+{(after - before) / 1024:.1f} MB)"
    )


if __name__ == "__main__":
    main()
