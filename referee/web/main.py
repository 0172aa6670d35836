"""Home page, language choice, and the list of this browser's games."""

from __future__ import annotations

from flask import Blueprint, Response, redirect, render_template, request, session, url_for

from referee.app import LANGUAGES
from referee.services import games as service

bp = Blueprint("main", __name__)

#: How many games a browser remembers.
REMEMBERED = 50


def remember(token: str) -> None:
    """Put a game at the top of this browser's list (kept in the signed session cookie)."""
    tokens = session.get("games", [])
    if tokens[:1] == [token]:
        return  # already first: leave the cookie alone
    session["games"] = [token, *(t for t in tokens if t != token)][:REMEMBERED]
    session.permanent = True


def my_tokens() -> list[str]:
    """The tokens of the games this browser created or opened."""
    tokens = session.get("games", [])
    return [t for t in tokens if isinstance(t, str)][:REMEMBERED]


@bp.get("/")
def home() -> str:
    """The games of this browser (in progress first, newest first), and what to do next."""
    return render_template("home.html", games=service.games_of(my_tokens()))


@bp.get("/lang/<code>")
def set_language(code: str) -> Response:
    """Switch the language (a plain link: a preference, nothing to protect); go back."""
    if code in LANGUAGES:
        session["lang"] = code
        session.permanent = True
    target = request.args.get("next", "")
    # Only a path on this site: never an open redirect.
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = url_for("main.home")
    return redirect(target)


@bp.get("/health")
def health() -> Response:
    """A trivial answer for monitors and load balancers (and the benchmark's baseline)."""
    return Response("ok\n", mimetype="text/plain")
