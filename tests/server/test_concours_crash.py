"""kill -9 of the real server in the middle of a concours's draws, acceptances and
corrections: each is one write, so whatever moment the server dies at, every
concours it leaves behind is whole.

Concours of 88 players of the score pad, at tables of 4, rounds of one deal: a draw
opens 22 tables, each with its game. The server (`referee serve` on 127.0.0.1, a
data folder of its own) is killed (SIGKILL, its whole process group) at a random
moment (a seeded RNG) after a load is sent, while it is still being answered: at
least `KILLS` times in the middle of a draw, as many in the middle of acceptances
sent by several phones at once (each table accepted by two of its players), and
as many in the middle of directors' corrections (on three concours at once: open a
result, change its game's deal, apply). After each kill the database is read
directly (sqlite3, one transaction) and every concours must be whole
(`problems_of`):

* each round drawn has all its tables, numbered 1 to 22 (players // 4), each with
  a game row that exists, seated as its one "draw" line of history says; a round
  not drawn has no table and no "draw" line; no game without its table;
* the event's version is the number of its history lines (event_change rows) but
  its "create", "import" and "corrected" ones: every line `_log` or `_log_counted`
  writes bumps the version by one in the same write, while `create` writes its
  line without a bump (version 0), as `_import` does its "import" and "corrected"
  lines; each concours here has its one "create" line;
* a table's history (the lines of its round and table, in order) is "accept", then
  pairs "correct" + "apply" (or "cancel"), and at most one "correct" at the end: a
  table is accepted (accepted, accepted_by and table_token set) exactly when it
  has its one "accept"; its `correcting` is set exactly when its history ends with
  a "correct", and is that line's reason; its accepted totals are the "after" of
  its last "accept" or "apply"; its game's editors' link was rotated (the game's
  "link-edit" changes) once per "accept", "apply" and "cancel".

A server is started again after each kill. A start costs about 2 s of CPU (the
master, its worker, the worker's PDF process), most of this test's time: the
servers have one worker each, and three share the database, one answering while
the others start.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import random
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from referee.events import eventfile
from referee.models import Event
from referee.services.events import director_pin, table_key
from tests.server.conftest import HOST, ONE_ADDRESS, Phone, Server, free_port

SEED = 20250917
PLAYERS = 88
TABLES = PLAYERS // 4
NAMES = [f"Joueur {n}" for n in range(1, PLAYERS + 1)]
#: Rounds of a concours, at most.
ROUNDS = 8
#: Kills of each kind, each in the middle of a request of that kind.
KILLS = 20
#: Loads of a kind sent at most (a load answered before its moment to be killed
#: is not killed, and counts for nothing).
MOST_LOADS = 60
#: Servers sharing the database: one answers while the others start.
FLEET = 3
#: Phones sending acceptances at once.
ACCEPTING = 4
#: Concours corrected at once (a director's action is made on the event's version:
#: one phone a concours).
CORRECTING = 3
#: History lines written without a bump of the event's version.
NO_BUMP = frozenset({"create", "import", "corrected"})
#: A table's history: its acceptance, each correction applied or given up, at most
#: one under way.
TABLE_HISTORY = re.compile(r"(accept(,correct,(apply|cancel))*(,correct)?)?")
_VERSION = re.compile(r'name="version" value="(\d+)"')


class Down(Exception):
    """The server this phone talked to is gone (killed)."""


@dataclass
class Flight:
    """The requests of one load until the kill: how many of each kind it cut (sent,
    never answered), and any answer a phone should not have had."""

    killing: threading.Event = field(default_factory=threading.Event)
    sent: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    cut: Counter[str] = field(default_factory=Counter)
    #: How long each request answered took, in seconds.
    took: list[float] = field(default_factory=list)
    wrong: list[str] = field(default_factory=list)

    def request(
        self, kind: str, phone: Phone, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str, str]:
        if self.killing.is_set():
            raise Down()
        self.sent.set()
        began = time.perf_counter()
        try:
            answer = phone.request(method, path, form, timeout=60)
        except (OSError, http.client.HTTPException) as error:
            if not self.killing.is_set():
                self.said(f"{method} {path}: {error!r}, the server not killed")
            elif not isinstance(error, ConnectionRefusedError):  # refused: sent after
                with self.lock:
                    self.cut[kind] += 1
            raise Down() from None
        with self.lock:
            self.took.append(time.perf_counter() - began)
        return answer

    def said(self, what: str) -> None:
        with self.lock:
            self.wrong.append(what)


@dataclass
class OneWorker(Server):
    """`referee serve` as `Server` starts it, with one worker: a start costs about 2 s
    of CPU (with two workers, 3.3 s), and this test starts a server after each of
    its 60 kills."""

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database,
            "REFEREE_SECRET_KEY": "server-tests",
            **self.more_env,
        }
        command = [sys.executable, "-m", "referee.cli", "serve", "--host", HOST]
        command += ["--port", str(self.port), "--workers", "1", "--threads", str(self.threads)]
        with (self.workdir / "server.log").open("ab") as log:  # the child keeps its copy
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        log_text = (self.workdir / "server.log").read_text()
        raise AssertionError(f"the server did not start: {log_text}")


@dataclass
class Fleet:
    """`FLEET` servers on one database, one answering at a time (`current`): killed,
    it starts again (on a new port) while the next one answers."""

    database: str
    folder: Path
    servers: list[Server] = field(default_factory=list)
    ready: queue.Queue[Server | None] = field(default_factory=queue.Queue)
    starting: list[threading.Thread] = field(default_factory=list)
    answering: Server | None = None
    failures: list[str] = field(default_factory=list)
    kills: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def open(self) -> None:
        for number in range(FLEET):
            workdir = self.folder / f"server{number}"
            workdir.mkdir()
            env = {**ONE_ADDRESS, "REFEREE_DATA": str(self.folder / "data")}
            self.servers.append(OneWorker(0, self.database, workdir, more_env=env))
        # The first creates the database's tables; then the others start beside it.
        self._start(self.servers[0])
        self.current()
        for server in self.servers[1:]:
            self._start(server)

    def _start(self, server: Server) -> None:
        def run() -> None:
            try:
                for attempt in range(3):  # a free port taken meanwhile: another one
                    server.port = free_port()
                    try:
                        server.start()
                        break
                    except AssertionError:
                        if attempt == 2:
                            raise
                assert server.process is not None
                phone = Phone(server.port)
                up = phone.healthy(server.process, 60)  # its worker warm, answering
                phone.close()
                assert up, (server.workdir / "server.log").read_text()
                self.ready.put(server)
            except BaseException as error:  # said by `current`
                self.failures.append(repr(error))
                self.ready.put(None)

        thread = threading.Thread(target=run)
        self.starting.append(thread)
        thread.start()

    def current(self) -> Server:
        with self.lock:
            if self.answering is None:
                server = self.ready.get(timeout=120)
                assert server is not None, self.failures
                self.answering = server
            return self.answering

    def kill(self) -> None:
        """kill -9 the server answering (its whole process group); start it again."""
        assert self.answering is not None
        self.answering.kill()
        self.kills += 1
        self._start(self.answering)
        self.answering = None

    def close(self) -> None:
        for thread in self.starting:
            thread.join(timeout=120)
        for server in self.servers:
            server.stop()


@dataclass
class Row:
    """A concours table as the database has it, with its game."""

    event: int
    round: int
    number: int
    seats: list[int]
    game: int | None
    accepted: list[int] | None
    accepted_by: str | None
    correcting: str | None
    table_token: str | None
    game_token: str | None
    deals: int
    links: int


@dataclass
class Concours:
    """A concours as the database has it."""

    id: int
    token: str
    play: str
    view: str
    version: int
    players: int = 0
    rounds: list[int] = field(default_factory=list)
    tables: list[Row] = field(default_factory=list)
    #: (action, round, table, reason, after), in the order written.
    history: list[tuple[str, int | None, int | None, str | None, Any]] = field(default_factory=list)

    def latest(self) -> list[Row]:
        return [t for t in self.tables if self.rounds and t.round == self.rounds[-1]]


@dataclass
class Snapshot:
    events: dict[int, Concours]
    #: Games no table plays (every game here is a table's).
    orphans: list[int]

    def by_token(self, token: str) -> Concours:
        return next(e for e in self.events.values() if e.token == token)


def read(path: Path) -> Snapshot:
    """Every concours, as one transaction of the database's own reads it."""
    connection = sqlite3.connect(path, timeout=30, isolation_level=None)
    try:
        connection.execute("BEGIN")
        events = {
            row[0]: Concours(*row)
            for row in connection.execute(
                "SELECT id, token, play_token, view_token, version FROM event"
            )
        }
        for event_id, count in connection.execute(
            "SELECT event_id, count(*) FROM event_player GROUP BY event_id"
        ):
            events[event_id].players = count
        for event_id, number in connection.execute(
            "SELECT event_id, number FROM event_round ORDER BY number"
        ):
            events[event_id].rounds.append(number)
        for row in connection.execute(
            "SELECT t.event_id, t.round, t.number, t.seats, t.game_id, t.accepted,"
            " t.accepted_by, t.correcting, t.table_token, g.token,"
            " (SELECT count(*) FROM deal d WHERE d.game_id = g.id),"
            " (SELECT count(*) FROM change c WHERE c.game_id = g.id AND c.action = 'link-edit')"
            " FROM event_table t LEFT JOIN game g ON g.id = t.game_id"
            " ORDER BY t.round, t.number"
        ):
            seats, accepted = json.loads(row[3]), None if row[5] is None else json.loads(row[5])
            table = Row(row[0], row[1], row[2], seats, row[4], accepted, *row[6:])
            events[table.event].tables.append(table)
        for event_id, action, round_, table_number, reason, after in connection.execute(
            'SELECT event_id, action, round, "table", reason, after FROM event_change ORDER BY id'
        ):
            after = None if after is None else json.loads(after)
            events[event_id].history.append((action, round_, table_number, reason, after))
        orphans = [
            row[0]
            for row in connection.execute(
                "SELECT id FROM game WHERE id NOT IN"
                " (SELECT game_id FROM event_table WHERE game_id IS NOT NULL)"
            )
        ]
        connection.execute("COMMIT")
    finally:
        connection.close()
    return Snapshot(events, orphans)


def problems_of(snapshot: Snapshot) -> list[str]:
    """How the concours of the database are not whole (the module's invariants)."""
    found = [f"game {g} is no table's (a draw half written)" for g in snapshot.orphans]
    for event in snapshot.events.values():
        said = f"concours {event.id}"
        actions = Counter(h[0] for h in event.history)
        if actions["create"] != 1:
            found.append(f"{said}: {actions['create']} 'create' lines")
        bumps = sum(n for action, n in actions.items() if action not in NO_BUMP)
        if event.version != bumps:
            found.append(f"{said}: version {event.version}, {bumps} history lines that bump it")
        if event.rounds != list(range(1, len(event.rounds) + 1)):
            found.append(f"{said}: rounds {event.rounds}")
        drawn = sorted(h[1] or 0 for h in event.history if h[0] == "draw")
        if drawn != event.rounds:
            found.append(f"{said}: rounds {event.rounds}, 'draw' lines for rounds {drawn}")
        needed = list(range(1, event.players // 4 + 1))
        seatings = {h[1]: h[4] for h in event.history if h[0] == "draw"}
        for number in event.rounds:
            tables = [t for t in event.tables if t.round == number]
            if [t.number for t in tables] != needed:
                numbers = [t.number for t in tables]
                found.append(f"{said}: round {number} has tables {numbers}, not {len(needed)}")
            elif [t.seats for t in tables] != seatings.get(number):
                found.append(f"{said}: round {number} seated otherwise than its 'draw' line")
        for table in event.tables:
            found += _table_problems(event, table)
    return found


def _table_problems(event: Concours, table: Row) -> list[str]:
    said = f"concours {event.id}, round {table.round}, table {table.number}"
    found = []
    if table.round not in event.rounds:
        found.append(f"{said}: a table of a round not drawn")
    if table.game is None or table.game_token is None:
        found.append(f"{said}: no game")
    lines = [h for h in event.history if h[1] == table.round and h[2] == table.number]
    actions = [h[0] for h in lines]
    if not TABLE_HISTORY.fullmatch(",".join(actions)):
        found.append(f"{said}: history {actions}")
    accepted = table.accepted is not None
    if accepted != (actions.count("accept") == 1):
        found.append(f"{said}: accepted {table.accepted}, history {actions}")
    if accepted != (table.accepted_by is not None) or accepted != (table.table_token is not None):
        found.append(f"{said}: accepted {table.accepted}, by {table.accepted_by!r}, its link")
    results = [h[4] for h in lines if h[0] in ("accept", "apply")]
    if accepted and results and results[-1] != table.accepted:
        found.append(f"{said}: accepted {table.accepted}, its history's last result {results[-1]}")
    under_way = actions[-1:] == ["correct"]
    if (table.correcting is not None) != under_way or (
        under_way and table.correcting != lines[-1][3]
    ):
        found.append(f"{said}: correcting {table.correcting!r}, history {actions}")
    rotated = sum(actions.count(a) for a in ("accept", "apply", "cancel"))
    if table.links != rotated:
        found.append(f"{said}: its game's link rotated {table.links} times, history {actions}")
    return found


@dataclass
class Director:
    """The test's phones: one session (its cookie and CSRF token) shared by all,
    each phone a connection of its own to the server answering."""

    fleet: Fleet
    path: Path
    cookie: str = ""
    csrf: str = ""
    created: int = 0

    def phone(self) -> Phone:
        phone = Phone(self.fleet.current().port, cookie=self.cookie)
        if not self.csrf:
            self.csrf = phone.form("/events/new")["csrf_token"]
            self.cookie = phone.cookie
        return phone

    def post(self, path: str, form: dict[str, str]) -> tuple[int, str, str]:
        phone = self.phone()
        try:
            return phone.request("POST", path, {"csrf_token": self.csrf, **form}, timeout=60)
        finally:
            phone.close()

    def whole(self) -> Snapshot:
        """The database as it is, every concours whole."""
        snapshot = read(self.path)
        problems = problems_of(snapshot)
        assert problems == [], problems[:20]
        return snapshot

    def create(self) -> Concours:
        self.created += 1
        form = {
            "name": f"Concours {self.created}",
            "game": "pad",
            "format": "individual",
            "table_size": "4",
            "rounds": str(ROUNDS),
            "length": "1",
            "length_kind": "deals",
            "rule": "score",
            "tie_breaks": "lot",
            "bye": "0",
            "players": "\n".join(NAMES),
        }
        status, page, location = self.post("/events/new", form)
        assert status == 302, page[:500]
        return read(self.path).by_token(location.rsplit("/", 1)[1])

    def draw(self, event: Concours) -> None:
        status, _, _ = self.post(f"/e/{event.token}/draw", {"version": str(event.version)})
        assert status == 302

    def play(self, tables: list[Row], rng: random.Random) -> None:
        """Each table's one deal, posted by `ACCEPTING` phones at once."""
        work: queue.SimpleQueue[Row] = queue.SimpleQueue()
        for table in tables:
            work.put(table)
        problems: list[str] = []

        def phone_at_tables(phone: Phone) -> None:
            try:
                while True:
                    try:
                        table = work.get_nowait()
                    except queue.Empty:
                        return
                    form = {"csrf_token": self.csrf, "action": "save", **points(rng)}
                    status, _, _ = phone.request("POST", f"/g/{table.game_token}/deal", form)
                    if status != 302:
                        problems.append(f"a deal at table {table.number}: {status}")
            except Exception as error:
                problems.append(repr(error))

        phones = [self.phone() for _ in range(ACCEPTING)]
        threads = [threading.Thread(target=phone_at_tables, args=(p,)) for p in phones]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        for phone in phones:
            phone.close()
        assert problems == []

    def ready(self, snapshot: Snapshot, rng: random.Random) -> tuple[Snapshot, list[Row]]:
        """At least `2 * TABLES` tables whose result may be accepted: the tables of
        the rounds in play played (their one deal), concours after concours; when
        they are not enough, the next round drawn where every result is in."""
        wanted = 2 * TABLES
        for _attempt in range(4):
            latest = [t for e in snapshot.events.values() for t in e.latest()]
            ready = [t for t in latest if t.accepted is None and t.deals > 0]
            if len(ready) >= wanted:
                return snapshot, ready
            unplayed = [t for t in latest if t.deals == 0]
            if unplayed:
                self.play(unplayed[: wanted - len(ready)], rng)
            else:
                done = [
                    e
                    for e in snapshot.events.values()
                    if 0 < len(e.rounds) < ROUNDS
                    and all(t.accepted is not None for t in e.latest())
                ]
                self.draw(done[0] if done else self.create())
            snapshot = read(self.path)
        latest = [t for e in snapshot.events.values() for t in e.latest()]
        ready = [t for t in latest if t.accepted is None and t.deals > 0]
        assert ready, "no table to accept"
        return snapshot, ready


def points(rng: random.Random) -> dict[str, str]:
    return {f"points{i}": str(rng.randint(-30, 30)) for i in range(4)}


Load = list[Callable[[Phone], None]]


def killed_amid(director: Director, flight: Flight, load: Load, delay: float) -> bool:
    """Run `load` (each part in a thread, with a phone of its own) and kill the
    server `delay` seconds after its first request is sent, unless the load was
    answered whole by then (False: no kill). Every part stops at the kill."""
    phones = [director.phone() for _ in load]
    threads = [threading.Thread(target=w, args=(p,)) for w, p in zip(load, phones, strict=True)]
    for thread in threads:
        thread.start()
    while not flight.sent.wait(timeout=0.01) and any(t.is_alive() for t in threads):
        pass  # bounded by the threads' own requests
    deadline = time.monotonic() + delay
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.monotonic()))
    killed = any(thread.is_alive() for thread in threads)
    if killed:
        flight.killing.set()
        director.fleet.kill()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive()
    for phone in phones:
        phone.close()
    return killed


def kills_amid(
    director: Director,
    kind: str,
    load_of: Callable[[Snapshot, Flight], Load],
    delay: Callable[[float], float],
) -> str:
    """Loads of `kind` sent and killed in their middle, until `KILLS` kills cut one
    (`MOST_LOADS` loads at most); every concours whole after each. `delay`: when to
    kill, after the first request is sent, given the last request answered (how
    long it took, in seconds). What was done."""
    started = time.perf_counter()
    loads = kills = cut = 0
    took = 0.0
    while cut < KILLS and loads < MOST_LOADS:
        loads += 1
        flight = Flight()
        if killed_amid(director, flight, load_of(director.whole(), flight), delay(took)):
            kills += 1
            cut += min(1, flight.cut[kind])
        assert flight.wrong == [], flight.wrong
        took = flight.took[-1] if flight.took else took
    director.whole()
    assert cut >= KILLS, f"{loads} loads, {kills} kills, {cut} in the middle of one"
    return (
        f"{loads} loads, {kills} kills, {cut} in the middle; {time.perf_counter() - started:.1f} s"
    )


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    running = Fleet(f"sqlite:///{tmp_path / 'concours.sqlite3'}", tmp_path)
    try:
        running.open()
        yield running
    finally:
        running.close()


def test_every_concours_action_is_whole_after_kill_9(fleet: Fleet, tmp_path: Path) -> None:
    started = time.perf_counter()
    rng = random.Random(SEED)
    director = Director(fleet, tmp_path / "concours.sqlite3")
    said: dict[str, str] = {}

    # Draws, each of a new concours, killed at a random moment of the time the last
    # draw answered took (the first: a moment of a second).
    def drawing(snapshot: Snapshot, flight: Flight) -> Load:
        waiting = [e for e in snapshot.events.values() if not e.rounds]
        event = waiting[0] if waiting else director.create()
        form = {"csrf_token": director.csrf, "version": str(event.version)}

        def draw(phone: Phone) -> None:
            try:
                status, _, _ = flight.request("draw", phone, "POST", f"/e/{event.token}/draw", form)
                if status != 302:
                    flight.said(f"draw: {status}")
            except Down:
                pass
            except Exception as error:
                flight.said(repr(error))

        return [draw]

    said["draws"] = kills_amid(
        director, "draw", drawing, lambda took: rng.uniform(0.0, 1.0) * (took or 1.0)
    )

    # Acceptances: `ACCEPTING` phones accept the tables ready, each twice (by two of
    # its players).
    def accepting(snapshot: Snapshot, flight: Flight) -> Load:
        snapshot, ready = director.ready(snapshot, rng)
        rng.shuffle(ready)
        work: queue.SimpleQueue[tuple[Row, int]] = queue.SimpleQueue()
        for table in ready:
            work.put((table, 1))
            work.put((table, 2))
        plays = {e.id: e.play for e in snapshot.events.values()}
        # The table's code (its card's QR code) and the director's PIN: the test's
        # phones share one session, so each is the phone that entered the deals.
        held = {e.id: Event(token=e.token) for e in snapshot.events.values()}

        def accept(phone: Phone) -> None:
            try:
                while not flight.killing.is_set():
                    try:
                        table, seat = work.get_nowait()
                    except queue.Empty:
                        return
                    who = NAMES[table.seats[seat] - 1]
                    event = held[table.event]
                    form = {
                        "csrf_token": director.csrf,
                        "who": who,
                        "version": "0",
                        "k": table_key(event, table.number),
                        "pin": director_pin(event),
                    }
                    path = f"/c/{plays[table.event]}/{table.number}"
                    status, page, _ = flight.request("accept", phone, "POST", path, form)
                    if status != 302 and not (status == 422 and "accepted already" in page):
                        flight.said(f"accept: {status}")
            except Down:
                pass
            except Exception as error:
                flight.said(repr(error))

        return [accept] * ACCEPTING

    said["acceptances"] = kills_amid(
        director, "accept", accepting, lambda _took: rng.uniform(0.0, 0.25)
    )

    # Corrections, on `CORRECTING` concours at once: the director opens a table's
    # result, changes its game's deal and applies the correction, table after table.
    snapshot = director.whole()
    chosen = sorted(
        snapshot.events, key=lambda e: -sum(1 for t in snapshot.events[e].tables if t.accepted)
    )[:CORRECTING]

    def correcting(snapshot: Snapshot, flight: Flight) -> Load:
        return [
            corrections(snapshot.events[e], random.Random(rng.random()), flight) for e in chosen
        ]

    def corrections(
        event: Concours, order: random.Random, flight: Flight
    ) -> Callable[[Phone], None]:
        tables = [t for t in event.tables if t.accepted is not None]
        order.shuffle(tables)
        tables.sort(key=lambda t: t.correcting is None)  # the one under way first

        def correct(phone: Phone) -> None:
            version = event.version
            try:
                for table in tables:
                    wrong = corrected(phone, table, version)
                    if wrong:
                        flight.said(wrong)
                        return
                    version += 1 if table.correcting else 2
            except Down:
                pass
            except Exception as error:
                flight.said(repr(error))

        def corrected(phone: Phone, table: Row, version: int) -> str | None:
            """A table's correction: opened (unless under way), its game's deal
            changed, applied; what went wrong, if anything."""
            at = f"/e/{event.token}/round/{table.round}/table/{table.number}"
            game = f"/g/{table.game_token}"
            if table.correcting is None:
                reason = f"sheet {order.randrange(10**6)}"
                form = {"csrf_token": director.csrf, "reason": reason, "version": str(version)}
                _, _, to = flight.request("correct", phone, "POST", f"{at}/correct", form)
                if to != game:
                    return f"correct: led to {to}"
                version += 1
            edit = f"{game}/deal/1/edit"
            status, page, _ = flight.request("correct", phone, "GET", edit)
            found = _VERSION.search(page)
            if status != 200 or found is None:
                return f"the deal's form: {status}"
            form = {"csrf_token": director.csrf, "action": "save", **points(order)}
            form["version"] = found.group(1)
            _, _, to = flight.request("correct", phone, "POST", edit, form)
            if to != game:
                return f"the deal changed: led to {to}"
            form = {"csrf_token": director.csrf, "version": str(version)}
            status, _, _ = flight.request("correct", phone, "POST", f"{at}/apply", form)
            _, body, _ = flight.request("correct", phone, "GET", f"/ev/{event.view}/version.json")
            if status != 302 or json.loads(body)["version"] != version + 1:
                return f"applied: {status}, version {body}, not {version + 1}"
            return None

        return correct

    said["corrections"] = kills_amid(
        director, "correct", correcting, lambda _took: rng.uniform(0.0, 0.4)
    )

    # Every concours, exported by the server answering, is a file its reader takes.
    snapshot = director.whole()
    phone = director.phone()
    for event in snapshot.events.values():
        status, body, _ = phone.request("GET", f"/e/{event.token}/export.json")
        assert status == 200
        eventfile.load_event(body.encode())
    phone.close()
    history = Counter(h[0] for e in snapshot.events.values() for h in e.history)
    print(
        said,
        f"{len(snapshot.events)} concours, {history['draw']} rounds,"
        f" {history['accept']} accepted, {history['apply']} corrections applied;"
        f" {fleet.kills} kills; {time.perf_counter() - started:.1f} s",
    )
