"""Tables: people who play together, their games, evenings, statistics and files.

A table stores its name and which typed names are the same person; everything
else is derived from its games every time they are shown (the engine's
`statistics` and `settle_evening`), so a corrected deal or a merged name changes
every figure at once.

An evening is the games of one day at the table (the day each game was played:
its record's date, else the day it was started), in the order they were started.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from sqlalchemy import Text, func, select, type_coerce, update
from sqlalchemy.orm import selectinload

import referee.services.games as game_service
from referee.engine.errors import check
from referee.engine.evening import Settlement, settle_evening
from referee.engine.names import clean
from referee.engine.records import dump_record, score_record
from referee.engine.statistics import (
    Outcome,
    Played,
    Statistics,
    fingerprint,
    outcome,
    seated,
    statistics,
)
from referee.engine.tables import (
    TableRecord,
    dump_table,
    load_table,
    merged,
    name_problems,
    people_of,
    people_problems,
    reading,
    split,
)
from referee.extensions import db
from referee.games import GAMES
from referee.lru import LRU
from referee.models import Change, Deal, Game, Table, new_token
from referee.services.games import StaleVersion, _commit_or_stale, scored


def create_table(name: str, people: Sequence[str] = ()) -> Table:
    """A new table, with the people who sit at its first game (blanks left out, in
    the order given); the engine checks the names (RulesError)."""
    check([*name_problems(name), *people_problems(people)])
    table = Table(name=clean(name), aliases={}, people=[clean(p) for p in people if p.strip()])
    db.session.add(table)
    db.session.commit()
    return table


def find_table(token: str) -> Table | None:
    """The table of this editor's token."""
    return db.session.scalar(select(Table).where(Table.token == token))


def find_table_view(view_token: str) -> Table | None:
    """The table of this spectator's token."""
    return db.session.scalar(select(Table).where(Table.view_token == view_token))


def tables_of(tokens: list[str]) -> list[Table]:
    """The tables of these tokens, newest first."""
    if not tokens:
        return []
    found = db.session.scalars(select(Table).where(Table.token.in_(tokens))).all()
    return sorted(found, key=lambda t: t.created_at, reverse=True)


def _check_version(table: Table, version: int) -> None:
    if version != table.version:
        raise StaleVersion()


def rename_table(table: Table, name: str, version: int) -> None:
    _check_version(table, version)
    check(name_problems(name))
    table.name = clean(name)
    table.version += 1
    for game in games_at(table, with_deals=False):
        game_service.bump(game)  # their pages name the table: shown again, renamed
    _commit_or_stale()


def rotate_table(table: Table, which: str) -> None:
    """A new editor or spectator link: whoever held the old one is cut off."""
    if which == "editor":
        table.token = new_token()
    else:
        table.view_token = new_token()
    table.version += 1
    _commit_or_stale()


def games_at(table: Table, with_deals: bool = True) -> list[Game]:
    """The table's games, in the order they were played (day, then start); their
    deals loaded too unless `with_deals` is False (see `deals_of`)."""
    query = select(Game).where(Game.table_id == table.id).order_by(Game.created_at, Game.id)
    if with_deals:
        query = query.options(selectinload(Game.deals))
    games = list(db.session.scalars(query).all())
    return sorted(games, key=lambda g: g.day)  # stable: the start orders a day's games


def deals_of(games: Sequence[Game]) -> dict[int, list[dict[str, Any]]]:
    """Every deal of these games, as entered, by game id and in order: read in one
    query as plain data (a table of 500 games holds 15,000 deals, which the ORM
    would build as objects for nothing: 4/5 of the statistics page's time)."""
    if not games:
        return {}
    # The column as stored: SQLite gives its text, decoded here in one parse (the
    # JSON type's processor, row by row, costs 5 times as much); psycopg decodes
    # JSON itself.
    query = (
        select(Deal.game_id, type_coerce(Deal.data, Text))
        .where(Deal.game_id.in_([g.id for g in games]))
        .order_by(Deal.game_id, Deal.position)
    )
    rows = db.session.execute(query).all()
    texts: list[Any] = [data for _, data in rows]
    if all(isinstance(text, str) for text in texts):
        texts = json.loads("[" + ",".join(texts) + "]")  # one parse for all of them
    found: dict[int, list[dict[str, Any]]] = {}
    for (game_id, _), data in zip(rows, texts, strict=True):
        found.setdefault(game_id, []).append(data)
    return found


def _seat(table: Table, game: Game, action: str) -> None:
    game_service.bump(game)
    table.version += 1
    db.session.add(Change(game_id=game.id, action=action, before=None, after={"table": table.uid}))
    _commit_or_stale()


def join(table: Table, game: Game) -> None:
    """The game was played at this table (it leaves any other)."""
    if game.table_id == table.id:
        return
    game.table_id = table.id
    _seat(table, game, "table")


def leave(table: Table, game: Game) -> None:
    """The game was not played at this table after all (it stays a game of its own)."""
    if game.table_id != table.id:
        return
    game.table_id = None
    _seat(table, game, "untable")


def people_at(table: Table) -> list[str]:
    """The table's people, as the new-game form suggests them (a name merged into
    another, or reading like another, suggested as the other)."""
    found: list[str] = []
    played = seatings(table)
    read = reading(table.aliases, played)
    for seats in played:
        found.extend(p for p in people_of(read, seats) if p not in found)
    found.extend(p for p in table.people if p not in found)
    return found


def last_seats(table: Table, game: str) -> list[str]:
    """The people to seat in a new game of type `game` at this table, in their seats:
    those of the table's last game of that type, else of its last game whose number
    of players that type takes, else the people named with the table (as many as the
    game seats), else nobody. Named as the table reads them (a merged
    spelling as its person), so that the new game's names are the table's people."""
    counts = GAMES[game].player_counts if game in GAMES else ()
    query = (
        select(Game.game, Game.players)
        .where(Game.table_id == table.id)
        .order_by(Game.created_at.desc(), Game.id.desc())
    )
    fitting: list[str] | None = None
    chosen: list[str] | None = None
    for kind, players in db.session.execute(query).all():
        if kind == game:
            chosen = list(players)
            break
        if fitting is None and len(players) in counts:
            fitting = list(players)
    chosen = chosen if chosen is not None else fitting
    if chosen is None and counts:  # no game fits yet: the people named with the table
        return list(table.people[: max(counts)])
    if not chosen:
        return []
    return list(people_of(reading(table.aliases, seatings(table)), chosen))


def current_game(table: Table) -> Game | None:
    """The game a table's TV shows: of the games of the day of the table's latest
    game, the one where something last happened (a deal recorded, corrected or taken
    back, or the game started). Two games open at once (a next game made early, an
    old one finished late): the TV follows the phones, not the newest game; a
    finished game stays up until another one moves. None: no game yet."""
    query = (
        select(Game)
        .where(Game.table_id == table.id)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(20)
    )
    recent = list(db.session.scalars(query).all())
    if not recent:
        return None
    day = recent[0].day
    return max((g for g in recent if g.day == day), key=lambda g: (g.updated_at, g.id))


def tv_state(table: Table) -> str:
    """A word that changes whenever the table's TV would show something else: a
    game started, removed or changed (any deal of the evening moves the money), or
    the table renamed or its names merged. The TV page polls it (`version.json`)."""
    query = select(func.count(Game.id), func.coalesce(func.sum(Game.version), 0), func.max(Game.id))
    count, versions, last = db.session.execute(query.where(Game.table_id == table.id)).one()
    return f"{table.version}-{count}-{versions}-{last or 0}"


def seatings(table: Table) -> list[tuple[str, ...]]:
    """The names typed in each of the table's games, in the order they were started
    (for merging names, and reading the names that read the same as the first)."""
    query = select(Game.players).where(Game.table_id == table.id).order_by(Game.created_at, Game.id)
    return [tuple(players) for players in db.session.scalars(query).all()]


def merge(table: Table, name: str, into: str, version: int) -> None:
    """`name` and `into` are the same person (RulesError if they cannot be)."""
    _check_version(table, version)
    table.aliases = merged(table.aliases, seatings(table), name, into)
    table.version += 1
    _commit_or_stale()


def unmerge(table: Table, name: str, version: int) -> None:
    """The typed `name` is its own person again."""
    _check_version(table, version)
    table.aliases = split(table.aliases, name)
    table.version += 1
    _commit_or_stale()


@dataclass(frozen=True)
class TableGame:
    """One of the table's games, with its outcome and the person in each seat."""

    game: Game
    played: Played

    @property
    def outcome(self) -> Outcome:
        return self.played.outcome

    @property
    def winners(self) -> tuple[str, ...]:
        """The people who won (none while the game goes on)."""
        return tuple(self.played.people[seat] for seat in self.outcome.winners)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who scores together, seat by seat (`Played.sides`)."""
        return self.played.sides


@dataclass(frozen=True)
class Evening:
    """The games of one day at the table, and their one settlement per currency."""

    day: datetime.date
    games: tuple[TableGame, ...]
    settlements: tuple[Settlement, ...]

    @property
    def key(self) -> str:
        return self.day.isoformat()

    @property
    def people(self) -> list[str]:
        """Everyone who played that evening, in the order they first sat down."""
        seen: list[str] = []
        for game in self.games:
            seen.extend(p for p in game.played.people if p not in seen)
        return seen

    def money_games(self, settlement: Settlement) -> list[TableGame]:
        """The games played for money in the settlement's currency, in order."""
        return [
            g
            for g in self.games
            if g.outcome.money is not None and g.game.currency == settlement.currency
        ]

    def ledger(self, settlement: Settlement) -> list[tuple[str, list[Decimal | None], Decimal]]:
        """Each person's money game by game (None: not at that game) and in all: the
        sum a player checks by hand against the settlement."""
        games = self.money_games(settlement)
        rows = []
        for person, total in zip(settlement.people, settlement.net, strict=True):
            amounts: list[Decimal | None] = []
            for g in games:
                money = g.outcome.money
                assert money is not None
                seats = [s for s, p in enumerate(g.played.people) if p == person]
                amounts.append(money.net[seats[0]] if seats else None)
            rows.append((person, amounts, total))
        return rows


def table_games(table: Table, games: Sequence[Game] | None = None) -> list[TableGame]:
    """The table's games (or these of them) with their outcomes: each game's memo
    where it holds (`Game.outcome`), else derived from its deals, in one query for
    all of them, and the memo kept for next time."""
    games = games_at(table, with_deals=False) if games is None else games
    read = reading(table.aliases, seatings(table))  # names that read the same: one person
    outcomes = {g.id: game_service.current_outcome(g) for g in games}
    stale = [g for g in games if outcomes[g.id] is None]
    deals = deals_of(stale)
    for game in stale:
        done = scored(game, deals.get(game.id, []))
        outcomes[game.id] = outcome(done.record, done.standings)
    if stale:
        _keep_outcomes(stale, outcomes)
    return [
        TableGame(
            game,
            seated(found, people_of(read, game.players), game.day, game.currency),
        )
        for game in games
        if (found := outcomes[game.id]) is not None
    ]


def _keep_outcomes(games: Sequence[Game], outcomes: dict[int, Outcome | None]) -> None:
    """Write the memos just derived, each only if its game did not change meanwhile
    (a plain UPDATE guarded by the version read: no version bump, no lost write)."""
    table = Game.__table__
    engine = fingerprint()
    for game in games:
        found = outcomes[game.id]
        if found is None:
            continue
        memo = {"engine": engine, "version": game.version, "outcome": found.dump()}
        db.session.execute(
            update(table)
            .where(table.c.id == game.id, table.c.version == game.version)
            .values(outcome=memo)
        )
    db.session.commit()


def evenings(games: Sequence[TableGame]) -> list[Evening]:
    """The evenings, newest first."""
    days: dict[datetime.date, list[TableGame]] = {}
    for game in games:
        days.setdefault(game.game.day, []).append(game)
    return [
        Evening(day, tuple(of_day), settle_evening([g.played.sitting for g in of_day]))
        for day, of_day in sorted(days.items(), reverse=True)
    ]


def evening_of(table: Table, day: str) -> Evening | None:
    """The evening of this day (ISO date), if the table played then."""
    of_day = [g for g in games_at(table, with_deals=False) if g.day.isoformat() == day]
    found = evenings(table_games(table, of_day))
    return found[0] if found else None


#: Statistics by table and state (its version and its games' versions): shown
#: again without a replay until a deal, a name or a game changes.
_STATISTICS: LRU[Statistics] = LRU(64)


def statistics_of(table: Table) -> Statistics:
    """The table's statistics, derived from its games (once per state of them)."""
    query = select(Game.id, Game.version).where(Game.table_id == table.id).order_by(Game.id)
    state = tuple(db.session.execute(query).all())
    # By the table's lasting identity (uid, never reused, unlike an id across databases).
    key = json.dumps([table.uid, table.version, [list(row) for row in state]]).encode()
    return _STATISTICS.get_or_make(key, lambda: statistics([g.played for g in table_games(table)]))


# --- files -------------------------------------------------------------------------


def export_table(table: Table) -> dict[str, Any]:
    """The table as a `referee-table/1` file's data: its games' records in full."""
    return dump_table(
        table.name,
        table.aliases,
        [game_service.export(game) for game in games_at(table)],
        table.people or (),
    )


def export_table_json(table: Table) -> str:
    return json.dumps(export_table(table), ensure_ascii=False, indent=1)


def import_table(data: bytes) -> Table:
    """A new table from a table file, with a new game for each of its games (new
    links: a file is a copy, never the original's keys). RulesError if anything in
    the file cannot be (nothing is then created)."""
    parsed: TableRecord = load_table(data)
    table = Table(name=parsed.name, aliases=dict(parsed.aliases), people=list(parsed.people))
    db.session.add(table)
    db.session.flush()
    for record in parsed.games:
        standings = score_record(record)
        game = game_service.game_from_record(
            record, finished=standings.finished, version=len(record.deals), table_id=table.id
        )
        game_service.remember_outcome(game, record, standings)
        db.session.add(game)
        db.session.flush()
        db.session.add(Change(game_id=game.id, action="import", after=dump_record(record)))
    db.session.commit()
    return table


#: The deals CSV's columns that say what each deal was, filled by each game's own
#: reading of its deals (`DealColumns`): "taker" and "partner" are seats, written
#: as the person in that seat.
DEAL_COLUMNS = ("taker", "partner", "bid", "contract")
_SEAT_COLUMNS = frozenset({"taker", "partner"})

#: How a game (by its key) reads a stored deal into `DEAL_COLUMNS` (the web side's
#: game homes know it: `Home.csv_columns`); none: only the points.
DealColumns = Callable[[str, Mapping[str, Any]], Mapping[str, Any]]


def deals_csv(games: Sequence[TableGame], columns: DealColumns | None = None) -> str:
    """Every deal of the table's games, one line per deal and seat (a spreadsheet's
    long format): game, its kind, what the table called it (a game that takes any
    name: "Rami"; else empty), its day, deal, seat, person, points, total, then
    what the deal was (`DEAL_COLUMNS`: taker, partner, bid, contract, repeated on
    each of its lines so that any line filters alone)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "game",
            "kind",
            "name",
            "day",
            "deal",
            "seat",
            "person",
            "points",
            "total",
            *DEAL_COLUMNS,
        ]
    )
    deals = deals_of([g.game for g in games])
    for number, game in enumerate(games, start=1):
        people = game.played.people
        totals = [0] * len(people)
        entered = deals.get(game.game.id, [])
        done = scored(game.game, entered)
        standings = done.standings
        title = GAMES[game.game.game].title_under(done.record.rules)
        for deal_number, deal in enumerate(standings.deals, start=1):
            said = columns(game.game.game, entered[deal_number - 1]) if columns else {}
            what = []
            for name in DEAL_COLUMNS:
                value = said.get(name)
                if name in _SEAT_COLUMNS and isinstance(value, int) and 0 <= value < len(people):
                    value = people[value]
                what.append("" if value is None else value)
            for seat, delta in enumerate(deal.deltas):
                totals[seat] += delta
                writer.writerow(
                    [
                        number,
                        game.game.game,
                        title,
                        game.game.day.isoformat(),
                        deal_number,
                        seat + 1,
                        people[seat],
                        delta,
                        totals[seat],
                        *what,
                    ]
                )
    return out.getvalue()


def statistics_csv(stats: Statistics) -> str:
    """The statistics, one line per person: games, wins, money per currency, and
    each game type's figures (averages as decimals), a type named by its kind and,
    where the table named it, that name ("<kind>:Rami:deals")."""
    currencies = [trend.currency for trend in stats.money]
    columns: list[tuple[str, int, int]] = []
    for number, kind in enumerate(stats.figures):
        named = f"{kind.game}:{kind.title}" if kind.title else kind.game
        columns.extend(
            (f"{named}:{figure.key}", number, index) for index, figure in enumerate(kind.figures)
        )
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "person",
            "games",
            "finished",
            "wins",
            *(f"money:{c}" for c in currencies),
            *(name for name, _, _ in columns),
        ]
    )
    rows = [{row.person: row for row in kind.rows} for kind in stats.figures]
    for line in stats.people:
        money = dict(line.money)
        figures: list[object] = []
        for _name, number, index in columns:
            row = rows[number].get(line.person)
            value = None if row is None else row.values[index]
            figures.append(
                "" if value is None else value if isinstance(value, int) else f"{float(value):.2f}"
            )
        writer.writerow(
            [
                line.person,
                line.games,
                line.finished,
                line.wins,
                *(money.get(c, "") for c in currencies),
                *figures,
            ]
        )
    return out.getvalue()
