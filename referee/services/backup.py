"""Backups: every game as a record file, and back again without duplicates.

`DIR/<token>.json` is the game's record (`referee-game/1`, readable by `referee
score`); `DIR/<token>.meta.json` keeps what a record does not hold: the spectator
link, currency, place, dates and the history of changes. Restoring skips a game
whose editor token is already there, so it can run again and again.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from referee.engine.records import load_record, score_record
from referee.extensions import db
from referee.models import Change, Game
from referee.services.games import export, game_from_record


def _when(value: datetime) -> str:
    return value.isoformat()


def backup(folder: Path) -> int:
    """Write every game to `folder`; return how many."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for game in db.session.scalars(select(Game).order_by(Game.id)):
        record = json.dumps(export(game), ensure_ascii=False, indent=1, sort_keys=True)
        meta = {
            "view_token": game.view_token,
            "currency": game.currency,
            "place": game.place,
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
                }
                for c in game.changes
            ],
        }
        (folder / f"{game.token}.json").write_text(record + "\n", encoding="utf-8")
        (folder / f"{game.token}.meta.json").write_text(
            json.dumps(meta, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        count += 1
    return count


def restore(folder: Path) -> tuple[int, int]:
    """Load the games of `folder`: (restored, already there). RulesError on a bad record."""
    restored = skipped = 0
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".meta.json"):
            continue
        token = path.stem
        if db.session.scalar(select(Game.id).where(Game.token == token)) is not None:
            skipped += 1
            continue
        record = load_record(path.read_bytes())
        standings = score_record(record)
        meta_path = path.with_name(f"{token}.meta.json")
        meta: dict[str, Any] = (
            json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        )
        game = game_from_record(
            record,
            token=token,
            currency=meta.get("currency", "EUR"),
            place=meta.get("place"),
            finished=standings.finished,
            version=meta.get("version", len(record.deals)),
        )
        if meta.get("view_token"):
            game.view_token = meta["view_token"]
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
                    position=change["position"],
                    before=change["before"],
                    after=change["after"],
                    at=datetime.fromisoformat(change["at"]),
                )
            )
        db.session.commit()
        restored += 1
    return restored, skipped
