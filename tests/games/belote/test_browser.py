"""Belote and coinche in a phone-sized Chromium (390×844, French and English): one
deal of each kind from the scoreboard back to it, taps counted (Enter deal, the
taker, the trump, at coinche the bid and its coinche, the points box or the capot,
Record), Record in view: made with the belote, dedans, a capot, a litige, a
coinche made and a coinché one failed; the announcements under "More"."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import SCREENSHOTS
from tests.e2e.conftest import Watch
from tests.e2e.test_phone import check
from tests.e2e.test_table_loop import SCREEN, counted, no_swipe, reset, table

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")
__all__ = ["table"]  # the phone fixture, counting taps (tests/e2e/test_table_loop.py)

NAMES = ["Ana", "Bruno", "Chloé", "Driss"]


def shoot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"belote-{name}.png"), full_page=True)


def imported(page: Page, base: str, tmp: Path, rules: dict[str, Any]) -> None:
    record = {"format": "referee-game/1", "game": "belote", "players": NAMES}
    record.update({"first_dealer": 0, "rules": rules, "deals": []})
    path = tmp / "belote.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.goto(base + "/import")
    page.set_input_files("input[type=file]", str(path))
    page.locator("form button").last.click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))


def deals_of(page: Page) -> list[dict[str, object]]:
    return list(page.request.get(page.url + "/export.json").json()["deals"])


def record_in_view(page: Page, words: dict[str, str]) -> None:
    box = page.get_by_role("button", name=words["record"]).bounding_box()
    assert box is not None
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= SCREEN, box


def one_deal(
    page: Page,
    words: dict[str, str],
    taps: list[str],
    digits: str,
    line: str,
    **more: str,
) -> tuple[int, int]:
    """From the scoreboard: Enter deal, each label tapped, the digits typed in the
    taking side's box (when any), the live line checked, Record; the taps counted."""
    reset(page)
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    for label in taps:
        page.locator(f"label[for={label}]").click()
    if digits:
        page.locator("#points").click()
        page.keyboard.type(digits)
    if more.get("shot"):
        shoot(page, more["shot"])
    expect(page.locator(".deal-line")).to_contain_text(line)
    record_in_view(page, words)
    page.get_by_role("button", name=words["record"]).click()
    no_swipe(page, words)
    return counted(page)


def test_belote_made_dedans_capot_and_litige_in_five_taps(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    page, watch, base, words = table
    lang = words["lang"]
    imported(page, base, tmp_path, {})
    check(page, watch)
    # Made: Bruno takes at hearts, 97 and the belote: 117 to Bruno & Driss, 65.
    taps = ["take_1", "trump_hearts", "belote_taker"]
    assert one_deal(page, words, taps, "97", "Bruno & Driss +117", shot=f"made-{lang}") == (6, 2)
    # Dedans: Ana at spades with 70: the defence scores 162.
    assert one_deal(page, words, ["take_0", "trump_spades"], "70", "Bruno & Driss +162") == (5, 2)
    # A capot: Chloé at diamonds takes every trick, no digits: 252.
    assert one_deal(
        page, words, ["take_2", "trump_diamonds", "capot_taker"], "", "Ana & Chloé +252"
    ) == (5, 0)
    # A litige: Driss at clubs, 81 each: the defence scores its 81, his wait.
    assert one_deal(page, words, ["take_3", "trump_clubs"], "81", "Ana & Chloé +81") == (5, 2)
    assert deals_of(page) == [
        {"taker": 1, "trump": "hearts", "points": 97, "belote": "taker"},
        {"taker": 0, "trump": "spades", "points": 70},
        {"taker": 2, "trump": "diamonds", "points": 162, "capot": "taker"},
        {"taker": 3, "trump": "clubs", "points": 81},
    ]
    # 65 + 0 + 252 + 81 for Ana & Chloé; 117 + 162 for Bruno & Driss (81 waiting).
    expect(page.locator(".totals")).to_contain_text("398")
    expect(page.locator(".totals")).to_contain_text("279")
    shoot(page, f"scores-{lang}")
    check(page, watch)
    # The next deal's winner takes the litige's 81: Bruno, at hearts with a tierce
    # (under "More") and 100.
    reset(page)
    page.get_by_role("link", name=words["enter"]).click()
    page.locator("label[for=take_1]").click()
    page.locator("label[for=trump_hearts]").click()
    page.locator("#defence").fill("62")
    page.locator("details.belote-more > summary").click()
    page.locator("label:has(input[name=announces_t_tierce][value='1'])").click()
    expect(page.locator(".deal-line")).to_contain_text("Bruno & Driss +201")  # 100 + 20 + 81
    shoot(page, f"more-{lang}")
    check(page, watch)
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    assert deals_of(page)[-1] == {
        "taker": 1,
        "trump": "hearts",
        "points": 100,
        "announces": {"taker": ["tierce"]},
    }


def test_coinche_made_and_coinched_failed(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    page, watch, base, words = table
    lang = words["lang"]
    imported(page, base, tmp_path, {"variant": "coinche"})
    # Made: Bruno bids 100 at hearts and takes 110: 210 to his side, 52.
    taps = ["take_1", "trump_hearts", "bid_100"]
    assert one_deal(page, words, taps, "110", "Bruno & Driss +210", shot=f"coinche-{lang}") == (
        6,
        3,
    )
    # Failed, coinché: Ana bids 120 at spades, coinché, 90: (160 + 120) × 2 = 560.
    taps = ["take_0", "trump_spades", "bid_120", "coinche_coinche"]
    assert one_deal(page, words, taps, "90", "Bruno & Driss +560") == (7, 2)
    assert deals_of(page) == [
        {"taker": 1, "trump": "hearts", "bid": 100, "points": 110},
        {"taker": 0, "trump": "spades", "bid": 120, "coinche": "coinche", "points": 90},
    ]
    expect(page.locator(".totals")).to_contain_text("770")
    shoot(page, f"coinche-scores-{lang}")
    check(page, watch)
    # A refusal in the players' words: a bid of 150 with 161 points.
    page.get_by_role("link", name=words["enter"]).click()
    page.locator("label[for=take_2]").click()
    page.locator("label[for=trump_clubs]").click()
    page.locator("label[for=bid_150]").click()
    page.locator("#points").fill("161")
    expect(page.locator(".deal-line .error")).to_contain_text("161")
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_timeout(500)
    expect(page.locator(".deal-line .error")).to_contain_text("161")
    check(page, watch)


def test_a_belote_deal_entered_offline_is_sent_once_and_a_second_phone_sees_it(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    """The network cut under the deal form: the deal is kept on the phone, its line
    says it in the game's words, and it is recorded once when the network is back;
    a second phone on the same game then shows it."""
    page, watch, base, words = table
    lang = words["lang"]
    imported(page, base, tmp_path, {})
    scores = page.url
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_function("() => window.refereeQueue === true")
    page.context.set_offline(True)
    page.locator("label[for=take_2]").click()
    page.locator("label[for=trump_spades]").click()
    page.locator("#defence").fill("52")
    page.locator("label[for=belote_taker]").click()
    page.get_by_role("button", name=words["record"]).click()
    waiting = page.locator(".waiting")
    expect(waiting).to_contain_text("Chloé")
    shoot(page, f"offline-{lang}")
    assert page.request.get(scores + "/export.json").json()["deals"] == []
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator(".waiting")).to_have_count(0, timeout=10000)
    deals = page.request.get(scores + "/export.json").json()["deals"]
    assert deals == [{"taker": 2, "trump": "spades", "points": 110, "belote": "taker"}]
    other = page.context.browser.new_context(viewport={"width": 390, "height": 844})  # type: ignore[union-attr]
    second = other.new_page()
    second.goto(f"{base}/lang/{lang}?next={scores.removeprefix(base)}")
    expect(second.locator(".totals")).to_contain_text("130")  # 110 and the belote
    expect(second.locator(".totals")).to_contain_text("52")
    other.close()
    assert [e for e in watch.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []
