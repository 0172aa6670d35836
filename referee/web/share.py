"""Several phones, one table: editor and spectator links, live updates, link rotation."""

from __future__ import annotations

import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import force_locale, get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

import referee.web.follow as follow
from referee.engine.messages import LANGUAGES
from referee.services import games as service
from referee.services.picture import draw
from referee.web.board import build
from referee.web.browser import remember
from referee.web.cache import LRU, CachedPage, cached_page, game_page_key
from referee.web.hosts import public_url
from referee.web.pages import file_name, game_page_tag, load, load_shown, render_game_page
from referee.web.result import picture_of, picture_url

bp = Blueprint("share", __name__)


def qr_svg(url: str) -> Markup:
    """A QR code of `url`, as inline SVG (no script, no image request)."""
    return Markup(
        segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", omitsize=True)
    )


def links_page(template: str, editor: str, viewer: str, **context: object) -> str:
    """A page of an editors' and a spectators' link, as text and QR codes (a game's
    or a table's)."""
    return render_template(
        template,
        editor=editor,
        viewer=viewer,
        editor_qr=qr_svg(editor),
        viewer_qr=qr_svg(viewer),
        **context,
    )


@bp.get("/g/<token>/share")
def share(token: str) -> str:
    """The editor and spectator links, as text and QR codes, and their rotation."""
    game = load(token)
    editor = public_url("games.show", token=game.token)
    viewer = public_url("share.spectate", view_token=game.view_token)
    return links_page(
        "share.html",
        editor,
        viewer,
        game=game,
        # The result as a picture too, once there is one: the page a player opens
        # to send something to the others.
        picture=picture_url(game) if game.view_token and game.deals else None,
        picture_name=file_name(game, "png"),
    )


@bp.post("/g/<token>/rotate")
def rotate(token: str) -> BaseResponse:
    """Replace the editor or the spectator link; holders of the old one are cut off."""
    game = load(token)
    which = "editor" if request.form.get("which") == "editor" else "viewer"
    try:
        service.rotate(game, which)
    except service.StaleVersion:
        flash(_("Someone else changed the game meanwhile: nothing was changed."))
        return redirect(url_for("share.share", token=token))
    if which == "editor":
        remember(game.token)
        flash(_("New editor link: the old one no longer opens this game."))
    else:
        flash(_("New spectator link: the old one no longer opens this game."))
    return redirect(url_for("share.share", token=game.token))


@bp.get("/v/<view_token>")
def spectate(view_token: str) -> Response:
    """The scoreboard for spectators: it follows the game and changes nothing."""
    found = service.view_version_of(view_token)
    if found is None:
        abort(404)
    token, version = found
    key = game_page_key(True, view_token, version, str(get_locale()))

    def render() -> CachedPage:
        game, deals = load_shown(token)
        etag = f"v{version}-{key[3]}-{game_page_tag(view_token)}"
        return CachedPage.of(render_game_page(game, spectator=True, deals=deals), etag)

    page = cached_page(key, render)
    return page.response(request.accept_encodings, request.if_none_match)


#: Result pictures kept per worker (about 60 KB each): a chat asks a link's
#: picture once, then each reader's phone may again.
PICTURES_KEPT = 64


@bp.get("/v/<view_token>/picture.png")
def picture(view_token: str) -> Response:
    """The game's result as a picture to send in a chat (`services.picture`), by
    the spectators' token only (no address of an editors' token serves it: a
    picture passed around must not lead to the game's editing). Drawn once per
    version and language (`?lang=`, else the reader's), kept in the worker.

    `?v=`: the version the link was made for (the pages' share button, the
    preview card). While it is the game's version the picture may be kept by any
    cache for a day; any other asks again (the ETag answers a 304 if unchanged).
    """
    found = service.view_version_of(view_token)
    if found is None:
        abort(404)
    token, version = found
    lang = request.args.get("lang", "").strip().lower()[:2]  # "EN", "en-US": English
    lang = lang if lang in LANGUAGES else str(get_locale())
    cache: LRU[tuple[bytes, str, str]] = current_app.extensions["picture_cache"]

    def make() -> tuple[bytes, str, str]:
        with force_locale(lang):
            game, deals = load_shown(token)
            scored = service.scored(game, deals)
            png = draw(picture_of(game, build(game, scored, deals), scored))
        etag = f"p{version}-{lang}-{game_page_tag(view_token)}"
        return png, etag, file_name(game, "png")

    png, etag, name = cache.get_or_make((view_token, version, lang), make)
    response = Response(png, mimetype="image/png")
    response.set_etag(etag)
    response.headers["Content-Disposition"] = f'inline; filename="{name}"'
    if request.args.get("v") == str(version):
        response.headers["Cache-Control"] = "public, max-age=86400"
    else:
        response.headers["Cache-Control"] = "no-cache"
    response.make_conditional(request)
    return response


@bp.get("/v/<view_token>/version.json")
def view_version(view_token: str) -> Response:
    """The game's version, for the page to reload itself when it changes."""
    found = service.view_version_of(view_token)
    if found is None:
        abort(404)
    return _version_response(found[1])


@bp.get("/g/<token>/version.json")
def edit_version(token: str) -> Response:
    """The same for the editors' page (another phone may have entered a deal)."""
    version = service.version_of(token)
    if version is None:
        abort(404)
    return _version_response(version)


@bp.get("/v/<view_token>/live")
def view_live(view_token: str) -> Response:
    """The game's version now and at each change, pushed (server-sent events)."""
    found = service.view_version_of(view_token)
    if found is None:
        abort(404)
    return follow.stream(view_token, found[1], spectator=True, lang=_pages_lang())


@bp.get("/g/<token>/live")
def edit_live(token: str) -> Response:
    """The same for the editors' page (a finished game's, or one whose deals are
    confirmed, is each phone's own: never sent in the stream)."""
    state = service.state_of(token)
    if state is None:
        abort(404)
    version, finished, confirming = state
    shared = service.page_shared(spectators=False, finished=finished, confirming=confirming)
    return follow.stream(token, version, spectator=False, lang=_pages_lang() if shared else None)


def _pages_lang() -> str | None:
    """The language of the pages to send in the stream, if the phone takes them
    (`?pages=1`: its page runs under the service worker); else None."""
    return str(get_locale()) if request.args.get("pages") == "1" else None


def _version_response(version: int) -> Response:
    response = jsonify(version=version)
    response.headers["Cache-Control"] = "no-store"
    return response
