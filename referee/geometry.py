"""The score sheet's geometry, written once.

The deal table's layout (`web/ledger.py`) measures with these numbers, and the
part of the sheets' stylesheet that sets them is written from them (`css()`,
appended to `static/print.css` by `services/pdf.py`), so that the two never differ.
"""

from __future__ import annotations

from typing import Final

#: Paper width and height, in mm.
PAPER: Final = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Page margins: top, left and right, bottom (the page counter sits in the bottom one).
MARGIN_TOP, MARGIN_SIDE, MARGIN_BOTTOM = 14.0, 12.0, 16.0
#: The deal table's text: its size and its line height, in points.
DEAL_FONT, DEAL_LINE = 8.0, 12.0
#: A cell's padding, left and right each, in mm.
CELL_PADDING = 1.2
#: The deal number's column, in mm.
NUMBER_COLUMN = 7.0


def content_width(size: str, landscape: bool) -> float:
    """The page's width less its margins, in mm."""
    width, height = PAPER[size]
    return (height if landscape else width) - 2 * MARGIN_SIDE


def css() -> str:
    """The stylesheet rules that set this geometry."""
    return (
        f"@page {{ margin: {MARGIN_TOP}mm {MARGIN_SIDE}mm {MARGIN_BOTTOM}mm; }}\n"
        f".deals col.n {{ width: {NUMBER_COLUMN}mm; }}\n"
        f".deals tr.lines {{ background: url(rule-h.svg) 0 0 / 100% {DEAL_LINE}pt repeat-y; }}\n"
        f".deals tr.lines td {{ font-size: {DEAL_FONT}pt; line-height: {DEAL_LINE}pt;"
        f" padding: 0 {CELL_PADDING}mm; white-space: pre; }}\n"
    )
