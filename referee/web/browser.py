"""This browser, as the app knows it: the games it opened and its phone's id, both
kept in its signed session cookie (no account, nothing stored server-side)."""

from __future__ import annotations

import secrets

from flask import session

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
    """This phone's own id (random, in its session): which phone recorded a deal, so
    that another one confirms it."""
    phone = session.get("phone")
    if not isinstance(phone, str) or not 8 <= len(phone) <= 32:
        phone = secrets.token_hex(8)
        session["phone"] = phone
        session.permanent = True
    return phone


def my_tokens() -> list[str]:
    """The tokens of the games this browser created or opened."""
    tokens = session.get("games", [])
    return [t for t in tokens if isinstance(t, str)][:REMEMBERED]
