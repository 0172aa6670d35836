"""The new-game form (WTForms), and turning engine problems into messages beside fields."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import AnyOf, Length, Optional, ValidationError

from referee.engine.errors import Problem
from referee.engine.flags import kind_of
from referee.engine.records import MAX_NAME
from referee.engine.settlement import StakePer
from referee.games import GAMES
from referee.web.catalog import CURRENCIES, default_rules
from referee.web.home import Flag

#: The most seats a new-game form has: the largest table of the registered games;
#: each game's form shows its own (`Home.seats`).
MAX_PLAYERS = max(max(game.player_counts) for game in GAMES.values())
#: A whole number as a form sends it: ASCII digits only (no ²,①, ٣, 1_0 or +1,
#: which Python's int() would read), short enough to be a count, a seat or a version.
WHOLE = re.compile(r"[0-9]{1,15}", re.ASCII)
#: A stake as people type it: digits, a decimal point or comma, two decimals at most.
STAKE = re.compile(r"[0-9]{1,9}(?:[.,][0-9]{1,2})?", re.ASCII)


def whole(text: str | None) -> int | None:
    """The form value as a whole number, if it is one written in ASCII digits."""
    if text is None or not WHOLE.fullmatch(text.strip()):
        return None
    return int(text.strip())


#: The record's `stake_per` values, as the form offers them.
STAKES_PER = tuple(per.value for per in StakePer)


def stake_of(text: str | None) -> str | None:
    """The stake typed on the form, as the record writes it ("0,50" -> "0.50"); what is
    not written like money goes on as typed, for the engine to refuse."""
    text = (text or "").strip()
    if not text:
        return None
    return text.replace(",", ".") if STAKE.fullmatch(text) else text


class NewGameForm(FlaskForm):  # type: ignore[misc]
    """Players in seating order, first dealer, stake; the house rules are read apart."""

    # The seats' boxes, player0 to player11, are added below the class.
    first_dealer = StringField(
        default="0",
        validators=[
            Optional(),
            AnyOf([str(seat) for seat in range(MAX_PLAYERS)], message=_l("Choose a seat.")),
        ],
    )
    stake = StringField(validators=[Optional(), Length(max=12)])
    #: What the stake is paid for (the record's `stake_per`).
    stake_per = StringField(
        default="game",
        validators=[
            Optional(),
            AnyOf(
                STAKES_PER,
                message=_l("Choose whether the stake is paid by the game or by the point."),
            ),
        ],
    )
    currency = StringField(default="EUR", validators=[AnyOf(CURRENCIES)])
    place = StringField(validators=[Optional(), Length(max=80)])

    def __init__(self, *args: Any, seats: int = MAX_PLAYERS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The seats this game's form shows (`Home.seats`): the first dealer is one.
        self.seats = seats

    def validate_first_dealer(self, field: StringField) -> None:
        """A seat of this game's form, not only of the biggest one."""
        seat = whole(field.data)
        if seat is not None and seat >= self.seats:
            raise ValidationError(_l("Choose a seat."))

    def dealer(self) -> int:
        """The first dealer's seat (the validator allows only a seat)."""
        return whole(self.first_dealer.data) or 0

    def names(self) -> list[str]:
        """The names given, in seat order, blanks left out."""
        fields = (self[f"player{seat}"] for seat in range(MAX_PLAYERS))
        return [f.data.strip() for f in fields if f.data and f.data.strip()]


for _seat in range(MAX_PLAYERS):
    _name = StringField(validators=[Optional(), Length(max=MAX_NAME)])
    setattr(NewGameForm, f"player{_seat}", _name)


#: The new-game form's fields folded under "More options" (besides the house rules,
#: `rule_*`): a table mostly plays with the usual ones.
FOLDED = frozenset({"stake", "currency", "stake_per", "place", "confirm_deals"})


def more_options_open(
    game: str, form: NewGameForm, rules: Mapping[str, Any], errors: Mapping[str, Any], confirm: bool
) -> bool:
    """Whether the new-game form shows its "More options" unfolded: when one of them
    has an error, or holds something other than a new game's default (a stake typed,
    a house rule changed, a game started again with its options), so that nothing
    refused or chosen is hidden from the player."""
    asked = _asked_first(game)
    folded = (key for key in errors if key.startswith("rule_") and key[5:] not in asked)
    if any(key in FOLDED for key in errors) or any(folded):
        return True
    return (
        {k: v for k, v in rules.items() if k not in asked}
        != {k: v for k, v in default_rules(game).items() if k not in asked}
        or bool((form.stake.data or "").strip())
        or (form.stake_per.data or StakePer.GAME) != StakePer.GAME
        or (form.currency.data or "EUR") != "EUR"
        or bool((form.place.data or "").strip())
        or confirm
    )


def _asked_first(game: str) -> frozenset[str]:
    """The house rules the form asks above the fold (lines of text: the game a table
    names), so never a reason to unfold "More options"."""
    engine = GAMES[game]
    defaults = engine.parse_rules({})
    return frozenset(
        flag.name for flag in engine.flags if kind_of(flag, getattr(defaults, flag.name)) == "text"
    )


def values_of(form: Mapping[str, str]) -> dict[str, str]:
    """The raw entries of a form, to show it again as the player left it."""
    return {key: value for key, value in form.items() if key != "csrf_token"}


def rules_from_form(flags: Iterable[Flag], form: Mapping[str, str]) -> dict[str, Any]:
    """The house rules as chosen among a game's `flags` (its home's); the engine
    checks them."""
    rules: dict[str, Any] = {}
    for flag in flags:
        text = form.get(f"rule_{flag.name}")
        if flag.kind == "bool":
            rules[flag.name] = text == "on"
        elif text is None or not text.strip():
            continue
        elif flag.kind == "text":
            rules[flag.name] = text
        elif flag.kind == "int" or all(value.isdigit() for value, _words in flag.choices):
            number = whole(text)
            rules[flag.name] = text if number is None else number
        else:
            rules[flag.name] = text
    return rules


_INDEX = re.compile(r"\[\d+\]")


#: Fields of the record as a whole: no box of a form holds them, their problems are
#: said at the top of the form (a deal past the most a game holds blames "deals").
WHOLE_RECORD = frozenset({"deals", "game", "format"})


def field_group(field: str | None) -> str:
    """The form group of a problem's field: `tricks[2]` -> tricks, `points.ace` -> p_ace."""
    if not field or field in WHOLE_RECORD:
        return ""
    if field.startswith("points."):
        return "p_" + field.split(".", 1)[1]
    if field.startswith("rules."):
        return "rule_" + field.split(".", 1)[1]
    return _INDEX.sub("", field).split(".", 1)[0]


def messages_of(problems: Iterable[Problem]) -> list[str]:
    """Every problem's message in the player's language, in one list (a page with no
    field to put them beside)."""
    return [m for group in messages_by_group(problems, None).values() for m in group]


def messages_by_group(problems: Iterable[Problem], deal: int | None) -> dict[str, list[str]]:
    """Each problem's message in the player's language, grouped by the field it blames.

    Problems of the deal being entered (`deal`, from 1) lose their "deal N:" prefix,
    since they are shown beside its fields; problems of other deals keep it.
    """
    lang = str(get_locale() or "fr")
    grouped: dict[str, list[str]] = {}
    for p in problems:
        shown = Problem(p.code, p.field, None, p.params) if p.deal == deal else p
        group = field_group(p.field) if p.deal in (deal, None) else ""
        grouped.setdefault(group, []).append(shown.message(lang))
    return grouped


def table_seats(count: int) -> list[tuple[int, int]]:
    """Where each seat's name goes on the new-game form's table diagram (a 240×150
    box): seat 1 at the top, then clockwise, as players sit."""
    return [
        (
            round(120 + 96 * math.sin(2 * math.pi * seat / count)),
            round(78 - 58 * math.cos(2 * math.pi * seat / count)),
        )
        for seat in range(count)
    ]
