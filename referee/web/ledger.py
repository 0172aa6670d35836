"""The deal table of a score sheet, laid out as lines for WeasyPrint.

WeasyPrint spends a millisecond or so styling, laying out and drawing each box
and each line of text (measured on the longest sheet, 24 deals), and a table with a
cell per figure was half of a sheet's time. So a table row here holds a block of
deals (a round of the game, else five deals), each of its cells one line per deal,
and all the figures of a deal are one line of a fixed-width font (DejaVu Sans
Mono): for each side, the deal's points then the running total, in columns that
line up under the names. A deal whose description is too wide for its column
takes two lines (or more) in every cell, so that the lines of all cells still face
each other; widths are measured with the font's own advances.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext
from markupsafe import Markup

from referee.engine.game import MarkKind
from referee.engine.names import isolate
from referee.games import GAMES
from referee.geometry import CELL_PADDING, DEAL_FONT, NUMBER_COLUMN, SANS, content_width
from referee.web.board import Board, Row
from referee.web.catalog import mark_word
from referee.web.format import number, signed

FONT_SIZE = DEAL_FONT  # points
EM = FONT_SIZE * 25.4 / 72  # mm
#: Every glyph of DejaVu Sans Mono, the figures' font, advances 1233/2048 em; at 8 pt:
MONO_ADVANCE = 8 * 1233 / 2048  # points
MONO = MONO_ADVANCE * 25.4 / 72  # mm
#: A name in the header is 7 pt bold (bold DejaVu Sans is up to 12 % wider than
#: regular) over its side's figures; wider than NAME characters, it wraps.
HEADER, NAME = 7 / 8 * 1.12, 16
#: Over each side's figures: the deal's points, then the running total.
POINTS, TOTAL = "±", "Σ"
#: A cell's padding, left and right together, and a margin for the rounding of
#: WeasyPrint's own measure, in mm.
PADDING, SLACK = 2 * CELL_PADDING, 1
#: The deal number's column, and the dealer's at least and at most (mm).
NUMBER, DEALER, DEALER_MOST = NUMBER_COLUMN, 18, 30
#: A description column narrower than this on portrait paper turns the page (mm).
NARROWEST = 60
#: The smallest the figures are printed, against their 8 pt (5.6 pt).
SMALLEST = 0.7
#: Deals per block where the game has no rounds (a round is a block of its own).
BLOCK = 5
INDENT = "\u2003"  # an em space before a description's further lines
_SPACES = re.compile(r"[ \t\r\n]+")
#: A space outside any tag: where a description may break.
_BREAK = re.compile(r" (?![^<]*>)")
#: Spaces that must not break: after "·", after a number ("3 ♥", "2 tricks") and
#: after a place ("2. Ana").
_GLUE = re.compile(r"(?<= ·) |(?<=\d) |(?<=\d\.) ")


#: Characters that print nothing: the isolates around names, bidirectional marks.
_NO_WIDTH = frozenset(
    "\u200b\u200c\u200d\u200e\u200f\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u202e"
)


@functools.cache
def _advances() -> dict[int, float]:
    """Each character's advance, in mm, in the sheets' own font file at FONT_SIZE (the
    file WeasyPrint draws the deal table with: `geometry.SANS`)."""
    from fontTools.ttLib import TTFont

    font = TTFont(str(SANS), lazy=True)
    try:
        scale = FONT_SIZE / font["head"].unitsPerEm * 25.4 / 72
        metrics = font["hmtx"]
        return {code: metrics[glyph][0] * scale for code, glyph in font.getBestCmap().items()}
    finally:
        font.close()


def width(text: str) -> float:
    """How wide `text` (no tags) prints in the deal table's font, in mm.

    A character the font lacks comes from another one (CJK, emoji…): counted as
    wide as the font's size, which such glyphs seldom exceed.
    """
    advances = _advances()
    # An isolate around a name (U+2068...U+2069) and other format characters take no room.
    return sum(advances.get(ord(c), EM) for c in text if c not in _NO_WIDTH)


@dataclass(frozen=True)
class Block:
    """Deals printed as one table row; every cell holds one line per deal or more."""

    number: int  # the round (from 1), else the block's rank
    dealer: int  # the seat that dealt the block's first deal
    numbers: str  # the deal numbers, a line each
    dealers: str  # who dealt each deal
    deals: Markup  # what was played and its marks
    figures: str  # per deal, each side's points and running total


@dataclass(frozen=True)
class Ledger:
    """The deal table: its sides (players, or teams) and blocks of deals."""

    sides: list[str]
    width: int  # characters of a side's figures, its spaces included
    labels: str  # the line over the figures: POINTS and TOTAL for each side
    dealer: float  # the dealer's column width, in mm (longer names clip)
    landscape: bool  # the figures leave too little room for the deals on portrait
    blocks: list[Block]
    #: The figures' size against their 8 pt: smaller where so many sides (a table
    #: of 12) would not fit across the page at 8 pt, never under `SMALLEST`.
    scale: float = 1.0

    @property
    def column(self) -> float:
        """A side's column width, in points."""
        return self.width * MONO_ADVANCE * self.scale

    @property
    def figure_size(self) -> float:
        """The figures' font size, in points."""
        return 8 * self.scale


def wrap(text: Markup, room: float) -> list[Markup]:
    """`text` in lines at most `room` mm wide (tags take none), broken at spaces.

    A "·" stays with the word after it, a number with its noun and a
    place with its player, so that a line never ends on a dot or a figure; a word
    wider than a line has a line of its own (the cell clips it).
    """
    plain = _SPACES.sub(" ", str(text)).strip()  # not str.split(): it breaks at no-break spaces
    words = _BREAK.split(_GLUE.sub("\u00a0", plain))
    indent = width(INDENT)
    lines: list[str] = []
    for word in words:
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and width(Markup(joined).striptags()) + indent * (len(lines) > 1) <= room:
            lines[-1] = joined
        else:
            lines.append(word)
    return [Markup(lines[0]), *(Markup(INDENT + line) for line in lines[1:])]


def sides_of(board: Board) -> tuple[list[str], list[int]]:
    """The sheet's sides, as headed, and the seat whose figures each shows: partners
    score alike, so a team is one side."""
    names = list(board.game.players)
    if board.teams:
        sides = [" & ".join(isolate(names[seat]) for seat in team) for team in board.teams]
        return sides, [team[0] for team in board.teams]
    return names, list(range(len(names)))


def _blocks(
    board: Board, step: int, descriptions: list[list[Markup]], figures: list[str]
) -> list[Block]:
    """The deals in blocks of `step` (a round, or five deals), each cell one line a
    deal and an empty line for each further line of its description."""
    names = list(board.game.players)

    def lines(items: list[str], start: int, end: int) -> list[str]:
        return [
            line
            for item, description in zip(items[start:end], descriptions[start:end], strict=True)
            for line in [item] + [""] * (len(description) - 1)
        ]

    numbers = [str(row.number) for row in board.rows]
    dealers = [isolate(names[row.dealer]) for row in board.rows]
    return [
        Block(
            number=start // step + 1,
            dealer=board.rows[start].dealer,
            numbers="\n".join(lines(numbers, start, start + step)),
            dealers="\n".join(lines(dealers, start, start + step)),
            deals=Markup("\n").join(
                line for description in descriptions[start : start + step] for line in description
            ),
            figures="\n".join(lines(figures, start, start + step)),
        )
        for start in range(0, len(board.rows), step)
    ]


def ledger_of(board: Board, size: str, describe: Callable[[dict[str, object]], Markup]) -> Ledger:
    """The deals of `board` as blocks of lines for paper `size` ("a4" or "letter").

    `describe` renders what was played in a deal (the scoreboard's summary).
    """
    game = board.game
    names = list(game.players)
    # A game with rounds prints a block per round, its dealer in the block's header.
    rounds = GAMES[game.game].round_deals
    sides, seats = sides_of(board)
    points = [[signed(row.deltas[s]) for s in seats] for row in board.rows]
    totals = [[number(row.totals[s]) for s in seats] for row in board.rows]
    total = max((len(f) for figures in totals for f in figures), default=1)
    # A side: " points total ", the points' field taking what the name needs more.
    name = max(math.ceil((width(side) * HEADER + PADDING) / MONO) for side in sides)
    figures_width = max((len(f) for figures in points for f in figures), default=1) + total + 3
    side_width = max(figures_width, min(name, NAME))

    def figure_line(fields: list[tuple[str, str]]) -> str:
        wide = side_width - total - 3
        return "".join(f" {p.rjust(wide)} {t.rjust(total)} " for p, t in fields)

    dealer = min(max(DEALER, max(width(n) for n in names) + PADDING + SLACK), DEALER_MOST)
    # Many sides (a table of 12): the names' room shrinks, down to the figures',
    # until the sides and the narrowest deals' column fit across the page; a longer
    # name wraps in its header.
    across = content_width(size, True) - NUMBER - (0 if rounds else dealer) - PADDING
    fits = math.floor((across - NARROWEST - SLACK) / (len(sides) * MONO))
    side_width = max(figures_width, min(side_width, fits))
    # Still too wide: the figures printed smaller.
    scale = min(1.0, max(SMALLEST, (across - NARROWEST - SLACK) / (len(sides) * side_width * MONO)))
    fixed = NUMBER + (0 if rounds else dealer) + PADDING + len(sides) * side_width * MONO * scale
    landscape = content_width(size, False) - fixed < NARROWEST
    room = content_width(size, landscape) - fixed - SLACK

    def described(row: Row) -> list[Markup]:
        # Each mark once, whole on its line; the winners in one mark, partners
        # together ("★ Rhonda & Peggy win", as on the game page: issue 38, item 8).
        marks = dict.fromkeys(
            mark_word(kind).replace(" ", "\u00a0")
            + ("" if seat is None else f"\u00a0{isolate(names[seat])}")
            for kind, seat in row.marks
            if kind != MarkKind.WIN and mark_word(kind)
        )
        winners = [
            isolate(names[seat])
            for kind, seat in row.marks
            if kind == MarkKind.WIN and seat is not None
        ]
        if winners:
            won = (
                gettext("%(name)s wins", name=winners[0])
                if len(winners) == 1
                else gettext("%(names)s win", names=" & ".join(winners))
            )
            marks["★\u00a0" + won.replace(" ", "\u00a0")] = None
        return wrap(Markup(" · ").join([describe(row.deal), *marks]), room)

    descriptions = [described(row) for row in board.rows]

    figures = [
        figure_line(list(zip(p, t, strict=True))) for p, t in zip(points, totals, strict=True)
    ]
    blocks = _blocks(board, rounds or BLOCK, descriptions, figures)
    labels = figure_line([(POINTS, TOTAL)] * len(sides))
    return Ledger(sides, side_width, labels, dealer, landscape, blocks, scale)
