"""The JSON API, version 1 (`/api/v1/`): what another program may read and write.

A club site, a bot or a spreadsheet reads a game or a table by its spectators'
token, and creates a game, posts, corrects and takes back deals by the editors'
token, under the same rules and refusals as the pages. docs/API.md says how; the
OpenAPI document (`/api/v1/openapi.json`) says exactly.
"""

from __future__ import annotations

from flask import Flask, Request

from referee.api.views import bp
from referee.extensions import csrf

#: Where the API's addresses start.
PREFIX = "/api/"


def asks_api(request: Request) -> bool:
    """Whether the request is one of the API's (its errors are problems, not pages)."""
    return request.path.startswith(PREFIX)


def register(app: Flask) -> None:
    """Attach the API. It takes no cookie and no form: no CSRF token either."""
    csrf.exempt(bp)
    app.register_blueprint(bp)
