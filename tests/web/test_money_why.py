"""The money says why (user trial, item 6): beside the payments of a game played for
a stake by the game, on its page and its PDF sheet, who won and what that costs the
others; a payment of more than one stake says how it adds up; five-handed Pitch
says why a player at the target pays the bidder (the bidder goes out first)."""

from __future__ import annotations

import io
import re
from html import unescape

from flask.testing import FlaskClient
from pypdf import PdfReader

from tests.web.test_table_loop import english
from tests.web.test_tables import imported


def money_of(page: str) -> str:
    """The text of the game page's money section."""
    found = re.search(r'<section class="money">(.*?)</section>', page, re.S)
    assert found is not None
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def sheet_text(client: FlaskClient, token: str) -> str:
    reader = PdfReader(io.BytesIO(client.get(f"/g/{token}/sheet.pdf").data))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


def test_five_handed_pitch_says_why_the_player_at_the_target_pays(client: FlaskClient) -> None:
    english(client)
    # Kenny bids and goes out at 21; Josie (24) reached it too: she pays him as well.
    token = imported(client, "pitch-five-handed")  # in dollars
    money = money_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert "Josie pays Kenny $0.25" in money
    said = [
        "Josie reaches 21 too, but the bidder goes out first.",
        "Kenny won the game: each other player pays the winner the stake.",
        "So the winner collects $1.00: a stake from each opponent.",
    ]
    assert " ".join(said) in money
    assert "And each opponent pays" not in money  # each pays one stake
    assert " ".join(said) in sheet_text(client, token)


def test_a_payment_of_more_than_a_stake_says_how_it_adds_up(client: FlaskClient) -> None:
    english(client)
    # Four-handed Pitch at €1 a game: Rhonda & Peggy win, €2.00 each.
    token = imported(client, "pitch-moon", stake="1", currency="EUR")
    money = money_of(client.get(f"/g/{token}").get_data(as_text=True))
    assert "€2.00 each" in money
    said = [
        "Rhonda & Peggy won the game: each other player pays each winner the stake.",
        "So each winner collects €2.00: a stake from each opponent.",
        "And each opponent pays €2.00: a stake to each winner.",
    ]
    assert " ".join(said) in money
    assert "bidder goes out first" not in money
    assert " ".join(said) in sheet_text(client, token)
    # By the point, the stake says nothing of winners.
    token = imported(client, "pitch-moon", stake="1", currency="EUR", stake_per="point")
    assert "won the game" not in money_of(client.get(f"/g/{token}").get_data(as_text=True))


def test_boulmous_money_keeps_its_own_reckoning(client: FlaskClient) -> None:
    """Boulmous pays more than the winner's stakes (its boîtes): not said as if not."""
    english(client)
    token = imported(client, "boulmous-with-stake")
    assert "won the game" not in money_of(client.get(f"/g/{token}").get_data(as_text=True))
