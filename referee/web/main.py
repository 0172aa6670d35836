"""Home page, language choice, and the list of this browser's games."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from referee.app import LANGUAGES
from referee.services import games as service

bp = Blueprint("main", __name__)

#: How many games a browser remembers.
REMEMBERED = 50


def remember(token: str) -> None:
    """Put a game at the top of this browser's list (kept in the signed session cookie)."""
    tokens = [t for t in session.get("games", []) if t != token]
    session["games"] = [token, *tokens][:REMEMBERED]
    session.permanent = True


def my_tokens() -> list[str]:
    """The tokens of the games this browser created or opened."""
    tokens = session.get("games", [])
    return [t for t in tokens if isinstance(t, str)][:REMEMBERED]


@bp.get("/")
def home() -> str:
    """The games of this browser (in progress first, newest first), and what to do next."""
    return render_template("home.html", games=service.games_of(my_tokens()))


@bp.post("/lang")
def set_language() -> Response:
    """Switch the language; go back to the page the player was on."""
    chosen = request.form.get("lang", "")
    if chosen in LANGUAGES:
        session["lang"] = chosen
        session.permanent = True
    target = request.form.get("next", "")
    # Only a path on this site: never an open redirect.
    if not target.startswith("/") or target.startswith("//"):
        target = url_for("main.home")
    return redirect(target)
