"""The first visit on a phone (issue 20, item 12), in French and English: the home
page shows every game's picture and opens a sample game; the new-game form
keeps Start in view, without scrolling, once four names are typed."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from referee.games import PACKAGES
from tests.conftest import SCREENSHOTS
from tests.e2e.conftest import Watch

WORDS = {
    "fr": {"new": "Nouvelle partie", "sample": "Voir un exemple", "start": "Commencer"},
    "en": {"new": "New game", "sample": "See a sample game", "start": "Start the game"},
}
NAMES = ["Ana", "Bruno", "Chloé", "David"]


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def in_view(page: Page, selector: str) -> bool:
    """Whether the whole element is inside the screen, the page not scrolled."""
    return bool(
        page.evaluate(
            """(selector) => {
              const box = document.querySelector(selector).getBoundingClientRect();
              return window.scrollY === 0 && box.top >= 0 && box.bottom <= window.innerHeight
                && box.height > 0;
            }""",
            selector,
        )
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_home_shows_every_game_and_opens_a_sample(
    phone: tuple[Page, Watch, str], lang: str
) -> None:
    page, watch, base = phone
    page.goto(f"{base}/lang/{lang}?next=/")
    pictures = page.locator("ul.kinds img")
    games = len(PACKAGES)  # Boulmous, Bombu, Pitch, tarot, the score pad
    expect(pictures).to_have_count(games)
    for index in range(games):
        picture = pictures.nth(index)
        expect(picture).to_be_visible()
        # Loaded and drawn (a missing file has no natural size).
        assert picture.evaluate("(img) => img.complete && img.naturalWidth > 0")
        assert picture.bounding_box()["width"] >= 60  # type: ignore[index]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # The games come first: each one's Play in view at once, before the other actions
    # (a new table, the imports, a concours, a season), which are further down.
    plays = page.locator("ul.kinds a.button.primary")
    expect(plays).to_have_count(games)
    for index in range(games):
        selector = f"ul.kinds li:nth-child({index + 1}) a.button.primary"
        bottom = page.evaluate(
            "(s) => document.querySelector(s).getBoundingClientRect().bottom", selector
        )
        assert in_view(page, selector), (index, bottom)
    assert page.locator("a.button.primary").count() == games  # the games' Play alone
    assert page.evaluate(
        """() => document.querySelector("ul.kinds")
            .compareDocumentPosition(document.querySelector(".home-others"))
            === Node.DOCUMENT_POSITION_FOLLOWING"""
    )
    expect(
        page.locator(".home-others").get_by_role("link", name=WORDS[lang]["new"])
    ).to_be_attached()
    shot(page, f"home-{lang}")
    page.get_by_role("link", name=WORDS[lang]["sample"]).first.click()
    expect(page).to_have_url(f"{base}/sample/boulmous")
    expect(page.locator(".scoreboard .winner")).to_be_visible()
    expect(page.locator("form")).to_have_count(0)
    assert watch.errors == []
    assert watch.foreign == []


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("game", ["boulmous", "bombu", "pitch"])
def test_start_in_view_with_four_names_typed(
    phone: tuple[Page, Watch, str], lang: str, game: str
) -> None:
    page, watch, base = phone
    page.goto(f"{base}/lang/{lang}?next=/new?game={game}")
    for seat, name in enumerate(NAMES):
        page.fill(f"#player{seat}", name)
    expect(page.locator("label[for=fd3]")).to_have_text("David")  # the pills follow
    page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    assert in_view(page, "button.start"), "Start is below the fold"
    expect(page.locator("details.more-options")).not_to_have_attribute("open", "")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if game == "pitch":
        shot(page, f"new-game-{lang}")
    # A seat changes in one tap: its ✕ empties it and puts the cursor there.
    page.locator("button[data-clear=player1]").tap()
    expect(page.locator("#player1")).to_have_value("")
    expect(page.locator("#player1")).to_be_focused()
    expect(page.locator("button[data-clear=player1]")).to_be_hidden()
    # The rarer options unfold with one tap.
    page.locator("details.more-options > summary").tap()
    expect(page.locator("#stake")).to_be_visible()
    assert watch.errors == []
    assert watch.foreign == []
