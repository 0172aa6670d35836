"""The scoreboard: what the game page shows, derived from the standings every time."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, g
from flask_babel import get_locale
from markupsafe import Markup

from referee.engine import GAMES
from referee.engine.game import Standings
from referee.lru import LRU
from referee.models import Game
from referee.services.games import Scored
from referee.web.cache import SharedRows


@dataclass
class Row:
    """One deal of the history: its number, dealer, what was entered, deltas and totals."""

    number: int
    dealer: int
    deal: dict[str, Any]
    deltas: tuple[int, ...]
    totals: tuple[int, ...]
    marks: list[tuple[str, int | None]] = field(default_factory=list)
    #: What each side scored, where it scored: [(names, delta)] ("Ana & Chloé", +4).
    scored: list[tuple[str, int]] = field(default_factory=list)
    #: Why: the deal's arithmetic, step by step, in the player's language.
    why: list[str] = field(default_factory=list)


@dataclass
class Board:
    """Everything the game page shows."""

    game: Game
    standings: Standings
    rows: list[Row]
    ranking: list[int]  # seats, best first
    leaders: list[int]
    teams: list[tuple[int, ...]] | None
    needs: list[int | None]  # points each seat still needs, where that means something
    deals_left: int | None

    @property
    def columns(self) -> list[tuple[int, ...]]:
        """The history's columns: one per side (partners score alike)."""
        return self.teams or [(seat,) for seat in range(len(self.game.players))]

    @property
    def last(self) -> Row | None:
        """The deal recorded last, shown in one line above the history."""
        return self.rows[-1] if self.rows else None


def build(game: Game, scored: Scored, deals: list[dict[str, Any]] | None = None) -> Board:
    """Lay out the standings of `game` (scored once, `scored`) for the page; `deals`:
    what was entered in its deals, when the game was read without them."""
    entered = [stored.data for stored in game.deals] if deals is None else deals
    standings = scored.standings
    players = len(game.players)
    totals = [0] * players
    rows: list[Row] = []
    rules = GAMES[game.game]
    sides = rules.sides(players)
    labels = [" & ".join(game.players[seat] for seat in side) for side in sides]
    lang = str(get_locale() or "fr")
    names = tuple(game.players)
    explained = rules.explain(scored.record, standings)
    for number, (result, data, steps) in enumerate(
        zip(standings.deals, entered, explained, strict=True), 1
    ):
        totals = [t + d for t, d in zip(totals, result.deltas, strict=True)]
        rows.append(
            Row(
                number,
                result.dealer,
                data,
                result.deltas,
                tuple(totals),
                [(m.kind.value, m.seat) for m in result.marks],
                [
                    (label, result.deltas[side[0]])
                    for label, side in zip(labels, sides, strict=True)
                    if result.deltas[side[0]]
                ],
                [step.text(names, lang) for step in steps],
            )
        )
    scores = standings.scores
    low = rules.lowest_wins
    ranking = sorted(range(players), key=lambda s: (scores[s] if low else -scores[s], s))
    best = scores[ranking[0]]
    leaders = [s for s in range(players) if scores[s] == best] if rows else []
    teams = list(sides) if any(len(side) > 1 for side in sides) else None
    target = getattr(scored.rules, "target", None)
    needs: list[int | None] = [
        max(target - s, 0) if isinstance(target, int) and not standings.finished else None
        for s in scores
    ]
    deals_left = rules.length - len(rows) if rules.length is not None else None
    return Board(game, standings, rows, ranking, leaders, teams, needs, deals_left)


def _game_key(game: Game) -> tuple[object, ...]:
    """What every row of a game's history shares in its key, made once per page (a
    board of 30 rows made it 30 times: a tenth of its render, issue 19)."""
    made: dict[int, tuple[int, tuple[object, ...]]] = g.setdefault("row_keys", {})
    found = made.get(id(game))
    if found is not None and found[0] == game.version and found[1][2] == game.token:
        return found[1]
    key = (
        str(get_locale() or "fr"),
        game.game,
        game.token,
        json.dumps(game.rules, sort_keys=True),
        tuple(game.players),
    )
    made[id(game)] = (game.version, key)
    return key


#: Rendered history rows kept per worker process (a row is about 1 KB).
ROWS_KEPT = 20_000


@dataclass
class _PageRows:
    """The history rows of one page being drawn, for the other workers (`share_rows`)."""

    rows: list[tuple[tuple[object, ...], Markup]] = field(default_factory=list)
    #: The rows the other workers kept for this page (read at its first old row missed).
    kept: dict[str, str] | None = None
    #: Whether a row older than the newest was missing here: the page was drawn cold.
    cold: bool = False
    #: The newest row's deal number (0: none).
    newest: int = 0


#: A page drawn warm (only its newest row new) keeps its rows for the other workers
#: every this many deals: the rows they do not find (at most as many) they draw.
#: Writing them at every deal would cost each drawing 0.4 ms (30 rows).
SHARE_EVERY = 8


def history_row(
    game: Game,
    row: Row,
    columns: list[tuple[int, ...]],
    spectator: bool,
    unconfirmed: bool,
    newest: bool = False,
) -> Markup:
    """One deal of the history as HTML, rendered once per everything it shows.

    A scoreboard's history grows by a row a deal; before, each new version of a
    game rendered every row again (19 ms for 30 deals, most of a scoreboard's
    cost: issue 19, PERFORMANCE.md). A row is a pure function of what the key holds:
    the language, the game's kind, rules, players and address (its links), the
    page (a spectator's has no links), the deal as entered and as scored, and
    whether it waits for a confirmation.

    Under `referee serve` a row this worker never drew, other than the `newest`
    (a deal just recorded: nobody drew it), is looked for among the rows another
    worker drew for the page (`SharedRows`) before it is drawn here.
    """
    key = (
        *_game_key(game),
        spectator,
        bool(unconfirmed),
        tuple(columns),
        row.number,
        row.dealer,
        json.dumps(row.deal, sort_keys=True),
        row.deltas,
        row.totals,
        tuple(row.marks),
        tuple(row.why),
    )
    rows: LRU[Markup] = current_app.extensions["row_cache"]
    shared: SharedRows | None = current_app.extensions.get("shared_rows")
    if shared is None:
        return rows.get_or_make(key, lambda: _draw_row(game, row, columns, spectator, unconfirmed))
    # The page's file: its language, address, spectators' or editors', columns.
    slot = (key[0], game.token, spectator, tuple(columns))
    pages: dict[tuple[object, ...], _PageRows] = g.setdefault("rows_drawn", {})
    page = pages.setdefault(slot, _PageRows())

    def render() -> Markup:
        if not newest:
            page.cold = True
            if page.kept is None:
                page.kept = shared.get(slot)
            found = page.kept.get(SharedRows.digest(key))
            if found is not None:
                return Markup(found)
        return _draw_row(game, row, columns, spectator, unconfirmed)

    html = rows.get_or_make(key, render)
    page.rows.append((key, html))
    if newest:
        page.newest = row.number
    return html


def _draw_row(
    game: Game, row: Row, columns: list[tuple[int, ...]], spectator: bool, unconfirmed: bool
) -> Markup:
    """A history row drawn from its template."""
    macro = current_app.jinja_env.get_template("_history_row.html").module.row  # type: ignore[attr-defined]
    return Markup(macro(game, row, columns, spectator, bool(unconfirmed)))


def share_rows() -> None:
    """After a page is drawn: if it was drawn cold (rows older than its newest were
    missing here), its rows are kept for the server's other workers (`SharedRows`);
    if it was drawn warm (its newest row only was new), every `SHARE_EVERY` deals."""
    shared: SharedRows | None = current_app.extensions.get("shared_rows")
    pages: dict[tuple[object, ...], _PageRows] = g.pop("rows_drawn", {})
    if shared is None:
        return
    for slot, page in pages.items():
        if page.cold or (page.newest and page.newest % SHARE_EVERY == 0):
            shared.put(slot, {SharedRows.digest(key): str(html) for key, html in page.rows})
