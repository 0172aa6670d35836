"""The score sheet's geometry, written once.

The deal table's layout (`web/ledger.py`) measures with these numbers, and the
part of the sheets' stylesheet that sets them is written from them (`css()`,
appended to `static/print.css` by `services/pdf.py`), so that the two never differ.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from referee.paths import FONTS

#: The sheets' fonts, files of the package (DejaVu, under the Bitstream Vera licence
#: in referee/fonts/LICENSE): WeasyPrint draws with these very files (`@font-face`
#: in `css()`, whatever fonts the system has) and the ledger measures the deal
#: table's lines with the advances of the first one. Sans has the suit signs.
SANS: Final = FONTS / "DejaVuSans.ttf"
SANS_BOLD: Final = FONTS / "DejaVuSans-Bold.ttf"
MONO: Final = FONTS / "DejaVuSansMono.ttf"
#: Their families in print.css.
SANS_FAMILY, MONO_FAMILY = "Referee Sans", "Referee Mono"

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
    """The stylesheet rules that set this geometry, and the sheets' font faces."""
    return (
        _face(SANS_FAMILY, SANS, "normal")
        + _face(SANS_FAMILY, SANS_BOLD, "bold")
        + _face(MONO_FAMILY, MONO, "normal")
        + f"@page {{ margin: {MARGIN_TOP}mm {MARGIN_SIDE}mm {MARGIN_BOTTOM}mm; }}\n"
        f".deals col.n {{ width: {NUMBER_COLUMN}mm; }}\n"
        f".deals tr.lines {{ background: url(rule-h.svg) 0 0 / 100% {DEAL_LINE}pt repeat-y; }}\n"
        f".deals tr.lines td {{ font-size: {DEAL_FONT}pt; line-height: {DEAL_LINE}pt;"
        f" padding: 0 {CELL_PADDING}mm; white-space: pre; }}\n"
    )


def _face(family: str, path: Path, weight: str) -> str:
    return (
        f'@font-face {{ font-family: "{family}"; font-weight: {weight};'
        f' src: url("{path.as_uri()}"); }}\n'
    )
