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

import atexit
import contextlib
import functools
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Final

from referee.geometry import css
from referee.paths import STATIC

#: A page that uses the sheets' fonts and suit signs, rendered once to warm the caches.
WARM_UP: Final = (
    "<html><body><p>♠ ♥ ♦ ♣ Référée <strong>0123456789</strong></p>"
    '<pre style="font-family: Referee Mono">−+ 0123456789</pre></body></html>'
)
#: The longest a sheet may take, waiting for its turn included (seconds); the longest
#: game allowed draws in a few seconds. A render past it is stopped.
TIMEOUT: Final = 30.0
#: Sheets of one server process that may be drawn or waiting at once; one more is
#: told to try again in a moment rather than queue behind them.
QUEUE: Final = 4
#: The longest a concours's or a season's document may take to draw, from its turn
#: (seconds): its personal results are a page a player (400 pages: 13 s on the
#: project's machine; the largest the forms allow, 1,000 players after 30 rounds,
#: 180 s on a busy one: docs/PERFORMANCE.md), where a game's sheet is one or a few.
#: Its readers are told how far it is meanwhile; the limit stops only a runaway.
LONG_DOCUMENT: Final = 600.0
#: Such documents drawn or waiting at once in one server process, in their own
#: renderer process (a game's sheet never waits behind one).
LONG_QUEUE: Final = 2


class RendererBusy(Exception):
    """The sheets' queue is full: try again in a moment."""


class RenderTimeout(Exception):
    """A sheet took longer than `TIMEOUT`: its render was stopped."""


class RenderFailed(RuntimeError):
    """WeasyPrint refused the page (its error, in words)."""


class DocumentFailed(Exception):
    """A document that could not be drawn for this version of what it shows: the
    failure is kept, and said at once, until what it shows changes."""


#: WeasyPrint copies each @font-face font (the sheets' own, 1.8 MB) into a temporary
#: folder, removed only when its font configuration is collected, which never happens
#: at interpreter exit or to a killed process. The copies go into a folder of ours,
#: named by the process, removed at exit, by the parent of a killed renderer, or by
#: the next process that draws sheets once its process is gone.
FONTS_FOLDER: Final = "referee-fonts-{pid}-"


@functools.cache
def _style() -> tuple[Any, Any]:
    """print.css, parsed, and the font configuration it was parsed with."""
    from weasyprint import CSS
    from weasyprint.text.fonts import FontConfiguration

    fonts = FontConfiguration()
    text = (STATIC / "print.css").read_text(encoding="utf-8") + css()
    _sweep_dead()
    folder = tempfile.mkdtemp(prefix=FONTS_FOLDER.format(pid=os.getpid()))
    atexit.register(_release, folder)
    # Where WeasyPrint's mkdtemp goes, for this first call only: it runs in a renderer
    # process or a command, where no other thread makes temporary files meanwhile.
    saved, tempfile.tempdir = tempfile.tempdir, folder
    try:
        sheet = CSS(string=text, base_url=str(STATIC) + "/", font_config=fonts)
    finally:
        tempfile.tempdir = saved
    return sheet, fonts


def _release(folder: str) -> None:
    """At exit: let the font configuration go while the interpreter still works (its
    own clean-up fails during the interpreter's teardown), then remove the copies."""
    _style.cache_clear()
    shutil.rmtree(folder, ignore_errors=True)


def _sweep_dead() -> None:
    """Remove the font copies of processes that are gone (a server killed with -9
    takes its renderer with it, and nobody is left to clean): each new renderer or
    command sweeps them. A process still alive, or another user's, is left alone."""
    prefix = FONTS_FOLDER.split("{", 1)[0]
    for folder in Path(tempfile.gettempdir()).glob(prefix + "*"):
        pid = folder.name[len(prefix) :].split("-", 1)[0]
        if not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass  # alive, another user's: not ours to touch


def html_to_pdf(html: str) -> bytes:
    """Render one HTML page, styled by static/print.css, to PDF bytes."""
    from weasyprint import HTML

    sheet, fonts = _style()
    document = HTML(string=html, base_url=str(STATIC))
    return bytes(document.write_pdf(stylesheets=[sheet], font_config=fonts))


def _stop(*_: object) -> None:
    """The renderer's SIGTERM: exit through atexit, which removes the font copies.

    Stopped (multiprocessing ends its daemons with SIGTERM), a renderer often hears it
    twice: `kill` of the server's process group (systemd's stop, a supervisor) reaches
    it at once, and its worker, stopping, sends another. The second must not break
    the clean-up under way (a traceback in the server's log at each stop, issue 37).
    """
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sys.exit(0)


def _serve(conn: Connection, warm_up: str) -> None:  # pragma: no cover - child process
    """The renderer process: warm up, then draw each page sent until the pipe closes."""
    signal.signal(signal.SIGTERM, _stop)
    with contextlib.suppress(Exception):
        html_to_pdf(warm_up)
    conn.send((None, b""))  # warm: see Renderer.start
    while True:
        try:
            html = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send((True, html_to_pdf(html)))
        except Exception as error:
            conn.send((False, repr(error)))


class Renderer:
    """Renders HTML to PDF, in this process or in a renderer process of its own.

    The renderer process draws one sheet at a time. At most `queue` sheets are drawn
    or waiting at once (`RendererBusy` beyond); a sheet that takes longer than
    `timeout` has its process killed (`RenderTimeout`); a process that died or was
    killed is replaced by a new one, warm, at the next sheet.
    """

    def __init__(
        self,
        in_process: bool,
        timeout: float = TIMEOUT,
        queue: int = QUEUE,
        turn_apart: bool = False,
    ) -> None:
        self.in_process = in_process
        self.timeout = timeout
        #: The time limit counts from the document's turn, not from its asking (the
        #: long documents: one queued behind another still has its whole time, so
        #: that a failure kept for its version is its own, never its queue's).
        self.turn_apart = turn_apart
        self.renders = 0
        self.restarts = 0
        self._warm_up = WARM_UP
        self._slots = threading.BoundedSemaphore(queue)
        self._turn = threading.Lock()  # one sheet at a time through the pipe
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None
        #: Whether the process said it is warm (its first message) and was read.
        self._warm = False

    def start(self, html: str = WARM_UP, wait: float = 0.0) -> bool:
        """Load WeasyPrint now and draw `html` (best: a sheet, whose fonts, sizes and
        images a first sheet would otherwise load), so the first sheet is not slower
        than the next. A renderer process started later warms up on it too.

        With `wait`, return once the renderer process is warm (or `wait` seconds
        gone): a server's worker starts answering only then (issue 19: a sheet
        asked in the first seconds took 650 ms, waiting for this). True if warm.
        """
        self._warm_up = html
        if self.in_process:
            html_to_pdf(html)
            return True
        with self._turn:
            conn, _process = self._running()
            try:
                if wait and not self._warm and conn.poll(wait):
                    ok, _value = conn.recv()
                    self._warm = ok is None
            except (EOFError, OSError):
                self._discard()  # it died warming up: the next sheet starts another
        return self._warm

    def _running(self) -> tuple[Connection, BaseProcess]:
        """The renderer process, started (warming up) if there is none alive."""
        if self._process is None or not self._process.is_alive():
            if self._process is not None:
                self.restarts += 1  # it died, or was stopped after a timeout
            self._discard()
            # spawn: a fresh interpreter, never a fork of a threaded server process.
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe()
            process = context.Process(
                target=_serve, args=(theirs, self._warm_up), name="referee-pdf", daemon=True
            )
            process.start()
            theirs.close()
            self._process, self._conn = process, ours
            self._warm = False
        assert self._conn is not None
        assert self._process is not None
        return self._conn, self._process

    def _discard(self) -> None:
        """Stop the renderer process, whatever it is doing."""
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(5)
            _sweep_dead()  # the copies of the process just stopped among them
        self._process = self._conn = None

    def render(self, html: str, timeout: float | None = None) -> bytes:
        """The PDF of `html`. In a server, the calling thread waits without the GIL.
        `timeout`: longer than the renderer's own for a long document (a concours's
        400 pages of personal results take 13 s on the project's machine)."""
        self.renders += 1
        if self.in_process:
            return html_to_pdf(html)
        if not self._slots.acquire(blocking=False):
            raise RendererBusy()
        limit = max(timeout or 0.0, self.timeout)
        try:
            deadline = time.monotonic() + limit
            if not self._turn.acquire(timeout=limit):
                raise RendererBusy()  # its queue's time, not its own
            try:
                if self.turn_apart:
                    deadline = time.monotonic() + limit
                return self._draw(html, deadline, retry=True)
            finally:
                self._turn.release()
        finally:
            self._slots.release()

    def _draw(self, html: str, deadline: float, retry: bool) -> bytes:
        conn, process = self._running()
        try:
            conn.send(html)
            ok = None
            while ok is None:  # None: the process saying it is warm (if not read yet)
                while not conn.poll(0.05):
                    if not process.is_alive():
                        raise EOFError  # it died (killed, out of memory): start another
                    if time.monotonic() > deadline:
                        self._discard()
                        raise RenderTimeout()
                ok, value = conn.recv()
            self._warm = True
        except (EOFError, OSError, BrokenPipeError):
            self._discard()
            if retry:
                return self._draw(html, deadline, retry=False)
            raise RenderTimeout() from None
        if not ok:
            raise RenderFailed(f"the PDF renderer failed: {value}")
        return bytes(value)

    def stop(self) -> None:
        """Shut the renderer process down."""
        with self._turn:
            self._discard()
