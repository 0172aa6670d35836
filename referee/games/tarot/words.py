"""Every word of French tarot, as the one catalogue's message ids (`N_`; the
French is in `translations/fr`). Standard library only."""

from __future__ import annotations

from typing import Final

from referee.engine.catalog import N_, NC_
from referee.engine.words import Words

#: Problem code -> message id (codes `tarot_`, the game's own).
MESSAGES: Final[dict[str, str]] = {
    "tarot_passed_with": N_(
        "everyone passed: this deal has no {field}, it is dealt again by the next dealer"
    ),
    "tarot_points": N_("{field}: {value} is not a whole or half number of points from 0 to 91"),
    "tarot_points_sum": N_(
        "{field}: the two sides' points add up to 91, not {points} and {defence}; type one "
        "of the two"
    ),
    "tarot_chelem_failed_points": N_(
        "{field}: with all 91 points every trick was the taker's side's: the chelem was made"
    ),
    "tarot_chelem_defence_points": N_(
        "{field}: the defence took every trick, so the taker's side keeps at most {most} "
        "points (the dog and the excuse), not {points}"
    ),
    "tarot_bouts_defence": N_(
        "{field}: {defence} points to the defence leave the taker's side {points}, which "
        "cannot hold {bouts} {bouts|bout|bouts}: each is worth 4½ points, and the other "
        "side's bouts too"
    ),
    "tarot_petit_bouts": N_(
        "{field}: the petit is a bout, and the side that took it in the last trick holds "
        "it: not with {bouts} {bouts|bout|bouts} to the taker's side"
    ),
    "tarot_chelem_unsaid": N_(
        "{field}: {points} points to the taker's side is every card to one side, so every "
        "trick: say which chelem it was"
    ),
    "tarot_points_whole": N_(
        "{field}: at four players each side ends with an even number of cards, so its "
        "points are whole, not {points}"
    ),
    "tarot_bouts_points": N_(
        "{field}: {points} points cannot hold {bouts} {bouts|bout|bouts}: each is worth "
        "4½ points, and the other side's bouts too"
    ),
    "tarot_partner": N_("{field}: only a table of five calls a king, not of {players}"),
    "tarot_poignees": N_(
        "{field}: each poignée is simple (1), double (2) or triple (3), one a player at most"
    ),
    "tarot_poignee_trumps": N_(
        "{field}: {count} poignées of these sizes need {trumps} trumps, the game has 22"
    ),
    "tarot_chelem_points": N_(
        "{field}: a chelem takes every trick, so its side has 87 points or more "
        "(the excuse aside), not {points}"
    ),
    "tarot_chelem_bouts": N_(
        "{field}: a chelem takes every trick, so its side holds the 21 and the petit: "
        "2 or 3 bouts, not {bouts}"
    ),
    "tarot_after_end": N_("the game ended at deal {ended_at}; no deal may follow"),
}

#: Its own fields, as players name them.
FIELDS: Final[dict[str, str]] = {
    "bouts": NC_("field", "bouts"),
    "points": NC_("field", "points"),
    "defence": NC_("field", "defence's points"),
    "petit_au_bout": NC_("field", "petit au bout"),
    "poignees": NC_("field", "poignées"),
    "chelem": NC_("field", "chelem"),
}

#: The contracts, as the record names them, in the players' words.
VALUES: Final[dict[str, str]] = {
    "petite": N_("petite"),
    "prise": N_("prise"),
    "garde": N_("garde"),
    "garde_sans": N_("garde sans le chien"),
    "garde_contre": N_("garde contre le chien"),
}

#: Explanation step code -> message id (`referee.engine.explain`): the FFT's count.
EXPLANATIONS: Final[dict[str, str]] = {
    "tarot_passed": N_("Everyone passed: the next dealer deals again."),
    "tarot_needed": N_(
        "{who} took a {contract} (×{multiplier}) with {n} {n|bout|bouts}: {needed} points needed."
    ),
    "tarot_just_made": N_("{points} points: just made, 25 × {multiplier} = {value}."),
    "tarot_made": N_(
        "{points} points: made by {margin}, (25 + {margin}) × {multiplier} = {value}."
    ),
    "tarot_failed": N_(
        "{points} points: failed by {margin}, (25 + {margin}) × {multiplier} = {value} "
        "to the defence."
    ),
    "tarot_petit_taker": N_(
        "Petit au bout won by the taker's side: 10 × {multiplier} = {value}, theirs."
    ),
    "tarot_petit_defence": N_(
        "Petit au bout won by the defence: 10 × {multiplier} = {value}, theirs."
    ),
    "tarot_poignee": N_(
        "{n} {n|poignée|poignées} shown: {value}, never multiplied, to the side that won the deal."
    ),
    "tarot_chelem_announced_made": N_("Chelem announced and made: 400."),
    "tarot_chelem_made": N_("Chelem made without announcing it: 200."),
    "tarot_chelem_announced_failed": N_("Chelem announced and failed: 200 to the defence."),
    "tarot_chelem_defence": N_("Chelem of the defence: 200 to the defence."),
    "tarot_shares": N_("So {value} to the taker's side from each defender: {gains}."),
    "tarot_shares_lost": N_("So {value} to each defender from the taker's side: {gains}."),
}

#: Its marks beside a deal on the score sheet.
MARKS: Final[dict[str, str]] = {
    "tarot-made": N_("contract made"),
    "tarot-failed": N_("contract failed"),
    "tarot-chelem": N_("chelem"),
}

#: What the registry puts in the shared tables (`referee.engine.words`).
WORDS: Final = Words(
    messages=MESSAGES, fields=FIELDS, values=VALUES, steps=EXPLANATIONS, marks=MARKS
)
