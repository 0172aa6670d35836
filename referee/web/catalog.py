"""What players read: contracts, suits, point cards, marks; and each game's home.

The engine names things in the record format's words; this module gives each the
words a player reads, in French or English (lazy, so the locale is the request's).
A game's own name, blurb and house rules are its home's (`referee/web/homes/`).
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_pgettext as _pl

from referee.engine import GAMES
from referee.engine.settlement import StakePer
from referee.web.homes import HOMES, Home, home_of, summary


def home(game: Any) -> Home:
    """The home of a game row, or of a game's key (for templates)."""
    return home_of(game if isinstance(game, str) else game.game)


def default_rules(game: str) -> dict[str, Any]:
    """The flags a new game starts with (docs/RULES.md's defaults), as the engine writes them."""
    engine = GAMES[game]
    return dict(engine.dump_rules(engine.parse_rules({})))


SUITS = {
    "spades": ("♠", _l("spades")),
    "hearts": ("♥", _l("hearts")),
    "diamonds": ("♦", _l("diamonds")),
    "clubs": ("♣", _l("clubs")),
    "no-trump": (_l("NT"), _l("no-trump")),
}

CONTRACTS = {
    "no-tricks": _l("No tricks"),
    "no-hearts": _l("No hearts"),
    "no-queens": _l("No queens"),
    "no-bombu": _l("No Bombu"),
    "salad": _l("Salad"),
    "reussite": _l("Réussite"),
}
CONTRACT_HELP = {
    "no-tricks": _l("+10 a trick; all 8 tricks: capot, −320"),
    "no-hearts": _l("+10 a heart"),
    "no-queens": _l("+20 a queen"),
    "no-bombu": _l("+80 for the K♥"),
    "salad": _l("all four at once; all 8 tricks: capot, −320"),
    "reussite": _l("first out −200, second −120"),
}

POINT_CARDS = {
    "ace": _l("Ace"),
    "jack": _l("Jack"),
    "off_jack": _l("Off-jack"),
    "joker_high": _l("High joker"),
    "joker_low": _l("Low joker"),
    "ten": _l("Ten"),
    "three": _l("Three"),
    "two": _l("Two"),
    "off_ace": _l("Off-ace"),
    "off_ten": _l("Off-ten"),
    "off_three": _l("Off-three"),
    "off_two": _l("Off-two"),
}

#: The same, as short as a grid row's header holds (the full name is read out).
POINT_CARDS_SHORT = {
    "ace": _pl("point card", "A"),
    "jack": _pl("point card", "J"),
    "off_jack": _pl("point card", "Off J"),
    "joker_high": _pl("point card", "JK+"),
    "joker_low": _pl("point card", "JK−"),
    "ten": _pl("point card", "10"),
    "three": _pl("point card", "3"),
    "two": _pl("point card", "2"),
    "off_ace": _pl("point card", "Off A"),
    "off_ten": _pl("point card", "Off 10"),
    "off_three": _pl("point card", "Off 3"),
    "off_two": _pl("point card", "Off 2"),
}

MARKS = {
    "void": _l("all passed"),
    "boite": _l("boîte"),
    "boulmous-made": _l("boulmous made"),
    "boulmous-failed": _l("boulmous failed"),
    "win": _l("wins"),
    "capot": _l("capot"),
    "set": _l("set"),
    "moon-made": _l("moon made"),
    "moon-failed": _l("moon failed"),
}

CURRENCIES = ("EUR", "CHF", "GBP", "USD", "CAD")

#: What every template may use.
TEMPLATE_GLOBALS: dict[str, Any] = {
    "HOMES": HOMES,
    "home": home,
    "deal_summary": summary,
    "SUITS": SUITS,
    "CONTRACTS": CONTRACTS,
    "CONTRACT_HELP": CONTRACT_HELP,
    "POINT_CARDS": POINT_CARDS,
    "POINT_CARDS_SHORT": POINT_CARDS_SHORT,
    "MARKS": MARKS,
    # What a stake is paid for, as the engine names it ("game", "point").
    "StakePer": StakePer,
}
