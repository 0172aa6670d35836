"""A game's own styles live in its package and reach whatever shows its deals: its
marks' colours every page of it (`Home.styles`), its sheets' layout the PDF sheets
(`Home.print_styles`, its package's `static/print.css`)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from referee.games import GAMES, PACKAGES
from referee.services import pdf
from referee.web.homes import home_of
from tests.conftest import EXAMPLES
from tests.web.conftest import new_game
from tests.web.test_sheets import pdf_text

STATIC = Path(__file__).resolve().parents[2] / "static"
BOMBU = ["Marius", "Fanny", "César", "Honorine"]


def rule_for(selector: str, css: str) -> bool:
    """`css` has a rule whose selectors name the class `selector` (".mark-set", not
    ".mark-setting")."""
    return re.search(re.escape(selector) + r"(?![\w-])[^{}]*\{", css) is not None


#: The marks drawn in a colour of their own (the error's or the accent's), by game.
COLOURED = {
    "boulmous": ("boite", "boulmous-made", "boulmous-failed"),
    "bombu": ("capot",),
    "pitch": ("set", "moon-made", "moon-failed"),
}


def test_a_games_marks_take_their_colours_in_its_package() -> None:
    for key in PACKAGES:
        home = home_of(key)
        styles = "".join((home.static_folder / name).read_text("utf-8") for name in home.styles)
        for kind in COLOURED.get(key, ()):
            assert kind in GAMES[key].words.marks, (key, kind)
            assert rule_for(f".mark-{kind}", styles), (key, kind)
        # A game's styles colour its own marks, no other game's.
        for kind in re.findall(r"\.mark-([\w-]+)", styles):
            assert kind in GAMES[key].words.marks, (key, kind)
    shared = (STATIC / "app.css").read_text("utf-8")
    assert rule_for(".mark-win", shared)  # every game's
    assert not any(
        rule_for(f".mark-{kind}", shared) for kinds in COLOURED.values() for kind in kinds
    )


def test_a_games_marks_reach_every_page_that_shows_its_deals(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    name = "boulmous-with-stake.json"  # deal 3: Ana's boulmous, made
    response = client.post(
        "/import",
        data={"record": (io.BytesIO((EXAMPLES / name).read_bytes()), name)},
        content_type="multipart/form-data",
    )
    token = response.headers["Location"].removeprefix("/g/")
    viewer = re.search(r"/v/([\w-]+)", client.get(f"/g/{token}/share").get_data(as_text=True))
    assert viewer is not None
    table = client.post("/tables/new", data={"name": "Tuesday club"}).headers["Location"]
    client.post(f"{table}/join", data={"game": f"http://localhost/g/{token}"})
    table_tv = re.search(r"/tv/[\w-]+", client.get(f"{table}/share").get_data(as_text=True))
    assert table_tv is not None
    marked = {
        f"/g/{token}": True,  # the scoreboard's history
        f"/v/{viewer.group(1)}": True,  # the spectators'
        f"/g/{token}/deal/3/edit": False,  # the deal as recorded, when it moved meanwhile
        f"/v/{viewer.group(1)}/tv": False,  # the last deal, on a TV
        table_tv.group(0): False,  # the table's TV: its game being played
        "/sample/boulmous": False,
    }
    address = re.compile(
        r'<link rel="stylesheet" href="(/static/games/boulmous/marks\.css\?v=\w+)">'
    )
    for path, shows_the_mark in marked.items():
        page = client.get(path).get_data(as_text=True)
        link = address.search(page)
        assert link is not None, path
        # After the app's style sheet, whose `.mark` it colours.
        assert page.index("/static/app.css") < link.start(), path
        if shows_the_mark:
            assert 'class="mark mark-boulmous-made"' in page, path
    with client.get(link.group(1)) as served:
        assert served.status_code == 200
        assert served.mimetype == "text/css"
        assert rule_for(".mark-boulmous-made", served.get_data(as_text=True))
    # Kept by the service worker, for the pages it keeps offline.
    assert link.group(1) in client.get("/sw.js").get_data(as_text=True)
    # Another game's page loads none of it.
    pad = client.get(f"/g/{new_game(client, 'pad', ['A', 'B'])}").get_data(as_text=True)
    assert "/static/games/boulmous/" not in pad


def test_a_games_print_styles_reach_its_sheets(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The HTML handed to WeasyPrint holds the game's own print styles, as written."""
    drawn: list[str] = []
    draw = pdf.html_to_pdf

    def recorded(html: str) -> bytes:
        drawn.append(html)
        return draw(html)

    monkeypatch.setattr(pdf, "html_to_pdf", recorded)
    client.get("/lang/en?next=/")
    own = (home_of("bombu").static_folder / "print.css").read_text("utf-8")
    assert rule_for(".blank-bombu", own)
    assert not rule_for(".blank-bombu", (STATIC / "print.css").read_text("utf-8"))
    players = {f"player{seat}": name for seat, name in enumerate(BOMBU)}
    blank = client.post("/blank.pdf", data={"game": "bombu", **players})
    assert blank.status_code == 200
    assert pdf_text(blank.data)[0] == 1  # its four manches on one page, as before
    sheet = client.get(f"/g/{new_game(client, 'bombu', BOMBU)}/sheet.pdf")
    assert sheet.status_code == 200
    assert len(drawn) == 2
    for html in drawn:
        assert f"<style>\n{own}</style>" in html
    # A game without print styles of its own: the app's alone.
    other = client.post("/blank.pdf", data={"game": "pitch", **players, "rule_points": "10"})
    assert other.status_code == 200
    assert len(drawn) == 3
    assert "blank-bombu" not in drawn[2]
    assert drawn[2].count("<style>") == 1
