"""Backups: every game as a record file, and back again without duplicates.

`DIR/<token>.json` is the game's record (`referee-game/1`, readable by `referee
score`); `DIR/<token>.meta.json` keeps what a record does not hold: the game's
lasting identity, the spectator link, dates and the history of changes;
`DIR/manifest.json` lists the games of the last backup, which is what a restore
loads; `DIR/tables.json` holds the tables (their links, names and merged names),
and each game's meta names its table by the table's lasting identity.

A backup reads every game in one snapshot of the database (so a game's deals and
its history always agree, even while people play), writes each file atomically
(a crash leaves the old file or the new one, never half of one), removes the files
of games or links that no longer exist (a rotated editor link), and never changes
the schema. A restore checks every file first, restores every good game, names
each file it skipped and why, and skips a game that is already there, under any of
its links: a revoked link never comes back.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from referee.engine.catalog import N_, translate
from referee.engine.errors import RulesError
from referee.engine.game import Record
from referee.engine.records import load_record, score_record
from referee.engine.tables import name_problems
from referee.extensions import db
from referee.models import CHANGE_ACTIONS, TOKEN_BYTES, Change, Game, Table
from referee.services.games import export, game_from_record

MANIFEST: Final = "manifest.json"
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
    "meta": N_("its .meta.json file is damaged: {detail}"),
    "manifest": N_("the manifest is damaged: {detail}"),
    "conflict": N_("a game of the database already uses one of its links"),
    "tables": N_("the tables' file is damaged: {detail}"),
}


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


@dataclass
class Report:
    """What a restore did: games restored, games already there, files skipped."""

    restored: int = 0
    present: int = 0
    skipped: list[Skipped] = field(default_factory=list)


class BadMeta(ValueError):
    """A `.meta.json` file that does not hold what a backup writes."""


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
        "version": table.version,
        "created_at": _when(table.created_at),
    }


def _read_tables(folder: Path, skipped: list[Skipped]) -> list[dict[str, Any]]:
    """The tables of the backup, each checked (none when the file is absent: a
    backup made before tables)."""
    path = folder / TABLES
    if not path.exists():
        return []
    try:
        data = json.loads(path.read_bytes())
        if not isinstance(data, dict) or data.get("format") != TABLES_FORMAT:
            raise ValueError(f"not a {TABLES_FORMAT} file")
        tables = data.get("tables")
        if not isinstance(tables, list):
            raise ValueError("tables is not a list")
    except (OSError, ValueError, RecursionError) as error:
        skipped.append(Skipped(TABLES, "tables", _detail(error)))
        return []
    good = []
    for number, table in enumerate(tables, start=1):
        if _is_table(table):
            good.append(table)
        else:
            skipped.append(Skipped(TABLES, "tables", f"table {number} is not valid"))
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
        and type(table.get("version")) is int
        and 0 <= table["version"] < 2**31
        and _is_time(table.get("created_at"))
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


def _json(data: object) -> bytes:
    # ASCII escapes: any text the database holds can be written, and read back.
    return (json.dumps(data, ensure_ascii=True, indent=1, sort_keys=True) + "\n").encode("ascii")


def write_atomically(path: Path, data: bytes) -> None:
    """Write `path` so that a crash leaves either its old content or the new, whole."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _sync_folder(folder: Path) -> None:
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def backup(folder: Path, lang: str = "en") -> tuple[int, list[Skipped]]:
    """Write every game to `folder`, as it stands at one moment: (how many, and the
    games that could not be written, which the engine refuses as they are stored).

    Files of games that are not in this backup (a rotated editor link, a deleted
    game) are removed; other files of the folder are left alone.
    """
    folder.mkdir(parents=True, exist_ok=True)
    documents: list[tuple[str, bytes, bytes]] = []
    failed: list[Skipped] = []
    with snapshot():
        query = (
            select(Game)
            .options(selectinload(Game.deals), selectinload(Game.changes), selectinload(Game.table))
            .order_by(Game.id)
        )
        for game in db.session.scalars(query):
            try:
                record = export(game)
            except RulesError as error:
                detail = "; ".join(error.messages(lang))
                failed.append(Skipped(f"{game.token}.json", "record", detail))
                continue
            documents.append((game.token, _json(record), _json(_meta(game))))
        tables = [_table_meta(t) for t in db.session.scalars(select(Table).order_by(Table.id))]
    tokens = [token for token, _record, _meta_text in documents]
    write_atomically(folder / TABLES, _json({"format": TABLES_FORMAT, "tables": tables}))
    for token, record_text, meta_text in documents:
        write_atomically(folder / f"{token}.json", record_text)
        write_atomically(folder / f"{token}.meta.json", meta_text)
    manifest = {"format": BACKUP_FORMAT, "taken_at": _when(datetime.now()), "games": tokens}
    write_atomically(folder / MANIFEST, _json(manifest))
    kept = set(tokens)
    for path in folder.iterdir():
        name = _FILE.fullmatch(path.name)
        if name and TOKEN.fullmatch(name["token"]) and name["token"] not in kept:
            path.unlink()
    _sync_folder(folder)
    return len(documents), failed


# --- restore --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Candidate:
    token: str
    record: Record[Any, Any]
    finished: bool
    meta: dict[str, Any]


def _tokens(folder: Path, skipped: list[Skipped]) -> list[str]:
    """The games to restore: the manifest's, else every record file of the folder."""
    manifest = folder / MANIFEST
    if manifest.exists():
        try:
            data = json.loads(manifest.read_bytes())
            tokens = data["games"]
            if data.get("format") != BACKUP_FORMAT or not isinstance(tokens, list):
                raise ValueError("not a referee-backup/1 manifest")
        except (OSError, ValueError, KeyError, TypeError) as error:
            skipped.append(Skipped(MANIFEST, "manifest", _detail(error)))
            return []
        good = []
        for token in tokens:
            if isinstance(token, str) and TOKEN.fullmatch(token):
                good.append(token)
            else:
                skipped.append(Skipped(f"{str(token)[:40]}.json", "not_token"))
        return good
    tokens = []
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".meta.json") or path.name == TABLES:
            continue
        if TOKEN.fullmatch(path.stem):
            tokens.append(path.stem)
        else:
            skipped.append(Skipped(path.name, "not_token"))
    return tokens


def _detail(error: BaseException) -> str:
    return str(error).splitlines()[0][:200] if str(error) else type(error).__name__


def _read_meta(path: Path) -> dict[str, Any]:
    """The meta file, checked field by field (it is optional: a bare record restores)."""
    if not path.exists():
        return {}
    try:
        meta = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError) as error:
        raise BadMeta(_detail(error)) from None
    if not isinstance(meta, dict):
        raise BadMeta("not a JSON object")
    checks: dict[str, Callable[[Any], object]] = {
        "uid": lambda v: isinstance(v, str) and _UID.fullmatch(v),
        "confirm_deals": lambda v: isinstance(v, bool),
        "view_token": lambda v: isinstance(v, str) and TOKEN.fullmatch(v),
        "version": lambda v: type(v) is int and 0 <= v < 2**31,
        # Backups before record format 2026-12-01 kept these here, not in the record.
        "currency": lambda v: v is None or (isinstance(v, str) and re.fullmatch("[A-Z]{3}", v)),
        "place": lambda v: v is None or (isinstance(v, str) and len(v) <= 80),
        "created_at": _is_time,
        "updated_at": _is_time,
        "changes": lambda v: isinstance(v, list) and all(_is_change(c) for c in v),
        "table": lambda v: v is None or (isinstance(v, str) and _UID.fullmatch(v)),
    }
    for key, value in meta.items():
        check = checks.get(key)
        if check is not None and not check(value):
            raise BadMeta(f"{key} is not valid")
    return meta


def _is_time(value: object) -> bool:
    try:
        datetime.fromisoformat(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True


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
        and _is_time(change.get("at"))
        and (
            change.get("phone") is None
            or (isinstance(change["phone"], str) and len(change["phone"]) <= 32)
        )
    )


def _check(folder: Path, token: str) -> _Candidate:
    """Read and check a game's two files; raise `Skipped`-worthy errors."""
    path = folder / f"{token}.json"
    record = load_record(path.read_bytes(), stored=True)  # as this app wrote it
    standings = score_record(record)
    meta = _read_meta(folder / f"{token}.meta.json")
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


def restore(folder: Path, lang: str = "en") -> Report:
    """Load the games of `folder`: every good one, each once. FileNotFoundError if the
    folder is not there."""
    if not folder.is_dir():
        raise FileNotFoundError(folder)
    report = Report()
    tables = _restore_tables(_read_tables(folder, report.skipped), report.skipped)
    candidates: list[_Candidate] = []
    for token in _tokens(folder, report.skipped):
        name = f"{token}.json"
        try:
            candidates.append(_check(folder, token))
        except FileNotFoundError:
            report.skipped.append(Skipped(name, "missing"))
        except OSError as error:
            report.skipped.append(Skipped(name, "unreadable", error.strerror or _detail(error)))
        except RulesError as error:
            report.skipped.append(Skipped(name, "record", "; ".join(error.messages(lang))))
        except BadMeta as error:
            report.skipped.append(Skipped(f"{token}.meta.json", "meta", str(error)))
    for candidate in candidates:
        if _already_there(candidate):
            report.present += 1
            continue
        try:
            _insert(candidate, tables)
        except IntegrityError:  # a link taken meanwhile by another game
            db.session.rollback()
            report.skipped.append(Skipped(f"{candidate.token}.json", "conflict"))
            continue
        report.restored += 1
    return report


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
