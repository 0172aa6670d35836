"""10-point Pitch with jokers and the off-jack: teams, moon shots, nine point variants.

The rules, every ruling and the sentence of the rule text behind each:
`docs/RULES.md`, section "10-point Pitch"; the hands and house rules as a record
writes them: `docs/RECORD-FORMAT.md`, "Deals: Pitch".
Four players play as two teams of partners sitting opposite; five play each for
himself, the bidder calling a partner for the hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from referee.engine.auction import (
    BidReader,
    Call,
    caller,
    dump_auction,
    highest_call,
    read_auction,
)
from referee.engine.cards import Card, Rank, Suit
from referee.engine.catalog import N_
from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.explain import Step, nothing, only, reason, step
from referee.engine.fields import (
    is_int,
    read_choice,
    read_object,
    read_seat,
    seat_value,
)
from referee.engine.flags import Flag, read_flags
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
    alone,
    dealer_problems,
    dump_flags,
    mark_counts,
    seat_counts,
    totals_before,
    with_flags,
)
from referee.engine.settlement import money_of, winners_collect
from referee.engine.words import Words
from referee.games.pitch.words import WORDS

MIN_BID: Final = 4  # "L'enchère minimale est de quatre."
MOON_WORD: Final = "moon"
#: The moon is kept as a number above every bid, so that auctions compare simply.
MOON: Final = 1000
MAX_TARGET: Final = 999
#: What a table's statistics count of a player's Pitch hands, as the bidder
#: (`Pitch.tally`): bids, sets, moons tried and made.
FIGURES: Final = tuple(Figure(key) for key in ("bids", "sets", "moons", "moons_made"))
TEAMS: Final = ((0, 2), (1, 3))  # "Chaque joueur a un partenaire qui « s'assoit » en face"


class Marks(StrEnum):
    """The marks this game puts on a deal besides `MarkKind.WIN` (its words:
    `words.MARKS`)."""

    SET = "set"  # the bidding side missed its bid
    MOON_MADE = "moon-made"  # a moon made
    MOON_FAILED = "moon-failed"  # a moon failed


class PointCard(StrEnum):
    """The point cards, by the record format's names."""

    ACE = "ace"
    JACK = "jack"
    OFF_JACK = "off_jack"
    JOKER_HIGH = "joker_high"
    JOKER_LOW = "joker_low"
    TEN = "ten"
    THREE = "three"
    TWO = "two"
    OFF_ACE = "off_ace"
    OFF_TEN = "off_ten"
    OFF_THREE = "off_three"
    OFF_TWO = "off_two"

    @property
    def value_in_points(self) -> int:
        """Three for a 3 ("Les trois valent trois points"), one for every other point card."""
        return POINT_VALUES[self]


P = PointCard
POINT_VALUES: Final[dict[PointCard, int]] = {
    card: 3 if card in (P.THREE, P.OFF_THREE) else 1 for card in PointCard
}
_POINT_NAMES: Final = frozenset(PointCard)
_BASE: Final = (P.ACE, P.JACK, P.OFF_JACK, P.JOKER_HIGH, P.JOKER_LOW, P.TEN, P.THREE, P.TWO)
_JOKERS: Final = (P.JOKER_HIGH, P.JOKER_LOW)
_ALL_OFF: Final = (P.OFF_ACE, P.OFF_TEN, P.OFF_THREE, P.OFF_TWO)


def _without(cards: Sequence[PointCard], *dropped: PointCard) -> tuple[PointCard, ...]:
    return tuple(c for c in cards if c not in dropped)


@dataclass(frozen=True, slots=True)
class Variant:
    """A point-count variant: its point cards, and which extra cards are in play.

    Where the seed says the jokers do not count, they are out of the deck; off cards
    in play are trumps that rank just below their counterparts.
    """

    total: int
    points: tuple[PointCard, ...]
    jokers: bool
    off_ranks: frozenset[Rank]


_OFF_JACK_ONLY: Final = frozenset({Rank.JACK})
_OFF_THREE: Final = frozenset({Rank.JACK, Rank.THREE})
_EVERY_OFF: Final = frozenset({Rank.ACE, Rank.JACK, Rank.TEN, Rank.THREE, Rank.TWO})

#: The nine variants of the seed ("Variations de points").
VARIANTS: Final[dict[int, Variant]] = {
    # "les jokers et les trois ne sont pas comptés comme des points"
    5: Variant(5, _without(_BASE, *_JOKERS, P.THREE), False, _OFF_JACK_ONLY),
    # "les trois ne sont pas comptés comme un point"
    7: Variant(7, _without(_BASE, P.THREE), True, _OFF_JACK_ONLY),
    # "les jokers ne sont pas comptés comme des points"
    8: Variant(8, _without(_BASE, *_JOKERS), False, _OFF_JACK_ONLY),
    10: Variant(10, _BASE, True, _OFF_JACK_ONLY),
    # 13 without the jokers
    11: Variant(11, (*_without(_BASE, *_JOKERS), P.OFF_THREE), False, _OFF_THREE),
    # "le hors-trois est également inclus dans le jeu et vaut trois points"
    13: Variant(13, (*_BASE, P.OFF_THREE), True, _OFF_THREE),
    # 16 without the jokers
    14: Variant(14, (*_without(_BASE, *_JOKERS), *_ALL_OFF), False, _EVERY_OFF),
    # 16 where "le hors-deux n'est pas compté comme un point" (it is still in play)
    15: Variant(15, (*_BASE, P.OFF_ACE, P.OFF_TEN, P.OFF_THREE), True, _EVERY_OFF),
    # "TOUS les points off sont utilisés et comptent comme un point chacun à
    # l'exception du trois off qui est trois points"
    16: Variant(16, (*_BASE, *_ALL_OFF), True, _EVERY_OFF),
}


class BidderScores(StrEnum):
    """What a bidding side that makes its bid receives: the bid (default) or its points."""

    BID = "bid"
    POINTS = "points"


@dataclass(frozen=True, slots=True)
class Rules:
    """The house-rule flags of a Pitch game."""

    points: int = 10
    bidder_scores: BidderScores = BidderScores.BID
    defenders_score: bool = True
    target: int = 52  # "La première équipe à atteindre 52 points est déclarée gagnante."
    reverse: bool = False
    dirty: bool = False

    @property
    def variant(self) -> Variant:
        """The point-count variant these rules play."""
        return VARIANTS[self.points]


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand as entered: the bid, the trump, and who won each point card.

    `points` pairs each point card of the variant with the seat that won it (for
    the 2, the seat that played it), or None when it was dead. `partner` is used
    only five-handed: the seat holding the called card, or None when alone.
    """

    bidder: int
    bid: int
    trump: Suit
    points: tuple[tuple[PointCard, int | None], ...]
    partner: int | None = None
    auction: tuple[Call, ...] | None = None
    dealer: int | None = None
    five_handed: bool = False

    @property
    def is_moon(self) -> bool:
        """The bid was to shoot the moon: take every point."""
        return self.bid == MOON


_DEAL_FIELDS: Final = frozenset(
    {"bidder", "bid", "trump", "points", "partner", "auction", "dealer"}
)
#: The house rules (docs/RULES.md, "10-point Pitch"), their defaults in `Rules`.
FLAGS: Final = (
    Flag(
        "points",
        N_("Point variant"),
        N_("Which cards count: 10 is the usual game with jokers and the off-jack."),
        "« Variations de points » : 5, 7, 8, 10, 11, 13, 14, 15, 16",
        5,
        16,
        numbers=tuple(VARIANTS),
    ),
    Flag(
        "target",
        N_("Target score"),
        N_("The first to reach it wins."),
        "« La première équipe à atteindre 52 points est déclarée gagnante. »",
        1,
        MAX_TARGET,
    ),
    Flag(
        "bidder_scores",
        N_("Bidders who make it receive"),
        N_("The bid (usual), or every point they took."),
        "docs/RULES.md: bidders who make it score their bid; `points`: every point taken",
        choices={"bid": N_("the bid"), "points": N_("their points")},
    ),
    Flag(
        "defenders_score",
        N_("Defenders score their points"),
        N_("On (usual): the other side scores the points it took."),
        "docs/RULES.md: the defenders score the points they took",
    ),
    Flag(
        "reverse",
        N_("Upside-down order"),
        N_("The 2 is highest, the ace lowest."),
        "« Dans la hiérarchie inverse, ... Le deux est la carte la plus puissante »",
    ),
    Flag(
        "dirty",
        N_("Dirty pitch"),
        N_("The 2 is won like any card instead of staying with its player."),
        "« Dans un pas sale, les deux ne sont pas un point automatique. »",
    ),
)


def dump_bid(bid: int) -> int | str:
    """Write a bid; the moon as the word "moon"."""
    return MOON_WORD if bid == MOON else bid


def _bid_reader(variant: Variant) -> BidReader:
    def read_bid(value: object, field: str, problems: list[Problem]) -> int | None:
        """A bid is 4 up to the variant's total, or "moon"."""
        if value == MOON_WORD:
            return MOON
        if isinstance(value, int) and is_int(value) and MIN_BID <= value <= variant.total:
            return value
        problems.append(
            problem("pitch_bid_range", field, value=value, low=MIN_BID, high=variant.total)
        )
        return None

    return read_bid


def partners(bidder: int, partner: int | None, players: int) -> tuple[int, ...]:
    """The bidding side: the bidder's team (four-handed), or bidder and called partner."""
    if players == 4:
        return (bidder, (bidder + 2) % 4)
    return (bidder,) if partner is None else (bidder, partner)


class Pitch(Game[Rules, Deal]):
    """The Pitch rules: reading hands, scoring teams and players, the moon, the end."""

    key: str = "pitch"
    player_counts: tuple[int, ...] = (4, 5)
    flags: tuple[Flag, ...] = FLAGS
    stakes_to_winners: bool = True  # docs/RULES.md, "Stakes": each other pays the winner
    length: int | None = None  # "La première équipe à atteindre 52 points"
    figures: tuple[Figure, ...] = FIGURES
    default_rules: Rules = Rules()
    words: Words = WORDS

    def explain_deal(
        self, record: Record[Rules, Deal], standings: Standings, number: int
    ) -> tuple[Step, ...]:
        """The points each side took, the bid made or set (or the moon, which
        reaches from the scores before the hand), the defenders' points, the win."""
        players = len(record.players)
        scores = totals_before(standings, number, players)
        result = standings.deals[number - 1]
        total = record.rules.variant.total
        return tuple(
            _explain_hand(
                record.deals[number - 1], result, scores, players, total, record.rules.target
            )
        )

    def bids_now(self, record: Record[Rules, Deal], standings: Standings) -> tuple[BidOutcome, ...]:
        """Each bid from 4 to the variant's total: made (+the bid, or the points
        taken), set (−the bid), who would reach the target; and the moon: each side
        to the target from a score of 0 or more (to 0 from below), or the game lost."""
        rules = record.rules
        scores = standings.scores
        players = len(record.players)
        by_points = rules.bidder_scores is BidderScores.POINTS
        live = not standings.finished
        out = []
        for bid in range(MIN_BID, rules.variant.total + 1):
            wins = tuple(s for s in range(players) if scores[s] + bid >= rules.target)
            out.append(BidOutcome(str(bid), bid, by_points, -bid, wins=wins if live else ()))
        reaches = tuple(rules.target if score >= 0 else 0 for score in scores)
        wins = tuple(s for s in range(players) if reaches[s] >= rules.target)
        out.append(
            BidOutcome(MOON_WORD, None, False, None, reaches=reaches, wins=wins if live else ())
        )
        return tuple(out)

    def tally(self, record: Record[Rules, Deal], standings: Standings) -> Tally:
        """Per seat, as the bidder (in team games too: the one who bid): bids,
        sets, moons tried and moons made."""
        players = len(record.players)
        return {
            "bids": seat_counts([d.bidder for d in record.deals], players),
            "sets": mark_counts(standings, Marks.SET, players),
            "moons": seat_counts([d.bidder for d in record.deals if d.is_moon], players),
            "moons_made": mark_counts(standings, Marks.MOON_MADE, players),
        }

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Four-handed, partners sit opposite; five-handed, each plays for himself
        (a hand's partner changes with the called card)."""
        return ((0, 2), (1, 3)) if players == 4 else alone(players)

    def contracts_for(self, record: Record[Rules, Deal], number: int) -> tuple[str, ...]:
        """The bidder names his trump freely: no set of contracts to choose among."""
        return ()

    def parse_rules(self, raw: Mapping[str, object]) -> Rules:
        """Read the flags; a missing one takes its default (10-point, 52 to win)."""
        problems: list[Problem] = []
        given = read_flags(FLAGS, Rules(), raw, problems)
        points = given["points"]
        if points is not None and points not in VARIANTS:
            problems.append(
                problem("pitch_variant", "points", value=points, variants=_variant_list())
            )
        check(problems)
        return with_flags(Rules(), given)

    def dump_rules(self, rules: Rules) -> dict[str, object]:
        """Write every flag."""
        return dump_flags(rules)

    def parse_deal(self, raw: object, players: tuple[str, ...], rules: Rules) -> Deal:
        """Read one hand: bid, trump, every point card of the variant, the partner."""
        problems: list[Problem] = []
        count = len(players)
        obj = read_object(raw, _DEAL_FIELDS, problems)
        if obj is None:
            raise RulesError(problems)
        read_bid = _bid_reader(rules.variant)
        bidder = read_seat(obj, "bidder", count, problems)
        bid = None
        if "bid" not in obj:
            problems.append(problem("missing", "bid"))
        else:
            bid = read_bid(obj["bid"], "bid", problems)
        trump = read_choice(obj, "trump", Suit, problems)
        points = _parse_points(obj, rules.variant, count, problems)
        partner = _parse_partner(obj, bidder, players, problems)
        dealer = read_seat(obj, "dealer", count, problems, optional=True)
        auction = None
        if "auction" in obj:
            auction = read_auction(obj["auction"], count, read_bid, dump_bid, problems)
        if auction is not None and bid is not None:
            problems.extend(_auction_problems(auction, bid))
        check(problems)
        assert bidder is not None
        assert bid is not None
        assert trump is not None
        assert points is not None
        return Deal(bidder, bid, trump, points, partner, auction, dealer, count == 5)

    def dump_deal(self, deal: Deal) -> dict[str, object]:
        """Write a hand as the record format has it."""
        out: dict[str, object] = {
            "bidder": deal.bidder,
            "bid": dump_bid(deal.bid),
            "trump": deal.trump.value,
            "points": dict(deal.points),
        }
        if deal.five_handed:
            out["partner"] = deal.partner  # null: the bidder went alone
        if deal.auction is not None:
            out["auction"] = dump_auction(deal.auction, dump_bid)
        if deal.dealer is not None:
            out["dealer"] = deal.dealer
        return out

    def score(self, record: Record[Rules, Deal]) -> Standings:
        """Play the hands in order; the end and the moon decide the winners."""
        rules = record.rules
        count = len(record.players)
        scores = [0] * count
        results: list[DealResult] = []
        problems: list[Problem] = []
        winners: tuple[int, ...] = ()
        won_at = 0
        for number, deal in enumerate(record.deals, start=1):
            # "L'enchère commence par le joueur à gauche du croupier": the deal passes left.
            dealer = self.dealer_of(record.first_dealer, number, count)
            if winners:
                problems.append(problem("after_win", "deals", won_at=won_at).at_deal(number))
                break
            problems.extend(p.at_deal(number) for p in _placement_problems(deal, dealer, record))
            hand = play_hand(deal, rules, scores, count)
            for seat, delta in enumerate(hand.deltas):
                scores[seat] += delta
            winners = hand.winners
            marks = hand.marks
            if winners:
                won_at = number
                marks = (*marks, *(Mark(MarkKind.WIN, seat) for seat in winners))
            results.append(DealResult(hand.deltas, dealer, marks))
        check(problems)
        finished = bool(winners)
        return Standings(
            game=self.key,
            finished=finished,
            winners=winners,
            scores=tuple(scores),
            deals=tuple(results),
            next_dealer=None
            if finished
            else self.dealer_of(record.first_dealer, len(results) + 1, count),
            # Referee's ruling: each player who did not win pays each winner one stake
            # (or, by the point, each pair of players settles its difference).
            money=money_of(
                record.stake,
                record.stake_per,
                scores,
                winners_collect(count, winners),
                self.lowest_wins,
            ),
        )


def _variant_list() -> str:
    return ", ".join(str(v) for v in VARIANTS)


def _parse_points(
    obj: Mapping[str, object], variant: Variant, players: int, problems: list[Problem]
) -> tuple[tuple[PointCard, int | None], ...] | None:
    """Every point card of the variant, each with a seat or null (dead)."""
    if "points" not in obj:
        problems.append(problem("missing", "points"))
        return None
    raw = obj["points"]
    if not isinstance(raw, dict):
        problems.append(problem("not_object", "points", value=raw))
        return None
    found = len(problems)
    for key in raw:
        if key not in _POINT_NAMES:
            problems.append(problem("unknown_field", f"points.{key}", value=key))
        elif key not in variant.points:
            problems.append(
                problem("point_not_in_variant", f"points.{key}", value=key, variant=variant.total)
            )
    won: list[tuple[PointCard, int | None]] = []
    # A StrEnum member is its own name: `card in raw` finds the key "ace".
    for card in variant.points:
        if card not in raw:
            problems.append(problem("point_missing", f"points.{card}", card=str(card)))
            continue
        value = raw[card]
        seat = None if value is None else seat_value(value, f"points.{card}", players, problems)
        won.append((card, seat))
    return tuple(won) if len(problems) == found else None


def _parse_partner(
    obj: Mapping[str, object], bidder: int | None, names: tuple[str, ...], problems: list[Problem]
) -> int | None:
    """Five-handed: the called partner's seat, or null when the card was in the blind."""
    players = len(names)
    if players == 4:
        if "partner" in obj:
            problems.append(problem("partner_four_handed", "partner"))
        return None
    if "partner" not in obj:
        problems.append(problem("missing", "partner"))
        return None
    if obj["partner"] is None:
        return None
    partner = seat_value(obj["partner"], "partner", players, problems)
    if partner is not None and partner == bidder:
        problems.append(problem("partner_is_bidder", "partner", name=names[partner]))
        return None
    return partner


def _auction_problems(auction: Sequence[Call], bid: int) -> list[Problem]:
    """The auction must end at the bid, with the dealer stuck when all others passed."""
    problems: list[Problem] = []
    # "Si personne ne fait d'offre ..., le concessionnaire DOIT prendre l'offre pour
    # quatre": when every other player passed, the dealer's call is 4, nothing else.
    if all(call is None for call in auction[:-1]):
        if auction[-1] is None:
            problems.append(problem("auction_dealer_stuck", "auction"))
            return problems
        if auction[-1] != MIN_BID:
            problems.append(
                problem("auction_dealer_four", "auction", value=dump_bid(auction[-1]), bid=MIN_BID)
            )
            return problems
    highest = highest_call(auction)
    assert highest is not None
    if highest[1] != bid:
        problems.append(
            problem("auction_bid", "auction", auction=dump_bid(highest[1]), bid=dump_bid(bid))
        )
    return problems


def _placement_problems(deal: Deal, dealer: int, record: Record[Rules, Deal]) -> list[Problem]:
    """The stated dealer, and who made the auction's highest bid."""
    problems: list[Problem] = []
    count = len(record.players)
    problems.extend(dealer_problems(deal.dealer, dealer, record.players))
    if deal.auction is not None:
        highest = highest_call(deal.auction)
        assert highest is not None  # the dealer is stuck, so someone bid
        seat = caller(dealer, highest[0], count)
        if seat != deal.bidder:
            problems.append(
                problem("auction_bidder", "auction", seat=seat, name=record.players[seat])
            )
    return problems


@dataclass(frozen=True, slots=True)
class Hand:
    """What one hand did: each seat's change, its marks, and the winners if it ended the game."""

    deltas: tuple[int, ...]
    marks: tuple[Mark, ...]
    winners: tuple[int, ...]


def _explain_hand(
    deal: Deal, result: DealResult, before: Sequence[int], players: int, total: int, target: int
) -> list[Step]:
    """One hand's steps, from what was entered and what it scored; sides named as
    the table sees them (four-handed, a team in seat order, as on the scoreboard),
    and a word of why where a rule surprises (five-handed: a defender who took no
    point card scores his side's points; a partner at the target who does not win)."""
    deltas = result.deltas
    bidding = partners(deal.bidder, deal.partner, players)
    side = tuple(sorted(bidding)) if players == 4 else bidding
    defenders = tuple(seat for seat in range(players) if seat not in side)
    won = sum(POINT_VALUES[card] for card, seat in deal.points if seat is not None and seat in side)
    lost = sum(
        POINT_VALUES[card] for card, seat in deal.points if seat is not None and seat not in side
    )
    zero = nothing(players)
    steps = [step("pitch_points", zero, side=side, points=won, total=total, others=lost)]
    kinds = {mark.kind for mark in result.marks}
    if Marks.MOON_FAILED in kinds:
        steps.append(step("moon_failed", zero, side=side, points=won, total=total))
    elif Marks.MOON_MADE in kinds:
        reached = before[deal.bidder] + deltas[deal.bidder]
        steps.append(
            step(
                "moon_made",
                only(players, side, deltas),
                side=side,
                score=before[deal.bidder],
                reached=reached,
            )
        )
    else:
        code = "pitch_set" if Marks.SET in kinds else "pitch_made"
        steps.append(
            step(
                code,
                only(players, side, deltas),
                who=deal.bidder,
                bid=deal.bid,
                side=side,
                amount=deltas[deal.bidder],
            )
        )
    scoring = tuple(seat for seat in defenders if deltas[seat])
    if scoring:
        # The defenders score alike (their side's points): said once, for the side.
        steps.append(
            step(
                "pitch_defenders" if players == 4 else "pitch_defenders_each",
                only(players, scoring, deltas),
                side=scoring,
                amount=deltas[scoring[0]],
            )
        )
        took = {seat for _card, seat in deal.points if seat is not None}
        idle = tuple(seat for seat in scoring if seat not in took)
        if players == 5 and idle:
            steps.append(step("pitch_defender_idle", zero, side=idle))
    winners = tuple(
        mark.seat for mark in result.marks if mark.kind is MarkKind.WIN and mark.seat is not None
    )
    if winners:
        steps.append(step("game_won", zero, side=tuple(sorted(winners))))
        after = [before[seat] + deltas[seat] for seat in range(players)]
        if players == 5:
            # At the target with the winner, yet not a winner: the bidder went out first.
            beside = tuple(
                seat
                for seat in bidding
                if seat not in winners and after[seat] >= target and deal.bidder in winners
            )
            if beside:
                steps.append(
                    step("partner_not_winner", zero, side=beside, who=deal.bidder, target=target)
                )
    return steps


def play_hand(deal: Deal, rules: Rules, scores: Sequence[int], players: int) -> Hand:
    """Score one hand from the scores before it."""
    side = partners(deal.bidder, deal.partner, players)
    defenders = tuple(seat for seat in range(players) if seat not in side)
    side_points = defender_points = 0
    for card, seat in deal.points:
        if seat is None:
            continue  # a dead card: nobody scores it
        if seat in side:
            side_points += POINT_VALUES[card]
        else:
            defender_points += POINT_VALUES[card]
    deltas = [0] * players
    if deal.is_moon:
        # "Tirer sur la lune signifie prendre les 10 points": every point of the variant.
        if side_points < rules.variant.total:
            # "Le fait de ne pas marquer les dix points constitue une perte de partie."
            return Hand(
                tuple(deltas),
                (Mark(Marks.MOON_FAILED, deal.bidder),),
                _moon_failed_winners(defenders, scores, players),
            )
        # "l'équipe d'enchères avance son score à 52 si son score était supérieur à zéro
        # ou à zéro si son score était inférieur à zéro"
        for seat in side:
            deltas[seat] = (rules.target if scores[seat] >= 0 else 0) - scores[seat]
        marks: tuple[Mark, ...] = (Mark(Marks.MOON_MADE, deal.bidder),)
        made = True
    else:
        made = side_points >= deal.bid
        if made:
            gain = deal.bid if rules.bidder_scores is BidderScores.BID else side_points
        else:
            gain = -deal.bid  # "l'enchérisseur est « défini » et le montant ... soustrait"
        for seat in side:
            deltas[seat] = gain
        marks = () if made else (Mark(Marks.SET, deal.bidder),)
    if rules.defenders_score:
        for seat in defenders:
            deltas[seat] = defender_points
    after = [scores[seat] + deltas[seat] for seat in range(players)]
    return Hand(tuple(deltas), marks, _winners(after, deal, made, rules.target, players))


def _winners(
    scores: Sequence[int], deal: Deal, made: bool, target: int, players: int
) -> tuple[int, ...]:
    """Who has won after a hand, if anyone (empty: play on)."""
    reached = [seat for seat in range(players) if scores[seat] >= target]
    if not reached:
        return ()
    side = partners(deal.bidder, deal.partner, players)
    if players == 4:
        # Both teams there: the bidders if they made it, otherwise the defenders.
        if made and deal.bidder in reached:
            return tuple(sorted(side))
        team = next(t for t in TEAMS if deal.bidder not in t)
        return team if any(seat in reached for seat in team) else ()
    # Five-handed: the bidder (if made) goes out first, then the partner, then the
    # unique highest total; a tie at the top plays on.
    for seat in side:
        if made and seat in reached:
            return (seat,)
    top = max(scores[seat] for seat in reached)
    leaders = tuple(seat for seat in reached if scores[seat] == top)
    return leaders if len(leaders) == 1 else ()


def _moon_failed_winners(
    defenders: Sequence[int], scores: Sequence[int], players: int
) -> tuple[int, ...]:
    """A failed moon loses the game: the defending team wins (five-handed: the best defender)."""
    if players == 4:
        return tuple(defenders)
    top = max(scores[seat] for seat in defenders)
    return tuple(seat for seat in defenders if scores[seat] == top)


# --- the referee at the table: card order and the trick judge ------------------------


class Joker(StrEnum):
    """The two jokers: "Joker (Point)", "Joker (Point)", high above low."""

    HIGH = "joker_high"
    LOW = "joker_low"

    def __str__(self) -> str:
        return "JK+" if self is Joker.HIGH else "JK-"


PitchCard = Card | Joker

_JOKER_NAMES: Final = {
    "JK+": Joker.HIGH,
    "JOKER+": Joker.HIGH,
    "JOKER_HIGH": Joker.HIGH,
    "JK-": Joker.LOW,
    "JOKER-": Joker.LOW,
    "JOKER_LOW": Joker.LOW,
}


def parse_card(text: str) -> PitchCard:
    """Read a card as players type it; the jokers are `JK+` (high) and `JK-` (low)."""
    joker = _JOKER_NAMES.get(text.strip().upper().replace("−", "-"))
    return joker if joker is not None else Card.parse(text)


def trump_order(trump: Suit, variant: Variant, reverse: bool = False) -> tuple[PitchCard, ...]:
    """Every trump in play, strongest first.

    "As, Roi, Reine, Jack, Off-jack, Joker, Joker, 10, 9 ... 3, 2"; the off cards of
    the larger variants rank just below their counterparts; `reverse` turns the ranks
    upside down ("Le deux est la carte la plus puissante, l'as étant le plus bas").
    """
    off = trump.same_colour
    order: list[PitchCard] = []
    # A ruling (docs/RULES.md): reversed, the ranks turn over but each off card stays
    # just below its counterpart and the high joker above the low one, the jokers still
    # between the jack and the 10: 2 off2 3 off3 … 10 off10 JK+ JK- J offJ Q K A offA.
    for rank in sorted(Rank, reverse=not reverse):
        if rank is Rank.JACK and variant.jokers and reverse:
            order.extend((Joker.HIGH, Joker.LOW))
        order.append(Card(rank, trump))
        if rank in variant.off_ranks:
            order.append(Card(rank, off))
        if rank is Rank.JACK and variant.jokers and not reverse:
            order.extend((Joker.HIGH, Joker.LOW))
    return tuple(order)


def point_card(card: PitchCard, trump: Suit, variant: Variant) -> PointCard | None:
    """The point card this card is in the variant, if any."""
    key: PointCard | None = None
    if isinstance(card, Joker):
        key = PointCard(card.value)
    elif card.suit is trump:
        key = _TRUMP_POINTS.get(card.rank)
    elif card.suit is trump.same_colour:
        key = _OFF_POINTS.get(card.rank)
    return key if key in variant.points else None


_TRUMP_POINTS: Final[dict[Rank, PointCard]] = {
    Rank.ACE: P.ACE,
    Rank.JACK: P.JACK,
    Rank.TEN: P.TEN,
    Rank.THREE: P.THREE,
    Rank.TWO: P.TWO,
}
_OFF_POINTS: Final[dict[Rank, PointCard]] = {
    Rank.ACE: P.OFF_ACE,
    Rank.JACK: P.OFF_JACK,
    Rank.TEN: P.OFF_TEN,
    Rank.THREE: P.OFF_THREE,
    Rank.TWO: P.OFF_TWO,
}


@dataclass(frozen=True, slots=True)
class TrickResult:
    """Who won a trick, and who scores each point card in it; and why."""

    winner: int
    points: tuple[tuple[PointCard, int], ...]
    reasons: tuple[Step, ...] = ()


def judge_trick(
    plays: Sequence[tuple[int, PitchCard]], trump: Suit, rules: Rules, players: int = 4
) -> TrickResult:
    """Say which seat wins a trick of (seat, card) plays, and who scores its point cards.

    Only trumps are played ("Seules les cartes appartenant à la couleur d'atout sont
    autorisées"); the highest wins. Point cards go to the winner, except a 2, which
    its player keeps ("Les deux vont à la personne qui le joue. Il ne peut pas être
    enlevé par une carte supérieure") unless the game is `dirty`.
    """
    variant = rules.variant
    order = trump_order(trump, variant, rules.reverse)
    problems: list[Problem] = []
    if not plays:
        problems.append(problem("trick_empty", "trick"))
    elif len(plays) > players:
        # One card per player: the cards past the last player's have no player at all.
        problems.append(problem("trick_too_long", "trick", count=len(plays), players=players))
        raise RulesError(problems)
    seen: set[PitchCard] = set()
    for index, (seat, card) in enumerate(plays):
        seat_value(seat, f"trick[{index}].seat", players, problems)
        if isinstance(card, Joker) and not variant.jokers:
            problems.append(problem("card_not_in_deck", f"trick[{index}]", value=str(card)))
        elif card not in order:
            problems.append(
                problem("card_not_trump", f"trick[{index}]", value=str(card), suit=trump.value)
            )
        if card in seen:
            problems.append(problem("card_twice", "trick", value=str(card)))
        seen.add(card)
    check(problems)
    winner = min(plays, key=lambda play: order.index(play[1]))[0]
    scored: list[tuple[PointCard, int]] = []
    for seat, card in plays:
        key = point_card(card, trump, variant)
        if key is None:
            continue
        keeps = key in (P.TWO, P.OFF_TWO) and not rules.dirty
        scored.append((key, seat if keeps else winner))
    best = next(card for seat, card in plays if seat == winner)
    why = [reason("highest_trump", card=str(best))]
    if any(key in (P.TWO, P.OFF_TWO) and seat != winner for key, seat in scored):
        why.append(reason("two_kept"))
    return TrickResult(winner, tuple(scored), tuple(why))


GAME: Final = Pitch()
