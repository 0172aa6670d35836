"""A TV's numbers fit their cards (issue "after a trial at a real table": "−1,2" cut,
"2,480" painted over the next player's card, "−620" out of the frame with five
players). Score pads with five and with twelve players, each alone or in teams,
totals of five digits with their signs (−12 480, 99 999), on a game's TV and on a
table's TV (with the evening's money by the point), at 1920×1080 and 1280×720 (and
on a phone that opens the link, 390×844): the page measures that no number leaves
its box or its card and that no two cards overlap.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import watched
from tests.e2e.test_board import imported
from tests.server.conftest import Server

SHOTS = Path("/tmp/referee-screenshots")
DAY = "2026-11-27"

FIVE = ["Anastasia", "Dominique", "Bruno", "Chloé", "Maximilien"]
TWELVE = [*FIVE, "Jean-Baptiste", "Léa", "Gaspard", "Honorine", "Inès", "Karim", "Séverine"]


#: Eleven players' points of five digits, half of them negative (the twelfth's: the rest).
ELEVEN = [-12480, 99999, -88888, 77777, -66666, 55555, -44444, 33333, -22222, 11111, -10000]


def zero_sum(points: list[int]) -> list[int]:
    """The points with the last side's filled in: they add up to zero."""
    return [*points, -sum(points)]


#: Each game: its players, its house rules, its deals (points of each side).
GAMES: dict[str, tuple[list[str], dict[str, Any], list[list[int]]]] = {
    # Five alone, zero-sum: −12 480, 99 999 and the like.
    "five": (
        FIVE,
        {"zero_sum": True},
        [zero_sum([-12480, 99999, -45000, -30000]), zero_sum([-1, -1, 1, 1])],
    ),
    # Twelve alone, zero-sum: every total of five digits, half of them negative.
    "twelve": (
        TWELVE,
        {"zero_sum": True},
        [
            zero_sum(ELEVEN),
            zero_sum([-1, -1, 1, 1, -1, 1, -1, 1, -1, 1, 10000]),
        ],
    ),
    # Twelve in two teams of six: a side's name is six names long.
    "teams2": (TWELVE, {"teams": 2}, [[-12480, 99999], [-1, -20000]]),
    # Twelve in six teams of two.
    "teams6": (
        TWELVE,
        {"teams": 6},
        [[-12480, 99999, -88888, 77777, -66666, 55555], [-1, 1, -1, 1, -1, -10000]],
    ),
}

#: The TV's measures: every number inside its box and its card, cards apart, the
#: page no wider than the screen, the last deal not cut; each finding a string.
MEASURE = """() => {
  const found = [];
  const view = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > view + 1)
    found.push(`page ${document.documentElement.scrollWidth}px wide in ${view}px`);
  const text = (el) => el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40);
  // Where the text itself is painted (not its box, which may be narrower).
  const ink = (el) => { const r = document.createRange(); r.selectNodeContents(el);
    return r.getBoundingClientRect(); };
  // Sideways, against its own box (a line box may be lower than its glyphs' space);
  // both ways against its card.
  const across = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1;
  const inside = (a, b) => across(a, b) && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const cards = [...document.querySelectorAll('.tv-scores > li')];
  cards.forEach((card, i) => {
    const box = card.getBoundingClientRect();
    if (box.right > view + 1 || box.left < -1) found.push(`card ${i} out of the screen`);
    for (const el of card.querySelectorAll('.tv-score, .tv-name, .tv-badge')) {
      if (el.scrollWidth > el.clientWidth + 1)
        found.push(`${el.className} "${text(el)}": ${el.scrollWidth}px in ${el.clientWidth}px`);
      if (!across(ink(el), el.getBoundingClientRect()))
        found.push(`${el.className} "${text(el)}" out of its box`);
      if (!inside(ink(el), box)) found.push(`${el.className} "${text(el)}" out of card ${i}`);
    }
    cards.slice(i + 1).forEach((other, j) => {
      const o = other.getBoundingClientRect();
      if (box.left < o.right - 1 && o.left < box.right - 1 && box.top < o.bottom - 1
          && o.top < box.bottom - 1) found.push(`cards ${i} and ${i + j + 1} overlap`);
    });
  });
  for (const el of document.querySelectorAll('.tv-last, .tv-title')) {
    if (el.scrollWidth > el.clientWidth + 1) found.push(`${el.className} cut`);
  }
  for (const money of document.querySelectorAll('.tv-money')) {
    const box = money.getBoundingClientRect();
    for (const el of money.querySelectorAll('.net li, .net strong, .transfers li')) {
      if (el.scrollWidth > el.clientWidth + 1) found.push(`money "${text(el)}" cut`);
      if (!inside(ink(el), box)) found.push(`money "${text(el)}" out of its card`);
    }
  }
  return found;
}"""

#: The smallest score's type, in px.
SMALLEST = (
    "Math.min(...[...document.querySelectorAll('.tv-score')]"
    ".map((el) => parseFloat(getComputedStyle(el).fontSize)))"
)


def record(players: list[str], rules: dict[str, Any], deals: list[list[int]]) -> dict[str, Any]:
    return {
        "format": "referee-game/1",
        "game": "pad",
        "players": players,
        "first_dealer": 0,
        "rules": rules,
        "date": DAY,
        "deals": [{"points": points} for points in deals],
    }


def imported_game(page: Page, base: str, data: dict[str, Any]) -> str:
    """A game imported from its record: the address of its TV."""
    share = page.request.get(imported(page, base, data) + "/share").text()
    viewer = re.search(r'<a href="([^"]+)" class="link" id="viewer-link">', share)
    assert viewer is not None
    url = viewer.group(1)
    return (url if url.startswith("http") else base + url) + "/tv"


def imported_table(page: Page, base: str, games: list[dict[str, Any]]) -> str:
    """A table imported from its file: the address of its TV (its spectators' page)."""
    table = {"format": "referee-table/1", "name": "Les cousins", "aliases": {}, "games": games}
    page.goto(base + "/tables/import")
    page.set_input_files(
        "input[type=file]",
        {"name": "t.json", "mimeType": "application/json", "buffer": json.dumps(table).encode()},
    )
    page.locator("form button").last.click()
    expect(page.locator("h1")).to_have_text("Les cousins")
    page.goto(page.url.split("?")[0] + "/share")
    viewer = page.locator("a[href*='/tv/']").first.get_attribute("href")
    assert viewer is not None
    return viewer if viewer.startswith("http") else base + viewer


@pytest.fixture(scope="module")
def screens(browser: Browser, live_server: Server) -> dict[str, str]:
    """Each TV to measure, by name: the games' TVs and a table's (with its money)."""
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    urls = {name: imported_game(page, base, record(*game)) for name, game in GAMES.items()}
    # A table whose game going on is played for money by the point: five people's
    # balances of four digits and more, with their signs.
    money = {"stake": "0.10", "stake_per": "point", "currency": "EUR"}
    urls["table-five"] = imported_table(page, base, [{**record(*GAMES["five"]), **money}])
    urls["table-twelve"] = imported_table(page, base, [{**record(*GAMES["twelve"]), **money}])
    context.close()
    return urls


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720), (390, 844)])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_number_fits_its_card_on_a_tv(
    browser: Browser,
    live_server: Server,
    screens: dict[str, str],
    width: int,
    height: int,
    lang: str,
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    locale = "fr-FR" if lang == "fr" else "en-US"
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    tv, watch = watched(context, base)
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems: dict[str, list[str]] = {}
    for name, url in screens.items():
        tv.goto(url)
        expect(tv.locator(".tv-scores li").first).to_be_visible()
        if name.startswith("table") and width >= 1200:  # a phone has it further down
            expect(tv.locator(".tv-money").first).to_be_visible()
        tv.screenshot(path=str(SHOTS / f"tv-{name}-{lang}-{width}.png"), full_page=True)
        found = tv.evaluate(MEASURE)
        if found:
            problems[name] = found
        # Read from across a room: no score written smaller than 28 px (a phone
        # opening the link sees the phone's page: its cards as narrow as they come).
        if width >= 1200:
            assert tv.evaluate(SMALLEST) >= 28, (name, tv.evaluate(SMALLEST))
    context.close()
    assert problems == {}, problems
    assert watch.errors == [], watch.errors
    assert watch.foreign == []


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_a_tables_tv_shows_the_game_and_its_money_on_one_screen(
    browser: Browser, live_server: Server, screens: dict[str, str], width: int, height: int
) -> None:
    """A TV cannot scroll: five players' game and the evening's money, with its
    payments, within the screen's height."""
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    tv, watch = watched(context, base)
    tv.goto(screens["table-five"])
    expect(tv.locator(".tv-money").first).to_be_visible()
    tv.wait_for_timeout(300)  # tv.js has drawn the screen
    bottom = tv.evaluate("document.querySelector('.tv-money').getBoundingClientRect().bottom")
    tv.screenshot(path=str(SHOTS / f"tv-one-screen-{width}.png"))
    assert bottom <= height, bottom
    assert tv.evaluate(MEASURE) == []
    context.close()
    assert watch.errors == []
