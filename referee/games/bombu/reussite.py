"""The Réussite referee (issue 18, item 4), Bombu's own tool at the table.

Its page follows a Réussite as it is laid: the turned card, then each card laid
since, tapped in; for a player's hand, which cards he may lay, or that he must pass.
Nothing is stored: the layout travels in the form.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request

from referee.engine.cards import Card, Suit, parse_cards
from referee.engine.errors import RulesError
from referee.games.bombu.rules import GAME, RANKS, Layout
from referee.web.forms import messages_by_group
from referee.web.pages import Page, load

bp = Blueprint("bombu", __name__)


@bp.route("/g/<token>/reussite", methods=["GET", "POST"])
def reussite(token: str) -> Page:
    """The Réussite referee (issue 18, item 4): the turned card, then the cards laid
    since, tapped in as they are laid (only those that fit can be); for a player's
    hand, which cards he may lay, or that he must pass. Each tap is a plain post:
    the layout travels in the form, nothing is stored."""
    game = load(token)
    if game.game != GAME.key:
        abort(404)
    form = request.form
    errors: list[str] = []
    start_text = form.get("start", "")
    laid_text = form.get("laid", "")[:400]
    layout = None
    laid: list[Any] = []
    hand: list[Any] = []
    verdict = None
    try:
        if start_text:
            (start,) = parse_cards([start_text], "start")
            laid = list(parse_cards(laid_text.split(), "played"))
            if form.get("action") == "back" and laid:
                laid.pop()
            layout = Layout.from_cards(start, laid)
            if form.get("lay"):
                (card,) = parse_cards([form["lay"]], "card")
                layout = layout.play(card)
                laid.append(card)
            hand = list(parse_cards(form.getlist("hand")[:32], "hand"))
            if form.get("action") == "check":
                verdict = layout.playable(hand)
    except RulesError as error:
        errors = [m for group in messages_by_group(error.problems, None).values() for m in group]
    used = set(laid) | ({layout.start} if layout else set())
    status = 422 if errors else 200
    page = render_template(
        "bombu/reussite.html",
        game=game,
        deck=reussite_deck(),
        layout=layout,
        laid=laid,
        used=used,
        hand=set(hand),
        verdict=verdict,
        errors=errors,
    )
    return page, status


def reussite_deck() -> list[list[Card]]:
    """The deck of the Réussite, a row per suit in natural order (7 to A)."""
    ranks = sorted(RANKS)
    return [[Card(rank, suit) for rank in ranks] for suit in Suit]
