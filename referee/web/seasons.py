"""A club's season: a championship over the concours this phone directs.

Two links: the organiser's (`/s/<token>`: the rule, the concours counted, adding
and removing one) and the public one (`/se/<view_token>`: names and results only,
and its PDF). The views parse forms, call `services.seasons` and redirect.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

from referee.engine.errors import RulesError, problem
from referee.events.concours import figure
from referee.events.season import DEFAULT_POINTS, SEASON_NAMES, TIE_BREAK_NAMES, SeasonTieBreak
from referee.lru import LRU
from referee.models import Season
from referee.services import events as event_service
from referee.services import seasons as service
from referee.web.browser import remember_in
from referee.web.cache import CachedPage
from referee.web.events import my_events
from referee.web.forms import messages_of
from referee.web.hosts import public_url
from referee.web.pages import Page
from referee.web.share import qr_svg
from referee.web.sheets import PAGE_SIZES, ascii_name, cached_pdf, paper_size

bp = Blueprint("seasons", __name__)

#: How many seasons a phone remembers (a club runs one or two a year; the session's
#: cookie also holds the games', tables' and concours' links).
SEASONS_REMEMBERED = 10

_WHOLE = re.compile(r"\s*-?[0-9]{1,6}\s*")


def _remember(token: str) -> None:
    remember_in("seasons", token, SEASONS_REMEMBERED)


def my_seasons() -> list[Season]:
    """The seasons this phone organises, the latest opened first."""
    tokens = [t for t in session.get("seasons", []) if isinstance(t, str)]
    return service.seasons_of(tokens[:SEASONS_REMEMBERED])


def _rules(form: Any) -> dict[str, Any]:
    """The season's rule from its form; what is not a whole number where one is
    wanted is refused, naming its field and what was typed."""
    problems = []

    def whole(text: str, field: str) -> int | None:
        if _WHOLE.fullmatch(text) is None:
            problems.append(problem("not_integer", field, value=text.strip()[:20]))
            return None
        return int(text)

    points_text = (form.get("points") or "").strip()
    points = [
        whole(p, f"season.points[{i}]")
        for i, p in enumerate(re.split(r"[;,\s]+", points_text))
        if p.strip()
    ]
    beyond = whole(form.get("beyond") or "0", "season.beyond")
    drop = whole(form.get("drop_worst") or "0", "season.drop_worst")
    if problems:
        raise RulesError(problems)
    return {
        "points": points or list(DEFAULT_POINTS),
        "beyond": beyond,
        "drop_worst": drop,
        "tie_breaks": [t for t in form.getlist("tie_breaks") if t],
    }


def _choices() -> dict[str, Any]:
    return {
        "tie_breaks": [(t.value, _(TIE_BREAK_NAMES[t.value])) for t in SeasonTieBreak],
        "default_points": ", ".join(str(p) for p in DEFAULT_POINTS),
    }


@bp.route("/seasons/new", methods=["GET", "POST"])
def new() -> Page:
    """A new season: its name, its table of points, the worst results dropped, its
    tie-breaks, and the concours it counts (among those this phone directs)."""
    errors: list[str] = []
    form = request.form
    mine = my_events()
    if request.method == "POST":
        chosen = set(form.getlist("events"))
        try:
            season = service.create(
                form.get("name", ""),
                _rules(form),
                [e for e in mine if e.uid in chosen],
                str(get_locale()),
            )
        except RulesError as error:
            errors = messages_of(error.problems)
        else:
            _remember(season.token)
            return redirect(url_for("seasons.organiser", token=season.token))
    page = render_template("seasons/new.html", errors=errors, form=form, mine=mine, **_choices())
    return (page, 422) if errors else page


def _shown(standings: service.Standings) -> dict[str, Any]:
    """What the season's pages and its PDF show."""
    return {
        "standings": standings,
        "season": standings.season,
        "lines": standings.lines,
        "separated": {k: _(v) for k, v in SEASON_NAMES.items()},
        "breaks": [_(TIE_BREAK_NAMES[t.value]) for t in standings.rules.tie_breaks],
        "figure": figure,
        "lang": str(get_locale()),
        "view_url": public_url("seasons.public", view_token=standings.season.view_token),
        "provisional": any(not h.final for h in standings.held),
    }


def _season(token: str) -> Season:
    season = service.find(token)
    if season is None:
        abort(404)
    _remember(token)
    return season


@bp.get("/s/<token>")
def organiser(token: str) -> str:
    """The organiser's page: the ranking, the concours counted, adding one."""
    season = _season(token)
    counted = {link.event_id for link in season.events}
    shown = _shown(service.standings(season))
    return render_template(
        "seasons/organiser.html",
        **shown,
        addable=[e for e in my_events() if e.id not in counted],
        view_qr=qr_svg(shown["view_url"]),
    )


@bp.post("/s/<token>/events")
def add(token: str) -> BaseResponse:
    """Count one more of this phone's concours (a concours it does not direct is
    not found)."""
    season = _season(token)
    uid = request.form.get("event", "")
    event = next((e for e in my_events() if e.uid == uid), None)
    link = (request.form.get("link") or "").strip()
    if event is None and link:
        # A concours run from another phone, by its public link ("…/ev/<token>"):
        # names and results, all a season reads.
        found = re.search(r"/ev/([A-Za-z0-9_-]{8,64})(?:[/?#]|$)", link)
        event = event_service.find_view(found.group(1)) if found else None
        if event is None:
            flash(_("This is not the public link of a concours of this server."))
            return redirect(url_for("seasons.organiser", token=token))
    if event is None:
        flash(_("Choose one of your concours."))
    else:
        try:
            service.add(season, event)
        except RulesError as error:
            for message in messages_of(error.problems):
                flash(message)
    return redirect(url_for("seasons.organiser", token=token))


@bp.post("/s/<token>/merge")
def merge(token: str) -> BaseResponse:
    """The organiser confirms that names spelled apart are one player."""
    season = _season(token)
    names = [n for n in request.form.getlist("names") if n][:20]
    into = request.form.get("into", "")
    try:
        service.merge(season, names, into)
    except LookupError:
        abort(400)
    flash(
        _(
            "One player from now on: %(names)s, counted as %(into)s.",
            names=", ".join(names),
            into=into,
        )
    )
    return redirect(url_for("seasons.organiser", token=token))


@bp.post("/s/<token>/unmerge")
def unmerge(token: str) -> BaseResponse:
    """A merged name counts as its own player again."""
    season = _season(token)
    name = request.form.get("name", "")
    try:
        service.unmerge(season, name)
    except LookupError:
        abort(400)
    flash(_("%(name)s counts as a player of its own again.", name=name))
    return redirect(url_for("seasons.organiser", token=token))


@bp.post("/s/<token>/events/<int:event_id>/remove")
def remove(token: str, event_id: int) -> BaseResponse:
    """Count a concours no longer (it keeps its own pages)."""
    service.remove(_season(token), event_id)
    return redirect(url_for("seasons.organiser", token=token))


#: The seasons' public pages, drawn once per state of the season and language
#: (a season of ten large concours: a 4 MB page that took a second to draw).
PAGES: LRU[CachedPage] = LRU(64)


def _state(season: Season) -> tuple[object, ...]:
    """What a season's ranking is a function of: its rule and name, and the
    versions of its concours, in its order (the concours are read only when it
    changed)."""
    return (
        season.id,
        season.name,
        tuple((link.event.uid, link.event.version) for link in season.events),
        json.dumps(season.rules, sort_keys=True),
        json.dumps(season.aliases, sort_keys=True),
    )


@bp.get("/se/<view_token>")
def public(view_token: str) -> Response:
    """The season's public page: its rule and its ranking, names and results only;
    a reload of an unchanged page is a 304."""
    season = service.find_view(view_token)
    if season is None:
        abort(404)
    lang = str(get_locale())
    state = _state(season)
    etag = "s" + hashlib.sha256(repr((state, lang)).encode()).hexdigest()[:32]

    def draw() -> CachedPage:
        shown = _shown(service.standings(season))
        return CachedPage.of(render_template("seasons/public.html", **shown), etag)

    if session.get("_flashes"):  # this phone's own messages: never in the shared page
        return Response(draw().body, mimetype="text/html")
    page = PAGES.get_or_make((state, lang), draw)
    return page.response(request.accept_encodings, request.if_none_match)


def season_html(standings: service.Standings, size: str) -> str:
    """The season's ranking sheet as HTML, in the season's language."""
    with force_locale(standings.season.language or "fr"):
        shown = _shown(standings)
        return render_template(
            "pdf/season.html", **shown, page_size=PAGE_SIZES[size], qr=qr_svg(shown["view_url"])
        )


def _pdf(season: Season) -> Response:
    size = paper_size()
    # The season changes with any of its concours: kept by their versions (read
    # alone: the concours are read and ranked only to draw it).
    key = ("season", _state(season), size)

    def html_of() -> tuple[str, str]:
        return season_html(service.standings(season), size), ascii_name(season.name) + ".pdf"

    return cached_pdf(key, html_of)


@bp.get("/se/<view_token>/season.pdf")
def public_pdf(view_token: str) -> Response:
    """The season's ranking on paper, with the QR code of its public page."""
    season = service.find_view(view_token)
    if season is None:
        abort(404)
    return _pdf(season)
