"""Every page answers; bad and hostile input gets a message, never a 500."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.app import create_app
from tests.web.conftest import new_game

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]


def test_home_lists_only_this_browsers_games(app: Flask, client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    assert token in client.get("/").get_data(as_text=True)
    stranger = app.test_client()
    assert token not in stranger.get("/").get_data(as_text=True)
    stranger.get(f"/g/{token}")  # opening the link adds it to that browser's list
    assert token in stranger.get("/").get_data(as_text=True)


def test_in_progress_games_listed_first(client: FlaskClient) -> None:
    first = new_game(client, "boulmous", PLAYERS, rule_target="1")
    second = new_game(client, "boulmous", PLAYERS)
    client.post(
        f"/g/{first}/deal",
        data={"action": "save", "taker": "0", "bid": "3", "contract": "spades", "tricks0": "6"},
    )
    page = client.get("/").get_data(as_text=True)
    assert page.index(second) < page.index(first)


def test_tokens_are_long_and_random(client: FlaskClient) -> None:
    tokens = {new_game(client, "boulmous", PLAYERS) for _ in range(3)}
    assert len(tokens) == 3
    assert all(len(t) >= 22 for t in tokens)


@pytest.mark.parametrize(
    "path", ["/g/nope", "/g/nope/deal", "/g/nope/history", "/g/nope/export.json", "/g/nope/judge"]
)
def test_unknown_token_is_a_plain_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert "Traceback" not in response.get_data(as_text=True)


def test_edit_of_a_deal_that_does_not_exist(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    assert client.get(f"/g/{token}/deal/1/edit").status_code == 404


@pytest.mark.parametrize("path", ["/", "/new", "/new?game=pitch", "/import", "/g/x"])
def test_security_headers(client: FlaskClient, path: str) -> None:
    headers = client.get(path).headers
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"player3": "ana"}, "Two players have the same name: Ana (seats 1 and 4)"),
        ({"player3": ""}, "played by 4 players, not 3"),
        ({"stake": "abc"}, "not an amount"),
        ({"stake": "0.125"}, "more than 2 decimals"),
        ({"rule_target": "zéro"}, "whole number"),
        ({"rule_target": "99999999999"}, "out of range"),
        ({"first_dealer": "9"}, "Choose a seat"),
        ({"first_dealer": "١"}, "Choose a seat"),
        ({"stake": "1E+26"}, "not an amount"),
        ({"stake": "1_0"}, "not an amount"),
        ({"stake": "٣"}, "not an amount"),
        ({"stake": "20000"}, "more than 10000.00"),
        ({"rule_target": "²"}, "whole number"),
        ({"currency": "XXX"}, "Invalid value"),
    ],
)
def test_new_game_refusals(client: FlaskClient, fields: dict[str, str], message: str) -> None:
    client.get("/lang/en?next=/")
    data = {"game": "boulmous", "first_dealer": "0", "currency": "EUR"}
    data.update({f"player{i}": n for i, n in enumerate(PLAYERS)})
    data.update(fields)
    response = client.post("/new", data=data)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    assert 'value="Bruno"' in response.get_data(as_text=True)


def test_html_in_names_is_escaped(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["<script>alert(1)</script>", "B", "C", "D"])
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;" in page


@pytest.mark.parametrize(
    "fields",
    [
        {"taker": "abc", "bid": "x", "contract": "<b>", "tricks0": "9" * 50},
        {"taker": "-1", "bid": "99999999", "contract": "hearts", "tricks0": "-3"},
        {"taker": "1", "bid": "4", "contract": "hearts", "tricks0": "1.5", "tricks1": "1e9"},
        {},
    ],
)
def test_hostile_deal_posts_get_the_form_back(client: FlaskClient, fields: dict[str, str]) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    response = client.post(f"/g/{token}/deal", data={"action": "save", **fields})
    assert response.status_code == 422
    assert 'class="error"' in response.get_data(as_text=True)
    record = json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))
    assert record["deals"] == []


def test_unknown_game_on_new_offers_the_choice(client: FlaskClient) -> None:
    page = client.get("/new?game=chess").get_data(as_text=True)
    assert "/new?game=boulmous" in page


def test_csrf_required_when_enabled(app: Flask, client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    app.config["WTF_CSRF_ENABLED"] = True
    response = client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    assert response.status_code == 400
    page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    response = client.post(
        f"/g/{token}/deal", data={"action": "save", "passed": "1", "csrf_token": csrf}
    )
    assert response.status_code == 302


def test_language_switch_and_no_open_redirect(client: FlaskClient) -> None:
    response = client.get("/lang/en?next=//evil.example/")
    assert response.headers["Location"] == "/"
    response = client.get("/lang/fr?next=/new")
    assert response.headers["Location"] == "/new"
    assert 'lang="fr"' in client.get("/").get_data(as_text=True)


def test_language_from_the_browser(app: Flask) -> None:
    fresh = app.test_client()
    page = fresh.get("/", headers={"Accept-Language": "en-GB,en;q=0.8"}).get_data(as_text=True)
    assert 'lang="en"' in page
    page = fresh.get("/", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert 'lang="fr"' in page


def test_finished_game_takes_no_more_deals(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS, rule_target="1")
    client.post(
        f"/g/{token}/deal",
        data={"action": "save", "taker": "0", "bid": "3", "contract": "spades", "tricks0": "6"},
    )
    response = client.get(f"/g/{token}/deal")
    assert response.status_code == 302
    response = client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    assert response.status_code == 422


def test_trick_judge(client: FlaskClient) -> None:
    """The player who wins, counted from the leader, and why (issue 18, item 3)."""
    client.get("/lang/en?next=/")
    token = new_game(client, "boulmous", PLAYERS)
    page = client.post(f"/g/{token}/judge", data={"trump": "hearts", "cards": "AH JD KH QH"})
    text = page.get_data(as_text=True)
    assert "Bruno wins the trick with JD (card 2)." in text
    assert "J♦ is trump here: the same-colour jack, second after J♥." in text
    led_by_chloe = {"trump": "hearts", "cards": "AH JD JH", "leader": "2"}
    text = client.post(f"/g/{token}/judge", data=led_by_chloe).get_data(as_text=True)
    assert "Ana wins the trick with JH (card 3)." in text  # Chloé, Driss, then Ana
    assert "J♥ is the trump jack: the highest card of all." in text
    text = client.post(
        f"/g/{token}/judge", data={"trump": "no-trump", "cards": "9S AS KD"}
    ).get_data(as_text=True)
    assert "No trump was played: A♠ is the highest of the suit led." in text
    bad = client.post(f"/g/{token}/judge", data={"trump": "hearts", "cards": "AH XX"})
    assert bad.status_code == 422
    assert "is not a card" in bad.get_data(as_text=True)
    # The deal form's link carries its trump; the judge opens with it chosen.
    assert 'data-judge href="/g/' in client.get(f"/g/{token}/deal").get_data(as_text=True)
    form = client.get(f"/g/{token}/judge?trump=spades").get_data(as_text=True)
    assert 'value="spades" checked' in form
    assert 'data-card="8♠"' not in form  # Boulmous' deck: 9 to the ace
    assert 'data-card="9♠"' in form
    pitch = new_game(client, "pitch", ["A", "B", "C", "D"])
    page = client.post(f"/g/{pitch}/judge", data={"trump": "hearts", "cards": "2H AH"})
    text = page.get_data(as_text=True)
    assert "B wins the trick with AH (card 2)." in text
    assert "The 2 goes to whoever played it." in text
    bombu = new_game(client, "bombu", ["A", "B", "C", "D"])
    page = client.post(f"/g/{bombu}/judge", data={"cards": "KS 10S"})
    text = page.get_data(as_text=True)
    assert "B wins the trick with 10S (card 2)." in text
    assert "10♠ is the highest of the suit led (A 10 K Q J 9 8 7)." in text
    client.get("/lang/fr")
    text = client.post(f"/g/{bombu}/judge", data={"cards": "KS 10S"}).get_data(as_text=True)
    assert "B remporte le pli avec 10S (carte 2)." in text


def test_rules_page_shows_house_rules(client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token = new_game(client, "pitch", ["A", "B", "C", "D"], rule_dirty="on", stake="1")
    page = client.get(f"/g/{token}/rules").get_data(as_text=True)
    assert "Dirty pitch: <strong>yes</strong>" in page


def test_page_weight_under_60_kb(client: FlaskClient) -> None:
    token = new_game(client, "pitch", ["A", "B", "C", "D", "E"], rule_points="16")
    sizes = [len(client.get(f"/g/{token}/deal").data)]
    for asset in ("/static/app.css", "/static/app.js"):
        with client.get(asset) as response:
            sizes.append(len(response.data))
    assert sum(sizes) < 60 * 1024


def test_the_database_is_the_one_configured(app: Flask) -> None:
    import os

    from referee.extensions import db

    with app.app_context():
        dialect = db.engine.dialect.name
    assert dialect == ("postgresql" if os.environ.get("DATABASE_URL") else "sqlite")


def test_health_asks_the_database(app: Flask) -> None:
    """200 while the database answers; 503 once it cannot serve a game."""
    from sqlalchemy import text

    from referee.extensions import db

    client = app.test_client()
    assert (client.get("/health").status_code, client.get("/health").text) == (200, "ok\n")
    with app.app_context():
        db.session.execute(text("ALTER TABLE game RENAME TO game_gone"))
        db.session.commit()
    down = client.get("/health")
    assert (down.status_code, down.text) == (503, "database unavailable\n")
    assert down.headers["Retry-After"] == "5"
    # The process itself still answers (liveness).
    assert (client.get("/ping").status_code, client.get("/ping").text) == (200, "pong\n")


def test_health_when_the_database_is_unreachable(tmp_path: Path) -> None:
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/no/such/folder/x.sqlite3",
            "AUTO_UPGRADE": False,
            "SECRET_KEY": "t",
        }
    )
    assert app.test_client().get("/health").status_code == 503


def test_new_game_form_preselects_the_defaults(client: FlaskClient) -> None:
    page = client.get("/new?game=pitch").get_data(as_text=True)
    assert 'name="rule_defenders_score" checked' in page
    assert 'name="rule_dirty" checked' not in page
    assert 'id="rule_points_10" name="rule_points" value="10" checked' in page


def test_a_deal_of_the_history_says_why_it_scored_so(client: FlaskClient) -> None:
    """Tapped open ("Why?"), each deal of the history gives its arithmetic (issue 18),
    in the player's language, on the editors' page and the spectators'."""
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    form = {"action": "save", "taker": "1", "bid": "4", "contract": "spades"}
    form.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 3, 1, 1])})
    client.post(f"/g/{token}/deal", data=form)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    # The deal's line itself opens on why, across the whole width (issue 38, item 10).
    assert "<u>Pourquoi\u202f?</u></summary>" in page
    assert "Bruno a demandé 4 et fait 3\u202f: boîte, −4." in page
    client.get("/lang/en")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "<li>Bruno bid 4 and took 3: boîte, −4.</li>" in page
    assert "<li>The others score their tricks: Ana +1, Chloé +1, Driss +1.</li>" in page
    viewer = re.search(
        r"/v/([A-Za-z0-9_-]+)", client.get(f"/g/{token}/share").get_data(as_text=True)
    )
    assert viewer is not None
    assert "Bruno bid 4 and took 3" in client.get(f"/v/{viewer.group(1)}").get_data(as_text=True)


def test_the_preview_says_why_with_and_without_javascript(client: FlaskClient) -> None:
    client.get("/lang/en")
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    form = {"taker": "0", "bid": "3", "contract": "hearts"}
    form.update({f"tricks{seat}": str(n) for seat, n in enumerate([3, 1, 1, 1])})
    answer = client.post(f"/g/{token}/preview.json", data=form).get_json()
    assert answer["ok"] is True
    assert answer["why"] == [
        "Ana bid 3 and took 3: made, +3.",
        "The others score their tricks: Bruno +1, Chloé +1, Driss +1.",
    ]
    page = client.post(f"/g/{token}/deal", data={**form, "action": "preview"})
    assert '<ol class="why"><li>Ana bid 3 and took 3: made, +3.</li>' in page.get_data(as_text=True)


def test_what_each_bid_gives_now_before_the_auction(client: FlaskClient) -> None:
    """From the current scores (issue 18, item 2): each bid made and failed, the
    boulmous' stakes, who would reach the target; in Pitch the set and the moon."""
    client.get("/lang/en")
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"], rule_target="5")
    form = {"action": "save", "taker": "1", "bid": "3", "contract": "spades"}
    form.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 3, 1, 1])})
    client.post(f"/g/{token}/deal", data=form)  # Ana 1, Bruno 3, Chloé 1, Driss 1
    page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    table = page[
        page.index('class="bids-now card"') : page.index("</details>", page.index("bids-now"))
    ]
    rows = re.findall(r'<th scope="row">([^<]+)</th>(.*?)</tr>', table, re.S)
    words = {bid: re.sub(r"<[^>]+>", " ", cells).split() for bid, cells in rows}
    # The taker scores his tricks (the default): "or more"; 3 + 3 reaches 5.
    assert words["3"] == ["+3", "or", "more", "−3", "Bruno"]
    assert words["4"] == ["+4", "or", "more", "−4", "Ana,", "Bruno,", "Chloé,", "Driss"]
    assert words["Boulmous (6)"][:2] == ["+6", "and"]
    assert "and 1 stake to each" in table
    pitch = new_game(client, "pitch", ["Dale", "Rhonda", "Earl", "Peggy"], rule_target="11")
    page = client.get(f"/g/{pitch}/deal").get_data(as_text=True)
    assert "Dale &amp; Earl → 11" in page
    assert "the game is lost" in page
    client.get("/lang/fr")
    page = client.get(f"/g/{pitch}/deal").get_data(as_text=True)
    assert "Ce que donne chaque enchère maintenant" in page
    assert "la partie est perdue" in page


def test_may_the_next_player_play_this_card(client: FlaskClient) -> None:
    """Follow-suit, asked of the trick judge (issue 18, item 3): yes, or why not."""
    client.get("/lang/en?next=/")
    token = new_game(client, "boulmous", PLAYERS)

    def may(cards: str, card: str, hand: str, trump: str = "hearts") -> str:
        form = {"trump": trump, "cards": cards, "next": card, "hand": hand, "action": "may"}
        return client.post(f"/g/{token}/judge", data=form).get_data(as_text=True)

    assert "Yes: KS may be played." in may("AS", "KS", "9H")
    refused = may("AS", "9H", "KS")
    assert "9♥&#34; does not follow suit: the hand holds K♠, which must be played on" in refused
    assert "Yes: 9H may be played." in may("AS", "9H", "KD")  # void in spades
    # The same-colour jack is a trump: it follows hearts, not diamonds.
    assert "Yes: JD may be played." in may("AH", "JD", "9D")
    assert "does not follow suit: the hand holds 9♦" in may("AD", "JD", "9D")
    pitch = new_game(client, "pitch", ["A", "B", "C", "D"])
    form = {"trump": "hearts", "cards": "", "next": "KS", "hand": "", "action": "may"}
    text = client.post(f"/g/{pitch}/judge", data=form).get_data(as_text=True)
    assert "only trumps are played" in text
