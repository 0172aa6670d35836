"""French tarot's record (the start of issue 54): reading a deal as the table
enters it, refusing what no deal can be, and adding the deals up. Not registered
yet (`referee.games.PACKAGES`): its words, form and pages come with the package.

A deal (`"game": "tarot"`): `taker` (a seat; absent when everyone passed, and the
next dealer deals again), `contract`, `partner` at five (the seat of the called
king; the taker himself when he called his own king or one in the dog), `bouts`
(0 to 3, held by the taker's side at the end), `points` (the taker's side's card
points, a whole or half number from 0 to 91), and where they happened
`petit_au_bout` ("taker" or "defence"), `poignees` (their sizes, 1 simple, 2
double, 3 triple) and `chelem`. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Final

from referee.engine.catalog import N_
from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.explain import Step, nothing, step
from referee.engine.fields import (
    everyone_passed,
    is_int,
    read_choice,
    read_int,
    read_object,
    read_seat,
)
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
)
from referee.engine.settlement import money_of, winners_collect
from referee.games.tarot.scoring import (
    ALL_POINTS,
    MULTIPLIER,
    POIGNEE,
    Chelem,
    Contract,
    Side,
    outcome,
    shares,
)
from referee.games.tarot.words import WORDS

KEY: Final = "tarot"
PLAYERS: Final = (3, 4, 5)
#: A bout's card points: three hold 13.5 by themselves.
BOUT_POINTS: Final = Fraction(9, 2)
#: The most poignées a deal can see: one a player.
MOST_POIGNEES: Final = 5
#: The trumps of the game, the excuse counted (a poignée may show it).
TRUMPS: Final = 22
#: The trumps a poignée shows, simple, double, triple, by the players (FFT).
POIGNEE_TRUMPS: Final = {3: (0, 13, 15, 18), 4: (0, 10, 13, 15), 5: (0, 8, 10, 13)}
#: The least card points of a chelem's side: all 91 but a defender's excuse (4½),
#: kept for a half-point card.
CHELEM_POINTS: Final = ALL_POINTS - BOUT_POINTS + Fraction(1, 2)
#: The most points the taker's side can keep when the defence takes every trick: the
#: dog (6 cards at three and four, 3 at five: the 21, the petit and kings at most)
#: and its excuse (4, its half-point card given).
DEFENCE_CHELEM_MOST: Final = {3: 31, 4: 31, 5: 17}


def half(points: Fraction) -> str:
    """Card points as players write them: 47, 47½."""
    whole = int(points)
    if points.denominator == 2:
        return f"{whole}½" if whole else "½"
    return str(whole)


_FIELDS: Final = frozenset(
    {"taker", "contract", "partner", "bouts", "points", "defence", "petit_au_bout"}
    | {"poignees", "chelem"}
    | {"dealer"}
)


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal; `taker` None: everyone passed (it scores nothing)."""

    taker: int | None
    contract: Contract | None = None
    partner: int | None = None
    bouts: int = 0
    points: Fraction = Fraction(0)
    petit_au_bout: Side | None = None
    poignees: tuple[int, ...] = ()
    chelem: Chelem = Chelem.NONE
    dealer: int | None = None

    def value(self, players: int) -> int:
        """What the deal is worth to the taker's side against each defender
        (negative: it pays); 0 when everyone passed."""
        del players
        if self.taker is None or self.contract is None:
            return 0
        scored = outcome(self.contract, self.bouts, self.points, self.petit_au_bout, 0, self.chelem)
        # The poignées go to the side that wins the deal (FFT), never multiplied.
        poignees = sum(POIGNEE[size] for size in self.poignees)
        return scored.value + (poignees if scored.made else -poignees)

    def deltas(self, players: int) -> tuple[int, ...]:
        """Each seat's score of this deal (all zero when everyone passed)."""
        if self.taker is None or self.contract is None:
            return (0,) * players
        return shares(players, self.taker, self.partner, self.value(players))


def read_points(obj: Mapping[str, object], key: str, problems: list[Problem]) -> Fraction | None:
    """A side's card points (`key`): a whole or half number from 0 to 91 (the FFT
    counts halves); None when not given or refused."""
    if key not in obj:
        return None
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        problems.append(problem("tarot_points", key, value=value))
        return None
    halves = Fraction(value) * 2
    if halves.denominator != 1 or not 0 <= value <= ALL_POINTS:
        problems.append(problem("tarot_points", key, value=value))
        return None
    return Fraction(value)


def _taker_points(obj: Mapping[str, object], problems: list[Problem]) -> Fraction | None:
    """The taker's side's points, as given, or as the rest of 91 when the table
    counted the defence's (`defence`); both given, they must add up to 91."""
    points = read_points(obj, "points", problems)
    defence = read_points(obj, "defence", problems)
    if "points" not in obj and "defence" not in obj:
        problems.append(problem("missing", "points"))
    if defence is None:
        return points
    if "points" not in obj:
        return ALL_POINTS - defence
    if points is not None and points + defence != ALL_POINTS:
        problems.append(
            problem("tarot_points_sum", "defence", points=half(points), defence=half(defence))
        )
    return points


def parse_deal(raw: object, players: int) -> Deal:
    """Read one deal; every problem at once (codes `tarot_…`)."""
    problems: list[Problem] = []
    obj = read_object(raw, _FIELDS, problems)
    if obj is None:
        raise RulesError(problems)
    dealer = read_seat(obj, "dealer", players, problems, optional=True)
    if everyone_passed(obj, "tarot_passed_with", problems):
        check(problems)
        return Deal(None, dealer=dealer)
    taker = read_seat(obj, "taker", players, problems)
    contract = read_choice(obj, "contract", Contract, problems)
    partner = None
    if players == 5:
        partner = read_seat(obj, "partner", players, problems)
    elif "partner" in obj:
        problems.append(problem("tarot_partner", "partner", players=players))
    bouts = read_int(obj, "bouts", problems, 0, 3)
    points = _taker_points(obj, problems)
    petit = read_choice(obj, "petit_au_bout", Side, problems, optional=True)
    chelem = read_choice(obj, "chelem", Chelem, problems, optional=True) or Chelem.NONE
    poignees = _read_poignees(obj, problems)
    # A reason about the points goes to the box the table typed: the defence's,
    # when it gave only those (its figure then said as typed).
    typed = "points" if "points" in obj else "defence"
    if players == 4 and points is not None and points.denominator != 1:
        # Every card is worth a half point more than a whole one, and at four each
        # side ends with an even number of cards: whole points only (FFT; the half
        # point goes to the winning side at three and five, `scoring.outcome`).
        shown = points if typed == "points" else ALL_POINTS - points
        problems.append(problem("tarot_points_whole", typed, points=half(shown)))
    # Each bout is 4.5 points: the side holding them holds at least those.
    if (
        bouts is not None
        and points is not None
        and (points < BOUT_POINTS * bouts or ALL_POINTS - points < BOUT_POINTS * (3 - bouts))
    ):
        if typed == "points":
            problems.append(
                problem("tarot_bouts_points", "points", bouts=bouts, points=half(points))
            )
        else:
            problems.append(
                problem(
                    "tarot_bouts_defence",
                    "defence",
                    bouts=bouts,
                    points=half(points),
                    defence=half(ALL_POINTS - points),
                )
            )
    # The petit is a bout: the side that took it in the last trick holds one.
    if (petit is Side.TAKER and bouts == 0) or (petit is Side.DEFENCE and bouts == 3):
        problems.append(problem("tarot_petit_bouts", "petit_au_bout", bouts=bouts))
    # Every card to one side is every trick: a chelem, said as such.
    if chelem is Chelem.NONE and points in (0, ALL_POINTS):
        problems.append(
            problem("tarot_chelem_unsaid", "chelem", points=half(points or Fraction(0)))
        )
    if chelem in (Chelem.ANNOUNCED_MADE, Chelem.MADE) and contract is not Contract.GARDE_CONTRE:
        # Every trick and the dog are the taker's side's; only a defender's excuse
        # stays with him, for a half-point card (FFT, "Le chelem"). At a garde
        # contre the dog is the defence's: nothing can be said of the points.
        if points is not None and points < CHELEM_POINTS:
            problems.append(problem("tarot_chelem_points", "chelem", points=half(points)))
        if bouts is not None and bouts < 2:
            problems.append(problem("tarot_chelem_bouts", "chelem", bouts=bouts))
    if chelem is Chelem.ANNOUNCED_FAILED and points == ALL_POINTS:
        # All 91 points are every card: every trick was the taker's side's.
        problems.append(problem("tarot_chelem_failed_points", "chelem"))
    if chelem is Chelem.DEFENCE and points is not None and contract is not None:
        # The defence took every trick: the taker's side keeps only the dog (not at a
        # garde contre) and an excuse it held (FFT, "Le chelem").
        most = DEFENCE_CHELEM_MOST[players] if contract is not Contract.GARDE_CONTRE else 4
        if points > most:
            problems.append(
                problem("tarot_chelem_defence_points", "chelem", most=most, points=half(points))
            )
    if poignees and sum(POIGNEE_TRUMPS[players][size] for size in poignees) > TRUMPS:
        trumps = sum(POIGNEE_TRUMPS[players][size] for size in poignees)
        problems.append(
            problem("tarot_poignee_trumps", "poignees", count=len(poignees), trumps=trumps)
        )
    check(problems)
    assert taker is not None
    assert contract is not None
    assert bouts is not None
    assert points is not None
    return Deal(taker, contract, partner, bouts, points, petit, poignees, chelem, dealer)


def _read_poignees(obj: Mapping[str, object], problems: list[Problem]) -> tuple[int, ...]:
    raw = obj.get("poignees", [])
    if not isinstance(raw, list) or len(raw) > MOST_POIGNEES:
        problems.append(problem("tarot_poignees", "poignees"))
        return ()
    if not all(is_int(size) and isinstance(size, int) and 1 <= size <= 3 for size in raw):
        problems.append(problem("tarot_poignees", "poignees"))
        return ()
    return tuple(int(size) for size in raw)


def dump_deal(deal: Deal) -> dict[str, object]:
    """Write a deal as the record has it (what did not happen left out)."""
    if deal.taker is None or deal.contract is None:
        out: dict[str, object] = {"taker": None}
    else:
        points: object = int(deal.points) if deal.points.denominator == 1 else float(deal.points)
        out = {"taker": deal.taker, "contract": deal.contract.value}
        if deal.partner is not None:
            out["partner"] = deal.partner
        out.update({"bouts": deal.bouts, "points": points})
        if deal.petit_au_bout is not None:
            out["petit_au_bout"] = deal.petit_au_bout.value
        if deal.poignees:
            out["poignees"] = list(deal.poignees)
        if deal.chelem is not Chelem.NONE:
            out["chelem"] = deal.chelem.value
    if deal.dealer is not None:
        out["dealer"] = deal.dealer
    return out


# --- the game -----------------------------------------------------------------------


def _marks(deal: Deal) -> tuple[Mark, ...]:
    """The taker's contract made or failed, and a chelem, beside the deal."""
    if deal.taker is None or deal.contract is None:
        return ()
    made = outcome(deal.contract, deal.bouts, deal.points).made
    marks = [Mark("tarot-made" if made else "tarot-failed", deal.taker)]
    if deal.chelem in (Chelem.ANNOUNCED_MADE, Chelem.MADE, Chelem.DEFENCE):
        marks.append(Mark("tarot-chelem"))
    return tuple(marks)


class Small(StrEnum):
    """What the table calls the contract ×1: the FFT gives both names ("la prise ou
    petite"); the record's contract is `petite` whatever the table says."""

    PETITE = "petite"
    PRISE = "prise"


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of a tarot table; by default the table ends the game itself
    (a deal marked last), as most evenings do."""

    #: The game ends after this many deals (0: when the table says).
    deals: int = 0
    #: The name of the contract ×1 on the table's pages.
    small: Small = Small.PETITE

    def contract_word(self, contract: Contract) -> str:
        """The code of a contract's words at this table (`words.VALUES`)."""
        if contract is Contract.PETITE and self.small is Small.PRISE:
            return Small.PRISE.value
        return contract.value


FIGURES: Final = (Figure("taken"), Figure("made"), Figure("points", per="deals"))


@dataclass(frozen=True, slots=True)
class TarotDeal:
    """A deal of the record: the deal, and whether the table ended the game there."""

    deal: Deal
    last: bool = False


class Tarot(Game[Rules, TarotDeal]):
    """French tarot, by the French Tarot Federation's rules (issue 54)."""

    key = KEY
    player_counts = PLAYERS
    flags = (
        Flag(
            "deals",
            N_("Number of deals"),
            N_("The game ends after this many deals (0: when the table marks its last deal)."),
            "docs/RULES.md, \u201cTarot\u201d: Referee's own",
            0,
            999,
        ),
        Flag(
            "small",
            N_("Name of the smallest contract"),
            N_("What the table calls the contract ×1; the FFT gives both names."),
            "docs/RULES.md, \u201cTarot\u201d: the FFT's \u201cla prise ou petite\u201d",
            choices={Small.PETITE.value: N_("Petite"), Small.PRISE.value: N_("Prise")},
        ),
    )
    default_rules = Rules()
    figures = FIGURES
    words = WORDS
    #: Played for a stake by the game, each player who did not win pays each winner.
    stakes_to_winners = True

    def balanced_under(self, rules: Rules) -> bool:
        """Every deal adds up to zero (the taker's gain is the defence's loss)."""
        del rules
        return True

    def dealer_of(self, first_dealer: int, number: int, players: int) -> int:
        """The deal passes to the right: tarot is played counterclockwise (FFT),
        and the seats are numbered clockwise."""
        return (first_dealer - (number - 1)) % players

    def parse_deal(self, raw: object, players: tuple[str, ...], rules: Rules) -> TarotDeal:
        """One deal, and `last` when the table ends the game with it."""
        last = False
        if isinstance(raw, dict) and "last" in raw:
            raw = dict(raw)
            value = raw.pop("last")
            if not isinstance(value, bool):
                raise RulesError([problem("not_boolean", "last", value=value)])
            last = value
        return TarotDeal(parse_deal(raw, len(players)), last)

    def dump_deal(self, deal: TarotDeal) -> dict[str, object]:
        out = dump_deal(deal.deal)
        if deal.last:
            out["last"] = True
        return out

    def score(self, record: Record[Rules, TarotDeal]) -> Standings:
        """Add the deals up; the game ends after the number of deals, or at a deal
        the table marked last; the highest total wins, ties included."""
        players = len(record.players)
        scores = [0] * players
        results: list[DealResult] = []
        problems: list[Problem] = []
        ended = 0
        for number, entry in enumerate(record.deals, start=1):
            if ended:
                problems.append(problem("tarot_after_end", "deals", ended_at=ended).at_deal(number))
                break
            dealer = self.dealer_of(record.first_dealer, number, players)
            found = dealer_problems(entry.deal.dealer, dealer, record.players)
            problems.extend(p.at_deal(number) for p in found)
            deltas = entry.deal.deltas(players)
            scores = [s + d for s, d in zip(scores, deltas, strict=True)]
            if (record.rules.deals and number >= record.rules.deals) or entry.last:
                ended = number
            results.append(DealResult(deltas, dealer, _marks(entry.deal)))
        check(problems)
        best = max(scores)
        winners = tuple(seat for seat, s in enumerate(scores) if s == best) if ended else ()
        return Standings(
            game=self.key,
            finished=bool(ended),
            winners=winners,
            scores=tuple(scores),
            deals=tuple(results),
            next_dealer=None
            if ended
            else self.dealer_of(record.first_dealer, len(results) + 1, players),
            money=money_of(
                record.stake,
                record.stake_per,
                scores,
                winners_collect(players, winners) if ended else [],
                False,
                balanced=True,
            ),
        )

    def explain_deal(
        self, record: Record[Rules, TarotDeal], standings: Standings, number: int
    ) -> tuple[Step, ...]:
        """The deal's value in the FFT's steps: the points needed, the margin and the
        contract, the petit au bout, the poignées, the chelem, then the shares."""
        players = len(record.players)
        deal = record.deals[number - 1].deal
        deltas = standings.deals[number - 1].deltas
        zero = nothing(players)
        if deal.taker is None or deal.contract is None:
            return (step("tarot_passed", zero),)
        scored = outcome(deal.contract, deal.bouts, deal.points, deal.petit_au_bout, 0, deal.chelem)
        multiplier = MULTIPLIER[deal.contract]
        steps = [
            step(
                "tarot_needed",
                zero,
                who=deal.taker,
                contract=record.rules.contract_word(deal.contract),
                multiplier=multiplier,
                n=deal.bouts,
                needed=scored.needed,
            ),
            step(
                ("tarot_made" if scored.margin else "tarot_just_made")
                if scored.made
                else "tarot_failed",
                zero,
                points=half(deal.points),
                margin=scored.margin,
                multiplier=multiplier,
                value=abs(scored.base),
            ),
        ]
        if deal.petit_au_bout is not None:
            code = "tarot_petit_" + deal.petit_au_bout.value
            steps.append(step(code, zero, multiplier=multiplier, value=abs(scored.petit)))
        if deal.poignees:
            bonus = sum(POIGNEE[size] for size in deal.poignees)
            steps.append(step("tarot_poignee", zero, n=len(deal.poignees), value=bonus))
        if deal.chelem is not Chelem.NONE:
            steps.append(step("tarot_chelem_" + deal.chelem.value, zero))
        value = deal.value(players)
        gains = tuple((seat, delta) for seat, delta in enumerate(deltas))
        code = "tarot_shares" if value >= 0 else "tarot_shares_lost"
        steps.append(step(code, deltas, value=abs(value), gains=gains))
        return tuple(steps)

    def tally(self, record: Record[Rules, TarotDeal], standings: Standings) -> Tally:
        """Per seat: contracts taken, contracts made, points."""
        players = len(record.players)
        taken = [0] * players
        made = [0] * players
        for entry in record.deals:
            deal = entry.deal
            if deal.taker is None or deal.contract is None:
                continue
            taken[deal.taker] += 1
            made[deal.taker] += outcome(deal.contract, deal.bouts, deal.points).made
        return {
            "taken": tuple(taken),
            "made": tuple(made),
            "points": standings.scores,
            "deals": (len(standings.deals),) * players,
        }


GAME: Final = Tarot()
