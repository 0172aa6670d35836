"""Each game has one home on the web side; everything else asks it or the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.games import GAMES
from referee.web.homes import HOMES
from tests.web.conftest import new_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_has_its_home_and_templates(app: Flask, key: str) -> None:
    home = HOMES[key]
    assert home.engine is GAMES[key]
    for part in ("deal", "summary", "rules", "blank"):
        assert app.jinja_env.get_template(home.template(part)) is not None


def test_facts_come_from_the_engine() -> None:
    assert [GAMES[k].lowest_wins for k in ("boulmous", "bombu", "pitch")] == [False, True, False]
    assert GAMES["bombu"].length == 24
    assert GAMES["bombu"].round_deals == 6
    assert GAMES["pitch"].sides(4) == ((0, 2), (1, 3))
    assert GAMES["pitch"].sides(5) == ((0,), (1,), (2,), (3,), (4,))


def _bombu_deal(client: FlaskClient, token: str, contract: str) -> None:
    counts = {
        "no-tricks": {"tricks0": "2", "tricks1": "2", "tricks2": "2", "tricks3": "2"},
        "no-hearts": {"hearts0": "2", "hearts1": "2", "hearts2": "2", "hearts3": "2"},
    }[contract]
    data = {"action": "save", "contract": contract, **counts}
    assert client.post(f"/g/{token}/deal", data=data).status_code == 302


def test_a_correction_under_a_fixed_order_offers_only_its_own_contract(
    client: FlaskClient,
) -> None:
    """The web used to offer every contract its manche had not played, whatever the
    order; the engine now says which contracts a deal may be."""
    token = new_game(client, "bombu", ["A", "B", "C", "D"], rule_contract_order="fixed")
    _bombu_deal(client, token, "no-tricks")
    _bombu_deal(client, token, "no-hearts")
    page = client.get(f"/g/{token}/deal/1/edit?contract=no-queens").get_data(as_text=True)
    # The choice is offered again (a pill of the form): no-queens is not allowed.
    assert "id=contract_no-tricks name=contract value=no-tricks>" in page
    assert "id=contract_no-queens " not in page
    free = new_game(client, "bombu", ["A", "B", "C", "D"])
    _bombu_deal(client, free, "no-tricks")
    _bombu_deal(client, free, "no-hearts")
    page = client.get(f"/g/{free}/deal/1/edit?contract=salad").get_data(as_text=True)
    assert "Salad" in page or "Salade" in page
    assert "name=contract value=salad checked" in page


def _french() -> dict[str, str]:
    from babel.messages.pofile import read_po

    path = ROOT / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        return {str(m.id): str(m.string) for m in read_po(handle) if m.id and m.string}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_flag_has_its_words_in_both_languages_and_its_rule(key: str) -> None:
    """A flag is declared once, in the engine; the form, the rules page and the sheet
    read it. It needs its words in French and a line in docs/RULES.md."""
    french = _french()
    rules_md = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    for flag in GAMES[key].flags:
        for words in (flag.label, flag.help, *flag.choices.values()):
            assert french.get(words), f"{key}.{flag.name}: no French for {words!r}"
        assert f"`{flag.name}`" in rules_md, f"{key}.{flag.name} is not in docs/RULES.md"
        assert flag.rule


def test_the_form_offers_the_engines_flags(client: FlaskClient) -> None:
    client.get("/lang/fr?next=/")
    page = client.get("/new?game=pitch").get_data(as_text=True)
    for flag in GAMES["pitch"].flags:
        assert f'name="rule_{flag.name}"' in page
    assert "Hiérarchie inverse" in page


def test_a_games_own_styles_and_script_come_with_its_deal_form(
    client: FlaskClient,
) -> None:
    """A game's deal form loads the files of its package's `static/` (its `assets`),
    fingerprinted like the app's own, lean, and kept by the service worker; a game's
    folder serves nothing else."""
    home = HOMES["pitch"]
    assert home.assets
    token = new_game(client, "pitch", ["Ana", "Bruno", "Chloé", "David"])
    page = client.get(f"/g/{token}/deal").get_data(as_text=True)
    worker = client.get("/sw.js").get_data(as_text=True)
    for name in home.assets:
        found = re.search(rf'"(/static/games/pitch/{re.escape(name)}\?v=[0-9a-f]+)"', page)
        assert found, name
        served = client.get(found.group(1))
        assert served.status_code == 200
        assert "immutable" in served.headers["Cache-Control"]
        text = served.get_data(as_text=True)
        assert text.strip()
        assert "\n  " not in text  # lean: no indentation
        assert found.group(1) in worker
    other = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "David"])
    assert "/static/games/pitch/" not in client.get(f"/g/{other}/deal").get_data(as_text=True)
    for address in (
        "/static/games/pitch/../home.py",
        "/static/games/pitch/home.py",
        "/static/games/nogame/deal.js",
        "/static/games/pitch/templates/deal.html",
    ):
        assert client.get(address).status_code == 404, address
