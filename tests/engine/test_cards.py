"""Cards and the Boulmous trick judge: card order, following suit, the same-colour jack."""

from __future__ import annotations

import pytest

from referee.engine.cards import Card, Rank, Suit, parse_cards
from referee.engine.errors import RulesError
from referee.games.boulmous.rules import (
    Contract,
    card_strength,
    check_play,
    effective_suit,
    legal_plays,
    trick_winner,
)

#: Message codes exercised here (the catalogue test checks every code has a test).
CARD_CODES = {
    "card_unknown",
    "card_not_in_deck",
    "card_twice",
    "trick_empty",
    "trick_too_long",
    "card_not_in_hand",
    "must_follow",
}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("JH", Card(Rank.JACK, Suit.HEARTS)),
        ("j♥", Card(Rank.JACK, Suit.HEARTS)),
        ("10d", Card(Rank.TEN, Suit.DIAMONDS)),
        ("TS", Card(Rank.TEN, Suit.SPADES)),
        ("AC", Card(Rank.ACE, Suit.CLUBS)),
        ("VD", Card(Rank.JACK, Suit.DIAMONDS)),
        ("R♠", Card(Rank.KING, Suit.SPADES)),
        (" 9♣\ufe0f ", Card(Rank.NINE, Suit.CLUBS)),
    ],
)
def test_parse_card(text: str, card: Card) -> None:
    assert Card.parse(text) == card


@pytest.mark.parametrize("text", ["", "H", "11H", "JX", "joker"])
def test_unknown_card(text: str) -> None:
    with pytest.raises(RulesError) as caught:
        Card.parse(text)
    assert caught.value.problems[0].code == "card_unknown"


def test_parse_cards_reports_each_bad_card() -> None:
    with pytest.raises(RulesError) as caught:
        parse_cards(["JH", "XX", "ZZ"], "trick")
    assert [p.field for p in caught.value.problems] == ["trick[1].card", "trick[2].card"]


def test_card_text() -> None:
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "10♥"
    assert str(Card(Rank.QUEEN, Suit.SPADES)) == "Q♠"
    assert Suit.HEARTS.is_red
    assert not Suit.CLUBS.is_red


def test_order_with_hearts_trump() -> None:
    # "le valet de cœur, le valet de carreau, les autres cartes de cœur ... de l’as au 9"
    order = cards("JH JD AH KH QH 10H 9H")
    strengths = [card_strength(c, Contract.HEARTS) for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert len(set(strengths)) == len(strengths)
    assert effective_suit(Card(Rank.JACK, Suit.DIAMONDS), Contract.HEARTS) is Suit.HEARTS


def test_order_at_no_trump() -> None:
    order = cards("AS KS QS JS 10S 9S")
    strengths = [card_strength(c, Contract.NO_TRUMP) for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert effective_suit(Card(Rank.JACK, Suit.CLUBS), Contract.NO_TRUMP) is Suit.CLUBS


TRICKS = [
    ("highest-of-suit-led", Contract.NO_TRUMP, "10S AS 9S KS", 1),
    ("off-suit-never-wins", Contract.NO_TRUMP, "9S AH AD AC", 0),
    ("trump-beats-led-ace", Contract.HEARTS, "AS 9H KS QS", 1),
    ("over-trump", Contract.HEARTS, "AS 9H 10H QS", 2),
    ("right-bower-tops", Contract.HEARTS, "AH JD JH KH", 2),
    ("left-bower-beats-trump-ace", Contract.HEARTS, "AH JD KH QH", 1),
    ("left-bower-led-calls-trumps", Contract.CLUBS, "JS AC 9C KS", 0),
    ("jack-of-other-colour-plain", Contract.HEARTS, "JS JC AS 9D", 2),
    ("single-card", Contract.SPADES, "9D", 0),
]


@pytest.mark.parametrize(
    ("contract", "trick", "winner"), [t[1:] for t in TRICKS], ids=[t[0] for t in TRICKS]
)
def test_trick_winner(contract: Contract, trick: str, winner: int) -> None:
    assert trick_winner(cards(trick), contract) == winner


@pytest.mark.parametrize(
    ("trick", "code"),
    [
        ("", "trick_empty"),
        ("AS KS QS JS 10S", "trick_too_long"),
        ("2S AS", "card_not_in_deck"),
        ("AS AS", "card_twice"),
    ],
)
def test_bad_trick(trick: str, code: str) -> None:
    with pytest.raises(RulesError) as caught:
        trick_winner(cards(trick), Contract.SPADES)
    assert caught.value.problems[0].code == code


def test_must_follow_suit() -> None:
    hand = cards("AS 9H KD")
    assert legal_plays(hand, Card.parse("10S"), Contract.HEARTS) == (Card.parse("AS"),)
    with pytest.raises(RulesError) as caught:
        check_play(Card.parse("9H"), hand, Card.parse("10S"), Contract.HEARTS)
    assert caught.value.messages("en") == [
        '"9♥" does not follow suit: the hand holds A♠, which must be played on spades'
    ]
    assert "pique" in caught.value.messages("fr")[0]


def test_void_may_trump_or_discard() -> None:
    hand = cards("9H KD")
    assert legal_plays(hand, Card.parse("10S"), Contract.HEARTS) == hand
    check_play(Card.parse("KD"), hand, Card.parse("10S"), Contract.HEARTS)


def test_left_bower_must_follow_trumps_not_its_printed_suit() -> None:
    hand = cards("JD AD 9S")
    # Hearts trump, hearts led: the jack of diamonds is a trump and must be played.
    assert legal_plays(hand, Card.parse("KH"), Contract.HEARTS) == (Card.parse("JD"),)
    # Diamonds led: the jack of diamonds does not follow diamonds.
    assert legal_plays(hand, Card.parse("KD"), Contract.HEARTS) == (Card.parse("AD"),)


def test_leader_plays_anything() -> None:
    hand = cards("JD AD 9S")
    assert legal_plays(hand, None, Contract.NO_TRUMP) == hand


def test_card_not_in_hand() -> None:
    with pytest.raises(RulesError) as caught:
        check_play(Card.parse("AH"), cards("9S"), None, Contract.HEARTS)
    assert caught.value.problems[0].code == "card_not_in_hand"
