"""`referee backup` and `referee restore`: every game, exactly, never twice."""

from __future__ import annotations

import io
import json
import os
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import create_engine, event, inspect, text

from referee import cli
from referee.app import create_app
from referee.extensions import db
from referee.services.backup import backup, restore
from tests.web.conftest import new_game


def play(client: FlaskClient) -> str:
    token = new_game(
        client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"], stake="1", place="Marseille"
    )
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    client.post(
        f"/g/{token}/deal",
        data={
            "action": "save",
            "taker": "2",
            "bid": "4",
            "contract": "hearts",
            "tricks2": "4",
            "tricks0": "2",
        },
    )
    client.post(f"/g/{token}/undo", data={"version": "2"})
    new_game(client, "pitch", ["Dale", "Rhonda", "Earl", "Peggy", "Walt"])
    return token


def _fresh(tmp_path: Path, name: str = "fresh.db") -> Flask:
    return create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / name}",
            "SECRET_KEY": "t",
            "TESTING": True,
        }
    )


def test_backup_restore_round_trip(
    app: Flask, client: FlaskClient, tmp_path: Path, database: str
) -> None:
    token = play(client)
    with app.app_context():
        assert backup(tmp_path / "one")[:2] == (2, [])
    assert (tmp_path / "one" / f"{token}.json").exists()
    fresh = _fresh(tmp_path)
    with fresh.app_context():
        assert restore(tmp_path / "one").restored == 2
        again = restore(tmp_path / "one")  # again: nothing doubled
        assert (again.restored, again.present, again.skipped) == (0, 2, [])
        backup(tmp_path / "two")
        db.engine.dispose()
    for path in (tmp_path / "one").iterdir():
        if path.name != "manifest.json":
            assert path.read_bytes() == (tmp_path / "two" / path.name).read_bytes(), path.name
    guest = fresh.test_client()
    page = guest.get(f"/g/{token}/history").get_data(as_text=True)
    assert "<del>" in page  # the undone deal is still in the history
    record = guest.get(f"/g/{token}/export.json").get_json()
    assert record["place"] == "Marseille"  # kept by the record itself now


def test_restore_into_an_existing_database(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    play(client)
    with app.app_context():
        backup(tmp_path)
        report = restore(tmp_path)
    assert (report.restored, report.present) == (0, 2)


def _commands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, lang: str = "en") -> Any:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.setenv("REFEREE_SECRET_KEY", "t")

    def run(which: str, folder: Path) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        status = cli.backup_command(which, str(folder), lang, out, err)
        return status, out.getvalue(), err.getvalue()

    return run


def backed_up(app: Flask, client: FlaskClient, folder: Path) -> str:
    """Play a little (two games), back up into `folder`; the first game's token."""
    token = play(client)
    with app.app_context():
        backup(folder)
    return token


def test_restore_checks_every_file_and_names_each_skipped_one(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "b"
    token = backed_up(app, client, folder)
    (folder / "manifest.json").unlink()  # a folder of files, as an older backup left it
    bad = {
        "A" * 24 + ".json": b'{"format": "referee-game/1", "game": "boul',  # truncated
        "B" * 24 + ".json": b"",  # empty
        "C" * 24 + ".json": b'{"format": "nope"}',  # wrong format
        "a.json": (folder / f"{token}.json").read_bytes(),  # not a token of the app
    }
    for name, data in bad.items():
        (folder / name).write_bytes(data)
    # A good record beside a damaged meta file.
    (folder / ("D" * 24 + ".json")).write_bytes((folder / f"{token}.json").read_bytes())
    (folder / ("D" * 24 + ".meta.json")).write_text('{"changes": [{"action": 3}]}')
    run = _commands(monkeypatch, tmp_path)
    status, out, err = run("restore", folder)
    assert status == 1
    assert "games restored: 2," in out  # both good games, despite five bad files
    lines = err.splitlines()
    assert len(lines) == 5
    for name in (*bad, "D" * 24 + ".meta.json"):
        assert any(line.startswith(name + ": ") for line in lines), name
    assert "Traceback" not in err
    assert any("not a game link" in line for line in lines)


def test_restore_of_a_missing_folder_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run = _commands(monkeypatch, tmp_path, "fr")
    status, _out, err = run("restore", tmp_path / "nowhere")
    assert status != 0
    assert "n’est pas un dossier" in err
    assert not (tmp_path / "cli.db").exists()  # no database made for nothing to restore


def test_a_revoked_link_never_comes_back(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    token = play(client)
    with app.app_context():
        backup(tmp_path / "b")
    (tmp_path / "old").mkdir()
    for path in (tmp_path / "b").iterdir():
        (tmp_path / "old" / path.name).write_bytes(path.read_bytes())
    client.post(f"/g/{token}/rotate", data={"which": "editor"})
    with app.app_context():
        new_token = db.session.scalars(
            text("SELECT token FROM game WHERE place = 'Marseille'")
        ).one()
        backup(tmp_path / "b")  # the same folder: the old link's files go
        assert not (tmp_path / "b" / f"{token}.json").exists()
        assert not (tmp_path / "b" / f"{token}.meta.json").exists()
        assert (tmp_path / "b" / f"{new_token}.json").exists()
        # The backup taken before the rotation, restored here: the game is there.
        report = restore(tmp_path / "old")
        assert (report.restored, report.present, report.skipped) == (0, 2, [])
    assert client.get(f"/g/{token}").status_code == 404
    fresh = _fresh(tmp_path)
    with fresh.app_context():
        assert restore(tmp_path / "b").restored == 2
        db.engine.dispose()
    assert fresh.test_client().get(f"/g/{token}").status_code == 404
    assert fresh.test_client().get(f"/g/{new_token}").status_code == 200


def test_a_crash_mid_backup_leaves_whole_files(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "b"
    token = backed_up(app, client, folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    real = os.replace
    calls = []

    def crash(source: str, target: str) -> None:
        calls.append(target)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        real(source, target)

    monkeypatch.setattr(os, "replace", crash)
    with app.app_context(), pytest.raises(OSError, match="No space"):
        backup(folder)
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert set(after) == set(before)  # no temporary file left behind
    assert all(after.values())  # no empty file
    for name, data in after.items():
        assert data in (before[name], (folder / name).read_bytes())
        json.loads(data)  # every file whole


def test_a_backup_is_one_snapshot_while_people_play(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """A deal recorded between the backup's reads of games and of their history is
    in neither: the files agree with each other."""
    token = play(client)
    other = app.test_client()
    fired = []

    def meanwhile(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "FROM change" in statement and not fired:
            # Another phone, in another thread (its own app context and connection).
            writer = threading.Thread(
                target=lambda: fired.append(
                    other.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
                )
            )
            writer.start()
            writer.join(30)

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", meanwhile)
        try:
            backup(tmp_path)
        finally:
            event.remove(db.engine, "before_cursor_execute", meanwhile)
    assert [r.status_code for r in fired] == [302]
    record = json.loads((tmp_path / f"{token}.json").read_text())
    meta = json.loads((tmp_path / f"{token}.meta.json").read_text())
    adds = sum(c["action"] == "add" for c in meta["changes"])
    undos = sum(c["action"] == "undo" for c in meta["changes"])
    assert len(record["deals"]) == adds - undos == 1
    assert meta["version"] == adds + undos


def test_backup_never_changes_the_schema(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run = _commands(monkeypatch, tmp_path)
    (tmp_path / "cli.db").touch()  # a database file, of no schema yet
    status, _out, err = run("backup", tmp_path / "b")
    assert status == 1
    assert "referee serve" in err
    engine = create_engine(f"sqlite:///{tmp_path / 'cli.db'}")
    with engine.connect() as conn:
        assert inspect(conn).get_table_names() == []  # nothing was created
    engine.dispose()


def test_commands(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    run = _commands(monkeypatch, tmp_path)
    (tmp_path / "empty").mkdir()
    assert run("restore", tmp_path / "empty")[0] == 0  # nothing to do is no failure
    status, out, _err = run("backup", tmp_path / "b")
    assert status == 0
    assert out == f"backup written to {tmp_path / 'b'}: games: 0, concours: 0, seasons: 0\n"
    (tmp_path / "b" / "manifest.json").unlink()
    (tmp_path / "b" / ("X" * 24 + ".json")).write_text("[]", encoding="utf-8")
    status, _out, err = run("restore", tmp_path / "b")
    assert status == 1
    assert "the game is refused: The file does not hold a game" in err


def test_a_game_the_engine_refuses_does_not_stop_the_backup(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    token = play(client)
    with app.app_context():
        db.session.execute(
            text("UPDATE game SET players = :p WHERE token = :t"),
            {"p": json.dumps(["\ud800x", "B", "C", "D"]), "t": token},
        )
        db.session.commit()
        count, failed, *_ = backup(tmp_path)
    assert count == 1
    assert [f.name for f in failed] == [f"{token}.json"]


def test_tables_renames_and_put_backs_survive_a_backup(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """A game renamed, with a deal taken back and put back, played at a table whose
    names were merged: all of it restored (a rename or a put back in a game's
    history used to make its meta "damaged", and the game was skipped)."""
    from tests.web.test_tables import new_table, version_of

    table = new_table(client, "Les cousins")
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"], table=table)
    other = new_game(client, "boulmous", ["Anna", "Bruno", "Chloé", "Driss"], table=table)
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    client.post(f"/g/{token}/undo", data={"version": "1"})
    client.post(f"/g/{token}/put-back", data={"version": "2"})
    client.post(f"/g/{token}/players", data={"seat": "3", "name": "Dris", "version": "3"})
    page = client.get(f"/t/{table}").get_data(as_text=True)
    client.post(
        f"/t/{table}/merge", data={"name": "Anna", "into": "Ana", "version": version_of(page)}
    )
    with app.app_context():
        assert backup(tmp_path / "b")[:2] == (2, [])
    fresh = _fresh(tmp_path)
    with fresh.app_context():
        report = restore(tmp_path / "b")
        assert (report.restored, report.skipped) == (2, [])
        db.engine.dispose()
    guest = fresh.test_client()
    history = guest.get(f"/g/{token}/history").get_data(as_text=True)
    assert "put back" in history or "remise" in history
    assert "Dris" in guest.get(f"/g/{token}").get_data(as_text=True)
    restored = guest.get(f"/t/{table}").get_data(as_text=True)
    assert f"/g/{token}" in restored
    assert f"/g/{other}" in restored
    assert "Anna" not in guest.get(f"/t/{table}/statistics").get_data(as_text=True)


def test_a_new_tables_people_survive_a_backup(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """A table made with its people, before its first game: restored with them, so
    that its first game still starts with them in the seats."""
    response = client.post(
        "/tables/new", data={"name": "Les voisins", "person0": "Ana", "person1": "Bruno"}
    )
    assert response.status_code == 302
    table = str(response.headers["Location"]).removeprefix("/t/")
    with app.app_context():
        backup(tmp_path / "b")
    fresh = _fresh(tmp_path)
    with fresh.app_context():
        report = restore(tmp_path / "b")
        assert report.skipped == []
        db.engine.dispose()
    shown = fresh.test_client().get(f"/t/{table}").get_data(as_text=True)
    assert "<li>Ana" in shown  # listed before its first game
    form = fresh.test_client().get(f"/new?game=pad&table={table}").get_data(as_text=True)
    assert 'name="player0" value="Ana"' in form
    assert 'name="player1" value="Bruno"' in form


def test_a_pads_name_and_total_survive_a_backup(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """What a pad plays and its deal's total are house rules: restored with it."""
    token = new_game(
        client,
        "pad",
        ["Ana", "Bruno", "Chloé", "Driss"],
        rule_name="Belote",
        rule_teams="2",
        rule_total="162",
    )
    client.post(f"/g/{token}/deal", data={"action": "save", "points0": "92", "points1": ""})
    with app.app_context():
        backup(tmp_path / "b")
    fresh = _fresh(tmp_path)
    with fresh.app_context():
        assert restore(tmp_path / "b").skipped == []
        db.engine.dispose()
    record = fresh.test_client().get(f"/g/{token}/export.json").get_json()
    assert (record["rules"]["name"], record["rules"]["total"]) == ("Belote", 162)
    assert record["deals"] == [{"points": [92, None]}]


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_an_empty_database_never_replaces_a_full_backup(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """Issue 37: `backup --data EMPTY FOLDER` deleted last week's games and exited 0."""
    folder = tmp_path / "Mon"
    backed_up(app, client, folder)
    before = _files(folder)
    assert len(before) == 7  # two games (record + meta), the tables, the seasons, the manifest
    run = _commands(monkeypatch, tmp_path, lang)
    _fresh(tmp_path, "cli.db")  # an empty database at this version's schema
    status, out, err = run("backup", folder)
    assert status == 1
    assert out == ""
    assert _files(folder) == before  # every file kept, byte for byte
    assert not (folder / ".partial").exists()
    said = {
        "en": "holds a backup of 2 games, 2 of which the database does not have (it has 0)",
        "fr": "contient une sauvegarde de 2 parties, dont 2 que la base de données n’a pas",
    }
    assert said[lang] in err
    assert "--replace" in err
    # Asked for, it replaces (a database moved on purpose).
    out_, err_ = io.StringIO(), io.StringIO()
    assert cli.backup_command("backup", str(folder), "en", out_, err_, replace=True) == 0
    assert set(_files(folder)) == {"manifest.json", "tables.json", "seasons.json"}


def test_another_database_never_replaces_a_backup_of_other_games(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wrong `--data` that holds games too: the folder's games it lacks are kept."""
    folder = tmp_path / "Tue"
    backed_up(app, client, folder)
    before = _files(folder)
    run = _commands(monkeypatch, tmp_path)
    other = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'cli.db'}",
            "SECRET_KEY": "t",
            "WTF_CSRF_ENABLED": False,
        }
    )
    new_game(other.test_client(), "pitch", ["A", "B", "C", "D"])
    with other.app_context():
        db.engine.dispose()
    status, _out, err = run("backup", folder)
    assert status == 1
    assert "2 of which the database does not have (it has 1)" in err
    assert _files(folder) == before


def test_the_same_game_under_a_new_link_is_no_loss(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """A rotated editor link is the same game (its uid): the backup goes on, and the
    old link's files go."""
    folder = tmp_path / "b"
    token = backed_up(app, client, folder)
    client.post(f"/g/{token}/rotate", data={"which": "editor"})
    with app.app_context():
        assert backup(folder)[:2] == (2, [])
    assert not (folder / f"{token}.json").exists()


def test_a_backup_that_fails_half_way_leaves_the_previous_whole(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new backup is written aside and read back before anything is replaced: a
    full disk while writing it leaves the previous backup as it was."""
    from referee.services import backup as service

    folder = tmp_path / "b"
    token = backed_up(app, client, folder)
    before = _files(folder)
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    written = []
    real = service._write_synced

    def full(path: Path, data: bytes) -> None:
        written.append(path)
        if len(written) == 4:
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(service, "_write_synced", full)
    with app.app_context(), pytest.raises(OSError, match="No space"):
        backup(folder)
    assert all(path.parent.name == ".partial" for path in written)
    assert _files(folder) == before
    assert not (folder / ".partial").exists()


def test_a_backup_that_reads_back_wrong_replaces_nothing(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.services import backup as service

    folder = tmp_path / "b"
    token = backed_up(app, client, folder)
    before = _files(folder)
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    real = service._write_synced

    def damaged(path: Path, data: bytes) -> None:  # a disk that loses a byte
        real(path, data[:-2] if path.name == f"{token}.json" else data)

    monkeypatch.setattr(service, "_write_synced", damaged)
    with app.app_context(), pytest.raises(OSError, match=r"\.partial"):
        backup(folder)
    assert _files(folder) == before


def test_a_typo_in_data_creates_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 37: `backup --data /no/such/path` created a database there."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("REFEREE_DATA", "")
    typo = tmp_path / "var" / "lib" / "refere"
    for which in ("backup", "restore"):
        (tmp_path / "out").mkdir(exist_ok=True)
        assert cli.main([which, "--data", str(typo), "--lang", "en", str(tmp_path / "out")]) == 2
        said = capsys.readouterr().err
        assert str(typo) in said
        assert ": check --data" in said
    assert not (tmp_path / "var").exists()
    assert list((tmp_path / "out").iterdir()) == []
    # A folder without a database: a backup has nothing to read, and creates nothing.
    (tmp_path / "empty").mkdir()
    assert cli.main(["backup", "--data", str(tmp_path / "empty"), str(tmp_path / "out")]) == 2
    assert list((tmp_path / "empty").iterdir()) == []


def test_a_typo_in_database_url_creates_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 51: a SQLite `DATABASE_URL` with a typo became a new, empty database."""
    typo = tmp_path / "refere.sqlite3"
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{typo}")
    assert cli.main(["backup", "--lang", "fr", str(tmp_path / "out")]) == 2
    said = capsys.readouterr().err
    assert f"{typo} n’existe pas" in said
    assert not typo.exists()


def _missing_meta(app: Flask, client: FlaskClient, folder: Path) -> str:
    token = backed_up(app, client, folder)
    (folder / f"{token}.meta.json").unlink()
    return token


def test_a_game_without_its_meta_is_named_and_not_restored_in_part(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 37: a missing .meta.json restored the game silently, without its
    spectator link, its table and its history."""
    folder = tmp_path / "b"
    token = _missing_meta(app, client, folder)
    run = _commands(monkeypatch, tmp_path, "fr")
    status, out, err = run("restore", folder)
    assert status == 1
    assert "parties restaurées\u202f: 1, déjà là\u202f: 0, fichiers écartés\u202f: 1" in out
    assert err.startswith(f"{token}.json: son fichier .meta.json manque")
    assert "lien de spectateur" in err
    assert "--partial" in err
    with _fresh(tmp_path, "cli.db").app_context():
        assert db.session.scalar(text("SELECT count(*) FROM game")) == 1
        db.engine.dispose()


def test_partial_restores_a_game_without_its_meta_and_says_what_it_lost(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "b"
    token = _missing_meta(app, client, folder)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    out, err = io.StringIO(), io.StringIO()
    assert cli.backup_command("restore", str(folder), "en", out, err, partial=True) == 0
    assert err.getvalue().startswith(f"{token}.json: restored without its .meta.json file")
    assert "games restored: 2" in out.getvalue()
    assert "games restored in part: 1" in out.getvalue()


@pytest.mark.parametrize("damage", [b"{not json", b'{"format": "other"}', b"[" * 100_000])
def test_a_damaged_manifest_does_not_hide_the_games(
    app: Flask,
    client: FlaskClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    damage: bytes,
) -> None:
    """Issue 37: a damaged manifest restored the table without its games."""
    folder = tmp_path / "b"
    backed_up(app, client, folder)
    (folder / "manifest.json").write_bytes(damage)
    run = _commands(monkeypatch, tmp_path, "fr")
    status, out, err = run("restore", folder)
    assert status == 1
    assert "parties restaurées\u202f: 2" in out
    assert err.startswith("manifest.json: le manifeste est abîmé (")
    assert "\u202f: les fichiers des parties du dossier sont lus à la place" in err
    assert "Expecting" not in err
    assert "char" not in err


def test_restore_reads_a_bounded_amount(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A huge meta or manifest (a disk gone wrong, a hostile folder) is refused as
    too large, never read whole."""
    folder = tmp_path / "b"
    token = backed_up(app, client, folder)
    with (folder / f"{token}.meta.json").open("wb") as handle:
        handle.truncate(4 * 1024**3)  # 4 GB, sparse: reading it whole would not end soon
    run = _commands(monkeypatch, tmp_path)
    status, _out, err = run("restore", folder)
    assert status == 1
    assert err.startswith(f"{token}.meta.json: its .meta.json file is damaged: ")
    assert "larger than 16 MB" in err


def test_a_manifest_cut_short_neither_hides_nor_loses_a_game(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A manifest that reads well but forgot games (fresh-eyes trial): an empty
    database's backup is still refused, and a restore brings every game back."""
    folder = tmp_path / "b"
    backed_up(app, client, folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["games"] = [manifest["games"][0]] * 1000  # one game, listed a thousand times
    (folder / "manifest.json").write_text(json.dumps(manifest))
    before = _files(folder)
    run = _commands(monkeypatch, tmp_path)
    _fresh(tmp_path, "cli.db")
    status, _out, err = run("backup", folder)
    assert status == 1
    assert "holds a backup of 2 games" in err
    assert _files(folder) == before
    status, out, err = run("restore", folder)
    assert (status, err) == (0, "")
    assert "games restored: 2, already there: 0, files skipped: 0" in out


def test_partial_restores_a_game_whose_meta_is_damaged(
    app: Flask, client: FlaskClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "b"
    token = backed_up(app, client, folder)
    (folder / f"{token}.meta.json").write_text('"hi"')
    run = _commands(monkeypatch, tmp_path)
    status, _out, err = run("restore", folder)
    assert status == 1
    assert "(--partial restores the game without it)" in err
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    out_, err_ = io.StringIO(), io.StringIO()
    assert cli.backup_command("restore", str(folder), "en", out_, err_, partial=True) == 0
    assert "games restored: 1, already there: 1" in out_.getvalue()
    assert err_.getvalue().startswith(f"{token}.meta.json: its .meta.json file is damaged")


def test_a_backup_is_readable_by_its_owner_only(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    """Its file names and contents are the games' links."""
    folder = tmp_path / "b"
    backed_up(app, client, folder)
    assert folder.stat().st_mode & 0o077 == 0
    assert all(path.stat().st_mode & 0o077 == 0 for path in folder.iterdir())
