"""What players read about each game: names, house rules, contracts, suits, point cards.

The engine names things in the record format's words; this module gives each the
words a player reads, in French or English (lazy, so the locale is the request's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

from referee.engine import GAMES

GAME_NAMES = {
    "boulmous": _l("Boulmous"),
    "bombu": _l("Bombu provençal"),
    "pitch": _l("10-point Pitch"),
}
GAME_BLURBS = {
    "boulmous": _l("4 players, 24 cards, bid 3 to 6 tricks; first to 21."),
    "bombu": _l("4 players, 32 cards, 24 deals of six penalty contracts; lowest wins."),
    "pitch": _l("4 players in teams (or 5 alone), bids and moon shots; first to 52."),
}


@dataclass(frozen=True)
class Flag:
    """A house rule as the new-game form shows it."""

    name: str
    label: Any
    help: Any
    kind: str  # "int", "bool" or "choice"
    choices: tuple[tuple[str, Any], ...] = ()
    low: int = 1
    high: int = 999


FLAGS: dict[str, tuple[Flag, ...]] = {
    "boulmous": (
        Flag("target", _l("Target score"), _l("The game ends when someone reaches it."), "int"),
        Flag(
            "taker_scores",
            _l("A taker who makes the bid scores"),
            _l("The tricks taken (usual), or the bid itself."),
            "choice",
            (("tricks", _l("the tricks taken")), ("bid", _l("the bid"))),
        ),
        Flag(
            "failed_taker_keeps_tricks",
            _l("A failed taker keeps his tricks"),
            _l("Off: he loses the bid. On: tricks taken minus the bid."),
            "bool",
        ),
    ),
    "bombu": (
        Flag(
            "contract_order",
            _l("Order of the contracts"),
            _l("Each manche plays the six contracts once: in any order, or 1 to 6."),
            "choice",
            (("free", _l("any order")), ("fixed", _l("1 to 6"))),
        ),
    ),
    "pitch": (
        Flag(
            "points",
            _l("Point variant"),
            _l("Which cards count: 10 is the usual game with jokers and the off-jack."),
            "choice",
            tuple((str(n), str(n)) for n in (5, 7, 8, 10, 11, 13, 14, 15, 16)),
        ),
        Flag("target", _l("Target score"), _l("The first to reach it wins."), "int"),
        Flag(
            "bidder_scores",
            _l("Bidders who make it receive"),
            _l("The bid (usual), or every point they took."),
            "choice",
            (("bid", _l("the bid")), ("points", _l("their points"))),
        ),
        Flag(
            "defenders_score",
            _l("Defenders score their points"),
            _l("On (usual): the other side scores the points it took."),
            "bool",
        ),
        Flag("reverse", _l("Upside-down order"), _l("The 2 is highest, the ace lowest."), "bool"),
        Flag(
            "dirty",
            _l("Dirty pitch"),
            _l("The 2 is won like any card instead of staying with its player."),
            "bool",
        ),
    ),
}


def default_rules(game: str) -> dict[str, Any]:
    """The flags a new game starts with (RULINGS.md's defaults), as the engine writes them."""
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
    "GAME_NAMES": GAME_NAMES,
    "GAME_BLURBS": GAME_BLURBS,
    "SUITS": SUITS,
    "CONTRACTS": CONTRACTS,
    "CONTRACT_HELP": CONTRACT_HELP,
    "POINT_CARDS": POINT_CARDS,
    "MARKS": MARKS,
}
