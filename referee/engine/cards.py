"""Playing cards: suits, ranks, and the short notation players type (`JH`, `10♥`, `As`).

Each game decides its own card order; this module only knows what a card is.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final

from referee.engine.errors import Problem, RulesError, problem


class Suit(StrEnum):
    """The four French suits, named as the record format names trumps."""

    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"

    @property
    def symbol(self) -> str:
        """The suit's printed sign."""
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red; spades and clubs are black."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def same_colour(self) -> Suit:
        """The other suit of the same colour (whose jack some games promote to a trump)."""
        return _SAME_COLOUR[self]


_SYMBOLS: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SAME_COLOUR: Final = {
    Suit.SPADES: Suit.CLUBS,
    Suit.CLUBS: Suit.SPADES,
    Suit.HEARTS: Suit.DIAMONDS,
    Suit.DIAMONDS: Suit.HEARTS,
}


class Rank(IntEnum):
    """Natural rank, 2 to ace high; each game orders them as its rules say."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def label(self) -> str:
        """The rank as printed on a card index: 2..10, J, Q, K, A."""
        return _RANK_LABELS.get(self, str(int(self)))


_RANK_LABELS: Final = {Rank.JACK: "J", Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A"}

# What players type for a rank, English and French initials alike (V valet, D dame,
# R roi); "1" is the ace of French cards.
_RANK_NAMES: Final[dict[str, Rank]] = {
    **{str(int(r)): r for r in Rank if r <= Rank.TEN},
    "T": Rank.TEN,
    "J": Rank.JACK,
    "V": Rank.JACK,
    "Q": Rank.QUEEN,
    "D": Rank.QUEEN,
    "K": Rank.KING,
    "R": Rank.KING,
    "A": Rank.ACE,
    "1": Rank.ACE,
}
_SUIT_NAMES: Final[dict[str, Suit]] = {
    "S": Suit.SPADES,
    "♠": Suit.SPADES,
    "H": Suit.HEARTS,
    "♥": Suit.HEARTS,
    "D": Suit.DIAMONDS,
    "♦": Suit.DIAMONDS,
    "C": Suit.CLUBS,
    "♣": Suit.CLUBS,
}
# Suits take only the English letters and the signs: French initials (C cœur,
# C carreau, P pique, T trèfle) collide with each other and with ranks.


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card of a standard deck."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return f"{self.rank.label}{self.suit.symbol}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card as players type it: `JH`, `j♥`, `10d`, `TS`, `AC`.

        Raises a `RulesError` (field `card`) that quotes the text when it is not a card.
        """
        cleaned = text.strip().upper().replace("\ufe0f", "")
        rank = _RANK_NAMES.get(cleaned[:-1])
        suit = _SUIT_NAMES.get(cleaned[-1:])
        if rank is None or suit is None:
            raise RulesError([problem("card_unknown", "card", value=text)])
        return cls(rank, suit)


def parse_cards(texts: list[str], field: str = "cards") -> tuple[Card, ...]:
    """Parse several cards, reporting every unreadable one at once under `field`."""
    cards: list[Card] = []
    problems: list[Problem] = []
    for index, text in enumerate(texts):
        try:
            cards.append(Card.parse(text))
        except RulesError as error:
            problems.extend(p.under(f"{field}[{index}]") for p in error.problems)
    if problems:
        raise RulesError(problems)
    return tuple(cards)


def check_cards(cards: Sequence[Card], field: str, ranks: Collection[Rank]) -> list[Problem]:
    """Problems with a set of cards: one not in the game's deck, or one seen twice."""
    problems = [
        problem("card_not_in_deck", f"{field}[{i}]", value=str(card))
        for i, card in enumerate(cards)
        if card.rank not in ranks
    ]
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            problems.append(problem("card_twice", field, value=str(card)))
        seen.add(card)
    return problems
