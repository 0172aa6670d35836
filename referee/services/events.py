"""A club's concours, stored and run: check-in, rounds drawn, each table's game,
results accepted and corrected, the ranking, the event file.

The rules are `referee.events` (pure): this module turns the rows into a
`Concours` and back. What is stored is what people decided (who came and left,
the seating drawn, the totals an opponent accepted, the director's corrections and
their reasons); the ranking is derived every time.

A table's game is an ordinary game (`services.games`): its phone plays it with
the usual loop. Accepting its result stores the totals accepted and gives the game
a new editors' link, which only the director's page shows: the table's phones can
no longer change it, the director can (with a reason, kept in the history).
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import re
import secrets
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError

import referee.services.games as game_service
from referee.engine.errors import RulesError, problem
from referee.engine.explain import MINUS
from referee.engine.names import clean
from referee.engine.records import score_record
from referee.events import eventfile
from referee.events.concours import (
    Concours,
    Impact,
    Line,
    Played,
    Player,
    Table,
    draw_next,
    impact,
    rank,
)
from referee.events.draw import MAX_PLAYERS, MAX_ROUNDS, Format
from referee.events.eventfile import (
    EventRecord,
    Length,
    concours_facts,
    default_zone,
    parse_event,
    player_json,
)
from referee.events.prizes import Pot, Prizes, by_place, pot_of, share_out
from referee.events.prizes import as_json as prizes_json
from referee.events.prizes import parse as parse_prizes
from referee.extensions import db
from referee.models import (
    EVENT_ACTIONS,
    Change,
    Deal,
    Event,
    EventChange,
    EventPlayer,
    EventRound,
    EventTable,
    Game,
    utcnow,
)
from referee.services.games import StaleVersion, _commit_or_stale

#: Who accepted a result the director entered (`EventTable.accepted_by`).
DIRECTOR = "@director"
#: Minutes before the end of a timed round when every screen warns.
PRE_ALARM = 5


def find(token: str) -> Event | None:
    return db.session.scalar(select(Event).where(Event.token == token))


def events_of(tokens: list[str]) -> list[Event]:
    """The events of these directors' tokens, in their order (a phone's list)."""
    if not tokens:
        return []
    found = {e.token: e for e in db.session.scalars(select(Event).where(Event.token.in_(tokens)))}
    return [found[t] for t in tokens if t in found]


def find_view(view_token: str) -> Event | None:
    return db.session.scalar(select(Event).where(Event.view_token == view_token))


def table_of_link(token: str) -> tuple[Event, EventTable] | None:
    """The concours table whose phones played with this game link, before its
    result was accepted (the link then gave way: only the director changes it)."""
    return _with_event(select(EventTable).where(EventTable.table_token == token))


def table_of_game(game_id: int) -> tuple[Event, EventTable] | None:
    """The concours table that plays this game, with its event (None: a game of
    its own, the usual case)."""
    return _with_event(select(EventTable).where(EventTable.game_id == game_id))


def _with_event(query: Any) -> tuple[Event, EventTable] | None:
    """The table `query` finds, with its event."""
    table = db.session.scalar(query)
    event = None if table is None else db.session.get(Event, table.event_id)
    return None if event is None or table is None else (event, table)


def round_full(game_id: int, deals: int) -> tuple[Event, EventTable] | None:
    """The concours table whose game this is, when its round's deals are all in
    (`deals` played): no more may be entered (the round counts its first
    `length_deals`; the table goes to its card, where the result is accepted)."""
    found = table_of_game(game_id)
    if found is None:
        return None
    event, table = found
    length = event.length_deals
    return found if length is not None and deals >= length and not table.correcting else None


#: Why a concours table's game takes no more deals (`closed`).
FULL = "full"
BELL = "bell"


def closed(game_id: int, deals: int) -> tuple[Event, EventTable, str] | None:
    """The concours table whose game this is, when it may take no more deals, and
    why: its round's `deals` are all in (FULL), or its timed round's time is up
    and the deal in play at the bell is in (BELL: the rule "when time is up, the
    deal in play is the last"), unless the director let the table play on. A
    correction under way takes what the director enters."""
    found = table_of_game(game_id)
    if found is None:
        return None
    event, table = found
    if table.correcting or table.round != len(event.rounds):
        return None
    if event.length_deals is not None:
        return (event, table, FULL) if deals >= event.length_deals else None
    end = ends_at(event)
    if end is None or utcnow() < end or table.overtime:
        return None
    return (event, table, BELL) if deals_after(table, end) >= 1 else None


def deals_after(table: EventTable, moment: datetime.datetime) -> int:
    """The deals of the table's game recorded after `moment` (the bell)."""
    if table.game_id is None:
        return 0
    found = db.session.scalar(
        select(func.count(Deal.id)).where(Deal.game_id == table.game_id, Deal.created_at >= moment)
    )
    return int(found or 0)


def table_key(event: Event, number: int) -> str:
    """Table `number`'s own secret, printed in its card's QR code (the same all
    event): with it a phone enters the table's deals and accepts its result; the
    tables' public link alone only reads. Derived from the director's link, so
    nothing is stored and nobody without that link can make one."""
    digest = hmac.new(event.token.encode(), f"table:{number}".encode(), hashlib.sha256)
    return digest.hexdigest()[:16]


def key_fits(event: Event, number: int, key: object) -> bool:
    """Whether `key` is table `number`'s code (anything else sent: no)."""
    return isinstance(key, str) and _same(key, table_key(event, number))


def _same(given: str, expected: str) -> bool:
    """A secret compared in constant time, whatever was typed (accents, emoji: the
    comparison of two texts takes ASCII only)."""
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode())


def director_pin(event: Event) -> str:
    """The director's PIN (four digits, on the director's page only): typed at a
    table's phone, it allows what is out of place there (the phone that entered
    the deals accepting them)."""
    digest = hmac.new(event.token.encode(), b"pin", hashlib.sha256).digest()
    return f"{int.from_bytes(digest[:4], 'big') % 10000:04d}"


#: Wrong PINs a concours takes in `PIN_WINDOW` seconds before it takes none for the
#: rest of the window: four digits are 10,000 guesses, not a few dozen.
PIN_TRIES, PIN_WINDOW = 5, 600
_WRONG_PINS: dict[str, list[float]] = {}


class PinLocked(Exception):
    """Too many wrong PINs for this concours lately: none is checked for a while."""

    def __init__(self, minutes: int) -> None:
        super().__init__(minutes)
        self.minutes = minutes


def pin_fits(event: Event, pin: str | None) -> bool:
    """Whether `pin` is the director's PIN. A wrong one is counted: past
    `PIN_TRIES` in `PIN_WINDOW` seconds, PinLocked (in this worker; a server of
    several workers lets each count its own, a few dozen guesses at most)."""
    if not pin or not str(pin).strip():
        return False
    now = time.monotonic()
    tries = [t for t in _WRONG_PINS.get(event.uid, []) if now - t < PIN_WINDOW]
    if len(tries) >= PIN_TRIES:
        raise PinLocked(max(1, round((PIN_WINDOW - (now - tries[0])) / 60)))
    if _same(str(pin).strip(), director_pin(event)):
        return True
    _WRONG_PINS[event.uid] = [*tries, now]
    if len(_WRONG_PINS) > 10_000:  # forgotten, oldest first: never a growing store
        _WRONG_PINS.pop(next(iter(_WRONG_PINS)))
    raise RulesError([problem("event_pin_wrong", "pin")])


def entered_by(table: EventTable, phone: str | None) -> bool:
    """Whether the phone `phone` recorded a deal of the table's game."""
    if phone is None or table.game_id is None:
        return False
    found = db.session.scalar(
        select(Change.id)
        .where(Change.game_id == table.game_id, Change.action == "add", Change.phone == phone)
        .limit(1)
    )
    return found is not None


def card_of(play_token: str, number: int) -> tuple[Event, EventTable] | None:
    """A table's card: the event with its players and rounds, and table `number`
    of the round in play with its game and deals, and nothing else (100 tables
    read their cards at the end of a round: not the whole event each). A number
    no table can have is none (an address typed by hand: never a database error)."""
    if not 1 <= number <= MAX_PLAYERS:
        return None
    event = db.session.scalar(
        select(Event)
        .where(Event.play_token == play_token)
        .options(selectinload(Event.players), selectinload(Event.rounds))
    )
    if event is None:
        return None
    table = db.session.scalar(
        select(EventTable)
        .where(
            EventTable.event_id == event.id,
            EventTable.round == len(event.rounds),
            EventTable.number == number,
        )
        .options(selectinload(EventTable.game_row).selectinload(Game.deals))
    )
    return None if table is None else (event, table)


def find_play(play_token: str) -> Event | None:
    return db.session.scalar(select(Event).where(Event.play_token == play_token))


def version_of(view_token: str) -> int | None:
    return db.session.scalar(select(Event.version).where(Event.view_token == view_token))


def _bump(event: Event) -> None:
    event.version += 1


def _check_version(event: Event, version: int | None) -> None:
    if version is not None and version != event.version:
        raise StaleVersion()


def _file_of(
    event: Event,
    *,
    games: bool = False,
    players: list[Any] | None = None,
    head_only: bool = False,
) -> dict[str, Any]:
    """The event as its file's JSON data (`referee-event/1`), from its rows."""
    out: dict[str, Any] = {
        "format": eventfile.FORMAT,
        "name": event.name,
        "game": event.game,
        "rules": dict(event.rules or {}),
        "draw": {"format": event.format, "table_size": event.table_size, "seed": event.seed},
        "rounds_planned": event.rounds_planned,
        "length": {"deals": event.length_deals}
        if event.length_deals
        else {"minutes": event.length_minutes},
        "currency": event.currency,
        "ranking": dict(event.ranking or {}),
        "players": players if players is not None else [_player_json(p) for p in event.players],
        "time_zone": event.time_zone or default_zone(event.language or "fr"),
    }
    if event.entry_fee:
        out["entry_fee"] = event.entry_fee
    if event.prizes:
        out["prizes"] = dict(event.prizes)
    out["language"] = event.language or "fr"
    if event.place:
        out["place"] = event.place
    if event.played_on:
        out["date"] = event.played_on.isoformat()
    if head_only:
        return out
    rounds = []
    for played in event.rounds:
        tables = []
        for table in event.tables:
            if table.round != played.number:
                continue
            item: dict[str, Any] = {"table": table.number, "seats": list(table.seats)}
            if table.accepted is not None:
                item["scores"] = list(table.accepted)
                item["accepted"] = True
                if games and table.game_row is not None:
                    record = game_service.export(table.game_row)
                    if _scores_at(table, event) == list(table.accepted):
                        item["game"] = _cut(record, event.length_deals)
            elif games and table.game_row is not None and table.game_row.deals:
                # A table still playing: its game as it stands, its result not accepted
                # (imported, the round goes on where it stopped).
                item["game"] = _cut(game_service.export(table.game_row), event.length_deals)
                item["accepted"] = False
            tables.append(item)
        rounds.append(
            {
                "number": played.number,
                "tables": tables,
                "byes": list(played.byes),
                "started": played.started_at.isoformat(timespec="seconds"),
            }
        )
    out["rounds"] = rounds
    # A correction, as the director applied it: its reason, the totals before and after.
    out["history"] = [
        {k: v for k, v in _logged(c).items() if k != "action"}
        for c in event.changes
        if c.action in ("apply", "corrected") and c.reason
    ]
    # The whole log, each line with its time: an import keeps it as it was.
    out["log"] = [_logged(c) for c in event.changes]
    return out


def _logged(change: EventChange) -> dict[str, Any]:
    """A line of the event's history as its file writes it."""
    return {
        "action": change.action,
        "round": change.round,
        "table": change.table,
        "reason": change.reason,
        "before": change.before,
        "after": change.after,
        "at": change.at.isoformat(timespec="seconds"),
    }


def _player_json(p: EventPlayer) -> dict[str, Any]:
    """A player row as the event file writes it."""
    return player_json(
        Player(p.number, p.name, p.joined, p.left, tuple(p.missed or ()), bool(p.paid))
    )


def file_of(event: Event) -> dict[str, Any]:
    """The event as its file's JSON data, without its tables' games (what its rules,
    players, seatings and results are: a backup's concours is checked so)."""
    return _file_of(event)


def _cut(record: dict[str, Any], deals: int | None) -> dict[str, Any]:
    """A table's game as the round played it: its first `deals` deals."""
    if deals is None:
        return record
    return {**record, "deals": record["deals"][:deals]}


def concours_of(event: Event) -> Concours:
    """The event as the rules see it (accepted results only rank)."""
    lowest, sides = concours_facts(event.game, event.rules or {}, event.table_size)
    players = tuple(
        Player(p.number, p.name, p.joined, p.left, tuple(p.missed or ()), bool(p.paid))
        for p in event.players
    )
    played = []
    for r in event.rounds:
        tables = tuple(
            Table(
                t.number,
                tuple(t.seats),
                None if t.accepted is None else tuple(t.accepted),
                t.accepted is not None,
            )
            for t in event.tables
            if t.round == r.number
        )
        played.append(Played(r.number, tables, tuple(r.byes)))
    # The rules as the file states them (the players and rounds are the rows').
    record = parse_event(_file_of(event, players=[], head_only=True))
    return replace(
        record.concours,
        players=players,
        played=tuple(played),
        lowest_wins=lowest,
        sides=tuple(sides),
    )


def ranking(event: Event) -> tuple[Line, ...]:
    return rank(concours_of(event))


@dataclass(frozen=True)
class Setup:
    """What a new concours is made of, as the director's form gives it."""

    name: str
    game: str
    format: str
    table_size: int
    rounds: int
    deals: int | None
    minutes: int | None
    ranking: Mapping[str, Any]
    players: list[str]
    entry_fee: str | None = None
    currency: str = "EUR"
    place: str | None = None
    rules: Mapping[str, Any] | None = None
    #: The prize rule, as the event file writes it (`referee.events.prizes`).
    prizes: Mapping[str, Any] | None = None
    language: str = "fr"
    #: The day of the concours, as "YYYY-MM-DD" (the file's `date`).
    played_on: str | None = None
    #: The club's time zone (None: the language's, `default_zone`).
    time_zone: str | None = None


#: What a pasted list puts before a name: a number and its punctuation ("3.",
#: "3)", "(3)", "#3", "3/", "3 -"), or a bullet.
_NUMBERING = re.compile(r"^\s*(?:[-*•·]+|\(?#?\d+\s*[.)/:-]?\)?)\s*(?=\S)")


def names_from(text: str) -> list[str]:
    """Names typed or pasted: one a line (or separated by semicolons or commas);
    what a list puts before a name (numbering, bullets) left out; a spreadsheet's
    columns (tabs) joined, a column of numbers left out; blanks skipped."""
    found = []
    for line in text.replace(";", "\n").replace(",", "\n").splitlines():
        cells = [c.strip() for c in line.split("\t")]
        cells = [c for c in cells if c and not c.rstrip(".)").lstrip("(#").isdigit()]
        name = " ".join(cells)
        name = _NUMBERING.sub("", name) if _NUMBERING.match(name) else name
        name = name.strip()
        if any(c.isalnum() for c in name):  # a line of dashes or stars is no one
            found.append(clean(name))
    return found


def create(setup: Setup) -> Event:
    """A new concours, its rules checked as its file would be (RulesError)."""
    data: dict[str, Any] = {
        "format": eventfile.FORMAT,
        "name": setup.name,
        "game": setup.game,
        "rules": dict(setup.rules or {}),
        "draw": {
            "format": setup.format,
            "table_size": setup.table_size,
            "seed": secrets.randbelow(10**9),
        },
        "rounds_planned": setup.rounds,
        "length": {"deals": setup.deals} if setup.deals is not None else {"minutes": setup.minutes},
        "ranking": dict(setup.ranking),
        "currency": setup.currency,
        "language": setup.language,
        "players": [{"number": i, "name": n} for i, n in enumerate(setup.players, 1)],
    }
    if setup.prizes is not None:
        data["prizes"] = dict(setup.prizes)
    if setup.entry_fee:
        data["entry_fee"] = setup.entry_fee
    if setup.place:
        data["place"] = setup.place
    if setup.played_on:
        data["date"] = setup.played_on
    if setup.time_zone:
        data["time_zone"] = setup.time_zone
    record = parse_event(data)
    event = _event_from(record)
    db.session.add(event)
    db.session.flush()
    db.session.add(EventChange(event_id=event.id, action="create", after=data["players"]))
    db.session.commit()
    return event


def _event_from(record: EventRecord) -> Event:
    c = record.concours
    ranking: dict[str, Any] = {
        "rule": c.ranking.rule.value,
        "tie_breaks": [t.value for t in c.ranking.tie_breaks],
        "bye": c.ranking.bye,
        "late": c.ranking.late.value,
    }
    if c.ranking.places:
        ranking["places"] = list(c.ranking.places)
    event = Event(
        name=record.name,
        game=c.game,
        rules=dict(record.rules),
        format=c.format.value,
        table_size=c.table_size,
        seed=c.seed,
        rounds_planned=c.rounds,
        length_deals=record.length.deals,
        length_minutes=record.length.minutes,
        entry_fee=None if record.entry_fee is None else f"{record.entry_fee:.2f}",
        currency=record.currency,
        ranking=ranking,
        place=record.place,
        played_on=record.date,
        prizes=None if record.prizes is None else prizes_json(record.prizes),
        language=record.language,
        time_zone=record.time_zone,
        version=0,
    )
    event.players = [
        EventPlayer(
            number=p.number,
            name=p.name,
            joined=p.joined,
            left=p.left,
            missed=list(p.missed),
            paid=p.paid,
        )
        for p in c.players
    ]
    return event


def _next_round(event: Event) -> int:
    return len(event.rounds) + 1


def check_in(event: Event, text: str, version: int | None = None) -> list[str]:
    """Add the players named in `text` (typed, or a pasted list): before the first
    round they play from round 1, later from the next round (late arrivals). The
    names already there are refused, every problem at once."""
    _check_version(event, version)
    names = names_from(text)
    if not names:
        raise RulesError([problem("missing", "players")])
    taken = {p.name.casefold() for p in event.players}
    problems = []
    for name in names:
        if name.casefold() in taken:
            problems.append(problem("event_twice", "name", value=name))
        taken.add(name.casefold())
    if len(event.players) + len(names) > MAX_PLAYERS:
        problems.append(
            problem(
                "event_too_many", "players", count=len(event.players) + len(names), high=MAX_PLAYERS
            )
        )
    players = [_player_json(p) for p in event.players]
    joined = _next_round(event)
    for i, name in enumerate(names, len(players) + 1):
        players.append({"number": i, "name": name, "joined": joined, "left": None})
    try:  # each name's own checks (length, characters), the event file's
        parse_event(_file_of(event, players=players, head_only=True))
    except RulesError as error:  # with the above, every problem at once
        said = {p.code for p in problems}
        problems += [p for p in error.problems if p.code not in said]
    if problems:
        raise RulesError(problems)
    for p in players[len(event.players) :]:
        event.players.append(EventPlayer(number=p["number"], name=p["name"], joined=joined))
    _log(event, "check-in", after=names, round=joined)
    return names


def _player(event: Event, number: int) -> EventPlayer:
    player = next((p for p in event.players if p.number == number), None)
    if player is None:
        raise LookupError(number)
    return player


def withdraw(event: Event, number: int, version: int | None = None) -> None:
    """The player leaves after the last round drawn (before the first: they never
    played, and leave the pot unless marked paid, but keep their number)."""
    _check_version(event, version)
    player = _player(event, number)
    if player.left is not None:
        raise LookupError(number)
    player.left = max(len(event.rounds), player.joined - 1)
    _log(event, "withdraw", after=player.name, round=len(event.rounds))


def come_back(event: Event, number: int, version: int | None = None) -> list[int]:
    """Undo a withdrawal: the player is in again from the next round, as a late
    arrival; the rounds drawn meanwhile are missed (scored as the concours states
    for late arrivals). The rounds missed are returned."""
    _check_version(event, version)
    player = _player(event, number)
    if player.left is None:
        raise LookupError(number)
    start = max(player.left + 1, player.joined)
    away = [r for r in range(start, len(event.rounds) + 1)]
    player.missed = sorted({*(player.missed or ()), *away})
    player.left = None
    _log(event, "come-back", after=player.name, round=len(event.rounds))
    return away


def _renumber(event: Event, players: list[dict[str, Any]]) -> None:
    """Write the list `players` over the event's rows, numbered 1, 2, … (before the
    first round, when a number is only the order of the list)."""
    for i, p in enumerate(players, 1):
        p["number"] = i
    parse_event(_file_of(event, players=players, head_only=True))  # RulesError
    rows = sorted(event.players, key=lambda r: r.number)
    # Numbers are unique per event: free them first, then write the new ones.
    for row in rows:
        row.number = -row.number
    db.session.flush()
    while len(rows) > len(players):
        gone = rows.pop()
        event.players.remove(gone)
    for row, p in zip(rows, players, strict=False):  # every field: a row is another's now
        row.number, row.name, row.paid = p["number"], p["name"], bool(p.get("paid"))
        row.joined, row.left = p.get("joined", 1), p.get("left")
        row.missed = list(p.get("missed", []))
    for p in players[len(rows) :]:
        event.players.append(
            EventPlayer(
                number=p["number"],
                name=p["name"],
                joined=p.get("joined", 1),
                left=p.get("left"),
                missed=list(p.get("missed", [])),
                paid=bool(p.get("paid")),
            )
        )


def remove_player(event: Event, number: int, version: int | None = None) -> str:
    """Take a player off the list before the first round (a name typed by mistake,
    someone who went home): the next ones move up a number, the pot loses a fee.
    In fixed pairs the pair goes (players 2k−1 and 2k play together: one alone would
    make the next ones partners of others). Once a round is drawn, a player who
    leaves withdraws (their rounds stay). The name(s) taken off are returned."""
    _check_version(event, version)
    if event.rounds:
        raise RulesError([problem("event_player_drawn", "players")])
    player = _player(event, number)
    numbers = {number}
    if event.format == Format.PAIRS.value:
        first = number if number % 2 == 1 else number - 1
        numbers = {n for n in (first, first + 1) if any(p.number == n for p in event.players)}
    gone = [
        {"name": p.name, "paid": bool(p.paid)}
        for p in sorted(event.players, key=lambda p: p.number)
        if p.number in numbers
    ]
    said = " & ".join(str(g["name"]) for g in gone)
    players = [_player_json(p) for p in event.players if p.number not in numbers]
    with _whole():
        _renumber(event, players)  # the rows move up: `player` is another's now
        _log(
            event,
            "remove",
            before={"number": min(numbers), "name": said, "players": gone},
        )
    del player
    return said


def put_back(event: Event, change_id: int, version: int | None = None) -> str:
    """Undo a removal (`remove_player`): the player (the pair) is back at their
    number, before the first round, unless a name was checked in again meanwhile."""
    _check_version(event, version)
    change = next((c for c in event.changes if c.id == change_id), None)
    if change is None or change.action != "remove" or not isinstance(change.before, dict):
        raise LookupError(change_id)
    if event.rounds:
        raise RulesError([problem("event_player_drawn", "players")])
    back = change.before.get("players") or [
        {"name": change.before.get("name", ""), "paid": change.before.get("paid")}
    ]
    taken = {p.name.casefold() for p in event.players}
    for one in back:
        if str(one.get("name", "")).casefold() in taken:
            raise RulesError([problem("event_twice", "name", value=one.get("name"))])
    players = [_player_json(p) for p in event.players]
    at = min(max(int(change.before.get("number", 1)) - 1, 0), len(players))
    players[at:at] = [
        {"name": str(one.get("name", "")), "joined": 1, "paid": bool(one.get("paid"))}
        for one in back
    ]
    said = " & ".join(str(one.get("name", "")) for one in back)
    with _whole():
        _renumber(event, players)
        change.action = "removed"  # undone: not offered again
        _log(event, "put-back", after=said)
    return said


def rename_player(event: Event, number: int, name: str, version: int | None = None) -> bool:
    """Give a checked-in player another name (a typo): the ranking, the prints and the
    season follow, and so do the games of the round in play. False when the name is
    the same; refused like a name checked in (too long, another player's)."""
    _check_version(event, version)
    player = _player(event, number)
    new = clean(name)
    if new == player.name:
        return False
    players = [_player_json(p) for p in event.players]
    for p in players:
        if p["number"] == number:
            p["name"] = new
    try:
        parse_event(_file_of(event, players=players, head_only=True))
    except RulesError as error:  # said of the name, whichever player the file blames
        raise RulesError([replace(p, field="name") for p in error.problems]) from None
    before = player.name
    with _whole():
        player.name = new
        for table in event.tables:
            game = table.game_row
            if table.round == len(event.rounds) and game is not None and number in table.seats:
                game_service.rename_seat(game, table.seats.index(number), new)
        _log(event, "rename", before=before, after=new)
    return True


def set_paid(event: Event, number: int, paid: bool, version: int | None = None) -> None:
    """The director marks a player's entry fee paid (or not): a player who paid
    counts in the pot even if they never play."""
    _check_version(event, version)
    player = _player(event, number)
    if bool(player.paid) == paid:
        return
    player.paid = paid
    _log(event, "paid", after=paid)


def set_rounds(event: Event, rounds: int, version: int | None = None) -> None:
    """Shorten or lengthen the event between rounds (never below the rounds drawn)."""
    _check_version(event, version)
    low = max(1, len(event.rounds))
    if not low <= rounds <= MAX_ROUNDS:
        raise RulesError(
            [
                problem(
                    "out_of_range",
                    "rounds_planned",
                    value=rounds,
                    low=low,
                    high=MAX_ROUNDS,
                )
            ]
        )
    before = event.rounds_planned
    event.rounds_planned = rounds
    _log(event, "rounds", before=before, after=rounds)


def set_prizes(
    event: Event,
    entry_fee: str | None,
    prizes: Mapping[str, Any] | None,
    version: int | None = None,
) -> None:
    """State the entry fee and the prize rule, or change them, before the first
    round: once a round is drawn they are the rules everyone played under."""
    _check_version(event, version)
    if event.rounds:
        raise RulesError([problem("event_prizes_drawn", "prizes")])
    head = _file_of(event, head_only=True)
    head.pop("entry_fee", None)
    head.pop("prizes", None)
    if entry_fee:
        head["entry_fee"] = entry_fee
    if prizes is not None:
        head["prizes"] = dict(prizes)
    record = parse_event(head)  # refused as the event file would be
    before = {"entry_fee": event.entry_fee, "prizes": event.prizes}
    event.entry_fee = None if record.entry_fee is None else f"{record.entry_fee:.2f}"
    event.prizes = None if record.prizes is None else prizes_json(record.prizes)
    _log(
        event, "prizes", before=before, after={"entry_fee": event.entry_fee, "prizes": event.prizes}
    )


def _log(event: Event, action: str, **fields: Any) -> None:
    _bump(event)
    db.session.add(EventChange(event_id=event.id, action=action, **fields))
    _commit_or_stale()


def draw_round(event: Event, version: int | None = None) -> EventRound:
    """Draw the next round and open a game at each of its tables. Refused while a
    table of the round in play has no accepted result, or when every round is drawn."""
    _check_version(event, version)
    number = _next_round(event)
    if number > event.rounds_planned:
        raise RulesError([problem("event_over", None, high=event.rounds_planned)])
    open_tables = [t for t in event.tables if t.round == number - 1 and t.accepted is None]
    if open_tables:
        raise RulesError(
            [problem("event_round_open", None, round=number - 1, count=len(open_tables))]
        )
    concours = concours_of(event)
    seating = draw_next(concours)
    names = {p.number: p.name for p in event.players}
    # One write: the round, every table and every table's game, or nothing (a server
    # killed in the middle, or a table's game refused, leaves no half-drawn round).
    with _whole():
        played = EventRound(event_id=event.id, number=number, byes=list(seating.byes))
        event.rounds.append(played)
        for i, seats in enumerate(seating.tables, 1):
            game = _open_game(event, [names[s] for s in seats])
            event.tables.append(
                EventTable(
                    event_id=event.id, round=number, number=i, seats=list(seats), game_id=game.id
                )
            )
        _log(event, "draw", round=number, after=[list(t) for t in seating.tables])
    return played


@contextmanager
def _whole() -> Iterator[None]:
    """A director's action of several rows, committed once by its last step (`_log`):
    whatever fails before (a refusal, a lost race, a database error) leaves nothing
    of it in the session, so that nothing of it is ever committed."""
    try:
        yield
    except (StaleDataError, IntegrityError):
        # Another phone's write came first (two draws of one round, an acceptance
        # racing a correction): said as a stale version, the action's to try again.
        db.session.rollback()
        raise StaleVersion() from None
    except BaseException:
        db.session.rollback()
        raise


def _open_game(event: Event, players: list[str]) -> Game:
    """A table's game for its round: the event's game and rules, its players in seat
    order; written with the action that opens it (committed by its caller)."""
    return game_service.create(
        game_service.Settings(
            game=event.game,
            players=players,
            first_dealer=0,
            rules=dict(event.rules or {}),
            stake=None,
            currency=event.currency,
            place=event.place,
        ),
        commit=False,
    )


def table_of(event: Event, number: int, round: int | None = None) -> EventTable | None:
    """Table `number` of round `round` (default: the latest round)."""
    round = round or len(event.rounds)
    return next((t for t in event.tables if t.round == round and t.number == number), None)


def _scores_at(
    table: EventTable, event: Event, scored: game_service.Scored | None = None
) -> list[int] | None:
    """The table's totals as the round counts them: after its first `length_deals`
    deals (a round of deals), or all of them (a timed round). `scored`: the game
    as scored already, if the caller has it."""
    game = table.game_row
    if game is None:
        return None
    scored = scored or game_service.scored(game)
    deals = event.length_deals
    if deals is None or len(scored.standings.deals) <= deals:
        return list(scored.standings.scores)
    record = replace(scored.record, deals=scored.record.deals[:deals])
    return list(score_record(record).scores)


@dataclass(frozen=True)
class Status:
    """Where a table stands in its round."""

    deals: int
    scores: list[int]
    ready: bool
    accepted: bool
    #: Seconds left in a timed round (None: a round of deals), never below 0.
    left: int | None
    #: A timed round's time is up, and the deal in play at the bell is not in yet
    #: (or there was none: the table says so when it accepts).
    in_play: bool = False
    #: The director let the table play on after the bell.
    overtime: bool = False


def ends_at(event: Event) -> datetime.datetime | None:
    """When the round in play ends (a timed round), by the server's clock (UTC)."""
    if not event.rounds or not event.length_minutes:
        return None
    return event.rounds[-1].started_at + datetime.timedelta(minutes=event.length_minutes)


def status(event: Event, table: EventTable) -> Status:
    game = table.game_row
    deals = len(game.deals) if game is not None else 0
    scored = game_service.scored(game) if game is not None else None  # once, for both
    scores = _scores_at(table, event, scored) or [0] * len(table.seats)
    finished = bool(scored is not None and scored.standings.finished)
    end = ends_at(event)
    left = None if end is None else max(0, int((end - utcnow()).total_seconds()))
    in_play = False
    if event.length_deals:
        ready = deals >= event.length_deals or finished
    elif left == 0 and end is not None and not finished:
        # "When time is up, the deal in play is the last": over once it is in. A table
        # the director lets play on accepts when it stops.
        last_in = deals_after(table, end) >= 1
        ready = deals >= 1 and (last_in or table.overtime)
        in_play = not last_in and not table.overtime
    else:
        ready = finished
    if table.accepted is not None:  # what counts, even while a correction is under way
        scores = list(table.accepted)
    return Status(deals, scores, ready, table.accepted is not None, left, in_play, table.overtime)


def accept(
    event: Event,
    table: EventTable,
    who: str | None,
    version: int | None = None,
    *,
    phone: str | None = None,
    pin: str | None = None,
    none_in_play: bool = False,
    reason: str | None = None,
) -> None:
    """An opponent (`who`, a player of the table; None: the director, saying why in
    `reason`) accepts the table's result: its totals are kept and the table's
    phones lose the game's editors' link (the director alone may change it now).
    Not held to the event's `version`: tables finishing together accept each
    their own result.

    A table's acceptance is the opponents' check (the Bridgemate rule): the phone
    `phone` that entered deals at the table accepts only with the director's
    `pin`, or where the director lets one phone serve a table (`self_accept`).
    After the bell of a timed round, the deal in play is entered first, unless the
    table says none was (`none_in_play`). The history keeps from which phone.

    Once only, whatever the phones racing to do it: the result is claimed by one
    conditional update (the others find it taken: LookupError), and the event's
    version counts up in the database, not from what this request read."""
    del version
    if table.round != len(event.rounds) or table.accepted is not None:
        raise LookupError(table.number)
    state = status(event, table)
    came: dict[str, Any] | None = None
    if who is None:
        reason = " ".join((reason or "").split())
        if not reason or len(reason) > eventfile.MAX_REASON:
            raise RulesError([problem("missing", "reason")])
    else:
        seated = {p.number: p.name for p in event.players}
        if who not in {seated[s] for s in table.seats}:
            raise RulesError([problem("seat_missing", "who")])
        if not state.ready and not (none_in_play and state.in_play and state.deals >= 1):
            if state.in_play:
                raise RulesError([problem("event_deal_in_play", None)])
            raise RulesError([problem("event_not_over", None, deals=event.length_deals or 0)])
        entered = entered_by(table, phone)
        allowed = False
        if entered and not event.self_accept:
            allowed = pin_fits(event, pin)
            if not allowed:
                raise RulesError([problem("event_accept_own", "pin")])
        came = {"phone": (phone or "")[:8], "entered": entered, "pin": allowed}
        reason = who
    game = table.game_row
    # One write: the claim, the game's new link, the history line and the version.
    with _whole():
        _claim(event, table, who, state.scores, game, reason, came)
    db.session.expire(table)


def _claim(
    event: Event,
    table: EventTable,
    who: str | None,
    scores: list[int],
    game: Game | None,
    reason: str | None,
    came: dict[str, Any] | None,
    action: str = "accept",
) -> None:
    """`accept`'s write (and `by_hand`'s: `action`), committed once: the result
    claimed by one conditional update, the game's new link, the history line."""
    claimed = db.session.execute(
        update(EventTable)
        .where(EventTable.id == table.id, EventTable.accepted.is_(None))
        .values(
            accepted=scores,
            accepted_by=who or DIRECTOR,
            table_token=game.token if game is not None else None,
        )
        .execution_options(synchronize_session=False)
    )
    if getattr(claimed, "rowcount", 0) != 1:
        raise LookupError(table.number)  # another phone's: `_whole` rolls back
    if game is not None:
        game_service.rotate(game, "editor", commit=False)
    _log_counted(
        event,
        action,
        round=table.round,
        table=table.number,
        after=scores,
        reason=reason,
        before=came if who is not None else (DIRECTOR if action == "accept" else None),
    )


def let_play_on(event: Event, table: EventTable, on: bool, version: int | None = None) -> None:
    """The director lets a table play on after the bell of a timed round (a deal
    begun before the bell and misdealt, a table that started late), or stops it."""
    _check_version(event, version)
    if table.round != len(event.rounds) or table.accepted is not None:
        raise LookupError(table.number)
    table.overtime = on
    _log(event, "overtime", round=table.round, table=table.number, after=on)


def reopen(event: Event, table: EventTable, reason: str, version: int | None = None) -> Game:
    """The director opens the table's game again (its phone lost the link, or the
    game is gone): a new game of the same players in the same seats, its deals to
    enter again; the old one, if any, stays as it was. With a reason, kept."""
    _check_version(event, version)
    reason = _reason(reason)
    if table.round != len(event.rounds) or table.accepted is not None:
        raise LookupError(table.number)
    names = {p.number: p.name for p in event.players}
    old = table.game_row
    with _whole():
        if old is not None:
            # Its phones' link now leads to the table's card (whose QR code opens
            # the new game), never to a game the round no longer reads.
            table.table_token = old.token
            game_service.rotate(old, "editor", commit=False)
        game = _open_game(event, [names[s] for s in table.seats])
        table.game_id = game.id
        table.overtime = False
        _log(event, "reopen", round=table.round, table=table.number, reason=reason)
    db.session.expire(table)
    return game


def by_hand(
    event: Event, table: EventTable, scores: list[int], reason: str, version: int | None = None
) -> None:
    """The director enters a table's result by hand (its phone lost, its game on
    paper): each seat's total, accepted at once, with a reason kept."""
    _check_version(event, version)
    reason = _reason(reason)
    if table.round != len(event.rounds) or table.accepted is not None:
        raise LookupError(table.number)
    if len(scores) != len(table.seats) or any(abs(x) > eventfile.MAX_SCORE for x in scores):
        raise RulesError(
            [problem("out_of_range", "scores", value=len(scores), low=len(table.seats))]
        )
    with _whole():
        _claim(event, table, None, list(scores), table.game_row, reason, None, "by-hand")
    db.session.expire(table)


#: The TV's slides, in the order it shows them (`Event.screen`).
SLIDES = ("ranking", "tables", "names", "prizes", "results")
#: Seconds a TV slide stays, by default and at the extremes.
SLIDE_SECONDS, SLIDE_LOW, SLIDE_HIGH = 12, 4, 120


def screen_of(event: Event) -> tuple[tuple[str, ...], int]:
    """The slides the TV shows, in turn, and each one's seconds."""
    stated = event.screen or {}
    slides = tuple(s for s in SLIDES if s in (stated.get("slides") or SLIDES)) or SLIDES
    seconds = stated.get("seconds")
    if not isinstance(seconds, int) or not SLIDE_LOW <= seconds <= SLIDE_HIGH:
        seconds = SLIDE_SECONDS
    return slides, seconds


def set_settings(
    event: Event,
    *,
    self_accept: bool,
    slides: list[str],
    seconds: int | None,
    version: int | None = None,
) -> None:
    """The director's settings that may change during the event: whether the phone
    that entered a table's deals may accept them (one phone a table), the TV's
    slides and how long each stays."""
    _check_version(event, version)
    problems = []
    if seconds is not None and not SLIDE_LOW <= seconds <= SLIDE_HIGH:
        problems.append(
            problem("out_of_range", "seconds", value=seconds, low=SLIDE_LOW, high=SLIDE_HIGH)
        )
    chosen = [s for s in SLIDES if s in slides]
    if not chosen:
        problems.append(problem("missing", "slides"))
    if problems:
        raise RulesError(problems)
    event.self_accept = self_accept
    event.screen = {"slides": chosen, "seconds": seconds or SLIDE_SECONDS}
    _log(event, "settings", after={"self_accept": self_accept, **event.screen})


def _reason(text: str | None) -> str:
    """A director's reason, as kept in the history: required, one line, 200 at most."""
    reason = " ".join((text or "").split())
    if not reason or len(reason) > eventfile.MAX_REASON:
        raise RulesError([problem("missing", "reason")])
    return reason


def _log_counted(event: Event, action: str, **fields: Any) -> None:
    """`_log` for what many phones do at once (acceptances): the version counted up
    by the database itself, so that no concurrent one makes this one stale."""
    db.session.execute(
        update(Event)
        .where(Event.id == event.id)
        .values(version=Event.version + 1)
        .execution_options(synchronize_session=False)
    )
    db.session.add(EventChange(event_id=event.id, action=action, **fields))
    _commit_or_stale()
    db.session.expire(event, ["version"])


def correct(event: Event, table: EventTable, reason: str, version: int | None = None) -> None:
    """The director opens an accepted result to change it, saying why; the change
    counts once applied (`apply`), after its consequences are shown (`impact_of`)."""
    _check_version(event, version)
    reason = " ".join(reason.split())
    if table.accepted is None:
        raise LookupError(table.number)
    if not reason or len(reason) > eventfile.MAX_REASON:
        raise RulesError([problem("missing", "reason")])
    table.correcting = reason
    _log(
        event,
        "correct",
        round=table.round,
        table=table.number,
        reason=reason,
        before=table.accepted,
    )


def cancel(event: Event, table: EventTable, version: int | None = None) -> None:
    """The director gives up a correction: the accepted result stays. Only while
    the game still gives that result: a changed game would contradict the result
    it is meant to explain (apply the change, or put the deals back first)."""
    _check_version(event, version)
    now = pending(event, table)
    if now is None:
        raise LookupError(table.number)
    if table.accepted is not None and now != list(table.accepted):
        names = {p.number: p.name for p in event.players}
        shown = " · ".join(
            f"{names.get(seat, seat)} {str(total).replace('-', MINUS)}"
            for seat, total in zip(table.seats, table.accepted, strict=False)
        )
        raise RulesError([problem("correction_changed", None, value=shown)])
    reason = table.correcting
    with _whole():  # one write: the table, its game's new link, the history line
        table.correcting = None
        if table.game_row is not None:
            game_service.rotate(table.game_row, "editor", commit=False)
        _log(event, "cancel", round=table.round, table=table.number, reason=reason)


def pending(event: Event, table: EventTable) -> list[int] | None:
    """The totals a correction under way would give the table (None: none under way)."""
    return _scores_at(table, event) if table.correcting else None


def impact_of(event: Event, table: EventTable) -> Impact:
    """What applying the table's correction changes: ranks, and later draws."""
    before = concours_of(event)
    now = pending(event, table)
    if now is None:
        return Impact((), ())
    after = replace(
        before,
        played=tuple(
            replace(
                p,
                tables=tuple(
                    replace(t, scores=tuple(now))
                    if p.number == table.round and t.number == table.number
                    else t
                    for t in p.tables
                ),
            )
            for p in before.played
        ),
    )
    return impact(before, after)


def apply(event: Event, table: EventTable, version: int | None = None) -> None:
    """The director's correction counts: the table's result is its game's now."""
    _check_version(event, version)
    now = pending(event, table)
    if now is None:
        raise LookupError(table.number)
    before = table.accepted
    reason = table.correcting
    with _whole():  # one write: the result, its game's new link, the history line
        table.accepted = now
        table.correcting = None
        if table.game_row is not None:
            game_service.rotate(table.game_row, "editor", commit=False)
        _log(
            event,
            "apply",
            round=table.round,
            table=table.number,
            reason=reason,
            before=before,
            after=now,
        )


def export(event: Event) -> dict[str, Any]:
    """The event file (`referee-event/1`), its tables' games included."""
    return _file_of(event, games=True)


def export_json(event: Event) -> str:
    return json.dumps(export(event), ensure_ascii=False, indent=1)


def import_event(data: bytes) -> Event:
    """A new event from its file: players, rounds, results and the games it holds
    (each a new game, its result accepted as written)."""
    record = eventfile.load_event(data)
    with _whole():  # one write: the event, its rounds, its tables and their games
        event = _import(record)
        db.session.commit()
    return event


def _import(record: EventRecord) -> Event:
    """`import_event`'s rows, added to the session (committed by the caller)."""
    event = _event_from(record)
    db.session.add(event)
    db.session.flush()
    games = record.games or {}
    started = record.started or {}
    for played in record.concours.played:
        at = started.get(played.number)
        event.rounds.append(
            EventRound(
                event_id=event.id,
                number=played.number,
                byes=list(played.byes),
                # As the file says it started (an import is not the round's start).
                started_at=_time_of(at) if at else utcnow(),
            )
        )
        for t in played.tables:
            game_id = None
            if (played.number, t.number) in games:
                game = game_service.import_record(
                    json.dumps(games[played.number, t.number]).encode(), commit=False
                )
                game_service.rotate(game, "editor", commit=False)
                game_id = game.id
            elif played is record.concours.played[-1] and (t.scores is None or not t.accepted):
                # The round in play, this table yet to play: a game to play it on.
                names = {p.number: p.name for p in record.concours.players}
                game_id = _open_game(event, [names[s] for s in t.seats]).id
            event.tables.append(
                EventTable(
                    event_id=event.id,
                    round=played.number,
                    number=t.number,
                    seats=list(t.seats),
                    game_id=game_id,
                    accepted=None if t.scores is None or not t.accepted else list(t.scores),
                )
            )
    if record.log:  # the event's whole log, as it happened
        for line in record.log:
            if line.action not in EVENT_ACTIONS:
                continue
            db.session.add(
                EventChange(
                    event_id=event.id,
                    action=line.action,
                    round=line.round,
                    table=line.table,
                    reason=line.reason,
                    before=line.before,
                    after=line.after,
                    at=_time_of(line.at),
                )
            )
        db.session.add(EventChange(event_id=event.id, action="import"))
        return event
    for h in record.history:
        db.session.add(
            EventChange(
                event_id=event.id,
                action="corrected",
                round=h.round,
                table=h.table,
                reason=h.reason,
                before=None if h.before is None else list(h.before),
                after=None if h.after is None else list(h.after),
                # As the file says it happened (an import is not the correction).
                at=_time_of(h.at),
            )
        )
    db.session.add(EventChange(event_id=event.id, action="import"))
    return event


def _time_of(at: str | None) -> datetime.datetime:
    """A history time as the event file wrote it (UTC, as stored), else now."""
    if at is None:
        return utcnow()
    moment = datetime.datetime.fromisoformat(at)
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC).replace(tzinfo=None)
    return moment


def loaded(event_id: int, *, whole: bool = True) -> Event | None:
    """An event with its players, rounds and tables read at once, and the games of
    the round in play with their deals (the others' results are their accepted
    totals: their games are read only when asked, by the export or a correction).
    Not `whole`: what its ranking needs only (no history, no game: a season reads
    each of its concours so)."""
    parts = [selectinload(Event.players), selectinload(Event.rounds), selectinload(Event.tables)]
    if whole:
        parts.append(selectinload(Event.changes))
    event: Event | None = db.session.scalar(
        select(Event).where(Event.id == event_id).options(*parts)
    )
    if event is None or not whole:
        return event
    wanted = [
        t.game_id
        for t in event.tables
        if t.game_id is not None and (t.round == len(event.rounds) or t.correcting)
    ]
    if wanted:  # in the session's identity map: each table's `game_row` finds its own
        games = select(Game).where(Game.id.in_(wanted)).options(selectinload(Game.deals))
        db.session.scalars(games).all()
    return event


def paying(event: Event) -> int:
    """The players whose entry fee is in the pot: those who played a round (or sit
    in the round to come: checked in and not withdrawn) and those the director
    marked paid. A name removed before the first round, or a player who withdrew
    before playing, pays nothing unless marked paid."""
    drawn = set()
    for table in event.tables:
        drawn.update(table.seats)
    for played in event.rounds:
        drawn.update(played.byes)
    return sum(1 for p in event.players if p.paid or p.left is None or p.number in drawn)


def money(event: Event) -> Decimal | None:
    """The entry fees collected: the fee times the players paying (`paying`)."""
    if not event.entry_fee:
        return None
    return Decimal(event.entry_fee) * paying(event)


@dataclass(frozen=True)
class Purse:
    """A concours's money as its pages show it: the pot, each place's prize and
    each ranking line's, in cents (lines in the ranking's order)."""

    prizes: Prizes
    pot: Pot
    places: tuple[int, ...]
    lines: tuple[int, ...]

    @property
    def paid(self) -> int:
        return sum(self.lines)


def purse(event: Event, lines: tuple[Line, ...]) -> Purse | None:
    """The prizes of `event` for its ranking `lines` (None: no prizes stated)."""
    if not event.prizes:
        return None
    prizes = parse_prizes(event.prizes)
    assert prizes is not None
    fee = Decimal(event.entry_fee) if event.entry_fee else None
    pot = pot_of(fee, paying(event), prizes)
    places = by_place(prizes, pot.pot)
    return Purse(prizes, pot, places, share_out(places, [line.rank for line in lines]))


__all__ = ["PRE_ALARM", "Length", "Setup", "StaleVersion", "Status"]
