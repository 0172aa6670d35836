"""Referee tools at the table: "who wins this trick?" and the rules of this game."""

from __future__ import annotations

from decimal import Decimal

from flask import Blueprint, abort, render_template, request
from flask_babel import get_locale

from referee.engine.errors import RulesError
from referee.services import games as service
from referee.web.forms import messages_by_group, whole
from referee.web.homes import home_of
from referee.web.pages import Page, engine_rules, load

bp = Blueprint("tools", __name__)


@bp.route("/g/<token>/judge", methods=["GET", "POST"])
def trick(token: str) -> Page:
    """Who wins this trick? Type the cards in the order they were played."""
    game = load(token)
    this = home_of(game.game)
    if not this.judges_tricks:  # a game without tricks
        abort(404)
    rules = engine_rules(game)
    players = len(game.players)
    verdict = None
    errors: dict[str, list[str]] = {}
    # The trump of the deal being entered comes with the link (?trump=), the leader too.
    trump = request.values.get("trump", "")
    trump = trump if trump in this.judge_trumps else (this.judge_trumps or ("",))[0]
    leader = whole(request.values.get("leader")) or 0
    values = {
        "trump": trump,
        "cards": request.form.get("cards", ""),
        "leader": str(leader % players),
    }
    winner_name = None
    reasons: list[str] = []
    values["next"] = request.form.get("next", "")[:8]
    values["hand"] = request.form.get("hand", "")[:200]
    may: str | None = None
    if request.method == "POST" and request.form.get("action") == "may":
        # May the next player play this card, on the trick as it stands?
        trick = values["cards"][:200].split()
        try:
            this.may_play(
                trump, trick[0] if trick else None, values["next"], values["hand"].split(), rules
            )
        except (RulesError, ValueError) as error:
            problems = error.problems if isinstance(error, RulesError) else []
            errors = messages_by_group(problems, None) if problems else {"trump": ["?"]}
        else:
            may = values["next"]
    elif request.method == "POST":
        try:
            cards = values["cards"][:200].split()
            verdict = this.judge(trump, cards, rules, players)
        except (RulesError, ValueError) as error:
            problems = error.problems if isinstance(error, RulesError) else []
            errors = messages_by_group(problems, None) if problems else {"trump": ["?"]}
        else:
            lang = str(get_locale() or "fr")
            names = tuple(game.players)
            winner_name = names[(leader + verdict["winner"]) % players]
            reasons = [step.text(names, lang) for step in verdict.get("reasons", [])]
    status = 422 if errors else 200
    page = render_template(
        "judge.html",
        game=game,
        values=values,
        verdict=verdict,
        errors=errors,
        rules=rules,
        deck=this.judge_deck(rules),
        winner_name=winner_name,
        reasons=reasons,
        may=may,
    )
    return page, status


@bp.get("/g/<token>/rules")
def rules_page(token: str) -> str:
    """A short summary of the game's rules, with this table's house rules."""
    game = load(token)
    stake = Decimal(game.stake) if game.stake else None
    scored = service.scored(game)
    page = render_template(
        "rules.html",
        game=game,
        flags=home_of(game.game).flags,
        values=scored.flag_values(),
        stake=stake,
        balanced=scored.balanced,
    )
    return page
