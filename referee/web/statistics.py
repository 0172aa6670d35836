"""A table's statistics page: the engine's figures, laid out for a phone, with charts
where people would rather look than read (money over the games, win rates)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from flask import render_template
from flask_babel import format_percent
from flask_babel import gettext as _
from markupsafe import Markup, escape

from referee.engine.names import isolate, sort_key
from referee.engine.statistics import PersonLine, Statistics
from referee.models import Table
from referee.web.chart import COLOURS, chart
from referee.web.format import money
from referee.web.homes import home_of


def percent(rate: Fraction | None) -> str:
    """A win rate as the locale writes a percentage ("50 %", "50%"); "–" before any."""
    return "–" if rate is None else str(format_percent(float(rate), "#,##0 %"))


def average(value: int | Fraction | None) -> str:
    """A count as is; an average with one decimal in the locale's way."""
    if value is None:
        return "–"
    if isinstance(value, int):
        return str(value)
    from flask_babel import format_decimal

    return str(format_decimal(round(float(value), 1), "#,##0.0")).replace("-", "−")


BAR_WIDTH, BAR_HEIGHT = 320, 22


def win_bars(lines: tuple[PersonLine, ...], title: str) -> Markup:
    """Each person's win rate as a horizontal bar (SVG, no script)."""
    rows = [line for line in lines if line.finished]
    height = BAR_HEIGHT * max(len(rows), 1) + 4
    parts = [
        f'<svg class="chart bars" viewBox="0 0 {BAR_WIDTH} {height}" role="img" '
        f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{escape(title)}</title>",
    ]
    for index, line in enumerate(rows):
        rate = float(line.win_rate or 0)
        y = 2 + index * BAR_HEIGHT
        width = max(2.0, (BAR_WIDTH - 160) * rate)
        colour = COLOURS[0]  # one colour: the bars are ranked, not the chart's people
        parts.append(
            f'<text x="0" y="{y + 15}" fill="currentColor" font-size="13">'
            f"{escape(isolate(line.person[:14]))}</text>"
            f'<rect x="110" y="{y + 3}" width="{width:.1f}" height="{BAR_HEIGHT - 8}" '
            f'fill="{colour}"/>'
            f'<text x="{114 + width:.1f}" y="{y + 15}" fill="currentColor" font-size="12">'
            f"{escape(percent(line.win_rate))}</text>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


@dataclass(frozen=True)
class GameBlock:
    """One game type's figures as the page shows them: a column per person (a
    table's four to six people fit a phone's width), a row per figure."""

    name: Any
    games: int
    people: list[str]
    rows: list[tuple[Any, list[str]]]


def statistics_page(table: Table, stats: Statistics, spectator: bool) -> str:
    """The statistics page of `table`."""
    lines = sorted(
        stats.people,
        key=lambda line: (-(line.win_rate or 0), -line.wins, -line.games, sort_key(line.person)),
    )
    charts = []
    for trend in stats.money:

        def tick(value: int | Decimal, currency: str = trend.currency) -> str:
            return money(Decimal(value), currency)

        charts.append(
            (
                trend.currency,
                chart(
                    list(trend.people),
                    [list(s) for s in trend.series],
                    _("Money over the games (%(currency)s)", currency=trend.currency),
                    tick,
                    # Each game's number along the bottom; equal lines stay visible.
                    labels=[str(n) for n in range(1, len(trend.days) + 1)],
                    distinct=True,
                ),
                list(trend.people),
                (trend.days[0], trend.days[-1]) if trend.days else None,
            )
        )
    blocks = []
    for kind in stats.figures:
        home = home_of(kind.game)
        rows = sorted(kind.rows, key=lambda r: sort_key(r.person))
        figures = [
            (home.figure_word(figure.key), [average(row.values[index]) for row in rows])
            for index, figure in enumerate(kind.figures)
        ]
        blocks.append(
            GameBlock(
                kind.title or home.name,
                kind.games,
                [row.person for row in rows],
                [(_("Games"), [str(row.games) for row in rows]), *figures],
            )
        )
    people = [line.person for line in lines]
    return render_template(
        "tables/statistics.html",
        table=table,
        stats=stats,
        lines=lines,
        percent=percent,
        bars=win_bars(tuple(lines), _("Win rate")),
        charts=charts,
        colours=COLOURS,
        blocks=blocks,
        people=people,
        spectator=spectator,
    )
