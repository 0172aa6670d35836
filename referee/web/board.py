"""The scoreboard: what the game page shows, derived from the standings every time."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from flask import current_app, g
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from referee.engine.game import Game as Rules
from referee.engine.game import Standings
from referee.engine.names import isolate
from referee.engine.records import MAX_DEALS
from referee.games import GAMES
from referee.lru import LRU
from referee.models import Game
from referee.services.games import Agreement, Scored, record_of
from referee.web.cache import SharedRows


class Reasons:
    """Why each deal of a game scored what it did, in the player's language: the
    engine's explanation of a deal (`Game.explain_deal`), worked out and put in
    words only for the rows that ask. A page whose older rows are kept
    (`history_rows`) explains one deal, not 30."""

    def __init__(self, rules: Rules[Any, Any], scored: Scored, names: tuple[str, ...], lang: str):
        self._rules = rules
        self._scored = scored
        self._names = names
        #: The language the board was built in, and its rows are drawn in.
        self.lang = lang

    def of(self, number: int) -> list[str]:
        """The steps of deal `number` (from 1), in words."""
        steps = self._rules.explain_deal(self._scored.record, self._scored.standings, number)
        return [step.text(self._names, self.lang) for step in steps]


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
    #: A digest of the game's record up to this deal (`prefix_digests`): the row shows
    #: nothing else of the game, so two rows of the same digest show the same.
    digest: bytes = b""
    reasons: Reasons | None = field(default=None, repr=False, compare=False)

    @property
    def why(self) -> list[str]:
        """Why: the deal's arithmetic, step by step, in the player's language."""
        return self.reasons.of(self.number) if self.reasons is not None else []


#: A rank as the table says it beside a name ("1st", "1er"); ties share one.
ORDINALS = {
    1: _l("1st"),
    2: _l("2nd"),
    3: _l("3rd"),
}


def ordinal(rank: int) -> str:
    """A rank in words ("2nd", "2e", "12th"): a table has at most 12 players,
    whose ranks past the third all end alike in both languages."""
    return str(ORDINALS[rank]) if rank in ORDINALS else str(_l("%(n)dth", n=rank))


@dataclass(frozen=True)
class Entry:
    """One line of the scoreboard: a side (a player, or partners), in seat order."""

    seats: tuple[int, ...]
    label: str
    rank: int
    leader: bool

    @property
    def seat(self) -> int:
        """The side's first seat: partners score alike, its numbers are its."""
        return self.seats[0]

    @property
    def place(self) -> str:
        """The rank in words ("1st")."""
        return ordinal(self.rank)


@dataclass
class Board:
    """Everything the game page shows."""

    game: Game
    standings: Standings
    rows: list[Row]
    ranking: list[int]  # seats, best first (the sheet's final ranking)
    leaders: list[int]
    teams: list[tuple[int, ...]] | None
    needs: list[int | None]  # points each seat still needs, where that means something
    deals_left: int | None
    #: The scoreboard's lines in seat order, whatever the scores (issue 38, item 4:
    #: a player finds his line in the same place after every deal), each with its rank.
    entries: list[Entry] = field(default_factory=list)
    #: The game's house rules, as the engine reads them.
    rules: Any = None

    @property
    def columns(self) -> list[tuple[int, ...]]:
        """The history's columns: one per side (partners score alike)."""
        return self.teams or [(seat,) for seat in range(len(self.game.players))]

    @property
    def full(self) -> bool:
        """The game holds as many deals as a record may (`records.MAX_DEALS`): no
        deal may follow, the table starts the next game."""
        return len(self.rows) >= MAX_DEALS

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
    sides = rules.sides_under(scored.rules, players)
    labels = [" & ".join(isolate(game.players[seat]) for seat in side) for side in sides]
    lang = str(get_locale() or "fr")
    reasons = Reasons(rules, scored, tuple(game.players), lang)
    digests = prefix_digests(game, entered)
    for number, (result, data, digest) in enumerate(
        zip(standings.deals, entered, digests, strict=True), 1
    ):
        totals = [t + d for t, d in zip(totals, result.deltas, strict=True)]
        rows.append(
            Row(
                number,
                result.dealer,
                data,
                result.deltas,
                tuple(totals),
                [(str(m.kind), m.seat) for m in result.marks],
                [
                    (label, result.deltas[side[0]])
                    for label, side in zip(labels, sides, strict=True)
                    if result.deltas[side[0]]
                ],
                digest,
                reasons,
            )
        )
    scores = standings.scores
    low = rules.lowest_wins_under(scored.rules)
    by_score = sorted(range(players), key=lambda s: (scores[s] if low else -scores[s], s))
    # The winners first: at the target, the rules may crown a lower total (a taker
    # who made his bid ahead of his partner of the hand).
    ranking = sorted(by_score, key=lambda s: s not in standings.winners)
    best = scores[by_score[0]]
    leaders = [s for s in range(players) if scores[s] == best] if rows else []
    if standings.finished:
        # The game's winners lead, whatever the totals: five-handed, a partner at the
        # target beside the taker who went out first did not win.
        leaders = sorted(standings.winners)
    teams = list(sides) if any(len(side) > 1 for side in sides) else None
    firsts = [side[0] for side in sides]  # a side is ranked once, by its first seat
    entries = [
        Entry(
            side,
            label,
            _rank(side[0], firsts, standings.winners, scores, low),
            bool(rows) and side[0] in leaders,
        )
        for side, label in zip(sides, labels, strict=True)
    ]
    target = getattr(scored.rules, "target", None)
    needs: list[int | None] = [
        max(target - s, 0) if isinstance(target, int) and not standings.finished else None
        for s in scores
    ]
    deals_left = rules.length - len(rows) if rules.length is not None else None
    return Board(
        game, standings, rows, ranking, leaders, teams, needs, deals_left, entries, scored.rules
    )


def _rank(
    seat: int, seats: list[int], winners: tuple[int, ...], scores: tuple[int, ...], low: bool
) -> int:
    """The rank of `seat` (from 1): one more than the seats strictly ahead of it, the
    winners ahead of everyone, then the better total; equal players share a rank."""

    def key(s: int) -> tuple[bool, int]:
        return (s not in winners, scores[s] if low else -scores[s])

    return 1 + sum(1 for other in seats if key(other) < key(seat))


def prefix_digests(game: Game, deals: list[dict[str, Any]]) -> list[bytes]:
    """For each deal, a digest of the game's record up to and including it: its
    kind, players, first dealer, rules and stake, then each deal as entered.

    A history row shows the deal, its score, the totals and why, and each of these
    is the engine's, from the record up to that deal (the engine replays a record
    deal by deal; no deal's score reads a later one: tested for every game). So the
    digest keys a row's drawing (`history_rows`), where the key was the row's whole
    content: its explanations (put in words), its deal (as JSON) and its scores,
    made for all 30 rows of each page drawn to find 29 of them kept (issue 19).
    """
    whole = hashlib.blake2b(digest_size=16)
    whole.update(_canonical(record_of(game, deals=[])))
    digests = []
    for data in deals:
        whole.update(_canonical(data))
        digests.append(whole.copy().digest())
    return digests


def _canonical(value: object) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode() + b"\n"


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

    def shared_or_drawn(
        self, shared: SharedRows, key: tuple[object, ...], newest: bool, draw: Callable[[], Markup]
    ) -> Markup:
        """A row missing here: the one another worker drew (`SharedRows`), else
        drawn. The newest row is drawn at once: nobody drew it."""
        if not newest:
            self.cold = True
            if self.kept is None:
                self.kept = shared.get(key[:3] + key[4:5])  # the page's file: its slot
            found = self.kept.get(SharedRows.digest(key))
            if found is not None:
                return Markup(found)
        return draw()


#: A page drawn warm (only its newest row new) keeps its rows for the other workers
#: every this many deals: the rows they do not find (at most as many) they draw.
#: Writing them at every deal would cost each drawing 0.4 ms (30 rows).
SHARE_EVERY = 8


def history_rows(
    game: Game,
    rows: list[Row],
    columns: list[tuple[int, ...]],
    spectator: bool,
    agreement: Agreement | None = None,
) -> Markup:
    """The history's rows as HTML (one line each), every row drawn once per
    everything it shows; `agreement`: the table's, where deals wait for a
    confirmation (a row shows it).

    A scoreboard's history grows by a row a deal; before, each new version of a
    game rendered every row again (19 ms for 30 deals, most of a scoreboard's
    cost: issue 19, PERFORMANCE.md). A row is a pure function of what its key
    holds: the language, the game's address (its links), the page (a spectator's
    has no links, and its columns), the record up to the deal (`Row.digest`: the
    game's kind, rules and players, the deals as entered, hence as scored), and
    whether it waits for a confirmation. What the rows of a page share in their
    keys is made once for the page (made per row, it was most of a kept row's
    cost), and the rows are looked up in one call from the template, not 30.

    Under `referee serve` a row this worker never drew, other than the newest
    (a deal just recorded: nobody drew it), is looked for among the rows another
    worker drew for the page (`SharedRows`) before it is drawn here.
    """
    if not rows:
        return Markup("")
    kept: LRU[Markup] = current_app.extensions["row_cache"]
    shared: SharedRows | None = current_app.extensions.get("shared_rows")
    first = rows[0].reasons
    lang = first.lang if first is not None else str(get_locale() or "fr")
    sides = tuple(columns)
    # The page's file: its language, address, spectators' or editors', columns.
    slot = (lang, game.token, spectator, sides)
    page: _PageRows | None = None
    if shared is not None:
        pages: dict[tuple[object, ...], _PageRows] = g.setdefault("rows_drawn", {})
        page = pages.get(slot)
        if page is None:
            page = pages[slot] = _PageRows()
    newest = rows[-1].number
    lines = []
    for row in rows:
        unconfirmed = agreement is not None and not agreement.confirmed(row.number - 1)
        key = (lang, game.token, spectator, unconfirmed, sides, row.number, row.digest)
        draw = partial(_draw_row, game, row, columns, spectator, unconfirmed)
        if page is None or shared is None:
            html = kept.get_or_make(key, draw)
        else:
            html = kept.get_or_make(
                key, partial(page.shared_or_drawn, shared, key, row.number == newest, draw)
            )
            page.rows.append((key, html))
        lines.append("      " + html)
    if page is not None:
        page.newest = newest
    return Markup("\n".join(lines))


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
