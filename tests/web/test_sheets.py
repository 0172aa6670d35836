"""PDF score sheets: the record on paper, blank sheets, the cache, the command line."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.services.pdf import WARM_UP, Renderer
from tests.engine.helpers import BOMBU_MANCHE
from tests.web.conftest import new_game


def pdf_text(data: bytes) -> tuple[int, list[str]]:
    reader = PdfReader(io.BytesIO(data))
    # Non-breaking spaces as plain ones; words the table wrapped ("Off-\ntwo") joined.
    texts = [page.extract_text().replace("\xa0", " ").replace("-\n", "-") for page in reader.pages]
    return len(reader.pages), texts


def import_example(client: FlaskClient, examples: Path, name: str) -> str:
    data = (examples / name).read_bytes()
    response = client.post(
        "/import", data={"record": (io.BytesIO(data), name)}, content_type="multipart/form-data"
    )
    assert response.status_code == 302
    return response.headers["Location"].removeprefix("/g/")


def test_boulmous_sheet_in_french(client: FlaskClient, examples_dir: Path) -> None:
    token = import_example(client, examples_dir, "boulmous-with-stake.json")
    client.get("/lang/fr?next=/")
    response = client.get(f"/g/{token}/sheet.pdf")
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].endswith('-yasmine-hedi-sonia-karim.pdf"')
    pages, texts = pdf_text(response.data)
    text = "\n".join(texts)
    assert pages == 1
    for name in ("Yasmine", "Hédi", "Sonia", "Karim"):
        assert name in text
    assert "Vainqueur : Yasmine" in text
    assert "14,00 €" in text
    assert "Karim paie 6,00 € à" in text
    assert "page 1 sur 1" in text
    assert "boulmous" in text  # deal 3's bid
    assert "−5" in text  # Karim's boîte in deal 4


def test_bombu_sheet_in_english_with_every_deal(client: FlaskClient) -> None:
    token = new_game(client, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    client.get("/lang/en?next=/")
    for deal in BOMBU_MANCHE * 4:
        data: dict[str, Any] = {"action": "save", "contract": deal["contract"]}
        for key in ("tricks", "hearts", "queens"):
            data.update({f"{key}{i}": str(n) for i, n in enumerate(deal.get(key, []))})
        if "bombu" in deal:
            data["bombu"] = str(deal["bombu"])
        data.update({f"finish{i}": str(s) for i, s in enumerate(deal.get("finish", []))})
        assert client.post(f"/g/{token}/deal", data=data).status_code == 302
    pages, texts = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    text = "\n".join(texts)
    assert pages >= 2
    assert f"page 1 of {pages}" in texts[0]
    # The table header is repeated on every page of deals.
    assert "Honorine" in texts[1]
    assert "Winner: Fanny" in text
    assert "−200" in text
    assert "Salad" in text


def test_pitch_sheet_teams_and_letter_size(client: FlaskClient) -> None:
    token = new_game(client, "pitch", ["Dale", "Rhonda", "Earl", "Peggy"])
    won = {
        f"p_{card}": "1"
        for card in ["ace", "jack", "off_jack", "joker_high", "joker_low", "ten", "three", "two"]
    }
    client.post(
        f"/g/{token}/deal",
        data={"action": "save", "bidder": "1", "bid": "moon", "trump": "hearts", **won},
    )
    client.get("/lang/en?next=/")
    response = client.get(f"/g/{token}/sheet.pdf?size=letter")
    reader = PdfReader(io.BytesIO(response.data))
    width, height = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert (round(width), round(height)) == (612, 792)  # US Letter, in points
    text = reader.pages[0].extract_text()
    assert "Rhonda & Peggy" in text
    assert "moon made" in text
    a4 = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data))
    assert round(float(a4.pages[0].mediabox.height)) == 842


def test_sheet_cached_until_the_game_changes(app: Flask, client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    renderer: Renderer = app.extensions["pdf"]
    first = client.get(f"/g/{token}/sheet.pdf").data
    assert renderer.renders == 1
    assert client.get(f"/g/{token}/sheet.pdf").data == first
    assert renderer.renders == 1
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    client.get(f"/g/{token}/sheet.pdf")
    assert renderer.renders == 2


def test_corrections_printed(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    client.post(f"/g/{token}/deal", data={"action": "save", "passed": "1"})
    client.post(
        f"/g/{token}/deal/1/edit",
        data={
            "action": "save",
            "version": "1",
            "taker": "0",
            "bid": "3",
            "contract": "clubs",
            "tricks0": "6",
        },
    )
    client.get("/lang/en?next=/")
    _, texts = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert "Deal 1 corrected: All passed → Ana bids 3" in texts[0].replace("\n", " ")


def test_names_escaped_in_the_sheet(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["<b>Ana</b>", "Bruno", "Chloé", "Driss"])
    _, texts = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert "<b>Ana</b>" in texts[0]


@pytest.mark.parametrize(
    ("game", "players", "fields", "expected"),
    [
        ("boulmous", ["Ana", "Bruno", "Chloé", "Driss"], {}, ["26", "tricks", "Driss"]),
        (
            "bombu",
            ["Marius", "Fanny", "César", "Honorine"],
            {"first_dealer": "1"},
            [
                "Manche 1 of 4 · Dealer: Fanny",
                "Manche 2 of 4 · Dealer: Marius",
                "Manche 4 of 4 · Dealer: César",
                "6. Réussite",
            ],
        ),
        (
            "pitch",
            ["Dale", "Rhonda", "Earl", "Peggy"],
            {"rule_points": "16"},
            ["(16 points)", "Off-two", "Dale & Earl"],
        ),
        (
            "pitch",
            ["Dale", "Rhonda", "Earl", "Peggy", "Walt"],
            {"rule_points": "5"},
            ["(5 points)", "Walt"],
        ),
    ],
)
def test_blank_sheets(
    client: FlaskClient, game: str, players: list[str], fields: dict[str, str], expected: list[str]
) -> None:
    client.get("/lang/en?next=/")
    data = {"game": game, **{f"player{i}": n for i, n in enumerate(players)}, **fields}
    response = client.post("/blank.pdf", data=data)
    assert response.status_code == 200
    pages, texts = pdf_text(response.data)
    assert pages == 1
    for snippet in expected:
        assert snippet in texts[0].replace("\n", " ")
    if game == "pitch" and fields["rule_points"] == "5":
        assert "High joker" not in texts[0]


def test_blank_sheet_needs_names(client: FlaskClient) -> None:
    assert client.post("/blank.pdf", data={"game": "bombu", "player0": "A"}).status_code == 422


def test_blank_sheet_of_a_game(client: FlaskClient) -> None:
    token = new_game(client, "bombu", ["Marius", "Fanny", "César", "Honorine"])
    response = client.get(f"/g/{token}/blank.pdf")
    assert response.headers["Content-Disposition"].startswith('attachment; filename="blank-bombu-')
    assert pdf_text(response.data)[0] == 1


def test_first_page_renders_to_png(client: FlaskClient, examples_dir: Path, tmp_path: Path) -> None:
    assert shutil.which("pdftoppm"), "pdftoppm (Debian's poppler-utils) is needed"
    token = import_example(client, examples_dir, "bombu-first-manche.json")
    sheet = tmp_path / "sheet.pdf"
    sheet.write_bytes(client.get(f"/g/{token}/sheet.pdf").data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", str(sheet), str(tmp_path / "page")],
        check=True,
    )
    png = next(tmp_path.glob("page*.png")).read_bytes()
    assert png.startswith(b"\x89PNG")
    assert len(png) > 5000  # a page with a table and a chart, not a blank one


def test_renderer_in_its_own_process() -> None:
    renderer = Renderer(in_process=False)
    try:
        renderer.start()
        assert renderer.render(WARM_UP).startswith(b"%PDF")
    finally:
        renderer.stop()


def test_command_line_pdf(tmp_path: Path, examples_dir: Path) -> None:
    out = tmp_path / "sheet.pdf"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee.cli",
            "--lang",
            "en",
            "pdf",
            str(examples_dir / "pitch-moon.json"),
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    _, texts = pdf_text(out.read_bytes())
    assert "Winners: Rhonda, Peggy" in texts[0]


def test_command_line_pdf_refuses_a_bad_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "referee-game/1", "game": "pitch"}), encoding="utf-8")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "referee.cli",
            "--lang",
            "en",
            "pdf",
            str(bad),
            "-o",
            str(tmp_path / "x.pdf"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert "Players must be a list" in done.stderr
    assert not (tmp_path / "x.pdf").exists()
