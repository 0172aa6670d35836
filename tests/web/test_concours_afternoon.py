"""A concours survives a real afternoon (issue 52): nothing a table's phone or a
spectator reaches stalls a round; the director unsticks any table, fixes the list
of players, and states what a late arrival scores; the bell rings at the table;
a table's result is accepted by the table (its own code, an opponent's phone or
the director's PIN); the prints, the CSV files and the times say what happened."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee.events.concours import number as plain
from referee.events.concours import rank
from referee.extensions import db
from referee.models import Deal, Event, EventChange, EventTable, Game
from referee.services import events as service
from referee.services import games as game_service
from tests.web.test_concours import NAMES, create, fresh, page, play_round, version

#: The engine's messages only this file's pages raise (tests/engine/test_errors.py).
AFTERNOON_CODES = {
    "event_pin_wrong",
    "event_player_drawn",
    "event_deal_in_play",
    "event_accept_own",
    "event_bell",
    "event_key",
}


def _said(client: FlaskClient, token: str) -> str:
    """The director's page, with what was just flashed."""
    return page(client, f"/e/{token}")


def _draw(client: FlaskClient, token: str, view: str) -> None:
    drawn = client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    assert drawn.status_code == 302


def _deal(client: FlaskClient, game_token: str, *points: int) -> Any:
    values = {f"points{i}": str(p) for i, p in enumerate(points)}
    return client.post(f"/g/{game_token}/deal", data={"action": "save", **values})


def _table(app: Flask, event_id: int, number: int, round: int = 1) -> EventTable:
    event = fresh(app, event_id)
    return next(t for t in event.tables if t.round == round and t.number == number)


# --- a table's phone never stalls a round ----------------------------------------------


def test_a_table_phone_cannot_remove_rename_or_follow_its_concours_game(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client)
    _draw(client, token, event.view_token)
    table = _table(app, event.id, 1)
    assert table.game_row is not None
    game = table.game_row.token
    client.get(f"/c/{event.play_token}/1/play?k={service.table_key(event, 1)}")
    shown = page(client, f"/g/{game}")
    assert "Supprimer cette partie" not in shown  # not offered…
    assert "Renommer un joueur" not in shown
    assert "seul l’arbitre la modifie" in page(client, f"/g/{game}/remove")
    removed = client.post(f"/g/{game}/remove", data={"version": "0"})  # …and refused
    assert removed.status_code == 302
    renamed = client.post(f"/g/{game}/players", data={"seat": "0", "name": "X", "version": "0"})
    assert renamed.status_code == 302
    again = client.post(f"/g/{game}/again")
    assert again.headers["Location"].endswith(f"/g/{game}")
    with app.app_context():
        found = game_service.find(game)
        assert found is not None
        assert list(found.players) == [NAMES[s - 1] for s in table.seats]
        assert db.session.query(Game).count() == len(fresh(app, event.id).tables)
        # Refused by the service too, whatever page or program asks.
        for act in (
            lambda: game_service.remove(found, found.version),
            lambda: game_service.rename(found, 0, "Autre", found.version),
            lambda: game_service.again(found),
        ):
            try:
                act()
            except game_service.InConcours:
                continue
            raise AssertionError("a concours table's game was changed from its phone")
    # The round goes on: the table plays and is accepted.
    play_round(app, client, event.id, 1, seed=4)
    assert fresh(app, event.id).tables[0].accepted is not None


def test_the_director_unsticks_any_table_with_a_reason_kept(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client)
    view = event.view_token
    _draw(client, token, view)
    # Table 1's game is gone (as if its phone had removed it before the service refused).
    with app.app_context():
        row = db.session.get(EventTable, _table(app, event.id, 1).id)
        assert row is not None
        row.game_id = None
        db.session.commit()
    assert "no game: open it again" in page(client, f"/e/{token}")
    # Without a reason: refused, said.
    client.post(f"/e/{token}/round/1/table/1/reopen", data={"version": version(client, view)})
    assert "reason" in _said(client, token).lower()
    assert _table(app, event.id, 1).game_row is None
    reopened = client.post(
        f"/e/{token}/round/1/table/1/reopen",
        data={"version": version(client, view), "reason": "their phone lost the game"},
    )
    assert reopened.status_code == 302
    table = _table(app, event.id, 1)
    assert table.game_row is not None
    assert list(table.game_row.players) == [NAMES[s - 1] for s in table.seats]
    # Table 2 lost its phone: the director enters its result by hand.
    hand = {f"score{i}": str(v) for i, v in enumerate((12, -4, "−3", -5))}
    client.post(
        f"/e/{token}/round/1/table/2/by-hand",
        data={**hand, "version": version(client, view), "reason": "paper sheet"},
    )
    assert _table(app, event.id, 2).accepted == [12, -4, -3, -5]
    typo = client.post(
        f"/e/{token}/round/1/table/3/by-hand",
        data={"score0": "ten", "score1": "0", "score2": "0", "score3": "0", "reason": "x"},
    )
    assert typo.status_code == 302
    assert "ten" in _said(client, token)
    assert _table(app, event.id, 3).accepted is None
    # Table 3 left early: the director accepts its totals, saying why.
    client.post(f"/e/{token}/round/1/table/3/accept", data={"version": version(client, view)})
    assert _table(app, event.id, 3).accepted is None  # no reason: refused
    client.post(
        f"/e/{token}/round/1/table/3/accept",
        data={"version": version(client, view), "reason": "left early"},
    )
    assert _table(app, event.id, 3).accepted == [0, 0, 0, 0]
    history = page(client, f"/e/{token}")
    for reason in ("their phone lost the game", "paper sheet", "left early"):
        assert reason in history
    assert "result entered by the director" in history
    assert "game opened again by the director" in history
    # The reopened table plays; the round ends; round 2 is drawn.
    play_round(app, client, event.id, 1, seed=5, done=(2, 3))
    _draw(client, token, view)
    assert len(fresh(app, event.id).rounds) == 2


# --- players as a director needs them -------------------------------------------------


def test_players_renamed_removed_put_back_and_the_pot_follows(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client, entry_fee="10", prize_split="100")
    view = event.view_token
    assert "180,00" in page(client, f"/ev/{view}")  # 18 players × 10 €
    # A name typed by mistake is taken off: the next ones move up, the pot follows.
    client.post(f"/e/{token}/players/3/remove", data={"version": version(client, view)})
    said = _said(client, token)
    assert "Retiré de la liste\u202f: Joueur 3" in said
    assert "170,00" in said
    now = fresh(app, event.id)
    assert [p.number for p in now.players] == list(range(1, 18))
    assert "Joueur 3" not in [p.name for p in now.players]
    assert next(p for p in now.players if p.number == 3).name == "Joueur 4"
    # Undone at once: back at its number.
    removal = next(c for c in now.changes if c.action == "remove")
    client.post(
        f"/e/{token}/players/put-back/{removal.id}", data={"version": version(client, view)}
    )
    now = fresh(app, event.id)
    assert [p.name for p in now.players] == NAMES
    assert "180,00" in _said(client, token)
    # A typo renamed; a name another player has is refused.
    client.post(
        f"/e/{token}/players/5/rename",
        data={"name": "Joueuse Cinq", "version": version(client, view)},
    )
    client.post(
        f"/e/{token}/players/6/rename", data={"name": "joueur 7", "version": version(client, view)}
    )
    flashed = re.findall(r'class="flash"[^>]*>([^<]*)', _said(client, token))
    assert any("Joueur 7" in f and "Nom" in f for f in flashed), flashed
    names = [p.name for p in fresh(app, event.id).players]
    assert names[4] == "Joueuse Cinq"
    assert names[5] == "Joueur 6"
    # A withdrawal before round 1 leaves the pot, unless the director marks it paid.
    client.post(f"/e/{token}/players/18/withdraw", data={"version": version(client, view)})
    assert "170,00" in _said(client, token)
    client.post(f"/e/{token}/players/18/paid", data={"paid": "1", "version": version(client, view)})
    assert "180,00" in _said(client, token)
    client.post(f"/e/{token}/players/18/back", data={"version": version(client, view)})
    assert fresh(app, event.id).players[17].left is None
    # Once a round is drawn: no removal (a player who leaves withdraws).
    _draw(client, token, view)
    client.post(f"/e/{token}/players/2/remove", data={"version": version(client, view)})
    assert "un tour est tiré" in _said(client, token).lower()
    assert len(fresh(app, event.id).players) == 18
    # A rename during the round: the table's game follows, and so does the ranking.
    seated = fresh(app, event.id).tables[0]
    first = seated.seats[0]
    client.post(
        f"/e/{token}/players/{first}/rename",
        data={"name": "Premier", "version": version(client, view)},
    )
    again = next(t for t in fresh(app, event.id).tables if t.id == seated.id)
    assert again.game_row is not None
    assert again.game_row.players[0] == "Premier"
    # Results in: the ranking's CSV and the TV name who takes the prize.
    play_round(app, client, event.id, 1, seed=2)
    with app.app_context():
        found = service.loaded(event.id)
        assert found is not None
        first = service.ranking(found)[0]
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/ev/{view}/ranking.csv").get_data(as_text=True)[1:]),
            delimiter=";",
        )
    )
    assert rows[0][-1] == "Prix"
    assert rows[1][-1] == "180,00"
    assert f"{first.rank}. {first.name}" in page(client, f"/ev/{view}/tv")
    with app.app_context():
        found = service.loaded(event.id)
        assert found is not None
        assert "Premier" in [line.name for line in service.ranking(found)]


def test_a_withdrawal_undone_misses_the_rounds_between_and_they_add_up(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client, bye="average", late="zero")
    view = event.view_token
    _draw(client, token, view)
    play_round(app, client, event.id, 1, seed=1)
    client.post(f"/e/{token}/players/4/withdraw", data={"version": version(client, view)})
    # A late arrival before round 2.
    client.post(f"/e/{token}/players", data={"names": "Zoé", "version": version(client, view)})
    _draw(client, token, view)
    play_round(app, client, event.id, 2, seed=2)
    client.post(f"/e/{token}/players/4/back", data={"version": version(client, view)})
    assert "Back from round 3; round 2 is missed" not in (said := _said(client, token))
    assert "is back from round 3; round 2 is missed, scored as a late arrival" in said
    event_now = fresh(app, event.id)
    back = next(p for p in event_now.players if p.number == 4)
    assert (back.left, list(back.missed)) == (None, [2])
    _draw(client, token, view)
    third = fresh(app, event.id)
    assert any(4 in t.seats for t in third.tables if t.round == 3) or 4 in third.rounds[2].byes
    play_round(app, client, event.id, 3, seed=3)
    with app.app_context():
        found = service.loaded(event.id)
        assert found is not None
        lines = service.ranking(found)
    returned = next(line for line in lines if line.players == (4,))
    late = next(line for line in lines if line.players == (19,))
    assert returned.late == (2,)  # late arrivals score 0 here
    assert returned.rounds[1] == 0
    assert late.late == (1,)
    assert late.rounds[0] == 0
    assert not returned.withdrawn
    # Every personal results page adds up: one row a round, a late arrival's included.
    from tests.web.test_concours_prints import pdf_pages

    pages = pdf_pages(client.get(f"/ev/{view}/results.pdf").data)
    zoe = " ".join(next(p for p in pages if p.splitlines()[1] == "Zoé").split())
    assert re.search(r"\b1 not here – 0\b", zoe), zoe
    rows = re.findall(r"\b([123]) (?:table \d+, seat \d+|not here|sits out)", zoe)
    assert rows == ["1", "2", "3"]
    assert sum(r for r in late.rounds if r is not None) == late.points


# --- the bell rings where the table is -------------------------------------------------


def _timed(app: Flask, client: FlaskClient) -> tuple[str, Event]:
    client.get("/lang/en?next=/")
    token, event = create(app, client, length="30", length_kind="minutes")
    _draw(client, token, event.view_token)
    return token, fresh(app, event.id)


def _ring(app: Flask, event_id: int, deals_before: int = 0) -> None:
    """The round's bell rang a minute ago; the deals recorded so far before it."""
    with app.app_context():
        event = service.loaded(event_id)
        assert event is not None
        started = datetime.datetime.now(datetime.UTC).replace(tzinfo=None)
        started -= datetime.timedelta(minutes=31)
        event.rounds[-1].started_at = started
        for deal in db.session.query(Deal).all():
            deal.created_at = started + datetime.timedelta(minutes=5)
        db.session.commit()
    del deals_before


def test_a_timed_round_takes_the_deal_in_play_then_no_more(app: Flask, client: FlaskClient) -> None:
    token, event = _timed(app, client)
    play = event.play_token
    key = service.table_key(event, 1)
    client.get(f"/c/{play}/1/play?k={key}")
    table = _table(app, event.id, 1)
    assert table.game_row is not None
    game = table.game_row.token
    # The game page shows the round's clock, counted from the server's time.
    shown = page(client, f"/g/{game}")
    assert 'class="event-clock"' in shown
    assert "data-time-url" in shown
    assert _deal(client, game, 5, -1, -2, -2).status_code == 302
    _ring(app, event.id)
    card = page(client, f"/c/{play}/1?k={key}")
    assert "Time is up: the deal in play is the last" in card
    # Before the deal in play is in: not accepted (from an opponent's phone).
    opponent = app.test_client()
    opponent.get("/lang/en?next=/")
    opponent.get(f"/c/{play}/1?k={key}")
    who = NAMES[table.seats[1] - 1]
    early = opponent.post(f"/c/{play}/1", data={"who": who})
    assert early.status_code == 422
    assert "the deal in play is the last: enter it first" in early.get_data(as_text=True)
    # The deal in play is entered after the bell; the next one is refused.
    assert _deal(client, game, 1, 1, 1, -3).status_code == 302
    refused = _deal(client, game, 2, 2, -2, -2)
    assert refused.headers["Location"].endswith(f"/c/{play}/1")
    with app.app_context():
        assert len(game_service.find(game).deals) == 2  # type: ignore[union-attr]
    api = client.post(
        f"/api/v1/edit/{game}/deals",
        data=json.dumps({"deal": {"points": [1, 1, 1, -3]}}),
        content_type="application/json",
    )
    assert api.status_code == 409
    assert api.get_json()["type"].endswith("round-over")
    # The director lets the table play on: one more deal counts.
    client.post(
        f"/e/{token}/round/1/table/1/overtime",
        data={"on": "1", "version": version(client, event.view_token)},
    )
    assert _deal(client, game, 2, 2, -2, -2).status_code == 302
    with app.app_context():
        assert len(game_service.find(game).deals) == 3  # type: ignore[union-attr]
    # Playing on, the table accepts when it stops.
    accepted = opponent.post(f"/c/{play}/1", data={"who": who})
    assert accepted.status_code == 302
    assert _table(app, event.id, 1).accepted == [8, 2, -3, -7]


def test_a_copy_kept_ahead_leaves_the_bells_words_to_the_page(
    app: Flask, client: FlaskClient
) -> None:
    """The scoreboard asks for the next deal's form in the background (the copy kept
    ahead, `X-Referee-Ahead`); when that request lands after the bell's words were
    flashed, its answer (a 409 page) must not eat them: the table's card says them."""
    token, event = _timed(app, client)
    play = event.play_token
    key = service.table_key(event, 1)
    client.get(f"/c/{play}/1/play?k={key}")
    table = _table(app, event.id, 1)
    assert table.game_row is not None
    game = table.game_row.token
    assert _deal(client, game, 5, -1, -2, -2).status_code == 302
    _ring(app, event.id)
    assert _deal(client, game, 1, 1, 1, -3).status_code == 302
    page(client, f"/g/{game}")
    led = client.get(f"/g/{game}/deal")
    assert led.headers["Location"].endswith(f"/c/{play}/1")
    ahead = client.get(f"/g/{game}/deal", headers={"X-Referee-Ahead": "1"})
    assert ahead.status_code == 409
    assert "Time is up" not in ahead.get_data(as_text=True)
    card = page(client, f"/c/{play}/1?k={key}")
    assert re.search(r'class="flash"[^>]*>Time is up', card)
    del token


def test_no_deal_in_play_at_the_bell_is_said_when_accepting(
    app: Flask, client: FlaskClient
) -> None:
    _token, event = _timed(app, client)
    play, key = event.play_token, service.table_key(event, 2)
    table = _table(app, event.id, 2)
    assert table.game_row is not None
    client.get(f"/c/{play}/2?k={key}")
    _deal(client, table.game_row.token, 3, -1, -1, -1)
    _ring(app, event.id)
    opponent = app.test_client()
    opponent.get(f"/c/{play}/2?k={key}")
    who = NAMES[table.seats[2] - 1]
    said = opponent.post(f"/c/{play}/2", data={"who": who, "none_in_play": "1"})
    assert said.status_code == 302
    assert _table(app, event.id, 2).accepted == [3, -1, -1, -1]


# --- acceptance by the table, not by the link ------------------------------------------


def test_the_tables_link_alone_accepts_and_enters_nothing(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client)
    _draw(client, token, event.view_token)
    play = event.play_token
    table = _table(app, event.id, 1)
    assert table.game_row is not None
    stranger = app.test_client()
    stranger.get("/lang/fr?next=/")
    # The tables' page and a card: no way to the game's editing link.
    assert table.game_row.token not in stranger.get(f"/c/{play}").get_data(as_text=True)
    card = page(stranger, f"/c/{play}/1")
    assert table.game_row.token not in card
    assert "scannez le QR code" in card
    opened = stranger.get(f"/c/{play}/1/play")
    assert opened.headers["Location"].endswith(f"/c/{play}/1")
    # Another table's code does not open this table.
    other = service.table_key(event, 2)
    assert stranger.get(f"/c/{play}/1/play?k={other}").headers["Location"].endswith(f"/c/{play}/1")
    # Played to its end by its own phone; the stranger's acceptance is refused.
    play_round(app, client, event.id, 1, seed=1, done=(2, 3, 4))


def test_the_phone_that_entered_the_deals_accepts_with_the_pin_or_when_allowed(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client)
    view, play = event.view_token, event.play_token
    _draw(client, token, view)
    service._WRONG_PINS.clear()
    for number in (1, 2):
        table = _table(app, event.id, number)
        assert table.game_row is not None
        client.get(f"/c/{play}/{number}?k={service.table_key(event, number)}")
        for _ in range(2):
            _deal(client, table.game_row.token, 3, -1, -1, -1)
    who = NAMES[_table(app, event.id, 1).seats[1] - 1]
    own = client.post(f"/c/{play}/1", data={"who": who})
    assert own.status_code == 422
    assert "this phone entered the deals" in own.get_data(as_text=True).lower()
    assert "Director's PIN" in own.get_data(as_text=True)
    for typed in ("é1", "☃", "１２３４"):  # typed anyhow: refused, never an error
        wrong = client.post(f"/c/{play}/1", data={"who": who, "pin": typed})
        assert wrong.status_code == 422
        assert "This is not the director&#39;s PIN" in wrong.get_data(as_text=True)
    assert client.get(f"/c/{play}/1?k=é€").status_code == 200
    with_pin = client.post(f"/c/{play}/1", data={"who": who, "pin": service.director_pin(event)})
    assert with_pin.status_code == 302
    # Guessing is cut short: past 5 wrong PINs in 10 minutes, none is checked.
    third = _table(app, event.id, 3)
    assert third.game_row is not None
    client.get(f"/c/{play}/3?k={service.table_key(event, 3)}")
    for _ in range(2):
        _deal(client, third.game_row.token, 3, -1, -1, -1)
    who3 = NAMES[third.seats[1] - 1]
    for guess in ("0000", "1111"):
        client.post(f"/c/{play}/3", data={"who": who3, "pin": guess})
    locked = client.post(f"/c/{play}/3", data={"who": who3, "pin": service.director_pin(event)})
    assert locked.status_code == 422
    assert "Too many wrong PINs" in locked.get_data(as_text=True)
    assert _table(app, event.id, 3).accepted is None
    # One phone a table: the director allows it for the whole concours.
    client.post(
        f"/e/{token}/settings",
        data={
            "self_accept": "1",
            "slides": ["ranking", "results"],
            "seconds": "20",
            "version": version(client, view),
        },
    )
    who2 = NAMES[_table(app, event.id, 2).seats[1] - 1]
    assert client.post(f"/c/{play}/2", data={"who": who2}).status_code == 302
    history = page(client, f"/e/{token}")
    assert "on the phone that entered the deals (director's PIN)" in history
    # The TV shows the slides chosen, each for the seconds chosen.
    tv = page(client, f"/ev/{view}/tv")
    assert 'data-rotate="20"' in tv
    assert 'aria-label="Ranking"' in tv
    assert 'aria-label="Seating"' not in tv
    with app.app_context():
        stored = service.find(token)
        assert stored is not None
        assert stored.screen == {"slides": ["ranking", "results"], "seconds": 20}
    client.post(
        f"/e/{token}/settings",
        data={"slides": [], "seconds": "2", "version": version(client, view)},
    )
    said = _said(client, token).lower()
    assert "seconds a slide" in said
    assert "the tv&#39;s slides" in said


# --- prints, CSV and times --------------------------------------------------------------


def test_route_slips_carry_the_whole_draw_marked_with_its_code(
    app: Flask, client: FlaskClient
) -> None:
    from tests.web.test_concours_prints import pdf_pages

    client.get("/lang/en?next=/")
    token, event = create(app, client)
    slips = " ".join(pdf_pages(client.get(f"/e/{token}/print/slips.pdf").data))
    code = re.search(r"draw ([0-9A-F]{4})", slips)
    assert code is not None
    # Before round 1, every round of the plan is on the slips.
    for r in range(1, 5):
        assert re.search(rf"Round {r}\s*(?:table \d+, seat \d|sits out)", slips)
    # The draw then made is the one printed.
    _draw(client, token, event.view_token)
    drawn = fresh(app, event.id)
    again = " ".join(pdf_pages(client.get(f"/e/{token}/print/slips.pdf").data))
    assert f"draw {code.group(1)}" in again
    with app.app_context():
        loaded = service.loaded(event.id)
        assert loaded is not None
        from referee.events.plan import planned

        plan = planned(service.concours_of(loaded))
    assert plan.code == code.group(1)
    assert all(2 in seats for seats in plan.seats.values() if seats)
    # A late arrival: another draw, another code.
    client.post(
        f"/e/{token}/players", data={"names": "Zoé", "version": version(client, drawn.view_token)}
    )
    director = page(client, f"/e/{token}")
    changed = re.search(r"Route slips changed since draw ([0-9A-F]{4}): (\d+)", director)
    assert changed is not None
    assert changed.group(1) == code.group(1)
    only = pdf_pages(client.get(f"/e/{token}/print/slips.pdf?since={code.group(1)}").data)
    reprinted = " ".join(only)
    assert "Zoé" in reprinted  # a new slip…
    assert reprinted.count(" no. ") == int(changed.group(2))  # …and the changed ones only
    later = " ".join(pdf_pages(client.get(f"/e/{token}/print/slips.pdf").data))
    assert f"draw {code.group(1)}" not in later
    assert "Route slips changed" not in page(client, f"/e/{token}")  # reprinted whole


def test_the_ranking_and_players_as_csv_in_both_languages(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client, bye="average")
    client.post(
        f"/e/{token}/players/2/rename",
        data={"name": "=HYPERLINK(1)", "version": version(client, event.view_token)},
    )
    _draw(client, token, event.view_token)
    play_round(app, client, event.id, 1, seed=7)
    answer = client.get(f"/ev/{event.view_token}/ranking.csv")
    assert answer.mimetype == "text/csv"
    text = answer.get_data(as_text=True)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert rows[0][:3] == ["Rang", "Joueur", "Points"]
    assert "Tour 1" in rows[0]
    assert "Départagé par" in rows[0]
    assert len(rows) == 19
    assert any(r[1] == "'=HYPERLINK(1)" for r in rows)  # never a formula
    with app.app_context():
        found = service.loaded(event.id)
        assert found is not None
        lines = service.ranking(found)
    by_name = {r[1].lstrip("'"): r for r in rows[1:]}
    for line in lines:
        assert by_name[line.name][2] == str(plain(line.points)).replace(".", ",")
    assert "Prix" not in rows[0]  # no prizes stated: no column
    client.get("/lang/en?next=/")
    english = client.get(f"/ev/{event.view_token}/ranking.csv").get_data(as_text=True)
    assert english.lstrip("\ufeff").startswith("Rank,Player,Points")
    players = client.get(f"/e/{token}/players.csv").get_data(as_text=True)
    assert players.lstrip("\ufeff").splitlines()[1] == "1,Joueur 1,1,,"


def test_times_are_the_clubs_and_an_export_keeps_them(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client, time_zone="Europe/Paris")
    _draw(client, token, event.view_token)
    with app.app_context():
        found = service.loaded(event.id)
        assert found is not None
        assert found.time_zone == "Europe/Paris"
        winter = datetime.datetime(2026, 12, 5, 13, 7)
        found.rounds[0].started_at = winter
        for change in found.changes:
            change.at = winter
        db.session.commit()
    director = page(client, f"/e/{token}")
    assert "14:07" in director  # Paris is UTC+1 in December
    assert "13:07" not in director
    exported = client.get(f"/e/{token}/export.json").get_json()
    assert exported["time_zone"] == "Europe/Paris"
    assert exported["rounds"][0]["started"] == "2026-12-05T13:07:00"
    moved = client.post(
        "/events/import",
        data={"file": (io.BytesIO(json.dumps(exported).encode()), "c.json")},
        content_type="multipart/form-data",
    )
    new_token = moved.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        imported = service.find(new_token)
        assert imported is not None
        assert imported.rounds[0].started_at == winter
        assert imported.time_zone == "Europe/Paris"
    # A zone no club has is refused by the form, said in words.
    refused = client.post(
        "/events/new",
        data={
            "name": "X",
            "game": "pad",
            "rounds": "2",
            "length": "2",
            "players": "a\nb\nc\nd",
            "time_zone": "Mars/Olympus Mons",
        },
    )
    assert refused.status_code == 422
    assert "fuseau horaire" in refused.get_data(as_text=True)


# --- the director's page fits the director ---------------------------------------------


def test_what_waits_for_the_director_comes_first(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client)
    view = event.view_token
    _draw(client, token, view)
    play_round(app, client, event.id, 1, seed=1)
    client.post(
        f"/e/{token}/round/1/table/2/correct",
        data={"reason": "wrong deal 2", "version": version(client, view)},
    )
    director = page(client, f"/e/{token}")
    waiting = director.index("Waiting for you")
    assert (
        waiting
        < director.index("Correction of round 1, table 2")
        < director.index("Apply the correction")
    )
    assert director.index("Apply the correction") < director.index("<details")
    assert director.count("Apply the correction") == 1
    with app.app_context():
        changes = db.session.query(EventChange).filter_by(action="correct").count()
    assert changes == 1


def test_the_late_rule_is_a_setting_apart_from_byes() -> None:
    from referee.events.concours import Concours, Late, Played, Player, Ranking, Table
    from referee.events.draw import Format

    def ranked(late: Late) -> dict[int, Any]:
        concours = Concours(
            game="pad",
            format=Format.INDIVIDUAL,
            rounds=2,
            seed=1,
            ranking=Ranking(bye=5, late=late),
            players=(*(Player(n, f"P{n}") for n in range(1, 5)), Player(5, "Late", joined=2)),
            played=(
                Played(1, (Table(1, (1, 2, 3, 4), (10, 20, 30, 40), True),)),
                Played(2, (Table(1, (5, 2, 3, 4), (1, 2, 3, 4), True),), byes=(1,)),
            ),
        )
        return {line.players[0]: line for line in rank(concours)}

    assert ranked(Late.ZERO)[5].rounds == (0, 1)
    assert ranked(Late.BYE)[5].rounds == (5, 1)
    assert ranked(Late.AVERAGE)[5].rounds == (25, 1)
    assert ranked(Late.ZERO)[1].rounds == (10, 5)  # a bye is the bye's, whatever the rule
    assert ranked(Late.ZERO)[5].late == (1,)


def test_a_removal_moves_every_field_and_takes_a_fixed_pair_whole(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client, entry_fee="5")
    view = event.view_token
    # Player 9 withdrew before round 1 (and paid); player 2 is then taken off.
    client.post(f"/e/{token}/players/9/withdraw", data={"version": version(client, view)})
    client.post(f"/e/{token}/players/9/paid", data={"paid": "1", "version": version(client, view)})
    client.post(f"/e/{token}/players/2/remove", data={"version": version(client, view)})
    now = {p.name: p for p in fresh(app, event.id).players}
    assert now["Joueur 9"].number == 8
    assert now["Joueur 9"].left == 0  # still the one who withdrew…
    assert now["Joueur 9"].paid
    assert now["Joueur 8"].left is None  # …and nobody else
    assert not now["Joueur 8"].paid
    # A game of old phones: a table's game opened again leads them to its card.
    _draw(client, token, view)
    table = _table(app, event.id, 1)
    assert table.game_row is not None
    old = table.game_row.token
    client.post(
        f"/e/{token}/round/1/table/1/reopen",
        data={"version": version(client, view), "reason": "a phone wrote on paper"},
    )
    moved = client.get(f"/g/{old}")
    assert moved.status_code == 302
    assert moved.headers["Location"].endswith(f"/c/{event.play_token}/1")

    # Fixed pairs: the pair goes, and comes back, together.
    token, event = create(app, client, format="pairs")
    view = event.view_token
    client.post(f"/e/{token}/players/4/remove", data={"version": version(client, view)})
    names = [p.name for p in fresh(app, event.id).players]
    assert names == [n for n in NAMES if n not in ("Joueur 3", "Joueur 4")]
    assert "Joueur 3 &amp; Joueur 4" in _said(client, token)
    removal = next(c for c in fresh(app, event.id).changes if c.action == "remove")
    client.post(
        f"/e/{token}/players/put-back/{removal.id}", data={"version": version(client, view)}
    )
    assert [p.name for p in fresh(app, event.id).players] == NAMES


def test_only_the_slips_whose_seats_moved_are_reprinted() -> None:
    from referee.events.plan import Planned, changed_since

    plan = Planned("AAAA", {1: {2: (1, 1)}, 2: {2: (1, 2)}, 3: {2: None}})
    printed = {"code": "BBBB", "seats": {"1": {"2": [1, 1]}, "2": {"2": [2, 2]}}}
    assert changed_since(plan, printed) == {2, 3}  # 2 moved, 3 is new; 1 stays
    assert changed_since(plan, None) is None  # no such print: every slip


def test_a_phone_that_entered_deals_by_the_games_link_is_still_that_phone(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client)
    _draw(client, token, event.view_token)
    table = _table(app, event.id, 1)
    assert table.game_row is not None
    other = app.test_client()  # the game's link only, never the table's card
    other.get(f"/g/{table.game_row.token}")
    for _ in range(2):
        _deal(other, table.game_row.token, 3, -1, -1, -1)
    assert other.get_cookie("referee_phone") is not None
    # Its session lost (a race of two requests): the phone's own cookie names it.
    with other.session_transaction() as held:
        held.clear()
    key = service.table_key(event, 1)
    other.get(f"/c/{event.play_token}/1?k={key}")
    refused = other.post(f"/c/{event.play_token}/1", data={"who": NAMES[table.seats[1] - 1]})
    assert refused.status_code == 422
    said = refused.get_data(as_text=True)  # in French: the session held the language
    assert "Ce téléphone a saisi les donnes" in said
