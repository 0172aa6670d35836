"""The Réussite referee (issue 18, item 4) through the web: the turned card, the
cards laid (only those that fit), a hand's possible cards or its pass; the layout
travels in the form. Positions from the seed: a suit opens with the turned card's
rank only, then builds up and down; whoever can lay must."""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.web.conftest import new_game

BOMBU = ["Marius", "Fanny", "César", "Honorine"]


def post(client: FlaskClient, token: str, **form: object) -> str:
    response = client.post(f"/g/{token}/reussite", data=form)
    return response.get_data(as_text=True)


def enabled(page: str) -> set[str]:
    """The cards that may be laid now (their buttons are not disabled)."""
    return set(re.findall(r'name="lay" value="([^"]+)"\s+aria-label', page))


def test_the_layout_grows_and_a_hand_is_judged(client: FlaskClient) -> None:
    client.get("/lang/en")
    token = new_game(client, "bombu", BOMBU)
    assert "Réussite referee" in client.get(f"/g/{token}").get_data(as_text=True)
    page = client.get(f"/g/{token}/reussite").get_data(as_text=True)
    assert "The turned card" in page
    page = post(client, token, start="9♥")
    # Opening: the other nines; building: 8♥ and 10♥.
    assert enabled(page) == {"8♥", "10♥", "9♠", "9♦", "9♣"}
    page = post(client, token, start="9♥", laid="", lay="10♥")
    page = post(client, token, start="9♥", laid="10♥", lay="9♠")
    assert enabled(page) == {"8♥", "J♥", "8♠", "10♠", "9♦", "9♣"}
    assert "2 cards laid since the turned card." in page
    # A hand with a card that fits must lay it; one without passes.
    page = post(client, token, start="9♥", laid="10♥ 9♠", hand=["A♣", "J♥"], action="check")
    assert re.search(r"He must lay a card \(no pass\): any of <span[^>]*>J♥</span>", page)
    page = post(client, token, start="9♥", laid="10♥ 9♠", hand=["A♣", "7♦"], action="check")
    assert "No card of his fits: he passes." in page
    # Taken back: the last card laid.
    page = post(client, token, start="9♥", laid="10♥ 9♠", action="back")
    assert "1 card laid since the turned card." in page


def test_a_card_that_does_not_fit_is_refused_in_french(client: FlaskClient) -> None:
    token = new_game(client, "bombu", BOMBU)
    response = client.post(f"/g/{token}/reussite", data={"start": "9♥", "laid": "", "lay": "A♠"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "A♠" in page
    assert "&#34;A♠&#34; ne peut pas ouvrir sa couleur\u202f: une couleur ne s" in page
    response = client.post(f"/g/{token}/reussite", data={"start": "Z9"})
    assert response.status_code == 422


def test_only_a_game_with_a_reussite_has_the_page(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    assert client.get(f"/g/{token}/reussite").status_code == 404
    assert "/reussite" not in client.get(f"/g/{token}").get_data(as_text=True)
