"""Referee tools at the table: "who wins this trick?" and the rules of this game."""

from __future__ import annotations

from decimal import Decimal

from flask import Blueprint, render_template, request

from referee.engine.errors import RulesError
from referee.services import games as service
from referee.web.forms import messages_by_group
from referee.web.homes import home_of
from referee.web.pages import Page, engine_rules, load

bp = Blueprint("tools", __name__)


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
            cards = values["cards"][:200].split()
            verdict = home_of(game.game).judge(values["trump"], cards, rules, len(game.players))
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
    values = service.scored(game).flag_values()
    page = render_template(
        "rules.html", game=game, flags=home_of(game.game).flags, values=values, stake=stake
    )
    return page
