"""Tarot in a phone-sized Chromium (390×844, French and English): a plain deal at
three, four and five players from the scoreboard back to it, taps counted (the
taker-and-contract grid, the called king at five, the bouts, the points box,
Record), Record in view at every step; a deal with the defence's points and what
"More" folds (petit au bout, a poignée), and a deal everyone passed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import SCREENSHOTS
from tests.e2e.conftest import Watch
from tests.e2e.test_phone import check
from tests.e2e.test_table_loop import SCREEN, counted, no_swipe, reset, table

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")
__all__ = ["table"]  # the phone fixture, counting taps (tests/e2e/test_table_loop.py)

NAMES = ["Ana", "Bruno", "Chloé", "Driss", "Élise"]
MORE = {"fr": "Plus", "en": "More"}
PASSED = {"fr": "Tout le monde a passé", "en": "Everyone passed"}


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"tarot-{name}.png"), full_page=True)


def record_in_view(page: Page, words: dict[str, str]) -> None:
    box = page.get_by_role("button", name=words["record"]).bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= SCREEN, box


def imported(page: Page, base: str, tmp: Path, players: int) -> None:
    record = {"format": "referee-game/1", "game": "tarot", "players": NAMES[:players]}
    record.update({"first_dealer": 0, "rules": {}, "deals": []})
    path = tmp / "tarot.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.goto(base + "/import")
    page.set_input_files("input[type=file]", str(path))
    page.locator("form button").last.click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))


def deals_of(page: Page, url: str | None = None) -> list[dict[str, object]]:
    """The game's deals as its record has them (`url`: the scoreboard's)."""
    return list(page.request.get((url or page.url) + "/export.json").json()["deals"])


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_plain_deal_in_five_taps_six_at_five(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path, players: int
) -> None:
    """Enter deal, the grid's cell (Bruno, garde), [the king's holder], 2 bouts, the
    points box, Record: 5 taps, 6 at five, and the digits."""
    page, watch, base, words = table
    lang = words["lang"]
    imported(page, base, tmp_path, players)
    reset(page)
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    record_in_view(page, words)
    check(page, watch)
    page.locator("label[for=take_1_garde]").click()
    if players == 5:
        page.locator("label[for=partner_3]").click()
    page.locator("label[for=bouts_2]").click()
    page.locator("#points").click()
    page.keyboard.type("47" if players == 4 else "44,5")
    record_in_view(page, words)
    # The live preview: (25 + 6) × 2 = 62 a defender (44½ of 41: made by 4, 58).
    gain = {3: "+116", 4: "+186", 5: "+116"}[players]
    expect(page.locator(".deal-line")).to_contain_text(f"Bruno {gain}")
    shoot(page, f"deal-{players}-{lang}")
    page.get_by_role("button", name=words["record"]).click()
    no_swipe(page, words)
    assert counted(page) == (5 if players < 5 else 6, 2 if players == 4 else 3)
    points = 47 if players == 4 else 44.5
    expected: dict[str, object] = {"taker": 1, "contract": "garde", "bouts": 2, "points": points}
    if players == 5:
        expected = {"taker": 1, "contract": "garde", "partner": 3, "bouts": 2, "points": points}
    assert deals_of(page) == [expected]
    totals = page.locator(".totals")
    expect(totals).to_contain_text(gain.replace("+", "").replace("-", "\u2212"))
    shoot(page, f"scores-{players}-{lang}")
    check(page, watch)


def test_the_defence_s_points_more_and_everyone_passed(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    page, watch, base, words = table
    lang = words["lang"]
    imported(page, base, tmp_path, 4)
    scores = page.url
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    # Record on the empty form: nothing recorded, and the reason stays in view (the
    # live preview, asked as the page opens, does not wipe the server's reasons).
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_load_state("load")
    page.wait_for_timeout(1000)
    expect(page.locator(".deal-line .error")).to_be_visible()
    expect(page.locator(".take-grid .field-errors p.error")).to_be_visible()
    assert deals_of(page, scores) == []
    # A garde sans for Chloé: the defence counted 39, so she has 52; two bouts, the
    # petit lost at the end, a simple poignée: (25 + 11) × 4 − 40 + 20 = 124.
    page.locator("label[for=take_2_garde_sans]").click()
    page.locator("label[for=bouts_2]").click()
    page.locator("#defence").fill("39")
    page.locator("details.tarot-more > summary").click()
    page.locator("label[for=petit_defence]").click()
    page.locator("label[for=poignees1_1]").click()
    expect(page.locator(".deal-line")).to_contain_text("Chloé +372")
    shoot(page, f"more-{lang}")
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    assert deals_of(page)[-1] == {
        "taker": 2,
        "contract": "garde_sans",
        "bouts": 2,
        "points": 52,
        "petit_au_bout": "defence",
        "poignees": [1],
    }
    # Impossible points are refused in the players' words, nothing recorded.
    page.get_by_role("link", name=words["enter"]).click()
    page.locator("label[for=take_0_petite]").click()
    page.locator("label[for=bouts_3]").click()
    page.locator("#points").fill("12")
    expect(page.locator(".deal-line .error")).to_contain_text("12")
    page.get_by_role("button", name=words["record"]).click()
    expect(page.locator("main")).to_contain_text("3 bouts")  # "12 points cannot hold 3 bouts"
    page.wait_for_timeout(1000)  # still said once the page's own preview has answered
    expect(page.locator(".deal-line .error")).to_contain_text("12")
    assert len(deals_of(page, scores)) == 1
    # Everyone passed: one tap, and the next dealer deals.
    page.locator("label[for=take_passed]").click()
    expect(page.locator(".if-taken")).to_be_hidden()
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    assert deals_of(page)[-1] == {"taker": None}
    expect(page.locator("main")).to_contain_text(PASSED[lang])
    check(page, watch)
