"""A dropped connection loses nothing (issue 15), in a phone-sized Chromium with
Playwright's offline mode: deals entered offline are kept on the phone and sent by
themselves, once each and in order, when the network is back, through a reload and a
browser restart; one the server refuses on arrival comes back as its form; the
service worker opens the game's pages (and an offline page) with the server stopped;
a plain-HTTP origin (no service worker) still keeps the queue."""

from __future__ import annotations

import json
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.e2e.conftest import ARGS, CHROMIUM, PHONE, Watch, leave, watched
from tests.server.conftest import Server, free_port

NAMES = ["Ana", "Bruno", "Chloé", "Driss"]


def record_of(base: str, token: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base}/g/{token}/export.json", timeout=10) as answer:
        return json.loads(answer.read())


def new_game(page: Page, base: str) -> str:
    page.goto(base + "/new?game=boulmous")
    for seat, name in enumerate(NAMES):
        page.fill(f"#player{seat}", name)
    page.get_by_role("button", name="Commencer la partie").click()
    expect(page.get_by_text("Ana distribue.")).to_be_visible()
    return page.url.rsplit("/g/", 1)[1]


def boulmous(page: Page, taker: int, bid: int, tricks: list[int]) -> None:
    """A Boulmous deal typed into the open form (clubs), then Record."""
    page.locator(f"label[for=take_{taker}_{bid}]").click()
    page.locator("label[for=contract_clubs]").click()
    for seat, count in enumerate(tricks):
        page.locator(f"label[for=tricks{seat}_{count}]").click()
    page.get_by_role("button", name="Enregistrer la donne").click()


def queue_ready(page: Page) -> None:
    """The deal form's queue has run (before the network is cut under it)."""
    page.wait_for_function("() => window.refereeQueue === true")


def online(page: Page) -> None:
    """Tell the page the network is back (as the browser does itself, a moment after
    `set_offline(False)`). The page may already be answering the browser's own event
    by loading another page (a refused entry comes back as its form): then there is
    nothing left to tell it, and Playwright says its context was destroyed."""
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as error:
        if "Execution context was destroyed" not in str(error):
            raise


def cut_at_deal_one(browser: Browser, base: str) -> tuple[BrowserContext, Page, Watch, str]:
    """A phone that started a game, opened deal 1's form (its queue running), and
    then lost the network: (its context, page, watch, the game's token)."""
    context = browser.new_context(**PHONE)
    page, watch = watched(context, base)
    token = new_game(page, base)
    page.get_by_role("link", name="Saisir la donne 1").click()
    queue_ready(page)
    context.set_offline(True)
    return context, page, watch, token


def takers(base: str, token: str) -> list[int]:
    return [d["taker"] for d in record_of(base, token)["deals"]]


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test alone (it is stopped in the middle)."""
    server = Server(free_port(), f"sqlite:///{tmp_path / 'offline.sqlite3'}", tmp_path)
    server.start()
    yield server
    server.stop()


def test_a_deal_entered_offline_is_recorded_once_when_the_network_is_back(
    browser: Browser, live_server: Server
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    context, page, watch, token = cut_at_deal_one(browser, base)
    boulmous(page, 1, 4, [1, 4, 1])
    expect(page.locator(".netstate")).to_contain_text("Pas de connexion")
    expect(page.locator(".waiting")).to_contain_text("Donne 1")
    # The next deal can be entered at once: the form is ready for deal 2.
    expect(page.locator("main h1")).to_have_text("Donne 2")
    expect(page.locator("#take_1_4")).not_to_be_checked()
    expect(page.locator(".pill-counts .sum")).to_contain_text("0 sur 6")
    boulmous(page, 2, 3, [1, 1, 3])
    expect(page.locator(".waiting li")).to_have_count(2)
    assert record_of(base, token)["deals"] == []
    context.set_offline(False)
    expect(page.locator(".netstate")).to_contain_text("Connexion revenue", timeout=10000)
    assert takers(base, token) == [1, 2]
    expect(page.locator(".waiting")).to_have_count(0)
    # Sent again by a confused phone: still once each.
    online(page)
    assert takers(base, token) == [1, 2]
    context.set_offline(True)
    page.locator("label[for=take_0_3]").click()  # the preview waits, it does not vanish
    expect(page.locator(".preview.live")).to_contain_text("L’aperçu attend la connexion.")
    context.set_offline(False)
    assert [e for e in watch.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []
    context.close()


def test_three_deals_offline_through_a_reload_and_a_browser_restart(
    browser: Browser, own_server: Server, tmp_path: Path
) -> None:
    """The network cut (the phone offline), then the server itself out of reach while
    the browser restarts: nothing can be sent before the network is back."""
    base = f"http://127.0.0.1:{own_server.port}"
    profile = tmp_path / "profile"

    def open_phone() -> BrowserContext:
        return browser.browser_type.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, args=ARGS, **PHONE
        )

    context = open_phone()
    page = context.pages[0] if context.pages else context.new_page()
    token = new_game(page, base)
    # Online once more, so that the service worker holds the pages of this game.
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()
    page.get_by_role("link", name="Saisir la donne 1").click()
    queue_ready(page)
    page.reload()
    context.set_offline(True)
    boulmous(page, 1, 4, [1, 4, 1])
    expect(page.locator(".waiting li")).to_have_count(1)
    page.reload()  # offline: the form comes from the phone, ready for deal 2
    expect(page.locator("main h1")).to_have_text("Donne 1")  # as the page was cached
    assert page.locator("form.deal-form input[name=number]").input_value() == "2"
    boulmous(page, 2, 3, [1, 1, 3])
    expect(page.locator(".waiting li")).to_have_count(2)
    context.close()  # the browser closes, the entries stay

    own_server.stop()  # out of reach, whatever the restarted browser tries
    context = open_phone()
    page = context.pages[0] if context.pages else context.new_page()
    page.goto(f"{base}/g/{token}/deal")
    expect(page.locator(".waiting li")).to_have_count(2)
    boulmous(page, 3, 5, [0, 1, 0])
    expect(page.locator(".waiting li")).to_have_count(3)
    own_server.start()  # the network is back
    online(page)
    expect(page.locator(".waiting")).to_have_count(0, timeout=20000)
    assert takers(base, token) == [1, 2, 3]  # all three, once each, in order
    context.close()


def test_a_waiting_deal_refused_on_arrival_comes_back_as_its_form(
    browser: Browser, live_server: Server
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    mine, page, _watch, token = cut_at_deal_one(browser, base)
    boulmous(page, 1, 4, [1, 4, 1])
    expect(page.locator(".waiting li")).to_have_count(1)
    # Meanwhile another phone records deal 1.
    other = browser.new_context(**PHONE).new_page()
    other.goto(f"{base}/g/{token}/deal")
    boulmous(other, 3, 3, [1, 1, 1])
    expect(other.locator(".totals")).to_be_visible()
    mine.set_offline(False)
    online(page)
    expect(page.get_by_role("alert").first).to_contain_text(
        "Entre-temps, un autre téléphone a enregistré cette donne", timeout=10000
    )
    expect(page.locator("#take_1_4")).to_be_checked()  # the entries, kept
    assert takers(base, token) == [3]
    page.get_by_role("button", name="L’enregistrer comme donne 2").click()
    expect(page.locator(".just")).to_be_visible()
    assert takers(base, token) == [3, 1]
    leave(other)
    other.context.close()
    mine.close()


def test_the_service_worker_opens_the_game_with_the_server_stopped(
    browser: Browser, own_server: Server
) -> None:
    base = f"http://127.0.0.1:{own_server.port}"
    context = browser.new_context(**PHONE)
    page, _watch = watched(context, base)
    token = new_game(page, base)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()  # the scoreboard, through the worker: kept
    own_server.stop()
    page.goto(f"{base}/g/{token}")
    expect(page.locator(".totals")).to_contain_text("Bruno")
    page.goto(f"{base}/import")  # never opened here: the offline page, in French
    expect(page.locator("main h1")).to_have_text("Pas de connexion")
    context.close()


def test_a_plain_http_origin_keeps_the_queue_without_a_service_worker(
    browser: Browser, live_server: Server
) -> None:
    """The machine's name on the table's network (`laptop.test`) is not localhost: no
    secure context, so no service worker."""
    name = socket.gethostname().split(".")[0].lower() + ".test"  # a name it answers to
    rules = f"--host-resolver-rules=MAP {name} 127.0.0.1:{live_server.port}"
    other = browser.browser_type.launch(executable_path=CHROMIUM, args=[*ARGS, rules])
    try:
        base = f"http://{name}"
        context, page, _watch, token = cut_at_deal_one(other, base)
        # Checked offline: whether the context is secure is the origin's, not the network's.
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("'serviceWorker' in navigator") is False
        boulmous(page, 0, 3, [3, 1, 1])
        expect(page.locator(".netstate")).to_contain_text("Pas de connexion")
        context.set_offline(False)
        expect(page.locator(".waiting")).to_have_count(0, timeout=10000)
        # The queue empties once the deal is on the server: until then the page may
        # be between two loads (no list of waiting entries shown), on a busy machine.
        # (Polled from here: the page's CSP forbids a predicate evaluated in it.)
        for _ in range(150):
            if takers(f"http://127.0.0.1:{live_server.port}", token):
                break
            page.wait_for_timeout(100)
        # What the phone shows and keeps, should the deal not be on the server.
        shown = (page.url, page.locator("[role=alert]").all_inner_texts())
        kept = page.evaluate("JSON.stringify(localStorage)")
        assert takers(f"http://127.0.0.1:{live_server.port}", token) == [0], (shown, kept)
        context.close()
    finally:
        other.close()


def test_a_following_phone_gets_the_new_page_in_its_stream_without_asking(
    browser: Browser, live_server: Server
) -> None:
    """Issue 19: a phone following the game under the service worker is sent the new
    version's page in its stream (drawn once, for the phone that recorded it); its
    reload is answered by the worker, with no request to the server. The page shown
    is the new one, whole, scripts and all: it goes on following."""
    base = f"http://127.0.0.1:{live_server.port}"
    mine = browser.new_context(**PHONE)
    page, watch = watched(mine, base)
    token = new_game(page, base)
    other = browser.new_context(**PHONE)
    follower, other_watch = watched(other, base)
    follower.goto(f"{base}/g/{token}")
    follower.wait_for_function("() => navigator.serviceWorker.controller !== null")
    follower.reload()  # its script now runs under the worker: it takes pages
    loads: list[dict[str, str]] = []
    follower.on(
        "response",
        lambda r: loads.append(r.all_headers()) if r.request.is_navigation_request() else None,
    )
    for number, tricks in ((1, [1, 3, 1, 1]), (2, [1, 1, 3, 1])):
        page.goto(f"{base}/g/{token}/deal")
        boulmous(page, number, 3, tricks)
        expect(page.locator(".just")).to_contain_text(f"Donne {number} enregistrée")
        expect(follower.locator(".live")).to_have_attribute("data-version", str(number))
        expect(follower.locator(".totals")).to_contain_text("Bruno")
    # Each reload was the pushed page, kept by the worker: not the server's answer
    # (which carries an entity tag and says it is gzipped).
    assert len(loads) == 2
    assert all("etag" not in headers and "content-encoding" not in headers for headers in loads)
    assert not watch.errors
    assert not other_watch.errors
    leave(follower)
    for context in (other, mine):
        context.close()
