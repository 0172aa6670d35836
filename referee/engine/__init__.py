"""The rules engine: pure Python, standard library only (no Flask, no database, no I/O).

`GAMES` maps each game's key, as the record format names it, to its rules.
"""

from __future__ import annotations

from typing import Any, Final

from referee.engine.bombu import BOMBU_GAME
from referee.engine.boulmous import BOULMOUS_GAME
from referee.engine.game import Game
from referee.engine.pitch import PITCH_GAME

GAMES: Final[dict[str, Game[Any, Any]]] = {
    BOULMOUS_GAME.key: BOULMOUS_GAME,
    BOMBU_GAME.key: BOMBU_GAME,
    PITCH_GAME.key: PITCH_GAME,
}

__all__ = ["GAMES", "Game"]
