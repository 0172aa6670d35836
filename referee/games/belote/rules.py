"""Belote's and coinche's record: reading a deal as the table enters it, refusing
what no deal can be, and adding the deals up (docs/RULES.md, "Belote and coinche").

Four players in two teams, partners facing (seats 0 and 2, 1 and 3). A deal
(`"game": "belote"`): `taker` (a seat; null when everyone passed, and the next
dealer deals again), `trump`, at coinche `bid` (80 to 160 by 10, "capot",
"generale") and `coinche` ("coinche", "surcoinche"), `points` (the taking side's
card points, 0 to 162, dix de der included; or `defence`, the other side's), and
where they happened `capot` and `belote` (the side: "taker" or "defence"),
`announces` (by side, a list of "tierce", "cinquante", "cent", "carre", "carre_9",
"carre_j") and `best` (at equal best announcements, the side holding the higher).
Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from referee.engine.cards import Suit
from referee.engine.catalog import N_
from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.explain import Step, nothing, step
from referee.engine.fields import everyone_passed, is_int, read_choice, read_object, read_seat
from referee.engine.flags import Flag, read_flags
from referee.engine.game import (
    DealResult,
    Figure,
    Game,
    Mark,
    Record,
    Standings,
    Tally,
    dealer_problems,
    with_flags,
)
from referee.engine.settlement import money_of, winners_collect
from referee.games.belote.scoring import (
    ALL_POINTS,
    ANNOUNCE_CARDS,
    ANNOUNCE_VALUE,
    CARRES_IN_GAME,
    FAILED_BASE,
    SEQUENCES,
    Announce,
    Best,
    Coinche,
    Counts,
    Facts,
    HouseRules,
    Litige,
    MadeScores,
    Outcome,
    Result,
    Side,
    Special,
    Variant,
    announces_winner,
    best_of,
    bid_value,
    outcome,
    round_ten,
)
from referee.games.belote.words import WORDS

KEY: Final = "belote"
PLAYERS: Final = (4,)
#: Partners face each other: seats 0 and 2, 1 and 3.
TEAMS: Final = ((0, 2), (1, 3))
#: The bids of coinche: 80 to 160 by 10 (then capot and générale).
LOWEST_BID: Final = 80
HIGHEST_BID: Final = 160
BIDS: Final = tuple(range(LOWEST_BID, HIGHEST_BID + 1, 10))
#: A capot's card points, as the house counts them.
CAPOTS: Final = (252, 250)
#: The cards of a side: two hands of eight.
SIDE_CARDS: Final = 16
#: The usual targets: 1000 at belote, 2000 at coinche.
TARGETS: Final = {Variant.BELOTE: 1000, Variant.COINCHE: 2000}
MOST_ANNOUNCES: Final = 8

_FIELDS: Final = frozenset(
    {"taker", "trump", "bid", "coinche", "points", "defence", "capot", "belote"}
    | {"announces", "best", "dealer"}
)


def team_of(seat: int) -> int:
    """The team of a seat: 0 (seats 0 and 2) or 1 (seats 1 and 3)."""
    return seat % 2


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal; `taker` None: everyone passed (it scores nothing)."""

    taker: int | None
    trump: Suit | None = None
    facts: Facts | None = None
    dealer: int | None = None

    def outcome(self, house: HouseRules) -> Outcome | None:
        """What the deal gives each side; None when everyone passed."""
        if self.facts is None:
            return None
        return outcome(self.facts, house)


def _read_points(obj: Mapping[str, object], key: str, problems: list[Problem]) -> int | None:
    """A side's card points (`key`): a whole number from 0 to 162; None when not
    given or refused."""
    if key not in obj:
        return None
    value = obj[key]
    if not is_int(value) or not 0 <= value <= ALL_POINTS:  # type: ignore[operator]
        problems.append(problem("belote_points", key, value=value))
        return None
    assert isinstance(value, int)
    return value


def _taker_points(
    obj: Mapping[str, object], capot: Side | None, problems: list[Problem]
) -> int | None:
    """The taking side's card points, as given, or the rest of 162 when the table
    counted the defence's; a capot says them by itself (162 or 0)."""
    points = _read_points(obj, "points", problems)
    defence = _read_points(obj, "defence", problems)
    if "points" not in obj and "defence" not in obj:
        if capot is not None:
            return ALL_POINTS if capot is Side.TAKER else 0
        problems.append(problem("missing", "points"))
        return None
    typed = "points" if "points" in obj else "defence"
    if points is not None and defence is not None and points + defence != ALL_POINTS:
        problems.append(problem("belote_points_sum", "defence", points=points, defence=defence))
        return None
    if points is None and defence is not None:
        points = ALL_POINTS - defence
    if points is None:
        return None
    shown = points if typed == "points" else ALL_POINTS - points
    if shown in (1, ALL_POINTS - 1):
        # The smallest card that counts is a jack (2): no side ends with 1 point.
        problems.append(problem("belote_points_one", typed, points=shown))
    if capot is not None and points != (ALL_POINTS if capot is Side.TAKER else 0):
        # A capot takes every trick, so every card point (Referee's check).
        problems.append(problem("belote_capot_points", typed, points=shown))
    return points


def _read_side(obj: Mapping[str, object], key: str, problems: list[Problem]) -> Side | None:
    """A side ("taker" or "defence"); both sides at once is refused in words."""
    value = obj.get(key)
    if isinstance(value, list) and sorted(value) == [Side.DEFENCE.value, Side.TAKER.value]:
        problems.append(problem(f"belote_{key}_both", key))
        return None
    return read_choice(obj, key, Side, problems, optional=True)


def _read_announces(
    obj: Mapping[str, object], problems: list[Problem]
) -> tuple[tuple[Announce, ...], tuple[Announce, ...]]:
    """The announcements of each side, and what no two sides' 32 cards can hold."""
    raw = obj.get("announces", {})
    kinds = {a.value: a for a in Announce}
    if not isinstance(raw, dict) or set(raw) - {s.value for s in Side}:
        problems.append(problem("belote_announces", "announces"))
        return (), ()
    sides: list[tuple[Announce, ...]] = []
    for side in Side:
        listed = raw.get(side.value, [])
        if (
            not isinstance(listed, list)
            or len(listed) > MOST_ANNOUNCES
            or not all(isinstance(a, str) and a in kinds for a in listed)
        ):
            problems.append(problem("belote_announces", "announces"))
            return (), ()
        sides.append(tuple(kinds[a] for a in listed))
    for side, held in zip(Side, sides, strict=True):
        # Sequences share no card; a side's two hands hold 16 (Referee's check).
        cards = sum(ANNOUNCE_CARDS[a] for a in held if a in SEQUENCES)
        carres = sum(ANNOUNCE_CARDS[a] for a in held if a not in SEQUENCES)
        if max(cards, carres) > SIDE_CARDS:
            problems.append(
                problem(
                    "belote_announce_cards",
                    "announces",
                    given="side_" + side.value,
                    cards=max(cards, carres),
                )
            )
    both = sides[0] + sides[1]
    for kind, most in CARRES_IN_GAME.items():
        if both.count(kind) > most:
            problems.append(problem("belote_carre_twice", "announces", card=kind.value, most=most))
    return sides[0], sides[1]


def _read_bid(
    obj: Mapping[str, object], variant: Variant, generale: bool, problems: list[Problem]
) -> int | Special | None:
    """A coinche's bid: 80 to 160 by 10, a capot, a générale where the house plays it."""
    if "bid" not in obj:
        if variant is Variant.COINCHE:
            problems.append(problem("missing", "bid"))
        return None
    value = obj["bid"]
    if variant is Variant.BELOTE:
        problems.append(problem("belote_bid_classic", "bid"))
        return None
    if value == Special.GENERALE.value and not generale:
        problems.append(problem("belote_generale_off", "bid"))
        return None
    for special in Special:
        if value == special.value:
            return special
    if not is_int(value) or value not in BIDS:
        problems.append(problem("belote_bid", "bid", value=value))
        return None
    assert isinstance(value, int)
    return value


def parse_deal(raw: object, players: int, variant: Variant, generale: bool = False) -> Deal:
    """Read one deal; every problem at once (codes `belote_…`)."""
    problems: list[Problem] = []
    obj = read_object(raw, _FIELDS, problems)
    if obj is None:
        raise RulesError(problems)
    dealer = read_seat(obj, "dealer", players, problems, optional=True)
    if everyone_passed(obj, "belote_passed_with", problems):
        check(problems)
        return Deal(None, dealer=dealer)
    taker = read_seat(obj, "taker", players, problems)
    trump = read_choice(obj, "trump", Suit, problems)
    bid = _read_bid(obj, variant, generale, problems)
    coinche = read_choice(obj, "coinche", Coinche, problems, optional=True)
    if coinche is not None and bid is None and "bid" not in obj:
        # Only a bid can be coinché: classic belote has none (and a coinche
        # without its bid is a bid forgotten).
        problems.append(problem("belote_coinche_unbid", "coinche"))
    capot = _read_side(obj, "capot", problems)
    points = _taker_points(obj, capot, problems)
    belote = _read_side(obj, "belote", problems)
    before = len(problems)
    taker_announces, defence_announces = _read_announces(obj, problems)
    best = read_choice(obj, "best", Best, problems, optional=True)
    tied = best_of(taker_announces) == best_of(defence_announces) > 0
    if len(problems) > before:
        pass  # announcements no hand can hold: which is the higher is beside the point
    elif tied and best is None:
        value = best_of(taker_announces)
        problems.append(problem("belote_best_needed", "best", value=value))
    elif best is not None and not tied:
        problems.append(problem("belote_best_unneeded", "best"))
    check(problems)
    assert taker is not None
    assert trump is not None
    assert points is not None
    facts = Facts(
        variant,
        points,
        capot,
        belote,
        taker_announces,
        defence_announces,
        best,
        bid,
        coinche,
    )
    return Deal(taker, trump, facts, dealer)


def dump_deal(deal: Deal) -> dict[str, object]:
    """Write a deal as the record has it (what did not happen left out)."""
    facts = deal.facts
    if deal.taker is None or facts is None or deal.trump is None:
        out: dict[str, object] = {"taker": None}
    else:
        out = {"taker": deal.taker, "trump": deal.trump.value}
        if facts.bid is not None:
            out["bid"] = facts.bid.value if isinstance(facts.bid, Special) else facts.bid
        if facts.coinche is not None:
            out["coinche"] = facts.coinche.value
        out["points"] = facts.points
        if facts.capot is not None:
            out["capot"] = facts.capot.value
        if facts.belote is not None:
            out["belote"] = facts.belote.value
        announces = {
            side.value: [a.value for a in held]
            for side, held in (
                (Side.TAKER, facts.taker_announces),
                (Side.DEFENCE, facts.defence_announces),
            )
            if held
        }
        if announces:
            out["announces"] = announces
        if facts.best is not None:
            out["best"] = facts.best.value
    if deal.dealer is not None:
        out["dealer"] = deal.dealer
    return out


# --- the game -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of a belote table; by default classic belote to 1000."""

    variant: Variant = Variant.BELOTE
    #: The game ends when a team reaches it (0: 1000 at belote, 2000 at coinche).
    goal: int = 0
    #: The game ends after this many deals instead (0: at the target).
    deals: int = 0
    #: A capot's card points.
    capot: int = 252
    counts: Counts = Counts.ALL
    made: MadeScores = MadeScores.BID_POINTS
    litige: Litige = Litige.HELD
    #: The générale (every trick to the taker alone, 500) may be bid.
    generale: bool = False

    @property
    def house(self) -> HouseRules:
        return HouseRules(self.capot, self.counts, self.made, self.litige)

    @property
    def target(self) -> int | None:
        """The total the game is played to, as the shared scoreboard reads a game's
        `target` (its "need 412"); None when it is played to a number of deals."""
        return None if self.deals else self.goal or TARGETS[self.variant]


#: Referee's own and the rule pages' house rules, each declared once.
FLAGS: Final = (
    Flag(
        "variant",
        N_("Game"),
        N_("Classic belote (take or pass the turned card) or coinche (bids from 80)."),
        "docs/RULES.md, \u201cBelote and coinche\u201d",
        choices={Variant.BELOTE.value: N_("Belote"), Variant.COINCHE.value: N_("Coinche")},
    ),
    Flag(
        "goal",
        N_("Target"),
        N_("The first team to reach it wins (0: 1000 at belote, 2000 at coinche)."),
        "docs/RULES.md, \u201cBelote and coinche\u201d: 1000, 2000, 501, 1001",
        0,
        9999,
        zero=N_("1000 at belote, 2000 at coinche"),
    ),
    Flag(
        "deals",
        N_("Number of deals"),
        N_("The game ends after this many deals instead of at a target (0: at the target)."),
        "docs/RULES.md, \u201cBelote and coinche\u201d: a concours' rounds",
        0,
        999,
        zero=N_("played to the target"),
    ),
    Flag(
        "capot",
        N_("Capot"),
        N_("The card points of a side that takes every trick."),
        "docs/RULES.md, \u201cBelote and coinche\u201d: 252 or 250",
        numbers=CAPOTS,
    ),
    Flag(
        "counts",
        N_("What counts for the contract"),
        N_("Besides the card points, what the taking side counts to make its contract."),
        "docs/RULES.md, \u201cBelote and coinche\u201d",
        choices={
            Counts.ALL.value: N_("Announcements and belote"),
            Counts.NO_BELOTE.value: N_("Announcements, not the belote"),
            Counts.CARDS.value: N_("Card points alone"),
        },
    ),
    Flag(
        "made",
        N_("A coinche made scores"),
        N_("What the taking side scores for its contract made, when it was not coinché."),
        "docs/RULES.md, \u201cBelote and coinche\u201d",
        choices={
            MadeScores.BID_POINTS.value: N_("Its bid and its points"),
            MadeScores.BID.value: N_("Its bid alone"),
            MadeScores.ROUNDED.value: N_("Its bid and its points to the nearest ten"),
        },
    ),
    Flag(
        "litige",
        N_("Litige (equal counts, at belote)"),
        N_("What happens when the taking side counts exactly as much as the defence."),
        "docs/RULES.md, \u201cBelote and coinche\u201d",
        choices={
            Litige.HELD.value: N_("The taker's points wait for the next deal's winner"),
            Litige.DEDANS.value: N_("The taker is dedans"),
        },
    ),
    Flag(
        "generale",
        N_("Générale"),
        N_("At coinche, a player may bid every trick alone (500)."),
        "docs/RULES.md, \u201cBelote and coinche\u201d",
    ),
)

FIGURES: Final = (Figure("taken"), Figure("made"), Figure("capots"))


def _marks(deal: Deal, scored: Outcome | None) -> tuple[Mark, ...]:
    """The contract made, failed or in litige, and a capot, beside the deal."""
    if deal.taker is None or scored is None or deal.facts is None:
        return ()
    kind = {
        Result.MADE: "belote-made",
        Result.FAILED: "belote-failed",
        Result.LITIGE: "belote-litige",
    }[scored.result]
    marks = [Mark(kind, deal.taker)]
    if deal.facts.capot is not None:
        marks.append(Mark("belote-capot"))
    return tuple(marks)


class Belote(Game[Rules, Deal]):
    """Belote and coinche (contrée), four players in two teams (issue 55)."""

    key = KEY
    player_counts = PLAYERS
    flags = FLAGS
    default_rules = Rules()
    figures = FIGURES
    words = WORDS
    #: Played for a stake by the game, each player who did not win pays each winner.
    stakes_to_winners = True

    def parse_rules(self, raw: Mapping[str, object]) -> Rules:
        """Read the flags (a missing one takes its default); a capot counts 252 or
        250, nothing else."""
        problems: list[Problem] = []
        given = read_flags(FLAGS, Rules(), raw, problems)
        capot = given["capot"]
        if capot is not None and capot not in CAPOTS:
            problems.append(problem("belote_capot_rule", "capot", value=capot))
        check(problems)
        return with_flags(Rules(), given)

    def title_under(self, rules: Rules) -> str:
        """Coinche is kept apart from belote in the statistics."""
        return "Coinche" if rules.variant is Variant.COINCHE else ""

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """Partners sit facing each other."""
        del players
        return TEAMS

    def dealer_of(self, first_dealer: int, number: int, players: int) -> int:
        """The deal passes to the right: belote is played counterclockwise, and the
        seats are numbered clockwise."""
        return (first_dealer - (number - 1)) % players

    def parse_deal(self, raw: object, players: tuple[str, ...], rules: Rules) -> Deal:
        return parse_deal(raw, len(players), rules.variant, rules.generale)

    def dump_deal(self, deal: Deal) -> dict[str, object]:
        return dump_deal(deal)

    def score(self, record: Record[Rules, Deal]) -> Standings:
        """Add the deals up, team by team; a litige's held points go to the side
        that wins the next deal. The game ends after the number of deals, or when a
        team reaches the target with more than the other (equal: one more deal)."""
        players = len(record.players)
        house = record.rules.house
        teams = [0, 0]
        held = 0
        results: list[DealResult] = []
        problems: list[Problem] = []
        ended = 0
        for number, deal in enumerate(record.deals, start=1):
            if ended:
                problems.append(
                    problem("belote_after_end", "deals", ended_at=ended).at_deal(number)
                )
                break
            dealer = self.dealer_of(record.first_dealer, number, players)
            problems.extend(
                p.at_deal(number) for p in dealer_problems(deal.dealer, dealer, record.players)
            )
            scored = deal.outcome(house)
            gained, held = deal_gains(deal.taker, scored, held)
            teams = [t + g for t, g in zip(teams, gained, strict=True)]
            deltas = tuple(gained[team_of(seat)] for seat in range(players))
            results.append(DealResult(deltas, dealer, _marks(deal, scored)))
            if record.rules.deals:
                if number >= record.rules.deals:
                    ended = number
            elif max(teams) >= (record.rules.target or 0) and teams[0] != teams[1]:
                ended = number
        check(problems)
        scores = tuple(teams[team_of(seat)] for seat in range(players))
        winners: tuple[int, ...] = ()
        if ended:
            best = max(teams)
            winners = tuple(seat for seat in range(players) if scores[seat] == best)
        return Standings(
            game=self.key,
            finished=bool(ended),
            winners=winners,
            scores=scores,
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
            ),
            # What a litige holds for the next deal's winner (lost if the game ended).
            extras={"held": 0 if ended else held},
        )

    def explain_deal(
        self, record: Record[Rules, Deal], standings: Standings, number: int
    ) -> tuple[Step, ...]:
        """The deal in the rule's steps: the contract, the card points (or the capot),
        the announcements and the belote, made or not, and what each side scores."""
        players = len(record.players)
        house = record.rules.house
        deal = record.deals[number - 1]
        deltas = standings.deals[number - 1].deltas
        zero = nothing(players)
        held = held_before(record.deals[: number - 1], house)
        scored = deal.outcome(house)
        if deal.taker is None or deal.facts is None or scored is None:
            steps = [step("belote_passed", zero)]
            if held:
                steps.append(step("belote_still_held", zero, value=held))
            return tuple(steps)
        facts = deal.facts
        side = TEAMS[team_of(deal.taker)]
        defence = TEAMS[1 - team_of(deal.taker)]
        if facts.bid is None:
            steps = [step("belote_took", zero, who=deal.taker, trump=deal.trump)]
        else:
            code = "belote_bid" if facts.coinche is None else "belote_bid_" + facts.coinche.value
            bid = facts.bid.value if isinstance(facts.bid, Special) else facts.bid
            steps = [step(code, zero, who=deal.taker, bid=bid, trump=deal.trump)]
        if facts.capot is not None:
            capot_side = side if facts.capot is Side.TAKER else defence
            steps.append(step("belote_capot", zero, side=capot_side, value=house.capot))
        else:
            steps.append(
                step("belote_cards", zero, taker=scored.taker_cards, defence=scored.defence_cards)
            )
        winner = announces_winner(facts)
        if facts.taker_announces or facts.defence_announces:
            if winner is None:
                steps.append(step("belote_announces_equal", zero))
            else:
                held_by = facts.taker_announces if winner is Side.TAKER else facts.defence_announces
                steps.append(
                    step(
                        "belote_announces",
                        zero,
                        side=side if winner is Side.TAKER else defence,
                        value=sum(ANNOUNCE_VALUE[a] for a in held_by),
                    )
                )
        if facts.belote is not None:
            holder = side if facts.belote is Side.TAKER else defence
            steps.append(step("belote_rebelote", zero, side=holder))
        steps.append(self._result_step(record.rules, facts, scored, zero))
        won = scored.winner
        if held and won is not None:
            steps.append(
                step("belote_held", zero, value=held, side=side if won is Side.TAKER else defence)
            )
        elif held:
            steps.append(step("belote_still_held", zero, value=held))
        taker_gain = deltas[side[0]]
        defence_gain = deltas[defence[0]]
        steps.append(
            step("belote_total", deltas, side=side, taker=taker_gain, defence=defence_gain)
        )
        return tuple(steps)

    def _result_step(
        self, rules: Rules, facts: Facts, scored: Outcome, zero: tuple[int, ...]
    ) -> Step:
        """Made, failed or in litige, and the sum each side scores by it; the
        announcements and the belote are the steps before and the total after."""
        counts = {"count": scored.taker_count, "other": scored.defence_count}
        if facts.bid is None:
            if scored.result is Result.MADE:
                return step(
                    "belote_made", zero, **counts, taker=scored.taker, defence=scored.defence
                )
            if scored.result is Result.LITIGE:
                held = scored.taker_cards + scored.taker_announces
                return step("belote_litige", zero, **counts, defence=scored.defence, held=held)
            value = scored.defence - scored.defence_belote
            return step("belote_dedans", zero, **counts, value=value)
        bid = bid_value(facts.bid)
        multiplier = scored.multiplier
        if facts.bid is Special.GENERALE:
            code = "coinche_generale_" + scored.result.value
            return step(code, zero, bid=bid, multiplier=multiplier, value=bid * multiplier)
        doubled = (FAILED_BASE + bid) * multiplier
        capot_bid = isinstance(facts.bid, Special)
        if scored.result is Result.FAILED:
            code = "coinche_capot_failed" if capot_bid else "coinche_failed"
            return step(code, zero, **counts, bid=bid, multiplier=multiplier, value=doubled)
        if multiplier > 1:
            return step(
                "coinche_made_coinched",
                zero,
                **counts,
                bid=bid,
                multiplier=multiplier,
                value=doubled,
            )
        points, defence = scored.taker_cards, scored.defence_cards
        if rules.made is MadeScores.ROUNDED:
            points, defence = round_ten(points), round_ten(defence)
        code = "coinche_capot_made" if capot_bid else "coinche_made_" + rules.made.value
        return step(
            code,
            zero,
            **counts,
            bid=bid,
            points=points,
            value=bid + points,
            defence=defence,
        )

    def tally(self, record: Record[Rules, Deal], standings: Standings) -> Tally:
        """Per seat: contracts taken, contracts made, capots made by its side."""
        players = len(record.players)
        house = record.rules.house
        taken = [0] * players
        made = [0] * players
        capots = [0] * players
        for deal in record.deals:
            scored = deal.outcome(house)
            if deal.taker is None or scored is None or deal.facts is None:
                continue
            taken[deal.taker] += 1
            made[deal.taker] += scored.result is Result.MADE
            if deal.facts.capot is not None:
                team = (
                    team_of(deal.taker)
                    if deal.facts.capot is Side.TAKER
                    else 1 - team_of(deal.taker)
                )
                for seat in TEAMS[team]:
                    capots[seat] += 1
        return {"taken": tuple(taken), "made": tuple(made), "capots": tuple(capots)}


def deal_gains(taker: int | None, scored: Outcome | None, held: int) -> tuple[tuple[int, int], int]:
    """What each team (0, 1) scores by a deal (its taker and what it gave), and the
    points a litige holds after it."""
    if taker is None or scored is None:
        return (0, 0), held
    taker_team = team_of(taker)
    gained = [0, 0]
    gained[taker_team] += scored.taker
    gained[1 - taker_team] += scored.defence
    won = scored.winner
    if won is None:  # a litige: the taker's points wait, with any already waiting
        return (gained[0], gained[1]), held + scored.held
    team = taker_team if won is Side.TAKER else 1 - taker_team
    gained[team] += held  # held points go to the winner of the deal after the litige
    return (gained[0], gained[1]), 0


def held_before(deals: tuple[Deal, ...] | list[Deal], house: HouseRules) -> int:
    """The points a litige holds before the next deal."""
    held = 0
    for deal in deals:
        _gained, held = deal_gains(deal.taker, deal.outcome(house), held)
    return held


GAME: Final = Belote()
