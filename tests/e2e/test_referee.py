"""The referee's tools on a phone (issue 18): the Réussite referee, tapped through at
390×844: a turned card, cards laid by tapping them (those that do not fit cannot be
tapped), a hand judged."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Watch
from tests.e2e.test_phone import check, shot


def test_the_reussite_referee_on_a_phone(phone: tuple[Page, Watch, str]) -> None:
    page, watch, base = phone
    page.goto(base + "/new?game=bombu")
    for seat, name in enumerate(["Marius", "Fanny", "César", "Honorine"]):
        page.fill(f"#player{seat}", name)
    page.get_by_role("button", name="Commencer la partie").click()
    page.get_by_role("link", name="Arbitre de la Réussite").click()
    page.locator("label[for^=start_]", has_text="9♥").click()
    page.get_by_role("button", name="Commencer la réussite").click()
    check(page, watch)
    expect(page.get_by_role("button", name="Poser 7♠")).to_be_disabled()
    page.get_by_role("button", name="Poser 10♥").click()
    page.get_by_role("button", name="Poser 9♠").click()
    expect(page.locator("ul.runs")).to_contain_text("9♥ 10♥")
    expect(page.get_by_role("button", name="Poser J♥")).to_be_enabled()
    # Disabled by the page, it stays so once shown (the "pageshow" that gives back
    # the buttons a sent form disabled leaves these alone).
    page.wait_for_load_state("load")
    expect(page.get_by_role("button", name="Poser A♠")).to_be_disabled()
    page.locator("input[name=hand][value='A♣'] + label").click()
    page.locator("input[name=hand][value='J♥'] + label").click()
    page.get_by_role("button", name="Que peut-il poser ?".replace(" ?", "\u202f?")).click()
    expect(page.locator(".verdict")).to_contain_text("Il doit poser une carte (pas de passe)")
    expect(page.locator(".verdict")).to_contain_text("J♥")
    check(page, watch)
    shot(page, "reussite-fr")
