"""The session cookie, checked once per cookie instead of once per request.

Flask verifies the signed session cookie on every request: a new serializer, two
HMACs, base64, zlib and JSON. A phone sends the same cookie with each of its many
reads (the scoreboard, the live follow), and that check was a sixth of a cached
scoreboard's time (issue 19, `bench/http.py`). A cookie that verified is kept here
with its payload and its signing time, so the same cookie again costs a look-up and
a copy. Its age is still checked on each use; a cookie that failed is never kept
(so a stranger's junk costs the full check, and no memory).
"""

from __future__ import annotations

import copy
import time
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature

from referee.lru import LRU

#: Verified cookies kept per worker process (a cookie is at most 4 KB).
KEPT = 2048


class CheckedOnceSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, with each verified cookie remembered."""

    def __init__(self) -> None:
        self._checked: LRU[tuple[dict[str, Any], float] | None] = LRU(KEPT)

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if not app.secret_key:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = app.permanent_session_lifetime.total_seconds()
        key = (app.secret_key, value)
        checked = self._checked.peek(key)
        if checked is None:
            serializer = self.get_signing_serializer(app)
            assert serializer is not None
            try:
                data, signed = serializer.loads(value, max_age=int(max_age), return_timestamp=True)
            except BadSignature:
                return self.session_class()
            checked = (data, signed.timestamp())
            self._checked.put(key, checked)
        data, signed_at = checked
        if time.time() - signed_at > max_age:  # as itsdangerous' max_age would
            return self.session_class()
        # A copy: the request may change its session (lists included) in place.
        return self.session_class(copy.deepcopy(data))
