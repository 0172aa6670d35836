"""A fourth game, in the tests only: Tally. Two to four players each write down the
points they made in a deal; the first to the target (10) wins.

It is registered the way any game would be: its rules beside the engine's `GAMES`,
its home beside the app's `HOMES` (`referee.web.homes`), its templates in its own
folder. Nothing under `referee/` knows of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from referee.engine.errors import Problem, RulesError, check, problem
from referee.engine.explain import gains, step
from referee.engine.fields import read_counts, read_object, read_seat
from referee.engine.flags import Flag, parse_flags
from referee.engine.game import (
    DealResult,
    Figure,
    Game,
    Mark,
    MarkKind,
    Record,
    Standings,
    alone,
    dealer_problems,
    dump_flags,
    to_the_left,
)
from referee.engine.game import (
    Tally as Counts,
)
from referee.web.home import Home, form_value

MOST_POINTS = 5


@dataclass(frozen=True, slots=True)
class Rules:
    target: int = 10


@dataclass(frozen=True, slots=True)
class Deal:
    points: tuple[int, ...]
    dealer: int | None = None


class Tally(Game[Rules, Deal]):
    """The rules of Tally: read a deal, add it up, stop at the target."""

    key = "tally"
    player_counts = (2, 3, 4)
    flags = (Flag("target", "Target score", "The first to reach it wins.", "Tally's rule", 1, 99),)
    #: What a table's statistics count of it: the deals where a player made the most.
    figures = (Figure("full_deals"),)

    def bids_now(self, record: Record[Rules, Deal], standings: Standings) -> Any:
        """No bids in Tally."""
        return ()

    def explain_deal(self, record: Record[Rules, Deal], standings: Standings, number: int) -> Any:
        """A deal: the points each player wrote down."""
        deltas = standings.deals[number - 1].deltas
        return (step("points", deltas, gains=gains(deltas, range(len(record.players)))),)

    def tally(self, record: Record[Rules, Deal], standings: Standings) -> Counts:
        full = [0] * len(record.players)
        for deal in record.deals:
            for seat, points in enumerate(deal.points):
                full[seat] += points == MOST_POINTS
        return {"full_deals": tuple(full)}

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        return alone(players)

    def dealer_of(self, first_dealer: int, number: int, players: int) -> int:
        return to_the_left(first_dealer, number, players)

    def contracts_for(self, record: Record[Rules, Deal], number: int) -> tuple[str, ...]:
        return ()

    def parse_rules(self, raw: Mapping[str, object]) -> Rules:
        return parse_flags(self.flags, Rules(), raw)

    def dump_rules(self, rules: Rules) -> dict[str, object]:
        return dump_flags(rules)

    def parse_deal(self, raw: object, players: tuple[str, ...], rules: Rules) -> Deal:
        problems: list[Problem] = []
        obj = read_object(raw, frozenset({"points", "dealer"}), problems)
        if obj is None:
            raise RulesError(problems)
        points = read_counts(obj, "points", len(players), problems, MOST_POINTS)
        dealer = read_seat(obj, "dealer", len(players), problems, optional=True)
        check(problems)
        assert points is not None
        return Deal(points, dealer)

    def dump_deal(self, deal: Deal) -> dict[str, object]:
        out: dict[str, object] = {"points": list(deal.points)}
        if deal.dealer is not None:
            out["dealer"] = deal.dealer
        return out

    def score(self, record: Record[Rules, Deal]) -> Standings:
        count = len(record.players)
        scores = [0] * count
        results: list[DealResult] = []
        problems: list[Problem] = []
        winners: tuple[int, ...] = ()
        for number, deal in enumerate(record.deals, start=1):
            if winners:
                problems.append(problem("after_win", "deals", won_at=number - 1).at_deal(number))
                break
            dealer = (record.first_dealer + number - 1) % count
            found = dealer_problems(deal.dealer, dealer, record.players)
            problems.extend(p.at_deal(number) for p in found)
            scores = [s + p for s, p in zip(scores, deal.points, strict=True)]
            best = max(scores)
            marks: tuple[Mark, ...] = ()
            if best >= record.rules.target:
                winners = tuple(s for s in range(count) if scores[s] == best)
                marks = tuple(Mark(MarkKind.WIN, s) for s in winners)
            results.append(DealResult(deal.points, dealer, marks))
        check(problems)
        return Standings(
            game=self.key,
            finished=bool(winners),
            winners=winners,
            scores=tuple(scores),
            deals=tuple(results),
            next_dealer=None if winners else (record.first_dealer + len(results)) % count,
        )


class TallyHome(Home):
    """Tally at the table: one box of points per player."""

    key: ClassVar[str] = "tally"
    name: ClassVar[Any] = "Tally"
    blurb: ClassVar[Any] = "2 to 4 players write down their points; first to 10."
    template_folder: ClassVar[Path | None] = Path(__file__).resolve().parent / "templates"
    figure_words: ClassVar[Mapping[str, Any]] = {"full_deals": "full deals"}

    def deal_from_form(self, form: Mapping[str, str], players: int, rules: Any) -> dict[str, Any]:
        values = [form_value(form.get(f"points{seat}")) for seat in range(players)]
        return {"points": [0 if v is None else v for v in values]}


TALLY = Tally()
HOME = TallyHome()
