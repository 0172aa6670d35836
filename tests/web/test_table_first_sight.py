"""A table at first sight (issue "the table at first sight": items 2, 6, 5 and 13 on
the table's side): a new game starts with the table's people in their last seats;
"Same table again" makes one next game, however often or from however many phones
it is tapped, and the finished game links to it; a game with no deal can be
removed; the evening's money is headed by the games; joining by the spectators'
link says which link to paste; the deals CSV tells each game's own columns."""

from __future__ import annotations

import csv
import io
import re
import threading
from typing import Any

from flask import Flask, template_rendered
from flask.testing import FlaskClient

from tests.web.conftest import new_game
from tests.web.test_table_loop import english
from tests.web.test_tables import BOULMOUS, evening_of_three, join, new_table, version_of

FINISHING = {"taker": "1", "bid": "4", "contract": "spades", "action": "save"}
FINISHING.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 4, 1, 0])})


def prefill_of(app: Flask, client: FlaskClient, path: str) -> list[str]:
    """The names the new-game view hands its template to seat (`prefill`)."""
    seen: list[dict[str, Any]] = []

    def keep(sender: Any, template: Any, context: dict[str, Any], **extra: Any) -> None:
        if template.name == "new.html":
            seen.append(context)

    with template_rendered.connected_to(keep, app):
        assert client.get(path).status_code == 200
    assert seen, "the new-game form was not rendered"
    return list(seen[-1]["prefill"])


def test_a_new_game_at_a_table_starts_with_its_people_in_their_last_seats(
    app: Flask, client: FlaskClient
) -> None:
    english(client)
    table = new_table(client)
    # Nobody yet: nothing to seat.
    assert prefill_of(app, client, f"/new?game=boulmous&table={table}") == []
    new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Pegy"], table=table)
    new_game(client, "pitch", ["Eve", "Ana", "Bruno", "Chloé", "Dale"], table=table)
    new_game(client, "boulmous", ["Bruno", "Chloé", "Peggy", "Ana"], table=table)
    # The last Boulmous' seats, not the Pitch's (played in between).
    assert prefill_of(app, client, f"/new?game=boulmous&table={table}") == [
        "Bruno",
        "Chloé",
        "Peggy",
        "Ana",
    ]
    # Pitch: its own last game, five seats.
    assert prefill_of(app, client, f"/new?game=pitch&table={table}") == [
        "Eve",
        "Ana",
        "Bruno",
        "Chloé",
        "Dale",
    ]
    # Bombu was never played here: the last game whose count it takes (4 players).
    assert prefill_of(app, client, f"/new?game=bombu&table={table}") == [
        "Bruno",
        "Chloé",
        "Peggy",
        "Ana",
    ]
    # Two names merged into one person: seated under the person's name.
    page = client.get(f"/t/{table}").get_data(as_text=True)
    client.post(
        f"/t/{table}/merge", data={"name": "Peggy", "into": "Pegy", "version": version_of(page)}
    )
    assert prefill_of(app, client, f"/new?game=boulmous&table={table}")[2] == "Pegy"
    # Not at a table: nothing seated.
    assert prefill_of(app, client, "/new?game=boulmous") == []


def _finished(client: FlaskClient, table: str | None = None) -> str:
    fields = {"table": table} if table else {}
    token = new_game(client, "boulmous", BOULMOUS, rule_target="4", **fields)
    assert client.post(f"/g/{token}/deal", data=FINISHING).status_code == 302
    return token


def _spectator_link(client: FlaskClient, token: str) -> str:
    found = re.search(
        r"/v/([A-Za-z0-9_-]+)", client.get(f"/g/{token}/share").get_data(as_text=True)
    )
    assert found is not None
    return found.group(1)


def test_same_table_again_makes_one_next_game_and_the_finished_game_links_to_it(
    app: Flask, client: FlaskClient
) -> None:
    english(client)
    table = new_table(client)
    token = _finished(client, table)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert f'action="/g/{token}/again"' in page
    assert "Next game" not in page
    first = client.post(f"/g/{token}/again").headers["Location"]
    # A second tap, and another phone (another session): the same next game.
    assert client.post(f"/g/{token}/again").headers["Location"] == first
    other = app.test_client()
    assert other.post(f"/g/{token}/again").headers["Location"] == first
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert f'action="/g/{token}/again"' not in page
    assert f'href="{first}"' in page
    assert "Next game →" in page
    # The spectators of the finished game are led to the next game's spectators' page.
    viewer = _spectator_link(client, token)
    following = _spectator_link(client, first.removeprefix("/g/"))
    shown = client.get(f"/v/{viewer}").get_data(as_text=True)
    assert f'href="/v/{following}"' in shown
    assert first not in shown
    # The evening holds two games, not three.
    evening = client.get(f"/t/{table}").get_data(as_text=True)
    assert len(re.findall(r'<li><a href="/g/', evening)) == 2


def test_two_phones_racing_on_same_table_again_make_one_game(app: Flask) -> None:
    """Two posts at once (threads, two sessions): the database's unique link lets
    one next game be made; both phones land on it."""
    from referee.extensions import db
    from referee.models import Game

    starter = app.test_client()
    token = _finished(starter)
    start = threading.Barrier(4)
    found: list[str] = []

    def tap() -> None:
        phone = app.test_client()
        start.wait()
        found.append(phone.post(f"/g/{token}/again").headers["Location"])

    threads = [threading.Thread(target=tap) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == 4
    assert len(set(found)) == 1
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Game)) == 2


def test_a_game_with_no_deal_is_removed_and_leaves_the_evenings_money(
    client: FlaskClient,
) -> None:
    english(client)
    table = new_table(client)
    token = new_game(client, "boulmous", BOULMOUS, table=table, rule_target="4", stake="2")
    client.post(f"/g/{token}/deal", data=FINISHING)
    empty = client.post(f"/g/{token}/again").headers["Location"].removeprefix("/g/")
    day = re.search(r"/evening/([0-9-]+)", client.get(f"/t/{table}").get_data(as_text=True))
    assert day is not None
    evening = client.get(f"/t/{table}/evening/{day.group(1)}").get_data(as_text=True)
    assert "2. Boulmous" in evening  # the empty game's column of €0.00
    # Offered on its page and on the table's; a game with a deal offers nothing.
    assert f'href="/g/{empty}/remove"' in client.get(f"/g/{empty}").get_data(as_text=True)
    assert f'href="/g/{empty}/remove"' in client.get(f"/t/{table}").get_data(as_text=True)
    assert f'href="/g/{token}/remove"' not in client.get(f"/t/{table}").get_data(as_text=True)
    confirm = client.get(f"/g/{empty}/remove").get_data(as_text=True)
    assert "Yes, remove it" in confirm
    # A deal recorded on the game since the confirmation was shown: nothing removed.
    response = client.post(f"/g/{empty}/remove", data={"version": "99"}, follow_redirects=True)
    assert "Someone else changed the game meanwhile" in response.get_data(as_text=True)
    response = client.post(
        f"/g/{empty}/remove", data={"version": version_of(confirm)}, follow_redirects=True
    )
    assert "The game was removed." in response.get_data(as_text=True)
    assert client.get(f"/g/{empty}").status_code == 404
    evening = client.get(f"/t/{table}/evening/{day.group(1)}").get_data(as_text=True)
    assert "2. Boulmous" not in evening
    assert "1. Boulmous" in evening
    # The finished game offers "Same table again" anew.
    assert f'action="/g/{token}/again"' in client.get(f"/g/{token}").get_data(as_text=True)
    # A game with a deal is never removed.
    page = client.get(f"/g/{token}/remove").get_data(as_text=True)
    assert "cannot be removed" in page
    assert "Yes, remove it" not in page
    response = client.post(f"/g/{token}/remove", data={"version": "2"}, follow_redirects=True)
    assert "cannot be removed" in response.get_data(as_text=True)
    assert client.get(f"/g/{token}").status_code == 200


def test_removing_a_game_needs_the_forms_csrf_token(app: Flask, client: FlaskClient) -> None:
    token = new_game(client, "boulmous", BOULMOUS)
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get(f"/g/{token}/remove").get_data(as_text=True)
    assert client.post(f"/g/{token}/remove", data={"version": "0"}).status_code == 400
    assert client.get(f"/g/{token}").status_code == 200
    csrf = page.split('name="csrf_token" value="')[1].split('"')[0]
    response = client.post(f"/g/{token}/remove", data={"version": "0", "csrf_token": csrf})
    assert response.status_code == 302
    assert client.get(f"/g/{token}").status_code == 404


def test_the_evenings_money_is_headed_by_the_games_in_both_languages(
    client: FlaskClient,
) -> None:
    table, _games = evening_of_three(client)
    evening = client.get(f"/t/{table}/evening/2026-11-27").get_data(as_text=True)
    ledger = evening[evening.index('class="ledger') : evening.index("</table>")]
    headers = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', ledger)
    assert headers == ["Joueur", "1. Boulmous", "3. Bombu provençal", "Soirée"]
    # Each amount says its game, for the narrow screen's cards.
    assert '−8,00\u00a0€<span class="for">3. Bombu provençal</span>' in ledger
    english(client)
    evening = client.get(f"/t/{table}/evening/2026-11-27").get_data(as_text=True)
    ledger = evening[evening.index('class="ledger') : evening.index("</table>")]
    headers = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', ledger)
    assert headers == ["Person", "1. Boulmous", "3. Bombu provençal", "Evening"]


def test_the_deals_csv_says_who_took_what_bid_and_which_contract(client: FlaskClient) -> None:
    table, _games = evening_of_three(client)
    text = client.get(f"/t/{table}/deals.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert list(rows[0])[-4:] == ["taker", "partner", "bid", "contract"]

    def deal(kind: str, number: int) -> list[dict[str, str]]:
        return [r for r in rows if r["kind"] == kind and r["deal"] == str(number)]

    # Boulmous: Bruno took at 4 in spades; the second deal was passed by all.
    first = deal("boulmous", 1)
    assert {(r["taker"], r["bid"], r["contract"]) for r in first} == {("Bruno", "4", "spades")}
    assert {(r["taker"], r["bid"], r["contract"]) for r in deal("boulmous", 2)} == {
        ("", "", "passed")
    }
    # Pitch: Bruno bid 5 in hearts. Bombu: the contract, no taker nor bid.
    assert {(r["taker"], r["bid"], r["contract"]) for r in deal("pitch", 1)} == {
        ("Bruno", "5", "hearts")
    }
    assert {(r["taker"], r["bid"], r["contract"]) for r in deal("bombu", 1)} == {
        ("", "", "no-tricks")
    }
    # The points are still there, each seat on its line.
    assert [r["person"] for r in first] == BOULMOUS


def test_joining_by_the_spectators_link_says_which_link_to_paste_in_french(
    client: FlaskClient,
) -> None:
    table = new_table(client)
    token = new_game(client, "boulmous", BOULMOUS)
    page = join(client, table, f"https://example.org/v/{_spectator_link(client, token)}")
    assert "lien des spectateurs" in page
    assert f"/g/{token}" not in client.get(f"/t/{table}").get_data(as_text=True)


def test_the_money_chart_keeps_equal_lines_visible_and_numbers_the_games(
    client: FlaskClient,
) -> None:
    english(client)
    table, _games = evening_of_three(client)
    page = client.get(f"/t/{table}/statistics").get_data(as_text=True)
    svg = page[page.index('<svg class="chart"') :]
    svg = svg[: svg.index("</svg>")]
    lines = re.findall(r'<polyline points="[^"]+" fill="none" stroke="([^"]+)" ([^>]*)>', svg)
    assert len(lines) == 5  # everyone of the table (Élodie sat the money games out)
    # Each drawn its own way (width, dashes): two equal lines never hide one another
    # (Élodie's and Ana's are both 0 after the first game).
    assert len({style for _colour, style in lines}) == 5
    widths = [float(re.findall(r'stroke-width="([0-9.]+)"', style)[0]) for _c, style in lines]
    assert widths == sorted(widths, reverse=True)  # each thinner, drawn over the one before
    assert svg.count('class="dot"') == 5 * 2  # a dot at each game of each line
    # The bottom axis numbers the two games played for money, and the page says when.
    assert re.findall(r'class="tick label"[^>]*>([^<]+)</text>', svg) == ["1", "2"]
    assert "numbered, all on Friday, November 27, 2026." in page
    # Another evening: the chart's games run from one day to the other.
    later = new_game(client, "boulmous", BOULMOUS, table=table, rule_target="4", stake="1")
    client.post(f"/g/{later}/deal", data=FINISHING)
    page = client.get(f"/t/{table}/statistics").get_data(as_text=True)
    assert "numbered from Friday, November 27, 2026 to " in page


def _table_viewer(client: FlaskClient, table: str) -> str:
    share = client.get(f"/t/{table}/share").get_data(as_text=True)
    found = re.search(r"/tv/([A-Za-z0-9_-]+)", share)
    assert found is not None
    return found.group(1)


def test_the_tables_tv_shows_the_game_being_played_and_follows_the_table(
    client: FlaskClient,
) -> None:
    english(client)
    table, games = evening_of_three(client)
    viewer = _table_viewer(client, table)
    page = client.get(f"/tv/{viewer}").get_data(as_text=True)
    now = page[page.index('class="tv-now') : page.index("</section>", page.index('class="tv-now'))]
    # The Bombu goes on (the Boulmous and the Pitch are over): it is the one shown,
    # its sides in seat order, the lowest score leading, the last deal in a line.
    assert "Bombu provençal" in now
    sides = re.findall(
        r'<li class="(leader)?">\s*<span class="tv-name">([^<]+)</span>.*?'
        r'<span class="tv-score">([^<]+)</span>',
        now,
        re.S,
    )
    assert [(name, score) for _lead, name, score in sides] == [
        ("Bruno", "100"),
        ("Chloé", "−30"),
        ("Driss", "170"),
        ("Ana", "80"),
    ]
    assert [name for lead, name, _score in sides if lead] == ["Chloé"]
    assert "in the lead" in now
    assert 'class="tv-last"><strong>Deal 6</strong>' in now
    # The title says what was played and who deals what next, not "Deal 6".
    title = now[now.index('class="tv-title') :][:400]
    assert re.search(r"6 deals played · \w+ deals deal 7\.", title), title
    # It follows that game live, the table's state beside it; nothing of an editor.
    bombu_view = _spectator_link(client, games[2])
    assert f'data-version-url="/v/{bombu_view}/version.json"' in now
    assert f'data-live-url="/tv/{viewer}/live"' in now
    assert not any(token in page for token in [table, *games])
    assert "The evening's money" in page[page.index("tv-money") :]
    live = client.get(f"/tv/{viewer}/live")
    assert live.mimetype == "text/event-stream"
    version = client.get(f"/v/{bombu_view}/version.json").get_json()["version"]
    assert f"data: {version}\n".encode() in live.data  # the Bombu's version
    state = client.get(f"/tv/{viewer}/version.json").get_json()["version"]
    # A new game at the table: the state moves (the TV reloads) and it is shown.
    started = new_game(client, "boulmous", BOULMOUS, table=table)
    moved = client.get(f"/tv/{viewer}/version.json").get_json()["version"]
    assert moved != state
    page = client.get(f"/tv/{viewer}").get_data(as_text=True)
    assert "Boulmous" in page[page.index('class="tv-title') :][:200]
    assert "not started" in page
    # A deal of it moves the state again; removed, the Bombu is back on the TV.
    client.post(f"/g/{started}/deal", data=FINISHING)
    assert client.get(f"/tv/{viewer}/version.json").get_json()["version"] != moved
    client.post(f"/g/{started}/undo", data={"version": "1"})
    client.post(f"/g/{started}/remove", data={"version": "2"})
    assert client.get(f"/g/{started}").status_code == 404
    page = client.get(f"/tv/{viewer}").get_data(as_text=True)
    assert "Bombu provençal" in page[page.index('class="tv-title') :][:200]


def test_a_games_tv_shows_it_large_and_goes_on_to_the_next_game(client: FlaskClient) -> None:
    english(client)
    token = _finished(client)
    viewer = _spectator_link(client, token)
    assert f'href="/v/{viewer}/tv"' in client.get(f"/g/{token}/share").get_data(as_text=True)
    page = client.get(f"/v/{viewer}/tv").get_data(as_text=True)
    assert 'class="tv-now' in page
    assert "Game over" in page
    assert "game won" in page
    assert token not in page  # a spectator's page: no editor link
    following = client.post(f"/g/{token}/again").headers["Location"].removeprefix("/g/")
    response = client.get(f"/v/{viewer}/tv")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/v/{_spectator_link(client, following)}/tv"
    assert client.get("/v/not-a-token/tv").status_code == 404


def test_migrating_an_older_database_keeps_every_deal(app: Flask, client: FlaskClient) -> None:
    """Down to before tables and up again, with deals in the database: on SQLite a
    batch migration copies the `game` table and drops the old one, which with foreign
    keys enforced deleted every deal and change in cascade (migrations/env.py now
    turns them off meanwhile); the next game's column is added in place."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import text

    from referee.app import MIGRATIONS
    from referee.extensions import db

    english(client)
    token = _finished(client)
    following = client.post(f"/g/{token}/again").headers["Location"].removeprefix("/g/")

    def counts() -> list[int]:
        return [
            db.session.execute(text(f"SELECT count(*) FROM {name}")).scalar_one()
            for name in ("game", "deal", "change")
        ]

    with app.app_context():
        before = counts()
        assert before[1] == 1
        db.session.remove()
        downgrade(directory=str(MIGRATIONS), revision="d4e6f8a0b2c3")  # before tables
        assert counts() == before
        db.session.remove()
        upgrade(directory=str(MIGRATIONS))
        assert counts() == before
        db.session.remove()
    # The link to the next game went with the downgrade: offered anew, made once.
    again = client.post(f"/g/{token}/again").headers["Location"].removeprefix("/g/")
    assert again != following
    assert client.post(f"/g/{token}/again").headers["Location"] == f"/g/{again}"
    assert len(client.get(f"/g/{token}").get_data(as_text=True).split("Next game →")) == 2


def test_the_tables_tv_follows_the_game_where_a_deal_was_just_recorded(
    client: FlaskClient,
) -> None:
    """A next game made early (empty) while the table still plays the old one: the TV
    shows the game the phones are writing to, not the newest game."""
    english(client)
    table = new_table(client)
    viewer = _table_viewer(client, table)
    playing = new_game(client, "boulmous", BOULMOUS, table=table)
    client.post(f"/g/{playing}/deal", data=FINISHING)
    new_game(client, "boulmous", ["Eve", "Fred", "Gus", "Hal"], table=table)

    def shown() -> str:
        page = client.get(f"/tv/{viewer}").get_data(as_text=True)
        now = page[page.index('class="tv-now') :]
        return now[: now.index("</section>")]

    assert "Eve" in shown()  # the newest game, till a deal is recorded elsewhere
    client.post(f"/g/{playing}/deal", data=FINISHING)
    assert "Ana" in shown()
    assert "Eve" not in shown()
    assert 'class="tv-last"><strong>Deal 2</strong>' in shown()
