"""Boulmous: four players, 24 cards, bids of 3 to 6 tricks, boîtes, first to 21.

The rules, every ruling and the sentence of the rule text behind each:
`docs/RULES.md`, section "Boulmous"; the deals and house rules as a record writes
them: `docs/RECORD-FORMAT.md`, "Deals: Boulmous".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from referee.engine.auction import Call, caller, dump_auction, highest_call, read_auction
from referee.engine.cards import Card, Rank, Suit, check_cards
from referee.engine.catalog import N_
from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.explain import Step, gains, nothing, only, reason, step
from referee.engine.fields import (
    is_int,
    read_choice,
    read_counts,
    read_object,
    read_seat,
)
from referee.engine.flags import Flag
from referee.engine.game import (
    BidOutcome,
    DealResult,
    Figure,
    Game,
    Mark,
    MarkKind,
    Record,
    Standings,
    Tally,
    dealer_problems,
    mark_counts,
    seat_counts,
    totals_before,
)
from referee.engine.settlement import Payment, money_of
from referee.engine.words import Words
from referee.games.boulmous.words import WORDS

PLAYERS: Final = 4
TRICKS: Final = 6  # "jusqu'à ce que les 6 levées soient jouées"
MIN_BID: Final = 3  # "Une enchère doit inclure le nombre de levées (de trois à six)"
BOULMOUS: Final = 6  # "annoncer boulmous, ce qui correspond à six levées"
BOULMOUS_WORD: Final = "boulmous"
#: The deck: "9, 10, Valet, Dame, Roi et As".
RANKS: Final = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
MAX_TARGET: Final = 999
#: What a table's statistics count of a player's Boulmous games (`Boulmous.tally`).
FIGURES: Final = tuple(
    Figure(key) for key in ("bids", "made", "boites", "boulmous_made", "boulmous_failed")
)


class Marks(StrEnum):
    """The marks this game puts on a deal besides `MarkKind.WIN` (its words:
    `words.MARKS`)."""

    VOID = "void"  # everyone passed
    BOITE = "boite"  # the taker failed: a boîte
    BOULMOUS_MADE = "boulmous-made"  # a boulmous made
    BOULMOUS_FAILED = "boulmous-failed"  # a boulmous failed


class Contract(StrEnum):
    """What the taker names: a trump or no-trump ("pique, cœur, carreau, trèfle ou sans atout")."""

    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"
    NO_TRUMP = "no-trump"

    @property
    def trump(self) -> Suit | None:
        """The trump suit, or None at no-trump."""
        return None if self is Contract.NO_TRUMP else Suit(self.value)


class TakerScores(StrEnum):
    """What a taker who makes the bid scores: the tricks taken (default) or the bid."""

    TRICKS = "tricks"
    BID = "bid"


@dataclass(frozen=True, slots=True)
class Rules:
    """The house-rule flags of a Boulmous game, defaults as in docs/RULES.md."""

    target: int = 21  # "Le but du jeu est d'être le premier à atteindre 21 points."
    taker_scores: TakerScores = TakerScores.TRICKS
    failed_taker_keeps_tricks: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    """A deal that was played: the taker, the bid, the trump, the tricks per seat."""

    taker: int
    bid: int
    contract: Contract
    tricks: tuple[int, ...]
    auction: tuple[Call, ...] | None = None
    dealer: int | None = None

    @property
    def made(self) -> bool:
        """The taker took at least as many tricks as bid."""
        return self.tricks[self.taker] >= self.bid

    @property
    def is_boulmous(self) -> bool:
        """The bid was for all six tricks."""
        return self.bid == BOULMOUS


@dataclass(frozen=True, slots=True)
class Passed:
    """A void deal: everyone passed ("la donne est nulle")."""

    auction: tuple[Call, ...] | None = None
    dealer: int | None = None


Deal = Played | Passed

_PLAYED_FIELDS: Final = frozenset({"taker", "bid", "contract", "tricks", "auction", "dealer"})
_PASSED_FIELDS: Final = frozenset({"passed", "auction", "dealer"})
#: The house rules (docs/RULES.md, "Boulmous"), their defaults in `Rules`.
FLAGS: Final = (
    Flag(
        "target",
        N_("Target score"),
        N_("The game ends when someone reaches it."),
        "« Le but du jeu est d'être le premier à atteindre 21 points. »",
        1,
        MAX_TARGET,
    ),
    Flag(
        "taker_scores",
        N_("A taker who makes the bid scores"),
        N_("The tricks taken (usual), or the bid itself."),
        "docs/RULES.md: a taker who makes his bid scores his tricks; `bid`: the bid",
        choices={"tricks": N_("the tricks taken"), "bid": N_("the bid")},
    ),
    Flag(
        "failed_taker_keeps_tricks",
        N_("A failed taker keeps his tricks"),
        N_("Off: he loses the bid. On: tricks taken minus the bid."),
        "docs/RULES.md: a failed taker loses his bid; on, tricks taken minus the bid",
    ),
)


# --- reading and writing the record ------------------------------------------------


def parse_bid(value: object, field: str, problems: list[Problem]) -> int | None:
    """Read a bid: 3 to 6 tricks, or the word "boulmous" (6)."""
    if value == BOULMOUS_WORD:
        return BOULMOUS
    if isinstance(value, int) and is_int(value) and MIN_BID <= value <= BOULMOUS:
        return value
    problems.append(problem("bid_range", field, value=value, low=MIN_BID, high=BOULMOUS))
    return None


def dump_bid(bid: int) -> int | str:
    """Write a bid; six tricks are written as the game names them, "boulmous"."""
    return BOULMOUS_WORD if bid == BOULMOUS else bid


def _read_auction(obj: Mapping[str, object], problems: list[Problem]) -> tuple[Call, ...] | None:
    """The optional auction: "Le joueur à la gauche du donneur fait la première annonce,
    et les enchères continuent ... jusqu'au donneur"; "Une enchère sera supérieure à une
    autre ... si le nombre de levées demandées est supérieur"."""
    if "auction" not in obj:
        return None
    return read_auction(obj["auction"], PLAYERS, parse_bid, dump_bid, problems)


class Boulmous(Game[Rules, Deal]):
    """The Boulmous rules: reading deals, checking them, scoring a game."""

    key: str = "boulmous"
    player_counts: tuple[int, ...] = (PLAYERS,)
    flags: tuple[Flag, ...] = FLAGS
    length: int | None = None  # "le premier à atteindre 21 points"
    figures: tuple[Figure, ...] = FIGURES
    default_rules: Rules = Rules()
    words: Words = WORDS

    def explain_deal(
        self, record: Record[Rules, Deal], standings: Standings, number: int
    ) -> tuple[Step, ...]:
        """The taker's bid made or failed (a boîte), the others' tricks, the win
        (the total the winner reached with this deal)."""
        result = standings.deals[number - 1]
        steps = _explain_deal(record.deals[number - 1], result.deltas)
        for mark in result.marks:
            if mark.kind is MarkKind.WIN and mark.seat is not None:
                before = totals_before(standings, number, PLAYERS)[mark.seat]
                total = before + result.deltas[mark.seat]
                steps.append(step("reaches", nothing(PLAYERS), who=mark.seat, total=total))
        return tuple(steps)

    def bids_now(self, record: Record[Rules, Deal], standings: Standings) -> tuple[BidOutcome, ...]:
        """Each bid from 3 to boulmous: made (+the bid, or the tricks taken), failed
        (a boîte: −the bid), the boulmous' stakes, who would reach the target."""
        rules = record.rules
        by_tricks = rules.taker_scores is TakerScores.TRICKS
        out = []
        for bid in range(MIN_BID, BOULMOUS + 1):
            wins = tuple(
                seat for seat in range(PLAYERS) if standings.scores[seat] + bid >= rules.target
            )
            out.append(
                BidOutcome(
                    str(dump_bid(bid)),
                    bid,
                    by_tricks and bid < BOULMOUS,
                    -bid,
                    plus_taken=rules.failed_taker_keeps_tricks,
                    stakes=1 if bid == BOULMOUS else 0,
                    wins=() if standings.finished else wins,
                )
            )
        return tuple(out)

    def tally(self, record: Record[Rules, Deal], standings: Standings) -> Tally:
        """Per seat: bids taken, made, boîtes (a failed bid is a boîte), boulmous
        made and failed."""
        takers = [deal.taker for deal in record.deals if isinstance(deal, Played)]
        bids = seat_counts(takers, PLAYERS)
        boites = mark_counts(standings, Marks.BOITE, PLAYERS)
        return {
            "bids": bids,
            "made": tuple(b - f for b, f in zip(bids, boites, strict=True)),
            "boites": boites,
            "boulmous_made": mark_counts(standings, Marks.BOULMOUS_MADE, PLAYERS),
            "boulmous_failed": mark_counts(standings, Marks.BOULMOUS_FAILED, PLAYERS),
        }

    def parse_deal(self, raw: object, players: tuple[str, ...], rules: Rules) -> Deal:
        """Read one deal: a played one or `{"passed": true}`, every problem at once."""
        problems: list[Problem] = []
        if isinstance(raw, dict) and "passed" in raw:
            return self._parse_passed(raw, problems)
        obj = read_object(raw, _PLAYED_FIELDS, problems)
        if obj is None:
            raise RulesError(problems)
        taker = read_seat(obj, "taker", PLAYERS, problems)
        bid = None
        if "bid" not in obj:
            problems.append(problem("missing", "bid"))
        else:
            bid = parse_bid(obj["bid"], "bid", problems)
        found = len(problems)
        contract = read_choice(obj, "contract", Contract, problems)
        # The record calls it the contract; at the table (and on the form) it is the trump.
        problems[found:] = [p.shown_as("trump") for p in problems[found:]]
        tricks = read_counts(obj, "tricks", PLAYERS, problems, TRICKS)
        # "La manche se déroule ainsi jusqu'à ce que les 6 levées soient jouées."
        if tricks is not None and sum(tricks) != TRICKS:
            problems.append(problem("tricks_total", "tricks", total=sum(tricks), expected=TRICKS))
        auction = _read_auction(obj, problems)
        dealer = read_seat(obj, "dealer", PLAYERS, problems, optional=True)
        if auction is not None and bid is not None:
            highest = highest_call(auction)
            if highest is None:
                problems.append(problem("auction_all_passed", "auction"))
            elif highest[1] != bid:
                problems.append(
                    problem(
                        "auction_bid", "auction", auction=dump_bid(highest[1]), bid=dump_bid(bid)
                    )
                )
        check(problems)
        assert taker is not None
        assert bid is not None
        assert contract is not None
        assert tricks is not None
        return Played(taker, bid, contract, tricks, auction, dealer)

    def _parse_passed(self, raw: Mapping[str, object], problems: list[Problem]) -> Passed:
        read_object(raw, _PASSED_FIELDS, problems)
        if raw["passed"] is not True:
            problems.append(problem("passed_not_true", "passed", value=raw["passed"]))
        auction = _read_auction(raw, problems)
        if auction is not None and highest_call(auction) is not None:
            problems.append(problem("passed_with_bid", "auction"))
        dealer = read_seat(raw, "dealer", PLAYERS, problems, optional=True)
        check(problems)
        return Passed(auction, dealer)

    def dump_deal(self, deal: Deal) -> dict[str, object]:
        """Write a deal as the record format has it."""
        out: dict[str, object]
        if isinstance(deal, Passed):
            out = {"passed": True}
        else:
            out = {
                "taker": deal.taker,
                "bid": dump_bid(deal.bid),
                "contract": deal.contract.value,
                "tricks": list(deal.tricks),
            }
        if deal.auction is not None:
            out["auction"] = dump_auction(deal.auction, dump_bid)
        if deal.dealer is not None:
            out["dealer"] = deal.dealer
        return out

    # --- scoring --------------------------------------------------------------------

    def score(self, record: Record[Rules, Deal]) -> Standings:
        """Play the deals in order, checking what depends on their place in the game."""
        rules = record.rules
        scores = [0] * PLAYERS
        boites = [0] * PLAYERS
        results: list[DealResult] = []
        payments: list[Payment] = []
        problems: list[Problem] = []
        winner: int | None = None
        won_at = 0
        for number, deal in enumerate(record.deals, start=1):
            # "Le donneur" passes to the left (+1) after every deal, a void one included.
            dealer = self.dealer_of(record.first_dealer, number, PLAYERS)
            if winner is not None:
                problems.append(problem("after_win", "deals", won_at=won_at).at_deal(number))
                break
            problems.extend(p.at_deal(number) for p in _placement_problems(deal, dealer, record))
            deltas, marks = deal_deltas(deal, rules)
            for seat, delta in enumerate(deltas):
                scores[seat] += delta
            for mark in marks:
                if mark.kind is Marks.BOITE and mark.seat is not None:
                    boites[mark.seat] += 1
            payments.extend(_deal_payments(marks))
            winner = game_winner(scores, deal, rules.target)
            if winner is not None:
                won_at = number
                marks = (*marks, Mark(MarkKind.WIN, winner))
            results.append(DealResult(tuple(deltas), dealer, marks))
        check(problems)
        if winner is not None:
            # "Le gagnant de la partie récolte une mise par joueur", and "les joueurs
            # ayant fait des boîtes ... payer au gagnant une mise supplémentaire par boîte".
            payments.extend(
                Payment(seat, winner, 1 + boites[seat]) for seat in range(PLAYERS) if seat != winner
            )
        next_dealer = (
            None
            if winner is not None
            else self.dealer_of(record.first_dealer, len(results) + 1, PLAYERS)
        )
        return Standings(
            game=self.key,
            finished=winner is not None,
            winners=() if winner is None else (winner,),
            scores=tuple(scores),
            deals=tuple(results),
            next_dealer=next_dealer,
            extras={"boites": tuple(boites)},  # the boîtes each player has had
            money=money_of(record.stake, record.stake_per, scores, payments, self.lowest_wins),
        )


def _placement_problems(deal: Deal, dealer: int, record: Record[Rules, Deal]) -> list[Problem]:
    """Check what depends on who dealt: the stated dealer, and who made the auction's top bid."""
    problems: list[Problem] = []
    problems.extend(dealer_problems(deal.dealer, dealer, record.players))
    if isinstance(deal, Played) and deal.auction is not None:
        highest = highest_call(deal.auction)
        assert highest is not None  # parse_deal refused an all-pass auction with a taker
        # "Le joueur à la gauche du donneur fait la première annonce ... jusqu'au donneur."
        bidder = caller(dealer, highest[0], PLAYERS)
        if bidder != deal.taker:
            problems.append(
                problem(
                    "auction_taker",
                    "auction",
                    seat=bidder,
                    name=record.players[bidder],
                    taker=deal.taker,
                )
            )
    return problems


def _explain_deal(deal: Deal, deltas: Sequence[int]) -> list[Step]:
    """One deal's steps, from what was entered and what it scored."""
    if isinstance(deal, Passed):
        return [step("passed", nothing(PLAYERS))]
    taker = deal.taker
    took = deal.tricks[taker]
    if deal.is_boulmous:
        code = "boulmous_made" if deal.made else "boulmous_failed"
    else:
        code = "taker_made" if deal.made else "taker_boite"
    amount = deltas[taker]
    steps = [
        step(
            code, only(PLAYERS, [taker], deltas), who=taker, bid=deal.bid, took=took, amount=amount
        )
    ]
    others = [seat for seat in range(PLAYERS) if seat != taker and deltas[seat]]
    if others:
        steps.append(
            step("others_tricks", only(PLAYERS, others, deltas), gains=gains(deltas, others))
        )
    return steps


def deal_deltas(deal: Deal, rules: Rules) -> tuple[list[int], tuple[Mark, ...]]:
    """Each seat's change of score on one deal, and the deal's marks."""
    if isinstance(deal, Passed):
        return [0] * PLAYERS, (Mark(Marks.VOID),)
    # Every non-taker scores the tricks taken.
    deltas = list(deal.tricks)
    marks: list[Mark] = []
    taken = deal.tricks[deal.taker]
    if deal.made:
        deltas[deal.taker] = deal.bid if rules.taker_scores is TakerScores.BID else taken
        if deal.is_boulmous:
            marks.append(Mark(Marks.BOULMOUS_MADE, deal.taker))
    else:
        # "il doit alors déduire de son score le nombre de levées qu'il avait annoncé.
        # On dit qu'il a fait une boîte."
        deltas[deal.taker] = taken - deal.bid if rules.failed_taker_keeps_tricks else -deal.bid
        marks.append(Mark(Marks.BOITE, deal.taker))
        if deal.is_boulmous:
            marks.append(Mark(Marks.BOULMOUS_FAILED, deal.taker))
    return deltas, tuple(marks)


def game_winner(scores: Sequence[int], deal: Deal, target: int) -> int | None:
    """Who has won after this deal, if anyone.

    Among the players at or above the target, a taker who made the bid wins;
    otherwise the unique highest total does; a tie at the top means another deal.
    """
    reached = [seat for seat in range(PLAYERS) if scores[seat] >= target]
    if not reached:
        return None
    if isinstance(deal, Played) and deal.made and deal.taker in reached:
        return deal.taker
    top = max(scores[seat] for seat in reached)
    leaders = [seat for seat in reached if scores[seat] == top]
    return leaders[0] if len(leaders) == 1 else None


def _deal_payments(marks: Sequence[Mark]) -> list[Payment]:
    """Stakes that change hands during play: a boulmous made or failed."""
    payments: list[Payment] = []
    for mark in marks:
        if mark.seat is None:
            continue
        others = [seat for seat in range(PLAYERS) if seat != mark.seat]
        if mark.kind is Marks.BOULMOUS_MADE:
            # "les autres joueurs doivent lui payer une mise chacun"
            payments.extend(Payment(seat, mark.seat, 1) for seat in others)
        elif mark.kind is Marks.BOULMOUS_FAILED:
            # "s'il rate son boulmous il doit payer une mise à chaque joueur"
            payments.extend(Payment(mark.seat, seat, 1) for seat in others)
    return payments


# --- the referee at the table: card order and the trick judge ------------------------


def effective_suit(card: Card, contract: Contract) -> Suit:
    """The suit a card plays as: the jack of the trump's colour is a trump."""
    trump = contract.trump
    if trump is not None and card.rank is Rank.JACK and card.suit is trump.same_colour:
        return trump
    return card.suit


def card_strength(card: Card, contract: Contract) -> int:
    """A number that orders the cards of one suit (trumps above all others).

    No-trump: A K Q J 10 9. With a trump: the trump jack, then the jack of the same
    colour, then A K Q 10 9 of trump; the other suits A K Q J 10 9.
    """
    trump = contract.trump
    if trump is None or effective_suit(card, contract) is not trump:
        return int(card.rank)
    if card.rank is Rank.JACK:
        return 200 if card.suit is trump else 199
    return 100 + int(card.rank)


def trick_winner(cards: Sequence[Card], contract: Contract) -> int:
    """Return the position (0 = the lead) of the card that wins the trick.

    The highest trump wins; without a trump, the highest card of the suit led.
    """
    problems = check_cards(cards, "trick", RANKS)
    if not cards:
        problems.append(problem("trick_empty", "trick"))
    elif len(cards) > PLAYERS:
        problems.append(problem("trick_too_long", "trick", count=len(cards), players=PLAYERS))
    check(problems)
    led = effective_suit(cards[0], contract)
    trump = contract.trump

    def power(card: Card) -> int:
        suit = effective_suit(card, contract)
        if suit is trump or suit is led:
            return card_strength(card, contract)
        return 0  # a discard never wins

    return max(range(len(cards)), key=lambda i: power(cards[i]))


def trick_reason(cards: Sequence[Card], contract: Contract) -> Step:
    """Why the winning card of a trick wins (the trick judge's words)."""
    card = cards[trick_winner(cards, contract)]
    trump = contract.trump
    if trump is not None and effective_suit(card, contract) is trump:
        if card.rank is Rank.JACK:
            if card.suit is trump:
                return reason("right_bower", card=str(card))
            return reason("left_bower", card=str(card), first=str(Card(Rank.JACK, trump)))
        return reason("highest_trump", card=str(card))
    return reason("highest_led", card=str(card))


def legal_plays(hand: Sequence[Card], led: Card | None, contract: Contract) -> tuple[Card, ...]:
    """The cards of `hand` that may be played on a trick led by `led` (None: leading).

    "Les joueurs doivent obligatoirement fournir la couleur demandée": follow suit if
    able (the same-colour jack follows trumps, not its printed suit); when void, any
    card, trumping and over-trumping being allowed, never obliged.
    """
    check(check_cards(hand, "hand", RANKS))
    if led is None:
        return tuple(hand)
    suit = effective_suit(led, contract)
    following = tuple(card for card in hand if effective_suit(card, contract) is suit)
    return following or tuple(hand)


def check_play(card: Card, hand: Sequence[Card], led: Card | None, contract: Contract) -> None:
    """Raise a `RulesError` quoting the card if playing it from `hand` breaks the rules."""
    if card not in hand:
        raise RulesError([problem("card_not_in_hand", "card", value=str(card))])
    if card not in legal_plays(hand, led, contract):
        assert led is not None
        suit = effective_suit(led, contract)
        followers = " ".join(str(c) for c in hand if effective_suit(c, contract) is suit)
        raise RulesError(
            [problem("must_follow", "card", value=str(card), suit=suit.value, cards=followers)]
        )


GAME: Final = Boulmous()
