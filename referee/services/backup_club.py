"""A club's concours and seasons in a backup, beside its games (`services.backup`).

`DIR/event.<uid>.json` (`referee-backup-event/1`) is one concours as its rows hold
it: its three links, its rules, its players, its rounds (with their clocks), its
tables (each naming its game by the game's lasting identity, the game itself being
a game file of the same backup), the results accepted, a correction under way and
the whole history. `DIR/seasons.json` (`referee-backup-seasons/1`) holds every
season: its two links, its name, rule and language, and its concours by their
lasting identities, in the season's order. docs/BACKUP-FORMAT.md says each field.

A restore reads them after the games: a concours is checked as its event file
would be (the same rules, players, seatings and results), then put back with every
link and time as they were; a season after the concours it counts. A concours or a
season already in the database (by its identity or any of its links) is left as it
is: restoring twice changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any, Final

from sqlalchemy import or_, select

from referee.engine.errors import RulesError
from referee.engine.messages import LANGUAGES
from referee.engine.names import fault
from referee.events.eventfile import default_zone, parse_event
from referee.events.season import parse_rules
from referee.extensions import db
from referee.models import (
    EVENT_ACTIONS,
    Event,
    EventChange,
    EventPlayer,
    EventRound,
    EventTable,
    Game,
    Season,
    SeasonEvent,
)
from referee.services.events import concours_of, file_of

EVENT_FORMAT: Final = "referee-backup-event/1"
SEASONS_FORMAT: Final = "referee-backup-seasons/1"
SEASONS: Final = "seasons.json"
#: A concours's file: `event.<uid>.json` (never a game link: those have no dot).
EVENT_FILE: Final = re.compile(r"event\.(?P<uid>[0-9a-f]{32})\.json", re.ASCII)


def event_file_name(uid: str) -> str:
    return f"event.{uid}.json"


def _when(value: datetime) -> str:
    return value.isoformat()


def event_document(event: Event, game_uids: dict[int, str]) -> dict[str, Any]:
    """A concours's rows as its backup file holds them."""
    return {
        "format": EVENT_FORMAT,
        "uid": event.uid,
        "token": event.token,
        "play_token": event.play_token,
        "view_token": event.view_token,
        "name": event.name,
        "game": event.game,
        "rules": dict(event.rules or {}),
        "draw": {"format": event.format, "table_size": event.table_size, "seed": event.seed},
        "rounds_planned": event.rounds_planned,
        "length_deals": event.length_deals,
        "length_minutes": event.length_minutes,
        "entry_fee": event.entry_fee,
        "currency": event.currency,
        "ranking": dict(event.ranking or {}),
        "prizes": None if event.prizes is None else dict(event.prizes),
        "language": event.language,
        "place": event.place,
        "played_on": None if event.played_on is None else event.played_on.isoformat(),
        "version": event.version,
        "created_at": _when(event.created_at),
        "time_zone": event.time_zone,
        "self_accept": bool(event.self_accept),
        "screen": None if event.screen is None else dict(event.screen),
        "players": [
            {
                "number": p.number,
                "name": p.name,
                "joined": p.joined,
                "left": p.left,
                "missed": list(p.missed or []),
                "paid": bool(p.paid),
            }
            for p in event.players
        ],
        "rounds": [
            {"number": r.number, "byes": list(r.byes), "started_at": _when(r.started_at)}
            for r in event.rounds
        ],
        "tables": [
            {
                "round": t.round,
                "number": t.number,
                "seats": list(t.seats),
                "game": None if t.game_id is None else game_uids.get(t.game_id),
                "accepted": None if t.accepted is None else list(t.accepted),
                "accepted_by": t.accepted_by,
                "correcting": t.correcting,
                "table_token": t.table_token,
                "overtime": bool(t.overtime),
            }
            for t in event.tables
        ],
        "changes": [
            {
                "action": c.action,
                "round": c.round,
                "table": c.table,
                "reason": c.reason,
                "before": c.before,
                "after": c.after,
                "at": _when(c.at),
            }
            for c in event.changes
        ],
    }


def seasons_document(seasons: list[Season], event_uids: dict[int, str]) -> dict[str, Any]:
    """Every season, as `seasons.json` holds them."""
    return {
        "format": SEASONS_FORMAT,
        "seasons": [
            {
                "token": s.token,
                "view_token": s.view_token,
                "name": s.name,
                "rules": dict(s.rules or {}),
                "language": s.language,
                "created_at": _when(s.created_at),
                "aliases": None if s.aliases is None else dict(s.aliases),
                "events": [event_uids[e.event_id] for e in s.events if e.event_id in event_uids],
            }
            for s in seasons
        ],
    }


# --- checks ---------------------------------------------------------------------------


class Damaged(ValueError):
    """A concours's or the seasons' file that does not hold what a backup writes
    (its message: which field)."""


def is_time(value: object, kind: type[date] = datetime) -> bool:
    """Whether `value` is an ISO 8601 time (`kind`: or a day, `date`), as a backup
    writes them."""
    try:
        kind.fromisoformat(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True


def _is_int(value: object, low: int = 0, high: int = 2**31 - 1) -> bool:
    return type(value) is int and low <= value <= high


def _is_ints(value: object) -> bool:
    return isinstance(value, list) and all(_is_int(v, -(2**53), 2**53) for v in value)


def _text(value: object, high: int, optional: bool = True) -> bool:
    if value is None:
        return optional
    return isinstance(value, str) and len(value) <= high


def _require(checks: dict[str, Callable[[Any], object]], data: dict[str, Any], where: str) -> None:
    for key, check in checks.items():
        if not check(data.get(key)):
            raise Damaged(f"{where}{key}")


def check_event(data: object, token: re.Pattern[str], uid: re.Pattern[str]) -> dict[str, Any]:
    """A concours's backup file, checked: its fields one by one, then the concours as
    its event file would be read (rules, players, seatings, results). Damaged names
    the field that is not what a backup writes; RulesError what the rules refuse."""
    if not isinstance(data, dict) or data.get("format") != EVENT_FORMAT:
        raise Damaged("format")

    def link(value: object) -> bool:
        return isinstance(value, str) and token.fullmatch(value) is not None

    _require(
        {
            "uid": lambda v: isinstance(v, str) and uid.fullmatch(v),
            "token": link,
            "play_token": link,
            "view_token": link,
            "version": _is_int,
            "created_at": is_time,
            "played_on": lambda v: v is None or is_time(v, date),
            "players": lambda v: isinstance(v, list),
            "rounds": lambda v: isinstance(v, list),
            "tables": lambda v: isinstance(v, list),
            "changes": lambda v: isinstance(v, list),
            "draw": lambda v: isinstance(v, dict),
            "rules": lambda v: v is None or isinstance(v, dict),
            "ranking": lambda v: v is None or isinstance(v, dict),
            "prizes": lambda v: v is None or isinstance(v, dict),
            # Written since the concours's afternoon (a backup before lacks them).
            "time_zone": lambda v: v is None or _text(v, 40),
            "self_accept": lambda v: v is None or isinstance(v, bool),
            "screen": lambda v: v is None or isinstance(v, dict),
        },
        data,
        "",
    )
    for i, p in enumerate(data["players"]):
        if not isinstance(p, dict):
            raise Damaged(f"players[{i}]")
        _require(
            {
                "number": _is_int,
                "name": lambda v: _text(v, 80, optional=False),
                "joined": _is_int,
                "left": lambda v: v is None or _is_int(v),
                "missed": lambda v: v is None or _is_ints(v),
                "paid": lambda v: v is None or isinstance(v, bool),
            },
            p,
            f"players[{i}].",
        )
    for i, r in enumerate(data["rounds"]):
        if not isinstance(r, dict):
            raise Damaged(f"rounds[{i}]")
        _require({"number": _is_int, "byes": _is_ints, "started_at": is_time}, r, f"rounds[{i}].")
    for i, t in enumerate(data["tables"]):
        if not isinstance(t, dict):
            raise Damaged(f"tables[{i}]")
        _require(
            {
                "round": _is_int,
                "number": _is_int,
                "seats": _is_ints,
                "game": lambda v: v is None or (isinstance(v, str) and uid.fullmatch(v)),
                "accepted": lambda v: v is None or _is_ints(v),
                "accepted_by": lambda v: _text(v, 80),
                "correcting": lambda v: _text(v, 200),
                "table_token": lambda v: v is None or link(v),
                "overtime": lambda v: v is None or isinstance(v, bool),
            },
            t,
            f"tables[{i}].",
        )
    for i, c in enumerate(data["changes"]):
        if not isinstance(c, dict):
            raise Damaged(f"changes[{i}]")
        _require(
            {
                "action": lambda v: v in EVENT_ACTIONS,
                "round": lambda v: v is None or _is_int(v),
                "table": lambda v: v is None or _is_int(v),
                "reason": lambda v: _text(v, 200),
                "at": is_time,
            },
            c,
            f"changes[{i}].",
        )
    # The concours itself, as its event file would be read: every rule at once.
    event = _event_rows(data, {})
    parse_event(file_of(event))
    concours_of(event)
    return data


def check_seasons(data: object, token: re.Pattern[str]) -> list[dict[str, Any]]:
    """The seasons' file, checked season by season (Damaged: which one, which field)."""
    if not isinstance(data, dict) or data.get("format") != SEASONS_FORMAT:
        raise Damaged("format")
    seasons = data.get("seasons")
    if not isinstance(seasons, list):
        raise Damaged("seasons")

    def link(value: object) -> bool:
        return isinstance(value, str) and token.fullmatch(value) is not None

    for i, s in enumerate(seasons):
        if not isinstance(s, dict):
            raise Damaged(f"seasons[{i}]")
        _require(
            {
                "token": link,
                "view_token": link,
                "name": lambda v: isinstance(v, str) and fault(v, 80) is None,
                "rules": lambda v: isinstance(v, dict),
                "language": lambda v: v in LANGUAGES,
                "created_at": is_time,
                "events": lambda v: isinstance(v, list) and all(isinstance(e, str) for e in v),
                "aliases": lambda v: (
                    v is None
                    or (
                        isinstance(v, dict)
                        and all(_text(k, 80, False) and _text(x, 80, False) for k, x in v.items())
                    )
                ),
            },
            s,
            f"seasons[{i}].",
        )
        try:
            parse_rules(s["rules"])
        except RulesError:
            raise Damaged(f"seasons[{i}].rules") from None
    return seasons


# --- restore --------------------------------------------------------------------------


def _event_rows(data: dict[str, Any], games: dict[str, int]) -> Event:
    """The concours's rows from its checked file (not yet in the session)."""
    draw = data["draw"]
    event = Event(
        uid=data["uid"],
        token=data["token"],
        play_token=data["play_token"],
        view_token=data["view_token"],
        name=data.get("name"),
        game=data.get("game"),
        rules=dict(data.get("rules") or {}),
        format=draw.get("format"),
        table_size=draw.get("table_size"),
        seed=draw.get("seed"),
        rounds_planned=data.get("rounds_planned"),
        length_deals=data.get("length_deals"),
        length_minutes=data.get("length_minutes"),
        entry_fee=data.get("entry_fee"),
        currency=data.get("currency"),
        ranking=dict(data.get("ranking") or {}),
        prizes=data.get("prizes"),
        language=data.get("language") or "fr",
        place=data.get("place"),
        played_on=None if data["played_on"] is None else date.fromisoformat(data["played_on"]),
        version=data["version"],
        created_at=datetime.fromisoformat(data["created_at"]),
        time_zone=data.get("time_zone") or default_zone(data.get("language") or "fr"),
        self_accept=bool(data.get("self_accept")),
        screen=data.get("screen"),
    )
    event.players = [
        EventPlayer(
            number=p["number"],
            name=p["name"],
            joined=p["joined"],
            left=p["left"],
            missed=list(p.get("missed") or []),
            paid=bool(p.get("paid")),
        )
        for p in data["players"]
    ]
    event.rounds = [
        EventRound(
            number=r["number"],
            byes=list(r["byes"]),
            started_at=datetime.fromisoformat(r["started_at"]),
        )
        for r in data["rounds"]
    ]
    event.tables = [
        EventTable(
            round=t["round"],
            number=t["number"],
            seats=list(t["seats"]),
            game_id=games.get(t["game"] or ""),
            accepted=None if t["accepted"] is None else list(t["accepted"]),
            accepted_by=t["accepted_by"],
            correcting=t["correcting"],
            table_token=t["table_token"],
            overtime=bool(t.get("overtime")),
        )
        for t in data["tables"]
    ]
    event.changes = [
        EventChange(
            action=c["action"],
            round=c["round"],
            table=c["table"],
            reason=c["reason"],
            before=c.get("before"),
            after=c.get("after"),
            at=datetime.fromisoformat(c["at"]),
        )
        for c in data["changes"]
    ]
    return event


def event_there(data: dict[str, Any]) -> bool:
    """The concours is in the database already: its identity, or one of its links."""
    links = or_(
        Event.uid == data["uid"],
        Event.token == data["token"],
        Event.play_token == data["play_token"],
        Event.view_token == data["view_token"],
    )
    return db.session.scalar(select(Event.id).where(links).limit(1)) is not None


def missing_games(data: dict[str, Any]) -> list[str]:
    """The games the concours's tables name that the database does not hold."""
    wanted = {t["game"] for t in data["tables"] if t["game"]}
    if not wanted:
        return []
    found = set(db.session.scalars(select(Game.uid).where(Game.uid.in_(wanted))))
    return sorted(wanted - found)


def insert_event(data: dict[str, Any]) -> None:
    """Put the checked concours back, every link and time as it was (committed)."""
    wanted = [t["game"] for t in data["tables"] if t["game"]]
    rows = db.session.execute(select(Game.uid, Game.id).where(Game.uid.in_(wanted)))
    games = {str(uid): int(id) for uid, id in rows}
    db.session.add(_event_rows(data, games))
    db.session.commit()


def season_there(data: dict[str, Any]) -> bool:
    links = or_(Season.token == data["token"], Season.view_token == data["view_token"])
    return db.session.scalar(select(Season.id).where(links).limit(1)) is not None


def insert_season(data: dict[str, Any]) -> list[str]:
    """Put the checked season back with those of its concours the database holds
    (committed); the identities of those it does not."""
    uids = list(dict.fromkeys(data["events"]))
    rows = db.session.execute(select(Event.uid, Event.id).where(Event.uid.in_(uids)))
    found = {str(uid): int(id) for uid, id in rows}
    season = Season(
        token=data["token"],
        view_token=data["view_token"],
        name=data["name"],
        rules=dict(data["rules"]),
        language=data["language"],
        created_at=datetime.fromisoformat(data["created_at"]),
        aliases=data.get("aliases"),
    )
    season.events = [
        SeasonEvent(event_id=found[u], position=i)
        for i, u in enumerate(u for u in uids if u in found)
    ]
    db.session.add(season)
    db.session.commit()
    return [u for u in uids if u not in found]
