"""A club's backup: games, tables, concours (one in the middle of a round, one with
a correction) and a season, restored into an empty database exactly: every page,
every export, every link; and a game removed between two backups."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.app import create_app
from referee.extensions import db
from referee.models import Event, Game
from referee.services import events as service
from referee.services.backup import WouldLose, backup, restore
from tests.web.conftest import new_game
from tests.web.test_concours import (
    create,
    edit_first_deal,
    fresh,
    page,
    play_round,
    round_one_played,
    version,
)
from tests.web.test_seasons import concours


def _other_app(tmp_path: Path) -> Flask:
    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'restored.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
        }
    )


def _club(app: Flask, client: FlaskClient) -> dict[str, list[str]]:
    """A club's afternoon: a table with a game, a concours corrected after round 1
    and in the middle of round 2, a second concours in the middle of round 1, a
    season of both. The addresses of what it made, by kind."""
    tables = client.post("/tables/new", data={"name": "Le mardi"})
    table = tables.headers["Location"].rsplit("/", 1)[1]
    game = new_game(client, "pad", ["Ana", "Bruno", "Chloé"])
    client.post(f"/g/{game}/deal", data={"action": "save", "points0": "5", "points1": "-2"})
    # The first concours: round 1 accepted, table 1 corrected, round 2 under way.
    token, event = round_one_played(app, client, rounds="3", seed=3)
    view = event.view_token
    opened = client.post(
        f"/e/{token}/round/1/table/1/correct",
        data={"reason": "feuille mal lue", "version": version(client, view)},
    )
    edit_first_deal(client, opened.headers["Location"].rsplit("/", 1)[1], ("9", "-3", "-3", "-3"))
    client.post(f"/e/{token}/round/1/table/1/apply", data={"version": version(client, view)})
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    play_round(app, client, event.id, 2, seed=4, done=(2, 3, 4))  # table 1 only
    # The second concours: round 1 drawn, one deal at table 1, nothing accepted.
    other, second = create(app, client, name="Concours du dimanche", rounds="2")
    client.post(f"/e/{other}/draw", data={"version": version(client, second.view_token)})
    table_one = next(t for t in fresh(app, second.id).tables if t.number == 1)
    assert table_one.game_row is not None
    playing = table_one.game_row.token
    client.post(
        f"/g/{playing}/deal", data={"action": "save", **{f"points{i}": "1" for i in range(3)}}
    )
    # A season of both.
    form = page(client, "/seasons/new")
    uids = re.findall(r'name="events" value="([^"]+)"', form)
    made = client.post(
        "/seasons/new",
        data={"name": "Saison 2027", "points": "10, 6, 4", "drop_worst": "0", "events": uids},
    )
    assert made.status_code == 302, made.get_data(as_text=True)
    season = made.headers["Location"].rsplit("/", 1)[1]
    season_view = re.findall(r"/se/([A-Za-z0-9_-]+)", page(client, f"/s/{season}"))[0]
    pages = [f"/t/{table}", f"/g/{game}", f"/g/{playing}", f"/s/{season}", f"/se/{season_view}"]
    exports = []
    for director, row in ((token, event), (other, second)):
        loaded = fresh(app, row.id)
        pages += [
            f"/e/{director}",
            f"/ev/{loaded.view_token}",
            f"/ev/{loaded.view_token}/tv",
            f"/c/{loaded.play_token}",
        ]
        pages += [f"/c/{loaded.play_token}/{t.number}" for t in loaded.tables if t.round == 1]
        exports.append(f"/e/{director}/export.json")
    return {"pages": pages, "exports": exports}


#: What differs between two renders of one page by design: the one-time form keys.
_KEYS = re.compile(r'(name="(?:key|csrf_token)" value=")[^"]*"')


def _read(client: FlaskClient, path: str) -> str:
    answer = client.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return _KEYS.sub(r'\1"', answer.get_data(as_text=True))


def test_a_clubs_backup_restores_every_concours_and_season_exactly(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    made = _club(app, client)
    client.get("/lang/fr?next=/")
    # Read as a phone that holds no table's code (as the browser after the restore).
    with client.session_transaction() as held:
        held.pop("table_keys", None)
    before = {path: _read(client, path) for path in made["pages"] + made["exports"]}
    with app.app_context():
        written = backup(tmp_path / "one")
        events = db.session.query(Event).count()
    assert (written.events, written.seasons) == (2, 1) == (events, 1)
    assert not written.failed
    # An empty database on a new machine: everything comes back.
    other = _other_app(tmp_path)
    with other.app_context():
        report = restore(tmp_path / "one")
        assert report.skipped == []
        assert (report.events, report.seasons) == (2, 1)
        # Restoring twice changes nothing.
        again = restore(tmp_path / "one")
        assert (again.restored, again.events, again.seasons) == (0, 0, 0)
        assert (again.events_present, again.seasons_present) == (2, 1)
    browser = other.test_client(use_cookies=True)
    browser.get("/lang/fr?next=/")
    after = {path: _read(browser, path) for path in made["pages"] + made["exports"]}
    for path, text in before.items():
        assert after[path] == text, path
    # backup -> restore -> backup: the same files (the manifest's time aside).
    with other.app_context():
        backup(tmp_path / "two")
    first, second = (
        {p.name: p.read_bytes() for p in (tmp_path / name).iterdir() if p.name != "manifest.json"}
        for name in ("one", "two")
    )
    assert first == second
    assert any(name.startswith("event.") for name in first)
    # The restored concours goes on: the second one's table 1 plays on.
    with other.app_context():
        event = next(e for e in db.session.query(Event) if e.name == "Concours du dimanche")
        loaded = service.loaded(event.id)
        assert loaded is not None
        table = next(t for t in loaded.tables if t.number == 1)
        assert table.game_row is not None
        assert len(table.game_row.deals) == 1
        db.session.remove()
        db.engine.dispose()


def test_a_backup_from_before_concours_still_restores(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    new_game(client, "pad", ["Ana", "Bruno"])
    with app.app_context():
        backup(tmp_path / "old")
    for name in ("seasons.json",):
        (tmp_path / "old" / name).unlink()
    other = _other_app(tmp_path)
    with other.app_context():
        report = restore(tmp_path / "old")
    assert (report.restored, report.skipped) == (1, [])


def test_a_damaged_concours_file_is_named_and_the_rest_restored(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    client.get("/lang/en?next=/")
    round_one_played(app, client, rounds="2", seed=1)
    with app.app_context():
        backup(tmp_path / "b")
    (path,) = (tmp_path / "b").glob("event.*.json")
    data = json.loads(path.read_text())
    data["tables"][0]["seats"] = [1, 1, 1, 1]  # a player seated four times
    path.write_text(json.dumps(data))
    other = _other_app(tmp_path)
    with other.app_context():
        report = restore(tmp_path / "b", "fr")
    assert report.events == 0
    assert report.restored == 4  # the tables' games come back all the same
    (said,) = [s.message("fr") for s in report.skipped]
    assert said.startswith(f"{path.name}: le concours est refusé")


def test_a_removed_game_does_not_stop_the_next_backup(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    kept = new_game(client, "pad", ["Ana", "Bruno"])
    client.post(f"/g/{kept}/deal", data={"action": "save", "points0": "3"})
    removed = new_game(client, "pad", ["Chloé", "Driss"])
    folder = tmp_path / "nightly"
    with app.app_context():
        assert backup(folder).games == 2
    assert (folder / f"{removed}.json").exists()
    # Its players remove it (it has no deal): the next night's backup is taken.
    answer = client.post(f"/g/{removed}/remove", data={"version": "0"})
    assert answer.status_code == 302
    with app.app_context():
        assert db.session.query(Game).count() == 1
        assert backup(folder).games == 1
    assert not (folder / f"{removed}.json").exists()
    assert (folder / f"{kept}.json").exists()
    # An empty database is still refused, however many games were removed.
    other = _other_app(tmp_path)
    with other.app_context(), pytest.raises(WouldLose):
        backup(folder)


def _damage(folder: Path, name: str, change: object) -> None:
    path = folder / name
    if isinstance(change, bytes):
        path.write_bytes(change)
        return
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("file", "change", "said"),
    [
        ("event", b"{not json", "the concours's file is damaged: it cannot be read"),
        ("event", lambda d: d.__setitem__("version", "3"), "version is not valid"),
        ("event", lambda d: d["tables"][0].__setitem__("seats", "1,2"), "tables[0].seats is"),
        ("event", lambda d: d["players"][0].__setitem__("joined", None), "players[0].joined"),
        ("event", lambda d: d["rounds"].__setitem__(0, 7), "rounds[0] is not valid"),
        ("event", lambda d: d["changes"][0].__setitem__("action", "x"), "changes[0].action"),
        ("event", lambda d: d.__setitem__("uid", "0" * 32), "uid is not valid"),
        ("event", lambda d: d.__setitem__("format", "x"), "format is not valid"),
        ("event", lambda d: d.__setitem__("ranking", ["score"]), "ranking is not valid"),
        ("event", lambda d: d.__setitem__("name", 7), "the concours is refused"),
        ("seasons", b"[", "the seasons' file is damaged"),
        ("seasons", lambda d: d.__setitem__("seasons", {}), "seasons is not valid"),
        ("seasons", lambda d: d["seasons"].__setitem__(0, 1), "seasons[0] is not valid"),
        ("seasons", lambda d: d["seasons"][0]["rules"].update(points=[1, 5]), "rules"),
        ("seasons", lambda d: d["seasons"][0].__setitem__("language", "de"), "language"),
    ],
)
def test_a_damaged_club_file_is_named(
    app: Flask, client: FlaskClient, tmp_path: Path, file: str, change: object, said: str
) -> None:
    client.get("/lang/en?next=/")
    concours(app, client, "Janvier", "Ana\nBruno\nChloé\nDora", 1)
    form = page(client, "/seasons/new")
    uids = re.findall(r'name="events" value="([^"]+)"', form)
    client.post("/seasons/new", data={"name": "Saison", "points": "10, 6", "events": uids})
    with app.app_context():
        backup(tmp_path / "b")
    name = next((tmp_path / "b").glob("event.*.json")).name if file == "event" else "seasons.json"
    _damage(tmp_path / "b", name, change)
    other = _other_app(tmp_path)
    with other.app_context():
        report = restore(tmp_path / "b")
    messages = [s.message("en") for s in report.skipped]
    assert any(m.startswith(name) and said in m for m in messages), messages
    assert report.restored == 1  # the table's game, whatever else is damaged


def test_what_a_backup_lacks_is_named_and_the_rest_restored(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """A season whose concours is not in the folder, a concours whose table's game
    is not: restored all the same, and said."""
    client.get("/lang/en?next=/")
    concours(app, client, "Janvier", "Ana\nBruno\nChloé\nDora", 1)
    concours(app, client, "Février", "Ana\nBruno\nChloé\nDora", 2)
    form = page(client, "/seasons/new")
    uids = re.findall(r'name="events" value="([^"]+)"', form)
    client.post("/seasons/new", data={"name": "Saison", "points": "10, 6", "events": uids})
    with app.app_context():
        backup(tmp_path / "b")
    first, second = sorted((tmp_path / "b").glob("event.*.json"))
    first.unlink()
    game = json.loads(second.read_text())["tables"][0]["game"]
    for path in (tmp_path / "b").glob("*.meta.json"):
        if json.loads(path.read_text())["uid"] == game:
            path.unlink()
            path.with_name(path.name.replace(".meta", "")).unlink()
    other = _other_app(tmp_path)
    with other.app_context():
        report = restore(tmp_path / "b", "fr")
    said = [s.message("fr") for s in report.skipped]
    assert (report.events, report.seasons) == (1, 1)
    assert any("les parties de certaines de ses tables" in m for m in said), said
    assert "seasons.json: saison Saison : restaurée sans les concours" in " ".join(
        m.replace("\u202f", " ") for m in said
    )


def test_a_copy_without_its_seasons_and_tables_is_said_and_never_replaces_a_whole_one(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """The trial of issue 51: a careless copy without seasons.json and tables.json
    restored with exit 0, the game's table silently lost; backed up into the good
    folder, it then wiped the season and the table there too."""
    made = client.post("/tables/new", data={"name": "Le mardi"})
    table = made.headers["Location"].rsplit("/", 1)[1]
    new_game(client, "pad", ["Ana", "Bruno"], table=table)
    client.get("/lang/en?next=/")
    concours(app, client, "Janvier", "Ana\nBruno\nChloé\nDora", 1)
    form = page(client, "/seasons/new")
    uids = re.findall(r'name="events" value="([^"]+)"', form)
    client.post("/seasons/new", data={"name": "Saison", "points": "10, 6", "events": uids})
    with app.app_context():
        backup(tmp_path / "good")
    careless = tmp_path / "copy"
    careless.mkdir()
    for path in (tmp_path / "good").iterdir():
        if path.name not in ("seasons.json", "tables.json"):
            (careless / path.name).write_bytes(path.read_bytes())
    other = _other_app(tmp_path)
    with other.app_context():
        report = restore(careless)
        said = [s.message("en") for s in report.skipped]
        assert "seasons.json: the file is missing" in said
        assert "tables.json: the file is missing" in said
        assert any(m.endswith("the game is restored without its table") for m in said), said
        # Backed up into the good folder, the database lacking its season and table.
        with pytest.raises(WouldLose) as lost:
            backup(tmp_path / "good")
        assert lost.value.club == 2
    assert b"Saison" in (tmp_path / "good" / "seasons.json").read_bytes()
    assert b"Le mardi" in (tmp_path / "good" / "tables.json").read_bytes()


def test_a_damaged_manifest_neither_stops_nor_fools_the_next_backup(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    new_game(client, "pad", ["Ana", "Bruno"])
    with app.app_context():
        backup(tmp_path / "b")
        (tmp_path / "b" / "manifest.json").write_text(
            json.dumps({"format": "referee-backup/1", "seasons": 3, "tables": {"x": 1}})
        )
        assert backup(tmp_path / "b").games == 1
