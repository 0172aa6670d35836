"""A game read to be shown (`services.games.shown`): its deals as plain rows, not ORM
objects, and always of the version beside them (issue 19)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, inspect

from referee.extensions import db
from referee.models import Deal
from referee.services import games as service
from referee.web.pages import render_game_page
from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import PLAYERS, deal, tricks


def _three_deals(client: FlaskClient) -> str:
    token = new_game(client, "boulmous", PLAYERS)
    assert (
        deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0)).status_code
        == 302
    )
    assert deal(client, token, passed=1).status_code == 302
    assert (
        deal(client, token, taker=0, bid=3, contract="hearts", **tricks(3, 1, 1, 1)).status_code
        == 302
    )
    return token


@pytest.fixture
def deals_built() -> Iterator[list[int]]:
    """Every `Deal` object the ORM builds from a row, while the test runs."""
    built: list[int] = []

    def loaded(target: Deal, context: Any) -> None:
        built.append(target.position)

    event.listen(Deal, "load", loaded)
    yield built
    event.remove(Deal, "load", loaded)


def test_the_deals_shown_are_the_stored_ones_without_their_objects(
    app: Flask, client: FlaskClient, deals_built: list[int]
) -> None:
    token = _three_deals(client)
    with app.app_context():
        stored = service.find(token)
        assert stored is not None
        expected = [d.data for d in stored.deals]
        version = stored.version
        db.session.remove()
        deals_built.clear()
        found = service.shown(token)
        assert found is not None
        game, deals = found
        assert deals == expected
        assert game.version == version
        assert deals_built == []  # read as rows: no ORM object for any deal
        assert "deals" in inspect(game).unloaded
        assert service.shown("no-such-token") is None
        db.session.remove()


def test_a_game_without_deals_is_shown_with_none(app: Flask, client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    with app.app_context():
        found = service.shown(token)
        assert found is not None
        assert found[1] == []
        db.session.remove()


def test_a_write_between_the_two_reads_is_read_again(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another phone records a deal after the game's row was read and before its
    deals were: the deals of the newer version do not go with the older row."""
    token = _three_deals(client)
    real = service._rows
    wrote: list[bool] = []

    def another_phone_first(sql: str, *params: object) -> list[Any]:
        if sql == service._DEALS_SHOWN and not wrote:
            wrote.append(True)
            with app.app_context():  # the other phone: a session of its own
                other = service.find(token)
                assert other is not None
                service.add_deal(other, {"passed": True})
                db.session.remove()
        return real(sql, *params)

    monkeypatch.setattr(service, "_rows", another_phone_first)
    with app.app_context():
        service._reads().clear()  # the version's deals not kept: read from the database
        found = service.shown(token)
        assert found is not None
        game, deals = found
        assert wrote == [True]
        assert len(deals) == 4
        assert deals[-1] == {"passed": True}
        assert game.version == service.version_of(token)
        db.session.remove()


def test_the_page_drawn_from_a_shown_game_is_the_page_of_the_game(
    app: Flask, client: FlaskClient
) -> None:
    token = _three_deals(client)
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        found = service.shown(token)
        assert found is not None
        drawn = render_game_page(found[0], deals=found[1])
        db.session.remove()
        game = service.find(token)
        assert game is not None
        assert drawn == render_game_page(game)
        db.session.remove()


def test_the_deal_form_and_the_new_page_build_no_deal_object(
    client: FlaskClient, deals_built: list[int]
) -> None:
    """The three reads of a deal (its form, its post, and the page every phone
    shares, drawn once a version) build no ORM object per deal: the post appends
    the deal to the game as read to be shown (`add_deal(shown=)`)."""
    token = _three_deals(client)
    deals_built.clear()
    form = client.get(f"/g/{token}/deal")
    assert form.status_code == 200
    assert 'name="key"' in form.get_data(as_text=True)
    assert deals_built == []
    assert deal(client, token, passed=1).status_code == 302
    assert deals_built == []
    page = client.get(f"/g/{token}")
    assert page.status_code == 200
    assert "Ana" in page.get_data(as_text=True)
    assert deals_built == []


@pytest.fixture
def digests(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of deals of each record digested (`_state_key`) from now on."""
    real = service._state_key
    counted: list[int] = []

    def digest(record: dict[str, Any]) -> bytes:
        counted.append(len(record["deals"]))
        return real(record)

    monkeypatch.setattr(service, "_state_key", digest)
    return counted


def test_the_deal_form_scores_the_game_once(client: FlaskClient, digests: list[int]) -> None:
    """The form's view hands its one scoring to the page it draws: each scoring
    digests the whole record again (five a form before, issue 19)."""
    token = _three_deals(client)
    digests.clear()
    with client.application.app_context():
        service._reads().clear()  # as another worker's form: nothing of it kept here
    assert client.get(f"/g/{token}/deal").status_code == 200
    assert digests == [3]
    # The next form of the same version: read and digested once a version (`_reads`).
    assert client.get(f"/g/{token}/deal").status_code == 200
    assert digests == [3]


@pytest.mark.parametrize(
    "example", ["boulmous-with-stake.json", "bombu-first-manche.json", "pitch-moon.json"]
)
def test_every_games_form_and_pages_build_no_deal_object(
    app: Flask, client: FlaskClient, deals_built: list[int], examples_dir: Any, example: str
) -> None:
    with app.app_context():
        imported = service.import_record((examples_dir / example).read_bytes())
        token, spectators = imported.token, imported.view_token
        db.session.remove()
    deals_built.clear()
    form = client.get(f"/g/{token}/deal")
    page = client.get(f"/g/{token}")
    seen = client.get(f"/v/{spectators}")
    assert form.status_code in (200, 302)  # a finished game's form sends to its page
    assert page.status_code == 200
    assert seen.status_code == 200
    assert deals_built == []


def test_a_deal_appended_to_a_shown_game_another_phone_wrote_to_goes_after_it(
    app: Flask, client: FlaskClient
) -> None:
    """The post appends to the game as it read it (`add_deal(shown=)`); another
    phone's deal written since makes that write stale: it is tried again against
    the game read whole, and goes after the other's (or, for a form opened for
    that deal, says so)."""
    token = _three_deals(client)
    with app.app_context():
        found = service.shown(token)
        assert found is not None
        game, deals = found
        version = game.version
        scored = service.scored(game, deals)
        with app.app_context():  # the other phone: a session of its own
            other = service.find(token)
            assert other is not None
            service.add_deal(other, {"passed": True})
            db.session.remove()
        with pytest.raises(service.DealTaken):
            service.add_deal(game, {"passed": True}, number=4, shown=(deals, scored))
        db.session.rollback()
        added = service.add_deal(game, {"passed": True}, shown=(deals, scored))
        assert added == service.Recorded(5, version + 2)
        db.session.remove()
        stored = service.find(token)
        assert stored is not None
        assert [d.data for d in stored.deals][3:] == [{"passed": True}] * 2
        db.session.remove()


@pytest.mark.parametrize(
    "example", ["boulmous-with-stake.json", "bombu-first-manche.json", "pitch-moon.json"]
)
def test_a_deal_appended_to_a_shown_game_is_stored_as_the_whole_game_stores_it(
    app: Flask, examples_dir: Path, example: str
) -> None:
    """Each game's last deal of an example, appended to the game read to be
    shown: stored as the same canonical deal, scored the same, remembered with the
    same outcome, as the whole game replayed (`add_deal` without `shown`)."""
    record = json.loads((examples_dir / example).read_text())
    last = record["deals"][-1]
    start = json.dumps({**record, "deals": record["deals"][:-1]}).encode()
    stored = []
    with app.app_context():
        for appended in (True, False):
            token = service.import_record(start).token
            db.session.remove()
            if appended:
                found = service.shown(token)
                assert found is not None
                game, deals = found
                shown = (deals, service.scored(game, deals))
                service.add_deal(game, last, shown=shown)
            else:
                whole = service.find(token)
                assert whole is not None
                service.add_deal(whole, last)
            db.session.remove()
            game = service.find(token)
            assert game is not None
            stored.append(
                (
                    [d.data for d in game.deals],
                    game.version,
                    game.finished,
                    game.outcome,
                    service.scored(game).standings,
                )
            )
            db.session.remove()
    assert stored[0] == stored[1]
    assert len(stored[0][0]) == len(record["deals"])


@pytest.fixture
def deal_reads(app: Flask) -> Iterator[list[str]]:
    """Every read of a game's deals from the database (`_DEALS_SHOWN`, or the ORM's
    deal rows), while the test runs."""
    reads: list[str] = []

    def executed(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "FROM deal" in statement or "JOIN deal" in statement:
            reads.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", executed)
    yield reads
    event.remove(engine, "before_cursor_execute", executed)


def test_a_deals_post_and_the_page_and_form_after_it_read_no_deals(
    client: FlaskClient, deal_reads: list[str], digests: list[int]
) -> None:
    """A table's deal: its form, its post and the page after it read the same game.
    The deals of the version the post writes are kept with it (`_reads`): the page
    drawn after it, and the next deal's form, read the game's row alone, and the
    record's digest is made once, by the post (issue 19)."""
    token = _three_deals(client)
    assert client.get(f"/g/{token}/deal").status_code == 200
    digests.clear()
    deal_reads.clear()
    assert deal(client, token, passed=1).status_code == 302
    page = client.get(f"/g/{token}")
    assert page.status_code == 200
    form = client.get(f"/g/{token}/deal")
    assert form.status_code == 200
    assert 'name="number" value="5"' in form.get_data(as_text=True)
    assert deal_reads == []
    assert digests == [4]


def test_the_deals_kept_are_those_stored_and_move_with_every_change(
    app: Flask, client: FlaskClient
) -> None:
    """What the post keeps is what a read of the database gives; a correction and an
    undo move the version, so the next read shows the change, not the kept deals."""
    token = _three_deals(client)
    assert (
        deal(client, token, taker=2, bid=5, contract="clubs", **tricks(0, 1, 5, 0)).status_code
        == 302
    )
    with app.app_context():
        found = service.shown(token)
        assert found is not None
        kept = found[1]
        service._reads().clear()
        again = service.shown(token)
        assert again is not None
        assert json.dumps(again[1], sort_keys=True) == json.dumps(kept, sort_keys=True)
        assert again[1] == kept
        db.session.remove()
    assert client.post(
        f"/g/{token}/undo", data={"version": str(_version(app, token))}
    ).status_code in (302, 303)
    with app.app_context():
        found = service.shown(token)
        assert found is not None
        assert len(found[1]) == 3
        db.session.remove()


def _version(app: Flask, token: str) -> int:
    with app.app_context():
        version = service.version_of(token)
        db.session.remove()
    assert version is not None
    return version


def test_a_deal_that_fits_is_written_without_looking_up_its_form_key(
    app: Flask, client: FlaskClient
) -> None:
    """A post whose deal takes the place its form was opened for is written at once:
    its key, the primary key of its row, is not looked up first (one query a deal
    fewer, issue 19). A key used already fails that write, and the post then says
    what the key did: the form sent twice records one deal."""
    token = _three_deals(client)
    lookups: list[str] = []

    def executed(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "FROM submission" in statement:
            lookups.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", executed)
    try:
        form = {"action": "save", "passed": "1", "number": "4", "key": "key-of-deal-four"}
        client.get("/lang/en?next=/")
        assert client.post(f"/g/{token}/deal", data=form).status_code == 302
        assert lookups == []
        again = client.post(f"/g/{token}/deal", data=form, follow_redirects=True)
        assert "already recorded" in again.get_data(as_text=True)
        assert lookups  # found once the deal no longer fits
        lookups.clear()
        form |= {"number": "5", "key": "key-of-deal-five"}
        assert client.post(f"/g/{token}/deal", data=form).status_code == 302
        form["number"] = "6"  # the same key, and a place that fits: the write finds it
        again = client.post(f"/g/{token}/deal", data=form, follow_redirects=True)
        assert "already recorded" in again.get_data(as_text=True)
    finally:
        event.remove(engine, "before_cursor_execute", executed)
    assert len(client.get(f"/g/{token}/export.json").get_json()["deals"]) == 5
