"""A director prints and states prizes from a phone (issue 42), in Chromium at
390×844, in both languages: the prizes typed in the new concours's form, the
statement and the print buttons in reach, a table card downloaded as a PDF; a
season over the concours, its page within the screen's width; the TV shows the
prizes at 1920×1080."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.conftest import SCREENSHOTS
from tests.e2e.conftest import PHONE, leave, watched
from tests.server.conftest import Server

WORDS = {
    "fr": {
        "create": "Créer le concours",
        "pot": "une cagnotte de 36,00",
        "cards": "Cartes de table",
        "season": "Créer la saison",
        "none": "Aucun concours classé pour l’instant.",
    },
    "en": {
        "create": "Create the concours",
        "pot": "a pot of €36.00",
        "cards": "Table cards",
        "season": "Create the season",
        "none": "No concours ranked yet.",
    },
}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_prizes_prints_and_a_season_from_a_phone(
    browser: Browser, live_server: Server, lang: str
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    words = WORDS[lang]
    context = browser.new_context(**{**PHONE, "locale": f"{lang}-FR"}, accept_downloads=True)
    page, watch = watched(context, base)
    page.goto(f"{base}/lang/{lang}?next=/events/new")
    page.fill("#name", f"Coupe {lang}")
    page.select_option("#game", "pad")
    page.fill("#length", "1")
    page.fill("#rounds", "2")
    page.fill("#entry_fee", "5")
    page.fill("#prize_kept", "10")
    page.fill("#prize_split", "60 %, 40 %")
    page.fill("#players", "Ana\nBruno\nChloé\nDriss\nEmma\nFarid\nGuy\nHélène")
    page.get_by_role("button", name=words["create"]).click()
    page.wait_for_url("**/e/*")
    # 8 × 5 € = 40 €, 10 % kept: a pot of 36 €, said with the rules.
    expect(page.locator(".event-prizes")).to_contain_text(words["pot"])
    # The prints are folded under their heading, one tap away.
    page.locator("details.prints > summary").click()
    cards = page.get_by_role("link", name=words["cards"], exact=True)
    box = cards.bounding_box()
    assert box is not None
    assert box["height"] >= 40
    with page.expect_download() as caught:
        cards.click()
    pdf = caught.value.path().read_bytes()
    assert pdf.startswith(b"%PDF")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    if lang == "fr":
        page.screenshot(path=SCREENSHOTS / "concours-prints-fr-390.png", full_page=True)
    view = page.locator("a[href^='http'][href*='/ev/']").first.get_attribute("href")
    assert view is not None

    page.goto(f"{base}/seasons/new")
    page.fill("#name", f"Saison {lang}")
    page.fill("#drop_worst", "1")
    page.get_by_role("button", name=words["season"]).click()
    page.wait_for_url("**/s/*")
    # Its concours has no result yet: nobody is ranked by a lot.
    expect(page.locator("main")).to_contain_text(words["none"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert watch.errors == []
    assert watch.foreign == []
    leave(page)

    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=f"{lang}-FR")
    screen = tv.new_page()
    screen.goto(f"{base}/lang/{lang}?next=/")
    screen.goto(view + "/tv")
    expect(screen.locator(".event-prizes").first).to_contain_text(words["pot"])
    tv.close()
    context.close()
