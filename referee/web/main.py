"""Home page, language choice, and the list of this browser's games."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import force_locale, format_date
from werkzeug.wrappers import Response as BaseResponse

from referee.engine.messages import LANGUAGES
from referee.engine.records import load_record
from referee.services import games as service
from referee.web.board import build
from referee.web.browser import my_tokens
from referee.web.events import my_events
from referee.web.forms import more_options_open
from referee.web.homes import HOMES, home_of
from referee.web.pages import game_chart
from referee.web.seasons import my_seasons
from referee.web.tables import my_tables

bp = Blueprint("main", __name__)
# The new-game form asks whether to unfold its "More options" (templates/new.html).
bp.add_app_template_global(more_options_open)


@bp.app_template_filter("short_day")
def short_day(value: date) -> str:
    """A day as players read it in their language: "5 déc. 2026", "Dec 5, 2026"
    (not the ISO "2026-12-05" of the files)."""
    return str(format_date(value, "medium"))


@bp.get("/")
def home() -> str:
    """What to do first (a new game), the games with a picture and a sample each,
    and the games and tables of this browser (in progress first, newest first)."""
    games = service.games_of(my_tokens())
    return render_template(
        "home.html",
        games=games,
        started=service.started(games),
        tables=my_tables(),
        concours=my_events(),
        seasons=my_seasons(),
    )


@cache
def sample_record(key: str) -> Any:
    """The sample record of game `key` (its package's), parsed once (the engine checks it)."""
    path = home_of(key).sample_file
    assert path is not None
    return load_record(path.read_bytes())


@bp.get("/sample/<key>")
def sample(key: str) -> str:
    """A finished game of `key` to look at before typing any name: its scoreboard,
    drawn from a record bundled in the package, as a spectator sees it. Nothing is
    stored: a stranger's visit leaves no game in the database."""
    if key not in HOMES or HOMES[key].sample_file is None:
        abort(404)
    game = service.transient_game(sample_record(key))
    game.token = f"sample-{key}"  # the history rows' cache key; never a real link
    scored = service.scored(game)
    return render_template(
        "sample.html",
        key=key,
        board=build(game, scored),
        chart=game_chart(game, scored),
        spectator=True,
    )


@bp.get("/lang/<code>")
def set_language(code: str) -> BaseResponse:
    """Switch the language (a plain link: a preference, nothing to protect); go back."""
    if code in LANGUAGES:
        session["lang"] = code
        session.permanent = True
    target = request.args.get("next", "")
    return redirect(target if is_local_path(target) else url_for("main.home"))


def is_local_path(target: str) -> bool:
    """A path of this site, and nothing a browser could read as another host.

    The query string is decoded already; browsers drop tabs and line feeds from a
    URL and read a backslash as a slash, so `/%09/evil.example` would become
    `//evil.example`: no control character, space, backslash or `//` at all.
    """
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        return False
    if any(unicodedata.category(c)[0] in "CZ" for c in target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc and not parts.path.startswith("//")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the site's root so that it may serve every page.

    Its list of files to keep names them by their fingerprinted addresses (the ones
    the pages ask for: `web.assets`), and its cache's name holds their digests, so
    that a new version of a file is a new worker, which keeps the new file.
    """
    path = Path(current_app.static_folder or "static") / "sw.js"
    text = path.read_text(encoding="utf-8")
    names = _STATIC_LIST.search(text)
    if names is not None:
        files = re.findall(r'"/static/([^"]+)"', names.group(1))
        files += [
            home.asset(name) for home in HOMES.values() for name in (*home.assets, *home.styles)
        ]
        urls = [url_for("static", filename=name) for name in files]
        listed = ", ".join(f'"{url}"' for url in urls)
        text = text.replace(names.group(0), f"const STATIC = [{listed}];")
        digest = hashlib.blake2s(" ".join(urls).encode(), digest_size=4).hexdigest()
        text = re.sub(r'const VERSION = "([^"]+)";', rf'const VERSION = "\1-{digest}";', text)
    response = Response(text, mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    return response


#: The service worker's list of static files to keep.
_STATIC_LIST = re.compile(r"const STATIC = \[([^\]]*)\];")


@bp.get("/offline")
def offline() -> str:
    """What the service worker shows for a page it has never seen, the network gone
    (`?lang=fr|en`: it keeps one of each)."""
    lang = request.args.get("lang", "")
    with force_locale(lang if lang in LANGUAGES else "fr"):
        return render_template("offline.html", lang=lang if lang in LANGUAGES else "fr")


@bp.get("/ping")
def ping() -> Response:
    """This process answers, whatever the database does (liveness; the benchmarks'
    trivial endpoint). `/health` is the one that asks the database."""
    return Response("pong\n", mimetype="text/plain")


@bp.get("/health")
def health() -> Response:
    """For monitors, load balancers and the container's healthcheck: 200 "ok" when
    the database answers, 503 when it does not (this server can serve no game)."""
    if not service.database_answers():
        response = Response("database unavailable\n", status=503, mimetype="text/plain")
        response.headers["Retry-After"] = "5"
        return response
    return Response("ok\n", mimetype="text/plain")
