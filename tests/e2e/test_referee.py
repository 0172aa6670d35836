"""The referee's tools on a phone (issue 18): the Réussite referee, tapped through at
390×844: a turned card, cards laid by tapping them (those that do not fit cannot be
tapped), a hand judged."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import PHONE, Watch, leave
from tests.e2e.test_phone import check, shot
from tests.e2e.test_table_loop import WORDS, start, tap_deal

FRENCH = WORDS["fr"]


def test_the_reussite_referee_on_a_phone(phone: tuple[Page, Watch, str]) -> None:
    page, watch, base = phone
    start(page, base, FRENCH, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    page.locator("details.more > summary").click()  # the rarer tools, under "More"
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


def test_the_trick_judge_with_the_cards_tapped(phone: tuple[Page, Watch, str]) -> None:
    """From the deal being entered (its trump comes along), the cards tapped from the
    game's deck, the leader chosen: the winner named, and why (issue 18, item 3)."""
    page, watch, base = phone
    start(page, base, FRENCH, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    page.get_by_role("link", name="Saisir la donne").click()
    page.locator("label[for=contract_spades]").click()
    page.locator("a[data-judge]").click()
    expect(page.locator("#trump_spades")).to_be_checked()
    page.select_option("#leader", "2")  # Chloé leads
    for card in ("9♠", "J♣", "A♠", "J♠"):
        page.locator(f"button[data-card='{card}']").click()
    page.get_by_role("button", name="Reprendre la dernière carte").click()
    expect(page.locator("#cards")).to_have_value("9♠ J♣ A♠")
    check(page, watch)
    page.get_by_role("button", name="Arbitrer").click()
    verdict = page.locator(".verdict")
    expect(verdict).to_contain_text("Driss remporte le pli avec J♣ (carte 2).")
    expect(verdict).to_contain_text("J♣ est atout ici\u202f: le valet de la même couleur")
    check(page, watch)
    shot(page, "trick-judge-fr")


def test_the_table_agrees_on_two_phones(phone: tuple[Page, Watch, str], browser: Browser) -> None:
    """Recorded on one phone, agreed to on the other; a disagreement opens the
    correction, which the first phone then agrees to (issue 18, item 5)."""
    page, watch, base = phone
    page.goto(base + "/new?game=boulmous")
    for seat, name in enumerate(["Ana", "Bruno", "Chloé", "Driss"]):
        page.fill(f"#player{seat}", name)
    page.locator("details.more-options > summary").click()  # the rarer options, folded
    page.locator("label[for=confirm_deals]").click()
    page.get_by_role("button", name=FRENCH["start"]).click()
    page.get_by_role("link", name="Saisir la donne").click()
    tap_deal(page, "1_4", "spades", [1, 4, 1])
    page.get_by_role("button", name="Enregistrer la donne").click()
    expect(page.locator(".mark.unconfirmed")).to_have_count(1)
    expect(page.locator(".agree")).to_have_count(0)  # not for the phone that recorded it
    other_context = browser.new_context(**PHONE)
    other = other_context.new_page()
    other.goto(page.url)
    expect(other.locator(".agree")).to_contain_text("Donne 1")
    expect(other.locator(".agree")).to_contain_text("d’accord\u202f?")
    check(other, watch)
    shot(other, "agree-fr")
    # Not so: the other phone corrects it (Bruno took 3), and the first agrees.
    other.get_by_role("link", name="Non\u202f: la corriger").click()
    expect(other.locator(".card.now")).to_contain_text("Tel qu’enregistré\u202f:")  # both versions
    other.locator("label[for=tricks1_3]").click()  # the form holds the deal: two taps
    other.locator("label[for=tricks3_1]").click()
    other.get_by_role("button", name="Enregistrer la correction").click()
    expect(other.locator(".mark.unconfirmed")).to_have_count(1)
    # The first phone follows the game live: it shows the correction by itself.
    expect(page.locator(".agree")).to_contain_text("Bruno −4")
    page.get_by_role("button", name="D’accord").click()
    expect(page.locator(".flash")).to_contain_text("Donne 1 confirmée.")
    expect(page.locator(".mark.unconfirmed")).to_have_count(0)
    # The other phone follows too: it shows the deal agreed to by itself.
    expect(other.locator(".mark.unconfirmed")).to_have_count(0)
    leave(other)
    other_context.close()
