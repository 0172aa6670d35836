"""A club's season, stored: its rule and its concours; its ranking derived from
their rankings every time (`referee.events.season`), so that a corrected result of
any concours moves the season at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

import referee.services.events as event_service
from referee.engine.errors import RulesError, problem
from referee.engine.fields import text_problem
from referee.engine.names import TITLE_MAX, clean, fault
from referee.events.season import (
    MAX_EVENTS,
    Held,
    SeasonLine,
    SeasonRules,
    counted_results,
    held_of,
    parse_rules,
    proposals,
    rules_json,
    season_rank,
)
from referee.extensions import db
from referee.models import Event, Season, SeasonEvent

#: The longest name of a season.
MAX_NAME = TITLE_MAX


@dataclass(frozen=True)
class Standings:
    """A season as its pages show it: its rule, its concours in order, the ranking."""

    season: Season
    rules: SeasonRules
    events: tuple[Event, ...]
    held: tuple[Held, ...]
    lines: tuple[SeasonLine, ...]
    #: Names that may be one player spelled two ways (accents, case, spaces), for
    #: the organiser to merge or not (`referee.events.season.proposals`).
    proposals: tuple[tuple[str, ...], ...] = ()

    @property
    def counted(self) -> int:
        """How many results each player counts now (one at least)."""
        return counted_results(self.rules, len(self.held))


def find(token: str) -> Season | None:
    return db.session.scalar(select(Season).where(Season.token == token))


def find_view(view_token: str) -> Season | None:
    return db.session.scalar(select(Season).where(Season.view_token == view_token))


def seasons_of(tokens: Sequence[str]) -> list[Season]:
    """The seasons of `tokens`, in their order (the latest opened first)."""
    if not tokens:
        return []
    found = {s.token: s for s in db.session.scalars(select(Season).where(Season.token.in_(tokens)))}
    return [found[t] for t in tokens if t in found]


def create(name: str, rules: Mapping[str, Any], events: Sequence[Event], language: str) -> Season:
    """A new season (RulesError: a name missing, a rule out of range)."""
    problems = []
    bad = text_problem(name or "", "name", controls=True)
    wrong = fault(name or "", MAX_NAME) if bad is None else None
    cleaned = clean(name or "")
    if bad is not None:
        problems.append(bad)  # a name is printed on one line: no control character
    elif wrong == "empty":
        problems.append(problem("missing", "name"))
    elif wrong == "long":
        problems.append(problem("event_text_long", "name", high=MAX_NAME))
    try:
        parsed = parse_rules(rules)
    except RulesError as error:
        problems.extend(error.problems)
    if problems:
        raise RulesError(problems)
    season = Season(name=cleaned, rules=rules_json(parsed), language=language)
    # The season's order is the concours's, oldest first (by their day, else when
    # they were created): "the latest event" breaks ties.
    ordered = sorted(events[:MAX_EVENTS], key=_when)
    season.events = [SeasonEvent(event=e, position=i) for i, e in enumerate(ordered)]
    db.session.add(season)
    db.session.commit()
    return season


def _when(event: Event) -> tuple[Any, ...]:
    return (event.played_on or event.created_at.date(), event.created_at, event.id)


def add(season: Season, event: Event) -> None:
    """Count `event` in the season, after the others (once)."""
    if any(link.event_id == event.id for link in season.events):
        return
    if len(season.events) >= MAX_EVENTS:
        raise RulesError(
            [problem("event_too_many", "events", count=len(season.events) + 1, high=MAX_EVENTS)]
        )
    last = db.session.scalar(
        select(func.max(SeasonEvent.position)).where(SeasonEvent.season_id == season.id)
    )
    season.events.append(SeasonEvent(event=event, position=(last or 0) + 1))
    db.session.commit()


def remove(season: Season, event_id: int) -> None:
    """Count a concours no longer (it stays, with its own pages)."""
    season.events = [link for link in season.events if link.event_id != event_id]
    db.session.commit()


def standings(season: Season) -> Standings:
    """The season's ranking from its concours's rankings, as they stand."""
    rules = parse_rules(season.rules or {})
    events = []
    held = []
    for link in season.events:
        event = event_service.loaded(link.event_id, whole=False)
        if event is None:
            continue
        events.append(event)
        held.append(held_of(event.name, event.played_on, event_service.concours_of(event)))
    aliases = dict(season.aliases or {})
    return Standings(
        season,
        rules,
        tuple(events),
        tuple(held),
        season_rank(rules, held, aliases),
        proposals(held, aliases),
    )


def merge(season: Season, names: Sequence[str], into: str) -> None:
    """The organiser says these names are one player, counted as `into` (one of
    them): the season's ranking adds up their results from now on."""
    if into not in names or len(set(names)) < 2:
        raise LookupError(into)
    aliases = dict(season.aliases or {})
    for name in names:
        if name != into:
            aliases[name] = into
    # A name merged before into one now merged further follows it.
    season.aliases = {k: (into if v in names else v) for k, v in aliases.items() if k != into}
    db.session.commit()


def unmerge(season: Season, name: str) -> None:
    """Count a merged name as its own player again."""
    aliases = dict(season.aliases or {})
    if name not in aliases:
        raise LookupError(name)
    del aliases[name]
    season.aliases = aliases or None
    db.session.commit()
