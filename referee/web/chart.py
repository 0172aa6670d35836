"""The score chart: running totals over the deals, as server-rendered SVG (no script)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal

from markupsafe import Markup, escape

from referee.engine.names import isolate
from referee.web.format import MINUS

#: Line colours that stay apart for colour-blind eyes (Okabe–Ito), one per seat; past
#: them (a table of up to 12) the colours come again, dashed (`line_class`).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
#: The dashes of a line whose colour came round again.
AGAIN = "6 3"


def line_class(index: int) -> str:
    """The legend's classes of line `index`: its colour (`c0`…), and `again` when it
    is drawn dashed because its colour came round again (app.css, print.css)."""
    return f"c{index % len(COLOURS)}" + (" again" if index >= len(COLOURS) else "")


WIDTH, HEIGHT, MARGIN = 320, 160, 24


Value = int | Decimal


def _signed(value: Value) -> str:
    """A tick label with a real minus sign, as the scores have."""
    return str(value).replace("-", MINUS)


#: Dash patterns, one per line after the first (solid): with the colours and the
#: widths, lines that coincide stay each visible (statistics' money, item 13).
DASHES = ("", "7 4", "2 3", "10 3 2 3", "4 2")
#: The most labels along the bottom axis (a phone's 320 px): every k-th beyond.
MOST_LABELS = 10
#: Room under the chart for the bottom axis' labels.
LABELS_HEIGHT = 14


def chart(
    names: Sequence[str],
    series: Sequence[Sequence[Value]],
    title: str,
    tick: Callable[[Value], str] = _signed,
    *,
    labels: Sequence[str] | None = None,
    distinct: bool = False,
) -> Markup:
    """An SVG line chart: one polyline per name, the x axis the deals (0 = start).

    `series[i]` holds name i's totals after each deal (or money after each game);
    `tick` writes the highest and lowest values. `labels`: what each point after the
    start is called, written along the bottom axis (at most `MOST_LABELS`, evenly
    thinned, the last always). `distinct`: lines drawn so that equal ones stay
    visible (each thinner than the one before, drawn over it, with its own dashes
    and a dot at each point).
    """
    deals = max((len(s) for s in series), default=0)
    values: list[Value] = [0, *(v for s in series for v in s)]
    low, high = min(values), max(values)
    if high == low:
        high = low + 1

    def x(i: int) -> float:
        return MARGIN + (WIDTH - 2 * MARGIN) * i / max(deals, 1)

    def y(v: Value) -> float:
        return HEIGHT - MARGIN - (HEIGHT - 2 * MARGIN) * float(v - low) / float(high - low)

    height = HEIGHT + (LABELS_HEIGHT if labels else 0)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
        f'<line x1="{MARGIN}" y1="{y(0):.1f}" x2="{WIDTH - MARGIN}" y2="{y(0):.1f}" '
        'class="axis" stroke="currentColor" stroke-opacity="0.4" stroke-dasharray="3 3"/>',
        f'<text x="2" y="{y(high) + 4:.1f}" class="tick" fill="currentColor" font-size="10">'
        f"{escape(tick(high))}</text>",
        f'<text x="2" y="{y(low) + 4:.1f}" class="tick" fill="currentColor" font-size="10">'
        f"{escape(tick(low))}</text>",
    ]
    if labels:
        step = -(-len(labels) // MOST_LABELS)  # ceiling: at most MOST_LABELS shown
        shown = {i for i in range(0, len(labels), step)} | {len(labels) - 1}
        for i in sorted(shown):
            parts.append(
                f'<text x="{x(i + 1):.1f}" y="{HEIGHT + 6}" class="tick label" '
                f'fill="currentColor" font-size="10" text-anchor="middle">'
                f"{escape(labels[i])}</text>"
            )
    count = len(names)
    for index, (name, totals) in enumerate(zip(names, series, strict=True)):
        colour = COLOURS[index % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate([0, *totals]))
        style = 'stroke-width="2.5"' + (
            f' stroke-dasharray="{AGAIN}"' if index >= len(COLOURS) else ""
        )
        dots = ""
        if distinct:
            width = 2 + 1.2 * (count - 1 - index)  # the first widest, drawn first
            dash = DASHES[index % len(DASHES)]
            style = f'stroke-width="{width:.1f}"' + (f' stroke-dasharray="{dash}"' if dash else "")
            dots = "".join(
                f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="{1.5 + width / 2:.1f}" '
                f'fill="{colour}" class="dot"/>'
                for i, v in enumerate(totals, start=1)
            )
        parts.append(
            f'<g class="line"><polyline points="{points}" fill="none" stroke="{colour}" {style} '
            f'stroke-linejoin="round"><title>{escape(isolate(name))}</title></polyline>{dots}</g>'
            if distinct
            else f'<polyline points="{points}" fill="none" stroke="{colour}" {style} '
            f'stroke-linejoin="round"><title>{escape(isolate(name))}</title></polyline>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
