"""The score pad: any game the table plays, written down deal by deal.

Two to twelve players, each alone or in teams (seats dealt round the teams: seat i
in team i % N); each deal gives every player (or team) a signed whole number of
points. House rules: teams, zero-sum deals (as tarot's: "the rest" fills in the
last one), a deal's total (as belote's 162: the rest of it fills in the last one),
whether the highest or the lowest total wins, a target score, a number
of deals. The table may also end the game itself: a deal marked `"last": true`.
All tied leaders win. The record: `docs/RECORD-FORMAT.md`, "Deals: score pad".
Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.explain import Step, gains, nothing, only, step
from referee.engine.fields import is_int, read_bool, read_object, read_seat
from referee.engine.flags import Flag
from referee.engine.game import (
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
    totals_before,
)
from referee.engine.settlement import money_of, winners_collect
from referee.games.pad.words import FLAG_WORDS, WORDS, ZERO_WORDS

KEY: Final = "pad"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 12
#: The longest name of what a pad plays (a player's name is as long).
MAX_NAME: Final = 40
#: The most points a player (or team) may score or lose in one deal.
MAX_POINTS: Final = 100_000
MAX_TEAMS: Final = 6
MAX_TARGET: Final = 999_999
MAX_DEALS: Final = 999
MINUS: Final = "\u2212"
FIGURES: Final = (Figure("deals"), Figure("best_deals"), Figure("points", per="deals"))


@dataclass(frozen=True, slots=True)
class Rules:
    """The house rules of a score pad; by default: no name, each alone, the highest
    total wins, no target, no fixed number of deals (the table ends the game)."""

    #: What the table plays on this pad ("belote", "tarot"): the game's name
    #: wherever it is named, and what its statistics are kept apart by; "": none.
    name: str = ""
    teams: int = 0
    zero_sum: bool = False
    #: The points a deal gives out (belote's 162), so that the last side left empty
    #: takes the rest of it; 0: none. Not checked: a capot's 252 is typed as is.
    total: int = 0
    lowest_wins: bool = False
    goal: int = 0
    deals: int = 0

    @property
    def target(self) -> int | None:
        """The total the players head for, as the shared scoreboard reads a game's
        `target` (its "needs 12"): the goal, when there is one and the highest
        total wins."""
        return self.goal if self.goal and not self.lowest_wins else None


def _flag(name: str, low: int = 1, high: int = 999) -> Flag:
    label, help_ = FLAG_WORDS[name]
    rule = "docs/RULES.md, \u201cScore pad\u201d: Referee's own"
    return Flag(name, label, help_, rule, low, high, zero=ZERO_WORDS.get(name, ""))


#: The house rules (docs/RULES.md, "Score pad"), their defaults in `Rules`.
FLAGS: Final = (
    _flag("name", 0, MAX_NAME),
    _flag("teams", 0, MAX_TEAMS),
    _flag("zero_sum"),
    _flag("total", 0, MAX_POINTS),
    _flag("lowest_wins"),
    _flag("goal", 0, MAX_TARGET),
    _flag("deals", 0, MAX_DEALS),
)


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal: the points of each side (a player, or a team) in seat order of the
    sides; None is "the rest": what the others leave of the deal's total (0 in a
    zero-sum deal, so minus the others' sum)."""

    points: tuple[int | None, ...]
    last: bool = False
    dealer: int | None = None

    def resolved(self, total: int = 0) -> tuple[int, ...]:
        """The points with the rest of `total` filled in."""
        known = sum(p for p in self.points if p is not None)
        return tuple(total - known if p is None else p for p in self.points)


_DEAL_FIELDS: Final = frozenset({"points", "last", "dealer"})


def sides_of(players: int, teams: int) -> tuple[tuple[int, ...], ...]:
    """Who scores together: each alone (0 teams), or seat i in team i % teams."""
    if teams < 2 or players % teams:
        return alone(players)
    return tuple(tuple(range(team, players, teams)) for team in range(teams))


def rules_problems(players: int, rules: Rules) -> list[Problem]:
    """House rules that go together: teams the players can sit in, and a deal's
    total only where a deal does not add up to zero."""
    found = team_problems(players, rules.teams)
    if rules.zero_sum and rules.total:
        found.append(problem("pad_total_zero_sum", "rules.total", total=rules.total))
    return found


def team_problems(players: int, teams: int) -> list[Problem]:
    """A number of teams the players can sit in, in teams of the same size."""
    if teams == 1:
        return [problem("pad_teams_one", "rules.teams")]
    if teams >= 2 and players % teams:
        return [problem("pad_teams_split", "rules.teams", count=players, teams=teams)]
    return []


def side_name(players: Sequence[str], side: Sequence[int]) -> str:
    """A side as the table names it: "Ana", "Ana & Chloé"."""
    names = [players[seat] for seat in side]
    if len(names) < 3:
        return " & ".join(names)
    return ", ".join(names[:-1]) + " & " + names[-1]


def written(value: int) -> str:
    """A number as a message shows it: a real minus."""
    return str(value).replace("-", MINUS)


class Pad(Game[Rules, Deal]):
    """The score pad's rules: read a deal, add it up, end the game as the rules say."""

    key = KEY
    player_counts = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    flags = FLAGS
    default_rules = Rules()
    figures = FIGURES
    stakes_to_winners = True  # by the game, each player who did not win pays each winner
    words = WORDS

    def lowest_wins_under(self, rules: Rules) -> bool:
        """A house rule: the lowest total wins."""
        return rules.lowest_wins

    def title_under(self, rules: Rules) -> str:
        """A house rule: what the table plays on this pad ("Belote")."""
        return rules.name

    def balanced_under(self, rules: Rules) -> bool:
        """A house rule: each deal adds up to zero (as tarot's)."""
        return rules.zero_sum

    def sides_under(self, rules: Rules, players: int) -> tuple[tuple[int, ...], ...]:
        """The teams of the house rules (seat i in team i % teams), or each alone."""
        return sides_of(players, rules.teams)

    def parse_deal(self, raw: object, players: tuple[str, ...], rules: Rules) -> Deal:
        """Read one deal: one number per side (None: the rest, in a zero-sum game),
        optionally `last` and the dealer; every problem at once."""
        problems: list[Problem] = []
        obj = read_object(raw, _DEAL_FIELDS, problems)
        if obj is None:
            raise RulesError(problems)
        sides = sides_of(len(players), rules.teams)
        points = _read_points(obj, players, sides, rules, problems)
        last = read_bool(obj, "last", problems, optional=True)
        dealer = read_seat(obj, "dealer", len(players), problems, optional=True)
        check(problems)
        assert points is not None
        return Deal(points, bool(last), dealer)

    def dump_deal(self, deal: Deal) -> dict[str, object]:
        """Write a deal as the record format has it (`last` only when true)."""
        out: dict[str, object] = {"points": list(deal.points)}
        if deal.last:
            out["last"] = True
        if deal.dealer is not None:
            out["dealer"] = deal.dealer
        return out

    def score(self, record: Record[Rules, Deal]) -> Standings:
        """Add the deals up in order; the game ends at the target, after the number
        of deals, or at a deal marked last. The leaders then win, ties included."""
        rules = record.rules
        players = len(record.players)
        check(rules_problems(players, rules))
        sides = sides_of(players, rules.teams)
        scores = [0] * players
        results: list[DealResult] = []
        problems: list[Problem] = []
        winners: tuple[int, ...] = ()
        ended_at = 0
        for number, deal in enumerate(record.deals, start=1):
            if ended_at:
                problems.append(
                    problem("pad_after_end", "deals", ended_at=ended_at).at_deal(number)
                )
                break
            dealer = self.dealer_of(record.first_dealer, number, players)
            found = dealer_problems(deal.dealer, dealer, record.players)
            problems.extend(p.at_deal(number) for p in found)
            deltas = seat_deltas(deal.resolved(rules.total), sides, players)
            scores = [s + d for s, d in zip(scores, deltas, strict=True)]
            marks: tuple[Mark, ...] = ()
            if ends(rules, scores, number, deal):
                ended_at = number
                winners = leaders(scores, rules.lowest_wins)
                marks = tuple(Mark(MarkKind.WIN, seat) for seat in winners)
            results.append(DealResult(deltas, dealer, marks))
        check(problems)
        finished = bool(ended_at)
        payments = winners_collect(players, winners) if finished else []
        return Standings(
            game=self.key,
            finished=finished,
            winners=winners,
            scores=tuple(scores),
            deals=tuple(results),
            next_dealer=None
            if finished
            else self.dealer_of(record.first_dealer, len(results) + 1, players),
            money=money_of(
                record.stake,
                record.stake_per,
                scores,
                payments,
                rules.lowest_wins,
                balanced=rules.zero_sum,
            ),
        )

    def explain_deal(
        self, record: Record[Rules, Deal], standings: Standings, number: int
    ) -> tuple[Step, ...]:
        """The points as entered, the rest (minus the others' sum), and when the deal
        ends the game, why it ends and who wins."""
        players = len(record.players)
        rules = record.rules
        deal = record.deals[number - 1]
        result = standings.deals[number - 1]
        deltas = result.deltas
        sides = sides_of(players, rules.teams)
        steps: list[Step] = []
        rest = [index for index, points in enumerate(deal.points) if points is None]
        given = [index for index in range(len(sides)) if index not in rest]
        if len(sides) == players:  # each alone: one line of everyone's points
            seats = [sides[index][0] for index in given]
            steps.append(
                step("pad_points", only(players, seats, deltas), gains=gains(deltas, seats))
            )
            for index in rest:
                seat = sides[index][0]
                steps.append(
                    step("pad_rest", only(players, [seat], deltas), who=seat, amount=deltas[seat])
                )
        else:
            for index, side in enumerate(sides):
                code = "pad_team_rest" if index in rest else "pad_team"
                steps.append(
                    step(code, only(players, side, deltas), side=side, amount=deltas[side[0]])
                )
        winners = tuple(mark.seat for mark in result.marks if mark.kind is MarkKind.WIN)
        if winners:
            scores = [
                t + d
                for t, d in zip(totals_before(standings, number, players), deltas, strict=True)
            ]
            steps.append(_why_it_ends(rules, scores, number, deal))
            steps.append(
                step("pad_wins", nothing(players), side=tuple(s for s in winners if s is not None))
            )
        return tuple(steps)

    def tally(self, record: Record[Rules, Deal], standings: Standings) -> Tally:
        """Per seat: deals played, deals won (the best score of a deal, ties
        included, unless everyone scored the same) and points."""
        players = len(record.players)
        best = [0] * players
        low = record.rules.lowest_wins
        for result in standings.deals:
            if len(set(result.deltas)) < 2:
                continue
            top = min(result.deltas) if low else max(result.deltas)
            for seat, delta in enumerate(result.deltas):
                best[seat] += delta == top
        return {
            "deals": (len(standings.deals),) * players,
            "best_deals": tuple(best),
            "points": standings.scores,
        }


def _read_points(
    obj: Mapping[str, object],
    players: Sequence[str],
    sides: Sequence[Sequence[int]],
    rules: Rules,
    problems: list[Problem],
) -> tuple[int | None, ...] | None:
    """One whole number per side, within ±MAX_POINTS; None, the rest, once and only
    where a deal adds up to zero or to a total, itself within ±MAX_POINTS; a
    zero-sum deal without a rest adds up to zero."""
    if "points" not in obj:
        problems.append(problem("missing", "points"))
        return None
    value = obj["points"]
    alone_ = len(sides) == len(players)
    code = "pad_points_players" if alone_ else "pad_points_teams"
    if not isinstance(value, list) or len(value) != len(sides):
        count = len(value) if isinstance(value, list) else 0
        problems.append(problem(code, "points", expected=len(sides), count=count))
        return None
    found = len(problems)
    points: list[int | None] = []
    for index, entry in enumerate(value):
        name = side_name(players, sides[index])
        if entry is None:
            if not rules.zero_sum and not rules.total:
                problems.append(problem("pad_rest_not_zero_sum", "points", name=name))
            points.append(None)
        elif is_int(entry) and isinstance(entry, int) and -MAX_POINTS <= entry <= MAX_POINTS:
            points.append(entry)
        else:
            problems.append(
                problem(
                    "pad_point_range",
                    "points",
                    name=name,
                    value=entry,
                    low=written(-MAX_POINTS),
                    high=MAX_POINTS,
                )
            )
    rests = points.count(None)
    if (rules.zero_sum or rules.total) and rests > 1:
        problems.append(problem("pad_rest_twice", "points", count=rests))
    if len(problems) > found:
        return None
    total = sum(p for p in points if p is not None)
    if rules.zero_sum and not rests and total:
        problems.append(problem("pad_not_zero_sum", "points", total=written(total)))
        return None
    rest = rules.total - total
    if rests and rules.total > 0 > rest:
        # A deal that gives out a total (belote's 162) leaves no side less than none.
        name = side_name(players, sides[points.index(None)])
        problems.append(
            problem("pad_rest_negative", "points", name=name, rest=written(rest), total=rules.total)
        )
        return None
    if rests and not -MAX_POINTS <= rest <= MAX_POINTS:
        name = side_name(players, sides[points.index(None)])
        high = MAX_POINTS
        problems.append(
            problem(
                "pad_rest_range",
                "points",
                name=name,
                rest=written(rest),
                low=written(-high),
                high=high,
            )
        )
        return None
    return tuple(points)


def seat_deltas(
    points: Sequence[int], sides: Sequence[Sequence[int]], players: int
) -> tuple[int, ...]:
    """Each seat's change: its side's points."""
    deltas = [0] * players
    for side, value in zip(sides, points, strict=True):
        for seat in side:
            deltas[seat] = value
    return tuple(deltas)


def ends(rules: Rules, scores: Sequence[int], number: int, deal: Deal) -> bool:
    """Whether the game is over after deal `number`: a total at the target, the
    number of deals played, or the table's word."""
    if rules.goal and max(scores) >= rules.goal:
        return True
    return bool(rules.deals and number >= rules.deals) or deal.last


def leaders(scores: Sequence[int], lowest_wins: bool) -> tuple[int, ...]:
    """Every seat with the best total (the highest, or the lowest)."""
    best = min(scores) if lowest_wins else max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


def _why_it_ends(rules: Rules, scores: Sequence[int], number: int, deal: Deal) -> Step:
    players = len(scores)
    if rules.goal and max(scores) >= rules.goal:
        reached = tuple(seat for seat, score in enumerate(scores) if score >= rules.goal)
        return step("pad_reaches", nothing(players), side=reached, total=rules.goal)
    if rules.deals and number >= rules.deals:
        return step("pad_deals_done", nothing(players), count=number, n=number)
    return step("pad_table_ends", nothing(players))


GAME: Final = Pad()
