"""PDF score sheets: a game's record on paper, and blank sheets to play without a phone."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from typing import Any, Final

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    get_template_attribute,
    request,
)
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _

from referee.engine.errors import RulesError
from referee.engine.messages import LANGUAGES
from referee.engine.records import parse_record
from referee.games import GAMES
from referee.models import Game
from referee.services import games as service
from referee.services.pdf import (
    LONG_QUEUE,
    DocumentFailed,
    Renderer,
    RendererBusy,
    RenderFailed,
    RenderTimeout,
)
from referee.web.board import build
from referee.web.cache import LRU
from referee.web.chart import COLOURS
from referee.web.forms import rules_from_form, whole
from referee.web.homes import HOMES, home_of
from referee.web.ledger import ledger_of
from referee.web.pages import download, file_name, game_chart, load, render_game_page

bp = Blueprint("sheets", __name__)

#: Paper sizes offered, as CSS names them.
PAGE_SIZES = {"a4": "A4", "letter": "letter"}


def sheet_html(game: Game, size: str = "a4", why: bool = False) -> str:
    """The score sheet of `game` as HTML, in the current language; `why`: with each
    deal's reasons after the deals (the board's, as the history shows them)."""
    from flask import render_template

    size = size if size in PAGE_SIZES else "a4"
    scored = service.scored(game)
    board = build(game, scored)
    summary = get_template_attribute("_macros.html", "summary")
    ledger = ledger_of(board, size, lambda deal: summary(game, deal))
    return render_template(
        "pdf/sheet.html",
        board=board,
        ledger=ledger,
        chart=game_chart(game, scored),
        flags=home_of(game.game).flags,
        print_styles=home_of(game.game).print_styles,
        values=scored.flag_values(),
        changes=list(game.changes),
        colours=COLOURS,
        page_size=PAGE_SIZES[size] + (" landscape" if ledger.landscape else ""),
        why=why,
        agreement=service.agreement(game) if game.id is not None else None,
    )


def blank_html(key: str, names: list[str], first_dealer: int, rules: Any, size: str) -> str:
    """A blank sheet for `key` with the players' names filled in (`rules`: the
    engine's, which decide the columns of some games)."""
    from flask import render_template

    this = home_of(key)
    return render_template(
        "pdf/blank.html",
        this=this,
        names=names,
        first_dealer=first_dealer,
        page_size=PAGE_SIZES.get(size, "A4") + (" landscape" if this.blank_landscape else ""),
        print_styles=this.print_styles,
        **this.blank_context(names, first_dealer, rules),
    )


def blank_rules(key: str, raw: dict[str, Any]) -> Any:
    """The engine's rules for a blank sheet: those given where they hold, else the
    game's defaults (a blank sheet refuses nothing)."""
    engine = GAMES[key]
    try:
        return engine.parse_rules(raw)
    except RulesError:
        return engine.parse_rules({})


def pdf_response(data: bytes, name: str) -> Response:
    """A PDF download with a useful file name."""
    return download(data, "application/pdf", name)


def paper_size() -> str:
    """The paper size asked (`?size=`), A4 unless one offered."""
    size = request.args.get("size", "a4")
    return size if size in PAGE_SIZES else "a4"


#: What the PDF cache keeps of a document that could not be drawn (`cached_pdf`).
FAILED: Final = (b"", "")
#: Seconds the reader who asked for a long document first waits for it: a small
#: one (a few tables' cards) comes at once; a longer one is said being drawn.
DOCUMENT_WAIT: Final = 8.0
#: Seconds after which a page saying a document is being drawn asks for it again.
DRAWING_RETRY: Final = 5


class DocumentDrawing(Exception):
    """A long document is being drawn: asked again in a moment, it is there.
    `elapsed` and `expected`: seconds since it started, and its whole time as
    foreseen from its length (None: unknown), for the page that says how far."""

    def __init__(self, elapsed: float = 0.0, expected: float | None = None) -> None:
        super().__init__()
        self.elapsed = elapsed
        self.expected = expected


#: Bytes of HTML the long renderer draws a second, until it measured its own (a
#: concours's 400 personal results: 13 s).
DRAWING_RATE: Final = 150_000.0


class Drawings:
    """The long documents this worker is drawing, each in a thread of its own (never
    a request's thread: ten readers waiting for a 400-page document held every
    thread of the server, issue 51), at most `LONG_QUEUE` at once."""

    def __init__(self, at_once: int = LONG_QUEUE) -> None:
        self.at_once = at_once
        self._lock = threading.Lock()
        self._drawing: dict[Hashable, threading.Event] = {}
        #: Each document being drawn: when it started, and its HTML's length.
        self._begun: dict[Hashable, tuple[float, int]] = {}
        #: Bytes of HTML drawn a second, as measured (an average of the last ones).
        self.rate = DRAWING_RATE

    def progress(self, key: Hashable) -> tuple[float, float | None]:
        """Seconds since `key`'s document started, and the seconds it should take
        in all (None: not being drawn, or not known yet)."""
        with self._lock:
            begun = self._begun.get(key)
        if begun is None:
            return 0.0, None
        started, size = begun
        return time.monotonic() - started, max(1.0, size / self.rate)

    def start(
        self,
        key: Hashable,
        html_of: Callable[[], tuple[str, str]],
        renderer: Renderer,
        cache: LRU[tuple[bytes, str]],
        logger: logging.Logger,
    ) -> threading.Event | None:
        """Draw `key`'s document (its HTML and file name from `html_of`, in the
        caller's request) unless it is being drawn already (None then).
        RendererBusy when `at_once` are being drawn."""
        with self._lock:
            if key in self._drawing:
                return None
            if len(self._drawing) >= self.at_once:
                raise RendererBusy()
            done = self._drawing[key] = threading.Event()
        try:
            html, name = html_of()
        except BaseException:
            self._end(key, done)
            raise
        with self._lock:
            self._begun[key] = (time.monotonic(), len(html))

        def draw() -> None:
            try:
                started = time.monotonic()
                cache.put(key, (renderer.render(html), name))
                took = time.monotonic() - started
                if took > 1.0:  # a long one: it says the renderer's pace
                    self.rate = 0.7 * self.rate + 0.3 * (len(html) / took)
            except (RenderTimeout, RenderFailed):
                # Kept: drawn again only for another version (never from the start
                # at each request: three held the renderer six minutes, issue 51).
                logger.warning("a document could not be drawn: %s", key)
                cache.put(key, FAILED)
            except Exception:  # busy, the renderer gone: asked again, drawn again
                logger.exception("a document was not drawn: %s", key)
            finally:
                self._end(key, done)

        threading.Thread(target=draw, name="referee-document", daemon=True).start()
        return done

    def _end(self, key: Hashable, done: threading.Event) -> None:
        with self._lock:
            self._drawing.pop(key, None)
            self._begun.pop(key, None)
        done.set()


def cached_pdf(key: tuple[object, ...], html_of: Callable[[], tuple[str, str]]) -> Response:
    """A concours's or a season's document, drawn once per `key` by the long
    documents' renderer, in a thread of its own, and kept in the PDF cache; sent not
    to be stored (a later version draws it anew). `html_of`: its HTML and file name
    (made in the request that starts the drawing).

    The reader who starts the drawing waits `DOCUMENT_WAIT` seconds at most; every
    other reader meanwhile is told at once that it is being drawn (202, a page that
    asks again by itself): no request's thread waits for a long document. A
    failure is kept as a success is, for the version."""
    cache: LRU[tuple[bytes, str]] = current_app.extensions["pdf_cache"]
    held = cache.peek(key)
    if held is None:
        drawings: Drawings = current_app.extensions["drawings"]
        done = drawings.start(key, html_of, renderer(long=True), cache, current_app.logger)
        if done is not None:
            done.wait(current_app.config.get("DOCUMENT_WAIT", DOCUMENT_WAIT))
        held = cache.held(key)
        if held is None:
            raise DocumentDrawing(*drawings.progress(key))
    if held == FAILED:
        raise DocumentFailed()
    response = pdf_response(*held)
    response.headers["Cache-Control"] = "no-store"
    return response


def warm_game() -> dict[str, Any]:
    """A game to warm up with (the first home's sample: a deal, a stake), so that a
    sheet of it uses all a sheet does."""
    return next(home.sample for home in HOMES.values() if home.sample is not None)


def warm(app: Flask, wait: float = 0.0) -> None:
    """Get everything a first page and a first sheet need ready, so that they are no
    slower than the next: every template compiled; in each language, what building
    a scoreboard and a sheet loads once (translations, locale data, the deal table's
    font measures); then the PDF renderer, WeasyPrint loaded by drawing one of those
    sheets. With `wait` (a server's worker, before it answers anyone), until the
    renderer is warm too, at most `wait` seconds."""
    for name in app.jinja_env.list_templates(extensions=["html"]):
        app.jinja_env.get_template(name)
    game = service.transient_game(parse_record(warm_game()))
    pages = []
    for language in LANGUAGES:
        with app.test_request_context(), force_locale(language):
            render_game_page(game)
            pages.append(sheet_html(game))
    app.extensions["pdf"].start(pages[0], wait=wait)


def renderer(long: bool = False) -> Renderer:
    """The app's PDF renderer: the score sheets', or (`long`) that of a concours's
    and a season's documents, bounded apart."""
    return current_app.extensions["pdf_long" if long else "pdf"]  # type: ignore[no-any-return]


@bp.get("/g/<token>/sheet.pdf")
def sheet(token: str) -> Response:
    """The game's score sheet; rendered once per game version, language and paper size."""
    version = service.version_of(token)
    if version is None:
        abort(404)
    size = request.args.get("size", "a4")
    size = size if size in PAGE_SIZES else "a4"
    why = request.args.get("why") == "1"
    cache: LRU[tuple[bytes, str]] = current_app.extensions["pdf_cache"]

    def make() -> tuple[bytes, str]:
        game = load(token)
        return renderer().render(sheet_html(game, size, why)), file_name(game, "pdf")

    # A hit costs one small query: the game and its deals are read only on a miss.
    data, name = cache.get_or_make((token, version, str(get_locale()), size, why), make)
    return pdf_response(data, name)


@bp.get("/g/<token>/blank.pdf")
def blank_for_game(token: str) -> Response:
    """A blank sheet for this game's players."""
    game = load(token)
    rules = service.scored(game).rules
    html = blank_html(game.game, list(game.players), game.first_dealer, rules, "a4")
    return pdf_response(renderer().render(html), "blank-" + file_name(game, "pdf"))


@bp.post("/blank.pdf")
def blank_from_form() -> Response | tuple[str, int]:
    """A blank sheet from the new-game form, without starting a game."""
    key = request.form.get("game", "")
    names = [request.form.get(f"player{seat}", "").strip()[:40] for seat in range(5)]
    names = [n for n in names if n]
    counts = GAMES[key].player_counts if key in GAMES else ()
    if len(names) not in counts:
        return _("Fill in the players' names first."), 422
    first = whole(request.form.get("first_dealer")) or 0
    rules = blank_rules(key, rules_from_form(home_of(key).flags, request.form))
    html = blank_html(key, names, first % len(names), rules, "a4")
    slug = "-".join([key, "blank", *names]).lower()
    return pdf_response(renderer().render(html), ascii_name(slug) + ".pdf")


def ascii_name(text: str) -> str:
    import re
    import unicodedata

    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")
