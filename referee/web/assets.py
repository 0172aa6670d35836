"""The static files as served: the scripts and style sheet lean, every file under a
fingerprinted address.

Every `url_for('static', ...)` carries `?v=` and a digest of the file as served. An
answer to an address whose digest is the file's own may be kept a year and never
asked again (`immutable`): a page views its style sheet and scripts without a
request, online or off (issue 19); a new version of a file has a new address. An
address without it, or with an old one, is answered as before (revalidated).

The scripts and style sheet: their comments and indentation left out.

They are written to be read (a comment says what each part does and why), and a
phone at the table pays for every byte of a page: the whole page with its scripts
stays under 60 KB. Only whole-line comments and leading spaces go, which changes
nothing a browser reads (the scripts have no multi-line strings). Each file is
read once per change of its modification time, and its time is looked at most once
a second (a page names eight static files: their `stat` calls were 6 % of a
scoreboard's render, issue 19).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, Response, abort, request

from referee.web.home import Home

#: What a comment line is, per kind of file (whole lines only).
_COMMENT = {
    ".js": re.compile(r"^\s*//.*$\n?", re.MULTILINE),
    ".css": re.compile(r"^\s*/\*[^\n]*?\*/\s*$\n?", re.MULTILINE),
}
_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)
_TYPES = {".js": "text/javascript", ".css": "text/css"}
#: The pictures a game's folder may serve besides (its home page's picture).
_PICTURES = {".svg": "image/svg+xml"}


#: How long (seconds) a static file's modification time is trusted before it is
#: looked at again: an edited file is served within this delay.
LOOK_AGAIN = 1.0

#: How long a fingerprinted file may be kept.
IMMUTABLE = "public, max-age=31536000, immutable"


@dataclass(frozen=True)
class Asset:
    mtime: float
    text: bytes
    etag: str


def lean(text: str, suffix: str) -> str:
    """The file without its whole-line comments and its indentation."""
    return _INDENT.sub("", _COMMENT[suffix].sub("", text))


def register(app: Flask, games: Mapping[str, Home]) -> None:
    """Serve `static/*.js` and `static/*.css` lean, every other static file as is, all
    of them under fingerprinted addresses; a game's own files (its home's `assets`,
    `games`: the homes by key, as registered) as `games/<key>/<file>`."""
    folder = Path(app.static_folder or "static")

    def path_of(filename: str) -> Path | None:
        """The file an address names: in the app's folder, or in a game's."""
        parts = filename.split("/")
        if len(parts) == 1:
            return folder / filename
        if len(parts) == 3 and parts[0] == "games" and parts[1] in games and parts[2]:
            return games[parts[1]].static_folder / parts[2]
        return None

    made: dict[str, Asset] = {}
    #: When each file was last looked at, and what it was then.
    looked: dict[str, tuple[float, Asset | None]] = {}

    def asset(filename: str) -> Asset | None:
        """The file as served, with its digest (None: not a file of the folder)."""
        now = time.monotonic()
        seen = looked.get(filename)
        if seen is not None and now - seen[0] < LOOK_AGAIN:
            return seen[1]
        found = look(filename)
        if len(looked) > 4 * len(made) + 64:  # addresses of files that never were
            looked.clear()
        looked[filename] = (now, found)
        return found

    def look(filename: str) -> Asset | None:
        path = path_of(filename)
        if path is None or not path.is_file() or path.name.startswith("."):
            return None
        mtime = path.stat().st_mtime
        found = made.get(filename)
        if found is None or found.mtime != mtime:
            raw = path.read_bytes()
            if path.suffix in _TYPES:
                raw = lean(raw.decode("utf-8"), path.suffix).encode()
            found = Asset(mtime, raw, hashlib.blake2s(raw, digest_size=8).hexdigest())
            made[filename] = found
        return found

    def static(filename: str) -> Response:
        found = asset(filename)
        if found is None:
            return app.send_static_file(filename)
        fingerprinted = request.args.get("v") == found.etag
        if found.etag in request.if_none_match:
            response = Response(status=304)
        elif Path(filename).suffix in _TYPES:
            response = Response(found.text, mimetype=_TYPES[Path(filename).suffix])
        elif "/" in filename:
            if Path(filename).suffix not in _PICTURES:
                abort(404)  # a game's folder serves only its styles, scripts and pictures
            response = Response(found.text, mimetype=_PICTURES[Path(filename).suffix])
        else:
            response = app.send_static_file(filename)
        response.set_etag(found.etag)
        response.headers["Cache-Control"] = IMMUTABLE if fingerprinted else "no-cache"
        return response

    def fingerprint(endpoint: str, values: dict[str, object]) -> None:
        if endpoint == "static" and "v" not in values:
            found = asset(str(values.get("filename", "")))
            if found is not None:
                values["v"] = found.etag

    app.view_functions["static"] = static
    app.url_default_functions.setdefault(None, []).append(fingerprint)
