"""The JSON API (`/api/v1/`): every operation of the OpenAPI document, its answers
checked against that document, and its refusals (docs/API.md)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from referee.engine.records import load_record, score_record, standings_json
from referee.extensions import db
from referee.services import tables as table_service

EXAMPLES = Path(__file__).parents[2] / "examples"
BOULMOUS = {
    "format": "referee-game/1",
    "game": "boulmous",
    "players": ["Yasmine", "Hédi", "Sonia", "Karim"],
    "stake": "2",
}
#: The engine's messages only the API's requests raise (tests/engine/test_errors.py).
API_CODES = {"key_malformed"}
DEAL = {"taker": 1, "bid": 4, "contract": "spades", "tricks": [1, 4, 1, 0]}


class Api:
    """A client of the API that checks every answer against the OpenAPI document."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.document = client.get("/api/v1/openapi.json").get_json()
        self.seen: set[tuple[str, str, int]] = set()

    def call(
        self, method: str, path: str, body: object = None, lang: str = "en", **kw: Any
    ) -> TestResponse:
        headers = {"Accept-Language": lang, **kw.pop("headers", {})}
        if body is not None and "data" not in kw:
            kw["data"] = json.dumps(body)
            headers["Content-Type"] = "application/json"
        response = self.client.open(path, method=method, headers=headers, **kw)
        self.check(method, path, response)
        return response

    def operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        """The document's path and operation that serve `path`."""
        relative = path.split("?")[0].removeprefix("/api/v1")
        for template, item in self.document["paths"].items():
            pattern = re.sub(r"\{[^}]+\}", "[^/]+", template)
            if re.fullmatch(pattern, relative) and method.lower() in item:
                return template, item[method.lower()]
        raise AssertionError(f"{method} {path} is not in the document")

    def check(self, method: str, path: str, response: TestResponse) -> None:
        """The answer's status is documented for its operation, its type is the one
        documented, and its body conforms to the documented schema."""
        template, operation = self.operation(method, path)
        documented = operation["responses"].get(str(response.status_code))
        assert documented, f"{method} {template} answered {response.status_code}, undocumented"
        ((media, content),) = documented["content"].items()
        assert response.mimetype == media, (response.mimetype, media)
        schema = {"components": self.document["components"], **content["schema"]}
        jsonschema_rs.validator_for(schema).validate(response.get_json())
        self.seen.add((method.lower(), template, response.status_code))


@pytest.fixture
def api(client: FlaskClient) -> Api:
    return Api(client)


def created(api: Api, record: dict[str, Any] | None = None) -> dict[str, Any]:
    response = api.call("POST", "/api/v1/games", record or BOULMOUS)
    assert response.status_code == 201, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def test_the_document_lists_exactly_the_routes_served(app: Flask, api: Api) -> None:
    served = {
        (method.lower(), re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule.removeprefix("/api/v1")))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/") and rule.endpoint != "api.openapi"
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    documented = {(method, path) for path, item in api.document["paths"].items() for method in item}
    assert served == documented
    assert api.document["openapi"] == "3.1.0"
    # The limits a body is held to before any schema, said (issue 51).
    assert "at most 15 digits" in api.document["info"]["description"]
    # Its schemas are valid JSON Schema 2020-12 (the validator refuses a broken one).
    for schema in api.document["components"]["schemas"].values():
        jsonschema_rs.validator_for({"components": api.document["components"], **schema})


def test_create_read_and_money(api: Api) -> None:
    new = created(api)
    assert new["game"]["players"] == BOULMOUS["players"]
    assert new["editor_page"].endswith("/g/" + new["editor_token"])
    view = new["view_token"]
    posted = api.call(
        "POST", f"/api/v1/edit/{new['editor_token']}/deals", {"deal": DEAL, "number": 1}
    )
    assert posted.status_code == 201
    assert posted.get_json()["outcome"] == "recorded"
    game = api.call("GET", f"/api/v1/games/{view}").get_json()
    assert game["version"] == 1
    assert game["deals"] == 1
    assert game["scores"] == [1, 4, 1, 0]  # the engine's, as the pages show them
    assert game["money"]["stake"] == "2.00"
    history = api.call("GET", f"/api/v1/games/{view}/deals").get_json()
    assert history["deals"][0]["deal"] == DEAL
    assert history["deals"][0]["totals"] == game["scores"]
    money = api.call("GET", f"/api/v1/games/{view}/settlement").get_json()
    assert money["money"] == game["money"]
    assert money["players"] == BOULMOUS["players"]
    record = api.call("GET", f"/api/v1/games/{view}/record").get_json()
    assert record["deals"] == [DEAL]
    assert record["stake"] == "2"
    picture = api.client.get(game["links"]["picture"].removeprefix("http://localhost"))
    assert picture.status_code == 200
    assert picture.mimetype == "image/png"
    editor = api.call("GET", f"/api/v1/edit/{new['editor_token']}")
    assert editor.get_json()["view_token"] == view
    assert editor.headers["Cache-Control"] == "no-store"


@pytest.mark.parametrize(
    "name", sorted(p.stem for p in EXAMPLES.glob("*.json") if ".expected" not in p.name)
)
def test_every_example_reads_as_referee_score_prints_it(api: Api, name: str) -> None:
    """A record created through the API reads back the standings `referee score`
    prints for it (examples/*.expected.json): totals, winners, deltas, money."""
    record = json.loads((EXAMPLES / f"{name}.json").read_text())
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    view = created(api, record)["view_token"]
    game = api.call("GET", f"/api/v1/games/{view}").get_json()
    assert game["scores"] == expected["scores"]
    assert game["finished"] == expected["finished"]
    assert game["winners"] == expected["winners"]
    history = api.call("GET", f"/api/v1/games/{view}/deals").get_json()
    assert [d["deltas"] for d in history["deals"]] == [d["deltas"] for d in expected["deals"]]
    if expected["deals"]:
        assert history["deals"][-1]["totals"] == expected["scores"]
    if "money" in expected:
        assert game["money"]["net"] == expected["money"]["net"]
    # The game's own figures, as `referee score` prints them.
    printed = standings_json(score_record(load_record((EXAMPLES / f"{name}.json").read_bytes())))
    assert game["figures"] == {key: printed[key] for key in game["figures"]}
    shared = {"game", "finished", "winners", "scores", "deals", "next_dealer", "money"}
    assert set(game["figures"]) == set(printed) - shared


def test_a_deal_sent_twice_is_recorded_once_and_a_taken_number_is_refused(api: Api) -> None:
    new = created(api)
    deals = f"/api/v1/edit/{new['editor_token']}/deals"
    sent = {"deal": DEAL, "key": "retry-key-1", "number": 1}
    assert api.call("POST", deals, sent).status_code == 201
    again = api.call("POST", deals, sent)
    assert again.status_code == 200
    assert again.get_json()["outcome"] == "already"
    assert again.get_json()["game"]["deals"] == 1
    # Another client counted deal 1 too: refused, with the next number.
    taken = api.call("POST", deals, {"deal": DEAL, "key": "other-key-1", "number": 1})
    assert taken.status_code == 409
    assert taken.get_json()["type"] == "urn:referee:taken"
    assert taken.get_json()["number"] == 2
    assert again.get_json()["number"] == 1  # the deal the key recorded
    # The same key with another deal is a mistake, not a retry.
    other_deal = {**sent, "deal": {**DEAL, "contract": "clubs"}}
    reused = api.call("POST", deals, other_deal)
    assert reused.status_code == 409
    assert reused.get_json()["type"] == "urn:referee:key-reused"
    # Keys are each game's own: the same key records a deal in another game.
    other = created(api)
    elsewhere = api.call("POST", f"/api/v1/edit/{other['editor_token']}/deals", sent)
    assert elsewhere.status_code == 201
    # Taken back, the key's deal is answered as such when sent again.
    assert api.call("DELETE", f"{deals}/1").status_code == 200
    undone = api.call("POST", deals, sent)
    assert undone.status_code == 200
    assert undone.get_json()["outcome"] == "undone"
    assert undone.get_json()["number"] == 1


def test_a_number_ahead_of_the_game_says_how_many_deals_there_are(api: Api) -> None:
    new = created(api)
    ahead = api.call(
        "POST", f"/api/v1/edit/{new['editor_token']}/deals", {"deal": DEAL, "number": 7}
    )
    assert ahead.status_code == 409
    assert ahead.get_json()["number"] == 1
    assert ahead.get_json()["detail"] == (
        "The game has fewer deals than you counted: the next one is 1. Nothing was written."
    )


def test_the_rules_refuse_with_the_field_blamed_in_the_asked_language(api: Api) -> None:
    new = created(api)
    deals = f"/api/v1/edit/{new['editor_token']}/deals"
    wrong = {"deal": {**DEAL, "tricks": [1, 4, 1, 1]}}
    english = api.call("POST", deals, wrong, lang="en")
    assert english.status_code == 422
    assert english.mimetype == "application/problem+json"
    (error,) = english.get_json()["errors"]
    assert error["field"] == "deal.tricks"
    assert error["deal"] == 1
    assert error["message"] == "deal 1: tricks add up to 7, a deal has 6"
    french = api.call("POST", deals, wrong, lang="fr").get_json()
    assert french["title"] == "Les règles le refusent"
    assert french["errors"][0]["message"].startswith("donne 1\u202f: ")
    assert french["errors"][0]["field"] == "deal.tricks"
    # Nothing was written.
    assert api.call("GET", f"/api/v1/edit/{new['editor_token']}").get_json()["game"]["deals"] == 0


def test_a_bad_envelope_is_refused_field_by_field(api: Api) -> None:
    new = created(api)
    deals = f"/api/v1/edit/{new['editor_token']}/deals"
    answer = api.call("POST", deals, {"deal": [], "key": "no", "number": "1", "extra": 1})
    assert answer.status_code == 422
    found = {(e["code"], e["field"]) for e in answer.get_json()["errors"]}
    assert found == {
        ("not_object", "deal"),
        ("key_malformed", "key"),
        ("not_integer", "number"),
        ("unknown_field", "extra"),
    }
    missing = api.call("POST", deals, {"number": 0}, lang="fr").get_json()["errors"]
    assert {(e["code"], e["field"]) for e in missing} == {
        ("missing", "deal"),
        ("out_of_range", "number"),
    }
    assert any("1 à 300" in e["message"] for e in missing)
    assert api.call("POST", deals, {"deal": DEAL, "number": 1.0}).status_code == 201
    assert api.call("POST", deals, {"deal": DEAL, "number": True}).status_code == 422


@pytest.mark.parametrize(
    "body",
    [
        b"{",
        b"\xff\xfe",
        b"[" * 100_000 + b"]" * 100_000,
        b'{"deal": {"tricks": [' + b"9" * 5000 + b"]}}",
        b'{"deal": NaN}',
        b'{"deal": {"tricks": [1e999]}}',
        b'{"deal": {}, "deal": {}}',
        b"",
    ],
    ids=["broken", "not-utf8", "deep", "long-number", "nan", "overflow", "key-twice", "empty"],
)
def test_malformed_json_is_a_400_never_a_500(api: Api, body: bytes) -> None:
    new = created(api)
    for path in (f"/api/v1/edit/{new['editor_token']}/deals", "/api/v1/games"):
        answer = api.call("POST", path, data=body, headers={"Content-Type": "application/json"})
        assert answer.status_code == 400, (path, answer.get_json())
        assert answer.get_json()["type"] == "urn:referee:invalid"


def test_a_huge_body_is_413(api: Api) -> None:
    body = b'{"deal": {"x": "' + b"a" * (2 * 1024 * 1024) + b'"}}'
    answer = api.call("POST", "/api/v1/games", data=body)
    assert answer.status_code == 413
    assert answer.get_json()["type"] == "urn:referee:too-large"


@pytest.mark.parametrize("path", ["/api/v1/games", "/api/v1/edit/{editor}/deals"])
def test_a_chunked_body_over_the_limit_is_413_not_cut_short(api: Api, path: str) -> None:
    """A chunked body announces no length: one whose first megabyte is JSON, then
    more, is refused whole, never read as its first megabyte."""
    new = created(api)
    head = json.dumps({**BOULMOUS, "deals": [DEAL]} if "games" in path else {"deal": DEAL})
    body = head.encode() + b" " * (1024 * 1024 - len(head)) + b"junk"
    answer = api.call(
        "POST",
        path.format(editor=new["editor_token"]),
        input_stream=io.BytesIO(body),
        headers={"Transfer-Encoding": "chunked", "Content-Type": "application/json"},
    )
    assert answer.status_code == 413
    view = new["view_token"]
    assert api.call("GET", f"/api/v1/games/{view}").get_json()["deals"] == 0


def test_a_game_refused_at_creation_says_why(api: Api) -> None:
    answer = api.call("POST", "/api/v1/games", {**BOULMOUS, "players": ["Yasmine", "Hédi"]})
    assert answer.status_code == 422
    (error,) = answer.get_json()["errors"]
    assert error["field"] == "players"
    assert error["code"] == "players_count"
    unknown = api.call("POST", "/api/v1/games", {**BOULMOUS, "game": "chess"}).get_json()
    assert unknown["errors"][0]["code"] == "game_unknown"


def test_corrections_are_guarded_by_the_version(api: Api) -> None:
    new = created(api)
    edit = f"/api/v1/edit/{new['editor_token']}/deals"
    api.call("POST", edit, {"deal": DEAL})
    corrected = api.call("PUT", f"{edit}/1", {"deal": {**DEAL, "contract": "hearts"}, "version": 1})
    assert corrected.status_code == 200
    assert corrected.get_json()["outcome"] == "corrected"
    assert corrected.get_json()["game"]["version"] == 2
    stale = api.call("PUT", f"{edit}/1", {"deal": DEAL, "version": 1})
    assert stale.status_code == 409
    assert stale.get_json()["type"] == "urn:referee:stale"
    assert stale.get_json()["version"] == 2
    refused = api.call("PUT", f"{edit}/1", {"deal": {**DEAL, "bid": 9}, "version": 2})
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "deal.bid"
    assert api.call("PUT", f"{edit}/2", {"deal": DEAL, "version": 2}).status_code == 404
    assert api.call("PUT", f"{edit}/1", {"deal": DEAL}).status_code == 422
    view = new["view_token"]
    record = api.call("GET", f"/api/v1/games/{view}/record").get_json()
    assert record["deals"][0]["contract"] == "hearts"


def test_only_the_last_deal_is_taken_back(api: Api) -> None:
    new = created(api)
    edit = f"/api/v1/edit/{new['editor_token']}/deals"
    api.call("POST", edit, {"deal": DEAL})
    api.call("POST", edit, {"deal": {"passed": True}})
    not_last = api.call("DELETE", f"{edit}/1")
    assert not_last.status_code == 409
    assert not_last.get_json()["number"] == 2
    assert api.call("DELETE", f"{edit}/3").status_code == 404
    back = api.call("DELETE", f"{edit}/2")
    assert back.status_code == 200
    assert back.get_json()["outcome"] == "taken-back"
    assert back.get_json()["game"]["deals"] == 1


def test_tokens_open_only_their_own_doors(api: Api) -> None:
    new = created(api)
    editor, view = new["editor_token"], new["view_token"]
    # The spectators' token writes nothing, the editors' token reads no public answer.
    assert api.call("POST", f"/api/v1/edit/{view}/deals", {"deal": DEAL}).status_code == 404
    assert api.call("GET", f"/api/v1/games/{editor}").status_code == 404
    # Public reads may be read by a page of another site; the editors' never.
    public = api.call("GET", f"/api/v1/games/{view}")
    assert public.headers["Access-Control-Allow-Origin"] == "*"
    assert "Accept-Language" in public.headers["Vary"]
    private = api.call("GET", f"/api/v1/edit/{editor}")
    assert "Access-Control-Allow-Origin" not in private.headers
    assert api.call("GET", "/api/v1/games/nope").status_code == 404
    assert api.call("GET", "/api/v1/tables/nope").status_code == 404
    for path in ("", "/deals", "/settlement", "/record"):
        answer = api.call("GET", f"/api/v1/games/{view}{path}")
        assert editor not in answer.get_data(as_text=True)
    assert editor not in api.client.get("/api/v1/openapi.json").get_data(as_text=True)


def test_errors_outside_any_route_are_problems_too(api: Api) -> None:
    nowhere = api.client.get("/api/v1/nothing-here", headers={"Accept-Language": "fr"})
    assert nowhere.status_code == 404
    assert nowhere.mimetype == "application/problem+json"
    assert nowhere.get_json()["title"] == "Rien à cette adresse"
    wrong = api.client.patch("/api/v1/games")
    assert wrong.status_code == 405
    assert "POST" in wrong.headers["Allow"]
    assert wrong.get_json()["type"] == "urn:referee:method"
    # The pages keep their own error page.
    assert api.client.get("/nothing-here").mimetype == "text/html"


def test_writes_count_against_the_rate_limits(app: Flask, api: Api) -> None:
    app.config["RATE_LIMITS"] = {"write": 2, "import": 30, "create": 1, "preview": 1200}
    new = created(api)
    assert api.call("POST", "/api/v1/games", BOULMOUS).status_code == 429
    edit = f"/api/v1/edit/{new['editor_token']}/deals"
    answers = [api.call("POST", edit, {"deal": {"passed": True}}) for _ in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    limited = answers[-1]
    assert limited.get_json()["type"] == "urn:referee:too-many"
    assert 0 < int(limited.headers["Retry-After"]) <= 60
    # Reads are not counted.
    assert api.call("GET", f"/api/v1/edit/{new['editor_token']}").status_code == 200


def test_a_table_reads_by_its_spectators_token(app: Flask, api: Api) -> None:
    new = created(api, {**BOULMOUS, "deals": [DEAL]})
    with app.app_context():
        table = table_service.create_table("Le club du mardi")
        game = table_service.game_service.find(new["editor_token"])
        assert game is not None
        table_service.join(table, game)
        view = table.view_token
        db.session.remove()
    answer = api.call("GET", f"/api/v1/tables/{view}").get_json()
    assert answer["name"] == "Le club du mardi"
    assert answer["people"] == BOULMOUS["players"]
    (line,) = answer["games"]
    assert line["scores"] == [1, 4, 1, 0]
    assert line["api"].endswith("/api/v1/games/" + new["view_token"])
    (evening,) = answer["evenings"]
    (money,) = evening["money"]
    assert money["currency"] == "EUR"
    assert len(money["net"]) == 4
