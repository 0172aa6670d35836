"""Every word of French tarot (the start of issue 54): its refusals so far, marked
for the catalogue (`N_`). Registered with the game, once its package is in
`referee.games.PACKAGES`. Standard library only."""

from __future__ import annotations

from typing import Final

from referee.engine.catalog import N_
from referee.engine.words import Words

#: Problem code -> message id (codes `tarot_`, the game's own).
MESSAGES: Final[dict[str, str]] = {
    "tarot_passed_with": N_(
        "everyone passed: this deal has no {field}, it is dealt again by the next dealer"
    ),
    "tarot_points": N_("{field}: {value} is not a whole or half number of points from 0 to 91"),
    "tarot_bouts_points": N_(
        "{field}: {points} points cannot hold {bouts} {bouts|bout|bouts}: each is worth "
        "4.5 points, and the other side's bouts too"
    ),
    "tarot_partner": N_("{field}: only a table of five calls a king, not of {players}"),
    "tarot_poignees": N_(
        "{field}: each poignée is simple (1), double (2) or triple (3), one a player at most"
    ),
    "tarot_chelem_points": N_(
        "{field}: a chelem takes every trick, so the taker's side has 86.5 points or more, "
        "not {points}"
    ),
    "tarot_after_end": N_("the game ended at deal {ended_at}; no deal may follow"),
}

#: Explanation step code -> message id (`referee.engine.explain`).
EXPLANATIONS: Final[dict[str, str]] = {
    "tarot_passed": N_("Everyone passed: the next dealer deals again."),
    "tarot_value": N_("{who} needed {needed}: {margin} from it, so {who} scores {amount}."),
}

#: What the registry puts in the shared tables (`referee.engine.words`).
WORDS: Final = Words(messages=MESSAGES, steps=EXPLANATIONS)
