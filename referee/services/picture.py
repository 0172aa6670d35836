"""A game's result as a picture to send where the players talk (issue 40).

A PNG, portrait and chat-sized (`WIDTH` × `HEIGHT`): the game's name and date,
who won, each side's total in rank order, the money that settles it and the
scores over the deals. Drawn with Pillow and the package's own fonts (DejaVu,
`referee/fonts/`), so it looks the same on every server, needs no system
library and takes a few tens of milliseconds (docs/PERFORMANCE.md).

This module draws plain values (`Picture`: words already translated, numbers
already written in the reader's locale); the web side (`referee.web.result`)
gathers them from a game and keeps the PNG per version and language. Nothing
here knows Flask or any game: what a side is called, what its total is, who
won, all come in the `Picture`.

`layout` decides where everything goes (a list of `Text`, `Box` and `Plot`) and
`draw` paints it: a test can read what the picture says without reading pixels.
"""

from __future__ import annotations

import io
import itertools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from referee.paths import FONTS

#: The picture's size: a phone's width in chats (1080 px), 4:5 portrait, the
#: tallest most chats show whole in their preview.
WIDTH: Final = 1080
HEIGHT: Final = 1350
#: The page's margin, left and right.
MARGIN: Final = 64

#: The app's colours (static/app.css): its green, ink, grey and gold.
GREEN: Final = "#14532d"
PALE: Final = "#d1fae5"
INK: Final = "#111827"
GREY: Final = "#4b5563"
RULE: Final = "#d1d5db"
GOLD: Final = "#fef3c7"
WHITE: Final = "#ffffff"

#: The header's height (the game's name, its date) and the footer's.
HEADER: Final = 210
FOOTER: Final = 70
#: The smallest scale the body is drawn at before names are cut short instead.
SCALES: Final = (1.0, 0.9, 0.8, 0.72)
#: Sides shown in one column; more go in two (a table of 12).
ONE_COLUMN: Final = 6
#: The least room the chart takes (at scale 1), with its legend.
CHART_LEAST: Final = 330
#: The least height of the chart's lines (at any scale): lower, it says nothing.
PLOT_LEAST: Final = 220
#: The chart is drawn this many times larger, then shrunk: smooth lines.
SUPERSAMPLE: Final = 2
#: The colours the PNG keeps (a palette: flat colours and their edges).
COLOURS_KEPT: Final = 128
#: The most settlement lines shown; the rest are counted ("…").
MOST_TRANSFERS: Final = 12

ELLIPSIS: Final = "…"


@dataclass(frozen=True)
class Side:
    """One line of the result: a player or a team, its rank and total."""

    label: str
    total: str
    rank: str
    winner: bool = False


@dataclass(frozen=True)
class Series:
    """One side's running totals over the deals (the chart's line), its colour,
    dashed where the colours came round again."""

    label: str
    values: tuple[int, ...]
    colour: str
    dashed: bool = False


@dataclass(frozen=True)
class Picture:
    """Everything the picture says, as plain values in the reader's language."""

    title: str
    subtitle: str
    headline: str
    sides: tuple[Side, ...]
    money_title: str = ""
    #: Who pays whom how much: (payer, payee, amount), said by `pays`.
    money: tuple[tuple[str, str, str], ...] = ()
    #: The sentence of a payment, with `%(payer)s`, `%(payee)s` and `%(amount)s`.
    pays: str = "%(payer)s → %(payee)s %(amount)s"
    chart_title: str = ""
    chart: tuple[Series, ...] = ()
    footer: str = "♠ Referee"
    #: What says there are more payments than shown, with `%(num)d`.
    more: str = "+%(num)d"


@dataclass(frozen=True)
class Text:
    """A line of text at (x, y), its top-left corner (`anchor` "ra": its right)."""

    x: float
    y: float
    text: str
    size: int
    bold: bool = False
    fill: str = INK
    anchor: str = "la"


@dataclass(frozen=True)
class Box:
    """A filled rectangle (the header, a winner's band, a legend's swatch)."""

    left: float
    top: float
    right: float
    bottom: float
    fill: str


@dataclass(frozen=True)
class Plot:
    """The chart's frame and lines."""

    left: float
    top: float
    right: float
    bottom: float
    series: tuple[Series, ...]


@dataclass
class Layout:
    """Where everything goes, in drawing order."""

    items: list[Text | Box | Plot] = field(default_factory=list)
    #: The scale the body was laid out at (1: the full size).
    scale: float = 1.0

    @property
    def texts(self) -> list[str]:
        """Every text drawn, in order (what a reader of the picture reads)."""
        return [item.text for item in self.items if isinstance(item, Text)]


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The package's DejaVu Sans at `size` px (kept: loading a face costs)."""
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONTS / name), size)


def plain(text: str) -> str:
    """`text` without invisible format characters (the pages' bidirectional
    isolates, which a picture has no use for and the font would draw as boxes)."""
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def width_of(text: str, size: int, bold: bool = False) -> float:
    """How wide `text` is drawn at `size`."""
    return float(font(size, bold).getlength(text))


def fit(text: str, size: int, room: float, bold: bool = False, least: int = 0) -> tuple[str, int]:
    """`text` and the size it fits `room` at: made smaller down to `least` (by
    default two-thirds of `size`), then cut short with an ellipsis."""
    text = plain(text)
    least = least or max(size * 2 // 3, 12)
    while size > least and width_of(text, size, bold) > room:
        size -= 2
    if width_of(text, size, bold) <= room:
        return text, size
    # Cut short in the middle: the longest that fits with its ellipsis (names that
    # differ only at their end, "Joueur 11" and "Joueur 12", stay told apart).
    low, high = 0, len(text)
    while low < high:
        middle = (low + high + 1) // 2
        if width_of(shorten(text, middle), size, bold) <= room:
            low = middle
        else:
            high = middle - 1
    return shorten(text, low), size


def shorten(text: str, keep: int) -> str:
    """`text` kept to `keep` characters and an ellipsis: two-thirds from its start,
    the rest from its end."""
    if keep >= len(text):
        return text
    head = (keep * 2 + 2) // 3
    tail = keep - head
    return text[:head].rstrip() + ELLIPSIS + (text[len(text) - tail :].lstrip() if tail else "")


def layout(picture: Picture) -> Layout:
    """Lay the picture out at the largest scale its body fits at (`SCALES`): a
    table of 12 with a long settlement is drawn smaller, never cut at the bottom
    (past the smallest scale, the chart gives up its room first)."""
    for chart in (True, False):
        for scale in SCALES:
            laid = _layout(picture, scale, chart)
            if laid is not None:
                return laid
    laid = _layout(picture, SCALES[-1], chart=False, squeeze=True)
    assert laid is not None  # squeezed, 12 sides and 12 payments fit (tested)
    return laid


def payment(
    words: str, payer: str, payee: str, amount: str, size: int, room: float, least: int = 0
) -> tuple[str, int]:
    """A payment in words that fits `room`, and its size: made smaller down to
    `least` (by default nine-tenths of `size`), then the names cut short (the
    longer first, each kept to a few letters) before the amount ever is."""
    payer, payee = plain(payer), plain(payee)
    full_payer, full_payee = payer, payee
    least = least or size * 9 // 10
    text = words % {"payer": payer, "payee": payee, "amount": amount}
    while size > least and width_of(text, size) > room:
        size -= 2
    for _ in range(len(payer) + len(payee)):  # one letter less a look
        if width_of(text, size) <= room:
            return text, size
        if max(len(payer), len(payee)) <= 4:
            break
        if len(payer) >= len(payee):
            payer = shorten(full_payer, len(payer.replace(ELLIPSIS, "")) - 1)
        else:
            payee = shorten(full_payee, len(payee.replace(ELLIPSIS, "")) - 1)
        text = words % {"payer": payer, "payee": payee, "amount": amount}
    return fit(text, size, room, least=size)


def _layout(picture: Picture, scale: float, chart: bool, squeeze: bool = False) -> Layout | None:
    """The layout at `scale`, or None if the body does not fit (`squeeze`: it
    fits, the money cut to what room is left)."""
    out = Layout(scale=scale)
    items = out.items
    inner = WIDTH - 2 * MARGIN

    def px(value: float) -> int:
        return max(int(value * scale), 1)

    # The header: the game's name large, its date and length under it.
    items.append(Box(0, 0, WIDTH, HEADER, GREEN))
    title, size = fit(picture.title, 76, inner, bold=True, least=40)
    items.append(Text(MARGIN, 44, title, size, True, WHITE))
    subtitle, size = fit(picture.subtitle, 34, inner, least=22)
    items.append(Text(MARGIN, 140, subtitle, size, False, PALE))

    y = HEADER + px(40)
    headline, size = fit(picture.headline, px(54), inner, bold=True)
    items.append(Text(MARGIN, y, headline, size, True, GREEN))
    y += px(54) + px(36)

    # The sides, best first: one column, or two for a large table.
    columns = 1 if len(picture.sides) <= ONE_COLUMN else 2
    rows = -(-len(picture.sides) // columns)
    row = px(78 if columns == 1 else 66)
    text_size = px(46 if columns == 1 else 36)
    gap = 40
    column_width = (inner - gap * (columns - 1)) / columns
    rank_room = (
        max(width_of(side.rank, text_size) for side in picture.sides) if picture.sides else 0
    )
    # One size for every name: the smallest any of them needs (down to four-fifths).
    label_size = min(
        (
            fit(
                side.label,
                text_size,
                column_width - rank_room - width_of(side.total, text_size, True) - 2 * 20,
                bold=side.winner,
                least=text_size * 4 // 5,
            )[1]
            for side in picture.sides
        ),
        default=text_size,
    )
    for index, side in enumerate(picture.sides):
        column, line = divmod(index, rows)
        left = MARGIN + column * (column_width + gap)
        right = left + column_width
        top = y + line * row
        middle = top + row / 2
        if side.winner:
            items.append(Box(left - 16, top + 4, right + 16, top + row - 4, GOLD))
        items.append(Text(left, middle, plain(side.rank), text_size, False, GREY, "lm"))
        total, total_size = fit(side.total, text_size, column_width / 3, bold=True)
        items.append(Text(right, middle, total, total_size, True, INK, "rm"))
        room = column_width - rank_room - width_of(total, total_size, True) - 2 * 20
        label, label_size = fit(side.label, label_size, room, bold=side.winner, least=label_size)
        items.append(Text(left + rank_room + 20, middle, label, label_size, side.winner, INK, "lm"))
    y += rows * row + px(20)

    # The money: who pays whom.
    if picture.money:
        items.append(Box(MARGIN, y, WIDTH - MARGIN, y + 2, RULE))
        y += px(28)
        items.append(Text(MARGIN, y, plain(picture.money_title), px(38), True, GREEN))
        y += px(38) + px(22)
        money_columns = 1 if len(picture.money) <= ONE_COLUMN else 2
        money_row = px(54 if money_columns == 1 else 46)
        money_size = px(36 if money_columns == 1 else 32)
        most = MOST_TRANSFERS
        if squeeze:  # as many lines as the room left holds, the last one counting the rest
            most = min(most, max(int((HEIGHT - FOOTER - y) // money_row) * money_columns, 1))
        shown = [(picture.pays, *paid) for paid in picture.money[:most]]
        if len(picture.money) > most:
            shown[-1] = (
                "%(amount)s",
                "",
                "",
                picture.more % {"num": len(picture.money) - most + 1},
            )
        money_rows = -(-len(shown) // money_columns)
        money_width = (inner - gap * (money_columns - 1)) / money_columns
        # One size for every line: the smallest any of them needs.
        money_size = min(payment(*paid, money_size, money_width)[1] for paid in shown)
        for index, paid in enumerate(shown):
            column, line = divmod(index, money_rows)
            text, _size = payment(*paid, money_size, money_width, least=money_size)
            middle = y + line * money_row + money_row / 2
            left = MARGIN + column * (money_width + gap)
            items.append(Text(left, middle, text, money_size, False, INK, "lm"))
        y += money_rows * money_row + px(16)

    bottom = HEIGHT - FOOTER
    if picture.chart and chart:
        legend_columns = 1 if len(picture.chart) <= 2 else (2 if len(picture.chart) <= 6 else 3)
        legend_rows = -(-len(picture.chart) // legend_columns)
        legend_row = px(44)
        need = px(CHART_LEAST)
        if bottom - y < need:
            return None
        items.append(Box(MARGIN, y, WIDTH - MARGIN, y + 2, RULE))
        y += px(26)
        items.append(Text(MARGIN, y, plain(picture.chart_title), px(34), True, GREEN))
        y += px(34) + px(18)
        plot_bottom = bottom - legend_rows * legend_row - px(16)
        if plot_bottom - y < PLOT_LEAST:
            return None
        items.append(Plot(MARGIN, y, WIDTH - MARGIN, plot_bottom, picture.chart))
        legend_width = inner / legend_columns
        top = plot_bottom + px(16)
        for index, series in enumerate(picture.chart):
            line, column = divmod(index, legend_columns)
            left = MARGIN + column * legend_width
            swatch = px(28)
            cell_top = top + line * legend_row
            middle = cell_top + legend_row / 2
            items.append(Box(left, middle - 4, left + swatch, middle + 4, series.colour))
            if series.dashed:  # a gap in the swatch, as in the line
                centre = left + swatch / 2
                items.append(Box(centre - 3, middle - 6, centre + 3, middle + 6, WHITE))
            label, size = fit(series.label, px(28), legend_width - swatch - 24, least=px(24))
            items.append(Text(left + swatch + 12, middle, label, size, False, INK, "lm"))
    elif y > bottom and not squeeze:
        return None

    items.append(Text(WIDTH - MARGIN, HEIGHT - FOOTER + 16, picture.footer, 30, True, GREEN, "ra"))
    return out


def draw(picture: Picture) -> bytes:
    """The picture as PNG bytes."""
    image = Image.new("RGB", (WIDTH, HEIGHT), WHITE)
    pen = ImageDraw.Draw(image)
    for item in layout(picture).items:
        if isinstance(item, Box):
            pen.rectangle((item.left, item.top, item.right, item.bottom), fill=item.fill)
        elif isinstance(item, Text):
            pen.text(
                (item.x, item.y),
                item.text,
                font=font(item.size, item.bold),
                fill=item.fill,
                anchor=item.anchor,
            )
        else:
            _plot(image, item)
    # A picture of flat colours and anti-aliased edges holds few colours: kept as
    # 128 of them, the PNG is a quarter of its size in full colour (144 KB -> 41 KB
    # for a 24-deal game) and is written in half the time (bench/picture.py).
    out = io.BytesIO()
    image.quantize(COLOURS_KEPT, method=Image.Quantize.FASTOCTREE).save(
        out, "PNG", compress_level=6
    )
    return out.getvalue()


def _plot(image: Image.Image, plot: Plot) -> None:
    """The chart: the zero line, each side's running totals, the highest and
    lowest value; drawn `SUPERSAMPLE` times larger, then shrunk into place."""
    k = SUPERSAMPLE
    width, height = int(plot.right - plot.left), int(plot.bottom - plot.top)
    canvas = Image.new("RGB", (width * k, height * k), WHITE)
    pen = ImageDraw.Draw(canvas)
    deals = max((len(s.values) for s in plot.series), default=0)
    values = [0, *(v for s in plot.series for v in s.values)]
    low, high = min(values), max(values)
    if high == low:
        high = low + 1
    tick = font(24 * k)
    labels = (str(high).replace("-", "−"), str(low).replace("-", "−"))
    room = max(tick.getlength(label) for label in labels) + 12 * k
    left, right = room, width * k - 8 * k
    top, bottom = 16 * k, height * k - 16 * k

    def x(i: int) -> float:
        return left + (right - left) * i / max(deals, 1)

    def y(v: int) -> float:
        return bottom - (bottom - top) * (v - low) / (high - low)

    _dashed(pen, [(left, y(0)), (right, y(0))], GREY, 2 * k, (8 * k, 8 * k))
    pen.text((0, y(high)), labels[0], font=tick, fill=GREY, anchor="lm")
    pen.text((0, y(low)), labels[1], font=tick, fill=GREY, anchor="lm")
    for series in plot.series:
        points = [(x(i), y(v)) for i, v in enumerate([0, *series.values])]
        if series.dashed:
            _dashed(pen, points, series.colour, 5 * k, (18 * k, 10 * k))
        else:
            pen.line(points, fill=series.colour, width=5 * k, joint="curve")
    # Shrunk by averaging each k × k square (a box filter: ten times Lanczos' speed,
    # and all the smoothing lines drawn k times larger need).
    image.paste(canvas.reduce(k), (int(plot.left), int(plot.top)))


def _dashed(
    pen: ImageDraw.ImageDraw,
    points: Sequence[tuple[float, float]],
    colour: str,
    width: int,
    pattern: tuple[int, int],
) -> None:
    """A polyline drawn dashed (`pattern`: on, off), the dashes running on from
    one segment to the next. Bounded: one dash per `pattern` of the line's length."""
    on, off = pattern
    period = on + off
    travelled = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        if length == 0:
            continue
        start = 0.0
        while start < length:
            phase = (travelled + start) % period
            if phase < on:
                end = min(start + on - phase, length)
                a, b = start / length, end / length
                pen.line(
                    (
                        x0 + (x1 - x0) * a,
                        y0 + (y1 - y0) * a,
                        x0 + (x1 - x0) * b,
                        y0 + (y1 - y0) * b,
                    ),
                    fill=colour,
                    width=width,
                )
            else:
                end = min(start + period - phase, length)
            start = end
        travelled += length
