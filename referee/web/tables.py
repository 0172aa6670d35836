"""Tables: the people who play together, their evenings, statistics and files.

Like a game, a table has an editor's link (`/t/<token>`: its players start games
there, join games to it, merge names) and a spectator's link (`/tv/<token>`:
everything shown, nothing changed). The views parse forms, call
`services.tables` and redirect; every figure is the engine's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response as BaseResponse

import referee.web.follow as follow
from referee.engine.errors import RulesError
from referee.engine.names import clean, isolate, sort_key
from referee.engine.tables import TableGameError
from referee.models import Game, Table
from referee.services import games as game_service
from referee.services import tables as service
from referee.web.board import Board, build
from referee.web.browser import REMEMBERED, my_tokens, remember, remember_in
from referee.web.forms import MAX_PLAYERS, messages_of
from referee.web.homes import home_of
from referee.web.hosts import public_url
from referee.web.pages import Page, download, load_shown
from referee.web.result import preview
from referee.web.share import links_page
from referee.web.sheets import ascii_name, pdf_response, renderer
from referee.web.statistics import statistics_page

bp = Blueprint("tables", __name__)

#: A game's editor link as pasted (a whole address or the token alone).
_GAME_LINK = re.compile(r"(?:/g/)?([A-Za-z0-9_-]{16,64})/?\s*$")
#: A game's spectators' link as pasted (the page a spectator sees).
_VIEW_LINK = re.compile(r"/v/([A-Za-z0-9_-]{16,64})/?\s*$")


def remember_table(token: str) -> None:
    """Put a table at the top of this browser's list of tables (the session cookie)."""
    remember_in("tables", token)


def my_tables() -> list[Table]:
    tokens = [t for t in session.get("tables", []) if isinstance(t, str)]
    return service.tables_of(tokens[:REMEMBERED])


def _editor(token: str) -> Table:
    table = service.find_table(token)
    if table is None:
        abort(404)
    remember_table(token)
    return table


def _viewer(view_token: str) -> Table:
    table = service.find_table_view(view_token)
    if table is None:
        abort(404)
    return table


def _version() -> int:
    text = request.form.get("version", "")
    return int(text) if text.isascii() and text.isdigit() else -1


def _back(table: Table) -> BaseResponse:
    return redirect(url_for("tables.show", token=table.token))


@bp.route("/tables/new", methods=["GET", "POST"])
def new() -> Page:
    """A new table: its name, and if they are given its people, in the seats of its
    first game."""
    errors: list[str] = []
    name = request.form.get("name", "")
    people = [request.form.get(f"person{seat}", "") for seat in range(MAX_PLAYERS)]
    if request.method == "POST":
        try:
            table = service.create_table(name, people)
        except RulesError as error:
            errors = messages_of(error.problems)
        else:
            remember_table(table.token)
            return _back(table)
    page = render_template(
        "tables/new.html",
        name=name,
        people=people,
        errors=errors,
        names=game_service.known_names(my_tokens()),
    )
    return (page, 422) if errors else page


#: Evenings shown in full on a table's page; older ones are listed by their day.
RECENT_EVENINGS = 10


@dataclass(frozen=True)
class NowPlaying:
    """What a TV shows of a game: its board, and the evening's money around it."""

    board: Board
    evening: service.Evening | None


def now_playing(game: Game, table: Table | None) -> NowPlaying:
    """The game laid out for a TV (read to be shown, as its spectators' page is),
    with the evening of its day at `table`."""
    shown, deals = load_shown(game.token)
    board = build(shown, game_service.scored(shown, deals), deals)
    evening = service.evening_of(table, shown.day.isoformat()) if table is not None else None
    return NowPlaying(board, evening)


def _table_page(table: Table, spectator: bool) -> str:
    games = service.table_games(table)
    evenings = service.evenings(games)
    # The spectators' page is the table's TV: the game being played on top.
    current = service.current_game(table) if spectator else None
    now = now_playing(current, table) if current is not None else None
    # A chat shows the game being played of a link to the table's TV (the
    # spectators' page, by the spectators' tokens only): never of the players' page.
    card = None
    if now is not None:
        url = public_url("tables.spectate", view_token=table.view_token)
        card = preview(now.board.game, now.board, url=url)
    return render_template(
        "tables/table.html",
        now=now,
        preview=card,
        tv_state=service.tv_state(table) if spectator else "",
        table=table,
        evenings=evenings[:RECENT_EVENINGS],
        older=evenings[RECENT_EVENINGS:],
        games=games,
        spectator=spectator,
        names=sorted({n for g in games for n in g.game.players}, key=sort_key),
        # Before its first game, the people the table was made with.
        people=sorted({p for g in games for p in g.played.people}, key=sort_key)
        or list(table.people or ()),
    )


@bp.get("/t/<token>")
def show(token: str) -> str:
    """The table: its evenings (newest first), each game's result and the money."""
    return _table_page(_editor(token), spectator=False)


@bp.get("/tv/<view_token>")
def spectate(view_token: str) -> str:
    """The table for spectators, and its TV: the game being played large (at 1200 px
    and wider: read from across a room), the evening's money under it, following
    the game live; then the evenings, as on a phone. One link for a phone and a TV:
    the one the table already hands out."""
    return _table_page(_viewer(view_token), spectator=True)


@bp.get("/tv/<view_token>/version.json")
def spectate_version(view_token: str) -> Response:
    """What the table's TV shows, in one word (`tv_state`): it reloads when it
    changes (a game started or removed, a deal anywhere at the table)."""
    response = jsonify(version=service.tv_state(_viewer(view_token)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/tv/<view_token>/live")
def spectate_live(view_token: str) -> Response:
    """The game on the table's TV, followed as its spectators follow it (pushed,
    version only: the TV's page is its own, not the game's)."""
    game = service.current_game(_viewer(view_token))
    if game is None:
        abort(404)
    return follow.stream(game.view_token, game.version, spectator=True, lang=None)


@bp.get("/v/<view_token>/tv")
def game_tv(view_token: str) -> Page:
    """One game on a TV (its spectators' link, shown on a big screen): the scores
    large, the leader marked, the last deal in one line; live."""
    found = game_service.view_version_of(view_token)
    if found is None:
        abort(404)
    game = game_service.find(found[0])
    if game is None:
        abort(404)
    following = game_service.next_game(game)
    if following is not None:  # the table went on to the next game: so does the TV
        return redirect(url_for("tables.game_tv", view_token=following.view_token))
    now = now_playing(game, None)
    url = public_url("tables.game_tv", view_token=view_token)
    return render_template(
        "tv.html", now=now, game=game, preview=preview(now.board.game, now.board, url)
    )


@bp.get("/t/<token>/join")
def join_again(token: str) -> BaseResponse:
    """The address of a join's answer (the page asking to move a game), opened again:
    the table."""
    return _back(_editor(token))


@bp.post("/t/<token>/join")
def join(token: str) -> Page:
    """Join a game to the table, by its editor's link (who holds it may)."""
    table = _editor(token)
    pasted = request.form.get("game", "")
    found = _GAME_LINK.search(pasted)
    game = game_service.find(found.group(1)) if found and "/v/" not in pasted else None
    if game is None:
        # A spectators' link changes nothing, so it cannot put a game at a table
        # either (anyone watching could otherwise move someone's game): say which
        # link to paste instead of "no game has this link".
        viewed = _VIEW_LINK.search(pasted) or found
        if viewed is not None and game_service.view_version_of(viewed.group(1)) is not None:
            flash(
                _(
                    "This is the game\u2019s spectators\u2019 link: it changes nothing, so it "
                    "cannot join the game to a table. Paste its editors\u2019 link: on the "
                    "game\u2019s page, Share, then \u201cEditors: the link that can change the "
                    "game\u201d."
                ),
                "error",
            )
        else:
            flash(_("No game has this link: paste the game's editors' link (Share, on its page)."))
        return _back(table)
    if game.table_id == table.id:
        flash(_("This game is at this table already."))
        return _back(table)
    other = game.table
    if other is not None and request.form.get("move") != "1":
        # Another table's game: moved only when asked, never by a paste alone.
        return render_template(
            "tables/move.html", game=game, other=other, table=table, pasted=pasted
        )
    service.join(table, game)
    remember(game.token)
    flash(_("The game joined the table."))
    return _back(table)


@bp.post("/t/<token>/leave")
def leave(token: str) -> BaseResponse:
    """Take a game off the table (it stays a game of its own)."""
    table = _editor(token)
    game = game_service.find(request.form.get("game", ""))
    if game is not None and game.table_id == table.id:
        service.leave(table, game)
        flash(_("The game left the table; it is still in your games."))
    return _back(table)


@bp.post("/t/<token>/merge")
def merge(token: str) -> BaseResponse:
    """Two names are one person ("Pegy" is Peggy)."""
    table = _editor(token)
    name, into = request.form.get("name", ""), request.form.get("into", "")
    try:
        service.merge(table, name, into, _version())
    except RulesError as error:
        for message in messages_of(error.problems):
            flash(message, "error")
    except game_service.StaleVersion:
        flash(_("Someone else changed the table meanwhile: nothing was changed."), "error")
    else:
        flash(
            _(
                "%(name)s and %(into)s are one person now.",
                name=isolate(clean(name)),
                into=isolate(clean(into)),
            )
        )
    return _back(table)


@bp.post("/t/<token>/unmerge")
def unmerge(token: str) -> BaseResponse:
    """Undo a merge: the typed name is its own person again."""
    table = _editor(token)
    name = request.form.get("name", "")
    try:
        service.unmerge(table, name, _version())
    except game_service.StaleVersion:
        flash(_("Someone else changed the table meanwhile: nothing was changed."), "error")
    else:
        flash(_("%(name)s is a person of their own again.", name=isolate(name)))
    return _back(table)


@bp.post("/t/<token>/rename")
def rename(token: str) -> BaseResponse:
    table = _editor(token)
    try:
        service.rename_table(table, request.form.get("name", ""), _version())
    except RulesError as error:
        for message in messages_of(error.problems):
            flash(message, "error")
    except game_service.StaleVersion:
        flash(_("Someone else changed the table meanwhile: nothing was changed."), "error")
    return _back(table)


@bp.get("/t/<token>/share")
def share(token: str) -> str:
    table = _editor(token)
    editor = public_url("tables.show", token=table.token)
    viewer = public_url("tables.spectate", view_token=table.view_token)
    return links_page("tables/share.html", editor, viewer, table=table)


@bp.post("/t/<token>/rotate")
def rotate(token: str) -> BaseResponse:
    """A new editor or spectator link for the table: the old one stops working."""
    table = _editor(token)
    which = "editor" if request.form.get("which") == "editor" else "viewer"
    try:
        service.rotate_table(table, which)
    except game_service.StaleVersion:
        flash(_("Someone else changed the table meanwhile: nothing was changed."))
        return redirect(url_for("tables.share", token=token))
    if which == "editor":
        remember_table(table.token)
        flash(_("New editor link: the old one no longer opens this table."))
    else:
        flash(_("New spectator link: the old one no longer opens this table."))
    return redirect(url_for("tables.share", token=table.token))


# --- evenings, statistics, files -----------------------------------------------------


def _evening(table: Table, day: str) -> service.Evening:
    evening = service.evening_of(table, day)
    if evening is None:
        abort(404)
    return evening


def _evening_page(table: Table, day: str, spectator: bool) -> str:
    return render_template(
        "tables/evening.html", table=table, evening=_evening(table, day), spectator=spectator
    )


@bp.get("/t/<token>/evening/<day>")
def evening(token: str, day: str) -> str:
    """One evening: each game's result, and one settlement for them all."""
    return _evening_page(_editor(token), day, spectator=False)


@bp.get("/tv/<view_token>/evening/<day>")
def evening_view(view_token: str, day: str) -> str:
    return _evening_page(_viewer(view_token), day, spectator=True)


def _evening_sheet(table: Table, day: str) -> Response:
    found = _evening(table, day)
    html = render_template("pdf/evening.html", table=table, evening=found, page_size="A4")
    return pdf_response(renderer().render(html), f"evening-{found.key}.pdf")


@bp.get("/t/<token>/evening/<day>/sheet.pdf")
def evening_sheet(token: str, day: str) -> Response:
    """The evening on one page: every game, the money, the transfers, signatures."""
    return _evening_sheet(_editor(token), day)


@bp.get("/tv/<view_token>/evening/<day>/sheet.pdf")
def evening_sheet_view(view_token: str, day: str) -> Response:
    return _evening_sheet(_viewer(view_token), day)


@bp.get("/t/<token>/statistics")
def statistics(token: str) -> str:
    """Who wins, with what, against whom: every figure derived from the games."""
    table = _editor(token)
    return statistics_page(table, service.statistics_of(table), spectator=False)


@bp.get("/tv/<view_token>/statistics")
def statistics_view(view_token: str) -> str:
    table = _viewer(view_token)
    return statistics_page(table, service.statistics_of(table), spectator=True)


def _slug(table: Table) -> str:
    return ascii_name(table.name) or "table"


@bp.get("/t/<token>/export.json")
def export(token: str) -> Response:
    """The table's file (`referee-table/1`): its name, its people, its games."""
    table = _editor(token)
    return download(
        service.export_table_json(table), "application/json", f"table-{_slug(table)}.json"
    )


@bp.get("/t/<token>/deals.csv")
def deals_csv(token: str) -> Response:
    table = _editor(token)
    text = service.deals_csv(
        service.table_games(table), lambda key, deal: home_of(key).csv_columns(deal)
    )
    return download(text, "text/csv", f"deals-{_slug(table)}.csv")


@bp.get("/t/<token>/statistics.csv")
def statistics_csv(token: str) -> Response:
    table = _editor(token)
    text = service.statistics_csv(service.statistics_of(table))
    return download(text, "text/csv", f"statistics-{_slug(table)}.csv")


@bp.route("/tables/import", methods=["GET", "POST"])
def import_table() -> Page:
    """A table file (`referee-table/1`) as a new table with new links."""
    if request.method == "GET":
        return render_template("tables/import.html", errors=[])
    upload = request.files.get("table")
    data = upload.read() if upload else b""
    errors: list[Any] = []
    if not data:
        errors = [_("Choose a table file.")]
    else:
        try:
            table = service.import_table(data)
        except TableGameError as error:
            errors = [
                _("Game %(n)d of the file: %(message)s", n=error.number, message=message)
                for message in messages_of(error.error.problems)
            ]
        except RulesError as error:
            errors = messages_of(error.problems)
        else:
            remember_table(table.token)
            flash(_("Table imported."))
            return _back(table)
    return render_template("tables/import.html", errors=errors), 422
