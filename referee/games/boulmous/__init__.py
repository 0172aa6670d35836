"""Boulmous: 24 cards, bids of 3 to 6 tricks, bowers, boîtes, first to 21.

One package holds the game: `rules` (pure standard library: how its record reads
and scores), `words` (what players read of it, in the catalogue's message ids),
`home` (its pages: the deal form, its lines, its sheets) and `templates/`. The
registry (`referee.games`) knows it by this package's `GAME`.
"""

from referee.games.boulmous.rules import GAME

__all__ = ["GAME"]
