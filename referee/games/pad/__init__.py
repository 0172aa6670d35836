"""The free score pad ("Carnet"): everything the table plays between two games of
Boulmous, deal by deal. Its rules (`rules.py`, standard library only), its words
(`words.py`), its web side (`home.py`, Flask: imported by the web app only) and its
templates (`templates/`).
"""

from __future__ import annotations

from referee.games.pad.rules import GAME

__all__ = ["GAME"]
