"""A concours survives a real afternoon (issue 52), in phones' Chromium at 390×844
and a TV at 1920×1080, in both languages: the director fixes the list before round
1 (a rename, a removal: the pot follows) and undoes a withdrawal; a table's phone
cannot remove its game, and the round goes on; the tables' public link accepts
nothing; a timed round refuses an acceptance before the deal in play is in, then
a deal begun after the bell; a late arrival's personal results add up; a pending
correction is in the first screen of the director's page; the TV fills its slides."""

from __future__ import annotations

import datetime
import re
import sqlite3
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from referee.models import Event
from referee.services.events import table_key
from tests.conftest import SCREENSHOTS
from tests.e2e.conftest import PHONE, leave, watched
from tests.server.conftest import Server

WORDS = {
    "fr": {
        "create": "Créer le concours",
        "rename": "Renommer",
        "off": "Retirer Ivan Typo de la liste",
        "pot": "Les inscriptions : 80,00",
        "draw1": "Tirer le tour 1",
        "draw2": "Tirer le tour 2",
        "only": "seul l’arbitre la modifie",
        "scan": "scannez le QR code",
        "in_play": "la donne en cours est la dernière",
        "first": "saisissez-la d’abord",
        "accept": "Accepter le résultat",
        "done": "Résultat accepté",
        "bell": "Le temps est écoulé",
        "leaves": "quitte le concours",
        "back": "revient",
        "act": "Agir pour la table",
        "hand": "Saisir ce résultat",
        "correct": "Corriger",
        "correct_this": "Corriger ce résultat",
        "waiting": "En attente de vous",
        "apply": "Appliquer la correction",
        "results": "Résultats individuels",
        "not_here": "absent",
    },
    "en": {
        "create": "Create the concours",
        "rename": "Rename",
        "off": "Take Ivan Typo off the list",
        "pot": "The entry fees: €80.00",
        "draw1": "Draw round 1",
        "draw2": "Draw round 2",
        "only": "only the director changes it",
        "scan": "scan the QR code",
        "in_play": "the deal in play is the last",
        "first": "enter it first",
        "accept": "Accept the result",
        "done": "Result accepted",
        "bell": "Time is up",
        "leaves": "leaves the concours",
        "back": "comes back",
        "act": "Act for the table",
        "hand": "Enter this result",
        "correct": "Correct",
        "correct_this": "Correct this result",
        "waiting": "Waiting for you",
        "apply": "Apply the correction",
        "results": "Personal results",
        "not_here": "not here",
    },
}


def _ring(server: Server) -> None:
    """The round's bell rang a minute ago (its deals so far entered before it)."""
    path = server.database.removeprefix("sqlite:///")
    started = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
    started -= datetime.timedelta(minutes=31)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE event_round SET started_at = ?", (started.isoformat(" "),))
        before = (started + datetime.timedelta(minutes=5)).isoformat(" ")
        db.execute("UPDATE deal SET created_at = ?", (before,))


def _player_tools(page: Page, name: str) -> None:
    if not page.locator("#players").evaluate("e => e.open"):
        page.locator("#players > summary").click()
    item = page.locator("ol.event-players > li", has_text=name).first
    item.locator("details.player-tools > summary").click()


def _deal(page: Page, base: str, game: str, points: tuple[str, ...]) -> None:
    page.goto(f"{base}{game}/deal")
    for i, value in enumerate(points):
        page.fill(f"[name=points{i}]", value)
    page.locator("button[name=action][value=save]").click()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_concours_afternoon_from_the_phones(
    browser: Browser, live_server: Server, lang: str, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    words = WORDS[lang]
    phones = [browser.new_context(**{**PHONE, "locale": f"{lang}-FR"}) for _ in range(4)]
    director, director_watch = watched(phones[0], base)
    director.goto(f"{base}/lang/{lang}?next=/events/new")
    director.fill("#name", f"Après-midi {lang}")
    director.select_option("#game", "pad")
    director.fill("#rounds", "2")
    director.fill("#length", "30")
    director.check("input[name=length_kind][value=minutes]")
    director.fill("#entry_fee", "10")
    names = ["Ana", "Bruno", "Chloé", "Driss", "Emma", "Farid", "Guy", "Hélène Typo", "Ivan Typo"]
    director.fill("#players", "\n".join(names))
    director.get_by_role("button", name=words["create"]).click()
    director.wait_for_url("**/e/*")
    token = director.url.rsplit("/", 1)[1]

    # Before round 1: a typo renamed, a name typed by mistake taken off; the pot follows.
    _player_tools(director, "Hélène Typo")
    director.locator("ol.event-players > li", has_text="Hélène Typo").locator(
        "input[name=name]"
    ).fill("Hélène")
    director.locator("ol.event-players > li", has_text="Hélène Typo").get_by_role(
        "button", name=words["rename"]
    ).click()
    expect(director.locator("ol.event-players")).to_contain_text("Hélène")
    expect(director.locator("ol.event-players")).not_to_contain_text("Hélène Typo")
    _player_tools(director, "Ivan Typo")
    director.get_by_role("button", name=words["off"]).click()
    expect(director.locator(".flash").last).to_contain_text(words["pot"])
    expect(director.locator("ol.event-players")).not_to_contain_text("Ivan")
    director.get_by_role("button", name=words["draw1"]).click()
    expect(director.locator("#round")).to_be_visible()

    # Table 1's phone scans its card's QR code: its game, with the round's clock.
    play = str(director.locator("a[href*='/c/']").first.get_attribute("href"))
    play = play.rstrip("/").rsplit("/", 1)[1]
    key = table_key(Event(token=token), 1)
    table, table_watch = watched(phones[1], base)
    table.goto(f"{base}/lang/{lang}?next=/")
    table.goto(f"{base}/c/{play}/1/play?k={key}")
    table.wait_for_url("**/g/*")
    game = "/g/" + table.url.rsplit("/g/", 1)[1].split("?")[0]
    expect(table.locator(".event-clock")).to_be_visible()
    expect(table.locator(".event-clock .left")).to_contain_text(re.compile(r"\d\d:\d\d"))
    # It tries to remove its game: not offered, and refused.
    table.goto(f"{base}{game}/remove")
    expect(table.locator("main")).to_contain_text(words["only"])
    assert table.locator("button.danger").count() == 0
    _deal(table, base, game, ("4", "-2", "-1", "-1"))
    table.wait_for_url(f"**{game}")

    # A phone with the tables' public link only: it reads, it accepts nothing.
    stranger, stranger_watch = watched(phones[3], base)
    stranger.goto(f"{base}/lang/{lang}?next=/")
    stranger.goto(f"{base}/c/{play}/1")
    expect(stranger.locator("main")).to_contain_text(words["scan"])
    assert stranger.locator("#who").count() == 0

    # The bell rings. An opponent scans the QR code: not before the deal in play.
    _ring(live_server)
    opponent, opponent_watch = watched(phones[2], base)
    opponent.goto(f"{base}/lang/{lang}?next=/")
    opponent.goto(f"{base}/c/{play}/1?k={key}")
    expect(opponent.locator("main")).to_contain_text(words["in_play"])
    seated = opponent.locator("#who option").all_inner_texts()[2]
    opponent.select_option("#who", seated)
    opponent.get_by_role("button", name=words["accept"]).click()
    expect(opponent.locator(".problems")).to_contain_text(words["first"])
    # The deal in play goes in; a deal begun after the bell is refused.
    _deal(table, base, game, ("1", "1", "1", "-3"))
    table.wait_for_url(f"**{game}")
    table.goto(f"{base}{game}/deal")
    table.wait_for_url(f"**/c/{play}/1")
    expect(table.locator(".flash")).to_contain_text(words["bell"])
    opponent.goto(f"{base}/c/{play}/1")
    opponent.select_option("#who", seated)
    opponent.get_by_role("button", name=words["accept"]).click()
    expect(opponent.locator("main")).to_contain_text(words["done"])

    # Table 2 lost its phone: the director enters its result by hand, with a reason.
    director.reload()
    tools = director.locator("ol.director > li").nth(1).locator("details.table-tools")
    tools.locator("summary").click()
    hand = tools.locator("form", has=director.get_by_role("button", name=words["hand"]))
    for i, value in enumerate(("3", "1", "-2", "-2")):
        hand.locator(f"input[name=score{i}]").fill(value)
    hand.locator("input[name=reason]").fill("feuille papier" if lang == "fr" else "paper sheet")
    with director.expect_navigation():
        hand.get_by_role("button", name=words["hand"]).click()

    # A withdrawal, undone at once; a late arrival before round 2.
    _player_tools(director, "Bruno")
    director.get_by_role("button", name=re.compile(f"Bruno.*{words['leaves']}")).click()
    _player_tools(director, "Bruno")
    director.get_by_role("button", name=re.compile(f"Bruno {words['back']}")).click()
    expect(director.locator("ol.event-players > li", has_text="Bruno")).not_to_contain_text(
        "withdrew" if lang == "en" else "abandon"
    )
    if not director.locator("#players").evaluate("e => e.open"):
        director.locator("#players > summary").click()
    director.fill("#names", "Zoé")
    director.locator("#players form button.button").first.click()
    director.get_by_role("button", name=words["draw2"]).click()
    expect(director.locator("#round h2")).to_contain_text("2")

    # A result of round 1 corrected: what waits is in the first screen.
    director.locator("details.fold", has_text=words["correct"]).locator("summary").first.click()
    results = director.locator("ul.event-corrections > li").first
    results.locator("details > summary").click()
    results.locator("input[name=reason]").fill("deal 2 misread")
    results.get_by_role("button", name=words["correct_this"]).click()
    director.wait_for_url("**/g/*")
    director.goto(f"{base}/e/{token}")
    apply = director.get_by_role("button", name=words["apply"])
    box = apply.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 844  # in the first screen, without scrolling
    assert director.evaluate("document.documentElement.scrollWidth") <= 390
    if lang == "fr":
        director.screenshot(path=SCREENSHOTS / "concours-afternoon-director-fr-390.png")
    with director.expect_navigation():
        apply.click()

    # Round 2 accepted for every table; Zoé's personal results add up to her total.
    count = director.locator("ol.director > li").count()
    for number in range(count):
        tools = director.locator("ol.director > li").nth(number).locator("details.table-tools")
        tools.locator("summary").click()
        accept = tools.locator("form").first
        accept.locator("input[name=reason]").fill("fin" if lang == "fr" else "done")
        with director.expect_navigation():
            accept.locator("button").click()
    view = str(director.locator("a[href^='http'][href*='/ev/']").first.get_attribute("href"))
    pdf = director.request.get(view + "/results.pdf")
    assert pdf.ok
    folder = tmp_path
    (folder / "results.pdf").write_bytes(pdf.body())
    pages = [p.extract_text() for p in PdfReader(folder / "results.pdf").pages]
    zoe = " ".join(next(p for p in pages if "Zoé" in p.splitlines()[1]).split())
    total = re.search(r"· (−?\d+) (?:points|pts)", zoe)
    assert total is not None, zoe
    assert words["not_here"] in zoe
    rows = re.findall(rf"\b([12]) (?:table \d+, \w+ \d+|{words['not_here']}|\w+ \w+) .*?", zoe)
    assert rows

    # The TV at 1920×1080: each ranking slide as full as the screen holds, no overflow.
    tv = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=f"{lang}-FR")
    screen = tv.new_page()
    screen.goto(f"{base}/lang/{lang}?next=/")
    screen.goto(view + "/tv")
    expect(screen.locator(".slide.shown")).to_be_visible()
    assert screen.evaluate("document.documentElement.scrollHeight") <= 1080
    if lang == "fr":
        screen.screenshot(path=SCREENSHOTS / "concours-afternoon-tv-fr-1920.png")
    tv.close()
    # A lower screen: the ranking cut into slides as full as it holds, none past it.
    low = browser.new_context(viewport={"width": 1280, "height": 520}, locale=f"{lang}-FR")
    small = low.new_page()
    small.goto(f"{base}/lang/{lang}?next=/")
    small.goto(view + "/tv")
    expect(small.locator(".slide.shown")).to_be_visible()
    ranking = small.locator(".slide[data-paged='tbody tr']")
    assert ranking.count() >= 2
    rows = [ranking.nth(i).locator("tbody tr").count() for i in range(ranking.count())]
    assert sum(rows) == 9
    assert max(rows) - min(rows) <= 1  # as even as can be
    for i in range(ranking.count()):  # each, shown, within the screen
        small.evaluate(
            "i => document.querySelectorAll('.slide').forEach((s, j) => "
            "s.classList.toggle('shown', j === i))",
            i,
        )
        assert small.evaluate("document.documentElement.scrollHeight") <= 520
    low.close()

    for page, watch in (
        (director, director_watch),
        (table, table_watch),
        (opponent, opponent_watch),
        (stranger, stranger_watch),
    ):
        assert watch.errors == []
        assert watch.foreign == []
        leave(page)
    for context in phones:
        context.close()
