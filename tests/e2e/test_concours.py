"""A concours in phones' Chromium (issue 41): the director creates it and draws,
a table's phone enters the round's deal on its game and is told where the result
is accepted; when an opponent's phone accepts it, the phone still on the game is
led to the table's card (its game's link was taken away), in both languages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from referee.models import Event
from referee.services.events import table_key
from tests.e2e.conftest import PHONE, leave, watched
from tests.server.conftest import Server

WORDS = {
    "fr": {
        "draw": "Tirer le tour 1",
        "played": "La donne du tour est jouée",
        "accept": "Accepter le résultat",
        "done": "Résultat accepté",
    },
    "en": {
        "draw": "Draw round 1",
        "played": "The round's 1 deal is played",
        "accept": "Accept the result",
        "done": "Result accepted",
    },
}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_tables_phone_is_led_to_its_card_once_the_result_is_accepted(
    browser: Browser, live_server: Server, lang: str
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    words = WORDS[lang]
    phones = [browser.new_context(**{**PHONE, "locale": f"{lang}-FR"}) for _ in range(3)]
    director, director_watch = watched(phones[0], base)
    director.goto(f"{base}/lang/{lang}?next=/events/new")
    director.fill("#name", f"Concours {lang}")
    director.select_option("#game", "pad")
    director.fill("#length", "1")
    director.fill("#rounds", "1")
    director.fill("#players", "Ana\nBruno\nChloé\nDriss")
    director.locator("form.event-form button.primary").click()
    director.wait_for_url("**/e/*")
    director.get_by_role("button", name=words["draw"]).click()
    game_url = base + str(director.locator("ol.director a.button").first.get_attribute("href"))
    tables_link = director.locator("a", has_text=re.compile("/c/")).first
    card_url = str(tables_link.get_attribute("href")) + "/1"  # an absolute address
    # The QR code of table 1's card: its address with the table's own code.
    token = director.url.rsplit("/", 1)[1]
    scanned = f"{card_url}?k={table_key(Event(token=token), 1)}"

    table, table_watch = watched(phones[1], base)
    table.goto(f"{base}/lang/{lang}?next=/")
    table.goto(game_url + "/deal")
    for i, points in enumerate(("3", "-1", "-1", "-1")):
        table.fill(f"[name=points{i}]", points)
    table.locator("button[name=action][value=save]").click()
    table.wait_for_url(game_url)
    expect(table.locator(".concours-note")).to_contain_text(words["played"])

    opponent, opponent_watch = watched(phones[2], base)
    opponent.goto(f"{base}/lang/{lang}?next=/")
    opponent.goto(scanned)
    opponent.select_option("#who", "Bruno")
    opponent.get_by_role("button", name=words["accept"]).click()
    expect(opponent.locator("body")).to_contain_text(words["done"])
    # The phone still on the game follows: its link was taken, it goes to the card.
    expect(table).to_have_url(card_url, timeout=15000)
    expect(table.locator("body")).to_contain_text(words["done"])
    for page, watch in (
        (director, director_watch),
        (table, table_watch),
        (opponent, opponent_watch),
    ):
        assert watch.errors == []
        assert watch.foreign == []
        leave(page)
    for context in phones:
        context.close()
