"""Boulmous through the forms: create, enter, preview, refuse, undo, correct, export."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import new_game

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]


def deal(client: FlaskClient, token: str, **fields: Any) -> Any:
    data = {"action": "save", **{k: str(v) for k, v in fields.items()}}
    return client.post(f"/g/{token}/deal", data=data)


def tricks(*counts: int) -> dict[str, int]:
    return {f"tricks{seat}": count for seat, count in enumerate(counts)}


def test_play_a_whole_game_with_stake(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS, stake="2", rule_target="5")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Ana" in page
    r = deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    assert r.status_code == 302
    r = deal(client, token, passed=1)
    assert r.status_code == 302
    r = deal(client, token, taker=0, bid="boulmous", contract="no-trump", **tricks(6, 0, 0, 0))
    assert r.status_code == 302
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Ana" in page
    # Ana: 1 + 6 = 7 >= 5, she made her boulmous: she wins.
    exported = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert len(exported["deals"]) == 3
    assert exported["deals"][2]["bid"] == "boulmous"
    assert exported["stake"] == "2"


def test_last_tricks_box_is_filled_from_the_others(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    r = client.post(
        f"/g/{token}/deal",
        data={
            "action": "save",
            "taker": "2",
            "bid": "4",
            "contract": "hearts",
            "tricks0": "1",
            "tricks1": "0",
            "tricks2": "4",
            "tricks3": "",
        },
    )
    assert r.status_code == 302
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"][0]["tricks"] == [1, 0, 4, 1]


def test_preview_shows_deltas_and_records_nothing(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    r = client.post(
        f"/g/{token}/deal",
        data={
            "action": "preview",
            "taker": "3",
            "bid": "5",
            "contract": "diamonds",
            **{k: str(v) for k, v in tricks(2, 0, 1, 3).items()},
        },
    )
    assert r.status_code == 200
    page = r.get_data(as_text=True)
    assert "−5" in page
    assert 'value="save"' in page
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"] == []


def test_miscount_refused_beside_the_field_entries_kept(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en?next=/")
    r = client.post(
        f"/g/{token}/deal",
        data={
            "action": "save",
            "taker": "2",
            "bid": "4",
            "contract": "hearts",
            "tricks0": "1",
            "tricks1": "0",
            "tricks2": "3",
            "tricks3": "1",
        },
    )
    assert r.status_code == 422
    page = r.get_data(as_text=True)
    assert "Tricks add up to 5, a deal has 6" in page
    assert "id=tricks2_3 name=tricks2 value=3 checked" in page
    assert 'id="contract_hearts" name="contract" value="hearts" checked' in page


def test_message_in_french(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/fr?next=/")
    r = deal(client, token, taker=2, bid=4, contract="hearts", **tricks(1, 0, 3, 1))
    assert r.status_code == 422
    assert "Les levées font 5 au total, une donne en compte 6" in r.get_data(as_text=True)


def test_double_submit_records_one_deal(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    form = client.get(f"/g/{token}/deal").get_data(as_text=True)
    key = form.split('name="key" value="')[1].split('"')[0]
    data = {
        "action": "save",
        "key": key,
        "taker": "2",
        "bid": "4",
        "contract": "hearts",
        **{k: str(v) for k, v in tricks(1, 0, 4, 1).items()},
    }
    assert client.post(f"/g/{token}/deal", data=data).status_code == 302
    assert client.post(f"/g/{token}/deal", data=data).status_code == 302
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert len(record["deals"]) == 1


def test_undo_and_history(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, taker=2, bid=4, contract="hearts", **tricks(1, 0, 4, 1))
    deal(client, token, passed=1)
    client.get("/lang/en?next=/")
    confirm = client.get(f"/g/{token}/undo").get_data(as_text=True)
    assert "Take back deal 2?" in confirm
    assert 'name="version" value="2"' in confirm
    r = client.post(f"/g/{token}/undo", data={"version": "2"})
    assert r.status_code == 302
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert len(record["deals"]) == 1
    history = client.get(f"/g/{token}/history").get_data(as_text=True)
    assert "<del>" in history


def test_undo_with_a_stale_version_changes_nothing(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, passed=1)
    client.post(f"/g/{token}/undo", data={"version": "0"})
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert len(record["deals"]) == 1


def test_correct_a_past_deal(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, taker=2, bid=4, contract="hearts", **tricks(1, 0, 4, 1))
    deal(client, token, passed=1)
    form = client.get(f"/g/{token}/deal/1/edit").get_data(as_text=True)
    assert "id=tricks2_4 name=tricks2 value=4 checked" in form
    r = client.post(
        f"/g/{token}/deal/1/edit",
        data={
            "action": "save",
            "version": "2",
            "taker": "2",
            "bid": "5",
            "contract": "hearts",
            **{k: str(v) for k, v in tricks(1, 0, 4, 1).items()},
        },
    )
    assert r.status_code == 302
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"][0]["bid"] == 5
    history = client.get(f"/g/{token}/history").get_data(as_text=True)
    assert "<del>" in history


def test_correction_that_breaks_a_later_deal_is_refused(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS, rule_target="5")
    deal(client, token, taker=2, bid=3, contract="hearts", **tricks(1, 0, 4, 1))
    deal(client, token, taker=0, bid=3, contract="hearts", **tricks(3, 1, 1, 1))
    # Making Chloé's first deal give her 5 would end the game there, before deal 2.
    client.get("/lang/en?next=/")
    r = client.post(
        f"/g/{token}/deal/1/edit",
        data={
            "action": "save",
            "version": "2",
            "taker": "2",
            "bid": "3",
            "contract": "hearts",
            **{k: str(v) for k, v in tricks(1, 0, 5, 0).items()},
        },
    )
    assert r.status_code == 422
    assert "deal 2: the game was won at deal 1" in r.get_data(as_text=True)


def test_import_export_round_trip(client: FlaskClient, examples_dir: Any) -> None:
    data = (examples_dir / "boulmous-with-stake.json").read_bytes()
    from io import BytesIO

    r = client.post(
        "/import", data={"record": (BytesIO(data), "game.json")}, content_type="multipart/form-data"
    )
    assert r.status_code == 302
    token = r.headers["Location"].removeprefix("/g/")
    exported = client.get(f"/g/{token}/export.json")
    assert "attachment" in exported.headers["Content-Disposition"]
    assert exported.headers["Content-Disposition"].endswith('yasmine-hedi-sonia-karim.json"')
    r2 = client.post(
        "/import",
        data={"record": (BytesIO(exported.data), "again.json")},
        content_type="multipart/form-data",
    )
    token2 = r2.headers["Location"].removeprefix("/g/")
    from referee.engine.records import load_record, score_record

    first = score_record(load_record(exported.data))
    second = score_record(load_record(client.get(f"/g/{token2}/export.json").data))
    assert first == second
    assert first.winners == (0,)


def test_bad_import_refused_with_messages(client: FlaskClient) -> None:
    from io import BytesIO

    client.get("/lang/en?next=/")
    r = client.post(
        "/import",
        data={"record": (BytesIO(b'{"format": 1}'), "x.json")},
        content_type="multipart/form-data",
    )
    assert r.status_code == 422
    assert "This file is of a kind Referee cannot read as a game (1)" in r.get_data(as_text=True)


def test_undo_with_nothing_to_take_back(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en?next=/")
    assert "no deal to take back" in client.get(f"/g/{token}/undo").get_data(as_text=True)
    assert client.post(f"/g/{token}/undo", data={"version": "0"}).status_code == 302


def test_scoreboard_served_again_until_the_game_changes(app: Any, client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    cache = app.extensions["page_cache"]
    client.get(f"/g/{token}")
    client.get(f"/g/{token}")
    assert (cache.misses, cache.hits) == (1, 1)
    deal(client, token, taker=2, bid=4, contract="hearts", **tricks(1, 0, 4, 1))
    # Right after Record the page is the new version's shared page, with this
    # phone's quick undo in its place; the next look is the same page from memory.
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert (cache.misses, cache.hits) == (2, 1)
    assert "+4" in page
    assert "/undo" in page.split('class="just card"', 1)[1].split("</form>", 1)[0]
    again = client.get(f"/g/{token}").get_data(as_text=True)
    assert (cache.misses, cache.hits) == (2, 2)
    assert 'class="just card"' not in again


def test_live_preview_json(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en?next=/")
    data = {
        "taker": "3",
        "bid": "5",
        "contract": "diamonds",
        **{k: str(v) for k, v in tricks(2, 0, 1, 3).items()},
    }
    answer = client.post(f"/g/{token}/preview.json", data=data).get_json()
    assert answer == {
        "ok": True,
        "deltas": ["+2", "0", "+1", "−5"],
        "line": "Ana +2 · Bruno 0 · Chloé +1 · Driss −5",
        "ends": None,
        "notes": [],
        "why": [
            "Driss bid 5 and took 3: boîte, −5.",
            "The others score their tricks: Ana +2, Chloé +1.",
        ],
    }
    bad = client.post(f"/g/{token}/preview.json", data={**data, "tricks0": "3"}).get_json()
    assert bad["ok"] is False
    assert bad["errors"]["tricks"] == ["Tricks add up to 7, a deal has 6"]
    deal(client, token, passed=1)
    edit = client.post(f"/g/{token}/preview.json?number=1", data=data).get_json()
    assert edit["deltas"] == ["+2", "0", "+1", "−5"]
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"] == [{"passed": True}]


def test_two_phones_adding_at_once_both_count(app: Any, client: FlaskClient) -> None:
    """A deal that lost the race for its place is re-checked and goes after the other."""
    from referee.extensions import db
    from referee.services import games as service

    token = new_game(client, "boulmous", PLAYERS)
    with app.app_context():
        game = service.find(token)
        assert game is not None
        assert len(game.deals) == 0  # this phone has read the game: no deal yet
        other = app.test_client()
        deal(other, token, passed=1)  # meanwhile another phone records one
        added = service.add_deal(game, {"passed": True})
        assert added == service.Recorded(2, game.version)  # after the other phone's deal
        db.session.remove()
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"] == [{"passed": True}, {"passed": True}]


def test_a_deal_after_a_write_that_kept_the_deals_gets_a_version_of_its_own(
    app: Any, client: FlaskClient
) -> None:
    """Another phone renamed a player (a new version, the same deals) after this one
    read the game: the deal is recorded, and with a version past the rename's, so no
    cached page of the renamed game is ever served for it."""
    from referee.extensions import db
    from referee.services import games as service

    token = new_game(client, "boulmous", PLAYERS)
    with app.app_context():
        game = service.find(token)
        assert game is not None
        read = game.version
        with app.app_context():  # the other phone: a session of its own
            other = service.find(token)
            assert other is not None
            assert service.rename(other, 1, "Bernard", read)
            db.session.remove()
        added = service.add_deal(game, {"passed": True})
        assert added == service.Recorded(1, read + 2)
        db.session.remove()
        stored = service.find(token)
        assert stored is not None
        assert stored.version == read + 2
        assert stored.players[1] == "Bernard"
        assert [d.data for d in stored.deals] == [{"passed": True}]
        db.session.remove()


def test_a_correction_racing_another_write_is_refused(app: Any, client: FlaskClient) -> None:
    from referee.extensions import db
    from referee.services import games as service

    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, passed=1)
    with app.app_context():
        game = service.find(token)
        assert game is not None
        version = game.version
        assert len(game.deals) == 1
        deal(app.test_client(), token, passed=1)  # another phone writes first
        correction = {"taker": 0, "bid": 3, "contract": "clubs", "tricks": [6, 0, 0, 0]}
        with pytest.raises(service.StaleVersion):
            service.replace_deal(game, 0, correction, version)
        db.session.remove()
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"] == [{"passed": True}, {"passed": True}]


def test_reloading_an_unchanged_scoreboard_costs_a_304(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    first = client.get(f"/g/{token}")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get(f"/g/{token}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    deal(client, token, passed=1)
    own = client.get(f"/g/{token}", headers={"If-None-Match": etag})  # with its quick undo
    assert own.status_code == 200
    assert "ETag" not in own.headers
    changed = client.get(f"/g/{token}", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag


def test_optional_auction(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en?next=/")
    form = {
        "action": "save",
        "taker": "2",
        "bid": "5",
        "contract": "hearts",
        **{k: str(v) for k, v in tricks(0, 1, 5, 0).items()},
        "call0": "4",
        "call1": "5",
        "call2": "pass",
        "call3": "pass",
    }
    # Dealer Ana: Bruno calls first (4), then Chloé (5), the taker.
    refused = client.post(f"/g/{token}/deal", data={**form, "call0": "5", "call1": "4"})
    assert refused.status_code == 422
    assert "does not rise above 5" in refused.get_data(as_text=True)
    assert client.post(f"/g/{token}/deal", data=form).status_code == 302
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"][0]["auction"] == [4, 5, "pass", "pass"]
    edit = client.get(f"/g/{token}/deal/1/edit").get_data(as_text=True)
    assert '<option value="5" selected>' in edit
