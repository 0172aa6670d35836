"""A score pad of twelve on a phone (issue "after a trial at a real table"): the
game's history of deals at 390×844 and 320×640, twelve players with long names and
five-digit points with their signs. The page measures that every column's header
shows its whole name (no "Do/mi." nor "Anas."), that the first column's signs are
not under the sticky "#" column, that a deal's line stays in view when the table is
swiped to its last column, and that a table wider than the phone shows it (a shadow
at the edge that has more).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, watched
from tests.e2e.test_board import imported
from tests.server.conftest import Server

SHOTS = Path("/tmp/referee-screenshots")
NAMES = [
    "Dominique",
    "Anastasia",
    "Maximilienne",
    "Jean-Baptiste",
    "Bartholomée",
    "Christophe",
    "Guillemette",
    "Marie-Hélène",
    "Évangéline",
    "Théophile",
    "Wilhelmina",
    "Alexandrine",
]
#: Two deals: every point of five digits, half of them negative, the first player's
#: negative (its minus sign is the one the sticky column would hide).
DEALS = [
    [-12480, 99999, -88888, 77777, -66666, 55555, -44444, 33333, -22222, 11111, -10000, -22665],
    [-1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -10000, 10000],
]

MEASURE = """() => {
  const found = [];
  const table = document.querySelector('.history table');
  const scroll = table.closest('.scroll') || table.parentElement;
  const text = (el) => el.textContent.trim().replace(/\\s+/g, ' ');
  // Each name's header: the whole name, no word of it split over two lines, nothing
  // wider than its cell.
  const heads = [...table.querySelectorAll('thead th')].slice(1);
  heads.forEach((th, i) => {
    if (th.scrollWidth > th.clientWidth + 1)
      found.push(`header "${text(th)}": ${th.scrollWidth}px in ${th.clientWidth}px`);
    const words = text(th).split(/[\\s&-]+/).filter(Boolean);
    for (const word of words) {
      const node = [...th.querySelectorAll('*'), th].flatMap((el) => [...el.childNodes])
        .find((n) => n.nodeType === 3 && n.textContent.includes(word));
      if (!node) { found.push(`header ${i}: "${word}" not found`); continue; }
      const range = document.createRange();
      const at = node.textContent.indexOf(word);
      range.setStart(node, at); range.setEnd(node, at + word.length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1)
        found.push(`header "${text(th)}": "${word}" split over ${lines.size} lines`);
    }
  });
  const names = heads.map(text).join(' | ');
  // The first column of points: its signs right of the sticky column.
  scroll.scrollLeft = 0;
  for (const row of table.querySelectorAll('tbody tr:not(.what)')) {
    const sticky = row.querySelector('th').getBoundingClientRect();
    const cell = row.querySelector('td.num');
    const range = document.createRange(); range.selectNodeContents(cell.querySelector('b'));
    const ink = range.getBoundingClientRect();
    if (ink.left < sticky.right - 0.5)
      found.push(`"${text(cell.querySelector('b'))}" begins at ${ink.left}, under the sticky `
        + `column (to ${sticky.right})`);
  }
  const wider = scroll.scrollWidth > scroll.clientWidth + 1;
  // A table wider than the phone says so: a shadow at the edge that has more.
  if (wider && !getComputedStyle(scroll).backgroundImage.includes('gradient'))
    found.push('the table scrolls sideways with no hint');
  // Swiped to its last column: each deal's line is still in view.
  scroll.scrollLeft = scroll.scrollWidth;
  const view = scroll.getBoundingClientRect();
  for (const summary of table.querySelectorAll('tr.what summary')) {
    const box = summary.getBoundingClientRect();
    if (box.left < view.left - 1 || box.right > view.right + 1)
      found.push(`deal line [${box.left}, ${box.right}] out of [${view.left}, ${view.right}]`);
  }
  scroll.scrollLeft = 0;
  return {found, names, wider};
}"""


#: After a swipe has come to rest: the numbers (their ink) that the sticky "#" column
#: covers in part, a sign hidden ("12 480" read for "−12 480").
HALF_HIDDEN = """() => {
  const found = [];
  const table = document.querySelector('.history table');
  for (const row of table.querySelectorAll('tbody tr:not(.what)')) {
    const sticky = row.querySelector('th').getBoundingClientRect();
    for (const b of row.querySelectorAll('td.num b, td.num small')) {
      const range = document.createRange(); range.selectNodeContents(b);
      const ink = range.getBoundingClientRect();
      if (ink.left < sticky.right - 0.5 && ink.right > sticky.right + 0.5)
        found.push(`"${b.textContent}" [${ink.left}, ${ink.right}] half under the sticky column `
          + `(to ${sticky.right}), scrolled ${table.closest('.scroll').scrollLeft}px`);
    }
  }
  return found;
}"""


def swiped(page: Page, dx: int) -> None:
    """A finger's swipe of `dx` px leftwards on the deals' table, let go."""
    box = page.locator(".history .scroll").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] * 0.8, box["y"] + 60
    page.mouse.move(x, y)
    page.mouse.wheel(dx, 0)
    page.wait_for_timeout(600)  # the scroll comes to rest (snapped where it snaps)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (320, 640)])
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_twelve_long_names_read_on_a_phone(
    browser: Browser, live_server: Server, width: int, height: int, lang: str
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    locale = "fr-FR" if lang == "fr" else "en-US"
    context = browser.new_context(
        **{**PHONE, "viewport": {"width": width, "height": height}, "locale": locale}
    )
    page, watch = watched(context, base)
    record = {"format": "referee-game/1", "game": "pad", "players": NAMES, "first_dealer": 0}
    record.update({"rules": {}, "deals": [{"points": points} for points in DEALS]})
    url = imported(page, base, record)
    SHOTS.mkdir(parents=True, exist_ok=True)
    share = page.request.get(url + "/share").text()
    viewer = re.search(r'<a href="([^"]+)" class="link" id="viewer-link">', share)
    assert viewer is not None
    spectators = viewer.group(1)
    for who, address in (("players", url), ("spectators", spectators)):
        page.goto(address if address.startswith("http") else base + address)
        expect(page.locator(".history table")).to_be_visible()
        page.locator(".history").scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"wide-pad-{who}-{lang}-{width}.png"), full_page=True)
        history = SHOTS / f"wide-pad-{who}-{lang}-{width}-history.png"
        page.locator(".history").screenshot(path=str(history))
        measured = page.evaluate(MEASURE)
        found = list(measured["found"])
        # Swiped a little, a column, two and a half: no sign under the "#" column.
        for dx in (23, 70, 150):
            page.evaluate("document.querySelector('.history .scroll').scrollLeft = 0")
            swiped(page, dx)
            if dx > 23:  # the table did scroll
                assert page.evaluate("document.querySelector('.history .scroll').scrollLeft")
            found += page.evaluate(HALF_HIDDEN)
        page.locator(".history").screenshot(path=str(history).replace(".png", "-swiped.png"))
        assert found == [], (who, found, measured["names"])
        # Every header shows its player's whole name.
        assert measured["names"].split(" | ") == NAMES, measured["names"]
        # The page itself is no wider than the phone: only the table scrolls.
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
    assert watch.errors == [], watch.errors
    assert watch.foreign == []
