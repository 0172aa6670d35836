"""A small thread-safe LRU cache for rendered scoreboards.

A scoreboard is a pure function of the game's deals and the language. The game's
`version` changes with every write, so a key of (token, version, language) can
never serve a stale board; entries of old versions simply age out.
"""

from __future__ import annotations

import gzip
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

from flask import Response
from werkzeug.datastructures import Accept

V = TypeVar("V")


class LRU(Generic[V]):
    """Least-recently-used cache of at most `size` entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get_or_make(self, key: Hashable, make: Callable[[], V]) -> V:
        """The cached value of `key`, or `make()` stored under it."""
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key]
            self.misses += 1
        value = make()  # outside the lock: two threads may both render, harmlessly
        with self._lock:
            self._data[key] = value
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return value


@dataclass(frozen=True)
class CachedPage:
    """A rendered page, kept as UTF-8 and gzipped (phones accept gzip: 22 KB -> 4 KB),
    with an entity tag so that a reload of an unchanged page costs a 304."""

    body: bytes
    gzipped: bytes
    etag: str

    @classmethod
    def of(cls, html: str, etag: str) -> CachedPage:
        """Encode and compress a page once."""
        body = html.encode()
        return cls(body, gzip.compress(body, compresslevel=6, mtime=0), etag)

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
