"""Referee tools at the table: "who wins this trick?" and the rules of this game."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask import Blueprint, render_template, request

from referee.engine import bombu, boulmous, pitch
from referee.engine.cards import Suit
from referee.engine.errors import RulesError
from referee.web.catalog import FLAGS
from referee.web.forms import messages_by_group
from referee.web.games import Page, engine_rules, load

bp = Blueprint("tools", __name__)


def judge(game: str, trump: str, cards_text: str, rules: Any, players: int) -> dict[str, Any]:
    """Judge one trick typed as cards in play order; the first card leads. A trick has
    at most one card per player of this game."""
    texts = cards_text.split()
    if game == "pitch":
        plays = [(seat, pitch.parse_card(text)) for seat, text in enumerate(texts)]
        result = pitch.judge_trick(plays, Suit(trump), rules, players=players)
        return {"winner": result.winner, "points": list(result.points)}
    from referee.engine.cards import parse_cards

    cards = parse_cards(texts, "trick")
    if game == "boulmous":
        return {"winner": boulmous.trick_winner(cards, boulmous.Contract(trump))}
    return {"winner": bombu.trick_winner(cards)}


@bp.route("/g/<token>/judge", methods=["GET", "POST"])
def trick(token: str) -> Page:
    """Who wins this trick? Type the cards in the order they were played."""
    game = load(token)
    rules = engine_rules(game)
    verdict = None
    errors: dict[str, list[str]] = {}
    values = {"trump": request.form.get("trump", "hearts"), "cards": request.form.get("cards", "")}
    if request.method == "POST":
        try:
            verdict = judge(
                game.game, values["trump"], values["cards"][:200], rules, len(game.players)
            )
        except (RulesError, ValueError) as error:
            problems = error.problems if isinstance(error, RulesError) else []
            errors = messages_by_group(problems, None) if problems else {"trump": ["?"]}
    status = 422 if errors else 200
    page = render_template(
        "judge.html", game=game, values=values, verdict=verdict, errors=errors, rules=rules
    )
    return page, status


@bp.get("/g/<token>/rules")
def rules_page(token: str) -> str:
    """A short summary of the game's rules, with this table's house rules."""
    game = load(token)
    stake = Decimal(game.stake) if game.stake else None
    return render_template("rules.html", game=game, flags=FLAGS[game.game], stake=stake)
