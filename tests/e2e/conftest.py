"""Browser tests: Debian's Chromium driven by Playwright, at a phone's size.

Nothing downloads a browser: Playwright is pointed at /usr/bin/chromium (which
.ci/run installs). The app runs as `referee serve` on a free loopback port.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from tests.server.conftest import Server, free_port

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: As this machine's notes advise: no background traffic, no first-run work.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    # Shared memory in /tmp, not /dev/shm: a container's /dev/shm may be 64 MB.
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 1,
    "locale": "fr-FR",
}


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("e2e")
    server = Server(free_port(), f"sqlite:///{folder / 'e2e.sqlite3'}", folder)
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "Debian's chromium is needed (.ci/run installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


@dataclass
class Watch:
    """What a page did that it should not: console errors, requests to other hosts."""

    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)


def watched(context: BrowserContext, base: str) -> tuple[Page, Watch]:
    """A new page whose console errors and off-site requests are recorded."""
    page = context.new_page()
    watch = Watch()
    host = urlparse(base).netloc
    # A refused form comes back with status 422 (409: the deal was taken meanwhile),
    # which Chromium logs as a failed load: that is the app answering as it should,
    # not an error of the page.
    page.on(
        "console",
        lambda m: (
            watch.errors.append(m.text)
            if m.type == "error" and "status of 422" not in m.text and "status of 409" not in m.text
            else None
        ),
    )
    page.on("pageerror", lambda e: watch.errors.append(str(e)))
    page.on(
        "request",
        lambda r: (
            watch.foreign.append(r.url)
            if urlparse(r.url).netloc not in (host, "") and not r.url.startswith("data:")
            else None
        ),
    )
    return page, watch


@pytest.fixture
def phone(browser: Browser, live_server: Server) -> Iterator[tuple[Page, Watch, str]]:
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(**PHONE, accept_downloads=True)
    page, watch = watched(context, base)
    yield page, watch, base
    context.close()


def leave(phone: Page) -> None:
    """The phone leaves its page before its browser closes, as a person would.

    It stops following the game first (what the page does once told it is being
    left), so that no reload for a new deal can race the leaving: a context closed
    while its page reloaded itself hung CI runs for 600 s, and a navigation away
    was "interrupted by another navigation" to the game's page. A reload may also
    begin while the page is being told (its context is then destroyed): it is told
    again once the new page has loaded.
    """
    for _ in range(5):
        try:
            phone.evaluate("window.dispatchEvent(new Event('beforeunload'))")
            phone.goto("about:blank", wait_until="commit")
            break
        except PlaywrightError as error:  # a reload begun before the page was told
            said = str(error)
            if (
                "interrupted by another navigation" not in said
                and "context was destroyed" not in said
            ):
                raise
            phone.wait_for_load_state()
    expect(phone).to_have_url("about:blank")
