"""The first visit (issue 20, item 12): the home page names the three games with a
picture each and opens a sample game to look at; the new-game form shows the usual
choices and folds the rest; a new game's seats can come filled in; dates read as
players read them."""

from __future__ import annotations

import re
from datetime import datetime
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from sqlalchemy import func, select

from referee.engine.records import load_record, score_record
from referee.extensions import db
from referee.games import PACKAGES
from referee.models import Game, Table
from referee.web.homes import HOMES
from tests.web.conftest import new_game
from tests.web.test_tables import new_table

THREE = ("boulmous", "bombu", "pitch")
#: Every game, in the registry's order (the home page's).
ALL = tuple(PACKAGES)
PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]


def english(client: FlaskClient) -> None:
    client.get("/lang/en")


def rows(app: Flask) -> tuple[int, int]:
    """How many games and tables the database holds."""
    with app.app_context():
        games = db.session.scalar(select(func.count()).select_from(Game)) or 0
        tables = db.session.scalar(select(func.count()).select_from(Table)) or 0
        return games, tables


def more_options(page: str) -> str:
    """The part of the new-game form folded under "More options" (its opening tag too)."""
    start = page.index('<details class="more-options"')
    return page[start : page.index("</details>", start)]


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", " ", html))


# --- the home page ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_home_names_every_game_with_its_picture(client: FlaskClient, lang: str) -> None:
    if lang == "en":
        english(client)
    page = client.get("/").get_data(as_text=True)
    # Each registered game by its name in the page's language (the four first known
    # by heart; a game added later by its home's name).
    known = {"fr": ("Boulmous", "Bombu provençal", "Pitch à 10 points", "Carnet")}.get(
        lang, ("Boulmous", "Bombu provençal", "10-point Pitch", "Score pad")
    )
    by_key = dict(zip(("boulmous", "bombu", "pitch", "pad"), known, strict=True))
    with client.application.test_request_context(), force_locale(lang):
        names = [by_key.get(key) or str(HOMES[key].name) for key in ALL]
    kinds = page[page.index('<ul class="kinds">') :]
    for key, name in zip(ALL, names, strict=True):
        assert name in kinds
        # Each game's picture is its package's (referee/games/<key>/static/picture.svg).
        picture = re.search(rf'<img src="(/static/games/{key}/picture\.svg[^"]*)"', kinds)
        assert picture is not None, key
        with client.get(unescape(picture.group(1))) as served:
            assert served.status_code == 200
            assert served.mimetype == "image/svg+xml"
            svg = served.get_data(as_text=True)
        assert "<svg" in svg
        assert "prefers-color-scheme:dark" in svg  # light and dark
        assert f'href="/sample/{key}"' in kinds
        assert f'href="/new?game={key}"' in kinds


def test_home_the_games_first_then_the_other_actions(client: FlaskClient) -> None:
    """What a newcomer comes for first: each game's Play (the primary actions); the
    other actions (a new game to choose, a table, the imports, a concours, a
    season) after them, grouped and quieter."""
    page = client.get("/").get_data(as_text=True)
    primaries = re.findall(r'<a class="button primary[^"]*" href="([^"]+)"', page)
    assert primaries == [f"/new?game={key}" for key in ALL]
    others = page.index('<section class="home-others"')
    assert page.index('<ul class="kinds">') < others
    for secondary in (
        "/new", "/tables/new", "/import", "/tables/import", "/events/new", "/seasons/new",
    ):  # fmt: skip
        found = re.search(rf'<a class="button" href="{secondary}"', page)
        assert found, secondary
        assert found.start() > others, secondary


@pytest.mark.parametrize(
    ("lang", "shown"), [("fr", "5 déc. 2026"), ("en", "Dec 5, 2026")], ids=["fr", "en"]
)
def test_home_dates_read_as_players_read_them(
    app: Flask, client: FlaskClient, lang: str, shown: str
) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.token == token))
        assert game is not None
        game.updated_at = datetime(2026, 12, 5, 10, 30)
        db.session.commit()
    if lang == "en":
        english(client)
    page = client.get("/").get_data(as_text=True)
    assert shown in text_of(page)
    assert "2026-12-05" not in text_of(page)  # the ISO date only in <time datetime>
    assert '<time datetime="2026-12-05">' in page


# --- the sample games ------------------------------------------------------------------


@pytest.mark.parametrize("key", ALL)
def test_a_sample_game_opens_read_only_and_stores_nothing(
    app: Flask, client: FlaskClient, key: str
) -> None:
    before = rows(app)
    for lang in ("fr", "en"):
        client.get(f"/lang/{lang}")
        response = client.get(f"/sample/{key}")
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        sample = HOMES[key].sample_file
        assert sample is not None
        record = load_record(sample.read_bytes())
        standings = score_record(record)
        assert standings.finished
        winner = page[page.index('class="winner"') :]
        winner = winner[: winner.index("</p>")]
        for seat in standings.winners:
            assert record.players[seat] in winner
        # Every deal of the record is in the history, and nothing can be changed.
        assert page.count('<details class="why">') == len(record.deals)
        assert "<form" not in page
        assert "/g/" not in page
        assert f'href="/new?game={key}"' in page  # a game like it starts from there
    assert rows(app) == before


def test_the_samples_are_the_games_of_the_app(client: FlaskClient) -> None:
    """Each game's sample is in its package, a record of that game."""
    for key, home in HOMES.items():
        assert home.sample_file is not None, key
        assert home.sample_file.parent.name == key
        assert load_record(home.sample_file.read_bytes()).game == key
    assert client.get("/sample/nothing").status_code == 404
    assert client.get("/sample/..%2Fsamples%2Fboulmous").status_code == 404
    # A game's folder serves its styles, scripts and picture, nothing else of it.
    assert client.get("/static/games/pad/picture.svg").status_code == 200
    assert client.get("/static/games/pad/sample.json").status_code == 404
    assert client.get("/static/games/pad/../sample.json").status_code == 404


# --- the new-game form -----------------------------------------------------------------


@pytest.mark.parametrize("key", THREE)
def test_new_game_form_folds_the_rarer_options(client: FlaskClient, key: str) -> None:
    page = client.get(f"/new?game={key}").get_data(as_text=True)
    folded = more_options(page)
    assert folded.startswith('<details class="more-options">')  # closed
    for field in ('name="stake"', 'name="stake_per"', 'name="place"', 'name="confirm_deals"'):
        assert field in folded, field
    assert 'name="rule_' in folded
    # The usual choices stay in view: the names, who deals, Start.
    before = page[: page.index('<details class="more-options"')]
    assert 'name="player0"' in before
    assert 'name="first_dealer"' in before
    after = page[page.index("</details>", page.index('<details class="more-options"')) :]
    assert "Commencer la partie" in after


@pytest.mark.parametrize(
    "fields",
    [
        {"stake": "deux euros"},  # refused
        {"rule_target": "9999"},  # refused
        {"place": "Chez Ana"},  # not the usual, names missing
        {"stake": "0,50"},
        {"confirm_deals": "on"},
        {"stake_per": "point"},
    ],
    ids=["bad-stake", "bad-rule", "place", "stake", "confirm", "per-point"],
)
def test_more_options_open_on_an_error_or_a_choice(
    client: FlaskClient, fields: dict[str, str]
) -> None:
    data = {"game": "boulmous", "first_dealer": "0", "currency": "EUR", "player0": "Ana"}
    response = client.post("/new", data={**data, **fields})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert more_options(page).startswith('<details class="more-options" open>')
    # Nothing typed is lost.
    for name, value in fields.items():
        if name in ("stake", "place"):
            assert f'value="{value}"' in page


def test_more_options_stay_folded_when_only_a_name_is_missing(client: FlaskClient) -> None:
    data = {"game": "boulmous", "first_dealer": "0", "currency": "EUR", "player0": "Ana"}
    response = client.post("/new", data=data)
    assert response.status_code == 422
    assert more_options(response.get_data(as_text=True)).startswith(
        '<details class="more-options">'
    )


def test_french_slips_on_the_new_game_form(client: FlaskClient) -> None:
    page = client.get("/new?game=pitch").get_data(as_text=True)
    assert "Mise (facultative)" in page
    assert "Mise (facultatif)" not in page
    assert "Place 5 (facultative)" in page  # a seat (une place) is feminine
    english(client)
    page = client.get("/new?game=pitch").get_data(as_text=True)
    assert "Stake (optional)" in page
    assert "Seat 5 (optional)" in page


def test_seats_come_filled_in_on_a_first_view(client: FlaskClient) -> None:
    """A new game at a table: each seat and each dealer pill shows the name of the
    table's last game (`prefill`), a tap away from being changed."""
    people = ["Zoé", "Yves", "Xavier", "Wanda"]
    table = new_table(client)
    new_game(client, "boulmous", people, table=table)
    page = client.get(f"/new?game=boulmous&table={table}").get_data(as_text=True)
    for seat, name in enumerate(people):
        assert re.search(
            rf'id="player{seat}" name="player{seat}" value="{name}"[^>]* data-prefilled', page
        )
        assert re.search(rf'<label for="fd{seat}"[^>]*>{name}</label>', page)
        assert f'data-clear="player{seat}"' in page
    # After a post, what was typed, not the table's names.
    response = client.post(
        "/new",
        data={
            "game": "boulmous",
            "table": table,
            "first_dealer": "0",
            "currency": "EUR",
            "player0": "Ana",
        },
    )
    page = response.get_data(as_text=True)
    assert 'value="Ana"' in page
    assert "Zoé" not in page.split('<datalist id="known-names">')[0]
    assert "data-prefilled" not in page


def test_seats_are_empty_without_a_table(client: FlaskClient) -> None:
    page = client.get("/new?game=boulmous").get_data(as_text=True)
    assert 'id="player0" name="player0" value=""' in page
    assert "data-prefilled" not in page


def test_the_choice_of_game_shows_each_picture(client: FlaskClient) -> None:
    page = client.get("/new").get_data(as_text=True)
    for key in ALL:
        link = f'<a class="choice pictured" href="/new?game={key}">'
        assert f'{link}<img src="/static/games/{key}/picture.svg' in page, key


def test_home_says_a_game_with_no_deal_is_not_started(client: FlaskClient) -> None:
    """As the table's page says it: a game with no deal is "not started", not "in
    progress"."""
    english(client)
    token = new_game(client, "boulmous", PLAYERS)
    assert "not started" in text_of(client.get("/").get_data(as_text=True))
    deal = {"taker": "1", "bid": "4", "contract": "spades", "action": "save"}
    deal.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 4, 1, 0])})
    assert client.post(f"/g/{token}/deal", data=deal).status_code == 302
    shown = text_of(client.get("/").get_data(as_text=True))
    assert "in progress" in shown
    assert "not started" not in shown
