"""Pieces of the deal form drawn once per everything they show (`web.fragments`,
issue 19): kept from one form to the next, never another form's entries, messages,
players or language."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from referee.lru import LRU
from referee.web.fragments import frozen
from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import PLAYERS, deal, tricks

PIECE = (
    "{% call kept('piece', names, values) %}"
    "{{ names | join(',') }}{{ values.get('n') }}{% endcall %}"
)


def pieces(app: Flask) -> LRU[Any]:
    cache: LRU[Any] = app.extensions["fragment_cache"]
    return cache


def test_a_piece_is_drawn_once_per_inputs_and_language(app: Flask) -> None:
    drawn: list[str] = []

    def draw(lang: str, names: list[str], values: dict[str, str]) -> str:
        with app.test_request_context(headers={"Accept-Language": lang}):
            misses = pieces(app).misses
            text = render_template_string(PIECE, names=names, values=values)
            if pieces(app).misses > misses:
                drawn.append(text)
            return text

    assert draw("fr", ["Ana", "Bruno"], {"key": "a1", "n": "3"}) == "Ana,Bruno3"
    # Another form's one-time key: the same piece, not drawn again.
    assert draw("fr", ["Ana", "Bruno"], {"key": "b2", "n": "3"}) == "Ana,Bruno3"
    assert drawn == ["Ana,Bruno3"]
    assert draw("fr", ["Ana", "Chloé"], {"key": "c3", "n": "3"}) == "Ana,Chloé3"
    assert draw("fr", ["Ana", "Bruno"], {"key": "d4", "n": "4"}) == "Ana,Bruno4"
    assert draw("en", ["Ana", "Bruno"], {"key": "e5", "n": "3"}) == "Ana,Bruno3"
    assert len(drawn) == 4


def test_inputs_are_frozen_whatever_their_order() -> None:
    assert frozen({"b": ["x"], "a": 1, "key": "k1"}) == frozen({"a": 1, "b": ("x",), "key": "k2"})
    assert frozen({"a": 1}) != frozen({"a": 2})
    assert frozen({"errors": {"tricks": ["too many"]}}) != frozen({"errors": {}})


def _pills(page: str) -> list[str]:
    return [line for line in page.splitlines() if "name=tricks2 " in line]


def test_the_next_form_takes_its_pills_kept_and_nothing_of_an_entry(
    app: Flask, client: FlaskClient
) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en?next=/")
    first = client.get(f"/g/{token}/deal").get_data(as_text=True)
    misses, hits = pieces(app).misses, pieces(app).hits
    again = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert pieces(app).misses == misses  # every piece kept…
    assert pieces(app).hits >= hits + 3  # …and taken: the grid, the trumps, the tricks
    assert _pills(again) == _pills(first) != []
    assert not any("checked" in line for line in _pills(again))
    # A preview: the form comes back with its entries and no message…
    data = {"action": "preview", "taker": "2", "bid": "3", "contract": "hearts"}
    shown = client.post(f"/g/{token}/deal", data={**data, **tricks(1, 1, 3, 1)})
    assert shown.status_code == 200
    assert "id=tricks2_3 name=tricks2 value=3 checked" in shown.get_data(as_text=True)
    # …entries refused: the form comes back with them and its messages…
    refused = deal(client, token, taker=2, bid=4, contract="hearts", **tricks(1, 0, 3, 1))
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert "id=tricks2_3 name=tricks2 value=3 checked" in page
    assert "Tricks add up to 5, a deal has 6" in page
    # …and the next new form has none of them.
    fresh = client.get(f"/g/{token}/deal").get_data(as_text=True)
    assert _pills(fresh) == _pills(first)
    assert "Tricks add up to 5" not in fresh


@pytest.mark.parametrize(("lang", "label"), [("fr", "Levées faites"), ("en", "Tricks taken")])
def test_a_piece_is_in_the_forms_language_and_with_its_players(
    client: FlaskClient, lang: str, label: str
) -> None:
    other = ["Zoé", "Yann", "Xavier", "Willy"]
    first = new_game(client, "boulmous", PLAYERS)
    second = new_game(client, "boulmous", other)
    client.get(f"/lang/{'en' if lang == 'fr' else 'fr'}?next=/")
    client.get(f"/g/{first}/deal")  # kept in the other language
    client.get(f"/lang/{lang}?next=/")
    page = client.get(f"/g/{first}/deal").get_data(as_text=True)
    assert label in page
    assert ({"Levées faites", "Tricks taken"} - {label}).pop() not in page
    page = client.get(f"/g/{second}/deal").get_data(as_text=True)
    assert all(name in page for name in other)
    assert not any(name in page for name in PLAYERS)
