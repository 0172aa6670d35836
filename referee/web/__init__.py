"""The web layer: thin views that parse forms, call services and redirect."""

from __future__ import annotations

import gzip
import time
from pathlib import Path
from typing import Final

from flask import Flask, Request, Response, abort, g, render_template, request
from flask_babel import get_locale, get_translations, ngettext
from flask_babel import gettext as _
from jinja2 import ChoiceLoader
from jinja2.ext import _make_new_gettext, _make_new_ngettext
from werkzeug.exceptions import HTTPException, InternalServerError, TooManyRequests

import referee.api as api
from referee.api import problems
from referee.events.eventfile import MAX_EVENT_BYTES
from referee.services import limits
from referee.services.pdf import (
    LONG_DOCUMENT,
    LONG_QUEUE,
    DocumentFailed,
    Renderer,
    RendererBusy,
    RenderTimeout,
)
from referee.web import (
    assets,
    bidi,
    board,
    browser,
    catalog,
    chart,
    event_prints,
    events,
    fragments,
    games,
    homes,
    main,
    pages,
    seasons,
    share,
    sheets,
    tables,
    tools,
)
from referee.web.cache import GZIP_LEVEL, LRU, PAGES_KEPT, CachedPage, SharedPages, SharedRows
from referee.web.format import register_filters
from referee.web.homes import HOMES, HomeTemplates

#: Which limit each write counts against (per client address and minute); the rest
#: are "write".
RATE_CATEGORIES = {
    "games.import_game": "import",
    "games.new": "create",
    "sheets.blank_from_form": "create",
    "games.preview_json": "preview",
    "tables.import_table": "import",
    "tables.new": "create",
    "api.create": "create",
    "events.new": "create",
    "events.import_event": "import",
}
#: The methods that write, counted by the rate limits.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Generous: every phone of a club may share one address behind its router.
DEFAULT_RATE_LIMITS = {"write": 600, "import": 30, "create": 60, "preview": 1200}

#: Categories counted in each process's memory, not in the database: the live
#: preview is a read, asked at each tap of the deal form (issue 19).
COUNTED_HERE = frozenset({"preview"})

#: Forms sent past the limit come back as they were, entries kept, with a message.
KEEP_ENTRIES_WHEN_LIMITED = frozenset({"games.deal", "games.edit"})
#: Pages that show an editor link or carry a form key (or a CSRF token): no cache and
#: no back-forward copy may keep them.
NO_STORE = frozenset(
    {
        "main.home",
        "games.new",
        "games.deal",
        "games.edit",
        "games.undo",
        "games.import_game",
        "share.share",
        "tools.trick",
        # A table's players' pages carry its link, its games' links or forms.
        "tables.new",
        "tables.show",
        "tables.share",
        "tables.evening",
        "tables.statistics",
        "tables.import_table",
        # A concours's director's page (its link, its games' links), its forms.
        "events.new",
        "events.director",
        "events.card",
        "events.import_event",
        # A season's organiser's page (its link, its forms) and the new season's form.
        "seasons.new",
        "seasons.organiser",
    }
)
# A game's own tools at the table carry forms too.
NO_STORE |= {endpoint for home in HOMES.values() for endpoint, _words in home.tools}
#: The addresses that take an upload larger than MAX_CONTENT_LENGTH, and how large:
#: a concours's event file (its format's limit, and a form's envelope).
LARGE_UPLOADS: Final = {"events.import_event": MAX_EVENT_BYTES + 1024 * 1024}


class UploadRequest(Request):
    """The app's request: the body limit of its address (`LARGE_UPLOADS`), known from
    the moment the address is matched, before anything reads the form (the CSRF
    check reads it first: issue 51, a 1.1 MB event file answered 413)."""

    @property
    def max_content_length(self) -> int | None:
        limit = super().max_content_length
        larger = LARGE_UPLOADS.get(self.endpoint or "")
        return limit if larger is None else max(limit or 0, larger)

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        Request.max_content_length.fset(self, value)  # type: ignore[attr-defined]


#: Pages smaller than this are sent as they are (gzip's own headers would not pay).
COMPRESS_FROM = 1024
#: HTTPS only, for a year, once the app is served over HTTPS (REFEREE_HTTPS=1).
HSTS = "max-age=31536000"
RATE_WINDOW = 60
#: Seconds a client is asked to wait when the sheets are busy.
SHEET_RETRY_AFTER = 5

#: A strict policy: everything from this origin, no inline script, no framing.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def register(app: Flask) -> None:
    """Attach the blueprints, the error pages and the security headers."""

    app.request_class = UploadRequest
    app.register_blueprint(main.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(tools.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(share.bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(event_prints.bp)
    app.register_blueprint(seasons.bp)
    api.register(app)
    for home in HOMES.values():  # each game's own pages
        if home.blueprint is not None:
            app.register_blueprint(home.blueprint)
    register_filters(app)
    bidi.register(app)  # names shown inside text cannot reorder it
    app.extensions["page_cache"] = LRU[CachedPage](app.config.get("PAGE_CACHE_SIZE", PAGES_KEPT))
    # The server's worker processes share what they render (`referee serve` makes
    # the folder); elsewhere (one process) the memory alone serves.
    shared = app.config.get("SHARED_PAGES")
    app.extensions["shared_pages"] = SharedPages(Path(shared)) if shared else None
    app.extensions["shared_rows"] = SharedRows(Path(shared)) if shared else None
    app.extensions["row_cache"] = LRU[object](app.config.get("ROW_CACHE_SIZE", board.ROWS_KEPT))
    app.extensions["fragment_cache"] = LRU[object](
        app.config.get("FRAGMENT_CACHE_SIZE", fragments.FRAGMENTS_KEPT)
    )
    app.extensions["pdf_cache"] = LRU[tuple[bytes, str]](app.config.get("PDF_CACHE_SIZE", 32))
    app.extensions["picture_cache"] = LRU[tuple[bytes, str, str]](
        app.config.get("PICTURE_CACHE_SIZE", share.PICTURES_KEPT)
    )
    app.extensions["record_cache"] = LRU[tuple[str, str]](app.config.get("RECORD_CACHE_SIZE", 64))
    app.extensions["pdf"] = Renderer(in_process=app.config.get("PDF_IN_PROCESS", True))
    # A concours's and a season's documents (hundreds of pages) have a renderer of
    # their own, bounded apart: a game's sheet never waits behind them.
    app.extensions["drawings"] = sheets.Drawings()
    app.extensions["pdf_long"] = Renderer(
        in_process=app.config.get("PDF_IN_PROCESS", True),
        timeout=LONG_DOCUMENT,
        queue=LONG_QUEUE,
        turn_apart=True,
    )
    # A game's templates are the app's (templates/<key>/), or its home's own folder.
    app.jinja_env.loader = ChoiceLoader([app.jinja_env.loader, HomeTemplates()])  # type: ignore[list-item]
    assets.register(app, HOMES)
    # Block tags take no line of their own in the page, nor their indentation: the
    # pages stay small (the deal forms are mostly loops of pills).
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    # Globals (not a context processor) so that imported macros see them too.
    app.jinja_env.globals.update(catalog.TEMPLATE_GLOBALS)
    app.jinja_env.globals.update(homes.TEMPLATE_GLOBALS)
    app.jinja_env.globals["history_rows"] = board.history_rows
    app.jinja_env.globals["kept"] = fragments.kept
    app.jinja_env.globals["line_class"] = chart.line_class
    app.jinja_env.globals["JUST_MARK"] = pages.JUST_MARK

    @app.context_processor
    def _globals() -> dict[str, object]:
        # The page's translations, looked up once per page: Flask-Babel's own
        # callables (still the globals, for macros imported without context) look
        # them up again at every `_()`, through its context look-up (issue 19: 5 %
        # of the server's time at paced tables). Same strings, same formatting.
        translations = get_translations()
        return {
            "lang": str(get_locale() or "fr"),
            "gettext": bidi.isolating(_make_new_gettext(translations.ugettext)),
            "ngettext": bidi.isolating(_make_new_ngettext(translations.ungettext)),
        }

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> Response:
        if api.asks_api(request):  # a program: a problem, in JSON
            return problems.from_http(error)
        response = Response(render_template("error.html", error=error), error.code or 500)
        response.content_type = "text/html; charset=utf-8"
        for name, value in error.get_headers():
            if name.lower() != "content-type":
                response.headers[name] = value
        return response

    @app.errorhandler(sheets.DocumentDrawing)
    def _document_drawing(error: sheets.DocumentDrawing) -> Response:
        """A long document being drawn: this page says how far it is, and asks for
        it again by itself (it then opens: the document, ready)."""
        message = _(
            "This document is being drawn: it opens by itself when it is ready (or tap "
            "its link again)."
        )
        progress = None
        if error.expected is not None:
            share = min(0.95, error.elapsed / error.expected)
            left = max(1, round(error.expected - error.elapsed))
            progress = {
                "share": round(share * 100),
                "said": ngettext("About %(num)d second left.", "About %(num)d seconds left.", left)
                if error.elapsed < error.expected
                else _("Nearly done."),
            }
        page = render_template(
            "error.html", error=None, message=message, status=202, progress=progress
        )
        retry = str(sheets.DRAWING_RETRY)
        response = Response(page, 202, headers={"Retry-After": retry, "Refresh": retry})
        response.headers["Cache-Control"] = "no-store"
        response.content_type = "text/html; charset=utf-8"
        return response

    @app.errorhandler(RendererBusy)
    @app.errorhandler(RenderTimeout)
    @app.errorhandler(DocumentFailed)
    def _sheet_unavailable(error: Exception) -> Response:
        """Sheets beyond the renderer's queue, or one too slow: try again shortly.
        A document that failed for this version: said at once, not drawn again."""
        retry = SHEET_RETRY_AFTER
        if isinstance(error, RendererBusy):
            message = _("Many score sheets are being drawn right now: try again in a moment.")
        elif isinstance(error, DocumentFailed):
            message = _(
                "This document is too long to be drawn on this server. It is tried again "
                "once what it shows changes."
            )
            retry = 60
        else:
            message = _("This score sheet took too long to draw: try again in a moment.")
        page = render_template("error.html", error=None, message=message)
        response = Response(page, 503, headers={"Retry-After": str(retry)})
        response.content_type = "text/html; charset=utf-8"
        return response

    @app.errorhandler(Exception)
    def _server_error(error: Exception) -> Response | tuple[str, int]:  # pragma: no cover
        app.logger.exception("unhandled error", exc_info=error)  # the safety net
        if api.asks_api(request):
            return problems.from_http(InternalServerError())
        return render_template("error.html", error=None), 500

    @app.before_request
    def _refuse_oversized() -> None:
        """Refuse a body over the limit from its announced length, before reading any
        of it. An event file may be larger than a game's record: its address has
        the format's limit (`server.LARGE_BODIES` lets it through the worker too)."""
        limit = request.max_content_length  # `UploadRequest`'s: its address's
        if limit and (request.content_length or 0) > limit:
            abort(413)

    counted_here = limits.CountedHere()

    @app.before_request
    def _rate_limit() -> None:
        """Writes are counted per client address and minute, in the database."""
        if request.method not in WRITES or not app.config.get("RATE_LIMITS"):
            return
        category = RATE_CATEGORIES.get(request.endpoint or "", "write")
        limit = app.config["RATE_LIMITS"][category]
        key = f"{category}:{request.remote_addr}"
        if category in COUNTED_HERE:
            allowed = counted_here.allow(key, limit, RATE_WINDOW)
        else:
            allowed = limits.allow(key, limit, RATE_WINDOW)
        if allowed:
            return
        g.retry_after = RATE_WINDOW - int(time.time()) % RATE_WINDOW
        if request.endpoint in KEEP_ENTRIES_WHEN_LIMITED:
            g.rate_limited = True  # the view shows the form again, entries kept
            return
        raise TooManyRequests(retry_after=g.retry_after)

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        if app.config.get("SESSION_COOKIE_SECURE"):
            response.headers.setdefault("Strict-Transport-Security", HSTS)
        if request.endpoint in NO_STORE:
            response.headers["Cache-Control"] = "no-store"
        if response.status_code == 429 and "retry_after" in g:
            response.headers["Retry-After"] = str(g.retry_after)
        browser.keep_phone(response)
        return _compressed(response)

    def _compressed(response: Response) -> Response:
        """Every HTML page gzipped for a client that takes it (issue 19: the deal form
        is sent 7 KB instead of 2 KB): a phone on a table's Wi-Fi or a mobile network
        waits for bytes, not for this. The scoreboard comes compressed already
        (its cached copy), files and JSON are left as they are."""
        if (
            response.mimetype != "text/html"
            or response.direct_passthrough
            or "Content-Encoding" in response.headers
            or not request.accept_encodings["gzip"]
            or response.status_code < 200
            or response.status_code in (204, 304)
        ):
            return response
        body = response.get_data()
        if len(body) < COMPRESS_FROM:
            return response
        response.set_data(gzip.compress(body, compresslevel=GZIP_LEVEL))
        response.headers["Content-Encoding"] = "gzip"
        response.vary.add("Accept-Encoding")
        return response
