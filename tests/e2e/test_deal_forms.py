"""A deal of each game from the scoreboard back to the scoreboard, in a phone-sized
Chromium (390×844, French and English): the taps counted against the targets of
"the table at first sight" (every count one tap per player, "the rest" for the last;
Bombu's contract on the same page as its counts), and the Record button in view
without scrolling, before the first tap and at each tap (the form's bar).

Taps are counted as in tests/e2e/test_table_loop.py: every trusted `pointerdown` and
every digit typed, from the scoreboard's "Enter deal" to Record included.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, Watch, watched
from tests.e2e.test_phone import check
from tests.e2e.test_table_loop import COUNTER, SCREEN, WORDS, counted, no_swipe, reset, start
from tests.server.conftest import Server

#: The targets: any single Bombu contract, the Salad, a Réussite (item 1).
SINGLE, SALAD, REUSSITE = 6, 13, 5

LINES = {
    "fr": {"passed": "Tout le monde a passé", "ends": "Cette donne termine la partie"},
    "en": {"passed": "Everyone passed", "ends": "This deal ends the game"},
}


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


def record_in_view(page: Page, words: dict[str, str]) -> None:
    """The Record button lies in the viewport as the page stands (no scrolling)."""
    box = page.get_by_role("button", name=words["record"]).bounding_box()
    assert box is not None
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= SCREEN, box


def enter(page: Page, words: dict[str, str]) -> None:
    """From the scoreboard: "Enter deal"; the form opens with Record in view."""
    reset(page)
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    assert page.evaluate("window.scrollY") == 0
    record_in_view(page, words)


def tap(page: Page, words: dict[str, str], *labels: str) -> None:
    """Tap each choice (a pill's label), Record staying in view at each tap."""
    for target in labels:
        page.locator(target).click()
        record_in_view(page, words)


def record(page: Page, words: dict[str, str], ends: bool = False) -> None:
    """Record; back on the scoreboard, at its top (the next deal's button in view,
    unless the deal ended the game)."""
    record_in_view(page, words)
    page.get_by_role("button", name=words["record"]).click()
    if ends:
        page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
        expect(page.locator(".totals")).to_be_visible()
    else:
        no_swipe(page, words)


def deals_of(page: Page) -> list[dict[str, object]]:
    deals: list[dict[str, object]] = page.request.get(page.url + "/export.json").json()["deals"]
    return deals


def pill(name: str, seat: int, n: int) -> str:
    """A count's pill: Bombu's hold their input (no id), Boulmous' are labels for one."""
    return f"label:has(> input[name={name}{seat}][value='{n}']), label[for={name}{seat}_{n}]"


def pills(name: str, counts: list[int]) -> list[str]:
    return [pill(name, seat, n) for seat, n in enumerate(counts)]


#: A Bombu manche's first five deals: the Réussite is the one left.
FIVE: list[dict[str, object]] = [
    {"contract": "no-tricks", "tricks": [2, 1, 3, 2]},
    {"contract": "no-hearts", "hearts": [1, 3, 0, 4]},
    {"contract": "no-queens", "queens": [1, 0, 2, 1]},
    {"contract": "no-bombu", "bombu": 0},
    {
        "contract": "salad",
        "tricks": [3, 2, 1, 2],
        "hearts": [2, 3, 1, 2],
        "queens": [1, 1, 0, 2],
        "bombu": 1,
    },
]


def imported(
    page: Page, base: str, game: str, players: list[str], deals: list[dict[str, object]]
) -> str:
    """A game imported with its deals already played: its address."""
    record = {"format": "referee-game/1", "game": game, "players": players}
    record.update({"first_dealer": 0, "rules": {}, "deals": deals})
    html = page.request.get(base + "/import").text()
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token is not None
    response = page.request.post(
        base + "/import",
        multipart={
            "csrf_token": token.group(1),
            "record": {
                "name": "game.json",
                "mimeType": "application/json",
                "buffer": json.dumps(record).encode(),
            },
        },
        max_redirects=0,
    )
    assert response.status == 302, response.text()
    return base + response.headers["location"]


def test_bombu_every_contract_within_its_taps(
    table: tuple[Page, Watch, str, dict[str, str]],
) -> None:
    page, watch, base, words = table
    start(page, base, words, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    # No tricks 3/3/2/0: the fourth is the rest.
    enter(page, words)
    tap(page, words, "label[for=contract_no-tricks]", *pills("tricks", [3, 3, 2]))
    expect(page.locator(pill("tricks", 3, 0))).to_have_class("auto")
    check(page, watch)
    record(page, words)
    assert counted(page) == (6, 0)
    assert counted(page)[0] <= SINGLE
    # No hearts, all 8 to one player: one tap; the others are 0.
    enter(page, words)
    tap(page, words, "label[for=contract_no-hearts]", pill("hearts", 1, 8))
    expect(page.locator(pill("hearts", 0, 0))).to_have_class("auto")
    record(page, words)
    assert counted(page) == (4, 0)  # was 11 taps on "+" (issue, item 1)
    # No queens 1/1/1/1 (the most a single contract asks).
    enter(page, words)
    tap(page, words, "label[for=contract_no-queens]", *pills("queens", [1, 1, 1]))
    record(page, words)
    assert counted(page)[0] <= SINGLE
    # No Bombu: who took the K♥.
    enter(page, words)
    tap(page, words, "label[for=contract_no-bombu]", "label[for=bombu_2]")
    record(page, words)
    assert counted(page) == (4, 0)
    # The Salad: tricks, hearts, queens (the fourth of each the rest) and the K♥.
    enter(page, words)
    tap(page, words, "label[for=contract_salad]")
    tap(page, words, *pills("tricks", [2, 3, 1]), *pills("hearts", [2, 3, 0]))
    tap(page, words, *pills("queens", [1, 2, 0]), "label[for=bombu_3]")
    check(page, watch)
    record(page, words)
    assert counted(page) == (13, 0)
    assert counted(page)[0] <= SALAD
    # The Réussite, the manche's last contract: chosen by itself; two places.
    enter(page, words)
    expect(page.locator("#contract_reussite")).to_be_checked()
    tap(page, words, "label[for=finish0_2]", "label[for=finish1_0]")
    record(page, words)
    assert counted(page)[0] <= REUSSITE
    deals = deals_of(page)
    assert [d["contract"] for d in deals] == [
        "no-tricks", "no-hearts", "no-queens", "no-bombu", "salad", "reussite",
    ]  # fmt: skip
    assert deals[0]["tricks"] == [3, 3, 2, 0]
    assert deals[1]["hearts"] == [0, 8, 0, 0]
    assert deals[2]["queens"] == [1, 1, 1, 1]
    assert (deals[4]["hearts"], deals[4]["queens"]) == ([2, 3, 0, 3], [1, 2, 0, 1])
    assert deals[5]["finish"][:2] == [2, 0]


def test_bombu_the_last_contract_tapped_again_stays(
    table: tuple[Page, Watch, str, dict[str, str]],
) -> None:
    """The manche's last contract comes chosen; tapped again out of habit, it stays
    chosen and its fields stay shown (any other chosen pill is still taken back)."""
    page, watch, base, words = table
    game = imported(page, base, "bombu", ["Marius", "Fanny", "César", "Honorine"], FIVE)
    page.goto(game + "/deal")
    expect(page.locator("#contract_reussite")).to_be_checked()
    page.locator("label[for=contract_reussite]").click()
    expect(page.locator("#contract_reussite")).to_be_checked()
    expect(page.locator("label[for=finish0_2]")).to_be_visible()
    page.locator("label[for=finish0_2]").click()
    page.locator("label[for=finish0_2]").click()  # a choice among others: taken back
    expect(page.locator("#finish0_2")).not_to_be_checked()
    tap(page, words, "label[for=finish0_2]", "label[for=finish1_0]")
    check(page, watch)
    page.get_by_role("button", name=words["record"]).click()
    page.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))
    assert deals_of(page)[5]["finish"][:2] == [2, 0]


def test_bombu_a_reussite_chosen_in_five_taps(
    table: tuple[Page, Watch, str, dict[str, str]],
) -> None:
    """A Réussite chosen among the six: contract, first and second out, Record."""
    page, watch, base, words = table
    start(page, base, words, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    enter(page, words)
    tap(page, words, "label[for=contract_reussite]", "label[for=finish0_1]", "label[for=finish1_3]")
    check(page, watch)
    record(page, words)
    assert counted(page) == (5, 0)
    assert counted(page)[0] <= REUSSITE
    assert deals_of(page)[0]["finish"][:2] == [1, 3]


def test_boulmous_a_deal_and_everyone_passed(
    table: tuple[Page, Watch, str, dict[str, str]],
) -> None:
    page, watch, base, words = table
    lines = LINES[words["lang"]]
    start(page, base, words, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    # Everyone passed: a choice of the grid, shown in the preview, recorded with Record.
    enter(page, words)
    tap(page, words, "label[for=take_passed]")
    expect(page.locator(".deal-line")).to_contain_text(lines["passed"])
    expect(page.locator("label[for=contract_spades]")).to_be_hidden()  # nothing more to enter
    record(page, words)
    assert counted(page) == (3, 0)
    # A deal: taker × bid, trump, three rows of tricks (the fourth the rest).
    enter(page, words)
    tap(
        page,
        words,
        "label[for=take_1_4]",
        "label[for=contract_spades]",
        *pills("tricks", [1, 4, 1]),
    )
    expect(page.locator(".deal-line")).to_contain_text("Bruno +4")
    check(page, watch)
    record(page, words)
    assert counted(page) == (7, 0)
    assert deals_of(page) == [
        {"passed": True},
        {"taker": 1, "bid": 4, "contract": "spades", "tricks": [1, 4, 1, 0]},
    ]


def above_the_bar(page: Page, first: str, last: str) -> None:
    """From `first` to `last`, the whole form lies above the bar, on the first screen."""
    bar = page.locator(".deal-bar").bounding_box()
    top = page.locator(first).bounding_box()
    bottom = page.locator(last).bounding_box()
    assert bar is not None
    assert top is not None
    assert bottom is not None
    assert top["y"] >= 0
    assert bottom["y"] + bottom["height"] <= bar["y"], (bottom, bar)


def test_boulmous_and_pitch_forms_fit_one_screen(
    table: tuple[Page, Watch, str, dict[str, str]],
) -> None:
    """At 390×844: Boulmous' taker grid, trumps and everyone's tricks, and four-handed
    Pitch's bids, trumps and whole grid ("the rest" included) are above the bar:
    the deal is entered without scrolling."""
    page, _watch, base, words = table
    start(page, base, words, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    enter(page, words)
    above_the_bar(page, "label[for=take_0_3]", "label[for=tricks3_6]")
    start(page, base, words, "pitch", ["Dale", "Rhonda", "Earl", "Peggy"])
    enter(page, words)
    above_the_bar(page, "label[for=bid_4]", "tr.rest")


def test_pitch_a_hand_and_the_end_in_the_preview(
    table: tuple[Page, Watch, str, dict[str, str]],
) -> None:
    page, watch, base, words = table
    lines = LINES[words["lang"]]
    page.goto(base + "/new?game=pitch")
    for seat, name in enumerate(["Dale", "Rhonda", "Earl", "Peggy"]):
        page.fill(f"#player{seat}", name)
    page.locator("details.more-options > summary").click()  # the rarer options, folded
    page.fill("#rule_target", "5")
    page.get_by_role("button", name=words["start"]).click()
    enter(page, words)
    tap(
        page,
        words,
        "label:has(input[name=bidder][value='1'])",
        "label[for=bid_5]",
        "label[for=trump_hearts]",
    )
    tap(page, words, "label:has(input[name=p_ace][value='0'])")
    page.locator("button[name=rest][value='1']").click()
    record_in_view(page, words)
    # The preview speaks per team, and says the hand ends the game (before Record).
    expect(page.locator(".deal-line")).to_contain_text("Rhonda & Peggy +5")
    expect(page.locator(".deal-ends")).to_contain_text(lines["ends"])
    expect(page.locator(".deal-ends")).to_contain_text("Rhonda & Peggy")
    check(page, watch)
    record(page, words, ends=True)
    assert counted(page) == (7, 0)


#: Elements whose content is cut: wider or taller inside than their box, text clipped.
CUT = """(selector) => Array.from(document.querySelectorAll(selector))
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.textContent.trim())"""
#: Pairs of boxes that overlap among the elements of a selector.
OVERLAPS = """(selector) => {
  const boxes = Array.from(document.querySelectorAll(selector))
    .map((el) => el.getBoundingClientRect());
  const found = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
    if (a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      found.push([i, i + 1 + j]);
  }));
  return found;
}"""


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_forms_at_320_px_cut_nothing(browser: Browser, live_server: Server, lang: str) -> None:
    """At 320×640: the Pitch grid's names whole (not "Br…"), its buttons apart; Bombu's
    and Boulmous' pills and names in the width; nothing scrolls sideways."""
    base = f"http://127.0.0.1:{live_server.port}"
    small = {**PHONE, "viewport": {"width": 320, "height": 640}}
    context = browser.new_context(**{**small, "locale": "fr-FR" if lang == "fr" else "en-US"})
    page, watch = watched(context, base)
    words = WORDS[lang]
    start(page, base, words, "pitch", ["Dale", "Bruno", "Chloé", "Rhonda", "Walt"])
    page.get_by_role("link", name=words["enter"]).click()
    # Measured once the page and its fonts are in (a loaded machine showed the grid
    # in the fallback font, its names wider, for a moment).
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")
    assert page.evaluate(CUT, "table.points thead th, table.points th[scope=row]") == []
    assert page.evaluate(OVERLAPS, "table.points tr.rest button") == []
    assert page.evaluate(OVERLAPS, "table.points tr.point:first-of-type label") == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    start(page, base, words, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    page.get_by_role("link", name=words["enter"]).click()
    page.locator("label[for=contract_salad]").click()
    assert page.evaluate(CUT, ".pill-count .label, .pills label") == []
    # Each name on one line beside its pills (not broken letter by letter).
    heights = page.evaluate(
        "Array.from(document.querySelectorAll('.grid5 .pill-count .label'))"
        ".filter((l) => l.offsetParent).map((l) => l.getBoundingClientRect().height)"
    )
    assert heights
    assert max(heights) < 30, heights
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    start(page, base, words, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    page.get_by_role("link", name=words["enter"]).click()
    tops = page.evaluate(
        "Array.from(document.querySelectorAll('.pill-count')[0].querySelectorAll('.pills label'))"
        ".map((l) => Math.round(l.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops  # 0 to 6 in one row
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_record_on_one_line_in_a_compact_bar_at_320_px(
    browser: Browser, live_server: Server, lang: str
) -> None:
    """At 320×640, "Record the deal" holds on one line (it wrapped on two), and the
    sticky bar (the deal's line, Preview, Record) takes an eighth of the screen at
    most (it took a sixth, a quarter with its second line)."""
    base = f"http://127.0.0.1:{live_server.port}"
    small = {**PHONE, "viewport": {"width": 320, "height": 640}}
    context = browser.new_context(**{**small, "locale": "fr-FR" if lang == "fr" else "en-US"})
    page, watch = watched(context, base)
    words = WORDS[lang]
    start(page, base, words, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    page.get_by_role("link", name=words["enter"]).click()
    page.wait_for_load_state("load")
    page.evaluate("document.fonts.ready.then(() => true)")
    record = page.get_by_role("button", name=words["record"])
    lines = record.evaluate(
        """(b) => { const r = document.createRange(); r.selectNodeContents(b);
          return new Set(Array.from(r.getClientRects()).map((c) => Math.round(c.top))).size; }"""
    )
    assert lines == 1, lines
    box = record.bounding_box()
    assert box is not None
    assert box["height"] <= 50, box
    bar = page.locator(".deal-bar").bounding_box()
    assert bar is not None
    assert bar["height"] <= 640 / 8, bar
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert watch.errors == []
    context.close()
