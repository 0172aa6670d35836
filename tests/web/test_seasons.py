"""A club's season through the pages (issue 42): two concours this phone directs,
a season over them, its public page and its PDF (names and results only)."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.services import seasons as season_service
from tests.web.test_concours import create, play_round, version
from tests.web.test_concours_prints import pdf_pages, scanned


def concours(app: Flask, client: FlaskClient, name: str, players: str, seed: int) -> str:
    token, event = create(app, client, name=name, rounds="1", players=players)
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    play_round(app, client, event.id, 1, seed=seed)
    return token


def test_a_season_over_two_concours(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    concours(app, client, "Janvier", "Amélie\nBruno\nChantal\nDidier", 1)
    concours(app, client, "Février", "Bruno\nAMÉLIE\nDidier\nÉmile", 2)
    form = client.get("/seasons/new").get_data(as_text=True)
    assert "Janvier" in form
    assert "Février" in form
    refused = client.post("/seasons/new", data={"name": "Saison", "points": "10, x"})
    assert refused.status_code == 422
    assert "x" in refused.get_data(as_text=True)
    uids = [
        line.split('value="', 1)[1].split('"', 1)[0]
        for line in form.splitlines()
        if 'name="events"' in line
    ]
    created = client.post(
        "/seasons/new",
        data={
            "name": "Championnat 2027",
            "points": "10, 6, 4, 3",
            "drop_worst": "1",
            "tie_breaks": ["wins", "best", "last"],
            "events": uids,
        },
    )
    assert created.status_code == 302
    organiser = created.headers["Location"]
    page = client.get(organiser).get_data(as_text=True)
    assert "Championnat 2027" in page
    assert "Le plus mauvais résultat de chaque joueur est retiré." in page
    # Amélie and AMÉLIE are one player: both concours count, the worst dropped.
    assert page.count("Amélie") >= 1
    assert "AMÉLIE" not in page.split("<table", 1)[1].split("</table>")[0]
    view = page.split("/se/", 1)[1].split('"', 1)[0]
    public = client.get(f"/se/{view}").get_data(as_text=True)
    token = organiser.rsplit("/", 1)[1]
    assert token not in public
    assert "/e/" not in public
    assert "/s/" not in public
    for name in ("Amélie", "Bruno", "Chantal", "Didier", "Émile"):
        assert name in public
    sheet = client.get(f"/se/{view}/season.pdf")
    text = pdf_pages(sheet.data)[0]
    assert "Championnat 2027" in text
    assert "Classement de la saison" in text
    assert [c.rsplit("/", 2)[-2:] for c in scanned(sheet.data)] == [["se", view]]
    # The home page leads back to the season.
    assert "Championnat 2027" in client.get("/").get_data(as_text=True)
    # A concours removed stops counting.
    event_id = page.split("/events/", 1)[1].split("/", 1)[0]
    client.post(f"{organiser}/events/{event_id}/remove")
    after = client.get(f"/se/{view}").get_data(as_text=True)
    assert "Chantal" not in after
    assert "Émile" in after


def test_a_season_refuses_strangers(client: FlaskClient) -> None:
    assert client.get("/s/nope").status_code == 404
    assert client.get("/se/nope").status_code == 404
    assert client.get("/se/nope/season.pdf").status_code == 404
    made = client.post("/seasons/new", data={"name": "Vide"})
    organiser = made.headers["Location"]
    # Another phone's concours cannot be added by its id.
    assert client.post(f"{organiser}/events", data={"event": "someone-else"}).status_code == 302
    assert "Vide" in client.get(organiser).get_data(as_text=True)


def test_a_concours_added_later_and_the_season_full(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    client.get("/lang/en?next=/")
    concours(app, client, "January", "Ana\nBen\nCyd\nDan", 1)
    missing = client.post("/seasons/new", data={"name": " "})
    assert missing.status_code == 422
    long = client.post("/seasons/new", data={"name": "S" * 81})
    assert long.status_code == 422
    assert "80" in long.get_data(as_text=True)
    made = client.post("/seasons/new", data={"name": "Cup", "points": "3, 2, 1"})
    organiser = made.headers["Location"]
    page = client.get(organiser).get_data(as_text=True)
    assert "No concours ranked yet." in page
    uid = page.split('<option value="', 1)[1].split('"', 1)[0]  # "Add one of your concours"
    client.post(f"{organiser}/events", data={"event": uid})
    client.post(f"{organiser}/events", data={"event": uid})  # once is enough
    page = client.get(organiser).get_data(as_text=True)
    assert page.count('action="' + organiser.split("localhost", 1)[-1] + "/events/") == 1
    assert "Ana" in page
    assert "Add one of your concours" not in page
    concours(app, client, "February", "Ana\nBen\nCyd\nEve", 2)
    page = client.get(organiser).get_data(as_text=True)
    second = page.split('<option value="', 1)[1].split('"', 1)[0]
    monkeypatch.setattr(season_service, "MAX_EVENTS", 1)
    full = client.post(f"{organiser}/events", data={"event": second}, follow_redirects=True)
    assert "more than 1" in full.get_data(as_text=True)


def test_a_season_name_is_printed_on_one_line(client: FlaskClient) -> None:
    refused = client.post("/seasons/new", data={"name": "Cup\x00 2027"})
    assert refused.status_code == 422
    assert "U+0000" in refused.get_data(as_text=True)
    made = client.post("/seasons/new", data={"name": "  Club   cup  ", "drop_worst": "3"})
    page = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "<h1>Club cup</h1>" in page


def test_more_dropped_than_played_says_what_counts(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    concours(app, client, "January", "Ana\nBen\nCyd\nDan", 1)
    concours(app, client, "February", "Ana\nBen\nCyd\nDan", 2)
    form = client.get("/seasons/new").get_data(as_text=True)
    uids = [
        line.split('value="', 1)[1].split('"', 1)[0]
        for line in form.splitlines()
        if 'name="events"' in line
    ]
    made = client.post("/seasons/new", data={"name": "Cup", "drop_worst": "3", "events": uids})
    page = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "Each player's 3 worst results are dropped." in page
    assert "So far each player's best result counts." in page
    view = page.split("/se/", 1)[1].split('"', 1)[0]
    public = client.get(f"/se/{view}").get_data(as_text=True)
    # Each concours named once, a link to its public page.
    assert public.count(">January</a>") == 1


def test_a_concours_of_another_phone_added_by_its_public_link(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    other = app.test_client(use_cookies=True)  # another phone directs it
    other.get("/lang/en?next=/")
    token = concours(app, other, "Elsewhere", "Ana\nBen\nCyd\nDan", 3)
    director = other.get(f"/e/{token}").get_data(as_text=True)
    public_link = "http://localhost/ev/" + director.split("/ev/", 1)[1].split('"', 1)[0]
    made = client.post("/seasons/new", data={"name": "Cup"})
    organiser = made.headers["Location"]
    wrong = client.post(
        f"{organiser}/events", data={"link": "http://localhost/e/" + token}, follow_redirects=True
    )
    assert "This is not the public link of a concours of this server." in wrong.get_data(
        as_text=True
    )
    client.post(f"{organiser}/events", data={"link": public_link + "?lang=en"})
    page = client.get(organiser).get_data(as_text=True)
    assert "Elsewhere" in page
    assert "Ana" in page
    # The organiser's page never shows the concours's director link.
    assert token not in page


def test_the_day_of_the_concours_is_kept_and_exported(app: Flask, client: FlaskClient) -> None:
    token, _event = create(app, client, rounds="1", played_on="2027-01-16")
    exported = client.get(f"/e/{token}/export.json").get_json()
    assert exported["date"] == "2027-01-16"
    form = client.get("/events/new").get_data(as_text=True)
    assert 'type="date" value="20' in form  # today, by default


def test_names_spelled_apart_are_proposed_and_merged_by_the_organiser(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/en?next=/")
    concours(app, client, "January", "Eric Lefevre\nBruno\nChantal\nDidier", 1)
    concours(app, client, "February", "Bruno\nÉric Lefèvre\nDidier\nÉmile", 2)
    form = client.get("/seasons/new").get_data(as_text=True)
    uids = [
        line.split('value="', 1)[1].split('"', 1)[0]
        for line in form.splitlines()
        if 'name="events"' in line
    ]
    created = client.post("/seasons/new", data={"name": "Season", "events": uids})
    organiser = created.headers["Location"]
    page = client.get(organiser).get_data(as_text=True)
    # Two lines until the organiser says they are one player, and the question asked.
    ranking = page.split("<table", 1)[1].split("</table>")[0]
    assert "Eric Lefevre" in ranking
    assert "Éric Lefèvre" in ranking
    assert "The same player?" in page
    token = organiser.rsplit("/", 1)[1]
    view = page.split("/se/", 1)[1].split('"', 1)[0]
    before = client.get(f"/se/{view}").get_data(as_text=True)
    merged = client.post(
        f"/s/{token}/merge",
        data={"names": ["Eric Lefevre", "Éric Lefèvre"], "into": "Éric Lefèvre"},
    )
    assert merged.status_code == 302
    page = client.get(organiser).get_data(as_text=True)
    ranking = page.split("<table", 1)[1].split("</table>")[0]
    assert "Eric Lefevre" not in ranking
    assert ranking.count("Éric Lefèvre") == 1
    assert "The same player?" not in page
    assert "Eric Lefevre → Éric Lefèvre" in page
    after = client.get(f"/se/{view}").get_data(as_text=True)  # the public page follows
    assert after != before
    assert "Eric Lefevre" not in after
    # A name not in the group, or a group of one: refused.
    assert client.post(f"/s/{token}/merge", data={"names": ["A"], "into": "A"}).status_code == 400
    # Undone: two players again.
    client.post(f"/s/{token}/unmerge", data={"name": "Eric Lefevre"})
    page = client.get(organiser).get_data(as_text=True)
    assert "Eric Lefevre" in page.split("<table", 1)[1].split("</table>")[0]
    assert client.post(f"/s/{token}/unmerge", data={"name": "Nobody"}).status_code == 400
