"""Rendered pages kept per game version (the LRU itself is `referee.lru`).

A scoreboard is a pure function of the game's deals and the language. The game's
`version` changes with every write, so a key of (token, version, language) can
never serve a stale board; entries of old versions simply age out.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass

from flask import Response
from werkzeug.datastructures import Accept

from referee.lru import LRU

__all__ = ["LRU", "CachedPage"]


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
