"""Template filters: numbers and money in the player's locale.

Scores are small whole numbers shown hundreds of times on a scoreboard, so they
are grouped by hand with the locale's separator (looked up once per request)
rather than through Babel's general formatter.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from babel.numbers import get_group_symbol
from flask import Flask, g
from flask_babel import format_currency, format_date, get_locale

MINUS = "−"  # a real minus sign, as wide as the plus


def _group() -> str:
    locale = str(get_locale() or "fr")
    cached: dict[str, str] = g.setdefault("_group_symbols", {})
    if locale not in cached:
        cached[locale] = get_group_symbol(locale)
    return cached[locale]


def number(value: int) -> str:
    """A score: 1 280 in French, 1,280 in English, with a real minus sign."""
    text = f"{abs(value):,}".replace(",", _group()) if abs(value) >= 1000 else str(abs(value))
    return MINUS + text if value < 0 else text


def signed(value: int) -> str:
    """A score change with its sign: +5, −3, 0."""
    return "+" + number(value) if value > 0 else number(value)


def money(amount: Decimal, currency: str) -> str:
    """An amount of money in the locale's way: "−3,00 €" or "−€3.00", with a real minus."""
    return str(format_currency(amount, currency)).replace("-", MINUS)


def day(value: datetime.date) -> str:
    """A day as the locale says it in full: "mardi 1 décembre 2026"."""
    return str(format_date(value, "full"))


def register_filters(app: Flask) -> None:
    """Make the filters available to the templates."""
    app.jinja_env.filters["day"] = day
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["money"] = money
