"""Bombu provençal: four manches of six penalty contracts, capots, and the Réussite.

The rules, every ruling and the sentence of the rule text behind each:
`docs/RULES.md`, section "Bombu provençal"; the deals and house rule as a record
writes them: `docs/RECORD-FORMAT.md`, "Deals: Bombu provençal".
Points are bad points: the lowest total after 24 deals wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from referee.engine.cards import Card, Rank, Suit, check_cards
from referee.engine.catalog import N_
from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.explain import Step, gains, only, reason, step
from referee.engine.fields import read_choice, read_counts, read_object, read_seat, seat_value
from referee.engine.flags import Flag
from referee.engine.game import (
    DealResult,
    Figure,
    Game,
    Mark,
    Record,
    Standings,
    Tally,
    dealer_problems,
    mark_counts,
    seat_counts,
)
from referee.engine.settlement import money_of, winners_collect
from referee.engine.words import Words
from referee.games.bombu.words import WORDS

PLAYERS: Final = 4
TRICKS: Final = 8  # "Il y a 8 plis"
HEARTS: Final = 8  # "8 cœurs dans le jeu"
QUEENS: Final = 4
CARDS_PER_TRICK: Final = 4
DEALS_PER_MANCHE: Final = 6
MANCHES: Final = 4
DEALS: Final = MANCHES * DEALS_PER_MANCHE  # "4 manches de 6 contrats, soit 24 donnes"
#: The deck, in trick order: "As, 10, Roi, Dame, Valet, 9, 8, 7".
TRICK_ORDER: Final = (
    Rank.ACE,
    Rank.TEN,
    Rank.KING,
    Rank.QUEEN,
    Rank.JACK,
    Rank.NINE,
    Rank.EIGHT,
    Rank.SEVEN,
)
RANKS: Final = frozenset(TRICK_ORDER)

# Bad points ("Les points sont de mauvais points"), from the six contracts.
TRICK_POINTS: Final = 10  # "chaque pli remporté vaut +10"
HEART_POINTS: Final = 10  # "chaque cœur vaut +10"
QUEEN_POINTS: Final = 20  # "chaque dame vaut +20"
BOMBU_POINTS: Final = 80  # "le roi de cœur vaut à lui seul +80"
CAPOT_POINTS: Final = -320  # "Grand chelem : les 8 plis valent −320"
#: "1er sorti −200, 2e −120, 3e et 4e 0."
REUSSITE_POINTS: Final = (-200, -120, 0, 0)


class Marks(StrEnum):
    """The marks this game puts on a deal besides `MarkKind.WIN` (its words:
    `words.MARKS`)."""

    CAPOT = "capot"  # one player took all eight tricks


class Contract(StrEnum):
    """The six contracts, in their numbered order."""

    NO_TRICKS = "no-tricks"
    NO_HEARTS = "no-hearts"
    NO_QUEENS = "no-queens"
    NO_BOMBU = "no-bombu"
    SALAD = "salad"
    REUSSITE = "reussite"

    @property
    def number(self) -> int:
        """The contract's number, 1 to 6, as the seed lists them."""
        return list(Contract).index(self) + 1

    @property
    def allows_capot(self) -> bool:
        """Whether taking all eight tricks is a capot: "Capot (contrats 1 et 5)"."""
        return self in (Contract.NO_TRICKS, Contract.SALAD)


#: What a table's statistics count of a player's Bombu games (`Bombu.tally`): capots,
#: Réussite places, and each contract's average bad points per deal.
FIGURES: Final = (
    Figure("capots"),
    Figure("reussite_first"),
    Figure("reussite_second"),
    *(Figure(f"points:{contract}", per=f"deals:{contract}") for contract in Contract),
)


class ContractOrder(StrEnum):
    """Whether a manche's contracts come in any order (default) or 1 to 6."""

    FREE = "free"
    FIXED = "fixed"


@dataclass(frozen=True, slots=True)
class Rules:
    """The house-rule flags of a Bombu game."""

    contract_order: ContractOrder = ContractOrder.FREE


#: The house rule (docs/RULES.md, "Bombu provençal"), its default in `Rules`.
FLAGS: Final = (
    Flag(
        "contract_order",
        N_("Order of the contracts"),
        N_("Each manche plays the six contracts once: in any order, or 1 to 6."),
        "docs/RULES.md: each manche's six contracts in any order; `fixed`: 1 to 6",
        choices={"free": N_("any order"), "fixed": N_("1 to 6")},
    ),
)

#: The fields each contract is entered with (beside `contract` and `dealer`).
CONTRACT_FIELDS: Final[dict[Contract, frozenset[str]]] = {
    Contract.NO_TRICKS: frozenset({"tricks"}),
    Contract.NO_HEARTS: frozenset({"hearts"}),
    Contract.NO_QUEENS: frozenset({"queens"}),
    Contract.NO_BOMBU: frozenset({"bombu"}),
    Contract.SALAD: frozenset({"tricks", "hearts", "queens", "bombu"}),
    Contract.REUSSITE: frozenset({"finish"}),
}
_ALL_FIELDS: Final = frozenset({"contract", "dealer"}).union(*CONTRACT_FIELDS.values())


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal as entered: the contract and exactly the counts it needs.

    `bombu` is the seat that took the K♥; `finish` the seats in the order they
    went out of the Réussite (at least the first two).
    """

    contract: Contract
    tricks: tuple[int, ...] | None = None
    hearts: tuple[int, ...] | None = None
    queens: tuple[int, ...] | None = None
    bombu: int | None = None
    finish: tuple[int, ...] | None = None
    dealer: int | None = None

    @property
    def capot(self) -> int | None:
        """The seat that took all eight tricks in a contract where that is a capot."""
        if self.contract.allows_capot and self.tricks is not None:
            for seat, taken in enumerate(self.tricks):
                if taken == TRICKS:
                    return seat
        return None


def manche_dealer(first_dealer: int, manche: int) -> int:
    """The dealer of manche `manche` (0-based): each manche passes to the right (−1)."""
    return (first_dealer - manche) % PLAYERS


def _who(players: Sequence[str], seat: int) -> dict[str, object]:
    return {"seat": seat, "name": players[seat]}


class Bombu(Game[Rules, Deal]):
    """The Bombu provençal rules: reading deals, checking counts, scoring a game."""

    key: str = "bombu"
    player_counts: tuple[int, ...] = (PLAYERS,)
    flags: tuple[Flag, ...] = FLAGS
    lowest_wins: bool = True  # "Le joueur qui a le moins de points gagne"
    stakes_to_winners: bool = True  # docs/RULES.md, "Stakes": each other pays the winner
    length: int | None = DEALS
    round_deals: int | None = DEALS_PER_MANCHE
    figures: tuple[Figure, ...] = FIGURES
    default_rules: Rules = Rules()
    words: Words = WORDS

    def explain_deal(
        self, record: Record[Rules, Deal], standings: Standings, number: int
    ) -> tuple[Step, ...]:
        """A capot alone, else each count at its price, the K♥, the Réussite
        places: the deal alone (no deal's price depends on another's)."""
        return tuple(_explain_deal(record.deals[number - 1], standings.deals[number - 1].deltas))

    def tally(self, record: Record[Rules, Deal], standings: Standings) -> Tally:
        """Per seat: capots, Réussite first and second places, and each contract's
        bad points with the deals of it played (for the average)."""
        finishes = [d.finish for d in record.deals if d.finish is not None]
        counts: Tally = {
            "capots": mark_counts(standings, Marks.CAPOT, PLAYERS),
            "reussite_first": seat_counts([f[0] for f in finishes], PLAYERS),
            "reussite_second": seat_counts([f[1] for f in finishes], PLAYERS),
        }
        for contract in Contract:
            played = [
                result.deltas
                for deal, result in zip(record.deals, standings.deals, strict=True)
                if deal.contract is contract
            ]
            counts[f"points:{contract}"] = tuple(sum(d[s] for d in played) for s in range(PLAYERS))
            counts[f"deals:{contract}"] = (len(played),) * PLAYERS
        return counts

    def dealer_of(self, first_dealer: int, number: int, players: int) -> int:
        """One dealer per manche, passing to the right ("le donneur ... à droite")."""
        return manche_dealer(first_dealer, (number - 1) // DEALS_PER_MANCHE)

    def contracts_for(self, record: Record[Rules, Deal], number: int) -> tuple[str, ...]:
        """The contracts deal `number` may be: each manche plays the six once, so those
        its other deals have not played (under a fixed order, the one of its place)."""
        start = (number - 1) // DEALS_PER_MANCHE * DEALS_PER_MANCHE
        others = {
            deal.contract: index
            for index, deal in enumerate(record.deals[start : start + DEALS_PER_MANCHE], start + 1)
            if index != number
        }
        if record.rules.contract_order is ContractOrder.FIXED:
            return (list(Contract)[(number - 1) % DEALS_PER_MANCHE].value,)
        return tuple(c.value for c in Contract if c not in others)

    def parse_deal(self, raw: object, players: tuple[str, ...], rules: Rules) -> Deal:
        """Read one deal and check that real cards could give these counts."""
        problems: list[Problem] = []
        obj = read_object(raw, _ALL_FIELDS, problems)
        if obj is None:
            raise RulesError(problems)
        contract = read_choice(obj, "contract", Contract, problems)
        dealer = read_seat(obj, "dealer", PLAYERS, problems, optional=True)
        if contract is None:
            raise RulesError(problems)
        needed = CONTRACT_FIELDS[contract]
        for key in sorted(set(obj) - needed - {"contract", "dealer"}):
            if key in _ALL_FIELDS:
                problems.append(problem("not_for_contract", key, contract=contract.value))
        deal = Deal(contract, dealer=dealer)
        if "tricks" in needed:
            deal = replace(deal, tricks=read_counts(obj, "tricks", PLAYERS, problems, TRICKS))
        capot = deal.capot
        # On a capot nothing else is counted, so the other counts may be left out; when
        # only some are given, the capot taker took every card, so the others are his.
        given = [k for k in ("hearts", "queens", "bombu") if k in needed and k in obj]
        if capot is not None and given:
            obj = {**_capot_counts(capot, needed), **obj}
        counts_needed = capot is None or bool(given)
        if "hearts" in needed and counts_needed:
            deal = replace(deal, hearts=read_counts(obj, "hearts", PLAYERS, problems, HEARTS))
        if "queens" in needed and counts_needed:
            deal = replace(deal, queens=read_counts(obj, "queens", PLAYERS, problems, QUEENS))
        if "bombu" in needed and counts_needed:
            deal = replace(deal, bombu=read_seat(obj, "bombu", PLAYERS, problems))
        if "finish" in needed:
            deal = replace(deal, finish=_parse_finish(obj, players, problems))
        check(problems)
        check(_count_problems(deal, players))
        return deal

    def dump_deal(self, deal: Deal) -> dict[str, object]:
        """Write a deal as the record format has it."""
        out: dict[str, object] = {"contract": deal.contract.value}
        for key in ("tricks", "hearts", "queens", "finish"):
            counts = getattr(deal, key)
            if counts is not None:
                out[key] = list(counts)
        if deal.bombu is not None:
            out["bombu"] = deal.bombu
        if deal.dealer is not None:
            out["dealer"] = deal.dealer
        return out

    def score(self, record: Record[Rules, Deal]) -> Standings:
        """Play the deals in order: manche, dealer and contract order checked on the way."""
        scores = [0] * PLAYERS
        results: list[DealResult] = []
        problems: list[Problem] = []
        played: dict[Contract, int] = {}  # contract -> deal number, in the current manche
        for number, deal in enumerate(record.deals, start=1):
            if number > DEALS:
                problems.append(problem("after_last_deal", "deals", deals=DEALS).at_deal(number))
                break
            manche = (number - 1) // DEALS_PER_MANCHE
            if (number - 1) % DEALS_PER_MANCHE == 0:
                played = {}
            dealer = manche_dealer(record.first_dealer, manche)
            problems.extend(
                p.at_deal(number) for p in _placement_problems(deal, dealer, manche, played, record)
            )
            played.setdefault(deal.contract, number)
            deltas, marks = deal_deltas(deal)
            for seat, delta in enumerate(deltas):
                scores[seat] += delta
            results.append(DealResult(tuple(deltas), dealer, marks))
        check(problems)
        finished = len(results) == DEALS
        winners: tuple[int, ...] = ()
        if finished:
            # "Après les 24 donnes, le vainqueur est celui qui en a le moins."
            low = min(scores)
            winners = tuple(seat for seat in range(PLAYERS) if scores[seat] == low)
        manche = len(results) // DEALS_PER_MANCHE
        left = _contracts_left(record.rules, played if len(results) % DEALS_PER_MANCHE else {})
        return Standings(
            game=self.key,
            finished=finished,
            winners=winners,
            scores=tuple(scores),
            deals=tuple(results),
            next_dealer=None if finished else manche_dealer(record.first_dealer, manche),
            # Referee's ruling: each player who did not win pays each winner one stake
            # (or, by the point, each pair settles its difference; lowest wins).
            money=money_of(
                record.stake,
                record.stake_per,
                scores,
                winners_collect(PLAYERS, winners),
                self.lowest_wins,
            ),
            # What a scored record adds: the manche being played and its contracts
            # still to play (none once the game is over).
            extras={
                "manche": None if finished else manche + 1,
                "contracts_left": () if finished else tuple(left),
            },
        )


def _parse_finish(
    obj: Mapping[str, object], players: tuple[str, ...], problems: list[Problem]
) -> tuple[int, ...] | None:
    """The Réussite's order of going out: at least the first two seats, none twice."""
    if "finish" not in obj:
        problems.append(problem("missing", "finish"))
        return None
    raw = obj["finish"]
    if not isinstance(raw, list) or not 2 <= len(raw) <= PLAYERS:
        count = len(raw) if isinstance(raw, list) else 0
        problems.append(problem("finish_length", "finish", count=count, players=PLAYERS))
        return None
    found = len(problems)
    seats = [seat_value(value, "finish", PLAYERS, problems) for value in raw]
    if len(problems) > found:
        return None
    for position, seat in enumerate(seats):
        if seat is not None and seat in seats[:position]:
            problems.append(problem("finish_repeated", "finish", name=players[seat]))
            return None
    return tuple(s for s in seats if s is not None)


def _count_problems(deal: Deal, players: Sequence[str]) -> list[Problem]:
    """Counts that real cards cannot give: totals, and who could hold which card."""
    problems: list[Problem] = []
    for key, total, code in (
        ("tricks", TRICKS, "tricks_total"),
        ("hearts", HEARTS, "hearts_total"),
        ("queens", QUEENS, "queens_total"),
    ):
        counts = getattr(deal, key)
        if counts is not None and sum(counts) != total:
            problems.append(problem(code, key, total=sum(counts), expected=total))
    if problems or deal.contract is not Contract.SALAD or deal.hearts is None:
        return problems
    assert deal.tricks is not None
    assert deal.queens is not None
    assert deal.bombu is not None
    return _salad_problems(deal.tricks, deal.hearts, deal.queens, deal.bombu, players)


def _salad_problems(
    tricks: Sequence[int],
    hearts: Sequence[int],
    queens: Sequence[int],
    bombu: int,
    players: Sequence[str],
) -> list[Problem]:
    """In the salad the counts must fit the tricks each player took.

    A player who took no trick holds no card; a player who took t tricks holds 4t
    cards, among them at least hearts + queens − 1 different counting cards (the
    Q♥ is both a heart and a queen; the K♥ is a heart).
    """
    problems: list[Problem] = []
    for seat in range(PLAYERS):
        if tricks[seat] == 0:
            if hearts[seat]:
                problems.append(
                    problem("no_trick_hearts", "hearts", count=hearts[seat], **_who(players, seat))
                )
            if queens[seat]:
                problems.append(
                    problem("no_trick_queens", "queens", count=queens[seat], **_who(players, seat))
                )
            if bombu == seat:
                problems.append(problem("no_trick_bombu", "bombu", **_who(players, seat)))
            continue
        overlap = 1 if hearts[seat] and queens[seat] else 0
        needed = hearts[seat] + queens[seat] - overlap
        if needed > CARDS_PER_TRICK * tricks[seat]:
            problems.append(
                problem(
                    "too_many_cards",
                    "hearts",
                    tricks=tricks[seat],
                    cards=CARDS_PER_TRICK * tricks[seat],
                    hearts=hearts[seat],
                    queens=queens[seat],
                    needed=needed,
                    **_who(players, seat),
                )
            )
    if problems:
        return problems
    if hearts[bombu] == 0:
        problems.append(problem("bombu_without_heart", "bombu", **_who(players, bombu)))
    elif _queen_of_hearts_holder(tricks, hearts, queens, bombu) is None:
        problems.append(problem("queen_of_hearts", "queens"))
    return problems


def _queen_of_hearts_holder(
    tricks: Sequence[int], hearts: Sequence[int], queens: Sequence[int], bombu: int
) -> int | None:
    """A seat that can hold the Q♥ with every count still fitting, if there is one.

    The holder counts the Q♥ among both its hearts and its queens (and, if it also
    took the K♥, needs one more heart); everyone else's hearts and queens are
    different cards, and every player's cards fit in the tricks taken.
    """
    for holder in range(PLAYERS):
        if queens[holder] == 0 or hearts[holder] < 1 + (holder == bombu):
            continue
        if all(
            hearts[s] + queens[s] - (s == holder) <= CARDS_PER_TRICK * tricks[s]
            for s in range(PLAYERS)
        ):
            return holder
    return None


def _placement_problems(
    deal: Deal,
    dealer: int,
    manche: int,
    played: Mapping[Contract, int],
    record: Record[Rules, Deal],
) -> list[Problem]:
    """The dealer, and the contract's place in the manche."""
    problems: list[Problem] = []
    problems.extend(dealer_problems(deal.dealer, dealer, record.players))
    if deal.contract in played:
        problems.append(
            problem(
                "contract_twice",
                "contract",
                value=deal.contract.value,
                manche=manche + 1,
                earlier=played[deal.contract],
            )
        )
    elif record.rules.contract_order is ContractOrder.FIXED:
        expected = list(Contract)[len(played)]
        if deal.contract is not expected:
            problems.append(
                problem(
                    "contract_out_of_order",
                    "contract",
                    value=deal.contract.value,
                    expected=expected.value,
                )
            )
    return problems


def _contracts_left(rules: Rules, played: Mapping[Contract, int]) -> tuple[str, ...]:
    """The contracts still to play in the manche (fixed order: only the next one)."""
    left = [c for c in Contract if c not in played]
    if rules.contract_order is ContractOrder.FIXED:
        left = left[:1]
    return tuple(c.value for c in left)


def _capot_counts(seat: int, needed: frozenset[str]) -> dict[str, object]:
    """The counts of a capot: every heart, every queen and the Bombu in `seat`'s tricks."""
    everything = {"hearts": HEARTS, "queens": QUEENS}
    counts: dict[str, object] = {
        key: [total if s == seat else 0 for s in range(PLAYERS)]
        for key, total in everything.items()
        if key in needed
    }
    if "bombu" in needed:
        counts["bombu"] = seat
    return counts


def _explain_deal(deal: Deal, deltas: Sequence[int]) -> list[Step]:
    """One deal's steps, from what was entered and what it scored."""
    capot = deal.capot
    if capot is not None:
        return [step("capot", deltas, who=capot, amount=CAPOT_POINTS)]
    if deal.finish is not None:
        first, second = deal.finish[0], deal.finish[1]
        return [
            step(
                "reussite_first",
                only(PLAYERS, [first], deltas),
                who=first,
                amount=REUSSITE_POINTS[0],
            ),
            step(
                "reussite_second",
                only(PLAYERS, [second], deltas),
                who=second,
                amount=REUSSITE_POINTS[1],
            ),
        ]
    steps = []
    for code, counts, points in (
        ("per_trick", deal.tricks, TRICK_POINTS),
        ("per_heart", deal.hearts, HEART_POINTS),
        ("per_queen", deal.queens, QUEEN_POINTS),
    ):
        if counts is not None and any(counts):
            part = tuple(count * points for count in counts)
            seats = [seat for seat in range(PLAYERS) if counts[seat]]
            steps.append(step(code, part, gains=gains(part, seats)))
    if deal.bombu is not None:
        part = tuple(BOMBU_POINTS if seat == deal.bombu else 0 for seat in range(PLAYERS))
        steps.append(step("bombu_card", part, who=deal.bombu, amount=BOMBU_POINTS))
    return steps


def deal_deltas(deal: Deal) -> tuple[list[int], tuple[Mark, ...]]:
    """Each seat's bad points on one deal, and the deal's marks (a capot)."""
    capot = deal.capot
    if capot is not None:
        # "le grand chelem donne −320 bruts au joueur et rien aux autres ; plus rien
        # d'autre n'est comptabilisé sur la donne."
        deltas = [0] * PLAYERS
        deltas[capot] = CAPOT_POINTS
        return deltas, (Mark(Marks.CAPOT, capot),)
    if deal.finish is not None:
        deltas = [0] * PLAYERS
        for place, seat in enumerate(deal.finish):
            deltas[seat] = REUSSITE_POINTS[place]
        return deltas, ()
    deltas = [0] * PLAYERS
    # "Les éléments se cumulent dans un même pli": in the salad every count adds up,
    # the K♥ and Q♥ counting in every category they belong to.
    for counts, points in (
        (deal.tricks, TRICK_POINTS),
        (deal.hearts, HEART_POINTS),
        (deal.queens, QUEEN_POINTS),
    ):
        if counts is not None:
            for seat, count in enumerate(counts):
                deltas[seat] += count * points
    if deal.bombu is not None:
        deltas[deal.bombu] += BOMBU_POINTS
    return deltas, ()


# --- the referee at the table: the trick judge and the Réussite ----------------------


def trick_winner(cards: Sequence[Card]) -> int:
    """The position (0 = the lead) of the card that wins: the highest of the suit led.

    No trump; order A 10 K Q J 9 8 7.
    """
    problems = check_cards(cards, "trick", RANKS)
    if not cards:
        problems.append(problem("trick_empty", "trick"))
    elif len(cards) > PLAYERS:
        problems.append(problem("trick_too_long", "trick", count=len(cards), players=PLAYERS))
    check(problems)
    led = cards[0].suit

    def power(card: Card) -> int:
        return len(TRICK_ORDER) - TRICK_ORDER.index(card.rank) if card.suit is led else 0

    return max(range(len(cards)), key=lambda i: power(cards[i]))


def trick_reason(cards: Sequence[Card]) -> Step:
    """Why the winning card of a trick wins: no trump, the order A 10 K Q J 9 8 7."""
    card = cards[trick_winner(cards)]
    order = " ".join(rank.label for rank in TRICK_ORDER)
    return reason("highest_led_order", card=str(card), order=order)


def legal_plays(hand: Sequence[Card], led: Card | None) -> tuple[Card, ...]:
    """Cards of `hand` that may go on a trick led by `led` (None: leading).

    "Obligation de fournir la couleur demandée si possible. Aucune obligation de monter."
    """
    check(check_cards(hand, "hand", RANKS))
    if led is None:
        return tuple(hand)
    following = tuple(card for card in hand if card.suit is led.suit)
    return following or tuple(hand)


def check_play(card: Card, hand: Sequence[Card], led: Card | None) -> None:
    """Raise a `RulesError` quoting the card if it may not be played from `hand`."""
    if card not in hand:
        raise RulesError([problem("card_not_in_hand", "card", value=str(card))])
    if card not in legal_plays(hand, led):
        assert led is not None
        followers = " ".join(str(c) for c in hand if c.suit is led.suit)
        raise RulesError(
            [problem("must_follow", "card", value=str(card), suit=led.suit.value, cards=followers)]
        )


@dataclass(frozen=True, slots=True)
class Layout:
    """The Réussite on the table: the turned card, and each open suit's run of ranks.

    "la dernière carte distribuée est retournée par le donneur et constitue la
    première carte de la réussite"; a suit opens only with the card of the turned
    card's rank, and builds up and down by natural rank (7 8 9 10 J Q K A).
    """

    start: Card
    runs: tuple[tuple[Suit, Rank, Rank], ...]  # (suit, lowest, highest), in opening order

    @classmethod
    def begin(cls, start: Card) -> Layout:
        """The layout with only the turned card."""
        check(check_cards([start], "start", RANKS))
        return cls(start, ((start.suit, start.rank, start.rank),))

    @classmethod
    def from_cards(cls, start: Card, played: Sequence[Card]) -> Layout:
        """Rebuild the layout from the turned card and the cards played since, in order."""
        layout = cls.begin(start)
        for index, card in enumerate(played):
            try:
                layout = layout.play(card)
            except RulesError as error:
                raise RulesError(p.under(f"played[{index}]") for p in error.problems) from None
        return layout

    def run(self, suit: Suit) -> tuple[Rank, Rank] | None:
        """The lowest and highest rank laid in `suit`, or None if the suit is not open."""
        for run_suit, low, high in self.runs:
            if run_suit is suit:
                return low, high
        return None

    def fits(self, card: Card) -> bool:
        """Whether `card` may be laid now."""
        if card.rank not in RANKS:
            return False
        run = self.run(card.suit)
        if run is None:
            return card.rank is self.start.rank
        low, high = run
        return card.rank == _next_rank(high, +1) or card.rank == _next_rank(low, -1)

    def playable(self, hand: Sequence[Card]) -> tuple[Card, ...]:
        """The cards of `hand` that may be laid now."""
        return tuple(card for card in hand if self.fits(card))

    def play(self, card: Card) -> Layout:
        """Lay `card`; a `RulesError` names the card when it does not fit."""
        if not self.fits(card):
            code = "reussite_not_open" if self.run(card.suit) is None else "reussite_no_fit"
            raise RulesError([problem(code, "card", value=str(card), rank=self.start.rank.label)])
        runs = list(self.runs)
        run = self.run(card.suit)
        if run is None:
            runs.append((card.suit, card.rank, card.rank))
        else:
            low, high = run
            position = [r[0] for r in runs].index(card.suit)
            runs[position] = (card.suit, min(low, card.rank), max(high, card.rank))
        return Layout(self.start, tuple(runs))

    def check_turn(self, hand: Sequence[Card], card: Card | None) -> None:
        """Check one turn: `card` from `hand`, or None for a pass.

        "Un joueur qui peut poser au moins une carte doit la jouer"; one card a turn.
        """
        if card is None:
            able = self.playable(hand)
            if able:
                cards = " ".join(str(c) for c in able)
                raise RulesError([problem("reussite_must_play", "card", cards=cards)])
            return
        if card not in hand:
            raise RulesError([problem("card_not_in_hand", "card", value=str(card))])
        self.play(card)


def _next_rank(rank: Rank, step: int) -> Rank | None:
    """The natural rank above (+1) or below (−1) within the 32-card deck."""
    order = sorted(RANKS)
    position = order.index(rank) + step
    return order[position] if 0 <= position < len(order) else None


GAME: Final = Bombu()
