"""A whole evening at one table on a phone (issue 17): a table made, three games of
three kinds started from it, each with money (Boulmous at 1 € a game, Bombu at
0,10 € a point, Pitch at 1 € a game), then the evening's one settlement, checked
by hand, and the table's statistics; at 390×844, in French, then in English."""

from __future__ import annotations

import re
from decimal import Decimal

from playwright.sync_api import Page, expect

from tests.e2e.conftest import Watch
from tests.e2e.test_phone import check, shot
from tests.e2e.test_table_loop import tap_deal

NAMES = ["Ana", "Bruno", "Chloé", "Driss"]
#: A money cell's text without its label (the game's name, shown on a phone's card).
WITHOUT_LABEL = "(el) => el.textContent.replace(el.querySelector('.for')?.textContent ?? '', '')"


def amount(text: str) -> Decimal:
    """ "−4,00 €" or "−€4.00" as a number."""
    digits = re.sub(r"[^0-9,.−-]", "", text).replace("−", "-").replace(",", ".")
    return Decimal(digits)


def new_game_here(page: Page, game: str, names: list[str], stake: str, per_point: bool) -> None:
    page.get_by_role("link", name="Nouvelle partie à cette table").click()
    page.locator(f"a.choice[href*='game={game}']").click()
    expect(page.locator(".new-game")).to_contain_text("À la table Les cousins")
    for seat, name in enumerate(names):
        page.fill(f"#player{seat}", name)
    page.locator("details.more-options > summary").click()  # the rarer options, folded
    page.fill("#stake", stake)
    if per_point:
        page.locator("label[for=stake_per_point]").click()
    else:
        page.fill("#rule_target", "4" if game == "boulmous" else "5")


def back_to_table(page: Page) -> None:
    page.get_by_role("link", name="La table : Les cousins").click()


def test_an_evening_of_three_games_settled_once(phone: tuple[Page, Watch, str]) -> None:
    page, watch, base = phone
    page.goto(base + "/")
    page.get_by_role("link", name="Nouvelle table").click()
    page.fill("#name", "Les cousins")
    page.get_by_role("button", name="Créer la table").click()
    check(page, watch)

    # Boulmous, 1 € a game, to 4: Bruno bids 4 and makes it; he wins the game.
    new_game_here(page, "boulmous", NAMES, "1", per_point=False)
    page.get_by_role("button", name="Commencer la partie").click()
    page.get_by_role("link", name="Saisir la donne").click()
    tap_deal(page, "1_4", "spades", [1, 4, 1])
    page.get_by_role("button", name="Enregistrer la donne").click()
    expect(page.locator(".totals")).to_contain_text("Bruno")
    back_to_table(page)

    # Bombu, 0,10 € a point: one deal, No tricks 1, 3, 2, 2 (10, 30, 20, 20).
    new_game_here(page, "bombu", ["Bruno", "Chloé", "Driss", "Ana"], "0,10", per_point=True)
    page.get_by_role("button", name="Commencer la partie").click()
    page.get_by_role("link", name="Saisir la donne").click()
    page.locator("label[for=contract_no-tricks]").click()
    for seat, count in enumerate([1, 3, 2]):  # the fourth: the rest (2)
        page.locator(f"label:has(> input[name=tricks{seat}][value='{count}'])").click()
    page.get_by_role("button", name="Enregistrer la donne").click()
    expect(page.locator(".totals")).to_contain_text("Chloé")
    back_to_table(page)

    # Pitch, 1 € a game, to 5: Bruno bids 5 and his side takes every point.
    new_game_here(page, "pitch", NAMES, "1", per_point=False)
    page.get_by_role("button", name="Commencer la partie").click()
    page.get_by_role("link", name="Saisir la donne").click()
    page.locator("label:has(input[name=bidder][value='1'])").click()
    page.locator("label[for=bid_5]").click()
    page.locator("label[for=trump_hearts]").click()
    page.locator("button[name=rest][value='3']").click()
    page.get_by_role("button", name="Enregistrer la donne").click()
    expect(page.locator(".totals")).to_contain_text("Bruno & Driss")
    # The money a line a team, "chacun" (issue 38, item 8): each partner's amount.
    pitch = {
        name: amount(text)
        for side, text in (
            (li.locator("span").inner_text(), li.locator("strong").inner_text())
            for li in page.locator("section.money .net li").all()
        )
        for name in side.split(" & ")
    }
    assert len(pitch) == len(NAMES)
    back_to_table(page)
    check(page, watch)
    shot(page, "evening-table-fr")

    # The evening: the money game by game, and in all.
    page.locator("section.evening h2 a").first.click()
    check(page, watch)
    shot(page, "evening-fr")
    rows = {}
    for row in page.locator("table.ledger tbody tr").all():
        # Each cell's amount, without the game's name it carries for a phone's card.
        cells = [amount(c.evaluate(WITHOUT_LABEL)) for c in row.locator("td").all()]
        rows[row.locator("th").inner_text()] = cells
    # By hand: Boulmous, Bruno wins a stake from each (+3, the others −1); Bombu by
    # the point, each seat 0,10 × (80 − 4 × its points): Bruno +4, Chloé −4, Driss
    # and Ana 0; Pitch as its own scoreboard says.
    boulmous = {"Ana": -1, "Bruno": 3, "Chloé": -1, "Driss": -1}
    bombu = {"Ana": 0, "Bruno": 4, "Chloé": -4, "Driss": 0}
    for name in NAMES:
        expected = [Decimal(boulmous[name]), Decimal(bombu[name]), pitch[name]]
        assert rows[name] == [*expected, sum(expected)], name
    assert sum(cells[-1] for cells in rows.values()) == 0
    # The transfers settle every balance.
    balance = {name: cells[-1] for name, cells in rows.items()}
    transfers = page.locator(".evening-money .transfers li").all()
    assert 0 < len(transfers) < len(NAMES)
    for line in transfers:
        found = re.fullmatch(r"(\w+) paie (.+) à (\w+)", line.inner_text().strip())
        assert found is not None, line.inner_text()
        balance[found.group(1)] += amount(found.group(2))
        balance[found.group(3)] -= amount(found.group(2))
    assert set(balance.values()) == {Decimal(0)}
    # The Wi-Fi gone at the end of the night: the evening still shows, as last seen.
    page.reload()  # this copy, seen under the service worker, is the one it keeps
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("table.ledger")).to_contain_text("Chloé")
    page.context.set_offline(False)
    with page.expect_download() as sheet:
        page.get_by_role("link", name="Feuille de la soirée (PDF)").click()
    assert sheet.value.suggested_filename.startswith("evening-")

    # The statistics, in English.
    page.get_by_role("link", name="Les cousins").click()
    page.get_by_role("link", name="English").click()
    page.get_by_role("link", name="Statistics", exact=True).click()
    expect(page.locator("table.people-stats")).to_contain_text("Bruno")
    expect(page.get_by_role("heading", name="Head to head")).to_be_visible()
    bruno = page.locator("table.people-stats tr", has=page.get_by_role("rowheader", name="Bruno"))
    expect(bruno.locator("td").nth(1)).to_have_text("2")  # Boulmous and Pitch won
    # Wider than the phone, a table says so: a shadow at each edge with more (its
    # covers hide them while it fits, as here).
    region = page.locator("table.people-stats").locator("xpath=..")
    shadows = region.evaluate("(box) => getComputedStyle(box).backgroundImage")
    assert shadows.count("gradient") == 4, shadows
    check(page, watch)
    shot(page, "statistics-en")
