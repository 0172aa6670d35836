"""The loop at the table (issue 14): after Record, two phones on one deal, a lost
correction, undo and put back, renaming a player, the same table again."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import PLAYERS, deal, tricks

BRUNO_FOUR = {"taker": 1, "bid": 4, "contract": "hearts", **tricks(1, 4, 1, 0)}
CHLOE_THREE = {"taker": 2, "bid": 3, "contract": "spades", **tricks(1, 1, 3, 1)}


def english(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")


def exported(client: FlaskClient, token: str) -> dict[str, Any]:
    return json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))


def form_fields(page: str) -> dict[str, str]:
    """The hidden fields of the deal form on `page` (its key, number, version), or of
    the page's one form when it has no deal form."""
    start = page.find('class="card deal-form"')
    form = page[start : page.index("</form>", start)] if start >= 0 else page
    fields = dict(re.findall(r'type="hidden" name="(\w+)" value="([^"]*)"', form))
    fields.pop("csrf_token", None)
    return fields


def test_after_record_the_page_opens_at_the_scores_with_the_deal_and_its_undo(
    client: FlaskClient,
) -> None:
    english(client)
    token = new_game(client, "boulmous", PLAYERS)
    response = deal(client, token, **BRUNO_FOUR, number=1)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/g/{token}"  # no #last: the top of the page
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "✓ Deal 1 recorded." in page
    # The one-line summary sits above the button for the next deal.
    line = page.index('class="last-deal"')
    assert line < page.index("Enter deal 2") < page.index('class="history"')
    assert re.search(r"Bruno(?: |&nbsp;)<strong>\+4</strong>", page[line:])
    assert f'action="/g/{token}/undo"' in page
    # Shown once: the next view is the plain scoreboard.
    assert "✓ Deal 1 recorded." not in client.get(f"/g/{token}").get_data(as_text=True)


def test_quick_undo_then_put_back(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR, number=1)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
    assert client.post(f"/g/{token}/undo", data={"version": version}).status_code == 302
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Deal 1 taken back." in page
    assert exported(client, token)["deals"] == []
    version = re.search(r'name="version" value="(\d+)"', page).group(1)  # type: ignore[union-attr]
    assert client.post(f"/g/{token}/put-back", data={"version": version}).status_code == 302
    assert exported(client, token)["deals"][0]["taker"] == 1
    history = client.get(f"/g/{token}/history").get_data(as_text=True)
    assert "Deal 1 put back" in history
    assert "Deal 1 taken back" in history
    # The form that recorded it, sent again, is "already recorded" (not undone).
    assert client.post(f"/g/{token}/put-back", data={"version": version}).status_code == 302
    assert len(exported(client, token)["deals"]) == 1


def test_put_back_refused_once_the_game_moved_on(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR)
    client.post(f"/g/{token}/undo", data={"version": "1"})
    deal(client, token, **CHLOE_THREE)  # another deal since: putting back is stale
    response = client.post(f"/g/{token}/put-back", data={"version": "2"}, follow_redirects=True)
    assert "not put back" in response.get_data(as_text=True)
    assert [d["taker"] for d in exported(client, token)["deals"]] == [2]


def test_the_phone_that_recorded_is_served_the_tables_page_with_its_undo(app: Any) -> None:
    """Issue 19: the page right after Record is the version's one shared render with
    this phone's undo spliced in, not a second render of its own."""
    first, second = app.test_client(), app.test_client()
    english(first)
    english(second)
    token = new_game(first, "boulmous", PLAYERS)
    deal(first, token, **BRUNO_FOUR, number=1)
    shared = second.get(f"/g/{token}")
    mine = first.get(f"/g/{token}")
    assert "ETag" in shared.headers
    assert "ETag" not in mine.headers  # personal: never answered by a 304 later
    page = mine.get_data(as_text=True)
    start = page.index('<div class="just card"')
    box = page[start : page.index("</div>", start) + len("</div>")]
    assert "✓ Deal 1 recorded." in box
    assert f'action="/g/{token}/undo"' in box
    assert page.replace(box, "<!--just-->") == shared.get_data(as_text=True)
    # Its undo is for this version: it takes the deal back.
    version = re.search(r'name="version" value="(\d+)"', box).group(1)  # type: ignore[union-attr]
    assert first.post(f"/g/{token}/undo", data={"version": version}).status_code == 302
    assert exported(first, token)["deals"] == []


def test_the_page_after_record_scores_nothing_again(
    app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19: the deal's post scored the game with the new deal, read alone onto
    the record its form scored (`with_deal`: no whole record parsed again); the
    page drawn right after it and the next deal's form use that, and it is what
    scoring the stored game afresh gives."""
    from referee.engine.records import parse_record, score_record
    from referee.services import games as service

    client = app.test_client()
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR, number=1)
    parsed: list[object] = []

    def counted(record: Any) -> Any:
        parsed.append(record)
        return parse_record(record)

    monkeypatch.setattr(service, "parse_record", counted)
    assert deal(client, token, **CHLOE_THREE, number=2).status_code == 302
    assert parsed == []  # the post read the new deal alone
    assert "+3" in client.get(f"/g/{token}").get_data(as_text=True)
    assert client.get(f"/g/{token}/deal").status_code == 200
    assert parsed == []  # nothing parsed or scored again
    with app.app_context():
        game = service.find(token)
        assert game is not None
        kept = service.scored(game)
        fresh = score_record(parse_record(service.record_of(game)))
        assert kept.standings == fresh
        assert kept.record == parse_record(service.record_of(game))


def test_a_just_recorded_line_is_not_shown_once_another_phone_wrote(app: Any) -> None:
    first, second = app.test_client(), app.test_client()
    english(first)
    token = new_game(first, "boulmous", PLAYERS)
    deal(first, token, **BRUNO_FOUR, number=1)
    deal(second, token, **CHLOE_THREE, number=2)
    response = first.get(f"/g/{token}")
    page = response.get_data(as_text=True)
    assert "Deal 1 recorded" not in page
    assert 'class="just card"' not in page
    assert "ETag" in response.headers  # the table's page, as every phone has it


def test_a_different_deal_taken_meanwhile_offers_the_next_number(app: Any) -> None:
    """Another phone recorded another deal: "Record it as deal 2" stays the big button,
    and the scores are a tap away too."""
    first, second = app.test_client(), app.test_client()
    english(second)
    token = new_game(first, "boulmous", PLAYERS)
    fields_1 = form_fields(first.get(f"/g/{token}/deal").get_data(as_text=True))
    fields_2 = form_fields(second.get(f"/g/{token}/deal").get_data(as_text=True))
    assert deal(first, token, **fields_1, **BRUNO_FOUR).status_code == 302
    page = deal(second, token, **fields_2, **CHLOE_THREE).get_data(as_text=True)
    assert "Meanwhile another phone recorded this deal:" in page
    assert "Mine is another deal" not in page
    bar = page[page.index('class="deal-bar"') :]
    assert 'class="primary big" name="action" value="save">Record it as deal 2' in bar
    alert = page[page.index('class="problems taken"') : page.index('class="deal-bar"')]
    assert "Back to the scores" in alert


def test_two_phones_one_deal_never_doubles_silently(app: Any) -> None:
    first, second = app.test_client(), app.test_client()
    english(second)
    token = new_game(first, "boulmous", PLAYERS)
    fields_1 = form_fields(first.get(f"/g/{token}/deal").get_data(as_text=True))
    fields_2 = form_fields(second.get(f"/g/{token}/deal").get_data(as_text=True))
    assert fields_1["number"] == fields_2["number"] == "1"
    assert deal(first, token, **fields_1, **BRUNO_FOUR).status_code == 302
    # The second phone typed the same deal: it comes back, entries kept, with deal 1
    # shown; its first offer is the scores, recording it again a folded second choice.
    response = deal(second, token, **fields_2, **BRUNO_FOUR)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "Another phone already recorded this same deal:" in page
    bar = page[page.index('class="deal-bar"') :]
    assert bar.index("Back to the scores") < bar.index("Mine is another deal")
    assert bar.index("Mine is another deal") < bar.index("Record it as deal 2")
    assert 'class="primary big" name="action" value="save"' not in bar
    assert 'id="take_1_4" name="take" value="1:4" checked' in page
    assert len(exported(first, token)["deals"]) == 1
    # One tap records it as the next deal: the form now says deal 2.
    again = form_fields(page)
    assert again["number"] == "2"
    assert again["key"] == fields_2["key"]
    assert deal(second, token, **again, **BRUNO_FOUR).status_code == 302
    assert [d.get("taker") for d in exported(first, token)["deals"]] == [1, 1]
    # Sent once more (a double tap), it is not recorded a third time.
    assert deal(second, token, **again, **BRUNO_FOUR).status_code == 302
    assert len(exported(first, token)["deals"]) == 2


def test_a_correction_that_loses_a_race_keeps_its_entries(app: Any) -> None:
    first, second = app.test_client(), app.test_client()
    english(second)
    token = new_game(first, "boulmous", PLAYERS)
    deal(first, token, **BRUNO_FOUR)
    page_2 = second.get(f"/g/{token}/deal/1/edit").get_data(as_text=True)
    version = form_fields(page_2)["version"]
    page_1 = first.get(f"/g/{token}/deal/1/edit").get_data(as_text=True)
    changed = {**BRUNO_FOUR, **tricks(0, 4, 1, 1)}
    data = {"action": "save", "version": form_fields(page_1)["version"]}
    first.post(f"/g/{token}/deal/1/edit", data={**data, **{k: str(v) for k, v in changed.items()}})
    mine = {**BRUNO_FOUR, "bid": 5, **tricks(0, 5, 1, 0)}
    response = second.post(
        f"/g/{token}/deal/1/edit",
        data={"action": "save", "version": version, **{k: str(v) for k, v in mine.items()}},
    )
    assert response.status_code == 409
    text = response.get_data(as_text=True)
    assert "your correction is kept below" in text
    assert 'id="take_1_5" name="take" value="1:5" checked' in text
    assert "id=tricks1_5 name=tricks1 value=5 checked" in text
    fresh = form_fields(text)["version"]
    assert fresh != version
    # Saved again on the state it was shown beside, it lands.
    response = second.post(
        f"/g/{token}/deal/1/edit",
        data={"action": "save", "version": fresh, **{k: str(v) for k, v in mine.items()}},
    )
    assert response.status_code == 302
    assert exported(first, token)["deals"][0]["bid"] == 5


def test_rename_a_player_everywhere_history_keeps_the_old_name(client: FlaskClient) -> None:
    english(client)
    token = new_game(client, "boulmous", ["Ana", "Brunp", "Chloé", "Driss"])
    deal(client, token, **BRUNO_FOUR)
    page = client.get(f"/g/{token}/players").get_data(as_text=True)
    version = form_fields(page)["version"]
    response = client.post(
        f"/g/{token}/players", data={"seat": "1", "name": " Bruno ", "version": version}
    )
    assert response.status_code == 302
    assert exported(client, token)["players"] == PLAYERS
    board = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Bruno" in board
    assert "Brunp" not in board
    assert "Brunp renamed Bruno" in client.get(f"/g/{token}/history").get_data(as_text=True)
    # The same name twice is refused, with the engine's message, nothing changed.
    version = form_fields(client.get(f"/g/{token}/players").get_data(as_text=True))["version"]
    response = client.post(
        f"/g/{token}/players", data={"seat": "0", "name": "Bruno", "version": version}
    )
    assert response.status_code == 422
    assert 'class="error"' in response.get_data(as_text=True)
    assert exported(client, token)["players"] == PLAYERS
    # A stale form is refused, not applied over the other phone's change.
    response = client.post(
        f"/g/{token}/players", data={"seat": "0", "name": "Anna", "version": "0"}
    )
    assert response.status_code == 409
    assert exported(client, token)["players"][0] == "Ana"


def test_same_table_again(client: FlaskClient) -> None:
    english(client)
    token = new_game(
        client, "boulmous", PLAYERS, stake="2", currency="CHF", place="Chez Ana", rule_target="4"
    )
    deal(client, token, **BRUNO_FOUR)  # Bruno reaches 4: the game is over
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Same table again" in page
    response = client.post(f"/g/{token}/again")
    assert response.status_code == 302
    new_token = response.headers["Location"].removeprefix("/g/")
    assert new_token != token
    before, after = exported(client, token), exported(client, new_token)
    for field in ("players", "rules", "stake", "currency", "place", "game"):
        assert after[field] == before[field], field
    assert after["deals"] == []
    assert after["first_dealer"] == 1  # Ana dealt the only deal: Bruno deals first


def test_same_table_again_passes_the_bombu_deal_to_the_right(client: FlaskClient) -> None:
    token = new_game(client, "bombu", PLAYERS, first_dealer="2")
    new_token = client.post(f"/g/{token}/again").headers["Location"].removeprefix("/g/")
    # No deal played: Chloé would still deal the first manche.
    assert exported(client, new_token)["first_dealer"] == 2


def test_a_deal_form_opened_before_an_undo_says_so(app: Any) -> None:
    first, second = app.test_client(), app.test_client()
    english(second)
    token = new_game(first, "boulmous", PLAYERS)
    deal(first, token, **BRUNO_FOUR)
    fields = form_fields(second.get(f"/g/{token}/deal").get_data(as_text=True))
    assert fields["number"] == "2"
    first.post(f"/g/{token}/undo", data={"version": "1"})
    response = deal(second, token, **fields, **CHLOE_THREE)
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "took back a deal: yours would be deal 1" in page
    assert "Record it as deal 1" in page
    assert deal(second, token, **form_fields(page), **CHLOE_THREE).status_code == 302
    assert [d["taker"] for d in exported(first, token)["deals"]] == [2]


def test_put_back_losing_its_place_to_another_phone_is_stale_not_an_error(
    app: Any, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two phones putting the same deal back at once: the one whose row loses the
    place (the unique position) hears "changed meanwhile", not an error page."""
    from sqlalchemy.exc import IntegrityError

    from referee.extensions import db
    from referee.models import Game

    english(client)
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR)
    client.post(f"/g/{token}/undo", data={"version": "1"})
    commit = db.session.commit

    def lost(*args: Any, **kwargs: Any) -> None:
        if not any(isinstance(row, Game) for row in db.session.dirty):
            return commit(*args, **kwargs)  # the rate limits' count, not the deal
        monkeypatch.setattr(db.session, "commit", commit)
        raise IntegrityError("INSERT INTO deal", {}, Exception("UNIQUE constraint failed"))

    with app.app_context():
        monkeypatch.setattr(db.session, "commit", lost)
        response = client.post(f"/g/{token}/put-back", data={"version": "2"})
    assert response.status_code == 302
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "the deal was not put back" in page
    assert exported(client, token)["deals"] == []


def test_pitch_the_rest_without_javascript_fills_the_form_and_records_nothing(
    client: FlaskClient,
) -> None:
    token = new_game(client, "pitch", ["Dale", "Rhonda", "Earl", "Peggy"])
    data = {"bidder": "1", "bid": "5", "trump": "hearts", "p_jack": "3", "p_two": "dead"}
    response = client.post(f"/g/{token}/deal", data={**data, "rest": "1"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "name=p_jack value=3 " in page  # kept as ticked
    assert re.search(r"name=p_jack value=3 [^>]*checked", page)
    assert re.search(r"name=p_two value=dead [^>]*checked", page)
    for card in ("ace", "off_jack", "joker_high", "joker_low", "ten", "three"):
        assert re.search(rf"name=p_{card} value=1 [^>]*checked", page), card
    assert exported(client, token)["deals"] == []


def test_a_preview_reads_the_typed_deal_alone(app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19: a live preview (one each tap, at a real table) reads the typed deal
    alone onto the record its form scored (`with_next`), not the whole record again;
    it shows what recording the deal then gives."""
    from referee.engine.records import parse_record
    from referee.services import games as service

    client = app.test_client()
    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, **BRUNO_FOUR, number=1)
    assert client.get(f"/g/{token}/deal").status_code == 200
    parsed: list[object] = []

    def counted(record: Any) -> Any:
        parsed.append(record)
        return parse_record(record)

    monkeypatch.setattr(service, "parse_record", counted)
    preview = deal(client, token, **CHLOE_THREE, number=2, action="preview")
    assert preview.status_code == 200
    assert parsed == []  # the typed deal read alone
    shown = preview.get_data(as_text=True)
    assert "+3" in shown  # Chloé bid 3, took 3
    broken = deal(client, token, **{**CHLOE_THREE, "tricks3": "5"}, number=2, action="preview")
    assert broken.status_code == 422  # 1 + 1 + 3 + 5 tricks: refused as the post refuses
    assert parsed == []
    assert deal(client, token, **CHLOE_THREE, number=2).status_code == 302
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "+3" in page
