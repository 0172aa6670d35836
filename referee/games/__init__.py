"""The games Referee knows, one package each, and their one registry.

A game is a package of this one (`referee/games/<key>/`): its rules, its words,
its pages. Shared code never names a game: it asks `GAMES[key]` (the rules) or,
on the web side, the game's home (`referee.web.homes`). Adding a game is adding
its package and its name to `PACKAGES` (docs/ARCHITECTURE.md, "A game, step by
step: the score pad").

Standard library only, as the rules are: the engine reads records through this
registry.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from referee.engine.game import Game

#: The games' packages, in the order the app offers them.
PACKAGES: Final = ("boulmous", "bombu", "pitch", "tarot", "belote", "pad")

#: Each game's rules, by the key the record format names it with.
GAMES: Final[dict[str, Game[Any, Any]]] = {}


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Make a game known: its rules by its key, its words in the shared catalogue
    tables (a game added from outside, by a plug-in or a test, registers so too)."""
    game.words.register()
    GAMES[game.key] = game
    return game


for _package in PACKAGES:
    register(importlib.import_module(f"{__name__}.{_package}").GAME)
