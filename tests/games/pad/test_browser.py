"""The score pad in a phone-sized Chromium (390×844, French and English): a zero-sum
deal from the scoreboard back to it, taps counted (a box per player, "±" for the
minus, the last box left to "the rest"), Record in view at every step; and a table
of twelve whose every box lies above the Record bar."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.conftest import SCREENSHOTS
from tests.e2e.conftest import PHONE, Watch, watched
from tests.e2e.test_phone import check
from tests.e2e.test_table_loop import COUNTER, SCREEN, WORDS, counted, no_swipe, reset
from tests.server.conftest import Server

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

TWELVE = ["Ana", "Bruno", "Chloé", "Driss", "Élise", "Farid"]
TWELVE += ["Gaspard", "Hugo", "Inès", "Jules", "Karim", "Léa"]
LAST = {"fr": "C’est la dernière donne", "en": "This is the last deal"}
REST = {"fr": "le reste", "en": "the rest"}


@pytest.fixture(params=["fr", "en"])
def table(
    request: pytest.FixtureRequest, browser: Browser, live_server: Server
) -> Iterator[tuple[Page, Watch, str, dict[str, str]]]:
    lang = request.param
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(**{**PHONE, "locale": "fr-FR" if lang == "fr" else "en-US"})
    context.add_init_script(COUNTER)
    page, watch = watched(context, base)
    yield page, watch, base, WORDS[lang]
    context.close()


def shoot(page: Page, name: str) -> None:
    """A picture of the page as it is (`make screenshots`: in docs/screenshots/)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"pad-{name}.png"), full_page=True)


def record_in_view(page: Page, words: dict[str, str]) -> None:
    box = page.get_by_role("button", name=words["record"]).bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= SCREEN, box


def imported(page: Page, base: str, tmp: Path, names: list[str], rules: dict[str, object]) -> None:
    """A new game from a record file, through the import page."""
    record = {"format": "referee-game/1", "game": "pad", "players": names, "first_dealer": 0}
    record.update({"rules": rules, "deals": []})
    path = tmp / "pad.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.goto(base + "/import")
    page.set_input_files("input[type=file]", str(path))
    page.locator("form button").last.click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))


def test_a_zero_sum_deal_in_five_taps(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    page, watch, base, words = table
    lang = words["lang"]
    imported(page, base, tmp_path, ["Ana", "Bruno", "Chloé"], {"zero_sum": True})
    reset(page)
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    record_in_view(page, words)
    check(page, watch)
    assert page.locator("#points2").get_attribute("placeholder") == REST[lang]
    page.get_by_text("Ana", exact=True).click()  # the name opens its box (and the keypad)
    expect(page.locator("#points0")).to_be_focused()
    page.keyboard.type("12")
    page.locator("#points1").click()
    page.keyboard.type("5")
    record_in_view(page, words)
    page.locator("button[name=flip][value='1']").click()  # ±: no minus on the keypad
    page.wait_for_load_state("load")
    expect(page.locator("#points1")).to_have_value("-5")
    record_in_view(page, words)
    # The live preview: the last box left empty takes the rest.
    expect(page.locator(".deal-line")).to_contain_text("Chloé \u22127")
    shoot(page, f"deal-{lang}")
    page.get_by_role("button", name=words["record"]).click()
    no_swipe(page, words)
    assert counted(page) == (5, 3)  # Enter deal, Ana, Bruno's box, ±, Record; 1 2 5
    deals = page.request.get(page.url + "/export.json").json()["deals"]
    assert deals == [{"points": [12, -5, None]}]

    # The last deal, ticked: the game is over.
    page.get_by_role("link", name=words["enter"]).click()
    page.locator("#points0").fill("-3")
    page.locator("#points1").fill("1")
    page.get_by_text(LAST[lang]).click()
    record_in_view(page, words)
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    expect(page.locator(".totals")).to_be_visible()
    assert page.get_by_role("link", name=words["enter"]).count() == 0
    shoot(page, f"finished-{lang}")
    check(page, watch)


def test_twelve_players_fit_above_the_record_bar(
    table: tuple[Page, Watch, str, dict[str, str]],
) -> None:
    page, watch, base, words = table
    # Started from the new-game form: six seats at hand, the other six folded.
    page.goto(base + "/new?game=pad")
    for seat, name in enumerate(TWELVE[:6]):
        page.locator(f"#player{seat}").fill(name)
    assert not page.locator("#player6").is_visible()
    page.locator("details.more-seats > summary").click()
    for seat, name in enumerate(TWELVE[6:], start=6):
        page.locator(f"#player{seat}").fill(name)
    page.locator("form.new-game button.start").click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    names = page.request.get(page.url + "/export.json").json()["players"]
    assert names == TWELVE
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    record_in_view(page, words)
    bar = page.locator(".deal-bar").bounding_box()
    last = page.locator("#points11").bounding_box()
    assert bar is not None
    assert last is not None
    assert last["y"] + last["height"] <= bar["y"], (last, bar)
    shoot(page, f"twelve-{words['lang']}")
    check(page, watch)


def test_the_bar_says_why_a_deal_is_refused(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    """Every box filled but not adding up to zero: the bar, always in view, says the
    reason (the panel with it may be under the bar on a small phone)."""
    page, watch, base, words = table
    imported(page, base, tmp_path, ["Ana", "Bruno", "Chloé"], {"zero_sum": True})
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    for row, points in enumerate(("12", "5", "3")):
        page.locator(f"#points{row}").fill(points)
    reason = page.locator(".deal-line .error")
    expect(reason).to_contain_text("20")  # "The points add up to 20, not 0"
    box = reason.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= SCREEN
    page.locator("#points2").fill("-17")
    expect(page.locator(".deal-line")).to_contain_text("Chloé \u221217")
    expect(reason).to_have_count(0)
    check(page, watch)


def test_a_minus_pasted_from_the_scores_is_kept(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    """A "−10" pasted (the app's own minus, U+2212) keeps its sign, and letters typed
    by mistake are refused with their reason, not dropped to an empty box."""
    page, watch, base, words = table
    imported(page, base, tmp_path, ["Ana", "Bruno", "Chloé"], {})
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    page.locator("#points0").fill("\u221210")
    page.locator("#points1").fill("+4")
    page.locator("#points2").fill("abc")
    expect(page.locator(".deal-line .error")).to_contain_text("abc")
    page.locator("#points2").fill("6")
    expect(page.locator(".deal-line")).to_contain_text("Ana \u221210")
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    deals = page.request.get(page.url + "/export.json").json()["deals"]
    assert deals == [{"points": [-10, 4, 6]}]
    check(page, watch)


LOADS = """
if (performance.getEntriesByType("navigation").length)
  sessionStorage.setItem("loads", String(Number(sessionStorage.getItem("loads") || 0) + 1));
"""


def test_a_five_player_tarot_deal_with_three_losers_and_one_load(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    """The issue's tarot at five: the taker +150, his partner +75, three defenders at
    −75, the last one left to the rest. Each "±" works in the page, the box keeps
    the focus (the phone's keypad stays open: the digits typed next land in it), and
    the only page load is Record's: 8 taps from the scoreboard back to it."""
    page, watch, base, words = table
    names = ["Ana", "Bruno", "Chloé", "Driss", "Émile"]
    imported(page, base, tmp_path, names, {"zero_sum": True})
    page.context.add_init_script(LOADS)
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    reset(page)
    page.evaluate("sessionStorage.setItem('loads', '0')")
    page.get_by_text("Ana", exact=True).click()
    page.keyboard.type("150")
    page.locator("#points1").click()
    page.keyboard.type("75")
    page.locator("#points2").click()
    page.locator("button[name=flip][value='2']").click()  # the sign first, then digits
    expect(page.locator("#points2")).to_be_focused()
    page.keyboard.type("75")
    page.locator("#points3").click()
    page.keyboard.type("75")
    page.locator("button[name=flip][value='3']").click()  # or the digits, then the sign
    expect(page.locator("#points3")).to_be_focused()
    expect(page.locator("#points2")).to_have_value("-75")
    expect(page.locator("#points3")).to_have_value("-75")
    # The rest, shown as the others are typed, and said by the live preview.
    expect(page.locator("#points4")).to_have_attribute("placeholder", "= \u221275")
    expect(page.locator(".deal-line")).to_contain_text("Émile \u221275")
    assert page.evaluate("Number(sessionStorage.getItem('loads') || 0)") == 0
    shoot(page, f"tarot-five-{words['lang']}")
    page.get_by_role("button", name=words["record"]).click()
    no_swipe(page, words)
    assert page.evaluate("Number(sessionStorage.getItem('loads') || 0)") == 1
    taps, digits = counted(page)
    assert (taps, digits) == (7, 9)  # Ana, 3 boxes, 2 ±, Record; 150 75 75 75
    deals = page.request.get(page.url + "/export.json").json()["deals"]
    assert deals == [{"points": [150, 75, -75, -75, None]}]
    check(page, watch)


def test_a_belote_deal_takes_the_rest_of_162(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    """Two teams with a deal's total of 162: the other team's box is the rest; "= the
    rest" fills it in the page; a capot's 252 is typed as is."""
    page, watch, base, words = table
    names = ["Ana", "Bruno", "Chloé", "Driss"]
    imported(page, base, tmp_path, names, {"teams": 2, "total": 162})
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    page.locator("#points0").fill("92")
    expect(page.locator("#points1")).to_have_attribute("placeholder", "= 70")
    page.locator("button[name=rest]").click()
    expect(page.locator("#points1")).to_have_value("70")
    # Tapped, the rest follows the other box as it is corrected.
    page.locator("#points0").fill("90")
    expect(page.locator("#points1")).to_have_value("72")
    page.locator("#points0").fill("92")
    expect(page.locator("#points1")).to_have_value("70")
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    page.locator("#points0").fill("252")
    page.locator("#points1").fill("0")
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    deals = page.request.get(page.url + "/export.json").json()["deals"]
    assert deals == [{"points": [92, 70]}, {"points": [252, 0]}]
    check(page, watch)


def test_an_open_form_is_told_when_another_phone_records_its_deal(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path, browser: Browser
) -> None:
    """Two phones on deal 1: the second records it; the first, still typing, is told
    (pinned at the top) without a tap, its entries kept."""
    page, watch, base, words = table
    imported(page, base, tmp_path, ["Ana", "Bruno", "Chloé"], {"zero_sum": True})
    game = page.url
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    page.locator("#points0").fill("7")
    notice = page.locator(".recorded-elsewhere")
    expect(notice).to_be_hidden()
    other = browser.new_context(**PHONE).new_page()
    other.goto(game + "/deal")
    other.locator("#points0").fill("4")
    other.locator("#points1").fill("-4")
    other.locator("form.deal-form button.primary").click()
    other.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    expect(notice).to_be_visible(timeout=10_000)
    said = {"en": "another phone recorded this deal", "fr": "un autre téléphone a enregistré"}
    expect(notice).to_contain_text(said[words["lang"]])
    expect(page.locator("#points0")).to_have_value("7")
    box = notice.bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + box["height"] <= SCREEN
    shoot(page, f"recorded-elsewhere-{words['lang']}")
    other.context.close()
    check(page, watch)


def test_a_deal_kept_offline_is_not_said_recorded_by_another_phone(
    table: tuple[Page, Watch, str, dict[str, str]], tmp_path: Path
) -> None:
    """Recorded with the network cut, then sent when it is back: this phone's own
    deal, not another's; the form (now for the next deal) says nothing."""
    page, _watch, base, words = table
    imported(page, base, tmp_path, ["Ana", "Bruno", "Chloé"], {"zero_sum": True})
    game = page.url
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    page.context.set_offline(True)
    page.locator("#points0").fill("40")
    page.locator("#points1").fill("-40")
    page.get_by_role("button", name=words["record"]).click()
    expect(page.locator(".waiting")).to_be_visible()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator(".waiting")).to_have_count(0, timeout=15_000)
    deals = page.request.get(game + "/export.json").json()["deals"]
    assert deals == [{"points": [40, -40, None]}]
    page.wait_for_timeout(4_000)  # past the form's next look at the game (every 3 s)
    expect(page.locator(".recorded-elsewhere")).to_be_hidden()
