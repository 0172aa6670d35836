"""The deal forms (issue "the table at first sight", items 1, 3, 7, 8): Bombu's
contract and counts on one page with "the rest", fields of another contract ignored,
Boulmous' "everyone passed" as a choice of the taker grid, the preview per team and
"this deal ends the game", the bar that keeps Record in view."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.web.conftest import new_game

BOMBU = ["Marius", "Fanny", "César", "Honorine"]
BOULMOUS = ["Ana", "Bruno", "Chloé", "Driss"]
PITCH = ["Dale", "Rhonda", "Earl", "Peggy"]
CARDS = ["ace", "jack", "off_jack", "joker_high", "joker_low", "ten", "three", "two"]


def record(client: FlaskClient, token: str) -> Any:
    return json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))


def post(client: FlaskClient, token: str, **fields: str) -> Any:
    return client.post(f"/g/{token}/deal", data={"action": "save", **fields})


def test_bombu_contract_and_counts_on_one_page(client: FlaskClient) -> None:
    """The contract is a pill of the deal form itself; every contract's fields are
    there (shown by CSS for the chosen one); an old `?contract=` link pre-selects."""
    token = new_game(client, "bombu", BOMBU)
    client.get("/lang/en?next=/")
    page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert 'class="card deal-form"' in page
    for contract in ("no-tricks", "no-hearts", "no-queens", "no-bombu", "salad", "reussite"):
        assert f"id=contract_{contract} name=contract value={contract}>" in page
        assert f"cf-{contract}" in page
    # One tap per count: a row of pills 0…8 per player, no number box.
    assert "name=hearts3 value=8>" in page
    assert "name=queens0 value=4>" in page
    assert 'type="number"' not in page
    linked = client.get(f"/g/{token}/deal?contract=no-hearts").get_data(as_text=True)
    assert "id=contract_no-hearts name=contract value=no-hearts checked" in linked


def test_bombu_the_rest_and_the_rows_left_empty(client: FlaskClient) -> None:
    token = new_game(client, "bombu", BOMBU)
    # No tricks 3/3/2 and the last row empty: it takes the rest (0).
    assert (
        post(client, token, contract="no-tricks", tricks0="3", tricks1="3", tricks2="2").status_code
        == 302
    )
    # No hearts, all 8 to one player: the rows left empty are 0.
    assert post(client, token, contract="no-hearts", hearts2="8").status_code == 302
    # No queens 1/1/·/1, the third row empty: it takes the rest (1).
    assert (
        post(client, token, contract="no-queens", queens0="1", queens1="1", queens3="1").status_code
        == 302
    )
    deals = record(client, token)["deals"]
    assert deals[0]["tricks"] == [3, 3, 2, 0]
    assert deals[1]["hearts"] == [0, 0, 8, 0]
    assert deals[2]["queens"] == [1, 1, 1, 1]


def test_bombu_fields_of_another_contract_are_ignored(client: FlaskClient) -> None:
    """The one-page form posts every contract's fields: only the chosen one's count
    (tricks typed under "No tricks", then "No hearts" chosen: the tricks are not read)."""
    token = new_game(client, "bombu", BOMBU)
    client.get("/lang/en?next=/")
    fields = {
        "contract": "no-hearts",
        "tricks0": "8",  # left from "No tricks", hidden now
        "queens1": "4",
        "bombu": "2",
        "finish0": "1",
        "hearts0": "5",
        "hearts1": "3",
    }
    answer = post(client, token, **fields)
    assert answer.status_code == 302, answer.get_data(as_text=True)[-2000:]
    assert record(client, token)["deals"] == [{"contract": "no-hearts", "hearts": [5, 3, 0, 0]}]
    preview = client.post(f"/g/{token}/preview.json", data={**fields, "contract": "no-bombu"})
    assert preview.get_json()["ok"] is True  # the Bombu alone is read: to Chloé
    # In one line: those who score nothing said once, at the end.
    assert preview.get_json()["line"] == "César +80 · the others 0"


def test_boulmous_everyone_passed_is_a_choice_recorded_with_record(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", BOULMOUS)
    client.get("/lang/en?next=/")
    page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert 'id="take_passed" name="take" value="passed"' in page
    assert "passed-form" not in page  # no one-tap submit above the grid any more
    # Its preview says it, and the trump and tricks left from another choice are ignored.
    preview = client.post(f"/g/{token}/preview.json", data={"take": "passed", "contract": "hearts"})
    assert preview.get_json()["line"] == "Everyone passed: nobody scores."
    assert post(client, token, take="passed", contract="hearts", tricks0="6").status_code == 302
    assert post(client, token, passed="1").status_code == 302  # the former button's post
    assert record(client, token)["deals"] == [{"passed": True}, {"passed": True}]
    # A correction of it shows the choice ticked.
    edit = client.get(f"/g/{token}/deal/1/edit").get_data(as_text=True)
    assert 'id="take_passed" name="take" value="passed" checked' in edit


def pitch_fields(bidder: int, bid: str, won: list[int | str], **extra: str) -> dict[str, str]:
    data = {"bidder": str(bidder), "bid": bid, "trump": "hearts", **extra}
    for card, seat in zip(CARDS, won, strict=True):
        data[f"p_{card}"] = str(seat)
    return data


def test_the_preview_speaks_per_team_and_says_the_end(client: FlaskClient) -> None:
    token = new_game(client, "pitch", PITCH, rule_target="10", rule_defenders_score="on")
    client.get("/lang/en?next=/")
    # Rhonda & Peggy take 7 of 10 (bid 5): +5; Dale & Earl their 3.
    fields = pitch_fields(1, "5", [1, 3, 0, 1, 2, 3, 1, 0])
    answer = client.post(f"/g/{token}/preview.json", data=fields).get_json()
    assert answer["line"] == "Dale & Earl +3 · Rhonda & Peggy +5"
    assert answer["ends"] is None
    # Without JavaScript, the Preview button says the same line.
    page = post(client, token, **{**fields, "action": "preview"}).get_data(as_text=True)
    assert "Dale &amp; Earl +3 · Rhonda &amp; Peggy +5" in page
    assert post(client, token, **fields).status_code == 302
    # The next hand takes them to 10 and more: the preview says the game ends.
    answer = client.post(f"/g/{token}/preview.json", data=pitch_fields(1, "5", [1] * 8)).get_json()
    assert answer["ends"] == "This deal ends the game: Rhonda & Peggy win."
    page = post(client, token, **{**pitch_fields(1, "5", [1] * 8), "action": "preview"})
    assert "This deal ends the game: Rhonda &amp; Peggy win." in page.get_data(as_text=True)
    client.get("/lang/fr?next=/")
    answer = client.post(f"/g/{token}/preview.json", data=pitch_fields(1, "5", [1] * 8)).get_json()
    assert answer["ends"] == "Cette donne termine la partie\u202f: Rhonda & Peggy gagnent."


def test_five_handed_preview_by_sides_with_the_reasons(client: FlaskClient) -> None:
    """Bidder and partner, then the defenders, who score their side's points: a
    defender who took nothing is told why he scores; a partner who reaches the target
    too does not win before the bidder."""
    token = new_game(client, "pitch", [*PITCH, "Walt"], rule_target="10", rule_defenders_score="on")
    client.get("/lang/en?next=/")
    # Rhonda bids 5, Peggy is her partner; they take 9, Dale the ace (1).
    fields = pitch_fields(1, "5", [0, 1, 1, 1, 1, 3, 3, 3], partner="3")
    answer = client.post(f"/g/{token}/preview.json", data=fields).get_json()
    assert answer["line"] == "Rhonda & Peggy +5 · Dale, Earl & Walt +1"
    assert "Earl & Walt took no point card but score the defenders' points." in answer["notes"]
    assert post(client, token, **fields).status_code == 302
    # Both reach 10: Rhonda goes out first; Peggy is told why she does not win.
    answer = client.post(f"/g/{token}/preview.json", data=fields).get_json()
    assert answer["ends"] == "This deal ends the game: Rhonda wins."
    assert "Peggy reaches 10 too, but the bidder goes out first." in answer["notes"]


def test_the_bar_holds_the_line_and_record(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", BOULMOUS)
    client.get("/lang/en?next=/")
    page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    bar = page[page.index('class="deal-bar"') :]
    assert bar.index('class="deal-line"') < bar.index('value="save"') < bar.index("</form>")
    assert "What the deal gives shows here." in bar


def test_a_half_entered_preview_answers_only_for_what_was_entered(client: FlaskClient) -> None:
    """The live preview of a deal half tapped: the reasons of the fields entered
    (the page shows no other), not every card's "missing" at each tap."""
    token = new_game(client, "pitch", [*PITCH, "Walt"])
    client.get("/lang/en?next=/")
    answer = client.post(
        f"/g/{token}/preview.json", data={"bidder": "0", "p_ace": "0", "partner": "0"}
    )
    errors = answer.get_json()["errors"]
    assert "partner" in errors  # the partner can't be the bidder: entered, so said
    assert "p_jack" not in errors  # not entered
    assert "p_ace" not in errors  # entered, and right
    whole = client.post(f"/g/{token}/preview.json", data={"bidder": "0", "p_jack": ""}).get_json()
    assert not any(group.startswith("p_") for group in whole["errors"])


def test_boulmous_the_folded_auction_says_what_it_holds(client: FlaskClient) -> None:
    """The folded auction is each call in turn, optional (the taker's bid is in the
    grid): said so, as a French player would say it ("Détail des enchères")."""
    token = new_game(client, "boulmous", BOULMOUS)
    client.get("/lang/en?next=/")
    page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert "<summary>Auction call by call (optional)</summary>" in page
