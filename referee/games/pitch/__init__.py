"""10-point Pitch with jokers and off-jack: teams, bids, moon shots, 52 to win.

One package holds the game: `rules` (pure standard library: how its record reads
and scores), `words` (what players read of it, in the catalogue's message ids),
`home` (its pages: the deal form, its lines, its sheets) and `templates/`. The
registry (`referee.games`) knows it by this package's `GAME`.
"""

from referee.games.pitch.rules import GAME

__all__ = ["GAME"]
