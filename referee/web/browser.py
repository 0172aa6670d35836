"""This browser, as the app knows it: the games it opened and its phone's id, both
kept in its signed session cookie (no account, nothing stored server-side)."""

from __future__ import annotations

import secrets
from typing import Any

from flask import g, request, session

#: The cookie that names this phone, apart from the session: the session cookie is
#: written back by every response that changes it, and two requests in flight (a
#: deal sent by the offline queue, the page it reloads) could put an older one
#: back, which would make a phone another phone halfway through a round.
PHONE_COOKIE = "referee_phone"

#: How many games a browser remembers.
REMEMBERED = 50


def remember(token: str) -> None:
    """Put a game at the top of this browser's list (kept in the signed session cookie)."""
    remember_in("games", token)


def remember_in(kind: str, token: str, keep: int = REMEMBERED) -> None:
    """Put a link's token at the top of this browser's list of `kind` (games,
    tables, concours, seasons), at most `keep` of them, in the signed cookie."""
    tokens = session.get(kind, [])
    if tokens[:1] == [token]:
        return  # already first: leave the cookie alone
    session[kind] = [token, *(t for t in tokens if t != token)][:keep]
    session.permanent = True


def phone_id() -> str:
    """This phone's own id (random): which phone recorded a deal, so that another one
    confirms it, and another one accepts a concours table's result. Kept in a
    cookie of its own (`PHONE_COOKIE`, set once: `keep_phone`); a session that
    named the phone before keeps its name."""
    found = g.get("phone") or request.cookies.get(PHONE_COOKIE) or session.get("phone")
    if isinstance(found, str) and 8 <= len(found) <= 32 and found.isalnum():
        phone = found
    else:
        phone = secrets.token_hex(8)
    g.phone = phone
    return phone


def keep_phone(response: Any) -> None:
    """Set the phone's cookie when a request named the phone and it had none yet."""
    phone = g.get("phone")
    if phone and request.cookies.get(PHONE_COOKIE) != phone:
        response.set_cookie(
            PHONE_COOKIE,
            phone,
            max_age=400 * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=bool(request.is_secure),
        )


def my_tokens() -> list[str]:
    """The tokens of the games this browser created or opened."""
    tokens = session.get("games", [])
    return [t for t in tokens if isinstance(t, str)][:REMEMBERED]
