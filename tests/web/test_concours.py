"""A whole concours through the pages (issue 41): 18 players checked in, a late
arrival before round 2, a withdrawal after round 2, 4 rounds played at the tables'
phones and accepted by an opponent, a result of round 1 corrected during round 3
by the director, the final ranking equal to `referee rank` on the exported file."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.cli import rank_command
from referee.events.concours import rank
from referee.events.eventfile import parse_event
from referee.models import Event
from referee.services import events as service

NAMES = [f"Joueur {n}" for n in range(1, 19)]


def page(client: FlaskClient, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.get_data(as_text=True)


def fresh(app: Flask, event_id: int) -> Event:
    """The event as the database has it now, read whole (used outside the request)."""
    with app.app_context():
        event = service.loaded(event_id)
        assert event is not None
        for table in event.tables:  # read now: the test looks at them outside
            if table.game_row is not None:
                assert table.game_row.deals is not None
        return event


def version(client: FlaskClient, view: str) -> str:
    return str(client.get(f"/ev/{view}/version.json").get_json()["version"])


def create(app: Flask, client: FlaskClient, **more: str) -> tuple[str, Event]:
    form = {
        "name": "Concours du samedi",
        "game": "pad",
        "format": "individual",
        "table_size": "4",
        "rounds": "4",
        "length": "2",
        "length_kind": "deals",
        "rule": "score",
        "tie_breaks": ["wins", "opponents", "lot"],
        "bye": "0",
        # Pasted from a club's list: numbered, with a blank line.
        "players": "\n".join(f"{i}. {n}" for i, n in enumerate(NAMES, 1)) + "\n\n",
        **more,
    }
    response = client.post("/events/new", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)
    token = response.headers["Location"].rsplit("/", 1)[1]
    with app.app_context():
        found = service.find(token)
        assert found is not None
        return token, fresh(app, found.id)


def play_round(
    app: Flask,
    client: FlaskClient,
    event_id: int,
    round: int,
    seed: int,
    done: tuple[int, ...] = (),
) -> None:
    """Every table of the round (but those `done`) plays its two deals on its game's
    page, then an opponent accepts on the table's card."""
    event = fresh(app, event_id)
    play = event.play_token
    for table in [t for t in event.tables if t.round == round and t.number not in done]:
        assert table.game_row is not None
        # The table's phone scans its card's QR code, which holds the table's code.
        key = service.table_key(event, table.number)
        card = page(client, f"/c/{play}/{table.number}?k={key}")
        game_token = table.game_row.token
        assert f"/g/{game_token}" in card  # the card opens the table's game
        for deal in range(2):
            points = {
                f"points{i}": str((seed + table.number * 7 + deal * 3 + i * 5) % 23 - 11)
                for i in range(4)
            }
            posted = client.post(f"/g/{game_token}/deal", data={"action": "save", **points})
            assert posted.status_code == 302
        names = [p.name for p in event.players]
        who = names[table.seats[1] - 1]
        current = version(client, event.view_token)
        # The phone that entered the deals does not accept for the opponents...
        refused = client.post(f"/c/{play}/{table.number}", data={"who": who, "version": current})
        assert refused.status_code == 422
        # ... an opponent does, on their own phone (scanning the same QR code).
        opponent = app.test_client()
        page(opponent, f"/c/{play}/{table.number}?k={key}")
        accepted = opponent.post(f"/c/{play}/{table.number}", data={"who": who, "version": current})
        assert accepted.status_code == 302, accepted.get_data(as_text=True)
        # Accepted: the table's phones can no longer change the game (its link
        # leads to the table's card).
        assert client.get(f"/g/{game_token}").status_code == 302
        moved = client.post(f"/g/{game_token}/deal", data={"action": "save", "points0": "1"})
        assert moved.status_code == 302
        assert f"/c/{play}/" in moved.headers["Location"]


def test_a_whole_concours_through_the_pages(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client)
    event_id, view, play = event.id, event.view_token, event.play_token
    director = page(client, f"/e/{token}")
    assert "18 joueurs" in director
    assert "la somme des scores de table" in director  # the rule, stated before it starts

    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    tables_page = page(client, f"/c/{play}")
    assert "Table 4" in tables_page
    assert "Joueur 7" in tables_page
    play_round(app, client, event_id, 1, seed=1)

    # A late arrival before round 2.
    client.post(f"/e/{token}/players", data={"names": "Aurélie", "version": version(client, view)})
    assert "à partir du tour 2" in page(client, f"/e/{token}")
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    play_round(app, client, event_id, 2, seed=2)

    # A withdrawal after round 2.
    client.post(f"/e/{token}/players/3/withdraw", data={"version": version(client, view)})
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    loaded = fresh(app, event_id)
    assert all(3 not in t.seats for t in loaded.tables if t.round == 3)

    # During round 3, the director corrects a result of round 1, saying why.
    first = next(t for t in loaded.tables if t.round == 1 and t.number == 2)
    before = list(first.accepted or [])
    opened = client.post(
        f"/e/{token}/round/1/table/2/correct",
        data={"reason": "Feuille mal recopiée", "version": version(client, view)},
    )
    assert opened.status_code == 302
    game_token = opened.headers["Location"].rsplit("/", 1)[1]
    assert client.get(f"/g/{game_token}").status_code == 200  # the director's own link
    form = page(client, f"/g/{game_token}/deal/1/edit")
    current = re.search(r'name="version" value="(\d+)"', form)
    assert current is not None
    edit = {"action": "save", "version": current.group(1)}
    edit |= {f"points{i}": p for i, p in enumerate(("30", "-10", "-10", "-10"))}
    assert client.post(f"/g/{game_token}/deal/1/edit", data=edit).status_code == 302
    director = page(client, f"/e/{token}")
    assert "Feuille mal recopiée" in director
    assert "Rangs qui bougent" in director or "Aucun rang ne bouge" in director
    client.post(f"/e/{token}/round/1/table/2/apply", data={"version": version(client, view)})
    loaded = fresh(app, event_id)
    corrected = next(t for t in loaded.tables if t.round == 1 and t.number == 2)
    assert corrected.accepted != before
    assert corrected.game_row is not None
    with app.app_context():
        game = service.game_service.find(corrected.game_row.token)
        assert game is not None
        assert corrected.accepted == list(service.game_service.scored(game).standings.scores)

    play_round(app, client, event_id, 3, seed=3)
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    play_round(app, client, event_id, 4, seed=4)
    final = page(client, f"/ev/{view}")
    assert "Classement final" in final
    assert "abandon" in final

    exported = client.get(f"/e/{token}/export.json")
    assert exported.status_code == 200
    path = tmp_path / "concours.json"
    path.write_bytes(exported.data)
    data = json.loads(exported.data)
    assert len(data["players"]) == 19
    assert data["players"][18]["joined"] == 2
    assert data["players"][2]["left"] == 2
    assert [h["reason"] for h in data["history"]] == ["Feuille mal recopiée"]
    out, err = io.StringIO(), io.StringIO()
    assert rank_command(str(path), True, "fr", out, err, io.StringIO()) == 0, err.getvalue()
    ranked = json.loads(out.getvalue())
    loaded = fresh(app, event_id)
    with app.app_context():
        found = service.loaded(event_id)
        assert found is not None
        shown = service.ranking(found)
    assert [(r["name"], r["rank"], r["points"]) for r in ranked] == [
        (line.name, line.rank, int(line.points)) for line in shown
    ]
    assert rank(parse_event(data).concours) == shown
    # The public page shows that ranking, in that order.
    names_in_page = [n for n in re.findall(r'<th scope="row">([^<]+)', final)]
    assert [n.strip() for n in names_in_page] == [line.name for line in shown]


#: The engine's messages only the concours's pages raise (tests/engine/test_errors.py).
CONCOURS_CODES = {"event_round_open", "event_over", "event_not_over", "correction_changed"}


def test_what_a_concours_refuses_is_said_in_words(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds="1")
    view, play = event.view_token, event.play_token
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    # Round 1 is being played: no round 2, and no acceptance before the round's deals.
    drawn = client.post(
        f"/e/{token}/rounds", data={"rounds": "2", "version": version(client, view)}
    )
    assert drawn.status_code == 302
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    assert "Round 1 is still being played: 4 tables have no accepted result" in page(
        client, f"/e/{token}"
    )
    state = fresh(app, event.id)
    table = next(t for t in state.tables if t.number == 1)
    seated = next(p.name for p in state.players if p.number == table.seats[1])
    early = {"who": seated, "version": version(client, view)}
    # The tables' link alone (no table's code) accepts nothing, and says why.
    unkeyed = client.post(f"/c/{play}/1", data=early)
    assert unkeyed.status_code == 422
    assert "scan the QR code of the table" in unkeyed.get_data(as_text=True)
    opponent = app.test_client()
    opponent.get("/lang/en?next=/")
    assert opponent.get(f"/c/{play}/1/play?k={service.table_key(state, 1)}").status_code == 302
    refused = opponent.post(f"/c/{play}/1", data=early)
    assert refused.status_code == 422
    assert "The round is not over: the table plays 2 deals" in refused.get_data(as_text=True)
    # Only a player of the table accepts; a stale page is told so.
    outsider = next(p.name for p in state.players if p.number not in table.seats)
    assert table.game_row is not None
    for _ in range(2):
        points = {f"points{i}": str(i) for i in range(4)}
        client.post(f"/g/{table.game_row.token}/deal", data={"action": "save", **points})
    now = version(client, view)
    assert opponent.post(f"/c/{play}/1", data={"who": outsider, "version": now}).status_code == 422
    # Tables finishing together each accept their own result, whatever the others did.
    assert opponent.post(f"/c/{play}/1", data={"who": seated, "version": "0"}).status_code == 302
    # The table's old link now leads to its card, which says the result is locked.
    assert table.game_row is not None
    moved = client.get(f"/g/{table.game_row.token}")
    assert moved.status_code == 302
    assert moved.headers["Location"].endswith(f"/c/{play}/1")
    assert "only the director can change it now" in page(client, f"/c/{play}/1")
    # Shortened back to one round once the first is over: every round is drawn.
    for t in fresh(app, event.id).tables:
        assert t.game_row is not None
        if t.number != 1:
            for _ in range(2):
                points = {f"points{i}": str(i + 1) for i in range(4)}
                client.post(f"/g/{t.game_row.token}/deal", data={"action": "save", **points})
        client.post(
            f"/e/{token}/round/1/table/{t.number}/accept",
            data={"version": version(client, view), "reason": "the table went home"},
        )
    client.post(f"/e/{token}/rounds", data={"rounds": "1", "version": version(client, view)})
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    assert "Every round of the event has been played (1)" in page(client, f"/e/{token}")


def edit_first_deal(client: FlaskClient, game_token: str, points: tuple[str, ...]) -> None:
    form = page(client, f"/g/{game_token}/deal/1/edit")
    current = re.search(r'name="version" value="(\d+)"', form)
    assert current is not None
    edit = {"action": "save", "version": current.group(1)}
    edit |= {f"points{i}": p for i, p in enumerate(points)}
    assert client.post(f"/g/{game_token}/deal/1/edit", data=edit).status_code == 302


def round_one_played(app: Flask, client: FlaskClient, rounds: str, seed: int) -> tuple[str, Event]:
    """A concours in English with round 1 drawn, played and accepted at every table."""
    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds=rounds)
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    play_round(app, client, event.id, 1, seed=seed)
    return token, event


def test_a_correction_opened_by_mistake_is_given_up(app: Flask, client: FlaskClient) -> None:
    token, event = round_one_played(app, client, rounds="1", seed=5)
    view = event.view_token
    before = next(t for t in fresh(app, event.id).tables if t.number == 1).accepted
    opened = client.post(
        f"/e/{token}/round/1/table/1/correct",
        data={"reason": "wrong table", "version": version(client, view)},
    )
    game_token = opened.headers["Location"].rsplit("/", 1)[1]
    # The game under correction leads back to the director's page, on the director's phone.
    back = re.search(r'href="(/c/[^"]+/director)"', page(client, f"/g/{game_token}"))
    assert back is not None
    assert client.get(back.group(1)).headers["Location"] == f"/e/{token}"
    stranger = client.application.test_client()
    assert "/c/" in stranger.get(back.group(1)).headers["Location"]
    first = re.findall(
        r'name="points(\d)" [^>]*value="(-?\d+)"', page(client, f"/g/{game_token}/deal/1/edit")
    )
    original = tuple(v for _, v in sorted(first))
    assert len(original) == 4
    # Changed, the game contradicts the accepted result: giving up is refused in words.
    edit_first_deal(client, game_token, ("40", "-20", "-10", "-10"))
    # Until applied, the table's card still shows the accepted result.
    assert before is not None
    card = page(client, f"/c/{event.play_token}/1")
    shown = [int(b.replace("−", "-")) for b in re.findall(r"</span> <b>([^<]+)</b>", card)]
    assert shown == list(before)
    refused = client.post(
        f"/e/{token}/round/1/table/1/cancel", data={"version": version(client, view)}
    )
    assert refused.status_code == 302
    director = page(client, f"/e/{token}")
    assert "The game no longer gives the accepted result" in director
    seated = fresh(app, event.id).tables[0]
    first_name = next(p.name for p in fresh(app, event.id).players if p.number == seated.seats[0])
    assert f"{first_name} {str(before[0]).replace('-', '−')} · " in director
    assert "Give up the correction" in director
    # Put back, the correction is given up: the result stays, the history says so,
    # and the link the director used no longer changes the game.
    edit_first_deal(client, game_token, original)
    client.post(f"/e/{token}/round/1/table/1/cancel", data={"version": version(client, view)})
    after = next(t for t in fresh(app, event.id).tables if t.number == 1)
    assert after.correcting is None
    assert after.accepted == before
    director = page(client, f"/e/{token}")
    assert "correction given up · round 1 · table 1 · wrong table" in director
    assert "result accepted · round 1 · table 1 · by " in director  # who accepted
    assert "Give up the correction" not in director
    assert client.get(f"/g/{game_token}").status_code in (302, 404)


def test_what_the_director_and_the_tables_read(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client, entry_fee="5")
    view, play = event.view_token, event.play_token
    # The director's page and the cards hold secret links and forms: never stored.
    assert client.get(f"/e/{token}").headers["Cache-Control"] == "no-store"
    director = page(client, f"/e/{token}")
    assert re.search(r"inscription 5,00\s€", director)  # the fee as French writes money
    # No result yet: no ranking "by lot" before anyone played.
    public = page(client, f"/ev/{view}")
    assert "Aucun résultat accepté pour l’instant" in public
    assert "au tirage au sort" not in public
    # Read by many: asks its version every 5 s and reloads at most every 10 s.
    assert 'data-calm="10" data-poll="5"' in public
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    state = fresh(app, event.id)
    byes = [p.name for p in state.players if p.number in state.rounds[-1].byes]
    assert len(byes) == 2  # 18 players, tables of 4
    director = page(client, f"/e/{token}")
    assert "Exempts\u202f: " + ", ".join(byes) in director
    # A table's game leads back to its card; once the round's deals are in, it says
    # where the result is accepted.
    table = next(t for t in state.tables if t.number == 1)
    assert table.game_row is not None
    game = page(client, f"/g/{table.game_row.token}")
    assert f"/c/{play}/1" in game
    assert "Les 2 donnes du tour sont jouées" not in game
    for n in range(2):
        points = {f"points{i}": str(i) for i in range(4)}
        keyed = {"action": "save", "key": f"round-one-deal-{n}", **points}
        client.post(f"/g/{table.game_row.token}/deal", data=keyed)
    game = page(client, f"/g/{table.game_row.token}")
    assert "Les 2 donnes du tour sont jouées" in game
    assert "Saisir la donne 3" not in game  # the round counts its 2 deals, no more
    assert client.get(f"/c/{play}/1").headers["Cache-Control"] == "no-store"
    # The last deal's post sent again (its answer lost on the way) is told it was recorded.
    again = client.post(f"/g/{table.game_row.token}/deal", data=keyed)
    assert again.headers["Location"].endswith(f"/g/{table.game_row.token}")
    assert "Cette donne était déjà enregistrée" in page(client, f"/g/{table.game_row.token}")
    # A third deal, a form left open or typed by hand, is not taken: the card says why.
    third = client.post(f"/g/{table.game_row.token}/deal", data={"action": "save", **points})
    assert third.headers["Location"].endswith(f"/c/{play}/1")
    told = page(client, f"/c/{play}/1")
    assert "Un autre téléphone a enregistré entre-temps la dernière donne du tour" in told
    assert client.get(f"/g/{table.game_row.token}/deal").status_code == 302
    with app.app_context():
        kept = service.game_service.find(table.game_row.token)
        assert kept is not None
        assert len(kept.deals) == 2
    # The concours's names are the director's: a table's phone does not rename them.
    renamed = client.post(
        f"/g/{table.game_row.token}/players", data={"seat": "0", "name": "Cheat", "version": "9"}
    )
    assert renamed.headers["Location"].endswith(f"/c/{play}/1")
    assert "Cheat" not in page(client, f"/c/{play}/1")
    # A withdrawal is asked twice and said; the count is of those still playing.
    assert "Confirmer : Joueur 3 quitte le concours".replace(" :", "\u202f:") in director
    client.post(f"/e/{token}/players/3/withdraw", data={"version": version(client, view)})
    director = page(client, f"/e/{token}")
    assert "Joueur 3 abandonne\u202f: plus tiré au sort" in director
    assert "17 joueurs" in director
    assert "(et 1 abandon)" in director


def test_names_are_listed_as_a_reader_looks_them_up() -> None:
    from referee.web.events import name_key

    names = ["Zoé", "émile", "Élodie", "Eve", "Ana"]
    assert sorted(names, key=name_key) == ["Ana", "Élodie", "émile", "Eve", "Zoé"]


def test_too_few_players_to_draw_is_said_before_drawing(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token, _ = create(app, client, players="Ana\nBruno\nChloé")
    director = page(client, f"/e/{token}")
    assert "A round needs 4 players at least: check them in, then draw." in director
    assert "Draw round 1" not in director
    client.post(f"/e/{token}/players", data={"names": "Dora"})
    assert "Draw round 1" in page(client, f"/e/{token}")


def test_a_name_refused_at_check_in_is_named(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token, _ = create(app, client, players="Ana\nBruno\nChloé\nDora")
    long = "Maximilien-" + "x" * 75
    client.post(f"/e/{token}/players", data={"names": f"Eve\n{long}\nAna"})
    director = page(client, f"/e/{token}")
    assert "Maximilien-xxxxxxxxx…: The name of player 6 is longer than 40 characters" in director
    assert "Already checked in: Ana." in director  # said, not refused
    assert "<span>Eve</span>" not in director  # nothing checked in while a name is refused
    assert f">Eve\n{long}\nAna</textarea>" in director  # what was typed, given back
    # Corrected: the others are checked in, those already in said again; a line of
    # dashes (a pasted list's rule) is no one.
    client.post(f"/e/{token}/players", data={"names": "Eve\n-----\nAna\nEve"})
    names = [p.name for p in fresh(app, event_id(app, token)).players]
    assert names == ["Ana", "Bruno", "Chloé", "Dora", "Eve"]


def test_a_tables_people_are_checked_in_at_once(app: Flask, client: FlaskClient) -> None:
    from tests.web.conftest import new_game

    client.get("/lang/en?next=/")
    made = client.post("/tables/new", data={"name": "Tuesday club"})
    table = str(made.headers["Location"]).removeprefix("/t/")
    new_game(client, "pad", ["Ana", "Bruno", "Chloé", "Driss"], table=table)
    new_game(client, "pad", ["Ana", "Bruno", "Élise", "Fanny"], table=table)
    # The new concours's form offers this phone's tables; their people join the typed names.
    form = page(client, "/events/new")
    assert f'<option value="{table}">Tuesday club (6 people)</option>' in form
    token, event = create(app, client, players="Gaston\nAna", from_table=table)
    assert [p.name for p in event.players] == [
        "Gaston",
        "Ana",
        "Bruno",
        "Chloé",
        "Driss",
        "Élise",
        "Fanny",
    ]
    # Later, on the director's page: those already in are not checked in twice.
    client.post(f"/e/{token}/players", data={"names": "Hugo", "from_table": table})
    assert [p.name for p in fresh(app, event.id).players][-1] == "Hugo"
    # A table this phone does not hold adds no one.
    other = client.application.test_client()
    other.get("/lang/en?next=/")
    other.post(f"/e/{token}/players", data={"names": "Ivan", "from_table": "x" * 24})
    assert [p.name for p in fresh(app, event.id).players][-1] == "Ivan"
    assert len(fresh(app, event.id).players) == 9


def test_an_exported_concours_is_imported_and_goes_on(app: Flask, client: FlaskClient) -> None:
    token, event = round_one_played(app, client, rounds="2", seed=7)
    view = event.view_token
    opened = client.post(
        f"/e/{token}/round/1/table/1/correct",
        data={"reason": "sheet misread", "version": version(client, view)},
    )
    game_token = opened.headers["Location"].rsplit("/", 1)[1]
    edit_first_deal(client, game_token, ("12", "-4", "-4", "-4"))
    client.post(f"/e/{token}/round/1/table/1/apply", data={"version": version(client, view)})
    exported = client.get(f"/e/{token}/export.json")
    assert exported.status_code == 200
    data = exported.get_data()

    def upload(body: bytes) -> Any:
        return client.post(
            "/events/import",
            data={"file": (io.BytesIO(body), "concours.json")},
            content_type="multipart/form-data",
        )

    # Refused in words: no file, a file that is not an event, a wrong field.
    assert "Choose an event file (.json)." in upload(b"").get_data(as_text=True)
    assert upload(b"not json").status_code == 422
    broken = json.loads(data)
    broken["rounds_planned"] = 0
    refused = upload(json.dumps(broken).encode())
    assert refused.status_code == 422
    assert "Rounds 0 is out of range: 1 to 30" in refused.get_data(as_text=True)
    # The file itself: a new concours with the same ranking, its history, its games.
    moved = upload(data)
    assert moved.status_code == 302
    again = moved.headers["Location"].rsplit("/", 1)[1]
    assert again != token
    with app.app_context():
        first, second = service.find(token), service.find(again)
        assert first is not None
        assert second is not None
        assert service.ranking(second) == service.ranking(first)
        imported = service.export(second)
    assert imported["history"] == json.loads(data)["history"]
    assert imported["rounds"] == json.loads(data)["rounds"]
    director = page(client, f"/e/{again}")
    # The whole history, as it happened, each line at its time.
    assert "correction applied · round 1 · table 1 · sheet misread" in director
    assert "concours imported" in director
    assert imported["log"][:-1] == json.loads(data)["log"]
    # A file written before the log (its corrections only) still tells them.
    old = {k: v for k, v in json.loads(data).items() if k != "log"}
    older = upload(json.dumps(old).encode()).headers["Location"].rsplit("/", 1)[1]
    assert "result corrected · round 1 · table 1 · sheet misread" in page(client, f"/e/{older}")
    # It goes on where it stopped: round 2 is drawn, every player seated once.
    moved_view = fresh(app, second_id(app, again)).view_token
    client.post(f"/e/{again}/draw", data={"version": version(client, moved_view)})
    moved_on = fresh(app, second_id(app, again))
    seated = [s for t in moved_on.tables if t.round == 2 for s in t.seats]
    assert sorted(seated + list(moved_on.rounds[1].byes)) == list(range(1, 19))


def event_id(app: Flask, token: str) -> int:
    return second_id(app, token)


def second_id(app: Flask, token: str) -> int:
    with app.app_context():
        found = service.find(token)
        assert found is not None
        return found.id


def test_a_directors_slips_are_said_and_change_nothing(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    refused = client.post("/events/new", data={"name": "", "game": "pad", "rounds": "0"})
    assert refused.status_code == 422
    assert "Rounds 0 is out of range" in refused.get_data(as_text=True)
    token, event = create(app, client, rounds="1")
    view = event.view_token
    assert client.get("/e/" + "x" * 24).status_code == 404
    assert client.post(f"/e/{token}/players/99/withdraw").status_code == 404
    client.post(f"/e/{token}/draw", data={"version": version(client, view)})
    # A table not accepted yet has nothing to correct.
    correct = f"/e/{token}/round/1/table/1/correct"
    assert client.post(correct, data={"reason": "x"}).status_code == 404
    assert client.post(f"/e/{token}/round/1/table/9/correct").status_code == 404
    play_round(app, client, event.id, 1, seed=2)
    # A page left open while another phone acted, a correction without its reason.
    stale = client.post(correct, data={"reason": "late sheet", "version": "0"})
    assert stale.status_code == 302
    assert "The event changed meanwhile" in page(client, f"/e/{token}")
    client.post(correct, data={"reason": "  ", "version": version(client, view)})
    assert "Reason is missing" in page(client, f"/e/{token}")
    assert all(t.correcting is None for t in fresh(app, event.id).tables)
    # Giving up or applying a correction never opened: nothing to find.
    cancel = f"/e/{token}/round/1/table/1/cancel"
    assert client.post(cancel, data={"version": version(client, view)}).status_code == 404


def test_two_phones_accepting_at_once_count_once(app: Flask, client: FlaskClient) -> None:
    import threading

    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds="1")
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    with app.app_context():
        loaded = service.loaded(event.id)
        assert loaded is not None
        table = next(t for t in loaded.tables if t.number == 1)
        assert table.game_row is not None
        for _ in range(2):
            service.game_service.add_deal(table.game_row, {"points": [3, -1, -1, -1]})
        loaded = service.loaded(event.id)
        assert loaded is not None
        table = next(t for t in loaded.tables if t.number == 1)
        names = {p.number: p.name for p in loaded.players}
        service.status(loaded, table)  # this phone has read the table: not accepted yet

        def other_phone() -> None:
            with app.app_context():
                there = service.loaded(event.id)
                assert there is not None
                mine = next(t for t in there.tables if t.number == 1)
                service.accept(there, mine, names[mine.seats[2]])

        racing = threading.Thread(target=other_phone)
        racing.start()
        racing.join()
        # This phone's read is older than the other's acceptance: it is told, not counted.
        assert table.accepted is None
        winner = names[table.seats[2]]
        with pytest.raises(LookupError):
            service.accept(loaded, table, names[table.seats[1]])
    final = fresh(app, event.id)
    accepted = [c for c in final.changes if c.action == "accept"]
    assert len(accepted) == 1
    assert next(t for t in final.tables if t.number == 1).accepted_by == winner


def test_a_concours_exported_mid_round_goes_on_where_it_stopped(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds="1")
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    first = next(t for t in fresh(app, event.id).tables if t.number == 1)
    assert first.game_row is not None
    deal = {f"points{i}": str(p) for i, p in enumerate((6, -2, -2, -2))}
    client.post(f"/g/{first.game_row.token}/deal", data={"action": "save", **deal})
    data = client.get(f"/e/{token}/export.json").get_json()
    assert data["rounds"][0]["tables"][0]["accepted"] is False  # in play: its game, not a result
    moved = client.post(
        "/events/import",
        data={"file": (io.BytesIO(json.dumps(data).encode()), "concours.json")},
        content_type="multipart/form-data",
    )
    again = moved.headers["Location"].rsplit("/", 1)[1]
    imported = fresh(app, second_id(app, again))
    assert all(t.game_row is not None and t.accepted is None for t in imported.tables)
    kept = next(t for t in imported.tables if t.number == 1)
    assert kept.game_row is not None
    assert [d.data for d in kept.game_row.deals] == [{"points": [6, -2, -2, -2]}]
    assert "1 of 2 deals played." in page(client, f"/c/{imported.play_token}/1")
    # A table whose game ends before the round's deals (its last deal ticked): the
    # round ends there for it, and its card says so.
    other = next(t for t in imported.tables if t.number == 2)
    assert other.game_row is not None
    last = {"action": "save", "last": "1", **deal}
    client.post(f"/g/{other.game_row.token}/deal", data=last)
    ended = page(client, f"/c/{imported.play_token}/2")
    assert "The game ended after 1 deal: the round ends there for this table." in ended
    over = page(client, f"/g/{other.game_row.token}")
    assert "Same table again" not in over  # a concours's game is not followed by another
    assert "the game ended after 1 deal" in page(client, f"/e/{again}")  # the director sees it
    names = {p.number: p.name for p in imported.players}
    accepting = {"who": names[other.seats[1]], "k": service.table_key(imported, 2)}
    # The phone that entered the deals accepts with the director's PIN.
    refused = client.post(f"/c/{imported.play_token}/2", data=accepting)
    assert refused.status_code == 422
    assert "PIN" in refused.get_data(as_text=True)
    wrong = client.post(f"/c/{imported.play_token}/2", data={**accepting, "pin": "xx"})
    assert wrong.status_code == 422
    pin = {**accepting, "pin": service.director_pin(imported)}
    assert client.post(f"/c/{imported.play_token}/2", data=pin).status_code == 302
    # The round is played to its end on the imported concours, and ranked.
    play_round(app, client, imported.id, 1, seed=3, done=(2,))
    with app.app_context():
        done = service.find(again)
        assert done is not None
        assert len(service.ranking(done)) == 18
    # The TV has the 18 lines in one slide, which its script cuts to the screen's
    # height (tests/e2e/test_concours_afternoon.py).
    tv = page(client, f"/ev/{imported.view_token}/tv")
    slides = tv.split('<section class="slide" data-paged="tbody tr" aria-label="Ranking">')[1:]
    assert [part.split("</section>")[0].count('<th scope="row">') for part in slides] == [18]


def test_the_home_page_leads_to_a_new_concours_and_back_to_this_phones(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    home = page(client, "/")
    assert 'href="/events/new"' in home
    assert "Your concours" not in home
    token, _ = create(app, client)
    home = page(client, "/")
    assert "Your concours" in home
    assert f'href="/e/{token}"' in home
    # Another phone does not see it.
    other = client.application.test_client()
    assert f"/e/{token}" not in other.get("/").get_data(as_text=True)


@pytest.mark.parametrize(
    ("field", "typed", "said"),
    [
        ("rounds", "-3", "Rounds -3 is out of range: 1 to 30"),
        ("rounds", "abc", "abc"),
        ("length", "-1", "-1 is out of range"),
        ("places", "-5, 2", "-5"),
        ("bye", "lots", "lots"),
        ("rounds", "", "Rounds is missing"),
        ("rounds", "٣", "٣"),
    ],
)
def test_the_new_concours_form_says_what_was_typed(
    client: FlaskClient, field: str, typed: str, said: str
) -> None:
    client.get("/lang/en?next=/")
    form = {"name": "Club", "game": "pad", "rounds": "3", "length": "4", "players": "A\nB\nC\nD"}
    form |= {"rule": "places"} if field == "places" else {}
    refused = client.post("/events/new", data={**form, field: typed})
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert said in text
    assert "Rounds 0 is out of range" not in text


def test_a_shared_page_is_drawn_at_most_every_few_seconds(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import referee.web.events as pages

    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds="1")
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    public = f"/ev/{event.view_token}"
    drawn = re.search(r'data-version="(\d+)"', page(client, public))
    assert drawn is not None
    monkeypatch.setattr(pages, "FRESH", 60.0)
    # The event moves on (a late arrival): within FRESH, the page drawn is served.
    client.post(f"/e/{token}/players", data={"names": "Zed"})
    assert f'data-version="{drawn.group(1)}"' in page(client, public)
    monkeypatch.setattr(pages, "FRESH", 0.0)
    assert f'data-version="{drawn.group(1)}"' not in page(client, public)


def test_a_long_refused_list_keeps_the_session_small(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token, _ = create(app, client, players="Ana\nBruno\nChloé\nDora")
    names = "\n".join(f"Player {n} " + "x" * 90 for n in range(30))  # each too long
    answer = client.post(f"/e/{token}/players", data={"names": names})
    cookie = answer.headers.get("Set-Cookie", "")
    assert len(cookie) < 4096  # a browser keeps a cookie up to 4 KB: the session stays
    director = page(client, f"/e/{token}")
    assert director.count("is longer than 40 characters") == 8
    assert re.search(r"And \d+ more\.", director)  # the rest counted, not listed
    assert "x" * 90 not in director.split("<textarea")[1].split("</textarea>")[0]
