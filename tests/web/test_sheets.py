"""PDF score sheets: the record on paper, blank sheets, the cache, the command line."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.engine.records import parse_record, score_record, standings_json
from referee.services.pdf import WARM_UP, Renderer, RendererBusy, RenderTimeout
from tests.conftest import SCREENSHOTS
from tests.engine.helpers import BOMBU_MANCHE
from tests.web.conftest import new_game


def pdf_text(data: bytes) -> tuple[int, list[str]]:
    reader = PdfReader(io.BytesIO(data))
    # Non-breaking spaces as plain ones; words the table wrapped ("Off-\ntwo") joined.
    texts = [page.extract_text().replace("\xa0", " ").replace("-\n", "-") for page in reader.pages]
    return len(reader.pages), texts


def upload(client: FlaskClient, data: bytes, name: str) -> str:
    """Import a record file through the form; return the new game's token."""
    response = client.post(
        "/import", data={"record": (io.BytesIO(data), name)}, content_type="multipart/form-data"
    )
    assert response.status_code == 302
    return response.headers["Location"].removeprefix("/g/")


def import_example(client: FlaskClient, examples: Path, name: str) -> str:
    return upload(client, (examples / name).read_bytes(), name)


MINUS = "\u2212"
EXAMPLES = ["boulmous-with-stake", "bombu-first-manche", "pitch-moon"]


def figures(value: int, sign: bool) -> str:
    """A score as the sheet prints it (below 1,000: no grouping)."""
    prefix = MINUS if value < 0 else ("+" if sign and value > 0 else "")
    return prefix + str(abs(value))


def expected_lines(expected: dict[str, Any], sides: list[int]) -> list[str]:
    """Each deal's figures line, from the example's expected standings: for each
    side (a seat, or a Pitch team by its first seat), the points then the total."""
    totals = [0] * len(expected["scores"])
    lines = []
    for deal in expected["deals"]:
        totals = [t + d for t, d in zip(totals, deal["deltas"], strict=True)]
        lines.append(
            " ".join(
                f"{figures(deal['deltas'][s], True)} {figures(totals[s], False)}" for s in sides
            )
        )
    return lines


def text_lines(texts: list[str]) -> list[str]:
    """The sheet's lines of text, spaces collapsed."""
    return [" ".join(line.split()) for text in texts for line in text.splitlines()]


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("name", EXAMPLES)
def test_every_deal_of_the_examples_on_the_sheet(
    client: FlaskClient, examples_dir: Path, name: str, lang: str
) -> None:
    """Names, every deal's points and running totals, final scores and winners, as the
    example's expected standings have them, in both languages, on one page."""
    record = json.loads((examples_dir / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((examples_dir / f"{name}.expected.json").read_text(encoding="utf-8"))
    token = import_example(client, examples_dir, f"{name}.json")
    client.get(f"/lang/{lang}?next=/")
    pages, texts = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    lines = text_lines(texts)
    assert pages == 1
    assert ("page 1 sur 1" if lang == "fr" else "page 1 of 1") in lines
    players = record["players"]
    teams = record["game"] == "pitch" and len(players) == 4
    sides = [0, 1] if teams else list(range(len(players)))
    header = " ".join(
        [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"] if teams else players
    )
    assert header in " ".join(lines)
    deal_lines = expected_lines(expected, sides)
    assert len(deal_lines) == len(record["deals"])
    # In order, each on a line of its own.
    found = [line for line in lines if line in deal_lines]
    assert found == deal_lines
    ranking = "\n".join(texts)
    # Partners share a line of the ranking, and win together (issue 38, item 8).
    labels = [f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}"] if teams else players
    for side, seat in enumerate(sides):
        assert f"{labels[side]} {figures(expected['scores'][seat], False)}" in ranking
    winners = (" & " if teams else ", ").join(players[s] for s in expected["winners"])
    if expected["finished"]:
        word = (
            ("Vainqueurs : " if lang == "fr" else "Winners: ")
            if len(expected["winners"]) > 1
            else ("Vainqueur : " if lang == "fr" else "Winner: ")
        )
        assert word + winners in " ".join(lines)  # partners may wrap in the narrow column


def test_boulmous_sheet_money_in_french(client: FlaskClient, examples_dir: Path) -> None:
    token = import_example(client, examples_dir, "boulmous-with-stake.json")
    client.get("/lang/fr?next=/")
    response = client.get(f"/g/{token}/sheet.pdf")
    assert response.mimetype == "application/pdf"
    assert response.headers["Content-Disposition"].endswith('-yasmine-hedi-sonia-karim.pdf"')
    _, texts = pdf_text(response.data)
    lines = text_lines(texts)
    # The example's net balances (the French colon's narrow space), and the fewest
    # transfers that settle them.
    colon = " :"  # U+202F, read back from the PDF as a space
    for line in (
        f"Yasmine{colon} 14,00 €",
        f"Hédi{colon} {MINUS}4,00 €",
        f"Karim{colon} {MINUS}6,00 €",
    ):
        assert line in lines
    assert {line for line in lines if " paie " in line} == {
        "Karim paie 6,00 € à Yasmine",
        "Hédi paie 4,00 € à Yasmine",
        "Sonia paie 4,00 € à Yasmine",
    }
    assert "Karim annonce 5 ♦ · 3 levées · boîte Karim" in lines  # deal 4, marked


def import_record(client: FlaskClient, record: dict[str, Any]) -> str:
    return upload(client, json.dumps(record).encode(), "g.json")


def engine_lines(record: dict[str, Any]) -> list[str]:
    """Each deal's figures line, as the engine scores the record."""
    standings = standings_json(score_record(parse_record(record)))
    return expected_lines(standings, list(range(len(record["players"]))))


def test_bombu_sheet_in_english_with_every_deal(client: FlaskClient) -> None:
    """A whole Bombu game with long names: every deal, Réussite orders wrapped whole."""
    names = ["Marius-Alexandre", "Fanny", "César", "Honorine"]
    token = new_game(client, "bombu", names)
    client.get("/lang/en?next=/")
    for deal in BOMBU_MANCHE * 4:
        data: dict[str, Any] = {"action": "save", "contract": deal["contract"]}
        for key in ("tricks", "hearts", "queens"):
            data.update({f"{key}{i}": str(n) for i, n in enumerate(deal.get(key, []))})
        if "bombu" in deal:
            data["bombu"] = str(deal["bombu"])
        data.update({f"finish{i}": str(s) for i, s in enumerate(deal.get("finish", []))})
        assert client.post(f"/g/{token}/deal", data=data).status_code == 302
    record = json.loads(client.get(f"/g/{token}/export.json").data)
    pages, texts = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    lines = text_lines(texts)
    assert f"page 1 of {pages}" in lines
    assert [line for line in lines if line in engine_lines(record)] == engine_lines(record)
    assert [line for line in lines if line.startswith("Manche ")] == [
        f"Manche {m} of 4 · Dealer: {names[(4 - m + 1) % 4]}" for m in range(1, 5)
    ]
    assert "Winner: Fanny" in lines
    # A Réussite order too long for its column goes on in a second line, never
    # parting a place from its player.
    reussites = [line for line in lines if line.startswith("Réussite")]
    assert len(reussites) == 4
    place = r"\d\. (?:Marius-Alexandre|Fanny|César|Honorine)"
    for line in reussites:
        assert re.fullmatch(rf"Réussite · {place}(?: {place})*", line)
    assert any(re.fullmatch(rf"{place}(?: {place})*", line) for line in lines)
    assert not any(re.search(r" \d\.$", line) for line in lines)


def test_long_game_over_pages(client: FlaskClient, examples_dir: Path) -> None:
    """100 deals: the table's header again on each page, a block of five deals never
    split, every deal's figures, the page count."""
    record = json.loads((examples_dir / "boulmous-with-stake.json").read_text(encoding="utf-8"))
    record["rules"] = {"target": 999}
    record["deals"] = record["deals"] * 10
    token = import_record(client, record)
    client.get("/lang/fr?next=/")
    pages, texts = pdf_text(client.get(f"/g/{token}/sheet.pdf").data)
    assert pages == 3
    expected = engine_lines(record)
    lines = text_lines(texts)
    assert [line for line in lines if line in expected] == expected
    for page, text in enumerate(texts, 1):
        page_lines = text_lines([text])
        assert f"page {page} sur 3" in page_lines
        numbers = [int(line) for line in page_lines if line.isdigit() and int(line) <= 100]
        if page < 3 or numbers:
            assert "Yasmine Hédi Sonia Karim" in " ".join(page_lines)  # the header
            assert any(line.endswith("± Σ ± Σ ± Σ ± Σ") for line in page_lines)
            assert numbers[0] % 5 == 1  # whole blocks
            assert numbers[-1] % 5 == 0
            assert numbers == list(range(numbers[0], numbers[-1] + 1))


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
    text = pdf_text(response.data)[1][0]
    assert "Rhonda & Peggy" in text
    # The winners in one mark, partners together (issue 38, item 8).
    assert "Rhonda bids the moon ♥ · moon made Rhonda · ★ Rhonda & Peggy win" in text
    assert "wins" not in text
    a4 = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data))
    assert round(float(a4.pages[0].mediabox.height)) == 842


def test_five_long_names_turn_the_page(client: FlaskClient, examples_dir: Path) -> None:
    record = json.loads((examples_dir / "pitch-moon.json").read_text(encoding="utf-8"))
    record["players"] = [
        "Marie-Christine",
        "Jean-Sébastien",
        "Anne-Charlotte",
        "Pierre-Henri",
        "Walt",
    ]
    for deal in record["deals"]:
        deal["partner"] = (deal["bidder"] + 2) % 5
    token = import_record(client, record)
    page = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data)).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (842, 595)
    lines = text_lines([page.extract_text()])
    assert [line for line in lines if line in engine_lines(record)] == engine_lines(record)


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
    """The first page drawn (pdftoppm), so a broken layout shows; `make screenshots`
    keeps it as the README's picture of a sheet."""
    assert shutil.which("pdftoppm"), "pdftoppm (Debian's poppler-utils) is needed"
    token = import_example(client, examples_dir, "boulmous-with-stake.json")
    client.get("/lang/fr?next=/")
    sheet = tmp_path / "sheet.pdf"
    sheet.write_bytes(client.get(f"/g/{token}/sheet.pdf").data)
    subprocess.run(
        [
            "pdftoppm",
            "-png",
            "-r",
            "70",
            "-f",
            "1",
            "-l",
            "1",
            "-singlefile",
            str(sheet),
            str(tmp_path / "page"),
        ],
        check=True,
    )
    png = (tmp_path / "page.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    assert len(png) > 20000  # a page with a table and a chart, not a blank one
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "sheet-boulmous.png").write_bytes(png)


def test_renderer_in_its_own_process() -> None:
    renderer = Renderer(in_process=False)
    try:
        renderer.start()
        assert renderer.render(WARM_UP).startswith(b"%PDF")
        # A renderer process that dies (killed, out of memory) is replaced.
        process = renderer._process
        assert process is not None
        assert process.pid is not None
        killed = process.pid
        assert fonts_of(killed)  # the sheets' fonts, copied by WeasyPrint
        os.kill(killed, signal.SIGKILL)
        process.join(5)
        assert renderer.render(WARM_UP).startswith(b"%PDF")
        assert renderer.restarts == 1
        assert renderer._process is not process
        assert not fonts_of(killed)  # removed for the process that could not
        second = renderer._process.pid
    finally:
        renderer.stop()
    assert second is not None
    assert not fonts_of(second)


def fonts_of(pid: int | None) -> list[Path]:
    """The folders of font copies a process has in the temporary folder."""
    import tempfile

    return list(Path(tempfile.gettempdir()).glob(f"referee-fonts-{pid}-*"))


def test_the_font_copies_of_dead_processes_are_swept(tmp_path: Path) -> None:
    """A server killed with -9 leaves its renderer's copies: the next one sweeps them,
    and leaves those of processes still alive."""
    import subprocess
    import sys
    import tempfile

    from referee.services import pdf

    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead = int(done.stdout)
    scratch = Path(tempfile.gettempdir())
    gone = scratch / f"referee-fonts-{dead}-test"
    alive = scratch / f"referee-fonts-{os.getpid()}-test"
    for folder in (gone, alive):
        (folder / "weasyprint-x").mkdir(parents=True, exist_ok=True)
    try:
        pdf._sweep_dead()
        assert not gone.exists()
        assert alive.is_dir()
    finally:
        import shutil

        shutil.rmtree(alive, ignore_errors=True)
        shutil.rmtree(gone, ignore_errors=True)


def test_a_sheet_leaves_no_font_copies_behind(tmp_path: Path, examples_dir: Path) -> None:
    """WeasyPrint copies @font-face fonts into a temporary folder it never removes at
    exit: `referee pdf` leaves its temporary folder as it found it."""
    import subprocess
    import sys

    scratch = tmp_path / "tmp"
    scratch.mkdir()
    example = str(examples_dir / "pitch-moon.json")
    subprocess.run(
        [sys.executable, "-m", "referee", "pdf", example, "-o", str(tmp_path / "s.pdf")],
        env={**os.environ, "TMPDIR": str(scratch)},
        check=True,
    )
    assert (tmp_path / "s.pdf").stat().st_size > 0
    assert list(scratch.iterdir()) == []


def test_a_render_that_times_out_is_stopped() -> None:
    renderer = Renderer(in_process=False, timeout=0.05)
    try:
        with pytest.raises(RenderTimeout):
            renderer.render(WARM_UP)  # the new process is still warming up
        assert renderer._process is None  # killed, not left drawing
        renderer.timeout = 60
        assert renderer.render(WARM_UP).startswith(b"%PDF")  # and a new one draws
    finally:
        renderer.stop()


def test_a_long_document_is_given_longer() -> None:
    """A concours's long document asks for more time than a game's sheet: a render
    the renderer's own limit would stop goes to its end."""
    renderer = Renderer(in_process=False, timeout=0.05)
    try:
        assert renderer.render(WARM_UP, timeout=60).startswith(b"%PDF")  # warming up too
        assert renderer._process is not None
    finally:
        renderer.stop()


def test_sheets_queue_with_a_bound() -> None:
    renderer = Renderer(in_process=False, queue=2)
    renderer._slots.acquire()
    renderer._slots.acquire()  # two sheets drawn or waiting already
    with pytest.raises(RendererBusy):
        renderer.render(WARM_UP)
    assert renderer._process is None  # refused before anything was started


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
    assert "Winners: Rhonda & Peggy" in texts[0]  # partners win together


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
    assert "The game needs the names of its 4 or 5 players" in done.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_warm_gets_a_first_sheet_ready(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """What `referee serve` does in each worker: the renderer, templates and font
    measures ready before the first sheet is asked for."""
    from referee.services import pdf
    from referee.web import ledger
    from referee.web.sheets import warm

    drawn: list[str] = []
    monkeypatch.setattr(pdf, "html_to_pdf", lambda html: drawn.append(html) or b"")
    ledger._advances.cache_clear()
    app.jinja_env.cache.clear()  # type: ignore[union-attr]
    warm(app)
    # The renderer warmed up on a whole sheet, not a line of text.
    assert len(drawn) == 1
    assert "Ana" in drawn[0]
    assert 'class="deals"' in drawn[0]
    assert ledger._advances.cache_info().currsize == 1
    cached = {key[1] for key in app.jinja_env.cache or {}}
    assert {"pdf/sheet.html", "_macros.html"} <= cached


def test_a_sheet_with_the_reasons(client: FlaskClient) -> None:
    """On request (issue 18), the sheet gives each deal's reasons after the deals."""
    client.get("/lang/en")
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    form = {"action": "save", "taker": "1", "bid": "4", "contract": "spades"}
    form.update({f"tricks{seat}": str(n) for seat, n in enumerate([1, 3, 1, 1])})
    client.post(f"/g/{token}/deal", data=form)
    plain = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data))
    assert "boîte, −4" not in "".join(p.extract_text() for p in plain.pages)
    sheet = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf?why=1").data))
    text = "".join(p.extract_text() for p in sheet.pages)
    assert "Why each deal scored so" in text
    assert "Bruno bid 4 and took 3: boîte, −4." in text


def test_warm_compiles_every_page_before_the_first(app: Flask) -> None:
    """A server's worker answers once warm (issue 19, item 4): every template of the
    app and of the games' homes compiled, a scoreboard rendered in each language."""
    from referee.web.sheets import warm

    app.jinja_env.cache.clear()  # type: ignore[union-attr]
    app.config["PDF_IN_PROCESS"] = True
    warm(app)
    cached = {key[1] for key in app.jinja_env.cache or {}}
    listed = set(app.jinja_env.list_templates(extensions=["html"]))
    assert {"game.html", "deal.html", "_history_row.html", "boulmous/deal.html"} <= listed
    assert listed <= cached


def test_a_renderer_started_with_wait_is_warm_at_once() -> None:
    """`start(wait=...)` returns once the renderer process drew its warm-up: the
    first sheet then waits for nothing but itself."""
    renderer = Renderer(in_process=False)
    try:
        assert renderer.start(wait=60) is True
        process = renderer._process
        assert renderer.start(wait=60) is True  # already warm: the same process
        assert renderer._process is process
        assert renderer.render("<p>Ana</p>").startswith(b"%PDF")
        # A renderer started lazily (no wait) still answers its first sheet: the
        # warm-up message is read on the way.
        renderer.stop()
        assert renderer.render("<p>Bruno</p>").startswith(b"%PDF")
    finally:
        renderer.stop()


def test_a_renderer_stopped_twice_cleans_up_without_a_traceback() -> None:
    """`kill` of the server's process group reaches the PDF renderer, and its worker
    sends it SIGTERM again while it removes its font copies at exit: the second must
    not break that clean-up (it wrote a traceback to the server's log, issue 37)."""
    import subprocess
    import sys

    script = (
        "import atexit, os, signal, time\n"
        "from referee.services import pdf\n"
        "signal.signal(signal.SIGTERM, pdf._stop)\n"
        # The second SIGTERM, arriving while the clean-up at exit runs.
        "atexit.register(lambda: (os.kill(os.getpid(), signal.SIGTERM), time.sleep(0.2)))\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "time.sleep(5)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
