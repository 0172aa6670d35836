"""Games: create, add, correct and undo deals, import and export records.

Every write re-plays the whole game through the engine before it commits, so the
database never holds a game the rules refuse. Each change is kept in the history.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

from sqlalchemy import (
    Engine,
    bindparam,
    delete,
    false,
    func,
    insert,
    inspect,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from referee.engine.errors import Problem, RulesError
from referee.engine.game import Record, Standings
from referee.engine.names import clean
from referee.engine.records import (
    FORMAT,
    dump_record,
    load_record,
    parse_record,
    score_record,
    with_deal,
)
from referee.engine.settlement import StakePer
from referee.engine.statistics import Outcome, fingerprint, outcome
from referee.extensions import db
from referee.games import GAMES
from referee.lru import LRU
from referee.models import (
    Change,
    Deal,
    EventTable,
    Game,
    RemovedGame,
    Submission,
    new_token,
    utcnow,
)


class StaleVersion(Exception):
    """The game changed since the form was shown (another phone got there first)."""


class Busy(Exception):
    """So many phones wrote to the game at once that this deal could not land in time."""


class KeyOfAnotherGame(Exception):
    """The form's key was issued for another game: this form is not one of this game's."""


class DealTaken(Exception):
    """The deal a form was opened for was recorded meanwhile (from another phone):
    this form's deal is not appended silently after it. `next` is the number the
    deal would take now."""

    def __init__(self, next: int) -> None:
        super().__init__(next)
        self.next = next


class Added(Enum):
    """What became of a new deal's post that recorded nothing (a new deal is
    `Recorded`)."""

    ALREADY = "already"  # this form's deal was recorded before (a retry, a double tap)
    UNDONE = "undone"  # this form's deal was recorded, then taken back


@dataclass(frozen=True)
class Recorded:
    """A new deal recorded: its number (from 1) and the game's version it made.

    Said by the service because the commit expires the game: reading them back
    from it would load the game and all its deals again (issue 19: about a fifth of
    a deal's post)."""

    number: int
    version: int


@dataclass(frozen=True)
class Settings:
    """What a new game is made of, as the new-game form gives it."""

    game: str
    players: list[str]
    first_dealer: int
    rules: dict[str, Any]
    stake: str | None
    currency: str = "EUR"
    place: str | None = None
    #: What the stake is paid for (the engine's `StakePer`): by the game, or by the point.
    stake_per: str = StakePer.GAME
    #: The table it is played at (its id), if any.
    table_id: int | None = None
    #: Every deal confirmed by another phone (the table agrees).
    confirm_deals: bool = False
    #: The finished game this one follows ("Same table again"), by id.
    next_of: int | None = None


def record_of(game: Game, deals: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The game as a record dict (its stored deals, or `deals` instead)."""
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": game.game,
        "players": list(game.players),
        "first_dealer": game.first_dealer,
        "rules": dict(game.rules),
        "deals": [d.data for d in game.deals] if deals is None else deals,
    }
    if game.stake is not None:
        record["stake"] = game.stake
    if game.stake_per != StakePer.GAME:
        record["stake_per"] = game.stake_per
    return record


def details_of(game: Game) -> dict[str, Any]:
    """What a record keeps beside the deals: currency, place and the day played."""
    details: dict[str, Any] = {"currency": game.currency, "date": game.day.isoformat()}
    if game.place:
        details["place"] = game.place
    return details


def game_from_record(record: Record[Any, Any], **fields: Any) -> Game:
    """A game row (not yet in the session) holding a parsed record: players, rules,
    stake and its deals in canonical form; `fields` set the rest (currency, place…)."""
    dumped = dump_record(record)
    given = {"currency": record.currency, "place": record.place, "played_on": record.date}
    fields = {**{k: v for k, v in given.items() if v is not None}, **fields}
    game = Game(
        game=record.game,
        players=list(record.players),
        first_dealer=record.first_dealer,
        rules=dumped["rules"],
        stake=dumped.get("stake"),
        stake_per=record.stake_per.value,
        **fields,
    )
    deals = cast(list[dict[str, Any]], dumped["deals"])
    game.deals = [Deal(position=i, data=d) for i, d in enumerate(deals)]
    return game


def transient_game(record: Record[Any, Any]) -> Game:
    """A game built from a record, not stored (for `referee pdf`)."""
    return game_from_record(record, token="", currency="EUR", version=0, created_at=utcnow())


@dataclass(frozen=True)
class Scored:
    """The game as stored, parsed and scored once: its typed record (rules included)
    and its standings, what every page of it shows. Both are immutable and shared."""

    record: Record[Any, Any]
    standings: Standings

    @property
    def rules(self) -> Any:
        """The house rules, typed as the engine reads them."""
        return self.record.rules

    @property
    def balanced(self) -> bool:
        """Whether each deal adds up to zero (stakes by the point pay each player his
        own score: `engine.settlement.money_of`)."""
        return GAMES[self.record.game].balanced_under(self.record.rules)

    def flag_values(self) -> dict[str, object]:
        """Each house rule's value as the record writes it (an enum as its value)."""
        return {
            flag.name: _plain(getattr(self.record.rules, flag.name))
            for flag in GAMES[self.record.game].flags
        }


def _plain(value: object) -> object:
    return value.value if isinstance(value, Enum) else value


#: Games last scored, by a digest of the record itself: a game is parsed and scored
#: once however many pages, previews and sheets of it are asked for, and the key is
#: what was scored, so that no race between two reads can pair a version with
#: another version's deals. 2,048 of them (about 12 KB each for 30 deals): the
#: current state of 1,000 tables and the one before (512 held fewer than the
#: tables of one server at 500 paced tables: issue 19).
_SCORED: LRU[Scored] = LRU(2048)


def _state_key(record: dict[str, Any]) -> bytes:
    """What `_SCORED` keeps a state of a game under: a digest of its record."""
    text = json.dumps(record, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode("ascii"), digest_size=16).digest()


@dataclass
class _Read:
    """What was entered in a game's deals at one version, as read to be shown (or as
    a write just stored them), and its `_state_key` once worked out."""

    deals: tuple[dict[str, Any], ...]
    state: bytes | None = None


#: The deals of the games' last versions read to be shown, by (row id, address
#: token, version): a version is one state of a game, since every change of its
#: deals moves it (`_touch`) and versions only grow (issue 19). A table's form, its
#: post and the page after it (one phone's connection, so one worker) read the same
#: game: each read then takes the game's row alone, not its 30 deals again (on
#: PostgreSQL a round trip and 30 JSON texts decoded, three times a deal), and the
#: scoring's digest of the record is made once a version, not once a read.
#: The deals are shared: nothing that reads them may change them. Games are never
#: deleted and a restore adds only games that are not there, so a key never comes
#: back with other deals. Kept per database (its engine): one process may hold
#: several apps, as the tests do.
_READS: weakref.WeakKeyDictionary[Engine, LRU[_Read]] = weakref.WeakKeyDictionary()
READS_KEPT = 2048


def _reads() -> LRU[_Read]:
    """The reads kept of the app's database."""
    engine = db.engine
    kept = _READS.get(engine)
    if kept is None:
        kept = _READS.setdefault(engine, LRU(READS_KEPT))
    return kept


def _read_key(game: Game) -> tuple[int, str, int]:
    return (game.id, game.token, game.version)


def scored(game: Game, deals: list[dict[str, Any]] | None = None) -> Scored:
    """The game parsed and scored from its stored deals (once for each state of it);
    `deals`: its deals' data, when the caller read them without loading the rows."""
    record = record_of(game, deals)

    def make() -> Scored:
        parsed = parse_record(record, stored=True)
        return Scored(parsed, score_record(parsed))

    return _SCORED.get_or_make(_known_state(game, deals, record), make)


def _known_state(game: Game, deals: list[dict[str, Any]] | None, record: dict[str, Any]) -> bytes:
    """The `_state_key` of `record` (the game with `deals`): kept with the version's
    read when `deals` are that read's very objects, worked out otherwise."""
    read = _reads().held(_read_key(game)) if deals is not None else None
    if read is None or not _same(read.deals, deals):
        return _state_key(record)
    if read.state is None:
        read.state = _state_key(record)
    return read.state


def _same(kept: tuple[dict[str, Any], ...], deals: list[dict[str, Any]] | None) -> bool:
    """Whether `deals` are the kept deals themselves (the same objects, in order)."""
    return (
        deals is not None
        and len(kept) == len(deals)
        and all(a is b for a, b in zip(kept, deals, strict=True))
    )


def _keep_scored(key: bytes, record: Record[Any, Any], standings: Standings) -> None:
    """Keep a state a write just scored and committed (`key`: its `_state_key`, of
    its deals as stored): the page drawn right after the write, and the next deal's
    form, read it instead of scoring the whole game again (issue 19)."""
    _SCORED.put(key, Scored(record, standings))


def standings_of(game: Game) -> Standings:
    """The game's standings (see `scored`)."""
    return scored(game).standings


def deal_count(game: Game) -> int:
    """How many deals the game has, without loading them."""
    return db.session.scalar(select(func.count()).where(Deal.game_id == game.id)) or 0


def _rows(sql: str, *params: object) -> list[Any]:
    """The rows of one plain SQL query (`?` placeholders).

    The reads every scoreboard view, spectator view and live follow makes (issue 19):
    on a pooled connection of their own, as a prepared string, without the ORM
    session and without compiling a statement. Through the session and a Core
    `select` the same read cost about a third of a cached scoreboard's whole time
    (`bench/http.py`, PERFORMANCE.md). The connection goes back to its pool, which
    ends its transaction, before the answer is used.

    On PostgreSQL the read is made in autocommit: one statement needs no
    transaction around it, and psycopg opened one with a round trip of its own
    (BEGIN) before the read and another (ROLLBACK) when the connection went back.
    """
    raw = db.engine.raw_connection()
    autocommit = db.engine.dialect.name != "sqlite"
    try:
        if autocommit:
            raw.driver_connection.autocommit = True  # type: ignore[union-attr]
        cursor = raw.cursor()
        if db.engine.dialect.paramstyle != "qmark":  # psycopg: %s
            sql = sql.replace("?", "%s")
        cursor.execute(sql, params)
        rows = cursor.fetchall()
        cursor.close()
        return list(rows)
    finally:
        try:
            if autocommit:
                raw.driver_connection.autocommit = False  # type: ignore[union-attr]
        finally:
            raw.close()


def _first_row(sql: str, *params: object) -> Any:
    """The first row of one plain SQL query (see `_rows`), or None."""
    rows = _rows(sql, *params)
    return rows[0] if rows else None


def version_of(token: str) -> int | None:
    """The game's version (it changes with every write), without loading the game."""
    row = _first_row("SELECT version FROM game WHERE token = ?", token)
    return None if row is None else int(row[0])


def database_answers() -> bool:
    """Whether the database answers a query now, and holds the games' table (the
    health check of monitors and load balancers)."""
    try:
        db.session.connection().execute(select(Game.__table__.c.id).limit(0))
    except DBAPIError:
        db.session.rollback()
        return False
    return True


def page_shared(*, spectators: bool, finished: bool, confirming: bool) -> bool:
    """Whether a game's scoreboard at a version is one page for all its phones, so
    that it is drawn once and kept: a spectators' page always is; an editors' page
    is each phone's own once the game is over (its "same table again" form) or
    while its deals are confirmed (what each phone may agree to)."""
    return spectators or not (finished or confirming)


def versions_of(tokens: list[str], *, spectators: bool) -> dict[str, tuple[int, bool]]:
    """For each game of these editor (or spectator) tokens that still exists: its
    version, and whether its page at that version is one page for all its phones
    (`page_shared`). In one query per 500 tokens: the live follow asks this four
    times a second for every game it follows."""
    column = "view_token" if spectators else "token"
    found: dict[str, tuple[int, bool]] = {}
    for start in range(0, len(tokens), 500):
        chunk = tokens[start : start + 500]
        marks = ", ".join("?" * len(chunk))
        for token, version, finished, confirming in _rows(
            f"SELECT {column}, version, finished, confirm_deals FROM game "
            f"WHERE {column} IN ({marks})",
            *chunk,
        ):
            shared = page_shared(
                spectators=spectators, finished=bool(finished), confirming=bool(confirming)
            )
            found[str(token)] = (int(version), shared)
    return found


def state_of(token: str) -> tuple[int, bool, bool] | None:
    """(version, finished, confirm_deals) of the game, without loading it (see
    `_first_row`)."""
    row = _first_row("SELECT version, finished, confirm_deals FROM game WHERE token = ?", token)
    return None if row is None else (int(row[0]), bool(row[1]), bool(row[2]))


def find_view(view_token: str) -> Game | None:
    """The game of this spectator token, if any."""
    return db.session.scalar(select(Game).where(Game.view_token == view_token))


def view_version_of(view_token: str) -> tuple[str, int] | None:
    """(editor token, version) of the game of this spectator token, without loading it."""
    row = _first_row("SELECT token, version FROM game WHERE view_token = ?", view_token)
    return None if row is None else (str(row[0]), int(row[1]))


def rotate(game: Game, which: str, *, commit: bool = True) -> None:
    """Give the game a new editor or spectator link: whoever held the old one is cut off.
    `commit=False`: part of a larger write (a concours's acceptance), committed by its caller."""
    if which == "editor":
        game.token = new_token()
    else:
        game.view_token = new_token()
    bump(game)
    db.session.add(
        Change(game_id=game.id, action="link-edit" if which == "editor" else "link-view")
    )
    if commit:
        _commit_or_stale()


#: The two statements of `find`, built once: building a statement and its cache
#: key was a seventh of a game's read (issue 19, in process), three reads a deal.
_GAME_BY_TOKEN = select(Game).where(Game.token == bindparam("token"))
_DEALS_BESIDE_VERSION = (
    select(Game.version, Deal)
    .outerjoin(Deal, Deal.game_id == Game.id)
    .where(Game.id == bindparam("game_id"))
    .order_by(Deal.position)
)


def find(token: str) -> Game | None:
    """The game with this address token, if any, read with its deals: its version
    and its deals always agree.

    Two queries, the game's row, then its deals each beside the game's version:
    when the version beside them is the row's, both are the same state of the game
    (every write moves it). Else another phone wrote in between: read again. One
    query joining the deals to the game repeated the game's columns on every deal's
    row (its players, rules and outcome decoded 31 times for 30 deals: issue 19,
    a fifth of a read).
    """
    for _attempt in range(3):
        game = db.session.scalars(_GAME_BY_TOKEN, {"token": token}).first()
        if game is None or "deals" not in inspect(game).unloaded:
            return game  # none, or this session holds it already, with its deals
        rows = db.session.execute(_DEALS_BESIDE_VERSION, {"game_id": game.id}).all()
        if rows and all(version == game.version for version, _deal in rows):
            set_committed_value(game, "deals", [deal for _version, deal in rows if deal])
            return game
        db.session.expire(game)
    query = select(Game).where(Game.token == token).options(joinedload(Game.deals))
    return db.session.scalars(query.execution_options(populate_existing=True)).unique().first()


#: A game's deals beside its version, as plain rows (`shown`): the version on every
#: row, and on the one row of a game without deals.
_DEALS_SHOWN = (
    "SELECT g.version, d.data FROM game g LEFT JOIN deal d ON d.game_id = g.id "
    "WHERE g.id = ? ORDER BY d.position"
)


def shown(token: str) -> tuple[Game, list[dict[str, Any]]] | None:
    """The game with this address token, if any, read to be shown and not changed:
    its row, and what was entered in each of its deals (the data of `Deal` rows).

    A scoreboard's drawing and a deal form read the deals only to score them and
    to show what was entered: as plain rows (`_rows`) instead of 30 `Deal` objects
    of the ORM, the read costs half what `find` does (0.37 against 0.83 ms for 30
    deals, issue 19; two reads a deal). `game.deals` is left unloaded: a caller
    that changes the game reads it with `find`. Both parts are of one version of
    the game (every write moves it): read again when another phone wrote between.
    The game's row is read outside a transaction (`_alone`).
    """
    with _alone():
        return _shown(token)


@contextmanager
def _alone() -> Iterator[None]:
    """On PostgreSQL, the session's reads made inside, when it has no transaction
    yet, are made in autocommit; the connection goes back to its pool (and out of
    autocommit) after them, the objects read kept as they are.

    psycopg opened a transaction for the game's row (BEGIN, the read, and ROLLBACK
    when the request ended): three round trips for one statement, at the deal form
    and at each version's page (issue 19). Reading in autocommit is no weaker: a
    transaction in PostgreSQL's default isolation (read committed) gives each
    statement its own snapshot too, and `shown` checks the two reads' versions.
    """
    session = db.session()
    if db.engine.dialect.name == "sqlite" or session.in_transaction():
        yield  # SQLite opens no transaction for a read; a transaction under way stays
        return
    session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    expire = session.expire_on_commit
    session.expire_on_commit = False
    try:
        yield
    except BaseException:
        session.rollback()  # a read that failed: its error, not the commit's, is told
        raise
    else:
        session.commit()  # nothing to commit: only gives the connection back
    finally:
        session.expire_on_commit = expire


def _shown(token: str) -> tuple[Game, list[dict[str, Any]]] | None:
    for _attempt in range(3):
        game = db.session.scalars(_GAME_BY_TOKEN, {"token": token}).first()
        if game is None:
            return None
        if "deals" not in inspect(game).unloaded:  # this session holds it already
            return game, [deal.data for deal in game.deals]
        read = _reads().peek(_read_key(game))
        if read is not None:
            return game, list(read.deals)
        rows = _rows(_DEALS_SHOWN, game.id)
        if rows and all(version == game.version for version, _data in rows):
            deals = [_stored(data) for _version, data in rows if data is not None]
            _reads().put(_read_key(game), _Read(tuple(deals)))
            return game, deals
        db.session.expire(game)
    game = find(token)
    return None if game is None else (game, [deal.data for deal in game.deals])


def _stored(data: Any) -> dict[str, Any]:
    """A deal's data as a plain read gives it: JSON text on SQLite, already decoded by
    psycopg on PostgreSQL."""
    return cast(dict[str, Any], json.loads(data) if isinstance(data, str | bytes) else data)


def create(settings: Settings, *, commit: bool = True) -> Game:
    """Create a game; the engine checks players, rules and stake first. `commit=False`:
    one of several rows of one write (a concours's draw), committed by its caller."""
    record = {
        "format": FORMAT,
        "game": settings.game,
        "players": settings.players,
        "first_dealer": settings.first_dealer,
        "rules": settings.rules,
        "deals": [],
    }
    if settings.stake:
        record["stake"] = settings.stake
    if settings.stake_per != StakePer.GAME:
        record["stake_per"] = settings.stake_per
    parsed = parse_record(record)  # raises RulesError
    game = game_from_record(
        parsed,
        currency=settings.currency,
        place=settings.place or None,
        table_id=settings.table_id,
        version=0,
        confirm_deals=settings.confirm_deals,
        next_of=settings.next_of,
    )
    remember_outcome(game, parsed, score_record(parsed))
    db.session.add(game)
    db.session.flush()
    db.session.add(Change(game_id=game.id, action="create", after=dump_record(parsed)))
    if commit:
        db.session.commit()
    return game


def replay(
    game: Game, deals: list[dict[str, Any]]
) -> tuple[Standings, list[dict[str, Any]], Record[Any, Any]]:
    """Play the game with these deals: its standings, the deals as the engine
    writes them back (canonical spelling), and the parsed record. RulesError if
    the game cannot be."""
    record = parse_record(record_of(game, deals), stored=True)
    canonical = cast(list[dict[str, Any]], dump_record(record)["deals"])
    return score_record(record), canonical, record


def remember_outcome(game: Game, record: Record[Any, Any], standings: Standings) -> None:
    """Keep the game's outcome beside it, stamped with its version and the engine's
    fingerprint (a memo for the table's statistics: `Game.outcome`)."""
    game.outcome = _outcome_memo(record, standings, game.version)


def _outcome_memo(record: Record[Any, Any], standings: Standings, version: int) -> dict[str, Any]:
    """The memo of the outcome of a game's `version` (see `remember_outcome`)."""
    return {
        "engine": fingerprint(),
        "version": version,
        "outcome": outcome(record, standings).dump(),
    }


def current_outcome(game: Game) -> Outcome | None:
    """The game's memo of its outcome, if it still holds (same version, same engine)."""
    memo = game.outcome
    if not memo or memo.get("version") != game.version or memo.get("engine") != fingerprint():
        return None
    return Outcome.load(memo["outcome"])


def bump(game: Game) -> None:
    """A new version for a change that leaves the deals alone (a link, a table): the
    outcome's memo, if it held, holds still."""
    memo = game.outcome
    held = bool(memo) and memo.get("version") == game.version  # type: ignore[union-attr]
    game.version += 1
    if held and memo is not None:
        game.outcome = {**memo, "version": game.version}


def _touch(game: Game, standings: Standings, record: Record[Any, Any]) -> None:
    game.version += 1
    game.finished = standings.finished
    game.updated_at = utcnow()
    remember_outcome(game, record, standings)


def _check_version(game: Game, version: int) -> None:
    if version != game.version:
        raise StaleVersion()


#: How long a new deal that keeps losing races with other phones is tried again
#: (seconds), waiting a little longer, at random, after each loss.
RETRY_FOR = 10.0
_BACKOFF = (0.002, 0.05)


def add_deal(
    game: Game,
    deal: dict[str, Any],
    key: str | None = None,
    number: int | None = None,
    phone: str | None = None,
    shown: tuple[list[dict[str, Any]], Scored] | None = None,
) -> Recorded | Added:
    """Append a deal, unless this form's key already recorded one (a retry).

    The deal is re-read through the engine and stored in its canonical form.
    `number` is the deal the form was opened for: when another phone recorded that
    one first, `DealTaken` says so (with the number this one would take) instead of
    appending it silently; the player decides. Without a number (a form of an older
    page), a deal that lost the race for its place goes after the winner. Either
    way a lost race is tried again, against the game as it now stands, for up to
    `RETRY_FOR` seconds; then `Busy` (nothing was written). A key issued for
    another game raises `KeyOfAnotherGame`.

    `shown`: the game's deals as read to be shown (`shown`: `game.deals` left
    unloaded), and the game scored from them. The first try appends to that
    record, reading only the new deal (`with_deal`), instead of loading, reading
    and canonicalising the 30 before it (issue 19). The write's version check
    holds it to that state, as it holds a game read whole; a retry reads the game
    whole.
    """
    deadline = time.monotonic() + RETRY_FOR
    pause = _BACKOFF[0]
    first = True
    while True:
        count = len(shown[0]) if shown is not None else len(game.deals)
        fits = number is None or number == count + 1
        # A key already used (a retry of the form) is found before writing when the
        # deal no longer fits, or after a lost try. A deal that fits is written at
        # once: the key is its row's primary key, so a used one fails the write
        # (nothing of it kept), and the next turn finds it. One query a deal fewer.
        if key and not (first and fits):
            done = _submitted(game, key)
            if done is not None:
                return done
        if not fits:
            raise DealTaken(count + 1)
        first = False
        try:
            return _append(game, deal, key, phone, shown)
        except (IntegrityError, StaleDataError, OperationalError):
            # Another phone's deal (or a locked SQLite file): `game` is expired by the
            # rollback, so the next try reads it afresh, whole.
            db.session.rollback()
            shown = None
        if time.monotonic() > deadline:
            raise Busy()
        time.sleep(random.uniform(0, pause))
        pause = min(pause * 2, _BACKOFF[1])


class Answer(Enum):
    """What became of a deal form's post, for the page to say (`post_deal`,
    `post_correction`)."""

    PREVIEW = "preview"  # read onto the game as shown; nothing written
    RECORDED = "recorded"
    ALREADY = "already"  # this form's deal was recorded before (a retry, a double tap)
    UNDONE = "undone"  # this form's deal was recorded, then taken back
    CORRECTED = "corrected"
    REFUSED = "refused"  # the rules refuse it: `problems` say why
    TAKEN = "taken"  # another phone recorded the deal this form was opened for
    TAKEN_BACK = "taken-back"  # fewer deals than when the form was opened
    BUSY = "busy"  # so many phones wrote at once that nothing was written in time
    OTHER_GAME = "other-game"  # the form's key was issued for another game
    STALE = "stale"  # a correction made on a game that changed meanwhile
    GONE = "gone"  # the deal to correct was taken back meanwhile


@dataclass(frozen=True)
class Posted:
    """A deal form's post, answered: what became of it and the game to show with it.

    `game` (and `scored`, where the answer scored it) are the game as the form
    was read, or as it is now when another phone wrote meanwhile (`TAKEN`,
    `TAKEN_BACK`, `STALE`): the page shows the deal that won beside the entries
    kept. `number` is the deal's number: the
    one recorded or corrected, or the one a new deal would take now. `after` is the
    game with the deal read onto it (`PREVIEW`). `version` is the game's version the
    write made (`RECORDED`)."""

    answer: Answer
    game: Game
    number: int
    scored: Scored | None = None
    after: Scored | None = None
    problems: tuple[Problem, ...] = ()
    version: int | None = None


def post_deal(
    game: Game,
    deals: list[dict[str, Any]],
    before: Scored,
    deal: dict[str, Any],
    *,
    preview: bool = False,
    key: str | None = None,
    number: int | None = None,
    phone: str | None = None,
) -> Posted:
    """A new deal posted by its form, on the game as it was read (`shown`) and scored
    (`before`): previewed (`preview`, nothing written) or recorded (`add_deal`).
    Every outcome is an answer, none an exception: a refusal by the rules, a deal
    taken by another phone (the game read again, to show what won), a game too
    busy, a form of another game."""
    count = len(deals) + 1
    try:
        if preview:
            after = with_next(before, deal)
            return Posted(Answer.PREVIEW, game, count, before, after=after)
        added = add_deal(game, deal, key=key, number=number, phone=phone, shown=(deals, before))
    except RulesError as error:
        return Posted(Answer.REFUSED, game, count, before, problems=error.problems)
    except DealTaken as taken:
        now = find(game.token)
        if now is None:  # taken back to no deal, then removed: nothing to show
            return Posted(Answer.GONE, game, taken.next)
        # Fewer deals than when the form was opened: one was taken back.
        answer = Answer.TAKEN if len(now.deals) >= (number or taken.next) else Answer.TAKEN_BACK
        return Posted(answer, now, taken.next, scored(now))
    except Busy:
        return Posted(Answer.BUSY, game, count, before)
    except KeyOfAnotherGame:
        return Posted(Answer.OTHER_GAME, game, count, before)
    if isinstance(added, Recorded):
        return Posted(Answer.RECORDED, game, added.number, version=added.version)
    answer = Answer.ALREADY if added is Added.ALREADY else Answer.UNDONE
    return Posted(answer, game, _keyed_number(key) or count)


def post_correction(
    game: Game, number: int, deal: dict[str, Any], version: int, phone: str | None = None
) -> Posted:
    """A correction of deal `number` (from 1) posted by its form, made on the game
    at `version`: written (`replace_deal`), refused by the rules, or answered
    `STALE` with the game as it is now (another phone changed it meanwhile), `GONE`
    if that deal was taken back."""
    try:
        replace_deal(game, number - 1, deal, version, phone=phone)
    except StaleVersion:
        db.session.rollback()
        now = find(game.token)
        if now is None or number > len(now.deals):
            return Posted(Answer.GONE, now or game, number)
        return Posted(Answer.STALE, now, number, scored(now))
    except RulesError as error:
        return Posted(Answer.REFUSED, game, number, problems=error.problems)
    return Posted(Answer.CORRECTED, game, number)


def recorded_by(key: str | None) -> int | None:
    """The number of the deal a form's key recorded, if it recorded one (a retry
    after a dropped answer is told so, not refused as a new deal)."""
    return _keyed_number(key)


def _keyed_number(key: str | None) -> int | None:
    """The number of the deal this form key recorded (taken back since, or not)."""
    row = db.session.get(Submission, key) if key else None
    return None if row is None or row.position is None else row.position + 1


def _submitted(game: Game, key: str) -> Added | None:
    """What this form key already did, if anything."""
    row = db.session.get(Submission, key)
    if row is None:
        return None
    if row.game_id != game.id:
        raise KeyOfAnotherGame()
    return Added.UNDONE if row.undone else Added.ALREADY


def with_next(scored: Scored, deal: dict[str, Any]) -> Scored:
    """The game scored with one more deal, `deal` as entered, read alone onto the
    scored record (`with_deal`): what a preview shows and a post writes, without
    reading and scoring the whole record again (issue 19). `RulesError` if the
    deal cannot be, as for the whole record."""
    record = with_deal(scored.record, deal)
    return Scored(record, score_record(record))


def _append(
    game: Game,
    deal: dict[str, Any],
    key: str | None,
    phone: str | None,
    shown: tuple[list[dict[str, Any]], Scored] | None,
) -> Recorded:
    """Write the deal after the game's stored ones, in one transaction.

    Written with the database's own statements rather than the session's unit of
    work (a third of the post's profile; without it the post is a fifth faster:
    issue 19, PERFORMANCE.md): the
    game's row first, on the condition that its version is still the one read (a
    write of another phone since makes this one stale, as the mapper's version
    check did), then the deal, its line of history and its form key (another phone's
    deal at the same place breaks the deal's unique place). The session's copy of
    the game is left as read; the commit expires it. `shown`: see `add_deal`."""
    if shown is None:
        deals = [d.data for d in game.deals]
        standings, canonical, record = replay(game, [*deals, deal])
        stored = canonical[-1]
    else:
        deals, scored_before = shown
        after = with_next(scored_before, deal)
        record, standings = after.record, after.standings
        stored = GAMES[record.game].dump_deal(record.deals[-1])
        canonical = [*deals, stored]
    # As a read of the stored row gives it back (JSON's types: lists, not tuples).
    stored = json.loads(json.dumps(stored))
    position = len(deals)
    version = game.version + 1
    now = utcnow()
    connection = db.session.connection()
    moved = connection.execute(
        _TOUCH,
        {
            "row_id": game.id,
            "read": game.version,
            "next": version,
            "ended": standings.finished,
            "at": now,
            "memo": _outcome_memo(record, standings, version),
        },
    )
    if moved.rowcount != 1:
        raise StaleDataError(f"game {game.id} moved past version {game.version}")
    connection.execute(
        _NEW_DEAL, {"game_id": game.id, "position": position, "data": stored, "created_at": now}
    )
    connection.execute(
        _NEW_CHANGE,
        {
            "game_id": game.id,
            "action": "add",
            "position": position,
            "after": stored,
            "phone": phone,
            "at": now,
        },
    )
    if key:
        connection.execute(
            _NEW_SUBMISSION, {"key": key, "game_id": game.id, "position": position, "at": now}
        )
    recorded = Recorded(position + 1, version)
    state = _state_key(record_of(game, canonical))
    read_key = (game.id, game.token, version)  # before the commit expires `game`
    db.session.commit()
    _keep_scored(state, record, standings)
    # The new version's deals as stored, for the page drawn next (`_shown`); its
    # digest is `state` when every deal before is as stored (read to be shown).
    _reads().put(read_key, _Read((*deals, stored), state if shown is not None else None))
    return recorded


#: A new deal's rows, each statement built once (as `find`'s are).
_NEW_DEAL, _NEW_CHANGE, _NEW_SUBMISSION = insert(Deal), insert(Change), insert(Submission)
#: The game's row after a new deal, on the condition that no other write came first.
_TOUCH = (
    update(Game.__table__)
    .where(Game.id == bindparam("row_id"), Game.version == bindparam("read"))
    .values(
        version=bindparam("next"),
        finished=bindparam("ended"),
        updated_at=bindparam("at"),
        outcome=bindparam("memo"),
    )
)


def _commit_or_stale() -> None:
    """Commit; a concurrent write to the same game makes this one stale (its version
    moved, or another phone's deal took the same place)."""
    try:
        db.session.commit()
    except (StaleDataError, IntegrityError):
        db.session.rollback()
        raise StaleVersion() from None


def replace_deal(
    game: Game, position: int, deal: dict[str, Any], version: int, phone: str | None = None
) -> None:
    """Correct a past deal of the game as it was at `version` (the form's); the whole
    game is re-scored and must still hold. StaleVersion if the game changed since."""
    _check_version(game, version)
    rows = list(game.deals)
    if not 0 <= position < len(rows):
        raise LookupError(position)
    deals = [d.data for d in rows]
    deals[position] = deal
    standings, canonical, record = replay(game, deals)
    stored = canonical[position]
    before = rows[position].data
    if stored == before:
        return
    rows[position].data = stored
    db.session.add(
        Change(
            game_id=game.id,
            action="edit",
            position=position,
            before=before,
            after=stored,
            phone=phone,
        )
    )
    _touch(game, standings, record)
    _commit_or_stale()


def undo_last(game: Game, version: int) -> bool:
    """Remove the last deal (kept in the history). False when there is none."""
    _check_version(game, version)
    rows = list(game.deals)
    if not rows:
        return False
    last = rows[-1]
    db.session.add(Change(game_id=game.id, action="undo", position=last.position, before=last.data))
    # A form that recorded this deal, sent again, must hear that it was undone.
    db.session.execute(
        update(Submission)
        .where(Submission.game_id == game.id, Submission.position == last.position)
        .values(undone=True)
    )
    game.deals.remove(last)
    db.session.delete(last)
    standings, _, record = replay(game, [d.data for d in rows[:-1]])
    _touch(game, standings, record)
    _commit_or_stale()
    return True


def put_back(game: Game, version: int, phone: str | None = None) -> int | None:
    """Undo the undo: the deal last taken back goes back in its place, if nothing
    changed since (`version` is the game's just after the undo; else StaleVersion).
    Its number, or None when the last change was not an undo."""
    _check_version(game, version)
    last = db.session.scalars(
        select(Change).where(Change.game_id == game.id).order_by(Change.id.desc()).limit(1)
    ).first()
    rows = list(game.deals)
    if last is None or last.action != "undo" or last.before is None or last.position != len(rows):
        return None
    deal = last.before
    standings, canonical, record = replay(game, [*(d.data for d in rows), deal])
    db.session.add(Deal(game_id=game.id, position=len(rows), data=canonical[-1]))
    db.session.add(
        Change(game_id=game.id, action="redo", position=len(rows), after=canonical[-1], phone=phone)
    )
    db.session.execute(
        update(Submission)
        .where(Submission.game_id == game.id, Submission.position == len(rows))
        .values(undone=False)
    )
    _touch(game, standings, record)
    _commit_or_stale()
    return len(rows) + 1


class CannotConfirm(Exception):
    """This phone may not confirm this deal: it recorded it, the deal is confirmed
    already, or the game asks no confirmation."""


@dataclass(frozen=True)
class Agreement:
    """What the table agreed to, derived from the history: for each deal (by its
    place), the phone that recorded it as it now stands and the phone that confirmed
    it (None: not yet); and the seats that signed the result."""

    recorded_by: dict[int, str | None]
    confirmed_by: dict[int, str | None]
    signed: frozenset[int]

    def pending(self, phone: str | None) -> list[int]:
        """The deals this phone may confirm: recorded by another, not yet confirmed."""
        return [
            position
            for position, by in sorted(self.recorded_by.items())
            if self.confirmed_by.get(position) is None and by != phone
        ]

    def confirmed(self, position: int) -> bool:
        return self.confirmed_by.get(position) is not None


def agreement(game: Game) -> Agreement:
    """The table's agreement, from the game's changes (a correction asks again)."""
    recorded: dict[int, str | None] = {}
    confirmed: dict[int, str | None] = {}
    signed: set[int] = set()
    for change in game.changes:
        if change.position is None:
            continue
        if change.action in ("add", "edit", "redo"):
            recorded[change.position] = change.phone
            confirmed[change.position] = None
            signed.clear()  # the result changed: signed again
        elif change.action == "undo":
            recorded.pop(change.position, None)
            confirmed.pop(change.position, None)
            signed.clear()
        elif change.action == "confirm":
            confirmed[change.position] = change.phone
        elif change.action == "sign":
            signed.add(change.position)
    count = len(game.deals)
    recorded = {p: by for p, by in recorded.items() if p < count}
    return Agreement(recorded, confirmed, frozenset(signed))


def confirm(game: Game, position: int, phone: str, version: int) -> None:
    """Another phone agrees to deal `position` as it stands (`version`: the game the
    phone saw; StaleVersion if it changed since)."""
    _check_version(game, version)
    state = agreement(game)
    if not game.confirm_deals or position not in state.pending(phone):
        raise CannotConfirm()
    db.session.add(Change(game_id=game.id, action="confirm", position=position, phone=phone))
    bump(game)
    _commit_or_stale()


def sign(game: Game, seat: int, phone: str, version: int) -> None:
    """The player of `seat` signs the finished game's result, from his phone."""
    _check_version(game, version)
    if not game.finished or not 0 <= seat < len(game.players):
        raise CannotConfirm()
    if seat in agreement(game).signed:
        return
    db.session.add(Change(game_id=game.id, action="sign", position=seat, phone=phone))
    bump(game)
    _commit_or_stale()


def rename(game: Game, seat: int, name: str, version: int) -> bool:
    """Give the player of `seat` another name (a typo, a substitute): every line and
    the sheet use it, the history keeps the old one. The engine checks the name.
    False when the name is the same; StaleVersion if the game changed since;
    InConcours for a concours table's game (its names are the director's: the
    ranking's and the draw's, `services.events.rename_player`)."""
    _check_version(game, version)
    if not 0 <= seat < len(game.players):
        raise LookupError(seat)
    if in_concours(game):
        raise InConcours()
    changed = rename_seat(game, seat, name)
    if changed:
        _commit_or_stale()
    return changed


def rename_seat(game: Game, seat: int, name: str) -> bool:
    """`rename`'s change, not committed: a concours's director renames a player in
    the event and in the games of the round in play, in one write."""
    players = list(game.players)
    before = players[seat]
    players[seat] = clean(name)
    if players[seat] == before:
        return False
    # Read in full, as a new game's names are: empty, too long, like another seat's…
    parsed = parse_record({**record_of(game), "players": players})  # RulesError
    standings = score_record(parsed)
    players = list(parsed.players)
    game.players = players
    db.session.add(
        Change(
            game_id=game.id,
            action="rename",
            position=seat,
            before={"name": before},
            after={"name": players[seat]},
        )
    )
    _touch(game, standings, parsed)
    return True


# --- the next game, a game removed (issue "the table at first sight", item 6) -------


def next_game(game: Game) -> Game | None:
    """The game started from this one with "Same table again", if any."""
    return db.session.scalar(select(Game).where(Game.next_of == game.id))


def again(game: Game) -> Game:
    """A new game at the same table: the same players in the same seats, house rules,
    stake, currency and place (and the same table, when it was played at one); the
    deal passes on, so whoever would deal next (after the last deal of this one)
    deals first.

    Once: a finished game has one next game (`Game.next_of`, unique), and asking
    again (a second tap, a second phone) gives that one. Two requests racing both
    try to insert; the database's unique constraint refuses the second (SQLite
    serializes writers, PostgreSQL makes the second insert wait for the first's
    commit, then refuses it), which then reads the winner's game. No lock to hold,
    nothing to clean up if a request dies halfway. The finished game gets a new
    version in the same commit, so that its pages (cached per version) show the
    link to the next game at once. Never for a concours table's game (InConcours):
    its table's next game is the next round's, drawn by the director."""
    if in_concours(game):
        raise InConcours()
    for _attempt in range(3):
        found = next_game(game)
        if found is not None:
            return found
        rotation = GAMES[game.game]
        dealer = rotation.dealer_of(game.first_dealer, len(game.deals) + 1, len(game.players))
        bump(game)
        try:
            return create(
                Settings(
                    game=game.game,
                    players=list(game.players),
                    first_dealer=dealer,
                    rules=dict(game.rules),
                    stake=game.stake,
                    currency=game.currency,
                    place=game.place,
                    stake_per=game.stake_per,
                    table_id=game.table_id,
                    confirm_deals=game.confirm_deals,
                    next_of=game.id,
                )
            )
        except (IntegrityError, StaleDataError):
            # Another request made the next game (or changed this one) first.
            db.session.rollback()
    found = next_game(game)
    if found is None:
        raise Busy()
    return found


class CannotRemove(Exception):
    """Only a game with no deal may be removed (a game played stays a game)."""


class InConcours(CannotRemove):
    """A concours table's game is never removed, renamed or followed by another
    game from its table's phones: its round would wait for it for good (a table's
    phone that removed its game stalled a round). Only the director changes it."""


def in_concours(game: Game) -> bool:
    """Whether the game is a concours table's (its round waits for it)."""
    found = db.session.scalar(select(EventTable.id).where(EventTable.game_id == game.id).limit(1))
    return found is not None


def remove(game: Game, version: int) -> None:
    """Remove a game that has no deal (started by mistake, or one too many): it
    leaves its table, its evening and its money. `version`: the state the player
    saw; StaleVersion if the game changed since (a deal recorded meanwhile makes
    the versioned DELETE match nothing: the deal wins), CannotRemove if it has deals."""
    if game.deals:
        raise CannotRemove()
    if in_concours(game):
        raise InConcours()
    _check_version(game, version)
    if game.next_of is not None:
        before = db.session.get(Game, game.next_of)
        if before is not None:
            bump(before)  # its pages offer "Same table again" anew
    db.session.execute(delete(Submission).where(Submission.game_id == game.id))
    # Remembered in the same write: a backup that still holds it knows it was removed.
    db.session.merge(RemovedGame(uid=game.uid, token=game.token, view_token=game.view_token))
    db.session.delete(game)
    _commit_or_stale()


def export(game: Game) -> dict[str, Any]:
    """The game's record, as `referee-game/1` JSON data, with its currency, place and day."""
    return dump_record(parse_record({**record_of(game), **details_of(game)}, stored=True))


def import_record(data: bytes, *, commit: bool = True) -> Game:
    """Create a new game from a record file (its currency, place and day kept); the
    engine refuses a bad one. `commit=False`: part of a larger write (a concours's
    import), committed by its caller."""
    record = load_record(data)
    standings = score_record(record)
    game = game_from_record(record, finished=standings.finished, version=len(record.deals))
    remember_outcome(game, record, standings)
    db.session.add(game)
    db.session.flush()
    db.session.add(Change(game_id=game.id, action="import", after=dump_record(record)))
    if commit:
        db.session.commit()
    return game


def export_json(game: Game) -> str:
    """The record file's text."""
    return json.dumps(export(game), ensure_ascii=False, indent=1)


def games_of(tokens: list[str]) -> list[Game]:
    """The games of these tokens: in progress first, then newest first."""
    if not tokens:
        return []
    games = db.session.scalars(select(Game).where(Game.token.in_(tokens))).all()
    return sorted(games, key=lambda g: (g.finished, -g.updated_at.timestamp()))


def started(games: list[Game]) -> set[int]:
    """The ids of those games that have a deal (the others are not started yet)."""
    ids = [g.id for g in games]
    if not ids:
        return set()
    return set(db.session.scalars(select(Deal.game_id).where(Deal.game_id.in_(ids)).distinct()))


def known_texts(
    key: str, flag: str, tokens: list[str], table_id: int | None, limit: int = 20
) -> list[str]:
    """What earlier games of kind `key` said in the house rule `flag` (a line of
    text: the game a table names), at this table and on this browser, most recent
    first, each once whatever its case: the new-game form's suggestions."""
    mine = Game.token.in_(tokens) if tokens else false()
    here = Game.table_id == table_id if table_id is not None else false()
    rows = db.session.scalars(
        select(Game.rules)
        .where(Game.game == key, or_(mine, here))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(200)
    )
    found: dict[str, str] = {}
    for rules in rows:
        text = rules.get(flag) if isinstance(rules, dict) else None
        if isinstance(text, str) and text:
            found.setdefault(text.casefold(), text)
    return list(found.values())[:limit]


def known_names(tokens: list[str], limit: int = 40) -> list[str]:
    """Names from this browser's earlier games, most recent first, for the new-game form.

    Only games this browser holds a link to: other tables' players stay private.
    """
    names: list[str] = []
    for players in (g.players for g in games_of(tokens)):
        for name in players:
            if name not in names:
                names.append(name)
    return names[:limit]
