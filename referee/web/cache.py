"""Rendered pages kept per game version (the LRU itself is `referee.lru`).

A scoreboard is a pure function of the game's deals and the language. The game's
`version` changes with every write, so a key of (token, version, language) can
never serve a stale board; entries of old versions simply age out.

Under `referee serve` the worker processes also share what they rendered through a
folder of their own (`SharedPages`): a new version is rendered by one worker, not
once in each (issue 19: measured at paced tables, renders per new version went from
1.46 to 1.00).
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import tempfile
import time
import zlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, current_app
from werkzeug.datastructures import Accept

from referee.lru import LRU

__all__ = [
    "GZIP_LEVEL",
    "LRU",
    "CachedPage",
    "SharedPages",
    "SharedRows",
    "cached_page",
    "drawn_page",
    "game_page_key",
]


#: How hard every HTML answer is compressed (gzip's levels: 1 fastest, 9 smallest).
#: A 30-deal scoreboard (32 KB): level 6 took 0.43 ms for 4,484 bytes, level 2
#: 0.19 ms for 5,156; a deal compresses three pages (its form, the page every phone
#: shares, the recording phone's own copy), 0.6 ms of a deal's 25 (issue 19).
GZIP_LEVEL = 2

#: Pages kept in each worker's memory (`PAGE_CACHE_SIZE`): two languages of 1,000
#: tables, about 5 KB each as they are kept (gzipped).
PAGES_KEPT = 2048


@dataclass(frozen=True)
class CachedPage:
    """A rendered page, kept gzipped only (phones accept gzip: 22 KB -> 4 KB; the few
    clients that do not are sent it inflated), with an entity tag so that a reload
    of an unchanged page costs a 304."""

    gzipped: bytes
    etag: str

    @classmethod
    def of(cls, html: str, etag: str) -> CachedPage:
        """Encode and compress a page once."""
        return cls(gzip.compress(html.encode(), compresslevel=GZIP_LEVEL, mtime=0), etag)

    @property
    def body(self) -> bytes:
        """The page as UTF-8 (inflated at each use: seldom wanted)."""
        return gzip.decompress(self.gzipped)

    def response(self, accepted: Accept, if_none_match: object = None) -> Response:
        """The page (compressed if the client takes gzip), or 304 if it has it already."""
        if if_none_match is not None and self.etag in if_none_match:  # type: ignore[operator]
            response = Response(status=304)
        elif accepted["gzip"]:
            response = Response(self.gzipped, mimetype="text/html")
            response.headers["Content-Encoding"] = "gzip"
        else:
            response = Response(self.body, mimetype="text/html")
        response.set_etag(self.etag)
        # Always revalidate: the page changes whenever another phone enters a deal.
        response.headers["Cache-Control"] = "no-cache"
        response.vary.add("Accept-Encoding")
        return response


#: How every gzip stream begins (RFC 1952).
GZIP_MAGIC = b"\x1f\x8b"

#: A page's key: (kind, token, version, language...). The version is what changes.
PageKey = tuple[str, str, int, str]


def game_page_key(spectator: bool, token: str, version: int, lang: str) -> PageKey:
    """The key of a game's scoreboard as every phone of it is served: the editors'
    (by the editor token) or the spectators' (by the spectator token). One place,
    since the views keep the pages under it and the live follow finds them by it."""
    return ("view" if spectator else "edit", token, version, lang)


class SharedPages:
    """Rendered pages kept in a folder that every worker process of one server reads.

    One file per page and language (the file of a game's previous version is
    replaced by the next one), holding the key it was rendered for: a file of another
    version is not that page. Writes are atomic (a new file, then a rename), so a
    reader sees a whole page or none. The folder is the server's own, made when it
    starts and removed when it stops (`referee serve`): a database restored from a
    backup can bring an older game back under the same version, which a folder that
    outlived the server would then serve.
    """

    #: How long (seconds) a worker waits for the page another one is drawing.
    WAIT = 1.0
    #: How often (seconds) it looks whether that page is there.
    LOOK = 0.004

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def make(self, key: PageKey, render: Callable[[], CachedPage]) -> CachedPage:
        """The page of this key, drawn by one worker of the server only.

        A phone's scoreboard hears of a new deal at the same moment in every worker
        (each follows the game), so their phones ask for the new page at once: the
        first worker marks it as being drawn (a file created only if it is not
        there), the others wait for the page instead of drawing it too. A mark left
        by a worker that died is older than `WAIT`: it is not waited for.
        """
        page = self.get(key)
        if page is not None:
            return page
        path = self._path(key)
        mark = path.parent / f"{path.name}.{key[2]}.drawing"
        try:
            os.close(os.open(mark, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            page = self._wait(key, mark)
            if page is not None:
                return page
        except OSError:
            return render()
        else:
            try:
                page = render()
                self.put(key, page)
                return page
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(mark)
        page = render()  # the other worker failed, or is too slow
        self.put(key, page)
        return page

    def _wait(self, key: PageKey, mark: Path) -> CachedPage | None:
        try:
            if time.time() - mark.stat().st_mtime > self.WAIT:
                return None  # left by a worker that died while drawing
        except OSError:
            return self.get(key)  # drawn meanwhile
        # The drawing worker writes the page, then takes its mark away: the page is
        # read once, when the mark is gone (a look at the mark is one `stat`).
        deadline = time.monotonic() + self.WAIT
        while time.monotonic() < deadline:
            time.sleep(self.LOOK)
            if not mark.exists():
                return self.get(key)
        return None

    def _path(self, key: PageKey) -> Path:
        slot = json.dumps([key[0], key[1], *key[3:]])
        return self.folder / hashlib.blake2s(slot.encode(), digest_size=16).hexdigest()

    def get(self, key: PageKey) -> CachedPage | None:
        """The page of this key, if a worker rendered it (anything unreadable: none)."""
        try:
            data = self._path(key).read_bytes()
            head, _, gzipped = data.partition(b"\n")
            stored = json.loads(head)
            if stored["key"] != list(key):
                return None
            # Not inflated here (nearly every phone takes it gzipped): a file cut
            # short or not a gzip stream is told by its length and its first bytes.
            if len(gzipped) != stored["length"] or not gzipped.startswith(GZIP_MAGIC):
                return None
            return CachedPage(gzipped, str(stored["etag"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: PageKey, page: CachedPage) -> None:
        """Keep the page for the other workers; a failed write only costs them a render."""
        head = json.dumps(
            {"key": list(key), "etag": page.etag, "length": len(page.gzipped)}
        ).encode()
        _write_whole(self._path(key), head + b"\n" + page.gzipped)


class SharedRows:
    """The history rows a worker drew for a game's scoreboard, kept in the server's
    shared folder for the other workers (issue 19).

    A worker draws a version's page once for every worker (`SharedPages`), so the
    other worker never draws that game's rows; when it then draws the next version
    (its phone recorded the next deal), every row of the history was drawn again:
    30 rows, 7 ms, at the start of each game's evening in every worker, and in
    each benchmark level, when every phone joins. One file per page of a game (its
    language, address, spectators' or editors', columns): each row's HTML under a
    digest of everything it shows (`board.history_rows`' keys), so a row of another
    state is never taken. Written atomically and compressed (30 rows: 34 KB as
    JSON, 5 KB kept; the folder is in memory and lasts as long as the server);
    anything unreadable is no row.
    """

    PREFIX = "rows-"

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _path(self, slot: Hashable) -> Path:
        return self.folder / f"{self.PREFIX}{self.digest(slot)}"

    @staticmethod
    def digest(key: Hashable) -> str:
        """A row's name in its file (the digest of its whole key), and a page's file's."""
        return hashlib.blake2s(repr(key).encode(), digest_size=16).hexdigest()

    def get(self, slot: Hashable) -> dict[str, str]:
        """The rows kept for this page of a game (none if unreadable)."""
        try:
            rows = json.loads(zlib.decompress(self._path(slot).read_bytes()))
        except (OSError, ValueError, zlib.error):
            return {}
        if not isinstance(rows, dict):
            return {}
        return {str(k): v for k, v in rows.items() if isinstance(v, str)}

    def put(self, slot: Hashable, rows: dict[str, str]) -> None:
        """Keep these rows for the page (replacing the file); a failed write only
        costs the other workers their drawing."""
        _write_whole(self._path(slot), zlib.compress(json.dumps(rows).encode(), 1))


def _write_whole(path: Path, data: bytes) -> None:
    """Write a file of the shared folder whole or not at all (a new file, then a
    rename over the old one: a reader sees one or the other). A failed write is
    left at that: the other workers draw what they do not find."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".new-")
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temporary)


def cached_page(key: PageKey, render: Callable[[], CachedPage]) -> CachedPage:
    """The page of this key: from this worker's memory, else from the server's shared
    folder, else rendered (by one thread of one worker, the others wait for it) and
    kept in both."""
    memory: LRU[CachedPage] = current_app.extensions["page_cache"]
    shared: SharedPages | None = current_app.extensions.get("shared_pages")

    if shared is None:
        return memory.get_or_make(key, render)
    return memory.get_or_make(key, lambda: shared.make(key, render))


def drawn_page(app: Flask, key: PageKey) -> CachedPage | None:
    """The page of this key if this worker or another of the server drew it already
    (the live follow sends it to the phones: `follow.Hub`); never draws it."""
    memory: LRU[CachedPage] = app.extensions["page_cache"]
    page = memory.held(key)
    if page is not None:
        return page
    shared: SharedPages | None = app.extensions.get("shared_pages")
    return shared.get(key) if shared is not None else None
