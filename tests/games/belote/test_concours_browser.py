"""A concours de belote in phones' Chromium (issue 55): the director creates it for
16 players in fixed pairs (partners typed one after the other), 3 rounds of 4
deals, draws each round from a phone; a table's phone enters each table's deals on
the belote form (the taker, the trump, the points), an opponent's phone accepts the
result on the table's card; the ranking the public page shows is `referee rank`'s
on the event's export."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from referee.engine.records import parse_record, score_record
from referee.models import Event
from referee.services.events import table_key
from tests.conftest import SCREENSHOTS
from tests.e2e.conftest import PHONE, leave, watched
from tests.server.conftest import Server

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

PLAYERS = [
    "Ana", "Bruno", "Chloé", "Driss", "Élise", "Farid", "Gaëlle", "Hugo",
    "Inès", "Jules", "Karim", "Léa", "Mathis", "Nadia", "Olivier", "Pauline",
]  # fmt: skip
SUITS = ("hearts", "spades", "diamonds", "clubs")


def enter_deals(phone: Page, game_url: str, table: int, round_: int) -> None:
    """The round's four deals of one table, each as a phone taps it."""
    phone.goto(game_url + "/deal")
    for deal in range(4):
        if deal:  # from the scores, as a table does (the page may be reloading itself)
            phone.wait_for_load_state("load")
            phone.get_by_role("link", name=re.compile("Saisir la donne")).click()
            phone.wait_for_url(re.compile(r"/deal$"))
        phone.locator(f"label[for=take_{(table + deal) % 4}]").click()
        phone.locator(f"label[for=trump_{SUITS[(deal + round_) % 4]}]").click()
        points = 40 + (table * 13 + deal * 29 + round_ * 7) % 100
        phone.locator("#points").fill(str(points))
        phone.locator("button[name=action][value=save]").click()
        phone.wait_for_url(re.compile(r"/g/[A-Za-z0-9_-]+$"))


def test_a_concours_de_belote_in_fixed_pairs_ranks_as_referee_rank(
    browser: Browser, live_server: Server, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    phones = [browser.new_context(**{**PHONE, "locale": "fr-FR"}) for _ in range(3)]
    director, director_watch = watched(phones[0], base)
    director.goto(f"{base}/lang/fr?next=/events/new")
    director.fill("#name", "Concours de belote de la Saint-Nicolas")
    director.select_option("#game", "belote")
    director.locator("input[name=format][value=pairs]").check()
    director.fill("#rounds", "3")
    director.fill("#length", "4")
    director.fill("#players", "\n".join(PLAYERS))
    director.locator("form.event-form button.primary").click()
    director.wait_for_url("**/e/*")
    token = director.url.rsplit("/", 1)[1]
    cards = str(director.locator("a", has_text=re.compile("/c/")).first.get_attribute("href"))
    table, table_watch = watched(phones[1], base)
    table.goto(f"{base}/lang/fr?next=/")
    opponent, opponent_watch = watched(phones[2], base)
    opponent.goto(f"{base}/lang/fr?next=/")
    for round_ in (1, 2, 3):
        director.get_by_role("button", name=f"Tirer le tour {round_}").click()
        director.wait_for_load_state("load")
        links = director.locator("ol.director a.button")
        expect(links).to_have_count(4)
        games = [base + str(links.nth(i).get_attribute("href")) for i in range(4)]
        for number, game_url in enumerate(games, 1):
            enter_deals(table, game_url, number, round_)
            expect(table.locator(".concours-note")).to_contain_text("donnes du tour")
            opponent.goto(f"{cards}/{number}?k={table_key(Event(token=token), number)}")
            opponent.select_option("#who", index=1)
            opponent.get_by_role("button", name="Accepter le résultat").click()
            expect(opponent.locator("body")).to_contain_text("Résultat accepté")
            # The table's phone, still on the game, is led to the table's card.
            expect(table).to_have_url(f"{cards}/{number}", timeout=15000)
        director.reload()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    director.screenshot(path=str(SCREENSHOTS / "belote-concours-director.png"), full_page=True)
    exported = director.request.get(f"{base}/e/{token}/export.json")
    assert exported.ok
    path = tmp_path / "concours.json"
    path.write_text(exported.text(), encoding="utf-8")
    ran = subprocess.run(
        [sys.executable, "-m", "referee", "rank", "--json", str(path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    lines = json.loads(ran.stdout)
    assert len(lines) == 8  # eight pairs, ranked as pairs
    # Every pair's total is its tables' scores: 4 deals a round, 3 rounds.
    data = json.loads(exported.text())
    played = [t for r in data["rounds"] for t in r["tables"]]
    assert len(played) == 12
    assert all(t["accepted"] for t in played)
    for accepted in played:
        game = accepted["game"]
        assert len(game["deals"]) == 4
        scores = score_record(parse_record(game)).scores
        assert accepted["scores"] == list(scores)
        assert scores[0] == scores[2]  # partners facing
        assert scores[1] == scores[3]
    view = director.locator("a", has_text=re.compile("/ev/")).first.get_attribute("href")
    public, public_watch = watched(phones[0], base)
    public.goto(str(view))
    shown = public.locator("main").inner_text()
    names = [line["name"] for line in lines]
    assert [shown.index(name) for name in names] == sorted(shown.index(name) for name in names)
    public.screenshot(path=str(SCREENSHOTS / "belote-concours-ranking.png"), full_page=True)
    # The TV at the club's wall: the same order, in big type.
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="fr-FR")
    tv, tv_watch = watched(screen, base)
    tv.goto(f"{view}/tv")
    expect(tv.locator("body")).to_contain_text(names[0])
    tv.screenshot(path=str(SCREENSHOTS / "belote-concours-tv.png"))
    assert tv_watch.errors == []
    screen.close()
    for page, watch in (
        (director, director_watch),
        (table, table_watch),
        (opponent, opponent_watch),
        (public, public_watch),
    ):
        assert watch.errors == []
        assert watch.foreign == []
        leave(page)
    for context in phones:
        context.close()
