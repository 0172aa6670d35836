"""What players read that every game shares: suits, marks, currencies; and each
game's home, for the templates.

The engine names things in the record format's words; this module gives each the
words a player reads, in French or English (lazy, so the locale is the request's).
A game's own words (its name, contracts, cards, house rules) are its
package's (`referee/games/<key>/`).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l

from referee.engine.settlement import StakePer
from referee.engine.words import MARKS
from referee.games import GAMES


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


def mark_word(kind: str) -> str:
    """A deal's mark in the player's words (`referee.engine.words.MARKS`: the game's
    own marks and the shared ones); "" for a mark the game does not show."""
    words = MARKS.get(kind, "")
    return gettext(words) if words else ""


CURRENCIES = ("EUR", "CHF", "GBP", "USD", "CAD")

#: What every template may use (the games' homes add theirs: `referee.web.homes`).
TEMPLATE_GLOBALS: dict[str, Any] = {
    "SUITS": SUITS,
    "mark_word": mark_word,
    # What a stake is paid for, as the engine names it ("game", "point").
    "StakePer": StakePer,
}
