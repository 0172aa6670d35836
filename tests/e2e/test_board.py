"""The scoreboard and the game page on a phone (issue 38, items 4, 5, 10, 11): deals
played one after the other while the lead changes hands, the names never move on
the scoreboard; and nothing of the game page is hidden sideways at 320 and 390 px,
in French and in English, for each game (Boulmous, Bombu, Pitch four- and
five-handed), with a deal's "Why?" and the "More" tools open.

The deals are posted as the deal form posts them (with its CSRF token), from the
phone's own browser: what is tested here is the scoreboard, not the deal form.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import PHONE, watched
from tests.e2e.layout import hidden_sideways
from tests.server.conftest import Server

CARDS = ["ace", "jack", "off_jack", "joker_high", "joker_low", "ten", "three", "two"]


def pitch(bidder: int, bid: int, won: list[int], partner: str | None = None) -> dict[str, str]:
    form = {"bidder": str(bidder), "bid": str(bid), "trump": "hearts"}
    form.update({f"p_{card}": str(seat) for card, seat in zip(CARDS, won, strict=True)})
    if partner is not None:
        form["partner"] = partner
    return form


def counts(key: str, values: list[int]) -> dict[str, str]:
    return {f"{key}{seat}": str(n) for seat, n in enumerate(values)}


#: Each game: its players, then deals whose leader changes (by the engine's scores).
GAMES: dict[str, tuple[str, list[str], list[dict[str, str]]]] = {
    "boulmous": (
        "boulmous",
        # The longest names the form takes (40 characters), with and without spaces.
        ["Ana", "Bruno", "Chloé", "Marie-Christine de La Tour d'Auvergne-La"],
        [
            {"taker": "1", "bid": "4", "contract": "spades", **counts("tricks", [1, 4, 1, 0])},
            {"taker": "2", "bid": "5", "contract": "hearts", **counts("tricks", [1, 0, 5, 0])},
            {"taker": "3", "bid": "5", "contract": "clubs", **counts("tricks", [0, 0, 1, 5])},
            {"taker": "3", "bid": "3", "contract": "clubs", **counts("tricks", [1, 1, 1, 3])},
        ],
    ),
    "bombu": (
        "bombu",
        ["Marius", "Fanny", "César", "Honorinedelatourdauvergnelaroquebrussane"],
        [
            {"contract": "no-tricks", **counts("tricks", [1, 3, 2, 2])},
            {"contract": "no-hearts", **counts("hearts", [0, 0, 8, 0])},
            {"contract": "no-queens", **counts("queens", [4, 0, 0, 0])},
        ],
    ),
    "pitch4": (
        "pitch",
        ["Dale", "Rhonda", "Earl", "Peggy"],
        [
            pitch(0, 5, [0, 0, 2, 2, 0, 2, 1, 0]),
            pitch(1, 6, [1, 1, 3, 3, 1, 3, 1, 0]),
        ],
    ),
    "pitch5": (
        "pitch",
        ["Kenny", "Lorraine", "Maxime", "Josie", "Thibault"],
        [
            pitch(0, 4, [0, 2, 1, 0, 4, 2, 0, 3], partner="2"),
            pitch(3, 5, [3, 3, 3, 0, 3, 2, 3, 1], partner="alone"),
            pitch(4, 6, [4, 0, 1, 4, 4, 3, 0, 2], partner="1"),
        ],
    ),
}


def token_of(html: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found is not None, "no CSRF token on the page"
    return found.group(1)


def start(page: Page, base: str, game: str, players: list[str]) -> str:
    """A new game, imported from a record with no deal: its address."""
    record = {
        "format": "referee-game/1",
        "game": game,
        "players": players,
        "first_dealer": 0,
        "rules": {},
        "deals": [],
    }
    return imported(page, base, record)


def imported(page: Page, base: str, record: dict[str, Any]) -> str:
    """A game imported from its record, as the import page sends it: its address."""
    html = page.request.get(base + "/import").text()
    response = page.request.post(
        base + "/import",
        multipart={
            "csrf_token": token_of(html),
            "record": {
                "name": "game.json",
                "mimeType": "application/json",
                "buffer": json.dumps(record).encode(),
            },
        },
        max_redirects=0,
    )
    assert response.status == 302, response.text()[:2000]
    return base + response.headers["location"]


def record_deal(page: Page, game_url: str, form: dict[str, str]) -> None:
    # Bombu asks its contract first (the form of that contract holds the token).
    query = f"?contract={form['contract']}" if "contract" in form and "bid" not in form else ""
    html = page.request.get(game_url + "/deal" + query).text()
    response = page.request.post(
        game_url + "/deal",
        form={"action": "save", "csrf_token": token_of(html), **form},
        max_redirects=0,
    )
    assert response.status == 302, response.text()[:2000]


def names_in_order(page: Page) -> list[str]:
    return [text.strip() for text in page.locator(".totals li .who").all_inner_texts()]


@pytest.fixture(scope="module")
def context_of(browser: Browser) -> Iterator[Any]:
    """A phone's browser of a language and a width, closed at the end."""
    made: list[BrowserContext] = []

    def make(lang: str, width: int) -> BrowserContext:
        viewport = {"width": width, "height": 844 if width == 390 else 640}
        context = browser.new_context(
            **{**PHONE, "viewport": viewport, "locale": "fr-FR" if lang == "fr" else "en-US"}
        )
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


def reopen(page: Any, url: str) -> None:
    """Open the game's page again. The page may be reloading itself (its stream told
    it of the deal just recorded): a navigation it aborts is made again."""
    for _ in range(3):
        try:
            page.goto(url)
            return
        except PlaywrightError as error:
            if "ERR_ABORTED" not in str(error) and "interrupted" not in str(error):
                raise
            page.wait_for_load_state()
    page.goto(url)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_names_stay_in_their_seats_and_nothing_is_hidden_sideways(
    name: str, live_server: Server, context_of: Any
) -> None:
    game, players, deals = GAMES[name]
    base = f"http://127.0.0.1:{live_server.port}"
    page, watch = watched(context_of("fr", 390), base)
    url = start(page, base, game, players)
    page.goto(url)
    first = names_in_order(page)
    assert len(first) == (2 if name == "pitch4" else len(players))
    leaders: list[str] = []
    for form in deals:
        record_deal(page, url, form)
        reopen(page, url)
        # The order of the scoreboard is the seats', whoever leads.
        assert names_in_order(page) == first
        leader = page.locator(".totals li.leader .who").first.inner_text().strip()
        leaders.append(leader)
        expect(page.locator(".totals li.leader .rank").first).to_contain_text("1er")
    assert len(set(leaders)) > 1, f"the lead never changed hands: {leaders}"
    assert watch.errors == [], watch.errors
    # The spectators' page (the same scoreboard, without the tools).
    share = page.request.get(url + "/share").text()
    viewer = re.search(r'<a href="([^"]+)" class="link" id="viewer-link">', share)
    assert viewer is not None
    spectator_url = viewer.group(1)
    # The page in both languages, at both widths: nothing hidden sideways, with the
    # last deal's "Why?" and the "More" tools open; the spectators' page too.
    for lang in ("fr", "en"):
        for width in (320, 390):
            phone, seen = watched(context_of(lang, width), base)
            phone.goto(url)
            phone.locator("details.why").last.locator("summary").click()
            phone.locator("details.more > summary").click()
            expect(phone.locator("details.why").last.locator("ol")).to_be_visible()
            assert hidden_sideways(phone) == [], (lang, width)
            # The deal's explanation reads across the width, in a few lines.
            why = phone.locator("details.why").last.locator("ol").bounding_box()
            assert why is not None
            assert why["width"] > width * 0.7, why
            lines = phone.evaluate(
                "() => { const ol = [...document.querySelectorAll('.history .why ol')].pop();"
                " return ol.getBoundingClientRect().height"
                " / parseFloat(getComputedStyle(ol).lineHeight); }"
            )
            assert lines <= 8, (lang, width, lines)  # was about 20 in a narrow column
            assert seen.errors == [], seen.errors
            phone.goto(spectator_url)
            phone.locator("details.why").last.locator("summary").click()
            assert hidden_sideways(phone) == [], ("spectators", lang, width)


def test_hidden_sideways_finds_what_is_cut(browser: Browser) -> None:
    """The helper itself: a name cut by its box, a text cut by an ellipsis, a table
    scrolled sideways, a page wider than the phone; and nothing on a page that fits
    (a one-pixel box for screen readers, a closed <details>, are not counted)."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": 320, "height": 640}})
    page = context.new_page()
    page.set_content(
        '<p class="sr" style="position:absolute;width:1px;height:1px;overflow:hidden">'
        "a long text for screen readers only</p>"
        "<details><summary>More</summary><div style='width:900px'>wide</div></details>"
        "<p>Fits.</p>"
    )
    assert hidden_sideways(page) == []
    page.set_content(
        '<meta name="viewport" content="width=device-width">'
        '<div style="width:40px;overflow:hidden;white-space:nowrap">David Maximilien</div>'
        '<div style="width:40px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis">'
        "Bruno Chloé</div>"
        '<div style="width:100px;overflow-x:auto"><table style="width:400px"><tr><td>x</td>'
        "</tr></table></div>"
        '<div style="width:600px">too wide</div>'
    )
    found = hidden_sideways(page)
    assert any(item.startswith("page ") for item in found), found
    assert any('"David Maximilien"' in item and "cut to 40px" in item for item in found), found
    assert any('"Bruno Chloé"' in item for item in found), found
    assert any("scrolled in 100px" in item for item in found), found
    assert len(hidden_sideways(page, scroll_boxes=False)) == len(found) - 1
    context.close()
