"""What the director prints (issue 42): the table cards (their QR code scanned back
to the table's game), the route slips, the ranking sheet with its prizes and the
personal results, read back from the PDFs' text, in the event's language, on A4
and US Letter; the public pages show names and results, never a director link."""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import pypdfium2
import pytest
import zxingcpp
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.models import Event
from referee.services import events as service
from tests.conftest import SCREENSHOTS
from tests.web.test_concours import NAMES, create, fresh, play_round, version


def pdf_pages(data: bytes) -> list[str]:
    """Each page's text, non-breaking and narrow spaces as plain ones."""
    assert data.startswith(b"%PDF")
    reader = PdfReader(io.BytesIO(data))
    return [
        page.extract_text().replace("\xa0", " ").replace("\u202f", " ") for page in reader.pages
    ]


def page_size(data: bytes) -> tuple[int, int]:
    box = PdfReader(io.BytesIO(data)).pages[0].mediabox
    return round(float(box.width)), round(float(box.height))


def scanned(data: bytes, page: int = 0, scale: float = 2.0) -> list[str]:
    """The QR codes a phone's camera would read on a printed page."""
    document = pypdfium2.PdfDocument(data)
    picture = document[page].render(scale=scale, grayscale=True).to_pil()
    document.close()
    return [code.text for code in zxingcpp.read_barcodes(picture)]


def picture(data: bytes, name: str, page: int = 0) -> None:
    """The page as the README shows it (`make screenshots` keeps it)."""
    document = pypdfium2.PdfDocument(data)
    image = document[page].render(scale=1.0).to_pil()
    document.close()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    image.save(SCREENSHOTS / name, optimize=True)


#: The message codes these tests raise (tests/engine/test_errors.py).
PRINT_CODES = {"event_prizes_drawn"}

PRIZES = {"entry_fee": "10", "prize_kept": "10", "prize_split": "50, 30, 20"}


@pytest.fixture
def played(app: Flask, client: FlaskClient) -> tuple[str, Event]:
    """A concours of 18 players in French, its prizes stated (10 € each, 10 % kept,
    50/30/20 %), two rounds of two planned played and accepted."""
    client.get("/lang/fr?next=/")
    token, event = create(app, client, rounds="2", **PRIZES)
    for round in (1, 2):
        client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
        play_round(app, client, event.id, round, seed=round * 11)
    return token, fresh(app, event.id)


def test_table_cards_one_a_table_with_a_qr_code_to_its_game(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/lang/fr?next=/")
    token, event = create(app, client, rounds="3")
    # Before the first round: 18 players at tables of 4, four tables (two byes).
    cards = client.get(f"/e/{token}/print/cards.pdf")
    assert cards.status_code == 200
    assert cards.mimetype == "application/pdf"
    pages = pdf_pages(cards.data)
    assert len(pages) == 4
    for number, text in enumerate(pages, 1):
        assert "Concours du samedi" in text
        assert re.search(rf"Table\s+{number}\b", text)
        assert "Scannez" in text  # the event's language: French
    picture(cards.data, "concours-table-card.png")
    # The QR of card 3, scanned, is the same address all event long.
    codes = scanned(cards.data, 2)
    assert len(codes) == 1
    address = urlsplit(codes[0])
    assert address.path == f"/c/{event.play_token}/3/play"
    # It holds table 3's own code (the tables' link alone enters and accepts nothing).
    with app.app_context():
        assert address.query == f"k={service.table_key(event, 3)}"
    scanned_path = f"{address.path}?{address.query}"
    # Before a round is drawn it leads to the tables' page.
    assert client.get(scanned_path).headers["Location"].endswith(f"/c/{event.play_token}")
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    drawn = fresh(app, event.id)
    table = next(t for t in drawn.tables if t.round == 1 and t.number == 3)
    assert table.game_row is not None
    # Round 1 in play: the scanned address opens table 3's game.
    assert client.get(scanned_path).headers["Location"].endswith(f"/g/{table.game_row.token}")
    # Without the code (the address typed from the tables' page): the card, to read.
    stranger = app.test_client()
    assert stranger.get(address.path).headers["Location"].endswith(f"/c/{event.play_token}/3")
    play_round(app, client, event.id, 1, seed=3)
    # Its result accepted: the same card leads to the table's card (the game's link
    # changed); round 2 drawn: to round 2's game of table 3.
    assert client.get(address.path).headers["Location"].endswith(f"/c/{event.play_token}/3")
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    again = fresh(app, event.id)
    table2 = next(t for t in again.tables if t.round == 2 and t.number == 3)
    assert table2.game_row is not None
    assert client.get(address.path).headers["Location"].endswith(f"/g/{table2.game_row.token}")
    # The same card, printed again, holds the same address.
    assert scanned(client.get(f"/e/{token}/print/cards.pdf").data, 2) == codes
    assert client.get(f"/c/{event.play_token}/9/play").status_code == 302
    assert client.get("/c/nope/3/play").status_code == 404
    # A number typed by hand past any table's, even past the database's integers.
    for number in ("9223372036854775808", "999999999999999999999", "1001"):
        assert client.get(f"/c/{event.play_token}/{number}/play").status_code == 302
        assert client.get(f"/c/{event.play_token}/{number}").status_code == 404


def test_route_slips_say_every_players_table_and_seat(
    app: Flask, client: FlaskClient, played: tuple[str, Event]
) -> None:
    token, event = played
    slips = client.get(f"/e/{token}/print/slips.pdf")
    text = "\n".join(pdf_pages(slips.data))
    names = {p.number: p.name for p in event.players}
    for p in event.players:
        assert p.name in text
    slips_of = {
        number: text.split(f"{names[number]} n° {number}", 1)[1].split(" n° ", 1)[0]
        for number in names
    }
    # Every seat of every round drawn, as the draw decided it.
    for table in event.tables:
        for seat, number in enumerate(table.seats, 1):
            found = re.search(
                rf"Tour {table.round}\s*table {table.number}, siège {seat}\b", slips_of[number]
            )
            assert found, (names[number], table.round, table.number, seat)
    for r in event.rounds:
        for number in r.byes:
            assert re.search(rf"Tour {r.number}\s*exempt", slips_of[number])
    assert sum(len(r.byes) for r in event.rounds) == 4  # 18 at tables of 4: two a round


def test_ranking_sheet_with_its_prizes_adding_up_to_the_pot(
    app: Flask, client: FlaskClient, played: tuple[str, Event]
) -> None:
    token, event = played
    sheet = client.get(f"/ev/{event.view_token}/ranking.pdf")
    assert sheet.status_code == 200
    text = pdf_pages(sheet.data)[0]
    assert "Classement final" in text
    assert "PROVISOIRE" not in text
    # 18 × 10 € = 180 €, 10 % kept: a pot of 162 €, 50/30/20 %.
    assert "162,00 €" in text
    assert "81,00 €" in text
    assert "48,60 €" in text
    assert "32,40 €" in text
    with app.app_context():
        from referee.services import events as service

        loaded = service.loaded(event.id)
        assert loaded is not None
        lines = service.ranking(loaded)
        purse = service.purse(loaded, lines)
    assert purse is not None
    assert purse.paid == 16200
    for line in lines[:3]:
        assert line.name in text
    # The QR code on the sheet opens the public page.
    codes = scanned(sheet.data)
    assert [urlsplit(c).path for c in codes] == [f"/ev/{event.view_token}"]
    picture(sheet.data, "concours-ranking-sheet.png")
    # The same from the director's address; US Letter on asking.
    letter = client.get(f"/e/{token}/print/ranking.pdf?size=letter")
    assert page_size(letter.data) == (612, 792)
    assert page_size(sheet.data) == (595, 842)


def test_provisional_ranking_sheet_between_rounds(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token, event = create(app, client, rounds="3", **PRIZES)
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    play_round(app, client, event.id, 1, seed=5)
    text = pdf_pages(client.get(f"/ev/{event.view_token}/ranking.pdf").data)[0]
    # The event was created in English: its sheets speak English.
    assert "PROVISIONAL RANKING" in text
    assert "after round 1 of 3" in text
    assert "€81.00" in text


def test_personal_results_a_page_a_player_with_opponents(
    app: Flask, client: FlaskClient, played: tuple[str, Event]
) -> None:
    _token, event = played
    pages = pdf_pages(client.get(f"/ev/{event.view_token}/results.pdf").data)
    assert len(pages) == len(NAMES)
    names = {p.number: p.name for p in event.players}
    for table in event.tables:
        for seat, number in enumerate(table.seats):
            # The page whose title (after the event's name) is the player's.
            mine = next(p for p in pages if p.splitlines()[1] == names[number])
            assert table.accepted is not None
            others = [names[n] for n in table.seats if n != number]
            flat = " ".join(mine.split())  # a long cell wraps its names
            row = re.search(rf"\b{table.round} table {table.number}, siège {seat + 1}\b", flat)
            assert row, (names[number], table.round)
            for other in others:
                assert other in flat


def test_prints_are_refused_to_strangers(client: FlaskClient, app: Flask) -> None:
    token, event = create(app, client, rounds="2")
    assert client.get("/e/nope/print/cards.pdf").status_code == 404
    assert client.get(f"/e/{token}/print/other.pdf").status_code == 404
    # The public link gives the ranking and the results, not the cards nor the slips.
    assert client.get(f"/ev/{event.view_token}/cards.pdf").status_code == 404
    assert client.get(f"/ev/{event.view_token}/slips.pdf").status_code == 404
    public = client.get(f"/ev/{event.view_token}").get_data(as_text=True)
    assert token not in public
    assert "/e/" not in public


def test_more_prizes_than_players_are_said_to_go_to_no_one(app: Flask, client: FlaskClient) -> None:
    client.get("/lang/en?next=/")
    token, event = create(
        app,
        client,
        rounds="1",
        players="\n".join(NAMES[:8]),
        entry_fee="10",
        prize_split="30, 20, 15, 10, 8, 6, 5, 3, 2, 1",
    )
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    play_round(app, client, event.id, 1, seed=4)
    page = client.get(f"/e/{token}").get_data(as_text=True)
    # 80 € of fees; places 9 and 10 (2 % and 1 %) have no player: 2.40 € unpaid.
    assert "More prizes than players: €2.40 of them go to no one." in page
    sheet = " ".join(
        " ".join(pdf_pages(client.get(f"/ev/{event.view_token}/ranking.pdf").data)).split()
    )
    assert "€2.40 of them go to no one" in sheet


def test_prizes_typed_as_a_director_types_them(app: Flask, client: FlaskClient) -> None:
    """The split with percent signs, decimal commas, a refused total said in French
    with what was typed kept; changed on the director's page before round 1, never
    after."""
    client.get("/lang/fr?next=/")
    refused = client.post(
        "/events/new",
        data={
            "name": "Coupe",
            "game": "pad",
            "rounds": "2",
            "length": "2",
            "players": "\n".join(NAMES[:8]),
            "entry_fee": "7,50",
            "prize_split": "50 %, 30 %",
        },
    )
    assert refused.status_code == 422
    body = refused.get_data(as_text=True)
    assert "les pourcentages font 80\u202f% en tout, pas 100\u202f%" in body
    assert 'value="50 %, 30 %"' in body  # what was typed, given back
    token, event = create(
        app,
        client,
        rounds="2",
        entry_fee="7,50 €",
        prize_split="48,60; 32,40; 19",
        prize_by="amount",
    )
    page = client.get(f"/e/{token}").get_data(as_text=True)
    assert "48,60\u00a0€" in page
    assert "19,00\u00a0€" in page
    # 18 × 7.50 € = 135 € of fees: the fixed sums (100 €) are within the pot.
    assert "Prix\u202f: une cagnotte de 135,00\u00a0€ (les inscriptions)." in page
    assert "Le reste de la cagnotte, 35,00\u00a0€, reste au club." in page
    # Before any result, the personal results give no rank and no prize.
    before = pdf_pages(client.get(f"/ev/{event.view_token}/results.pdf").data)[0]
    assert "Aucun résultat accepté" in before
    assert "Rang" not in before
    changed = client.post(
        f"/e/{token}/prizes",
        data={
            "version": version(client, event.view_token),
            "entry_fee": "10",
            "prize_kept": "20",
            "prize_split": "60,40",
        },
    )
    assert changed.status_code == 302
    page = client.get(f"/e/{token}").get_data(as_text=True)
    # 180 € of fees, 36 € kept: 144 €, 60 % and 40 %.
    assert "86,40\u00a0€ (60\u202f%)" in page
    client.post(f"/e/{token}/draw", data={"version": version(client, event.view_token)})
    late = client.post(
        f"/e/{token}/prizes",
        data={"version": version(client, event.view_token), "prize_split": "100"},
        follow_redirects=True,
    )
    assert "Les prix s’annoncent avant le premier tour, pas après" in late.get_data(as_text=True)
    with app.app_context():
        from referee.services import events as service

        after = service.find(token)
        assert after is not None
        assert after.prizes == {"split": ["60", "40"], "by": "percent", "kept": "20"}
