"""Belote's and coinche's scoring of one deal (docs/RULES.md, "Belote and coinche"),
pure and standard library only: what each side scores from what the table counted.

A deal has 162 card points (152 in the cards, 10 for the last trick, the "dix de
der"); the side that takes every trick (a capot) counts 252 instead (250 where the
house says so). Belote-rebelote (the king and queen of trumps in one hand) is 20
to its holder's side, always. Announcements (tierce 20, cinquante 50, cent 100,
carrés 100, of nines 150, of jacks 200) score for the side holding the best one
only.

- **Belote** (the classic game): the taking side must count more than the
  defence. Made: each side scores its own points; failed ("dedans"): the defence
  scores 162 (or its capot) and the announcements of both sides. Equal counts are
  a "litige": the defence scores its own, the taker's are held for the winner of
  the next deal (or the taker is dedans: a house rule).
- **Coinche** (contrée): a bid from 80 to 160 by 10, a capot (250) or a générale
  (500, made or failed, all it scores with the announcements and the belote); made
  when the taking side counts its bid and more than the defence. Made:
  bid plus points (or the bid alone, or points to the nearest ten: house rules),
  the defence its own points; failed: the defence scores 160 plus the bid. A
  coinche (×2) or surcoinche (×4) multiplies what the winner of the deal scores,
  160 plus the bid, and the loser scores only its belote.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Variant(StrEnum):
    """Classic belote (take or pass the turned card) or coinche (bids)."""

    BELOTE = "belote"
    COINCHE = "coinche"


class Side(StrEnum):
    """The taking side or the defence."""

    TAKER = "taker"
    DEFENCE = "defence"


class Best(StrEnum):
    """At equal best announcements, whose is the higher (the higher cards, then the
    one at trumps, then the first to play): neither when exactly equal."""

    TAKER = "taker"
    DEFENCE = "defence"
    NEITHER = "neither"


class Announce(StrEnum):
    """An announcement shown at the first trick, by what it is worth."""

    TIERCE = "tierce"
    CINQUANTE = "cinquante"
    CENT = "cent"
    CARRE = "carre"  # of aces, tens, kings or queens
    CARRE_9 = "carre_9"
    CARRE_J = "carre_j"


#: What an announcement is worth.
ANNOUNCE_VALUE: Final = {
    Announce.TIERCE: 20,
    Announce.CINQUANTE: 50,
    Announce.CENT: 100,
    Announce.CARRE: 100,
    Announce.CARRE_9: 150,
    Announce.CARRE_J: 200,
}
#: The fewest cards an announcement takes (a cent is five in a row, or more).
ANNOUNCE_CARDS: Final = {
    Announce.TIERCE: 3,
    Announce.CINQUANTE: 4,
    Announce.CENT: 5,
    Announce.CARRE: 4,
    Announce.CARRE_9: 4,
    Announce.CARRE_J: 4,
}
#: How many carrés of a kind the 32 cards hold: one of jacks, one of nines, and one
#: each of aces, tens, kings and queens (carrés of eights and sevens count nothing).
CARRES_IN_GAME: Final = {Announce.CARRE: 4, Announce.CARRE_9: 1, Announce.CARRE_J: 1}
SEQUENCES: Final = (Announce.TIERCE, Announce.CINQUANTE, Announce.CENT)


class Coinche(StrEnum):
    """The defence doubted the bid (coinché), and the takers doubled again."""

    COINCHE = "coinche"
    SURCOINCHE = "surcoinche"


MULTIPLIER: Final = {None: 1, Coinche.COINCHE: 2, Coinche.SURCOINCHE: 4}


class Special(StrEnum):
    """The bids above 160: every trick to the taking side, or to the taker alone."""

    CAPOT = "capot"
    GENERALE = "generale"


#: What the bids above 160 are worth as a bid.
SPECIAL_VALUE: Final = {Special.CAPOT: 250, Special.GENERALE: 500}


class Counts(StrEnum):
    """What counts for the contract besides the card points (a house rule)."""

    ALL = "all"  # the announcements scored and the belote
    NO_BELOTE = "no_belote"  # the announcements, not the belote
    CARDS = "cards"  # the card points alone


class MadeScores(StrEnum):
    """What a coinche's taking side scores for a contract made (a house rule)."""

    BID_POINTS = "bid_points"  # its bid plus its points
    BID = "bid"  # its bid alone
    ROUNDED = "rounded"  # its bid plus its points to the nearest ten


class Litige(StrEnum):
    """Equal counts at classic belote (a house rule)."""

    HELD = "held"  # the taker's points wait for the winner of the next deal
    DEDANS = "dedans"  # the taker is dedans (the competition rule)


class Result(StrEnum):
    MADE = "made"
    FAILED = "failed"  # "dedans" at belote, "chuté" at coinche
    LITIGE = "litige"


#: The card points of a deal, the dix de der included.
ALL_POINTS: Final = 162
BELOTE: Final = 20
#: What a failed coinche gives the defence besides the bid.
FAILED_BASE: Final = 160
#: Card points no side can end with: the smallest card that counts is a jack (2).
IMPOSSIBLE_POINTS: Final = (1, ALL_POINTS - 1)


def round_ten(points: int) -> int:
    """Points to the nearest ten, a 5 up (coinchons.fr: "arrondis à la dizaine
    inférieure si le dernier chiffre est compris entre 1 et 4")."""
    return (points + 5) // 10 * 10


@dataclass(frozen=True, slots=True)
class Facts:
    """What the table counted in one deal, every figure from the taking side's
    point of view; `bid` None at classic belote."""

    variant: Variant
    points: int  # the taking side's card points, 0 to 162
    capot: Side | None = None
    belote: Side | None = None
    taker_announces: tuple[Announce, ...] = ()
    defence_announces: tuple[Announce, ...] = ()
    best: Best | None = None  # equal best announcements: whose is the higher
    bid: int | Special | None = None
    coinche: Coinche | None = None


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house rules a deal's score depends on."""

    capot: int = 252
    counts: Counts = Counts.ALL
    made: MadeScores = MadeScores.BID_POINTS
    litige: Litige = Litige.HELD


def best_of(announces: Sequence[Announce]) -> int:
    """The value of a side's best announcement (0: none)."""
    return max((ANNOUNCE_VALUE[a] for a in announces), default=0)


def announces_winner(facts: Facts) -> Side | None:
    """The side whose announcements score: the one holding the best; at equal best
    values, the one the table said holds the higher (`best`); None: neither."""
    taker, defence = best_of(facts.taker_announces), best_of(facts.defence_announces)
    if taker > defence:
        return Side.TAKER
    if defence > taker:
        return Side.DEFENCE
    if taker and facts.best is not None and facts.best is not Best.NEITHER:
        return Side(facts.best.value)
    return None


def bid_value(bid: int | Special) -> int:
    """A bid as a number: 80 to 160, a capot 250, a générale 500."""
    return SPECIAL_VALUE[bid] if isinstance(bid, Special) else bid


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one deal gives each side, and its parts as "Why?" tells them."""

    result: Result
    taker: int  # scored now by the taking side
    defence: int  # scored now by the defence
    held: int  # the taker's points held by a litige, for the next deal's winner
    taker_cards: int  # card points, a capot's 252 included
    defence_cards: int
    taker_announces: int  # announcements that score, by side
    defence_announces: int
    taker_belote: int
    defence_belote: int
    taker_count: int  # what counts for the contract
    defence_count: int
    multiplier: int = 1

    @property
    def winner(self) -> Side | None:
        """The side that won the deal (a litige: neither yet)."""
        if self.result is Result.LITIGE:
            return None
        return Side.TAKER if self.result is Result.MADE else Side.DEFENCE


def outcome(facts: Facts, house: HouseRules) -> Outcome:
    """Score one deal (a deal with a taker) under the house rules."""
    taker_cards, defence_cards = facts.points, ALL_POINTS - facts.points
    if facts.capot is Side.TAKER:
        taker_cards, defence_cards = house.capot, 0
    elif facts.capot is Side.DEFENCE:
        taker_cards, defence_cards = 0, house.capot
    winner = announces_winner(facts)
    taker_ann = sum(ANNOUNCE_VALUE[a] for a in facts.taker_announces) if winner is Side.TAKER else 0
    defence_ann = (
        sum(ANNOUNCE_VALUE[a] for a in facts.defence_announces) if winner is Side.DEFENCE else 0
    )
    taker_bel = BELOTE if facts.belote is Side.TAKER else 0
    defence_bel = BELOTE if facts.belote is Side.DEFENCE else 0
    taker_count, defence_count = taker_cards, defence_cards
    if house.counts is not Counts.CARDS:
        taker_count, defence_count = taker_count + taker_ann, defence_count + defence_ann
    if house.counts is Counts.ALL:
        taker_count, defence_count = taker_count + taker_bel, defence_count + defence_bel
    parts = (
        taker_cards,
        defence_cards,
        taker_ann,
        defence_ann,
        taker_bel,
        defence_bel,
        taker_count,
        defence_count,
    )
    # Failed, the defence takes the deal's every point (162, or its capot) and every
    # announcement that scored; the belote stays with its holder.
    all_to_defence = max(ALL_POINTS, defence_cards) + taker_ann + defence_ann
    if facts.variant is Variant.BELOTE or facts.bid is None:
        if taker_count > defence_count:
            return Outcome(
                Result.MADE,
                taker_cards + taker_ann + taker_bel,
                defence_cards + defence_ann + defence_bel,
                0,
                *parts,
            )
        if taker_count == defence_count and house.litige is Litige.HELD:
            return Outcome(
                Result.LITIGE,
                taker_bel,
                defence_cards + defence_ann + defence_bel,
                taker_cards + taker_ann,
                *parts,
            )
        return Outcome(Result.FAILED, taker_bel, all_to_defence + defence_bel, 0, *parts)
    bid = bid_value(facts.bid)
    multiplier = MULTIPLIER[facts.coinche]
    if facts.bid is Special.GENERALE:
        # The générale is worth 500 made or failed, nothing else counted but the
        # announcements and the belote (contree.net: « 500 points pour une générale »).
        value = bid * multiplier + taker_ann + defence_ann
        if facts.capot is Side.TAKER:
            return Outcome(Result.MADE, value + taker_bel, defence_bel, 0, *parts, multiplier)
        return Outcome(Result.FAILED, taker_bel, value + defence_bel, 0, *parts, multiplier)
    if isinstance(facts.bid, Special):
        made = facts.capot is Side.TAKER
    else:
        made = taker_count >= bid and taker_count > defence_count
    if not made:
        scored = (FAILED_BASE + bid) * multiplier + taker_ann + defence_ann + defence_bel
        return Outcome(Result.FAILED, taker_bel, scored, 0, *parts, multiplier)
    if multiplier > 1:
        scored = (FAILED_BASE + bid) * multiplier + taker_ann + defence_ann + taker_bel
        return Outcome(Result.MADE, scored, defence_bel, 0, *parts, multiplier)
    taker_points, defence_points = taker_cards, defence_cards
    if house.made is MadeScores.BID:
        taker_points = 0
    elif house.made is MadeScores.ROUNDED:
        taker_points, defence_points = round_ten(taker_cards), round_ten(defence_cards)
    return Outcome(
        Result.MADE,
        bid + taker_points + taker_ann + taker_bel,
        defence_points + defence_ann + defence_bel,
        0,
        *parts,
        multiplier,
    )
