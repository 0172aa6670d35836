"""The result where the players talk (issue 40): the result picture, its address by
the spectators' token only, the preview card of the public pages, the share button."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from PIL import Image

from referee.services import games as service
from referee.services.picture import (
    HEIGHT,
    WIDTH,
    Picture,
    Series,
    Side,
    Text,
    draw,
    layout,
    width_of,
)
from referee.web.board import build
from referee.web.result import picture_of
from tests.conftest import EXAMPLES, SCREENSHOTS
from tests.web.conftest import new_game

#: The 24-deal example, its players renamed so that the OCR reads plain ASCII.
NAMES = ["Alice", "Bernard", "Charlotte", "David"]


def upload(client: FlaskClient, record: dict[str, Any]) -> str:
    """Import a record through the form; the new game's editor token."""
    data = {"record": (io.BytesIO(json.dumps(record).encode()), "g.json")}
    response = client.post("/import", data=data, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].removeprefix("/g/")


def example(name: str, **changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    record.update(changes)
    return record


def long_game(client: FlaskClient) -> str:
    """A finished 24-deal game with a stake (its money settled), ASCII names."""
    return upload(client, example("bombu-full-game", players=NAMES))


class Tags(HTMLParser):
    """The meta tags of a page, as a chat's link preview reads them, and its links."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.links: list[dict[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "meta" and ("property" in values or "name" in values):
            self.meta[values.get("property") or values["name"]] = values.get("content", "")
        if tag == "a":
            self.links.append(values)


def tags_of(html: str) -> Tags:
    parser = Tags()
    parser.feed(html)
    return parser


def view_token_of(client: FlaskClient, token: str) -> str:
    page = client.get(f"/g/{token}/share").get_data(as_text=True)
    found = re.search(r"/v/([A-Za-z0-9_-]+)", page)
    assert found is not None
    return found.group(1)


def path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def ocr(png: bytes, tmp_path: Path) -> str:
    """What tesseract reads in the picture (Debian's tesseract-ocr, English model)."""
    if shutil.which("tesseract") is None:
        pytest.fail("tesseract is missing: bash tools/debian-packages.sh test")
    path = tmp_path / "picture.png"
    path.write_bytes(png)
    done = subprocess.run(
        ["tesseract", str(path), "stdout", "-l", "eng"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout


def picture_words(app: Flask, token: str, lang: str) -> list[str]:
    """Every text the picture of game `token` draws, in `lang` (its layout)."""
    with app.test_request_context(), force_locale(lang):
        found = service.shown(token)
        assert found is not None
        game, deals = found
        scored = service.scored(game, deals)
        return layout(picture_of(game, build(game, scored, deals), scored)).texts


def test_a_24_deal_game_as_a_portrait_png_whose_names_read_back(
    client: FlaskClient, tmp_path: Path
) -> None:
    token = long_game(client)
    view = view_token_of(client, token)
    client.get("/lang/en?next=/")
    response = client.get(f"/v/{view}/picture.png")
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    image = Image.open(io.BytesIO(response.data))
    image.load()
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT) == (1080, 1350)
    assert image.height > image.width
    (SCREENSHOTS / "result-24-deals.png").parent.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "result-24-deals.png").write_bytes(response.data)
    text = ocr(response.data, tmp_path)
    for name in NAMES:
        assert name in text
    assert "Winner" in text
    assert "pays" in text  # the settlement
    words = picture_words(client.application, token, "en")
    assert "24 deals" in " ".join(words)
    assert "Scores over the deals" in words  # the chart's title: the chart is drawn


def test_the_picture_speaks_the_page_language(client: FlaskClient, tmp_path: Path) -> None:
    token = long_game(client)
    view = view_token_of(client, token)
    client.get("/lang/fr?next=/")
    french = client.get(f"/v/{view}/picture.png")
    read = ocr(french.data, tmp_path)
    assert "Vainqueurs" in read  # two winners: "Gagnant" alone
    assert "24 donnes" in read
    assert "paie" in read
    words = " ".join(picture_words(client.application, token, "fr"))
    assert "★ Vainqueurs\u202f: Bernard, David" in words
    assert "24 donnes" in words
    assert " paie " in words
    assert "Scores au fil des donnes" in words
    english = " ".join(picture_words(client.application, token, "en"))
    assert "★ Winners: Bernard, David" in english
    assert " pays " in english
    # ?lang= (the preview card's address) wins over the reader's choice.
    assert client.get(f"/v/{view}/picture.png?lang=en").data != french.data


def test_only_the_spectators_token_serves_the_picture(client: FlaskClient) -> None:
    token = long_game(client)
    view = view_token_of(client, token)
    assert client.get(f"/v/{view}/picture.png").status_code == 200
    for path in (
        f"/g/{token}/picture.png",
        f"/v/{token}/picture.png",
        f"/g/{view}/picture.png",
        "/v/nothing/picture.png",
    ):
        assert client.get(path).status_code == 404, path
    # The editors' page offers it by the spectators' token.
    page = client.get(f"/g/{token}").get_data(as_text=True)
    shares = [a for a in tags_of(page).links if "data-share-result" in a]
    assert len(shares) == 1
    assert shares[0]["href"].startswith(f"/v/{view}/picture.png")
    assert shares[0]["download"].endswith(".png")
    assert token not in shares[0]["href"]
    # Replacing the spectators' link takes the picture's old address away too.
    client.post(f"/g/{token}/rotate", data={"which": "viewer"})
    assert client.get(f"/v/{view}/picture.png").status_code == 404


def test_the_spectators_page_carries_a_preview_card(app: Flask, client: FlaskClient) -> None:
    token = long_game(client)
    view = view_token_of(client, token)
    client.get("/lang/en?next=/")
    page = client.get(f"/v/{view}").get_data(as_text=True)
    meta = tags_of(page).meta
    assert meta["og:type"] == "website"
    assert meta["twitter:card"] == "summary_large_image"
    assert meta["og:title"].endswith(" · Bombu provençal") or " · " in meta["og:title"]
    assert re.match(r"Bernard \d+ – ", meta["og:title"])  # the winner first, with his total
    for name in NAMES:
        assert name in meta["og:title"]
    assert "Winner" in meta["og:description"]
    assert meta["og:url"] == f"http://localhost/v/{view}"
    assert (meta["og:image:width"], meta["og:image:height"]) == ("1080", "1350")
    image = meta["og:image"]
    assert image.startswith(f"http://localhost/v/{view}/picture.png?")
    assert meta["twitter:image"] == image
    # The tags hold no editor token, nor does the page at all.
    assert not any(token in value for value in meta.values())
    assert token not in page
    # Fetched as a chat fetches it: no cookie, no language.
    stranger = app.test_client(use_cookies=False)
    answer = stranger.get(path_of(image))
    assert answer.status_code == 200
    assert answer.mimetype == "image/png"
    assert Image.open(io.BytesIO(answer.data)).size == (1080, 1350)
    assert "max-age" in answer.headers["Cache-Control"]  # this version's address


def test_no_preview_card_on_an_editors_page(client: FlaskClient) -> None:
    token = long_game(client)
    for path in (f"/g/{token}", f"/g/{token}/share", f"/g/{token}/deal"):
        page = client.get(path).get_data(as_text=True)
        assert "og:" not in page, path
        assert "twitter:" not in page, path


def test_same_version_same_picture_a_new_deal_a_new_one(client: FlaskClient) -> None:
    token = new_game(client, "pad", ["Alice", "Bernard", "Chloe"])
    client.post(f"/g/{token}/deal", data={"action": "save", "points0": "10", "points1": "5"})
    view = view_token_of(client, token)
    first = client.get(f"/v/{view}/picture.png")
    again = client.get(f"/v/{view}/picture.png")
    assert first.data == again.data
    assert first.headers["ETag"] == again.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"  # an address without its version
    unchanged = client.get(
        f"/v/{view}/picture.png", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert unchanged.status_code == 304
    client.post(f"/g/{token}/deal", data={"action": "save", "points0": "7", "points1": "30"})
    after = client.get(f"/v/{view}/picture.png")
    assert after.data != first.data
    assert after.headers["ETag"] != first.headers["ETag"]
    # The page's own address of the picture follows the version too.
    page = client.get(f"/v/{view}").get_data(as_text=True)
    assert "v=2" in tags_of(page).meta["og:image"]


def test_a_table_of_twelve_long_names_fits(app: Flask, client: FlaskClient) -> None:
    names = [f"Bartholomew-Maximilien {chr(65 + i)}" if i % 2 else f"P{i}" for i in range(12)]
    record = {
        "format": "referee-game/1",
        "game": "pad",
        "players": names,
        "first_dealer": 0,
        "rules": {"zero_sum": True},
        "stake": "0.10",
        "stake_per": "point",
        "deals": [
            {"points": [((d * 7 + s * 13) % 41) - 20 for s in range(11)] + [None]}
            for d in range(24)
        ],
    }
    token = upload(client, record)
    client.get("/lang/fr?next=/")
    view = view_token_of(client, token)
    png = client.get(f"/v/{view}/picture.png").data
    assert Image.open(io.BytesIO(png)).size == (1080, 1350)
    (SCREENSHOTS / "result-pad-12.png").write_bytes(png)
    words = picture_words(app, token, "fr")
    assert "12e" in words  # every rank drawn
    assert sum(1 for w in words if w.startswith("P") and w[1:].isdigit()) >= 6
    # Long names cut short in their middle, not overflowing: their ends (A, C, E…)
    # still tell them apart.
    ends = {end for w in words for end in re.findall(r"…en ([A-L])\b", w)}
    assert len(ends) >= 3
    assert any(" paie " in w for w in words)  # the settlement


def test_every_text_stays_inside_the_picture() -> None:
    """Laid out at 12 sides, 12 long payments and a chart: nothing past the edges."""
    long = "Wolfgang-Amadeus Bartholomew Maximilien"
    sides = tuple(Side(f"{long} {i}", f"−{i}1 280", f"{i + 1}th", i == 0) for i in range(12))
    chart = tuple(Series(f"{long} {i}", tuple(range(24)), "#0072B2", i > 5) for i in range(12))
    money = tuple((f"{long} {i}", f"{long} {i + 1}", "1 234,50 €") for i in range(14))
    picture = Picture("A game", "a day", "★ Winner: " + long, sides, "Money", money, chart=chart)
    laid = layout(picture)

    for item in laid.items:
        if isinstance(item, Text):
            width = width_of(item.text, item.size, item.bold)
            left = item.x - width if item.anchor.startswith("r") else item.x
            assert left >= 0, item
            assert left + width <= WIDTH, item
            assert 0 <= item.y <= HEIGHT, item
    assert any(text.endswith("1 234,50 €") for text in laid.texts)  # amounts never cut
    assert Image.open(io.BytesIO(draw(picture))).size == (WIDTH, HEIGHT)


def test_teams_speak_as_teams(app: Flask, client: FlaskClient) -> None:
    token = upload(client, example("pad-teams-target"))
    words = picture_words(app, token, "en")
    assert "Ana & Chloé" in words
    assert "Bruno & Driss" in words
    assert not any(w == "Ana" for w in words)
    view = view_token_of(client, token)
    title = tags_of(client.get(f"/v/{view}").get_data(as_text=True)).meta["og:title"]
    assert re.match(r"(Ana & Chloé|Bruno & Driss) \d+ – (Ana & Chloé|Bruno & Driss) \d+ · ", title)


def test_the_other_public_pages_carry_the_card(app: Flask, client: FlaskClient) -> None:
    """The table's TV (its spectators' page) and a game's TV."""
    made = client.post("/tables/new", data={"name": "Les Jeudis"})
    table = re.search(r"/t/([A-Za-z0-9_-]+)", made.headers["Location"])
    assert table is not None
    token = new_game(client, "pad", ["Alice", "Bernard", "Chloe"], table=table.group(1))
    client.post(f"/g/{token}/deal", data={"action": "save", "points0": "10", "points1": "5"})
    share = client.get(f"/t/{table.group(1)}/share").get_data(as_text=True)
    tv = re.search(r"/tv/([A-Za-z0-9_-]+)", share)
    assert tv is not None
    view = view_token_of(client, token)
    stranger = app.test_client(use_cookies=False)
    for path in (f"/tv/{tv.group(1)}", f"/v/{view}/tv"):
        page = stranger.get(path).get_data(as_text=True)
        meta = tags_of(page).meta
        assert meta["twitter:card"] == "summary_large_image", path
        assert meta["og:image"].startswith(f"http://localhost/v/{view}/picture.png"), path
        assert "Alice 10" in meta["og:title"]
        assert token not in page
        assert table.group(1) not in page
        assert stranger.get(path_of(meta["og:image"])).mimetype == "image/png"
    # The players' page of the table has none.
    assert "og:" not in client.get(f"/t/{table.group(1)}").get_data(as_text=True)


def pad_record(players: list[str], deals: list[list[int]]) -> dict[str, Any]:
    return {
        "format": "referee-game/1",
        "game": "pad",
        "players": players,
        "deals": [{"points": points} for points in deals],
    }


def test_a_game_all_level_has_no_leader(app: Flask, client: FlaskClient) -> None:
    token = upload(client, pad_record(["Ana", "Bruno", "Chloe"], [[0, 0, 0]]))
    client.get("/lang/en?next=/")
    with app.test_request_context(), force_locale("en"):
        found = service.shown(token)
        assert found is not None
        game, deals = found
        scored = service.scored(game, deals)
        drawn = picture_of(game, build(game, scored, deals), scored)
    assert drawn.headline == "Game in progress: all level"
    assert not any(side.winner for side in drawn.sides)  # no line stands out


def test_the_chat_reads_plain_text_and_the_spectators_link(client: FlaskClient) -> None:
    """No invisible direction marks in what a chat shows (an Arabic name among
    Latin ones), and the text sent with the picture carries the spectators' link."""
    token = upload(client, pad_record(["Ana", "سلمى", "Chloe"], [[3, 1, 2]]))
    view = view_token_of(client, token)
    card = tags_of(client.get(f"/v/{view}").get_data(as_text=True)).meta
    for name in ("og:title", "og:description", "og:image:alt"):
        assert not re.search("[\u2066-\u2069]", card[name]), name
    assert "سلمى" in card["og:title"]
    links = tags_of(client.get(f"/g/{token}").get_data(as_text=True)).links
    (share,) = [link for link in links if "data-share-result" in link]
    assert share["data-text"].endswith(f"/v/{view}")
    assert token not in share["data-text"]
    assert not re.search("[\u2066-\u2069]", share["data-title"])


def test_the_share_page_offers_the_picture_once_a_deal_is_played(client: FlaskClient) -> None:
    empty = upload(client, pad_record(["Ana", "Bruno"], []))
    assert "data-share-result" not in client.get(f"/g/{empty}/share").get_data(as_text=True)
    token = upload(client, pad_record(["Ana", "Bruno"], [[2, 1]]))
    view = view_token_of(client, token)
    links = tags_of(client.get(f"/g/{token}/share").get_data(as_text=True)).links
    (share,) = [link for link in links if "data-share-result" in link]
    assert share["href"].startswith(f"/v/{view}/picture.png")
    assert client.get(share["href"]).mimetype == "image/png"


def test_a_file_name_of_twelve_long_names_stays_short(client: FlaskClient) -> None:
    names = [f"Bartholomew-Maximilien {chr(65 + i)}" for i in range(12)]
    token = upload(client, pad_record(names, [[1] * 12]))
    links = tags_of(client.get(f"/g/{token}").get_data(as_text=True)).links
    (share,) = [link for link in links if "data-share-result" in link]
    assert len(share["download"]) <= 84
    assert share["download"].endswith(".png")


def test_the_language_asked_in_capitals_is_understood(client: FlaskClient) -> None:
    token = upload(client, pad_record(["Ana", "Bruno"], [[2, 1]]))
    view = view_token_of(client, token)
    english = client.get(f"/v/{view}/picture.png?lang=EN").data
    assert english == client.get(f"/v/{view}/picture.png?lang=en").data
    assert english != client.get(f"/v/{view}/picture.png?lang=fr").data
