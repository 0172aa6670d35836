"""Belote and coinche (contrée): four players in two teams, 162 points a deal,
belote-rebelote, announcements, capot; classic belote's "dedans" and "litige",
coinche's bids, coinche and surcoinche. One game, its variant a house rule.

One package holds the game: `scoring` and `rules` (pure standard library: a
deal's value, how its record reads and scores), `words` (what players read of
it), `home` (its pages: the deal form, its lines, its sheets) and `templates/`.
The registry (`referee.games`) knows it by this package's `GAME`.
"""

from referee.games.belote.rules import GAME

__all__ = ["GAME"]
