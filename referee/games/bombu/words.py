"""Bombu's words: what players read of it (`referee.engine.words`), as the
one catalogue's message ids; the French is in `translations/fr`."""

from __future__ import annotations

from typing import Final

from referee.engine.catalog import N_, NC_
from referee.engine.words import Words

#: Refusals: problem code -> message.
MESSAGES: Final = {
    "not_for_contract": N_("{field}: not counted in {contract}"),
    "hearts_total": N_("hearts add up to {total}, there are {expected}"),
    "queens_total": N_("queens add up to {total}, there are {expected}"),
    "no_trick_hearts": N_("{name} took no trick, so cannot have {count} {count|heart|hearts}"),
    "no_trick_queens": N_("{name} took no trick, so cannot have {count} {count|queen|queens}"),
    "no_trick_bombu": N_("{name} took no trick, so cannot have the Bombu (K♥)"),
    "too_many_cards": N_(
        "{name} took {tricks} {tricks|trick|tricks}, {cards} cards, but {hearts} {hearts|heart|hearts} and {queens} {queens|queen|queens} make at least {needed} cards"
    ),
    "bombu_without_heart": N_("the Bombu (K♥) is a heart, but {name} who took it has no heart"),
    "queen_of_hearts": N_(
        "these counts leave nobody who can hold the Q♥, which is both a heart and a queen"
    ),
    "finish_length": N_(
        "the Réussite order lists {count} {count|player|players}; give at least the first two, at most {players}"
    ),
    "finish_repeated": N_("{name} goes out twice in the Réussite order"),
    "contract_twice": N_("{value} was already played in manche {manche}, at deal {earlier}"),
    "contract_out_of_order": N_(
        "contracts are played in order here: {expected} comes next, not {value}"
    ),
    "after_last_deal": N_("a game of Bombu has {deals} deals; no deal may follow"),
    "reussite_not_open": N_("{value} cannot open its suit: a suit opens only with the {rank}"),
    "reussite_no_fit": N_("{value} does not follow on its suit's run, up or down"),
    "reussite_must_play": N_("no pass while a card can be laid: {cards}"),
}

#: Its own fields, as players name them.
FIELDS: Final = {
    "hearts": NC_("field", "hearts"),
    "queens": NC_("field", "queens"),
    "bombu": NC_("field", "Bombu (K♥)"),
    "finish": NC_("field", "Réussite order"),
    "start": NC_("field", "turned card"),
    "played": NC_("field", "cards laid"),
}

#: What its record names with a key, in the players' words.
VALUES: Final = {
    "no-tricks": N_("No tricks"),
    "no-hearts": N_("No hearts"),
    "no-queens": N_("No queens"),
    "no-bombu": N_("No Bombu"),
    "salad": N_("Salad"),
    "reussite": N_("Réussite"),
}

#: Its explanation steps (why a deal scored what it did; why a card wins).
STEPS: Final = {
    "capot": N_("Capot: {who} took all 8 tricks, {amount}; nothing else counts."),
    "per_trick": N_("+10 a trick: {gains}."),
    "per_heart": N_("+10 a heart: {gains}."),
    "per_queen": N_("+20 a queen: {gains}."),
    "bombu_card": N_("The Bombu (K♥): {who} {amount}."),
    "reussite_first": N_("First out of the Réussite: {who} {amount}."),
    "reussite_second": N_("Second out: {who} {amount}."),
    "highest_led_order": N_("{card} is the highest of the suit led ({order})."),
}

#: Its marks beside a deal on the score sheet.
MARKS: Final = {
    "capot": N_("capot"),
}

WORDS: Final = Words(messages=MESSAGES, fields=FIELDS, values=VALUES, steps=STEPS, marks=MARKS)
