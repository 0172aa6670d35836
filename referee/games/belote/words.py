"""Every word of belote and coinche, as the one catalogue's message ids (`N_`; the
French is in `translations/fr`). Standard library only."""

from __future__ import annotations

from typing import Final

from referee.engine.catalog import N_, NC_
from referee.engine.words import Words

#: Problem code -> message id (codes `belote_`, the game's own).
MESSAGES: Final[dict[str, str]] = {
    "belote_passed_with": N_(
        "everyone passed: this deal has no {field}, it is dealt again by the next dealer"
    ),
    "belote_points": N_("{field}: {value} is not a whole number of points from 0 to 162"),
    "belote_points_sum": N_(
        "{field}: the two sides' points add up to 162, not {points} and {defence}; type one "
        "of the two"
    ),
    "belote_points_one": N_(
        "{field}: no side ends with {points} {points|point|points}: the smallest card "
        "that counts is a jack (2), so the other side cannot have just 1"
    ),
    "belote_capot_points": N_(
        "{field}: a capot takes every trick, so every point: not {points} to this side"
    ),
    "belote_capot_both": N_("{field}: only one side can take every trick"),
    "belote_belote_both": N_(
        "{field}: the king and queen of trumps are in one hand, so the belote is one side's"
    ),
    "belote_announces": N_(
        "{field}: each side's announcements are tierce, cinquante, cent or a carré, eight at most"
    ),
    "belote_announce_cards": N_(
        "{field}: for {given}, these announcements need {cards} cards, its two hands hold 16"
    ),
    "belote_carre_twice": N_(
        "{field}: {card}: the game holds only {most}, whoever announces {most|it|them}"
    ),
    "belote_best_needed": N_(
        "{field}: both sides' best announcements are worth {value}: say which side's is "
        "the higher (or the one at trumps, or the first to play), or neither"
    ),
    "belote_best_unneeded": N_(
        "{field}: only equal best announcements need this, and these are not equal"
    ),
    "belote_bid_classic": N_(
        "{field}: classic belote has no bids, the taker takes the turned card or names a "
        "trump (coinche is a house rule)"
    ),
    "belote_bid": N_("{field}: {value} is not a bid: 80 to 160 by tens, or capot"),
    "belote_generale_off": N_(
        "{field}: this table does not play the générale (a house rule of the new game)"
    ),
    "belote_coinche_unbid": N_("{field}: only a bid can be coinché, and this deal has none"),
    "belote_capot_rule": N_("{field}: a capot counts 252 or 250 card points, not {value}"),
    "belote_after_end": N_("the game ended at deal {ended_at}; no deal may follow"),
}

#: Its own fields, as players name them.
FIELDS: Final[dict[str, str]] = {
    "points": NC_("field", "points"),
    "defence": NC_("field", "defence's points"),
    "capot": NC_("field", "capot"),
    "belote": NC_("field", "belote-rebelote"),
    "announces": NC_("field", "announcements"),
    "best": NC_("field", "best announcement"),
    "coinche": NC_("field", "coinche"),
}

#: What the record names, in the players' words.
VALUES: Final[dict[str, str]] = {
    "side_taker": N_("the taking side"),
    "side_defence": N_("the defence"),
    "generale": N_("générale"),
    "tierce": N_("tierce"),
    "cinquante": N_("cinquante"),
    "cent": N_("cent"),
    "carre": N_("carré of aces, tens, kings or queens"),
    "carre_9": N_("carré of nines"),
    "carre_j": N_("carré of jacks"),
}

#: Explanation step code -> message id (`referee.engine.explain`).
EXPLANATIONS: Final[dict[str, str]] = {
    "belote_passed": N_("Everyone passed: the next dealer deals again."),
    "belote_still_held": N_("The {value} points held by the litige wait for the next deal."),
    "belote_took": N_(
        "{who} took with {trump} as trumps: the taking side must count more than the defence."
    ),
    "belote_bid": N_("{who} bid {bid} with {trump} as trumps."),
    "belote_bid_coinche": N_("{who} bid {bid} with {trump} as trumps, coinché (×2)."),
    "belote_bid_surcoinche": N_("{who} bid {bid} with {trump} as trumps, surcoinché (×4)."),
    "belote_cards": N_("Card points: {taker} to the taking side, {defence} to the defence."),
    "belote_capot": N_("Capot: every trick to {side}, {value} points."),
    "belote_announces": N_("{side} {n|holds|hold} the best announcement: {value}."),
    "belote_announces_equal": N_("Equal best announcements: neither side scores them."),
    "belote_rebelote": N_("Belote-rebelote: 20 to {side}, whatever the result."),
    "belote_made": N_(
        "{count} against {other}: made. Each side scores its own: {taker} and {defence}."
    ),
    "belote_dedans": N_(
        "{count} against {other}: dedans. The defence scores {value}: 162 (or its capot) "
        "and the announcements that score, both sides'."
    ),
    "belote_litige": N_(
        "{count} against {other}: litige. The defence scores its {defence}; the taking "
        "side's {held} wait for the winner of the next deal."
    ),
    "belote_held": N_(
        "The {value} points held by the litige go to {side}, the winners of this deal."
    ),
    "coinche_made_bid_points": N_(
        "{count} for a bid of {bid}: made. The taking side scores {bid} + {points} = "
        "{value}, the defence its {defence}."
    ),
    "coinche_made_bid": N_(
        "{count} for a bid of {bid}: made. The taking side scores its bid, {bid}, the "
        "defence its {defence}."
    ),
    "coinche_made_rounded": N_(
        "{count} for a bid of {bid}: made. Points to the nearest ten: the taking side "
        "scores {bid} + {points} = {value}, the defence {defence}."
    ),
    "coinche_capot_made": N_(
        "Every trick taken: the bid of {bid} is made. The taking side scores {bid} + "
        "{points} = {value}."
    ),
    "coinche_made_coinched": N_(
        "{count} for a bid of {bid}: made. The taking side scores (160 + {bid}) × "
        "{multiplier} = {value}, and the announcements that score, both sides'; the "
        "defence only its belote."
    ),
    "coinche_failed": N_(
        "{count} for a bid of {bid}: failed. The defence scores (160 + {bid}) × "
        "{multiplier} = {value}, and the announcements that score, both sides'; the "
        "taking side only its belote."
    ),
    "coinche_capot_failed": N_(
        "Not every trick: the bid of {bid} failed. The defence scores (160 + {bid}) × "
        "{multiplier} = {value}, and the announcements that score, both sides'; the "
        "taking side only its belote."
    ),
    "coinche_generale_made": N_(
        "Every trick to the taker alone: the générale is made, {bid} × {multiplier} = "
        "{value}, and the announcements that score, both sides'."
    ),
    "coinche_generale_failed": N_(
        "Not every trick to the taker alone: the générale failed, {bid} × {multiplier} = "
        "{value} to the defence, and the announcements that score, both sides'."
    ),
    "belote_total": N_("So {side} {n|scores|score} {taker}, the other side {defence}."),
}

#: Its marks beside a deal on the score sheet.
MARKS: Final[dict[str, str]] = {
    "belote-made": N_("contract made"),
    "belote-failed": N_("dedans"),
    "belote-litige": N_("litige"),
    "belote-capot": N_("capot"),
}

#: What the registry puts in the shared tables (`referee.engine.words`).
WORDS: Final = Words(
    messages=MESSAGES, fields=FIELDS, values=VALUES, steps=EXPLANATIONS, marks=MARKS
)
