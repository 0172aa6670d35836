"""Backups: every game as a record file, and back again without duplicates.

`DIR/<token>.json` is the game's record (`referee-game/1`, readable by `referee
score`); `DIR/<token>.meta.json` keeps what a record does not hold: the game's
lasting identity, the spectator link, dates and the history of changes;
`DIR/manifest.json` lists the games of the last backup, which is what a restore
loads; `DIR/tables.json` holds the tables (their links, names and merged names),
and each game's meta names its table by the table's lasting identity.

A backup reads every game in one snapshot of the database (so a game's deals and
its history always agree, even while people play) and never changes the schema.
It never destroys a good copy: it writes the whole new backup into `DIR/.partial/`
first and reads every file back; only then does it move the files into place
(the manifest last: until then a restore reads the previous backup) and remove
the files of links that no longer exist (a rotated editor link). It refuses to
replace a backup holding games the database does not have (an empty database, a
wrong `--data`: games are never deleted here) unless told to (`replace=True`).

Concours and seasons are backed up beside the games, in the same snapshot
(`services.backup_club`: `event.<uid>.json`, `seasons.json`), and restored after
them, every link the same. A game its players removed (it had no deal) is
remembered (`RemovedGame`): the next backup drops its files instead of refusing to
replace a backup that holds it.

A restore checks every file first, restores every whole game, names each file it
skipped and why, and skips a game that is already there, under any of its links: a
revoked link never comes back. A game without its `.meta.json` would come back
only in part (a new spectator link, no table, no history): it is named, and
restored only when asked (`partial=True`). A damaged manifest does not hide the
games: their record files are read instead.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final, NamedTuple

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

import referee.services.backup_club as club
from referee.engine.catalog import N_, translate
from referee.engine.errors import RulesError
from referee.engine.game import Record
from referee.engine.records import MAX_RECORD_BYTES, decode_json, load_record, score_record
from referee.engine.tables import name_problems, people_problems
from referee.extensions import db
from referee.models import (
    CHANGE_ACTIONS,
    TOKEN_BYTES,
    Change,
    Event,
    Game,
    RemovedGame,
    Season,
    Table,
)
from referee.services.games import export, game_from_record

MANIFEST: Final = "manifest.json"
#: Where a backup is written and read back before it replaces the previous one.
PARTIAL: Final = ".partial"
#: The most a manifest, a meta or the tables' file may hold (a record: its own limit).
MAX_FILE_BYTES: Final = 16 * 1024 * 1024
#: Nesting a backup's own files never exceed (a meta's change holds a deal).
MAX_FILE_DEPTH: Final = 16
TABLES: Final = "tables.json"
BACKUP_FORMAT: Final = "referee-backup/1"
TABLES_FORMAT: Final = "referee-backup-tables/1"
#: A link token as the app issues them (`secrets.token_urlsafe(18)`): 24 characters.
TOKEN: Final = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_BYTES * 4 // 3}}}", re.ASCII)
_UID: Final = re.compile(r"[0-9a-f]{32}", re.ASCII)
_FILE: Final = re.compile(r"(?P<token>[A-Za-z0-9_-]+)(?P<meta>\.meta)?\.json", re.ASCII)
_ACTIONS: Final = frozenset(CHANGE_ACTIONS)

#: Why a file was not restored (message ids of the catalogue).
REASONS: Final[dict[str, str]] = {
    "not_token": N_("its name is not a game link of this app"),
    "missing": N_("the file is missing"),
    "unreadable": N_("the file cannot be read: {detail}"),
    "record": N_("the game is refused: {detail}"),
    "meta": N_("its .meta.json file is damaged: {detail} (--partial restores the game without it)"),
    "manifest": N_(
        "the manifest is damaged ({detail}): the game files of the folder are read instead"
    ),
    "conflict": N_("a game of the database already uses one of its links"),
    "tables": N_("the tables' file is damaged: {detail}"),
    "no_meta": N_(
        "its .meta.json file is missing: the game would come back without its spectator "
        "link, its table, its history of changes and its dates; not restored (--partial "
        "restores it so)"
    ),
    "partial": N_(
        "restored without its .meta.json file: a new spectator link, no table, no history "
        "of changes, today's date"
    ),
    "event": N_("the concours's file is damaged: {detail}"),
    "event_refused": N_("the concours is refused: {detail}"),
    "event_conflict": N_("a concours of the database already uses one of its links"),
    "event_games": N_(
        "restored, but the games of some of its tables are not in the backup ({detail}): "
        "those tables come back without their game; restore the backup that holds them"
    ),
    "seasons": N_("the seasons' file is damaged: {detail}"),
    "no_table": N_(
        "the game's table is in neither the backup nor the database: the game is restored "
        "without its table"
    ),
    "season_conflict": N_("a season of the database already uses one of its links"),
    "season_events": N_("season {detail}: restored without the concours the backup does not hold"),
}
#: Why a backup's own file (manifest, tables, meta) is damaged.
_NOT_FORMAT: Final = N_("it is not a file of a Referee backup")
_NOT_VALID: Final = N_("{key} is not valid")
_NOT_JSON: Final = N_("it cannot be read: damaged or cut short")
_TOO_LARGE: Final = N_("it is larger than {high} MB: no backup writes one so large")
_TABLE_NOT_VALID: Final = N_("table {n} is not valid")


@dataclass(frozen=True)
class Skipped:
    """A file that was not restored, and why (a `REASONS` code and its detail)."""

    name: str
    reason: str
    detail: str = ""

    def message(self, lang: str = "en") -> str:
        """`name: reason`, in the given language."""
        text = translate(lang, REASONS[self.reason]).format(detail=self.detail)
        return f"{self.name}: {text}"


class Written(NamedTuple):
    """What a backup wrote: games, the games it could not write (the engine refuses
    them as they are stored), concours and seasons."""

    games: int
    failed: list[Skipped]
    events: int = 0
    seasons: int = 0


@dataclass
class Report:
    """What a restore did: games, concours and seasons restored or already there,
    files skipped."""

    restored: int = 0
    present: int = 0
    events: int = 0
    events_present: int = 0
    seasons: int = 0
    seasons_present: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    #: Games restored without their meta file (asked for), and what they lost.
    partial: list[Skipped] = field(default_factory=list)


class BadMeta(ValueError):
    """A `.meta.json` file that does not hold what a backup writes."""


class WouldLose(Exception):
    """The backup would replace one holding games (or concours, seasons, tables: `club`)
    the database does not have."""

    def __init__(self, missing: int, previous: int, current: int, club: int = 0) -> None:
        super().__init__(f"{missing} of the {previous} games of the folder are not in the database")
        self.missing, self.previous, self.current = missing, previous, current
        self.club = club


def _read_capped(path: Path, limit: int) -> bytes:
    """At most `limit` + 1 bytes of `path`: a file too large is refused by its reader,
    never read whole."""
    with path.open("rb") as handle:
        return handle.read(limit + 1)


def _read_own(path: Path, lang: str) -> object:
    """One of the backup's own JSON files, bounded in size and depth; ValueError with
    what is wrong, in `lang`."""
    try:
        return decode_json(_read_capped(path, MAX_FILE_BYTES), MAX_FILE_BYTES, MAX_FILE_DEPTH)
    except RulesError as error:
        large = any(p.code == "too_large" for p in error.problems)
        why = translate(lang, _TOO_LARGE if large else _NOT_JSON)
        raise ValueError(why.format(high=MAX_FILE_BYTES // 1024**2)) from None


# --- backup ---------------------------------------------------------------------------


@contextmanager
def snapshot() -> Iterator[None]:
    """Read the database in one consistent snapshot until the block ends.

    PostgreSQL: a REPEATABLE READ transaction. SQLite: an explicit BEGIN, so that
    every SELECT reads the same state of the write-ahead log (the driver would
    otherwise run each one on its own).
    """
    db.session.rollback()
    if db.engine.dialect.name == "sqlite":
        db.session.connection().exec_driver_sql("BEGIN")
    else:
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    try:
        yield
    finally:
        db.session.rollback()


def _when(value: datetime) -> str:
    return value.isoformat()


def _meta(game: Game) -> dict[str, Any]:
    return {
        "uid": game.uid,
        "table": game.table.uid if game.table is not None else None,
        "confirm_deals": game.confirm_deals,
        "view_token": game.view_token,
        "version": game.version,
        "created_at": _when(game.created_at),
        "updated_at": _when(game.updated_at),
        "changes": [
            {
                "action": c.action,
                "position": c.position,
                "before": c.before,
                "after": c.after,
                "at": _when(c.at),
                "phone": c.phone,
            }
            for c in game.changes
        ],
    }


def _table_meta(table: Table) -> dict[str, Any]:
    return {
        "uid": table.uid,
        "token": table.token,
        "view_token": table.view_token,
        "name": table.name,
        "aliases": dict(table.aliases),
        "people": list(table.people or []),
        "version": table.version,
        "created_at": _when(table.created_at),
    }


def _read_tables(folder: Path, skipped: list[Skipped], lang: str) -> list[dict[str, Any]]:
    """The tables of the backup, each checked (none when the file is absent: a
    backup made before tables)."""
    path = folder / TABLES
    if not path.exists():
        return []
    try:
        data = _read_own(path, lang)
        if not isinstance(data, dict) or data.get("format") != TABLES_FORMAT:
            raise ValueError(translate(lang, _NOT_FORMAT))
        tables = data.get("tables")
        if not isinstance(tables, list):
            raise ValueError(translate(lang, _NOT_FORMAT))
    except OSError as error:
        skipped.append(Skipped(TABLES, "tables", error.strerror or _detail(error)))
        return []
    except ValueError as error:
        skipped.append(Skipped(TABLES, "tables", str(error)))
        return []
    good = []
    for number, table in enumerate(tables, start=1):
        if _is_table(table):
            good.append(table)
        else:
            detail = translate(lang, _TABLE_NOT_VALID).format(n=number)
            skipped.append(Skipped(TABLES, "tables", detail))
    return good


def _is_table(table: object) -> bool:
    if not isinstance(table, dict):
        return False
    aliases = table.get("aliases")
    return bool(
        isinstance(table.get("uid"), str)
        and _UID.fullmatch(table["uid"])
        and all(
            isinstance(table.get(k), str) and TOKEN.fullmatch(table[k])
            for k in ("token", "view_token")
        )
        and not name_problems(table.get("name"))
        and isinstance(aliases, dict)
        and all(not name_problems(k) and not name_problems(v) for k, v in aliases.items())
        and _are_people(table.get("people", []))
        and type(table.get("version")) is int
        and 0 <= table["version"] < 2**31
        and club.is_time(table.get("created_at"))
    )


def _are_people(people: object) -> bool:
    """A table's people as a backup holds them (absent in a backup made before them)."""
    return (
        isinstance(people, list)
        and all(isinstance(name, str) and name.strip() for name in people)
        and not people_problems(people)
    )


def _restore_tables(tables: list[dict[str, Any]], skipped: list[Skipped]) -> dict[str, int]:
    """Put back the tables not in the database yet; every table's id by its uid."""
    ids: dict[str, int] = {}
    for meta in tables:
        found = db.session.scalar(select(Table.id).where(Table.uid == meta["uid"]))
        if found is None:
            table = Table(
                uid=meta["uid"],
                token=meta["token"],
                view_token=meta["view_token"],
                name=meta["name"].strip(),
                aliases=dict(meta["aliases"]),
                people=[str(name).strip() for name in meta.get("people", [])],
                version=meta["version"],
                created_at=datetime.fromisoformat(meta["created_at"]),
            )
            db.session.add(table)
            try:
                db.session.commit()
            except IntegrityError:  # one of its links is another table's now
                db.session.rollback()
                skipped.append(Skipped(TABLES, "conflict"))
                continue
            found = table.id
        ids[meta["uid"]] = found
    return ids


def _json(data: object, sort_keys: bool = True) -> bytes:
    # ASCII escapes: any text the database holds can be written, and read back.
    # A concours's rows keep their own order (its rules are exported as stored).
    text = json.dumps(data, ensure_ascii=True, indent=1, sort_keys=sort_keys)
    return (text + "\n").encode("ascii")


def _sync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def backup(folder: Path, lang: str = "en", replace: bool = False) -> Written:
    """Write every game, concours and season to `folder`, as they stand at one moment
    (`Written`: how many, and the games that could not be written).

    The previous backup of the folder stays whole until the new one is written and
    read back (module docstring). `WouldLose` when the folder holds games the
    database does not have, unless `replace`: nothing is written then. Files of
    games that are not in this backup (a rotated editor link) are removed; other
    files of the folder are left alone.
    """
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    staging = folder / PARTIAL
    shutil.rmtree(staging, ignore_errors=True)  # what an interrupted backup left
    documents: list[tuple[str, bytes, bytes]] = []
    files_of_events: dict[str, bytes] = {}
    failed: list[Skipped] = []
    held: set[str] = set()  # every identity of every game of the database
    with snapshot():
        query = (
            select(Game)
            .options(selectinload(Game.deals), selectinload(Game.changes), selectinload(Game.table))
            .order_by(Game.id)
        )
        game_uids: dict[int, str] = {}
        for game in db.session.scalars(query):
            held.update((game.uid, game.token, game.view_token))
            game_uids[game.id] = game.uid
            try:
                record = export(game)
            except RulesError as error:
                detail = "; ".join(error.messages(lang))
                failed.append(Skipped(f"{game.token}.json", "record", detail))
                continue
            documents.append((game.token, _json(record), _json(_meta(game))))
        tables = [_table_meta(t) for t in db.session.scalars(select(Table).order_by(Table.id))]
        # Removed by their players: not lost, so not missing (their files are dropped).
        for removed in db.session.scalars(select(RemovedGame)):
            held.update((removed.uid, removed.token, removed.view_token))
        events = (
            select(Event)
            .order_by(Event.id)
            .options(
                selectinload(Event.players),
                selectinload(Event.rounds),
                selectinload(Event.tables),
                selectinload(Event.changes),
            )
        )
        event_uids: dict[int, str] = {}
        for event in db.session.scalars(events):
            event_uids[event.id] = event.uid
            document = club.event_document(event, game_uids)
            files_of_events[club.event_file_name(event.uid)] = _json(document, sort_keys=False)
        seasons = list(
            db.session.scalars(
                select(Season).order_by(Season.id).options(selectinload(Season.events))
            )
        )
        seasons_text = _json(club.seasons_document(seasons, event_uids), sort_keys=False)
    previous = _record_files(folder)
    missing = sum(1 for token in previous if not _held(folder, token, held))
    # Concours, seasons and tables are never removed: the folder's that the database
    # lacks say it is the wrong one (or an emptied one), as games do.
    lacking = sum(1 for uid in _event_files(folder) if uid not in event_uids.values())
    lacking += len(_held_before(folder, SEASONS_KEY) - {s.token for s in seasons})
    lacking += len(_held_before(folder, TABLES_KEY) - {t["uid"] for t in tables})
    if (missing or lacking) and not replace:
        raise WouldLose(missing, len(previous), len(documents), lacking)
    tokens = [token for token, _record, _meta_text in documents]
    manifest = {
        "format": BACKUP_FORMAT,
        "taken_at": _when(datetime.now()),
        "games": tokens,
        "events": sorted(event_uids.values()),
        SEASONS_KEY: sorted(s.token for s in seasons),
        TABLES_KEY: sorted(t["uid"] for t in tables),
    }
    files = {TABLES: _json({"format": TABLES_FORMAT, "tables": tables})}
    files.update(files_of_events)
    files[club.SEASONS] = seasons_text
    for token, record_text, meta_text in documents:
        files[f"{token}.json"] = record_text
        files[f"{token}.meta.json"] = meta_text
    files[MANIFEST] = _json(manifest)  # last: it switches a restore to this backup
    staging.mkdir(mode=0o700)
    try:
        for name, data in files.items():
            _write_synced(staging / name, data)
        _sync_folder(staging)
        _read_back(staging, files)
        for name in files:  # each replace is atomic; the manifest comes last
            os.replace(staging / name, folder / name)
        _sync_folder(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    kept = set(tokens)
    for path in folder.iterdir():
        found = _FILE.fullmatch(path.name)
        if found and TOKEN.fullmatch(found["token"]) and found["token"] not in kept:
            path.unlink()
        elif club.EVENT_FILE.fullmatch(path.name) and path.name not in files:
            path.unlink()  # a concours the database no longer has (asked: `replace`)
    _sync_folder(folder)
    return Written(len(documents), failed, len(files_of_events), len(seasons))


def _write_synced(path: Path, data: bytes) -> None:
    """A new file, readable by its owner only (its name and content are game links)."""
    with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())


def _read_back(staging: Path, files: dict[str, bytes]) -> None:
    """Check the staged backup as a restore will read it: every file as written,
    every record a game the engine scores. OSError (EIO) when one is not."""
    for name, data in files.items():
        if _read_capped(staging / name, len(data)) != data:
            raise OSError(errno.EIO, os.strerror(errno.EIO), str(staging / name))
        if (
            name.endswith(".json")
            and not name.endswith(".meta.json")
            and TOKEN.fullmatch(name[:-5])
        ):
            score_record(load_record(data, stored=True))


def _held(folder: Path, token: str, held: set[str]) -> bool:
    """Whether the database holds the folder's game `token`: by its link, else (a
    rotated link) by the lasting identity or spectator link its meta file names.
    Every record file of the folder counts, whatever its manifest says: a manifest
    cut short must not let a backup remove the games it forgot."""
    if token in held:
        return True  # the usual case: no meta file read
    try:
        meta = _read_meta(folder / f"{token}.meta.json", "en")
    except (BadMeta, OSError):
        return False
    return any(str(meta.get(k)) in held for k in ("uid", "view_token") if meta.get(k))


#: The manifest's lists of the seasons (their links) and tables (their identities):
#: a folder whose seasons' or tables' file went missing still says what it held.
SEASONS_KEY: Final = "seasons"
TABLES_KEY: Final = "tables"


def _held_before(folder: Path, key: str) -> set[str]:
    """The seasons or tables (`key`) the folder's backup held: its files', and its
    manifest's (a file gone missing does not hide them)."""
    found: set[str] = set()
    try:
        manifest = _read_own(folder / MANIFEST, "en")
        listed = manifest.get(key) if isinstance(manifest, dict) else None
        found |= {x for x in listed if isinstance(x, str)} if isinstance(listed, list) else set()
    except (OSError, ValueError):
        pass  # no manifest, or a damaged one: the files alone
    name, inner, field = (
        (club.SEASONS, "seasons", "token") if key == SEASONS_KEY else (TABLES, "tables", "uid")
    )
    try:
        data = _read_own(folder / name, "en")
    except (OSError, ValueError):
        return found
    items = data.get(inner) if isinstance(data, dict) else None
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and isinstance(item.get(field), str):
            found.add(item[field])
    return {x for x in found if isinstance(x, str)}


def _listed(folder: Path, key: str) -> bool:
    """Whether the folder's manifest lists seasons or tables (`key`)."""
    try:
        manifest = _read_own(folder / MANIFEST, "en")
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and bool(manifest.get(key))


def _table_there(uid: str) -> bool:
    return db.session.scalar(select(Table.id).where(Table.uid == uid)) is not None


def _event_files(folder: Path) -> list[str]:
    """The identities of the concours files in `folder`, sorted."""
    found = (club.EVENT_FILE.fullmatch(p.name) for p in folder.glob("event.*.json"))
    return sorted(m["uid"] for m in found if m)


def _record_files(folder: Path) -> list[str]:
    """The game links of the record files in `folder` (`TOKEN.json`), sorted."""
    return sorted(p.stem for p in folder.glob("*.json") if TOKEN.fullmatch(p.stem))


# --- restore --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    token: str
    record: Record[Any, Any]
    finished: bool
    meta: dict[str, Any]


def _tokens(folder: Path, skipped: list[Skipped], lang: str) -> list[str]:
    """The games to restore: the manifest's and every record file of the folder (no
    manifest, or a damaged one, said in `skipped`: the record files alone)."""
    manifest = folder / MANIFEST
    if manifest.exists():
        try:
            data = _read_own(manifest, lang)
            tokens = data.get("games") if isinstance(data, dict) else None
            if not isinstance(data, dict) or data.get("format") != BACKUP_FORMAT:
                raise ValueError(translate(lang, _NOT_FORMAT))
            if not isinstance(tokens, list):
                raise ValueError(translate(lang, _NOT_VALID).format(key="games"))
        except OSError as error:
            skipped.append(Skipped(MANIFEST, "manifest", error.strerror or _detail(error)))
        except ValueError as error:
            skipped.append(Skipped(MANIFEST, "manifest", str(error)))
        else:
            good: dict[str, None] = {}  # each once, however often listed
            for token in tokens:
                if isinstance(token, str) and TOKEN.fullmatch(token):
                    good[token] = None
                elif len(skipped) < 100:
                    shown = token if isinstance(token, str) else json.dumps(token)
                    skipped.append(Skipped(f"{shown[:40]}.json", "not_token"))
            # A record file the manifest forgot is restored too: nothing is hidden.
            good.update(dict.fromkeys(_record_files(folder)))
            return list(good)
    tokens = []
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".meta.json") or path.name in (TABLES, MANIFEST, club.SEASONS):
            continue
        if club.EVENT_FILE.fullmatch(path.name):
            continue
        if TOKEN.fullmatch(path.stem):
            tokens.append(path.stem)
        else:
            skipped.append(Skipped(path.name, "not_token"))
    return tokens


def _detail(error: BaseException) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _read_meta(path: Path, lang: str) -> dict[str, Any]:
    """The meta file, checked field by field; {} when there is none (a bare record)."""
    if not path.exists():
        return {}
    try:
        meta = _read_own(path, lang)
    except OSError as error:
        raise BadMeta(error.strerror or _detail(error)) from None
    except ValueError as error:
        raise BadMeta(str(error)) from None
    if not isinstance(meta, dict):
        raise BadMeta(translate(lang, _NOT_FORMAT))
    checks: dict[str, Callable[[Any], object]] = {
        "uid": lambda v: isinstance(v, str) and _UID.fullmatch(v),
        "confirm_deals": lambda v: isinstance(v, bool),
        "view_token": lambda v: isinstance(v, str) and TOKEN.fullmatch(v),
        "version": lambda v: type(v) is int and 0 <= v < 2**31,
        # Backups before record format 2026-12-01 kept these here, not in the record.
        "currency": lambda v: v is None or (isinstance(v, str) and re.fullmatch("[A-Z]{3}", v)),
        "place": lambda v: v is None or (isinstance(v, str) and len(v) <= 80),
        "created_at": club.is_time,
        "updated_at": club.is_time,
        "changes": lambda v: isinstance(v, list) and all(_is_change(c) for c in v),
        "table": lambda v: v is None or (isinstance(v, str) and _UID.fullmatch(v)),
    }
    for key, value in meta.items():
        check = checks.get(key)
        if check is not None and not check(value):
            raise BadMeta(translate(lang, _NOT_VALID).format(key=key))
    return meta


def _is_change(change: object) -> bool:
    if not isinstance(change, dict):
        return False
    position = change.get("position")
    return (
        change.get("action") in _ACTIONS
        and (position is None or (type(position) is int and 0 <= position < 2**31))
        and all(
            change.get(k) is None or isinstance(change.get(k), dict) for k in ("before", "after")
        )
        and club.is_time(change.get("at"))
        and (
            change.get("phone") is None
            or (isinstance(change["phone"], str) and len(change["phone"]) <= 32)
        )
    )


def _check(folder: Path, token: str, lang: str, with_meta: bool = True) -> _Candidate:
    """Read and check a game's two files (its record alone unless `with_meta`);
    raise `Skipped`-worthy errors."""
    # As this app wrote it (a name stored before names were compared still reads).
    record = load_record(_read_capped(folder / f"{token}.json", MAX_RECORD_BYTES), stored=True)
    standings = score_record(record)
    meta = _read_meta(folder / f"{token}.meta.json", lang) if with_meta else {}
    return _Candidate(token, record, standings.finished, meta)


def _already_there(candidate: _Candidate) -> bool:
    """The game is in the database already: the same game (its identity), or the same
    link. A game whose editor link was rotated since the backup keeps its identity,
    so its old link does not come back."""
    links = [Game.token == candidate.token]
    if candidate.meta.get("view_token"):
        links.append(Game.view_token == candidate.meta["view_token"])
    if candidate.meta.get("uid"):
        links.append(Game.uid == candidate.meta["uid"])
    return db.session.scalar(select(Game.id).where(or_(*links)).limit(1)) is not None


def restore(folder: Path, lang: str = "en", partial: bool = False) -> Report:
    """Load the games of `folder`: every good one, each once. A game without its
    meta file is named in `skipped`; it is restored (and named in `partial`) only
    when `partial` is asked. FileNotFoundError if the folder is not there."""
    if not folder.is_dir():
        raise FileNotFoundError(folder)
    report = Report()
    if not (folder / TABLES).exists() and _listed(folder, TABLES_KEY):
        report.skipped.append(Skipped(TABLES, "missing"))  # its manifest said it held some
    tables = _restore_tables(_read_tables(folder, report.skipped, lang), report.skipped)
    candidates: list[_Candidate] = []
    for token in _tokens(folder, report.skipped, lang):
        name = f"{token}.json"
        try:
            candidates.append(_check(folder, token, lang))
        except FileNotFoundError:
            report.skipped.append(Skipped(name, "missing"))
        except OSError as error:
            report.skipped.append(Skipped(name, "unreadable", error.strerror or _detail(error)))
        except RulesError as error:
            report.skipped.append(Skipped(name, "record", "; ".join(error.messages(lang))))
        except BadMeta as error:
            damaged = Skipped(f"{token}.meta.json", "meta", str(error))
            if not partial:
                report.skipped.append(damaged)
                continue
            # Asked to go on: the game alone, without what its meta file held.
            report.partial.append(damaged)
            candidates.append(_check(folder, token, lang, with_meta=False))
    for candidate in candidates:
        if _already_there(candidate):
            report.present += 1
            continue
        whole = bool(candidate.meta)
        if not whole and not partial:
            report.skipped.append(Skipped(f"{candidate.token}.json", "no_meta"))
            continue
        try:
            _insert(candidate, tables)
        except IntegrityError:  # a link taken meanwhile by another game
            db.session.rollback()
            report.skipped.append(Skipped(f"{candidate.token}.json", "conflict"))
            continue
        report.restored += 1
        if not whole:
            report.partial.append(Skipped(f"{candidate.token}.json", "partial"))
        table = candidate.meta.get("table")
        if table and table not in tables and not _table_there(table):
            report.skipped.append(Skipped(f"{candidate.token}.meta.json", "no_table"))
    _restore_events(folder, report, lang)
    _restore_seasons(folder, report, lang)
    return report


def _restore_events(folder: Path, report: Report, lang: str) -> None:
    """Put back the concours of `folder` the database does not have (after the
    games: their tables name them)."""
    checked: list[dict[str, Any]] = []
    for uid in _event_files(folder):
        name = club.event_file_name(uid)
        try:
            data = club.check_event(_read_own(folder / name, lang), TOKEN, _UID)
        except OSError as error:
            report.skipped.append(Skipped(name, "unreadable", error.strerror or _detail(error)))
            continue
        except club.Damaged as error:
            detail = translate(lang, _NOT_VALID).format(key=str(error))
            report.skipped.append(Skipped(name, "event", detail))
            continue
        except RulesError as error:  # before ValueError, which it is too
            detail = "; ".join(error.messages(lang)[:3])
            report.skipped.append(Skipped(name, "event_refused", detail))
            continue
        except ValueError as error:  # not JSON, too large
            report.skipped.append(Skipped(name, "event", str(error)))
            continue
        if data["uid"] != uid:
            detail = translate(lang, _NOT_VALID).format(key="uid")
            report.skipped.append(Skipped(name, "event", detail))
            continue
        checked.append(data)
    # In the order they were created: a new database numbers them as the old one did.
    for data in sorted(checked, key=lambda d: (d["created_at"], d["uid"])):
        name = club.event_file_name(data["uid"])
        if club.event_there(data):
            report.events_present += 1
            continue
        absent = club.missing_games(data)
        try:
            club.insert_event(data)
        except IntegrityError:  # pragma: no cover - a link taken meanwhile (a race)
            db.session.rollback()
            report.skipped.append(Skipped(name, "event_conflict"))
            continue
        report.events += 1
        if absent:
            report.skipped.append(Skipped(name, "event_games", ", ".join(absent[:5])))


def _restore_seasons(folder: Path, report: Report, lang: str) -> None:
    """Put back the seasons of `folder` the database does not have (after their concours)."""
    path = folder / club.SEASONS
    if not path.exists():
        if _listed(folder, SEASONS_KEY):  # its manifest said it held some
            report.skipped.append(Skipped(club.SEASONS, "missing"))
        return  # else a backup made before seasons
    try:
        seasons = club.check_seasons(_read_own(path, lang), TOKEN)
    except OSError as error:
        report.skipped.append(Skipped(club.SEASONS, "seasons", error.strerror or _detail(error)))
        return
    except club.Damaged as error:
        detail = translate(lang, _NOT_VALID).format(key=str(error))
        report.skipped.append(Skipped(club.SEASONS, "seasons", detail))
        return
    except ValueError as error:
        report.skipped.append(Skipped(club.SEASONS, "seasons", str(error)))
        return
    for season in seasons:
        if club.season_there(season):
            report.seasons_present += 1
            continue
        try:
            absent = club.insert_season(season)
        except IntegrityError:  # pragma: no cover - a link taken meanwhile (a race)
            db.session.rollback()
            report.skipped.append(Skipped(club.SEASONS, "season_conflict"))
            continue
        report.seasons += 1
        if absent:
            report.skipped.append(Skipped(club.SEASONS, "season_events", season["name"]))


def _insert(candidate: _Candidate, tables: dict[str, int]) -> None:
    meta = candidate.meta
    record = candidate.record
    # A backup older than the record's own currency and place kept them in its meta.
    legacy = {k: meta[k] for k in ("currency", "place") if meta.get(k) and not getattr(record, k)}
    game = game_from_record(
        record,
        token=candidate.token,
        finished=candidate.finished,
        version=meta.get("version", len(record.deals)),
        table_id=tables.get(meta.get("table") or ""),
        confirm_deals=bool(meta.get("confirm_deals", False)),
        **legacy,
    )
    for key in ("uid", "view_token"):
        if meta.get(key):
            setattr(game, key, meta[key])
    for key in ("created_at", "updated_at"):
        if key in meta:
            setattr(game, key, datetime.fromisoformat(meta[key]))
    db.session.add(game)
    db.session.flush()
    for change in meta.get("changes", []):
        db.session.add(
            Change(
                game_id=game.id,
                action=change["action"],
                position=change.get("position"),
                before=change.get("before"),
                after=change.get("after"),
                at=datetime.fromisoformat(change["at"]),
                phone=change.get("phone"),
            )
        )
    db.session.commit()
