"""The scripts and style sheet as served: their comments and indentation left out.

They are written to be read (a comment says what each part does and why), and a
phone at the table pays for every byte of a page: the whole page with its scripts
stays under 60 KB. Only whole-line comments and leading spaces go, which changes
nothing a browser reads (the scripts have no multi-line strings). Each file is
read once per change of its modification time.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, request

#: What a comment line is, per kind of file (whole lines only).
_COMMENT = {
    ".js": re.compile(r"^\s*//.*$\n?", re.MULTILINE),
    ".css": re.compile(r"^\s*/\*[^\n]*?\*/\s*$\n?", re.MULTILINE),
}
_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)
_TYPES = {".js": "text/javascript", ".css": "text/css"}


@dataclass(frozen=True)
class Asset:
    mtime: float
    text: bytes
    etag: str


def lean(text: str, suffix: str) -> str:
    """The file without its whole-line comments and its indentation."""
    return _INDENT.sub("", _COMMENT[suffix].sub("", text))


def register(app: Flask) -> None:
    """Serve `static/*.js` and `static/*.css` lean; every other static file as is."""
    folder = Path(app.static_folder or "static")
    made: dict[str, Asset] = {}

    def static(filename: str) -> Response:
        path = folder / filename
        suffix = path.suffix
        if suffix not in _TYPES or "/" in filename or not path.is_file():
            return app.send_static_file(filename)
        mtime = path.stat().st_mtime
        asset = made.get(filename)
        if asset is None or asset.mtime != mtime:
            text = lean(path.read_text(encoding="utf-8"), suffix).encode()
            asset = Asset(mtime, text, hashlib.blake2s(text, digest_size=8).hexdigest())
            made[filename] = asset
        if asset.etag in request.if_none_match:
            return Response(status=304, headers={"ETag": f'"{asset.etag}"'})
        response = Response(asset.text, mimetype=_TYPES[suffix])
        response.set_etag(asset.etag)
        response.headers["Cache-Control"] = "no-cache"
        return response

    app.view_functions["static"] = static
