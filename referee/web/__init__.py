"""The web layer: thin views that parse forms, call services and redirect."""

from __future__ import annotations

from flask import Flask, Response, abort, render_template, request
from flask_babel import get_locale
from werkzeug.exceptions import HTTPException

from referee.services import limits
from referee.web.cache import LRU, CachedPage

#: Which limit each write counts against (per client address and minute); the rest
#: are "write".
RATE_CATEGORIES = {
    "games.import_game": "import",
    "games.new": "create",
    "sheets.blank_from_form": "create",
    "games.preview_json": "preview",
}
#: Generous: every phone of a club may share one address behind its router.
DEFAULT_RATE_LIMITS = {"write": 600, "import": 30, "create": 60, "preview": 1200}

#: A strict policy: everything from this origin, no inline script, no framing.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


def register(app: Flask) -> None:
    """Attach the blueprints, the error pages and the security headers."""
    from referee.services.pdf import Renderer
    from referee.web import catalog, games, main, share, sheets, tools
    from referee.web.format import register_filters

    app.register_blueprint(main.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(tools.bp)
    app.register_blueprint(sheets.bp)
    app.register_blueprint(share.bp)
    register_filters(app)
    app.extensions["page_cache"] = LRU[CachedPage](app.config.get("PAGE_CACHE_SIZE", 256))
    app.extensions["pdf_cache"] = LRU[bytes](app.config.get("PDF_CACHE_SIZE", 32))
    app.extensions["pdf"] = Renderer(in_process=app.config.get("PDF_IN_PROCESS", True))
    # Globals (not a context processor) so that imported macros see them too.
    app.jinja_env.globals.update(catalog.TEMPLATE_GLOBALS)

    @app.context_processor
    def _globals() -> dict[str, object]:
        return {"lang": str(get_locale() or "fr")}

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> tuple[str, int]:
        return render_template("error.html", error=error), error.code or 500

    @app.errorhandler(Exception)
    def _server_error(error: Exception) -> tuple[str, int]:  # pragma: no cover - safety net
        app.logger.exception("unhandled error", exc_info=error)
        return render_template("error.html", error=None), 500

    @app.before_request
    def _refuse_oversized() -> None:
        """Refuse a body over the limit from its announced length, before reading any of it."""
        limit = app.config.get("MAX_CONTENT_LENGTH")
        if limit and (request.content_length or 0) > limit:
            abort(413)

    @app.before_request
    def _rate_limit() -> None:
        """Writes are counted per client address and minute, in the database."""
        if request.method != "POST" or not app.config.get("RATE_LIMITS"):
            return
        category = RATE_CATEGORIES.get(request.endpoint or "", "write")
        limit = app.config["RATE_LIMITS"][category]
        if not limits.allow(f"{category}:{request.remote_addr}", limit):
            abort(429)

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        return response
