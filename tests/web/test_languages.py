"""French first, English too: every string has its French, and pages speak it."""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.extract import extract_from_dir
from flask.testing import FlaskClient

from tests.web.conftest import new_game

ROOT = Path(__file__).resolve().parents[2]


def _french() -> dict[tuple[str | None, object], object]:
    from babel.messages.pofile import read_po

    path = ROOT / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        return {(m.context, m.id): m.string for m in read_po(handle, locale="fr") if m.id}


def test_every_user_facing_string_has_its_french() -> None:
    """Every message id of the templates, the web and the engine (one catalogue) has
    its French in messages.po, the catalogue's source."""
    french = _french()
    method_map = [
        ("referee/**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("referee/games/**.html", "jinja2"),
    ]
    keywords = {
        "_": None,
        "_l": None,
        "lazy_gettext": None,
        "gettext": None,
        "ngettext": (1, 2),
        "N_": None,
        "NC_": ((1, "c"), 2),
    }
    missing = []
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, keywords=keywords
    ):
        key = tuple(message) if isinstance(message, tuple) else message
        strings = french.get((context, key))
        if not strings or not all(strings if isinstance(strings, tuple) else (strings,)):
            missing.append((context, key))
    assert missing == []
    sys.path.insert(0, str(ROOT / "translations"))
    try:
        from check import missing as lacking
    finally:
        sys.path.pop(0)
    assert lacking() == []


def test_the_engine_reads_the_one_catalogue() -> None:
    from referee.engine.catalog import translate
    from referee.engine.messages import render

    assert translate("fr", "No tricks") == "Pas de pli"  # the web's word, the same entry
    assert translate("fr", "hearts", "field") == "cœurs"
    assert translate("fr", "hearts") == "cœur"
    assert render("missing", "taker", {}, 2, "fr") == "donne 2\u202f: preneur\u202f: manquant"


def test_pages_in_french(client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"], stake="0,50")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Saisir la donne 1" in page
    assert "Ana distribue." in page
    form = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert "Tout le monde passe" in form
    assert "Levées faites" in form


def test_money_formatted_per_locale(client: FlaskClient) -> None:
    token = new_game(
        client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"], stake="0.50", rule_target="1"
    )
    client.post(
        f"/g/{token}/deal",
        data={
            "action": "save",
            "taker": "1",
            "bid": "boulmous",
            "contract": "spades",
            "tricks1": "6",
        },
    )
    client.get("/lang/fr?next=/")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Ana paie 1,00\xa0€ à Bruno" in page
    client.get("/lang/en?next=/")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Ana pays Bruno €1.00" in page


def test_french_plurals(client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    client.post(
        f"/g/{token}/deal",
        data={
            "action": "save",
            "taker": "1",
            "bid": "4",
            "contract": "spades",
            "tricks1": "4",
            "tricks0": "2",
        },
    )
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "4 levées" in page
