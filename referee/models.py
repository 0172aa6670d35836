"""The database: games, the deals players entered, and the history of every change.

Models hold data, not rules: a deal is stored exactly as the record format writes it
(`referee-game/1` deal object), never as a score. Scores are derived by the engine.
"""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Date,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from referee.extensions import db

#: 18 random bytes: 144 bits, written in 24 URL-safe characters.
TOKEN_BYTES = 18


def new_token() -> str:
    """An unguessable token for a game's address."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_uid() -> str:
    """A game's lasting identity: it never changes, not even when its links do."""
    return secrets.token_hex(16)


def utcnow() -> datetime:
    """Now, in UTC (stored without a zone)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Table(db.Model):  # type: ignore[name-defined,misc]
    """A group of people who play together ("Tuesday club", "the cousins"): their
    games, evenings and statistics. Like a game, it has an editor's link and a
    spectator's link (no accounts). What it stores is what its players decided:
    its name, which names typed in its games are the same person (`aliases`:
    typed name -> the person's name), and who was named when it was made."""

    __tablename__ = "card_table"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True, index=True, default=new_uid)
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    name: Mapped[str] = mapped_column(String(80))
    aliases: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    #: The people named when the table was made, in the order given: the seats of
    #: its first game (after that, its games say who plays).
    people: Mapped[list[str]] = mapped_column(JSON, default=list, server_default="[]")
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    games: Mapped[list[Game]] = relationship(back_populates="table")

    __mapper_args__: ClassVar[dict[str, Any]] = {
        "version_id_col": version,
        "version_id_generator": False,
    }


class Game(db.Model):  # type: ignore[name-defined,misc]
    """One game at one table: who plays, under which rules, and for what stake."""

    __tablename__ = "game"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: The game itself, across link rotations, backups and restores (never shown).
    uid: Mapped[str] = mapped_column(String(32), unique=True, index=True, default=new_uid)
    #: The editor's link: whoever holds it may enter and correct deals.
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    #: The spectator's link: read-only, rotated separately.
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    game: Mapped[str] = mapped_column(String(20))
    players: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    stake: Mapped[str | None] = mapped_column(String(20), nullable=True)
    #: What the stake is paid for: "game" (each game's rulings) or "point" (the
    #: engine's `StakePer` values, as the record writes them).
    stake_per: Mapped[str] = mapped_column(String(8), default="game", server_default="game")
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    place: Mapped[str | None] = mapped_column(String(80), nullable=True)
    #: The day the game was played, when a record said so (else the day it was created).
    played_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    finished: Mapped[bool] = mapped_column(default=False)
    #: Every deal confirmed by a phone other than the one that recorded it (a house
    #: option of the app, not of the game's rules: off by default).
    confirm_deals: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: The table the game was played at, if any (a game may join one later).
    table_id: Mapped[int | None] = mapped_column(
        ForeignKey("card_table.id", ondelete="SET NULL"), nullable=True, index=True
    )
    #: The game this one follows at the same table ("Same table again"): unique, so
    #: that a finished game has one next game at most, however many phones tap at once
    #: (the database's unique index refuses the second, on SQLite as on PostgreSQL).
    next_of: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL"), nullable=True, unique=True, index=True
    )
    version: Mapped[int] = mapped_column(Integer, default=0)
    #: A memo, never the truth: the engine's outcome of the game (`engine.statistics.
    #: Outcome`) at `version`, stamped with the engine's fingerprint, so that a table's
    #: statistics need not replay every deal of its games. Used only while both stamps
    #: hold; otherwise derived again from the deals (services.games.outcome_of).
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    @property
    def day(self) -> date:
        """The day the game was played: as its record said, else the day it was created."""
        return self.played_on or self.created_at.date()

    deals: Mapped[list[Deal]] = relationship(
        back_populates="game_row", order_by="Deal.position", cascade="all, delete-orphan"
    )
    changes: Mapped[list[Change]] = relationship(
        back_populates="game_row", order_by="Change.id", cascade="all, delete-orphan"
    )
    table: Mapped[Table | None] = relationship(back_populates="games")

    # Optimistic locking: every write bumps `version` (services do it), and the
    # UPDATE only succeeds WHERE version is still what the writer read. Two phones
    # writing at once cannot both win; the loser sees StaleDataError and retries.
    __mapper_args__: ClassVar[dict[str, Any]] = {
        "version_id_col": version,
        "version_id_generator": False,
    }


class Deal(db.Model):  # type: ignore[name-defined,misc]
    """One deal as entered, at its place in the game (0-based)."""

    __tablename__ = "deal"
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game_row: Mapped[Game] = relationship(back_populates="deals")


#: What a change to a game can be (`Change.action`): the history's and the backups'
#: one list.
CHANGE_ACTIONS = (
    "create",
    "import",
    "add",
    "edit",
    "undo",
    "redo",
    "rename",
    "link-edit",
    "link-view",
    "table",
    "untable",
    "confirm",  # another phone agreed to deal `position`
    "sign",  # the player of seat `position` signed the result
)


class Change(db.Model):  # type: ignore[name-defined,misc]
    """A change to a game, kept for good: what was added, corrected or undone, and when."""

    __tablename__ = "change"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(10))  # one of CHANGE_ACTIONS
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)
    #: The phone that made the change (a random id in its session), when known.
    phone: Mapped[str | None] = mapped_column(String(32), nullable=True)

    game_row: Mapped[Game] = relationship(back_populates="changes")


class RemovedGame(db.Model):  # type: ignore[name-defined,misc]
    """A game its players removed (it had no deal): its identity and last links,
    so that a backup folder still holding it is not taken for a database that lost
    it. The next backup drops its files (docs/DEPLOY.md, "Backups")."""

    __tablename__ = "removed_game"

    uid: Mapped[str] = mapped_column(String(32), primary_key=True)
    token: Mapped[str] = mapped_column(String(64))
    view_token: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Submission(db.Model):  # type: ignore[name-defined,misc]
    """A form's one-time key: a retried or double-tapped post records its deal once.

    It belongs to its game, remembers the place of the deal it recorded, and is
    marked `undone` when that deal is taken back.
    """

    __tablename__ = "submission"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    undone: Mapped[bool] = mapped_column(default=False, server_default=false())
    at: Mapped[datetime] = mapped_column(default=utcnow)


class RateLimit(db.Model):  # type: ignore[name-defined,misc]
    """How many writes a client made in one time window (shared by every worker process)."""

    __tablename__ = "rate_limit"

    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    window: Mapped[int] = mapped_column(Integer, primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)


class Event(db.Model):  # type: ignore[name-defined,misc]
    """A club's concours: its rules, stated before the first round, and three links
    (no accounts): the director's (`token`: everything), the tables' (`play_token`,
    printed on the table cards: a table's game and its acceptance) and the public
    one (`view_token`: the ranking, the seating, the TV). What it stores is what the
    director and the tables decided; the ranking is derived (`referee.events`)."""

    __tablename__ = "event"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    uid: Mapped[str] = mapped_column(String(32), unique=True, index=True, default=new_uid)
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    play_token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(20))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: The draw's format (`referee.events.draw.Format`), table size and seed.
    format: Mapped[str] = mapped_column(String(12))
    table_size: Mapped[int] = mapped_column(Integer, default=4)
    seed: Mapped[int] = mapped_column(BigInteger, default=0)
    rounds_planned: Mapped[int] = mapped_column(Integer)
    #: A round's length: deals, or minutes (one of the two).
    length_deals: Mapped[int | None] = mapped_column(Integer, nullable=True)
    length_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    entry_fee: Mapped[str | None] = mapped_column(String(20), nullable=True)
    currency: Mapped[str] = mapped_column(String(3), default="EUR")
    #: The ranking rule as the event file writes it (`rule`, `places`, `tie_breaks`, `bye`).
    ranking: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    #: The prize rule (`referee.events.prizes`, as the event file writes it), or None.
    prizes: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    #: The event's language: its printed cards and sheets speak it.
    language: Mapped[str] = mapped_column(String(5), default="fr", server_default="fr")
    place: Mapped[str | None] = mapped_column(String(80), nullable=True)
    played_on: Mapped[date | None] = mapped_column(Date, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: The club's time zone (IANA name): every time is shown and printed in it.
    time_zone: Mapped[str] = mapped_column(
        String(40), default="Europe/Paris", server_default="Europe/Paris"
    )
    #: The director lets the phone that entered a table's deals accept its result
    #: (one phone a table); else an opponent accepts on another phone, or the
    #: director's PIN is typed.
    self_accept: Mapped[bool] = mapped_column(default=False, server_default=false())
    #: What the TV shows: its slides in turn and each one's seconds (None: all, 12 s).
    screen: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True), nullable=True)

    players: Mapped[list[EventPlayer]] = relationship(
        order_by="EventPlayer.number", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[EventRound]] = relationship(
        order_by="EventRound.number", cascade="all, delete-orphan"
    )
    tables: Mapped[list[EventTable]] = relationship(
        order_by="(EventTable.round, EventTable.number)", cascade="all, delete-orphan"
    )
    changes: Mapped[list[EventChange]] = relationship(
        order_by="EventChange.id", cascade="all, delete-orphan"
    )

    __mapper_args__: ClassVar[dict[str, Any]] = {
        "version_id_col": version,
        "version_id_generator": False,
    }


class EventPlayer(db.Model):  # type: ignore[name-defined,misc]
    """A player checked in: numbered from 1 in the order they came; playing from
    round `joined` to round `left` (None: to the end)."""

    __tablename__ = "event_player"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    joined: Mapped[int] = mapped_column(Integer, default=1)
    left: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: Rounds missed while in the event: between a withdrawal and its undoing.
    missed: Mapped[list[int]] = mapped_column(JSON, default=list, server_default="[]")
    #: The director marked the entry fee paid (it counts in the pot even unplayed).
    paid: Mapped[bool] = mapped_column(default=False, server_default=false())


class EventRound(db.Model):  # type: ignore[name-defined,misc]
    """A round as drawn: who sits out, and when its clock started (the one server
    clock every phone and the TV count down from)."""

    __tablename__ = "event_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    byes: Mapped[list[int]] = mapped_column(JSON, default=list)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)


class EventTable(db.Model):  # type: ignore[name-defined,misc]
    """A table of a round: its players in seat order, its game, and the result an
    opponent accepted (each seat's total, as accepted: what ranks)."""

    __tablename__ = "event_table"
    __table_args__ = (UniqueConstraint("event_id", "round", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    seats: Mapped[list[int]] = mapped_column(JSON)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="SET NULL"), nullable=True, index=True
    )
    accepted: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    #: Who accepted it (a player's name), or the director.
    accepted_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    #: The director is correcting it (the reason given): the game is being changed.
    correcting: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: The game's editors' token the table's phones had, until its result was
    #: accepted: that link now leads to the table's card.
    table_token: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: The director lets the table play on after the bell (a timed round).
    overtime: Mapped[bool] = mapped_column(default=False, server_default=false())

    game_row: Mapped[Game | None] = relationship()


#: What a change to an event can be (`EventChange.action`).
EVENT_ACTIONS = (
    "create",
    "import",
    "check-in",
    "withdraw",
    "rounds",
    "prizes",  # the entry fee and the prize rule stated or changed (before round 1)
    "draw",
    "accept",
    "correct",
    "apply",
    "cancel",  # a correction given up: the accepted result stayed
    "corrected",  # a correction the imported file's history told of
    "come-back",  # a withdrawal undone: the player is back from the next round
    "remove",  # a player taken off the list before the first round
    "removed",  # a removal undone (the player put back)
    "put-back",
    "rename",  # a player's name changed (a typo)
    "paid",  # a player's entry fee marked paid, or not
    "reopen",  # a table's game opened again by the director (same seats)
    "by-hand",  # a table's result entered by the director (its phone lost)
    "overtime",  # a table let play on after the bell
    "settings",  # who may accept, the TV's slides
    "slips",  # route slips printed with a draw (its code, each player's seats)
)


class EventChange(db.Model):  # type: ignore[name-defined,misc]
    """The event's history: who checked in, what was drawn, accepted, corrected and why."""

    __tablename__ = "event_change"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(12))  # one of EVENT_ACTIONS
    round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True)
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(default=utcnow)


class Season(db.Model):  # type: ignore[name-defined,misc]
    """A club's championship over several of its concours: the rule (points by
    place, the worst results dropped, the tie-breaks, as `referee.events.season`
    reads them) and two links, the organiser's (`token`) and the public one
    (`view_token`: names and results only). Its ranking is derived from its
    concours, every time."""

    __tablename__ = "season"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    view_token: Mapped[str] = mapped_column(String(64), unique=True, index=True, default=new_token)
    name: Mapped[str] = mapped_column(String(80))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    language: Mapped[str] = mapped_column(String(5), default="fr")
    #: Names merged by the director: a name as a concours wrote it -> the name it
    #: counts as ("Eric Lefevre" -> "Éric Lefèvre"); None: none merged.
    aliases: Mapped[dict[str, str] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    events: Mapped[list[SeasonEvent]] = relationship(
        cascade="all, delete-orphan", order_by="SeasonEvent.position"
    )


class SeasonEvent(db.Model):  # type: ignore[name-defined,misc]
    """A concours counted in a season, in the season's order."""

    __tablename__ = "season_event"
    __table_args__ = (UniqueConstraint("season_id", "event_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("season.id", ondelete="CASCADE"), index=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)

    event: Mapped[Event] = relationship()
