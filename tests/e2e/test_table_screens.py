"""A table's screens in Chromium (issue "the table at first sight"): the evening's
money hides nothing sideways on a phone (320 and 390 px, French and English), and
the table's TV reads from across a room at 1920×1080 (scores ≥ 100 px, names
≥ 40 px, the whole width), following the game as it is played."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import EXAMPLES, SCREENSHOTS
from tests.e2e.conftest import PHONE, watched
from tests.e2e.test_phone import check
from tests.server.conftest import Server

DAY = "2026-11-27"
#: Long names and five people: the hardest evening for a 320 px screen.
PEOPLE = ["Anne-Charlotte", "Bruno", "Chloé", "Driss", "Élodie"]


def _record(example: str, **changes: Any) -> dict[str, Any]:
    record = json.loads((EXAMPLES / f"{example}.json").read_text())
    record.update(changes)
    return record


def table_file() -> bytes:
    """A table of one evening: a finished Boulmous at 2 € a game, a five-handed
    Pitch at 1 € a game, a Bombu by the point going on (the game on the TV)."""
    games = [
        _record("boulmous-with-stake", players=PEOPLE[:4], date=DAY),
        _record("pitch-five-handed", players=PEOPLE, stake="1", currency="EUR", date=DAY),
        _record(
            "bombu-first-manche",
            players=["Bruno", "Chloé", "Driss", "Anne-Charlotte"],
            stake="0.10",
            stake_per="point",
            date=DAY,
        ),
    ]
    table = {"format": "referee-table/1", "name": "Les cousins", "aliases": {}, "games": games}
    return json.dumps(table).encode()


def imported_table(page: Page, base: str) -> str:
    """The table file imported through its form: the table's editors' address."""
    page.goto(base + "/tables/import")
    page.set_input_files(
        "input[type=file]",
        {"name": "table.json", "mimeType": "application/json", "buffer": table_file()},
    )
    page.locator("form button").last.click()
    expect(page.locator("h1")).to_have_text("Les cousins")
    return page.url.split("?")[0]


def shoot(page: Page, name: str) -> None:
    """A picture of the page as it is (`make screenshots`: in docs/screenshots/)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"table-{name}.png"), full_page=name != "tv-1920")


#: Every element that hides part of its content sideways: wider inside than shown
#: (a visually-hidden 1 px helper excepted), or cut by an ellipsis.
HIDDEN_SIDEWAYS = """() => {
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.display === 'none' || el.closest('[hidden]')) continue;
    const box = el.getBoundingClientRect();
    if (box.width <= 1) continue;
    const cut = el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible';
    const clipped = el.scrollWidth > el.clientWidth + 1 && style.textOverflow === 'ellipsis';
    const outside = box.right > document.documentElement.clientWidth + 1 || box.left < -1;
    if (cut || clipped || outside) {
      const where = `[${Math.round(box.left)}, ${Math.round(box.right)}]`;
      found.push(`${el.tagName.toLowerCase()}.${el.className} ${el.scrollWidth}>${el.clientWidth} `
        + `${where} ${el.textContent.trim().slice(0, 30)}`);
    }
  }
  return found;
}"""


@pytest.mark.parametrize(("width", "height"), [(320, 640), (390, 844)])
def test_the_evening_hides_nothing_sideways_on_a_phone(
    browser: Browser, live_server: Server, width: int, height: int
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
    page, watch = watched(context, base)
    table = imported_table(page, base)
    for lang, balance in (("fr", "Soirée"), ("en", "Evening")):
        page.goto(f"{base}/lang/{lang}?next=/")
        for path in ("", f"/evening/{DAY}"):
            page.goto(table + path)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, path
            assert page.evaluate(HIDDEN_SIDEWAYS) == [], (lang, width, path)
            check(page, watch)
        # Every amount whole, each under its game's name, the evening's balance named.
        ledger = page.locator("table.evening-ledger")
        card = ledger.locator("tr", has=page.get_by_role("rowheader", name="Anne-Charlotte"))
        text = card.inner_text()
        assert re.search(r"\d+[,.]\d\d", card.locator("td", has_text=balance).inner_text())
        boulmous = card.locator("td", has_text="1. Boulmous").inner_text()
        assert re.search(r"14,00\u00a0€|€14\.00", boulmous), boulmous
        assert re.search(r"2\. (Pitch à 10 points|10-point Pitch)", text), text
        assert len(re.findall(r"\d+[,.]\d\d", text)) == 4  # three games and the evening
        # Each label shown left of its amount, on the card's one line.
        label = card.locator("td .for").first.bounding_box()
        cell = card.locator("td").first.bounding_box()
        assert label is not None
        assert cell is not None
        assert label["x"] <= cell["x"] + 1
        if (lang, width) in (("fr", 390), ("en", 320)):
            shoot(page, f"evening-{lang}-{width}")
    # The statistics' money chart: each game played for money numbered along the bottom.
    page.goto(table + "/statistics")
    assert page.locator("svg.chart text.label").all_text_contents() == ["1", "2", "3"]
    assert watch.errors == []
    assert watch.foreign == []
    context.close()


#: The computed sizes of the TV's parts, and how much of the width its content takes.
TV_SIZES = """() => {
  const px = (el) => parseFloat(getComputedStyle(el).fontSize);
  const all = (selector) => [...document.querySelectorAll(selector)];
  const scores = all('.tv-score'), names = all('.tv-name');
  const now = document.querySelector('.tv-now').getBoundingClientRect();
  const last = document.querySelector('.tv-last');
  return {
    scores: scores.map(px), names: names.map(px),
    span: now.width / document.documentElement.clientWidth,
    lastLines: Math.round(
      last.getBoundingClientRect().height / parseFloat(getComputedStyle(last).lineHeight)),
    lastCut: last.scrollWidth > last.clientWidth + 1,
    leaders: all('.tv-scores li.leader .tv-name').map((el) => el.textContent.trim()),
    pageWidth: document.documentElement.scrollWidth,
    top: Math.max(...scores.map((el) => el.getBoundingClientRect().bottom)),
    // The smallest type of any text shown in the game's block (a badge, a notice).
    smallest: Math.min(...all('.tv-now *').filter((el) =>
      el.getClientRects().length &&
      [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())).map(px)),
    bar: document.querySelector('header.bar').getClientRects().length,
  };
}"""


def test_the_tables_tv_reads_from_across_a_room_and_follows_the_game(
    browser: Browser, live_server: Server
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    editor = browser.new_context(**PHONE)
    phone, _watch = watched(editor, base)
    table = imported_table(phone, base)
    phone.goto(table + "/share")
    viewer = phone.locator("a[href*='/tv/']").first.get_attribute("href")
    assert viewer is not None
    tv_context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    tv, watch = watched(tv_context, base)
    tv.goto(viewer if viewer.startswith("http") else base + viewer)
    # The game being played: the Bombu (the evening's last game, going on).
    expect(tv.locator(".tv-title")).to_contain_text("Bombu")
    shoot(tv, "tv-1920")
    sizes = tv.evaluate(TV_SIZES)
    assert len(sizes["scores"]) == 4
    assert min(sizes["scores"]) >= 100, sizes
    assert min(sizes["names"]) >= 40, sizes
    assert sizes["span"] >= 0.9, sizes
    assert sizes["pageWidth"] <= 1920
    assert sizes["top"] <= 1080, sizes  # the scores on the screen, not below it
    assert sizes["smallest"] >= 28, sizes  # nothing in the game's block under 28 px
    assert sizes["bar"] == 0, sizes  # the site's bar is a phone's
    assert sizes["lastLines"] == 1, sizes
    assert not sizes["lastCut"], sizes
    # Bombu: the lowest score leads (Chloé, −30, as the example's first manche ends).
    assert sizes["leaders"] == ["Chloé"]
    # The evening's money, smaller, under the game.
    expect(tv.locator(".tv-money")).to_contain_text("Anne-Charlotte")
    money = tv.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.tv-money')).fontSize)"
    )
    assert 24 <= money < min(sizes["scores"])
    # A game started at the table from the phone: the TV shows it without a tap
    # (it polls the table's state), then goes back to the Bombu once it is removed.
    phone.goto(f"{table}".replace("/t/", "/new?game=boulmous&table="))
    csrf = phone.locator("input[name=csrf_token]").first.get_attribute("value")
    token = table.rsplit("/", 1)[1]
    form = {"csrf_token": csrf or "", "game": "boulmous", "first_dealer": "0", "currency": "EUR"}
    form.update({f"player{seat}": name for seat, name in enumerate(PEOPLE[:4])})
    made = phone.request.post(f"{base}/new?table={token}", form=form, max_redirects=0)
    assert made.status == 302, made.text()
    game = made.headers["location"]
    expect(tv.locator(".tv-title")).to_contain_text("Boulmous", timeout=5000)
    expect(tv.locator(".tv-scores li")).to_have_count(4)
    phone.goto(base + game + "/remove")
    phone.get_by_role("button", name="Oui, la supprimer").click()
    expect(tv.locator(".tv-title")).to_contain_text("Bombu", timeout=5000)
    tv_context.close()
    editor.close()
    assert watch.errors == []
    assert watch.foreign == []


def test_a_phone_opening_the_tv_link_sees_a_phone_page(
    browser: Browser, live_server: Server
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(**PHONE)
    page, watch = watched(context, base)
    table = imported_table(page, base)
    page.goto(table + "/share")
    viewer = page.locator("a[href*='/tv/']").first.get_attribute("href")
    assert viewer is not None
    page.goto(viewer if viewer.startswith("http") else base + viewer)
    sizes = page.evaluate(TV_SIZES)
    assert max(sizes["scores"]) <= 48, sizes
    assert sizes["pageWidth"] <= 390, sizes
    assert page.evaluate(HIDDEN_SIDEWAYS) == []
    check(page, watch)  # the phone's bars: weight, tap targets, contrast (axe)
    shoot(page, "tv-phone-390")
    context.close()
    assert watch.errors == []
    assert watch.foreign == []
