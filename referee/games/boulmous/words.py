"""Boulmous's words: what players read of it (`referee.engine.words`), as the
one catalogue's message ids; the French is in `translations/fr`."""

from __future__ import annotations

from typing import Final

from referee.engine.catalog import N_
from referee.engine.words import Words

#: Refusals: problem code -> message.
MESSAGES: Final = {
    "bid_range": N_('{field} {value} is not a bid: {low} to {high} tricks, or "boulmous"'),
    "auction_all_passed": N_("everyone passed in the auction, yet the deal has a taker"),
    "auction_taker": N_("the highest bid of the auction was made by {name}, not by the taker"),
    "passed_not_true": N_("a void deal is one everyone passed: it cannot be marked {value}"),
    "passed_with_bid": N_("a void deal's auction has a bid; everyone must have passed"),
}

#: Its explanation steps (why a deal scored what it did; why a card wins).
STEPS: Final = {
    "passed": N_("Everyone passed: nobody scores."),
    "taker_made": N_("{who} bid {bid} and took {took}: made, {amount}."),
    "taker_boite": N_("{who} bid {bid} and took {took}: boîte, {amount}."),
    "boulmous_made": N_("{who} bid boulmous and took all 6 tricks: made, {amount}."),
    "boulmous_failed": N_("{who} bid boulmous and took {took}: boîte, {amount}."),
    "others_tricks": N_("The others score their tricks: {gains}."),
    "reaches": N_("{who} reaches {total} and wins."),
    "right_bower": N_("{card} is the trump jack: the highest card of all."),
    "left_bower": N_("{card} is trump here: the same-colour jack, second after {first}."),
    "highest_led": N_("No trump was played: {card} is the highest of the suit led."),
}

#: Its marks beside a deal on the score sheet.
MARKS: Final = {
    "void": "",  # not shown: the deal's line says that everyone passed
    "boite": N_("boîte"),
    "boulmous-made": N_("boulmous made"),
    "boulmous-failed": N_("boulmous failed"),
}

WORDS: Final = Words(messages=MESSAGES, steps=STEPS, marks=MARKS)
