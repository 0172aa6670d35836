"""Score sheets as PDF, with WeasyPrint (the only module of the app that uses it).

Pages are built as HTML by the web layer; this module turns HTML into PDF, with
static/print.css (parsed once per process, not once per sheet: a fifth of a sheet's
time, measured). A sheet takes a hundred milliseconds or more of pure CPU, which in
a threaded server would hold the GIL and stall every other request of the process,
so the server renders in a separate process, started (and WeasyPrint loaded, its
fonts warmed) when the server starts. Tests and the command line render in the
calling process.
"""

from __future__ import annotations

import functools
import multiprocessing
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Any, Final

STATIC: Final = Path(__file__).resolve().parent.parent.parent / "static"
#: A page that uses the sheets' fonts and suit signs, rendered once to warm the caches.
WARM_UP: Final = (
    "<html><body><p>♠ ♥ ♦ ♣ Référée <strong>0123456789</strong></p>"
    '<pre style="font-family: DejaVu Sans Mono">−+ 0123456789</pre></body></html>'
)


@functools.cache
def _style() -> tuple[Any, Any]:
    """print.css, parsed, and the font configuration it was parsed with."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    return CSS(filename=str(STATIC / "print.css"), font_config=fonts), fonts


def html_to_pdf(html: str) -> bytes:
    """Render one HTML page, styled by static/print.css, to PDF bytes."""
    from weasyprint import HTML

    sheet, fonts = _style()
    document = HTML(string=html, base_url=str(STATIC))
    return bytes(document.write_pdf(stylesheets=[sheet], font_config=fonts))


def _warm(html: str) -> None:
    html_to_pdf(html)


class Renderer:
    """Renders HTML to PDF, in this process or in a worker process of its own."""

    def __init__(self, in_process: bool) -> None:
        self.in_process = in_process
        self.renders = 0
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def start(self, html: str = WARM_UP) -> None:
        """Load WeasyPrint now and draw `html` (best: a sheet, whose fonts, sizes and
        images a first sheet would otherwise load), so the first sheet is not slower
        than the next."""
        if self.in_process:
            _warm(html)
            return
        self._executor().submit(_warm, html)

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn: a fresh interpreter, never a fork of a threaded server process.
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
            return self._pool

    def render(self, html: str) -> bytes:
        """The PDF of `html`. In a server, the calling thread waits without the GIL."""
        self.renders += 1
        if self.in_process:
            return html_to_pdf(html)
        future: Future[bytes] = self._executor().submit(html_to_pdf, html)
        return future.result(timeout=60)

    def stop(self) -> None:
        """Shut the worker process down."""
        with self._lock:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
                self._pool = None
