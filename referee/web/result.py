"""A game's result for the places the players talk (issue 40): the picture's
words and numbers in the reader's language, and the preview card a chat shows of
a spectators' link (Open Graph and Twitter tags).

The picture itself is drawn by `referee.services.picture` from plain values;
this module gathers them from the scoreboard (`board.build`): the game's name
from its home, the sides (players, or teams where the scoreboard speaks in
teams) in rank order, the winners, the settlement, the running totals. Nothing
here names a game.

Every address made here carries the spectators' token, never the editors':
the picture is served at `/v/<view_token>/picture.png` only.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from flask import url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from referee.engine.names import isolate
from referee.games import GAMES
from referee.models import Game
from referee.services import games as service
from referee.services.picture import HEIGHT, WIDTH, Picture, Series, Side, plain
from referee.web.board import Board, Entry
from referee.web.chart import COLOURS
from referee.web.format import day, money, number
from referee.web.homes import game_name, home_of
from referee.web.hosts import public_url

#: The most sides named in a preview's title (a chat cuts it short anyway).
TITLE_SIDES = 6


def chart_lines(game: Game, scored: service.Scored) -> tuple[list[str], list[list[int]]]:
    """The scores over the deals, one line per side (partners score alike): each
    side's label and its running totals after each deal (the page's chart, the
    result picture's)."""
    standings = scored.standings
    names = list(game.players)
    totals: list[list[int]] = [[] for _ in names]
    running = [0] * len(names)
    for result in standings.deals:
        for seat, delta in enumerate(result.deltas):
            running[seat] += delta
            totals[seat].append(running[seat])
    sides = GAMES[game.game].sides_under(scored.rules, len(names))
    labels = [" & ".join(isolate(names[seat]) for seat in side) for side in sides]
    return labels, [totals[side[0]] for side in sides]


def ranked(board: Board) -> list[Entry]:
    """The scoreboard's sides, best first (its own order is the seats')."""
    return sorted(board.entries, key=lambda entry: (entry.rank, entry.seat))


def headline(board: Board) -> str:
    """Who won (a finished game), who leads (a game being played), or that
    nothing was played yet; in teams where the scoreboard speaks in teams."""
    standings = board.standings
    if not board.rows:
        return str(_("No deal played yet"))
    if standings.finished:
        won = [e.label for e in board.entries if set(e.seats) & set(standings.winners)]
        words = ngettext("Winner:", "Winners:", len(standings.winners))
        return f"★ {words} {', '.join(won)}"
    leading = [e.label for e in board.entries if e.leader]
    if len(leading) == len(board.entries):
        return str(_("Game in progress: all level"))
    return str(_("Game in progress. In the lead: %(names)s", names=", ".join(leading)))


def subtitle(game: Game, board: Board) -> str:
    """The game's day, its length, and where a game being played stands."""
    parts = [day(game.day)]
    if board.rows:
        parts.append(ngettext("%(num)d deal", "%(num)d deals", len(board.rows)))
    stage = None if board.standings.finished else home_of(game.game).stage(board.standings)
    if stage:
        parts.append(str(stage))
    return " · ".join(parts)


def picture_of(game: Game, board: Board, scored: service.Scored) -> Picture:
    """What the result picture says, in the current language."""
    standings = board.standings
    level = all(entry.leader for entry in board.entries)  # nobody stands out yet
    sides = tuple(
        Side(
            entry.label,
            number(standings.scores[entry.seat]),
            entry.place,
            entry.leader and not level,
        )
        for entry in ranked(board)
    )
    transfers: tuple[tuple[str, str, str], ...] = ()
    if standings.money is not None:
        names = game.players
        transfers = tuple(
            (names[t.payer], names[t.payee], money(t.amount, game.currency))
            for t in standings.money.transfers
        )
    chart: tuple[Series, ...] = ()
    if board.rows:
        labels, lines = chart_lines(game, scored)
        chart = tuple(
            Series(label, tuple(values), COLOURS[i % len(COLOURS)], i >= len(COLOURS))
            for i, (label, values) in enumerate(zip(labels, lines, strict=True))
        )
    return Picture(
        title=str(game_name(game)),
        subtitle=subtitle(game, board),
        headline=headline(board),
        sides=sides,
        money_title=_("Money"),
        money=transfers,
        # The sentence itself, its names and amount put in by the drawing (which
        # may shorten a long name): no variables given, gettext leaves them as they are.
        pays=_("%(payer)s pays %(payee)s %(amount)s"),
        chart_title=_("Scores over the deals"),
        chart=chart,
        more=_("and %(num)d more"),
    )


def _ltr_after(name: str) -> str:
    """A right-to-left name followed by a left-to-right mark, so that the score after
    it stays after it in a chat's plain text (which has no isolates: many chats draw
    them as boxes; the mark is older and read everywhere)."""
    right_to_left = any(unicodedata.bidirectional(c) in ("R", "AL") for c in name)
    return name + "\u200e" if right_to_left else name


@dataclass(frozen=True)
class Preview:
    """What a chat shows of a link: a title, a line, a picture (Open Graph)."""

    title: str
    description: str
    url: str
    image: str
    width: int = WIDTH
    height: int = HEIGHT
    image_alt: str = ""


def picture_url(game: Game, external: bool = False) -> str:
    """The result picture's address, by the spectators' token: in this page's
    language and of this version (a chat that kept it never shows an older result
    under a newer page: a new deal is a new address)."""
    lang = str(get_locale())
    if external:
        return public_url("share.picture", view_token=game.view_token, lang=lang, v=game.version)
    return url_for("share.picture", view_token=game.view_token, lang=lang, v=game.version)


def preview(game: Game, board: Board, url: str | None = None) -> Preview:
    """The preview card of the spectators' page of `game` ("Alice 21 – Bob 15 · the
    game's name"); `url`: the page's own address, if not the game's spectators' page
    (a table's TV)."""
    entries = ranked(board)
    scores = board.standings.scores
    said = [
        f"{_ltr_after(plain(entry.label))} {number(scores[entry.seat])}"
        for entry in entries[:TITLE_SIDES]
    ]
    if len(entries) > TITLE_SIDES:
        said.append("…")
    name = str(game_name(game))
    # Plain text: a chat shows the pages' bidirectional isolates as boxes.
    title = plain(f"{' – '.join(said)} · {name}")
    description = plain(f"{headline(board)} · {subtitle(game, board)}")
    return Preview(
        title=title,
        description=description,
        url=url or public_url("share.spectate", view_token=game.view_token),
        image=picture_url(game, external=True),
        image_alt=plain(_("%(game)s: %(result)s", game=name, result=description)),
    )
