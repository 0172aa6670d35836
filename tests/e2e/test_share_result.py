"""The result where the players talk (issue 40) in a phone's Chromium: the "Share
the result" button in view and thumb-sized in both languages, its fallback (no
Web Share of files here: the picture is saved), and the spectators' link read as a
chat reads it (no cookie, the meta tags, the picture they name)."""

from __future__ import annotations

import io
import json
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page

from tests.conftest import EXAMPLES, SCREENSHOTS
from tests.e2e.conftest import PHONE, leave, watched
from tests.server.conftest import Server

LABELS = {"fr": "Partager le résultat", "en": "Share the result"}


def imported(page: Page, base: str, tmp_path: Path, name: str, players: list[str]) -> str:
    """A game imported through the page from an example record (its players renamed);
    its editors' address."""
    record = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    record["players"] = players
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page.goto(f"{base}/import")
    page.set_input_files("#record", str(path))
    page.locator("form button.primary").click()
    page.wait_for_url("**/g/*")
    return page.url


class Meta(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        key = values.get("property") or values.get("name")
        if tag == "meta" and key:
            self.tags[key] = values.get("content", "")


def fetch(url: str) -> tuple[int, str, bytes]:
    """A request as a chat's link preview makes it: no cookie, its own agent."""
    request = urllib.request.Request(url, headers={"User-Agent": "chat-preview/1.0"})
    with urllib.request.urlopen(request, timeout=30) as answer:  # loopback only
        return answer.status, answer.headers.get_content_type(), answer.read()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_share_the_result_in_view_and_saved_without_web_share(
    browser: Browser, live_server: Server, tmp_path: Path, lang: str
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(
        **{**PHONE, "locale": "fr-FR" if lang == "fr" else "en-US"}, accept_downloads=True
    )
    page, watch = watched(context, base)
    editor = imported(
        page, base, tmp_path, "boulmous-with-stake", ["Alice", "Bernard", "Chloe", "David"]
    )
    for address in (editor, None):
        if address is None:  # the spectators' page, from the editors' share page
            page.goto(f"{editor}/share")
            address = page.locator("a[href*='/v/']").first.get_attribute("href") or ""
            address = address if address.startswith("http") else base + address
        page.goto(address)
        button = page.get_by_role("link", name=LABELS[lang])
        assert button.is_visible()
        box = button.bounding_box()
        assert box is not None
        assert box["height"] >= 44
        assert box["width"] >= 44
        # In view as the page opens, at 390 × 844: no scrolling to find it.
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= 844
        href = button.get_attribute("href") or ""
        assert href.startswith("/v/")
        assert "/g/" not in href
        assert (button.get_attribute("download") or "").endswith(".png")
        kind = "editor" if "/g/" in address else "spectator"
        if kind == "editor":
            page.screenshot(path=str(_shot(f"share-{lang}-390")))
        # Headless Chromium shares no file: the tap saves the picture.
        with page.expect_download() as downloaded:
            button.click()
        saved = downloaded.value.path()
        with Image.open(saved) as image:
            assert image.size == (1080, 1350)
    assert watch.errors == []
    assert watch.foreign == []
    leave(page)
    context.close()


def _shot(name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS / f"{name}.png"


def test_the_spectators_link_as_a_chat_reads_it(
    browser: Browser, live_server: Server, tmp_path: Path
) -> None:
    base = f"http://127.0.0.1:{live_server.port}"
    context = browser.new_context(**PHONE)
    page, _watch = watched(context, base)
    editor = imported(page, base, tmp_path, "pad-teams-target", ["Ana", "Bruno", "Chloe", "Driss"])
    token = editor.rsplit("/", 1)[-1]
    page.goto(f"{editor}/share")
    viewer = page.locator("a[href*='/v/']").first.get_attribute("href") or ""
    viewer = viewer if viewer.startswith("http") else base + viewer
    leave(page)
    context.close()
    status, kind, body = fetch(viewer)
    assert (status, kind) == (200, "text/html")
    html = body.decode()
    assert token not in html
    meta = Meta()
    meta.feed(html)
    tags = meta.tags
    assert tags["twitter:card"] == "summary_large_image"
    assert "Ana & Chloe" in tags["og:title"]
    assert "Bruno & Driss" in tags["og:title"]
    assert tags["og:image"].startswith(f"{base}/v/")
    assert token not in tags["og:image"]
    status, kind, picture = fetch(tags["og:image"])
    assert (status, kind) == (200, "image/png")
    image = Image.open(io.BytesIO(picture))
    assert image.size == (int(tags["og:image:width"]), int(tags["og:image:height"]))
    _shot("share-card-teams").write_bytes(picture)
