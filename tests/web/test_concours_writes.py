"""A concours's writes, each whole (issue 51): names in an imported event file
cleaned or refused at the import, as a game's are, never at a draw (an invisible
name was accepted, then refused by every draw, each committing an empty round); a
refused draw commits nothing; two draws at once make one round."""

from __future__ import annotations

import json

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.engine.errors import RulesError, problem
from referee.models import Event, EventRound, EventTable, Game
from referee.services import events as service
from tests.web.test_concours import create, version


def _file(app: Flask, client: FlaskClient, names: list[str]) -> bytes:
    client.get("/lang/en?next=/")
    token, _event = create(app, client, rounds="2")
    data = json.loads(client.get(f"/e/{token}/export.json").get_data())
    data["players"] = [{"number": i, "name": n} for i, n in enumerate(names, 1)]
    return json.dumps(data).encode()


PLAIN = ["Ana", "Bruno", "Chloé", "Dora", "Eve", "Fanny", "Gus", "Hugo"]


def test_invisible_and_bidi_characters_are_cleaned_at_import(
    app: Flask, client: FlaskClient
) -> None:
    typed = ["\u200bAna\u200b", "Bru\u00adno", "\u202eChloé\u202c", "Dora\u2800", *PLAIN[4:]]
    data = _file(app, client, typed)
    with app.app_context():
        event = service.import_event(data)
        assert [p.name for p in event.players] == PLAIN
        service.draw_round(event)  # every table's game takes these names
        assert len(event.rounds) == 1
        assert all(t.game_id is not None for t in event.tables)


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (["\u200b\u2800", *PLAIN[1:]], "The name of player 1 is missing"),  # only invisible
        (["Ana", "\u0410na", *PLAIN[2:]], "appears twice"),  # Cyrillic А: one name
        (["ana", "Ana", *PLAIN[2:]], "appears twice"),
        (["A" * 41, *PLAIN[1:]], "longer than 40 characters"),
        (["A" * 80, *PLAIN[1:]], "longer than 40 characters"),
    ],
)
def test_a_name_no_game_takes_is_refused_at_import(
    app: Flask, client: FlaskClient, names: list[str], said: str
) -> None:
    data = _file(app, client, names)
    with app.app_context():
        before = app.extensions["sqlalchemy"].session.query(Event).count()
        with pytest.raises(RulesError) as refused:
            service.import_event(data)
        assert said in "; ".join(refused.value.messages("en"))
        assert app.extensions["sqlalchemy"].session.query(Event).count() == before


def test_a_refused_draw_commits_nothing(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever refuses a draw midway (here: the third table's game), no round is
    left behind: the next draw is round 1 again."""
    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds="2")
    opened = []
    real = service._open_game

    def third_refused(row: Event, players: list[str]) -> object:
        opened.append(players)
        if len(opened) == 2:
            raise RulesError([problem("missing", "players")])
        return real(row, players)

    monkeypatch.setattr(service, "_open_game", third_refused)
    refused = client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    assert refused.status_code in (302, 422)
    with app.app_context():
        session = app.extensions["sqlalchemy"].session
        assert session.query(EventRound).count() == 0
        assert session.query(EventTable).count() == 0
        assert session.query(Game).count() == 0
    monkeypatch.setattr(service, "_open_game", real)
    drawn = client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    assert drawn.status_code == 302
    with app.app_context():
        loaded = service.find(token)
        assert loaded is not None
        assert [r.number for r in loaded.rounds] == [1]


def test_two_draws_at_once_make_one_round(app: Flask, client: FlaskClient) -> None:
    import threading

    client.get("/lang/en?next=/")
    token, _event = create(app, client, rounds="2")
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def director() -> None:
        with app.app_context():
            found = service.find(token)
            assert found is not None
            loaded = service.loaded(found.id)
            assert loaded is not None
            start.wait()
            try:
                service.draw_round(loaded, loaded.version)
            except service.StaleVersion:
                outcomes.append("stale")
            else:
                outcomes.append("drawn")

    phones = [threading.Thread(target=director) for _ in range(2)]
    for phone in phones:
        phone.start()
    for phone in phones:
        phone.join()
    assert sorted(outcomes) == ["drawn", "stale"]
    with app.app_context():
        session = app.extensions["sqlalchemy"].session
        assert session.query(EventRound).count() == 1
        tables = session.query(EventTable).count()
        assert tables == session.query(Game).count() == 18 // 4  # the loser's games too: none


def test_a_tables_game_cannot_be_removed(app: Flask, client: FlaskClient) -> None:
    """The trial of issue 51: a table's phone removed its game before the first
    deal, and the round could never end. Refused by the service, in words."""
    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds="2")
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    with app.app_context():
        loaded = service.find(token)
        assert loaded is not None
        game = loaded.tables[0].game_row
        assert game is not None
        game_token = game.token
    answer = client.post(f"/g/{game_token}/remove", data={"version": "0"})
    assert answer.status_code == 302
    shown = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "only the director changes it" in shown
    with app.app_context():
        session = app.extensions["sqlalchemy"].session
        assert session.query(Game).count() == session.query(EventTable).count() == 18 // 4
