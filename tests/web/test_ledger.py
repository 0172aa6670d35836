"""The deal table's layout in lines (web/ledger.py): widths, wrapping, alignment."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, get_template_attribute
from markupsafe import Markup

from referee.engine.records import parse_record
from referee.services.games import scored, transient_game
from referee.web import ledger
from referee.web.board import build
from referee.web.ledger import INDENT, Ledger, ledger_of, width, wrap

DIGIT = 8 * 1303 / 2048 * 25.4 / 72  # a digit of DejaVu Sans at 8 pt, in mm


@pytest.fixture
def request_context(app: Flask) -> Iterator[None]:
    with app.test_request_context():
        yield


def ledger_for(record: dict[str, Any], size: str = "a4") -> Ledger:
    game = transient_game(parse_record(record))
    summary = get_template_attribute("_macros.html", "summary")
    return ledger_of(build(game, scored(game)), size, lambda deal: summary(game, deal))


def example(examples_dir: Path, name: str) -> dict[str, Any]:
    return json.loads((examples_dir / f"{name}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_width_from_the_font() -> None:
    assert width("0000") == pytest.approx(4 * DIGIT)
    assert width("iiii") < width("mmmm")


def test_width_of_a_character_the_font_lacks() -> None:
    assert width("王") == pytest.approx(8 * 25.4 / 72)  # a whole em, where CJK glyphs fit


def test_the_sheets_measure_and_draw_with_one_shipped_font() -> None:
    """The ledger measures with the package's own font file, and the stylesheet's
    @font-face draws with that very file: no system font decides the layout."""
    from referee import geometry, paths

    assert geometry.SANS.parent == paths.FONTS
    for face in (geometry.SANS, geometry.SANS_BOLD, geometry.MONO):
        assert face.is_file()
    faces = geometry.css()
    for path in (geometry.SANS, geometry.SANS_BOLD, geometry.MONO):
        assert f'src: url("{path.as_uri()}")' in faces
    from fontTools.ttLib import TTFont

    font = TTFont(str(geometry.SANS), lazy=True)
    zero = font["hmtx"][font.getBestCmap()[ord("0")]][0] / font["head"].unitsPerEm
    font.close()
    assert width("0") == pytest.approx(zero * 8 * 25.4 / 72)
    assert (paths.FONTS / "LICENSE").is_file()


def test_wrap_keeps_short_text_whole() -> None:
    text = Markup('Ana bids 3 <span class="suit" title="hearts">♥</span> · 4 tricks')
    # Spaces after "·" and numbers become non-breaking: they stay with what follows.
    glued = str(text).replace("· ", "·\u00a0").replace("3 ", "3\u00a0").replace("4 ", "4\u00a0")
    assert wrap(text, 100) == [Markup(glued)]


@pytest.mark.parametrize("letters", range(8, 40))
def test_wrap_breaks_outside_tags_never_after_a_dot_or_a_figure(letters: int) -> None:
    text = Markup('Ana bids 3 <span class="suit" title="a b c">♥</span> · 4 tricks · boîte Ana')
    room = width("Ana bids 3 ♥ · 4 tricks · boîte Ana"[:letters])
    lines = wrap(text, room)
    plain = [" ".join(line.striptags().split()) for line in lines]
    assert " ".join(plain) == "Ana bids 3 ♥ · 4 tricks · boîte Ana"
    assert sum('<span class="suit" title="a b c">♥</span>' in line for line in lines) == 1
    assert all(line.startswith(INDENT) for line in lines[1:])
    for line in plain:
        assert not line.endswith(("·", "3", "4"))
        # Within the room, unless a single word is wider.
        assert width(line) + width(INDENT) * (line != plain[0]) <= room or " " not in line.replace(
            "· ", "·"
        ).replace("3 ", "3").replace("4 ", "4")


def test_wrap_keeps_a_place_with_its_player() -> None:
    text = Markup("Réussite · 1. Bruno 2. Driss 3. Ana 4. Chloé")
    lines = [line.striptags() for line in wrap(text, width("Réussite · 1. Bruno 2. Dr"))]
    assert lines == ["Réussite · 1. Bruno", "2. Driss 3. Ana", "4. Chloé"]


def test_wrap_keeps_no_break_spaces() -> None:
    text = Markup("Yasmine bids boulmous · 6 tricks · boulmous made\u00a0Yasmine")
    lines = wrap(text, width("Yasmine bids boulmous · 6 tricks · boulmous made") + 0.1)
    assert lines[-1].endswith("made\u00a0Yasmine")
    assert len(lines) == 2


def test_wrap_gives_a_long_word_a_line_of_its_own() -> None:
    lines = wrap(Markup("Anticonstitutionnellement wins"), 10)
    assert lines == [Markup("Anticonstitutionnellement"), Markup(INDENT + "wins")]


def test_wrap_escapes_nothing_twice() -> None:
    lines = wrap(Markup("Tom &amp; Jerry · Ana"), width("Tom & Jerry") + 0.1)
    assert lines == [Markup("Tom &amp; Jerry"), Markup(INDENT + "·\u00a0Ana")]


def test_bombu_blocks_are_manches(request_context: None, examples_dir: Path) -> None:
    record = example(examples_dir, "bombu-first-manche")
    table = ledger_for(record)
    assert [b.number for b in table.blocks] == [1]
    block = table.blocks[0]
    assert block.numbers.split("\n") == ["1", "2", "3", "4", "5", "6"]
    assert block.dealer == record["first_dealer"]
    assert not table.landscape
    assert table.sides == record["players"]


def test_figures_line_up_under_their_sides(request_context: None, examples_dir: Path) -> None:
    table = ledger_for(example(examples_dir, "boulmous-with-stake"))
    lines = [line for b in table.blocks for line in b.figures.split("\n") if line]
    assert table.labels.split() == ["±", "Σ"] * 4
    for line in [table.labels, *lines]:
        assert len(line) == 4 * table.width
    # Deal 1: Hédi takes 4 and makes it; each side " points total ", right-aligned.
    first = lines[0]
    sides = [first[i * table.width : (i + 1) * table.width] for i in range(4)]
    assert [s.split() for s in sides] == [["+1", "1"], ["+4", "4"], ["+1", "1"], ["0", "0"]]
    assert all(s.endswith(" ") and s.startswith(" ") for s in sides)
    assert table.column == pytest.approx(table.width * 8 * 1233 / 2048)


def test_a_long_description_takes_two_lines_in_every_cell(
    request_context: None, examples_dir: Path
) -> None:
    record = example(examples_dir, "bombu-first-manche")
    record["players"] = ["Marius-Alexandre", "Fanny-Josephine", "César", "Honorine"]
    block = ledger_for(record).blocks[0]
    deals = block.deals.split("\n")
    assert len(deals) == 7  # the Réussite goes on in a second line
    assert deals[6].startswith(INDENT)
    assert block.numbers.split("\n") == ["1", "2", "3", "4", "5", "6", ""]
    figures = block.figures.split("\n")
    assert len(figures) == 7
    assert figures[6] == ""


def test_teams_and_five_hands(request_context: None, examples_dir: Path) -> None:
    four = ledger_for(example(examples_dir, "pitch-moon"))
    assert four.sides == ["Dale & Earl", "Rhonda & Peggy"]
    assert not four.landscape
    five = example(examples_dir, "pitch-moon")
    five["players"] = ["Dale", "Rhonda", "Earl", "Peggy", "Walt"]
    for deal in five["deals"]:
        deal["partner"] = (deal["bidder"] + 2) % 5
        deal["points"] = {
            card: None if who is None else who for card, who in deal["points"].items()
        }
    table = ledger_for(five, "letter")
    assert table.sides == five["players"]
    assert not table.landscape
    # Five long names leave the deals too little room on portrait paper.
    five["players"] = [
        "Marie-Christine",
        "Jean-Sébastien",
        "Anne-Charlotte",
        "Pierre-Henri",
        "Walt",
    ]
    table = ledger_for(five, "letter")
    assert table.landscape
    assert table.width == 14  # "Marie-Christine" in the header's 7 pt bold
    assert table.dealer == pytest.approx(width("Marie-Christine") + 2.4 + 1)
    assert four.dealer == ledger.DEALER
    five["players"][0] = "Marie-Christine-Alexandra"
    longest = ledger_for(five, "letter")
    assert longest.width == ledger.NAME  # longer ones wrap
    assert longest.dealer == ledger.DEALER_MOST  # and clip in the dealer's column


def test_no_deal_yet(request_context: None, examples_dir: Path) -> None:
    record = example(examples_dir, "boulmous-with-stake")
    record["deals"] = []
    table = ledger_for(record)
    assert table.blocks == []
    assert len(table.labels) == 4 * table.width


def test_the_sheets_geometry_is_written_once() -> None:
    """The layout measures with referee/geometry.py; the stylesheet takes its rules
    from there too, and print.css does not set them again."""
    from referee import geometry
    from referee.services.pdf import STATIC

    printed = (STATIC / "print.css").read_text(encoding="utf-8")
    for rule in ("col.n {", "tr.lines {", "tr.lines td {", "margin: 14mm"):
        assert rule not in printed
    assert f"font-size: {geometry.DEAL_FONT}pt" in geometry.css()
    assert f"margin: {geometry.MARGIN_TOP}mm" in geometry.css()
    assert geometry.content_width("a4", False) == 186
    assert geometry.content_width("letter", True) == pytest.approx(255.4)


def test_the_winner_ranks_first_even_below_a_higher_total(
    request_context: None, examples_dir: Path
) -> None:
    """Five-handed Pitch: the bidder who made his bid wins at 21 ahead of his partner
    at 24; the sheet's ranking puts the winner first."""
    game = transient_game(parse_record(example(examples_dir, "pitch-five-handed")))
    board = build(game, scored(game))
    assert board.standings.winners == (0,)
    assert board.ranking[0] == 0
    assert board.ranking[1:] == [3, 2, 1, 4]  # then by score, ties in seat order
