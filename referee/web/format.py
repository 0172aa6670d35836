"""Template filters: numbers and money in the player's locale."""

from __future__ import annotations

from decimal import Decimal

from flask import Flask
from flask_babel import format_currency, format_decimal


def signed(value: int) -> str:
    """A score change with its sign: +5, −3, 0 (a real minus sign)."""
    if value > 0:
        return f"+{format_decimal(value)}"
    if value < 0:
        return f"−{format_decimal(-value)}"
    return "0"


def number(value: int) -> str:
    """A score, with a real minus sign."""
    return f"−{format_decimal(-value)}" if value < 0 else str(format_decimal(value))


def money(amount: Decimal, currency: str) -> str:
    """An amount of money in the locale's way: "3,00 €" or "€3.00"."""
    return str(format_currency(amount, currency))


def register_filters(app: Flask) -> None:
    """Make the filters available to the templates."""
    app.jinja_env.filters["signed"] = signed
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["money"] = money
