"""The scoreboard and the game page (issue 38, items 4, 5, 8, 10, 11): the seat order
kept while the lead changes hands, with each side's rank; teams spoken of as teams
(the last deal, the history, the marks, the reasons, the money); "Why?" across the
whole width under its deal; the rarer tools under one "More"; one way to undo."""

from __future__ import annotations

import json
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import new_game

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
PITCH = ["Dale", "Rhonda", "Earl", "Peggy"]
CARDS = ["ace", "jack", "off_jack", "joker_high", "joker_low", "ten", "three", "two"]


def boulmous(client: FlaskClient, token: str, taker: int, bid: int, tricks: list[int]) -> None:
    data = {"action": "save", "taker": str(taker), "bid": str(bid), "contract": "spades"}
    data.update({f"tricks{seat}": str(n) for seat, n in enumerate(tricks)})
    assert client.post(f"/g/{token}/deal", data=data).status_code == 302


def pitch(
    client: FlaskClient, token: str, bidder: int, bid: str, won: list[int], **extra: str
) -> None:
    data = {"action": "save", "bidder": str(bidder), "bid": bid, "trump": "hearts", **extra}
    data.update({f"p_{card}": str(seat) for card, seat in zip(CARDS, won, strict=True)})
    response = client.post(f"/g/{token}/deal", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)


def scoreboard(page: str) -> list[tuple[str, str, bool]]:
    """The scoreboard's lines, top to bottom: (name, rank, leading)."""
    board = page[
        page.index('<ul class="totals') : page.index("</ul>", page.index('<ul class="totals'))
    ]
    lines = re.findall(
        r'<li class="(leader)?">\s*<span class="name">'
        r'<span class="rank"[^>]*>(?:★ )?([^<]+)</span> <span class="who">([^<]+)</span>',
        board,
    )
    return [(who, rank, bool(leader)) for leader, rank, who in lines]


def plain(page: str) -> str:
    """The page without the marks that keep each name's direction (FSI, PDI)."""
    return page.replace("\u2068", "").replace("\u2069", "")


def section(page: str, start: str, end: str) -> str:
    begin = page.index(start)
    return page[begin : page.index(end, begin)]


def deals(client: FlaskClient, token: str) -> int:
    return len(json.loads(client.get(f"/g/{token}/export.json").get_data(as_text=True))["deals"])


def test_the_scoreboard_keeps_the_seat_order_while_the_lead_changes(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en")
    boulmous(client, token, 1, 4, [1, 4, 1, 0])  # Ana 1, Bruno 4, Chloé 1, Driss 0
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert scoreboard(page) == [
        ("Ana", "2nd", False),
        ("Bruno", "1st", True),
        ("Chloé", "2nd", False),  # equal totals share a rank
        ("Driss", "4th", False),
    ]
    boulmous(client, token, 2, 5, [1, 0, 5, 0])  # Ana 2, Bruno 4, Chloé 6, Driss 0
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert scoreboard(page) == [
        ("Ana", "3rd", False),
        ("Bruno", "2nd", False),
        ("Chloé", "1st", True),
        ("Driss", "4th", False),
    ]
    client.get("/lang/fr")
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert [rank for _, rank, _ in scoreboard(page)] == ["3e", "2e", "1er", "4e"]


def test_a_finished_five_handed_game_leads_with_its_winner_and_says_why(
    client: FlaskClient,
) -> None:
    """Five-handed, the partner at the target beside the bidder who went out first is
    not a leader (he pays like the losers), and the reasons say why."""
    players = [*PITCH, "Walt"]
    token = new_game(
        client, "pitch", players, rule_target="5", stake="1", rule_defenders_score="on"
    )
    client.get("/lang/en")
    # Dale bids 5 with Walt: they take 7, Rhonda the three (3).
    pitch(client, token, 0, "5", [0, 0, 4, 4, 0, 4, 1, 4], partner="4")
    page = plain(client.get(f"/g/{token}").get_data(as_text=True))
    lines = scoreboard(page)
    assert [who for who, _, _ in lines] == players
    assert [who for who, _, leading in lines if leading] == ["Dale"]
    assert dict((who, rank) for who, rank, _ in lines)["Walt"] == "2nd"
    assert "Walt reached 5 too, but the bidder goes out first: Dale alone wins." in page
    assert "Earl &amp; Peggy took no point card, yet each defender scores" in page


def test_team_games_speak_in_teams(client: FlaskClient) -> None:
    token = new_game(client, "pitch", PITCH, stake="0.50", rule_defenders_score="on")
    client.get("/lang/en")
    pitch(client, token, 1, "5", [1, 1, 3, 3, 1, 0, 1, 0])  # Rhonda & Peggy 8, Dale & Earl 2
    pitch(client, token, 3, "moon", [3] * 8)  # Peggy's moon: Rhonda & Peggy win
    page = plain(client.get(f"/g/{token}").get_data(as_text=True))
    # The teams in seat order, each once.
    assert [who for who, _, _ in scoreboard(page)] == ["Dale &amp; Earl", "Rhonda &amp; Peggy"]
    # The win said once, for the team, apart from the word before it.
    assert page.count("★ Rhonda &amp; Peggy win</span>") == 2  # the last deal, its row
    assert "wins wins" not in page
    assert '</span><span class="mark' not in page
    assert re.search(r'\S<span class="mark', page) is None
    # The reasons speak of the defending team as one side.
    assert "The defenders score their points: Dale &amp; Earl +2." in page
    # The money: a line a team, "each".
    money = section(page, '<section class="money">', "</section>")
    net = re.findall(r"<li><span>([^<]+)</span> <strong>([^<]+)</strong></li>", money)
    assert [who for who, _ in net] == ["Dale &amp; Earl", "Rhonda &amp; Peggy"]
    assert all(amount.endswith(" each") for _, amount in net)


def test_why_is_a_row_of_its_own_across_the_whole_width(client: FlaskClient) -> None:
    token = new_game(client, "pitch", PITCH)
    client.get("/lang/en")
    pitch(client, token, 1, "5", [1, 1, 3, 3, 1, 0, 1, 0])
    page = plain(client.get(f"/g/{token}").get_data(as_text=True))
    history = section(page, '<section class="history">', "</section>")
    # The header: the deal number and one column per team (no narrow "Deal" column).
    assert history.count('<th scope="col">') == 3
    row = re.search(r'<tr class="what"><td colspan="(\d)">(.*?)</td></tr>', history)
    assert row is not None
    assert row.group(1) == "3"  # the number's column and both teams'
    assert '<details class="why"><summary>' in row.group(2)
    assert "Rhonda bids 5" in row.group(2)
    assert "Rhonda bid 5: made, Rhonda &amp; Peggy +5." in row.group(2)


def test_long_names_are_shortened_in_a_crowded_history_header(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Maximilienne"])
    boulmous(client, token, 1, 4, [1, 4, 1, 0])
    page = client.get(f"/g/{token}").get_data(as_text=True)
    head = section(page, "<thead>", "</thead>")
    assert '<abbr title="Maximilienne">Maxim.</abbr>' in head
    assert ">Chloé<" in head
    assert '<span class="who">Maximilienne</span>' in page  # whole on the scoreboard


def test_the_finished_game_shows_share_and_the_sheet_the_rest_under_more(
    client: FlaskClient,
) -> None:
    token = new_game(client, "boulmous", PLAYERS, rule_target="5")
    client.get("/lang/en")
    boulmous(client, token, 1, 4, [1, 4, 1, 0])
    running = client.get(f"/g/{token}").get_data(as_text=True)
    tools = section(running, '<nav class="tools">', "</nav>")
    more = section(tools, '<details class="more">', "</details>")
    shown = tools[: tools.index('<details class="more">')]
    assert "Share: other phones" in shown
    assert "Score sheet (PDF)" in shown
    for rare in ("Who wins this trick?", "Blank sheet (PDF)", "Rules of this game", "Export"):
        assert rare in more
        assert rare not in shown
    boulmous(client, token, 1, 4, [1, 4, 1, 0])  # Bruno reaches 8: the game is over
    finished = client.get(f"/g/{token}").get_data(as_text=True)
    tools = section(finished, '<nav class="tools">', "</nav>")
    assert "Share: other phones" in tools
    assert "Score sheet (PDF)" in tools
    assert "Who wins this trick?" not in finished
    assert "Blank sheet (PDF)" not in finished
    # Undo is under "More", not beside "Same table again".
    assert "Undo deal 2" in section(tools, '<details class="more">', "</details>")
    assert f'href="/g/{token}/undo"' not in finished  # no second way, no confirmation page


def test_one_way_to_undo_in_one_tap_with_put_back(app: Flask, client: FlaskClient) -> None:
    """The game page's undo posts as the toast's does, and the page after it offers
    "Put it back"; its form has no CSRF token (the page is every phone's), so the
    browser's word that the request comes from this site is asked instead."""
    token = new_game(client, "boulmous", PLAYERS)
    client.get("/lang/en")
    boulmous(client, token, 1, 4, [1, 4, 1, 0])
    boulmous(client, token, 2, 5, [1, 0, 5, 0])
    app.config["WTF_CSRF_ENABLED"] = True
    page = client.get(f"/g/{token}").get_data(as_text=True)
    more = section(page, '<details class="more">', "</details>")
    form = section(more, '<form method="post" action="/g/' + token + '/undo"', "</form>")
    assert "csrf_token" not in form
    assert 'name="version" value="2"' in form
    # Another site's page cannot post it.
    for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {}):
        refused = client.post(f"/g/{token}/undo", data={"version": "2"}, headers=headers)
        assert refused.status_code == 302
        assert refused.headers["Location"].endswith(f"/g/{token}/undo")  # asks first
        assert deals(client, token) == 2
    # This site's page can, in one tap; "Put it back" follows.
    done = client.post(
        f"/g/{token}/undo", data={"version": "2"}, headers={"Origin": "http://localhost"}
    )
    assert done.status_code == 302
    assert done.headers["Location"].endswith(f"/g/{token}")
    assert deals(client, token) == 1
    after = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Deal 2 taken back." in after
    assert "Put it back" in after
    # A form with a token (the toast's, the old confirmation page's) is checked as any.
    bad = client.post(f"/g/{token}/undo", data={"version": "3", "csrf_token": "forged"})
    assert bad.status_code == 400
    assert deals(client, token) == 1
    confirm = client.get(f"/g/{token}/undo").get_data(as_text=True)
    csrf = confirm.split('name="csrf_token" value="')[1].split('"')[0]
    version = confirm.split('name="version" value="')[1].split('"')[0]
    ok = client.post(f"/g/{token}/undo", data={"version": version, "csrf_token": csrf})
    assert ok.status_code == 302
    assert deals(client, token) == 0
