"""What the game pages share: finding a game, its rules, its chart, its page, its
file name. The blueprints (games, tools, sheets, share) import from here, never from
each other."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, NoReturn

from flask import Response, abort, flash, redirect, render_template, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as BaseResponse

from referee.engine.game import Standings
from referee.games import GAMES
from referee.models import Game
from referee.services import events
from referee.services import games as service
from referee.web.board import Reasons, build, share_rows
from referee.web.browser import phone_id
from referee.web.cache import CachedPage
from referee.web.chart import chart
from referee.web.result import chart_lines, picture_url, preview

Page = str | tuple[str, int] | BaseResponse


def load(token: str) -> Game:
    """The game of this token, or a 404 that says nothing more."""
    game = service.find(token)
    if game is None:
        gone(token)
    return game


def load_shown(token: str) -> tuple[Game, list[dict[str, Any]]]:
    """The game of this token read to be shown, with what was entered in its deals
    (`service.shown`), or a 404 that says nothing more."""
    found = service.shown(token)
    if found is None:
        gone(token)
    return found


def gone(token: str) -> NoReturn:
    """No game has this link: a concours table's link whose result was accepted
    leads its phones to the table's card, which says so; any other, a 404."""
    found = events.table_of_link(token)
    if found is None:
        abort(404)
    event, table = found
    flash(_("The result of this table was accepted: only the director can change it now."))
    abort(redirect(url_for("events.card", play_token=event.play_token, number=table.number)))


def engine_rules(game: Game) -> Any:
    """The game's rules as the engine reads them (a variant may decide the form)."""
    return service.scored(game).rules


def game_chart(game: Game, scored: service.Scored) -> Any:
    """The scores over the deals, as the page's SVG chart."""
    labels, series = chart_lines(game, scored)
    return chart(labels, series, _("Scores over the deals"))


def why(game: Game, record: Any, standings: Standings, number: int) -> list[str]:
    """Why deal `number` (from 1) scored what it did, step by step, in the player's
    language (the engine's explanation, put in words as the history's rows are)."""
    scored = service.Scored(record, standings)
    lang = str(get_locale() or "fr")
    return Reasons(GAMES[game.game], scored, tuple(game.players), lang).of(number)


def game_page_tag(token: str) -> str:
    """A short tag of the address, so that two games' pages never share an entity tag."""
    return hashlib.blake2s(token.encode(), digest_size=6).hexdigest()


def render_game_page(
    game: Game,
    spectator: bool = False,
    just: dict[str, Any] | None = None,
    deals: list[dict[str, Any]] | None = None,
) -> str:
    """The scoreboard page; a spectator's has no button that would change anything.

    `just` is what this phone just did (a deal recorded or taken back): a line says
    so above the scores, with the one tap that takes it back while nothing else
    changed the game. `deals`: what was entered in its deals, when the game was read
    without them (`load_shown`).
    """
    scored = service.scored(game, deals)
    if just is not None and just.get("version") != game.version:
        just = None  # another phone wrote since: its undo would not be this one's
    # The table agrees (a game's option): deals to confirm, then the signatures.
    agreement = service.agreement(game) if game.confirm_deals else None
    pending: list[int] = []
    if agreement is not None and game.confirm_deals and not spectator:
        pending = agreement.pending(phone_id())
    board = build(game, scored, deals)
    # A game read from a file only (the warm-up's) has no spectators' address.
    card = preview(game, board) if game.view_token else None
    page = render_template(
        "game.html",
        board=board,
        # A concours table's game: the way back to its card, where the result is accepted.
        concours=None if spectator else events.table_of_game(game.id),
        # What a chat shows of a link to the spectators' page: never on the editors'.
        preview=card if spectator else None,
        # The result picture, by the spectators' token on either page.
        share_picture_url=picture_url(game) if card is not None else None,
        share_name=file_name(game, "png"),
        share_title=card.title if card is not None else "",
        # What goes to the chat with the picture: the result and the spectators' link.
        share_text=f"{card.title} {card.url}" if card is not None else "",
        chart=game_chart(game, scored),
        spectator=spectator,
        just=just,
        agreement=agreement,
        pending=pending,
    )
    share_rows()
    return page


#: Where a scoreboard that every phone shares takes what one phone just did (`just`):
#: an HTML comment, so the shared page shows nothing there.
JUST_MARK = Markup("<!--just-->")


@dataclass(frozen=True)
class JustState:
    """What `_just.html` reads of the game: its address and the version its undo is for."""

    token: str
    version: int


def with_just(page: CachedPage, token: str, version: int, just: dict[str, Any]) -> str | None:
    """The shared scoreboard of `version` with what this phone just did in its place:
    the page every phone of the table is served, rendered once a version, instead
    of a page of its own for the phone that recorded the deal (issue 19: that was a
    second whole render of every deal). None if the page has no place for it."""
    html = page.body.decode()
    if JUST_MARK not in html:
        return None
    box = render_template("_just.html", just=just, game=JustState(token, version))
    return html.replace(JUST_MARK, box, 1)


def download(body: str | bytes, mimetype: str, name: str) -> Response:
    """A file to save (a record, a sheet, a table's file or CSV) under a useful name."""
    return Response(
        body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )


#: The longest file name made (before its extension).
MAX_FILE_NAME = 80


def file_name(game: Game, extension: str) -> str:
    """A useful file name: game, date, players (`<key>-2026-11-30-ana-bruno.json`)."""
    words = [game.game, game.day.isoformat(), *game.players]
    ascii_words = [
        unicodedata.normalize("NFKD", w).encode("ascii", "ignore").decode().lower() for w in words
    ]
    slug = "-".join(s for s in (re.sub(r"[^a-z0-9]+", "-", w).strip("-") for w in ascii_words) if s)
    if len(slug) > MAX_FILE_NAME:  # twelve long names: a file system takes 255 at most
        slug = slug[:MAX_FILE_NAME].rsplit("-", 1)[0]
    return f"{slug}.{extension}"
