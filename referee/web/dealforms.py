"""Deal entry forms: form fields -> a deal of the record format, and back for corrections.

Values that are not numbers are passed on as typed, so the engine's message quotes
them; an empty field is left out, so the engine says it is missing. Nothing here
decides what is legal: the engine does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from referee.engine.pitch import VARIANTS

#: ASCII digits only: Python's int() would also read "٣", "1_0" or "+1".
_WHOLE = re.compile(r"\s*-?[0-9]{1,6}\s*", re.ASCII)
#: Each count a player enters for a game, with the total a deal holds.
TOTALS = {"boulmous": {"tricks": 6}, "bombu": {"tricks": 8, "hearts": 8, "queens": 4}}
BOMBU_COUNTS = {
    "no-tricks": ("tricks",),
    "no-hearts": ("hearts",),
    "no-queens": ("queens",),
    "salad": ("tricks", "hearts", "queens"),
}

Values = dict[str, str]


def _value(text: str | None) -> Any:
    """A form value for the engine: a whole number when it is one, else the text."""
    if text is None or not text.strip():
        return None
    return int(text) if _WHOLE.fullmatch(text) else text.strip()


def _put(deal: dict[str, Any], key: str, text: str | None) -> None:
    value = _value(text)
    if value is not None:
        deal[key] = value


def _counts(form: Mapping[str, str], name: str, players: int, total: int) -> Any:
    """One count per player; empty boxes count 0, and a single empty box is filled
    with what the others leave of the deal's total."""
    values = [_value(form.get(f"{name}{seat}")) for seat in range(players)]
    if all(v is None for v in values):
        return None
    empty = [seat for seat, v in enumerate(values) if v is None]
    known = [v for v in values if isinstance(v, int)]
    if len(empty) == 1 and len(known) == players - 1 and total - sum(known) >= 0:
        values[empty[0]] = total - sum(known)
    return [0 if v is None else v for v in values]


def values_of(form: Mapping[str, str]) -> Values:
    """The raw entries, to show the form again as the player left it."""
    return {key: value for key, value in form.items() if key != "csrf_token"}


def deal_from_form(game: str, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
    """Build the deal the form describes."""
    if game == "boulmous":
        return _boulmous(form, players)
    if game == "bombu":
        return _bombu(form, players)
    return _pitch(form, players, rules)


def _boulmous(form: Mapping[str, str], players: int) -> dict[str, Any]:
    if form.get("passed"):
        return {"passed": True}
    deal: dict[str, Any] = {}
    _put(deal, "taker", form.get("taker"))
    bid = form.get("bid", "")
    deal["bid"] = bid if bid == "boulmous" else _value(bid)
    if deal["bid"] is None:
        del deal["bid"]
    _put(deal, "contract", form.get("contract"))
    tricks = _counts(form, "tricks", players, TOTALS["boulmous"]["tricks"])
    if tricks is not None:
        deal["tricks"] = tricks
    calls = [form.get(f"call{position}", "") for position in range(players)]
    if any(calls):  # the auction is optional: given only when a call is chosen
        deal["auction"] = [c if c in ("pass", "boulmous") else _value(c) for c in calls]
    return deal


def _bombu(form: Mapping[str, str], players: int) -> dict[str, Any]:
    contract = form.get("contract", "")
    deal: dict[str, Any] = {}
    _put(deal, "contract", contract)
    for name in BOMBU_COUNTS.get(contract, ()):
        counts = _counts(form, name, players, TOTALS["bombu"][name])
        if counts is not None:
            deal[name] = counts
    if contract in ("no-bombu", "salad"):
        _put(deal, "bombu", form.get("bombu"))
    if contract == "reussite":
        order = [_value(form.get(f"finish{place}")) for place in range(players)]
        deal["finish"] = [seat for seat in order if seat is not None]
    return deal


def _pitch(form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
    deal: dict[str, Any] = {}
    _put(deal, "bidder", form.get("bidder"))
    bid = form.get("bid", "")
    if bid:
        deal["bid"] = bid if bid == "moon" else _value(bid)
    _put(deal, "trump", form.get("trump"))
    points: dict[str, Any] = {}
    for card in VARIANTS[rules.points].points:
        text = form.get(f"p_{card}", "")
        if text == "dead":
            points[card.value] = None
        elif text:
            points[card.value] = _value(text)
    deal["points"] = points
    if players == 5:
        partner = form.get("partner", "")
        if partner:
            deal["partner"] = None if partner == "alone" else _value(partner)
    return deal


def values_from_deal(game: str, deal: Mapping[str, Any]) -> Values:
    """The form entries that describe a stored deal (to correct it)."""
    values: Values = {}
    for key, value in deal.items():
        if isinstance(value, list) and key not in ("finish", "auction"):
            for seat, count in enumerate(value):
                values[f"{key}{seat}"] = str(count)
        elif key == "finish":
            for place, seat in enumerate(value):
                values[f"finish{place}"] = str(seat)
        elif key == "auction":
            for position, call in enumerate(value):
                values[f"call{position}"] = str(call)
        elif key == "points":
            for card, seat in value.items():
                values[f"p_{card}"] = "dead" if seat is None else str(seat)
        elif key == "passed":
            values["passed"] = "1"
        elif key == "partner":
            values["partner"] = "alone" if value is None else str(value)
        else:
            values[key] = str(value)
    return values
