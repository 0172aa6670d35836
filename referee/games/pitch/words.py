"""Pitch's words: what players read of it (`referee.engine.words`), as the
one catalogue's message ids; the French is in `translations/fr`."""

from __future__ import annotations

from typing import Final

from referee.engine.catalog import N_, NC_
from referee.engine.words import Words

#: Refusals: problem code -> message.
MESSAGES: Final = {
    "pitch_variant": N_("{value}-point pitch does not exist; the variants are {variants}"),
    "pitch_bid_range": N_('{field} {value} is not a bid: {low} to {high}, or "moon"'),
    "point_missing": N_(
        'who won {card}? Choose the player, or "Dead" if it was burned or thrown away'
    ),
    "point_not_in_variant": N_("{value} is not a point card in {variant}-point pitch"),
    "partner_four_handed": N_("a four-handed game has no called partner: partners sit opposite"),
    "partner_is_bidder": N_("{name}, the bidder, cannot be his own partner"),
    "auction_dealer_stuck": N_("everyone else passed, so the dealer must bid"),
    "auction_dealer_four": N_(
        "everyone else passed, so the dealer must take the bid at {bid}, not {value}"
    ),
    "auction_bidder": N_("the highest bid of the auction was made by {name}, not by the bidder"),
    "card_not_trump": N_("{value} is not a trump; only trumps are played once {suit} is trump"),
}

#: Its own fields, as players name them.
FIELDS: Final = {
    "bidder": NC_("field", "bidder"),
}

#: What its record names with a key, in the players' words.
VALUES: Final = {
    "ace": N_("the ace"),
    "jack": N_("the jack"),
    "off_jack": N_("the off-jack"),
    "joker_high": N_("the high joker"),
    "joker_low": N_("the low joker"),
    "ten": N_("the ten"),
    "three": N_("the three"),
    "two": N_("the two"),
    "off_ace": N_("the off-ace"),
    "off_ten": N_("the off-ten"),
    "off_three": N_("the off-three"),
    "off_two": N_("the off-two"),
}

#: Its explanation steps (why a deal scored what it did; why a card wins).
STEPS: Final = {
    "pitch_points": N_("{side} took {points} of the {total} points; the others {others}."),
    "pitch_made": N_("{who} bid {bid}: made, {side} {amount}."),
    "pitch_set": N_("{who} bid {bid}: set, {side} {amount}."),
    "pitch_defenders": N_("The defenders score their points: {side} {amount}."),
    "pitch_defenders_each": N_("The defenders score their points together: {side} {amount} each."),
    "pitch_defender_idle": N_(
        "{side} took no point card, yet each defender scores what the defenders took together."
    ),
    "partner_not_winner": N_(
        "{side} reached {target} too, but the bidder goes out first: {who} alone wins."
    ),
    "moon_made": N_("Moon made from {score}: {side} {n|goes|go} to {reached}."),
    "moon_failed": N_(
        "Moon failed: {side} took {points} of the {total} points and {n|loses|lose}."
    ),
    "game_won": N_("{side} {n|wins|win} the game."),
    "two_kept": N_("The 2 goes to whoever played it."),
}

#: Its marks beside a deal on the score sheet.
MARKS: Final = {
    "set": N_("set"),
    "moon-made": N_("moon made"),
    "moon-failed": N_("moon failed"),
}

WORDS: Final = Words(messages=MESSAGES, fields=FIELDS, values=VALUES, steps=STEPS, marks=MARKS)
