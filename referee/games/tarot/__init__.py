"""French tarot, by the French Tarot Federation's rules: 3 to 5 players, contracts
from the petite to the garde contre, bouts, petit au bout, poignées, chelem.

One package holds the game: `scoring` and `rules` (pure standard library: a
deal's value, how its record reads and scores), `words` (what players read of
it, in the catalogue's message ids), `home` (its pages: the deal form, its
lines, its sheets) and `templates/`. The registry (`referee.games`) knows it by
this package's `GAME`.
"""

from referee.games.tarot.rules import GAME

__all__ = ["GAME"]
