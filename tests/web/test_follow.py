"""Issue 19 on the app's side: the live follow, the cheap reads that every view
makes, and the caches that keep a scoreboard from being rendered twice."""

from __future__ import annotations

import base64
import contextlib
import gzip
import select
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.engine.explain import Step
from referee.extensions import db
from referee.lru import LRU
from referee.models import Game, RateLimit
from referee.services import games as service
from referee.web import follow
from referee.web.cache import CachedPage, SharedPages, drawn_page
from referee.web.session import CheckedOnceSessionInterface
from tests.web.conftest import new_game
from tests.web.test_boulmous_flow import deal, tricks

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]


def tokens_of(app: Flask, token: str) -> tuple[str, str]:
    with app.app_context():
        game = db.session.query(Game).filter_by(token=token).one()
        return game.token, game.view_token


# --- the live follow ---------------------------------------------------------------


def test_a_follower_outside_gunicorn_gets_one_event_and_polls(
    app: Flask, client: FlaskClient
) -> None:
    """The test client (like the development server) cannot hand its connection over:
    the answer is the version now and `retry:`, so EventSource asks again shortly."""
    token, view = tokens_of(app, new_game(client, "boulmous", PLAYERS))
    for path in (f"/v/{view}/live", f"/g/{token}/live"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.mimetype == "text/event-stream"
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.get_data(as_text=True) == f"retry: {follow.RETRY_MS}\ndata: 0\n\n"
    deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    assert client.get(f"/v/{view}/live").get_data(as_text=True).endswith("data: 1\n\n")
    assert client.get("/v/nothing-here/live").status_code == 404
    assert client.get("/g/nothing-here/live").status_code == 404


def test_the_pages_say_where_to_follow(app: Flask, client: FlaskClient) -> None:
    token, view = tokens_of(app, new_game(client, "boulmous", PLAYERS))
    assert f'data-live-url="/g/{token}/live"' in client.get(f"/g/{token}").get_data(as_text=True)
    assert f'data-live-url="/v/{view}/live"' in client.get(f"/v/{view}").get_data(as_text=True)


def read_event(sock: socket.socket) -> bytes:
    sock.settimeout(3)
    data = b""
    while not data.endswith(b"\n\n"):
        chunk = sock.recv(1024)
        if not chunk:
            return data
        data += chunk
    return data


@contextlib.contextmanager
def following(
    hub: follow.Hub, phones: int, token: str, version: int, *, spectator: bool
) -> Iterator[list[socket.socket]]:
    """`phones` phones (French pages, taken in the stream) following `token` on
    `hub`, known to it at `version`: their ends of the streams. The hub is stopped
    and every socket closed on the way out."""
    pairs = [socket.socketpair() for _ in range(phones)]
    try:
        for ours, _theirs in pairs:
            ours.setblocking(False)
            until = time.monotonic() + 60
            hub.add(follow.Follower(ours, spectator, token, version, until, lang="fr"))
        time.sleep(3 * follow.TICK)
        yield [theirs for _ours, theirs in pairs]
    finally:
        hub.close()
        for ours, theirs in pairs:
            ours.close()
            theirs.close()


def test_the_hub_tells_changes_says_gone_and_forgets_who_left(app: Flask) -> None:
    versions: dict[str, int] = {"a": 3, "b": 7}
    asked: list[tuple[list[str], bool]] = []

    def versions_of(tokens: list[str], spectators: bool) -> dict[str, tuple[int, bool]]:
        asked.append((tokens, spectators))
        return {t: (versions[t], True) for t in tokens if t in versions}

    hub = follow.Hub(app, versions_of)
    ours_a, theirs_a = socket.socketpair()
    ours_b, theirs_b = socket.socketpair()
    ours_c, theirs_c = socket.socketpair()
    try:
        for sock, token in ((ours_a, "a"), (ours_b, "b"), (ours_c, "a")):
            sock.setblocking(False)
            hub.add(follow.Follower(sock, True, token, versions[token], time.monotonic() + 60))
        # The hub ticks on its own clock: a tick may fall between two adds, so
        # wait (bounded) for the first tick that sees all three followers.
        deadline = time.monotonic() + 3
        while (not asked or asked[-1] != (["a", "b"], True)) and time.monotonic() < deadline:
            time.sleep(follow.TICK)
        assert len(hub) == 3
        # One query for all the games followed, not one per follower.
        assert asked[-1] == (["a", "b"], True)

        versions["a"] = 4
        assert read_event(theirs_a) == follow.event(4)
        assert read_event(theirs_c) == follow.event(4)
        theirs_c.close()  # that phone went away
        del versions["b"]  # that link was replaced
        assert read_event(theirs_b) == follow.GONE
        assert theirs_b.recv(10) == b""  # and its stream ended
        deadline = time.monotonic() + 3
        while len(hub) > 1 and time.monotonic() < deadline:
            time.sleep(follow.TICK)
        assert len(hub) == 1
        versions["a"] = 5
        assert read_event(theirs_a) == follow.event(5)
        hub.close()
        assert theirs_a.recv(10) == b""  # a stopped hub ends its streams
    finally:
        hub.close()
        for sock in (ours_a, ours_b, ours_c, theirs_a, theirs_b, theirs_c):
            sock.close()


def test_versions_of_many_games_in_one_read(app: Flask, client: FlaskClient) -> None:
    first, view = tokens_of(app, new_game(client, "boulmous", PLAYERS))
    second, _ = tokens_of(app, new_game(client, "boulmous", PLAYERS))
    deal(client, second, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    with app.app_context():
        assert service.versions_of([first, second, "gone"], spectators=False) == {
            first: (0, True),
            second: (1, True),
        }
        assert service.versions_of([view], spectators=True) == {view: (0, True)}
        assert service.versions_of([], spectators=True) == {}
        # Beyond one query's 500 tokens: the rest are asked too.
        assert service.versions_of([f"x{n}" for n in range(700)] + [first], spectators=False) == {
            first: (0, True)
        }
        assert service.state_of(second) == (1, False, False)
        assert service.view_version_of(view) == (first, 0)
        assert service.version_of("gone") is None
        # An editors' page that is each phone's own (the game is over, or its deals
        # are confirmed) is not shared; the spectators' page of the same game is.
        game = service.find(first)
        assert game is not None
        game.finished = True
        db.session.commit()
        assert service.versions_of([first], spectators=False) == {first: (0, False)}
        assert service.versions_of([view], spectators=True) == {view: (0, True)}
        game = service.find(second)
        assert game is not None
        game.confirm_deals = True
        db.session.commit()
        assert service.versions_of([second], spectators=False) == {second: (1, False)}


# --- one render for a table's phones, one row a deal ---------------------------------


def test_phones_asking_at_once_wait_for_one_render() -> None:
    cache: LRU[str] = LRU(8)
    made: list[int] = []
    start = threading.Barrier(6)

    def make() -> str:
        made.append(1)
        time.sleep(0.3)
        return "page"

    results: list[str] = []

    def phone() -> None:
        start.wait()
        results.append(cache.get_or_make("board", make))

    phones = [threading.Thread(target=phone) for _ in range(6)]
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join()
    assert results == ["page"] * 6
    assert len(made) == 1


def test_a_failed_render_lets_the_next_phone_render() -> None:
    cache: LRU[str] = LRU(8)

    def broken() -> str:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        cache.get_or_make("board", broken)
    assert cache.get_or_make("board", lambda: "page") == "page"


def test_a_new_deal_renders_one_row_and_a_correction_its_own(
    app: Flask, client: FlaskClient
) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    for _ in range(3):
        deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    rows: LRU[Any] = app.extensions["row_cache"]
    client.get(f"/g/{token}")
    before = rows.misses
    deal(client, token, taker=2, bid=3, contract="hearts", **tricks(1, 1, 4, 0))
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert rows.misses - before == 1  # only deal 4's row was rendered
    assert page.count('<details class="why">') == 4
    # A correction of deal 2 (Chloé takes): deal 2's row changes, and every row
    # after it (their totals moved); deal 1's does not.
    before = rows.misses
    corrected = client.post(
        f"/g/{token}/deal/2/edit",
        data={
            "action": "save",
            "version": "4",
            "taker": "2",
            "bid": "4",
            "contract": "clubs",
            **{k: str(v) for k, v in tricks(0, 1, 5, 0).items()},
        },
    )
    assert corrected.status_code == 302
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert rows.misses - before == 3
    history = page[page.index('<section class="history">') :]
    assert history.count("♣") >= 1
    # A renamed player: every row that names her (as the dealer) says the new name.
    renamed = client.post(
        f"/g/{token}/players", data={"seat": "0", "name": "Anaïs", "version": "5"}
    )
    assert renamed.status_code == 302
    page = client.get(f"/g/{token}").get_data(as_text=True)
    history = page[page.index('<section class="history">') :]
    assert "Anaïs" in history
    assert ": Ana<" not in history


def test_a_new_deal_puts_only_its_own_reasons_in_words(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The rows kept are found by a digest of the record up to their deal
    (`board.prefix_digests`), not by their content: a page drawn after a new deal
    puts the new deal's reasons in words, not every deal's (issue 19)."""
    token = new_game(client, "boulmous", PLAYERS)
    for _ in range(5):
        deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    client.get(f"/g/{token}")
    deal(client, token, taker=2, bid=3, contract="hearts", **tricks(1, 1, 4, 0))
    worded: list[Step] = []
    text = Step.text

    def counted(step: Step, names: tuple[str, ...], lang: str) -> str:
        worded.append(step)
        return text(step, names, lang)

    monkeypatch.setattr(Step, "text", counted)
    page = client.get(f"/g/{token}").get_data(as_text=True)
    history = page[page.index('<section class="history">') :]
    newest = history[history.rindex('<tr><th scope="row">') :]
    assert "Chloé" in newest  # deal 6: Chloé bid 3
    assert len(worded) == newest.count("<li>") > 0
    assert history.count("<li>") >= len(worded) + 5  # the kept rows keep their reasons


# --- the session cookie, checked once --------------------------------------------------


def test_a_session_cookie_is_checked_once_and_copied(app: Flask, client: FlaskClient) -> None:
    new_game(client, "boulmous", PLAYERS)
    cookie = client.get_cookie("session")
    assert cookie is not None
    interface = app.session_interface
    assert isinstance(interface, CheckedOnceSessionInterface)
    with app.test_request_context("/", headers={"Cookie": f"session={cookie.value}"}):
        from flask import request

        first = interface.open_session(app, request)
        assert first is not None
        assert first["games"]
        first["games"].append("changed in place")  # a request's own copy
        again = interface.open_session(app, request)
        assert again is not None
        assert "changed in place" not in again["games"]
    # A forged cookie is refused (and not kept), as Flask's own check does.
    forged = cookie.value[:-4] + ("AAAA" if not cookie.value.endswith("AAAA") else "BBBB")
    with app.test_request_context("/", headers={"Cookie": f"session={forged}"}):
        from flask import request

        assert dict(interface.open_session(app, request) or {}) == {}


def test_an_expired_session_cookie_is_refused_even_when_kept(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    new_game(client, "boulmous", PLAYERS)
    cookie = client.get_cookie("session")
    assert cookie is not None
    interface = app.session_interface
    with app.test_request_context("/", headers={"Cookie": f"session={cookie.value}"}):
        from flask import request

        assert interface.open_session(app, request)  # checked, and kept
        later = time.time() + app.permanent_session_lifetime.total_seconds() + 10
        monkeypatch.setattr("referee.web.session.time.time", lambda: later)
        assert dict(interface.open_session(app, request) or {}) == {}


# --- a preview writes nothing -----------------------------------------------------------


def test_previews_write_nothing_to_the_database_and_are_still_limited(
    app: Flask, client: FlaskClient
) -> None:
    token = new_game(client, "boulmous", PLAYERS)
    app.config["RATE_LIMITS"] = {"write": 600, "import": 30, "create": 60, "preview": 3}
    with app.app_context():
        rows = db.session.query(RateLimit).count()
    form = {
        "taker": "1",
        "bid": "4",
        "contract": "spades",
        **{k: str(v) for k, v in tricks(1, 4, 1, 0).items()},
    }
    answers = [client.post(f"/g/{token}/preview.json", data=form).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    with app.app_context():
        assert db.session.query(RateLimit).count() == rows
    deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    with app.app_context():
        assert db.session.query(RateLimit).count() == rows + 1  # a write is counted there


def test_a_deal_is_recorded_without_reading_the_game_again_after_its_commit(
    app: Flask, client: FlaskClient
) -> None:
    """The commit expires the game; the view used to read its number and version
    back from it, which loaded the game and every deal again (issue 19)."""
    from sqlalchemy import event

    token = new_game(client, "boulmous", PLAYERS)
    for _ in range(3):
        deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    said: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        said.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        answer = deal(client, token, taker=0, bid=3, contract="hearts", **tricks(3, 1, 1, 1))
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert answer.status_code == 302
    inserts = [n for n, statement in enumerate(said) if statement.startswith("INSERT INTO deal")]
    assert inserts, said
    after = said[inserts[-1] + 1 :]
    assert not [s for s in after if "FROM deal" in s or "FROM game" in s], after
    # What the phone is then shown: deal 4 recorded, with its undo.
    page = client.get(f"/g/{token}").get_data(as_text=True)
    assert "Donne 4 enregistrée." in page


def test_a_game_read_while_another_phone_writes_is_one_state_of_it(
    app: Flask, client: FlaskClient
) -> None:
    """`find` reads the game's row, then its deals beside the game's version: a write
    between the two (here: another phone's, at the worst moment) is seen, and the game
    read again, so that a version is never paired with another version's deals."""
    from sqlalchemy import event, text

    token = new_game(client, "boulmous", PLAYERS)
    deal(client, token, taker=1, bid=4, contract="spades", **tricks(1, 4, 1, 0))
    with app.app_context():
        engine = db.engine
        before = service.find(token)
        assert before is not None
        version = before.version
        db.session.remove()
    written: list[int] = []

    def meanwhile(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if "JOIN deal" in statement and not written:
            written.append(1)
            with engine.begin() as other:  # another phone's write, committed
                other.execute(
                    text("UPDATE game SET version = version + 1 WHERE token = :t"), {"t": token}
                )

    with app.app_context():
        event.listen(engine, "before_cursor_execute", meanwhile)
        try:
            game = service.find(token)
        finally:
            event.remove(engine, "before_cursor_execute", meanwhile)
        assert written == [1]
        assert game is not None
        assert game.version == version + 1  # read again: the state after the write
        assert len(game.deals) == 1
        db.session.remove()


def test_the_hub_reads_the_versions_once_a_look_and_sends_drawn_pages_at_once(
    app: Flask,
) -> None:
    """The database is asked for the followed games' versions once every `LOOK`,
    not at every turn of the hub (`TICK`): a look is a query for every game it
    follows (issue 19). A page drawn by the time of the look goes out with it."""
    versions = {"a": 5}
    asked: list[float] = []

    def versions_of(tokens: list[str], _spectators: bool) -> dict[str, tuple[int, bool]]:
        asked.append(time.monotonic())
        return {t: (versions[t], True) for t in tokens if t in versions}

    drawn = {("edit", "a", 6, "fr"): CachedPage.of("<p>six</p>", "6-fr")}
    hub = follow.Hub(app, versions_of, drawn.get)
    ours, theirs = socket.socketpair()
    try:
        ours.setblocking(False)
        hub.add(follow.Follower(ours, False, "a", 5, time.monotonic() + 60, lang="fr"))
        time.sleep(follow.LOOK)
        asked.clear()
        time.sleep(4 * follow.LOOK)
        assert follow.LOOK >= 2 * follow.TICK
        assert 2 <= len(asked) <= 5  # one a LOOK (0.25 s), not one a TICK (0.1 s)
        versions["a"] = 6
        started = time.monotonic()
        assert read_event(theirs).startswith(b"event: page\ndata: 6 ")
        assert time.monotonic() - started < follow.LOOK + 1.0
    finally:
        hub.close()
        theirs.close()


def test_a_follower_told_an_older_version_hears_the_game_as_it_is(app: Flask) -> None:
    """The hub visits only the followers of games that changed; a phone that joined
    with the version before the last write (its page was read just before) is told
    the new one too, and the others hear nothing again."""
    versions = {"a": 5}
    hub = follow.Hub(
        app, lambda tokens, _s: {t: (versions[t], True) for t in tokens if t in versions}
    )
    ours_a, theirs_a = socket.socketpair()
    ours_b, theirs_b = socket.socketpair()
    try:
        ours_a.setblocking(False)
        hub.add(follow.Follower(ours_a, True, "a", 5, time.monotonic() + 60))
        time.sleep(3 * follow.TICK)  # the hub knows "a" at 5
        ours_b.setblocking(False)
        hub.add(follow.Follower(ours_b, True, "a", 4, time.monotonic() + 60))
        assert read_event(theirs_b) == follow.event(5)
        theirs_a.settimeout(3 * follow.TICK)
        with pytest.raises(TimeoutError):
            theirs_a.recv(100)  # nothing new for the phone that had it
    finally:
        hub.close()
        theirs_a.close()
        theirs_b.close()


def test_a_phone_that_takes_pages_is_sent_the_new_page_once_drawn(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A follower that asked for pages (`?pages=1`) is sent the new version's page in
    its stream once this server drew it (no request of its own); another one is told
    the version. A page nobody drew: one of its followers is told the version (its
    reload draws it) and the others get the page it drew; if its reload drew nothing,
    another one is asked."""
    monkeypatch.setattr(follow, "ASK_AGAIN", 1.5)
    versions = {"a": 5}
    drawn: dict[tuple[str, str, int, str], CachedPage] = {}
    asked: list[tuple[str, str, int, str]] = []

    def pages(key: tuple[str, str, int, str]) -> CachedPage | None:
        asked.append(key)
        return drawn.get(key)

    hub = follow.Hub(
        app, lambda tokens, _s: {t: (versions[t], True) for t in tokens if t in versions}, pages
    )
    pairs = [socket.socketpair() for _ in range(4)]
    try:
        for (ours, _theirs), lang in zip(pairs, ("fr", "en", "en", None), strict=True):
            ours.setblocking(False)
            hub.add(follow.Follower(ours, False, "a", 5, time.monotonic() + 60, lang=lang))
        time.sleep(3 * follow.TICK)
        (_, french), (_, english), (_, english_too), (_, plain) = pairs

        # Deal 6 recorded; its page drawn (in French) before the hub's look.
        drawn[("edit", "a", 6, "fr")] = CachedPage.of("<p>version 6</p>", "6-fr")
        changed = time.monotonic()
        versions["a"] = 6
        head, _, data = read_event(french).partition(b"\ndata: ")
        assert head == b"event: page"
        number, _, pushed = data.strip().partition(b" ")
        assert number == b"6"
        assert gzip.decompress(base64.b64decode(pushed)) == b"<p>version 6</p>"
        assert read_event(plain) == follow.event(6)
        assert all(key[2] == 6 for key in asked)  # only the version that is new

        # Nobody drew the English page: after a while one English phone is told the
        # version (it reloads: that draws the page), the other gets the page.
        ready, _, _ = select.select([english, english_too], [], [], 3)
        assert len(ready) == 1
        # Not before ELECT: the phone that recorded the deal usually draws it first.
        assert time.monotonic() - changed >= follow.ELECT[False] - follow.TICK
        first, second = (english, english_too) if ready[0] is english else (english_too, english)
        assert read_event(first) == follow.event(6)
        second.settimeout(follow.ELECT[False])
        with pytest.raises(TimeoutError):
            second.recv(100)  # still waiting for the page
        drawn[("edit", "a", 6, "en")] = CachedPage.of("<p>six</p>", "6-en")
        assert read_event(second).startswith(b"event: page\ndata: 6 ")

        # Deal 7: drawn a moment after the hub's look (the recording phone loads it).
        versions["a"] = 7
        time.sleep(follow.TICK)
        drawn[("edit", "a", 7, "fr")] = CachedPage.of("<p>version 7</p>", "7-fr")
        assert read_event(french).startswith(b"event: page\ndata: 7 ")
        # Never drawn in English: one phone asked after ELECT, then, its reload
        # having drawn nothing, the other one ASK_AGAIN later (not every phone at once).
        ready, _, _ = select.select([english, english_too], [], [], 3)
        assert len(ready) == 1
        asked_first = time.monotonic()
        assert read_event(ready[0]) == follow.event(7)
        other = english_too if ready[0] is english else english
        assert read_event(other) == follow.event(7)
        assert time.monotonic() - asked_first >= follow.ASK_AGAIN - follow.TICK
    finally:
        hub.close()
        for ours, theirs in pairs:
            ours.close()
            theirs.close()


def test_a_hub_whose_pages_come_late_waits_longer_before_asking(app: Flask) -> None:
    """A server that is behind draws pages late (the recording phone's load waits in
    the queue): the hub then waits longer before it asks a follower to reload, so
    that reloads of pages already on their way do not deepen the backlog."""
    versions = {"a": (5, True)}
    drawn: dict[tuple[str, str, int, str], CachedPage] = {}
    hub = follow.Hub(
        app, lambda tokens, _s: {t: versions[t] for t in tokens if t in versions}, drawn.get
    )
    with following(hub, 2, "a", 5, spectator=False) as phones:
        assert hub.patience(follow.ELECT[False]) == follow.ELECT[False]  # nothing late yet
        # Deal 6: its page drawn half a second after the version moved.
        versions["a"] = (6, True)
        time.sleep(0.5)
        drawn[("edit", "a", 6, "fr")] = CachedPage.of("<p>6</p>", "6-fr")
        for phone in phones:
            assert read_event(phone).startswith(b"event: page\ndata: 6 ")
        assert hub.lag > 0.05
        # A while of pages 0.6 s late: the hub waits three times that before asking.
        hub.lag = 0.6
        assert hub.patience(follow.ELECT[False]) == pytest.approx(1.8)
        versions["a"] = (7, True)  # never drawn
        changed = time.monotonic()
        ready, _, _ = select.select(phones, [], [], 1.5)
        assert ready == []  # past ELECT, nobody asked yet
        ready, _, _ = select.select(phones, [], [], 3)
        assert len(ready) == 1
        assert read_event(ready[0]) == follow.event(7)
        assert time.monotonic() - changed >= 1.8 - follow.TICK
        assert hub.patience(100.0) == follow.PAGE_WAIT  # never past the last resort
        # A spectators' page is still asked for at once: nobody else would draw it.
        assert hub._first_ask(True) == follow.ELECT[True] == 0
        assert hub._first_ask(False) == pytest.approx(1.8)


def test_followers_of_a_page_that_is_each_phones_own_are_told_at_once(app: Flask) -> None:
    """The game is over (or its deals are confirmed): its editors' page is each
    phone's own, never drawn for everyone, so its followers that take pages are told
    the version at the next look instead of waiting for a page that will not come."""
    versions = {"a": (5, True)}
    hub = follow.Hub(app, lambda tokens, _s: {t: versions[t] for t in tokens if t in versions})
    with following(hub, 2, "a", 5, spectator=False) as phones:
        versions["a"] = (6, False)  # the deal that ends the game
        changed = time.monotonic()
        for phone in phones:
            assert read_event(phone) == follow.event(6)
        assert time.monotonic() - changed < follow.ELECT[False]


def test_the_stream_asked_with_pages_knows_the_language(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`?pages=1` is how a page under the service worker says it takes pages: the
    hub is given the language to send them in; without it, versions only."""
    token, view = tokens_of(app, new_game(client, "boulmous", PLAYERS))
    asked: list[tuple[str, bool, str | None]] = []

    def stream(token: str, version: int, *, spectator: bool, lang: str | None = None) -> str:
        asked.append((token, spectator, lang))
        return "ok"

    monkeypatch.setattr(follow, "stream", stream)
    client.get(f"/g/{token}/live?pages=1", headers={"Accept-Language": "en"})
    client.get(f"/v/{view}/live?pages=1", headers={"Accept-Language": "fr"})
    client.get(f"/g/{token}/live")
    assert asked == [(token, False, "en"), (view, True, "fr"), (token, False, None)]
    # A finished game's editors' page is each phone's own: never sent in the stream
    # (its spectators' page still is).
    with app.app_context():
        db.session.query(Game).filter_by(token=token).update({"finished": True})
        db.session.commit()
    asked.clear()
    client.get(f"/g/{token}/live?pages=1", headers={"Accept-Language": "en"})
    client.get(f"/v/{view}/live?pages=1", headers={"Accept-Language": "en"})
    assert asked == [(token, False, None), (view, True, "en")]


def test_a_drawn_page_is_found_in_memory_or_in_the_shared_folder(app: Flask, tmp_path: Any) -> None:
    """What the hub sends is only what was drawn: it never draws a page itself."""
    key = ("edit", "a", 3, "fr")
    page = CachedPage.of("<p>3</p>", "3-fr")
    assert drawn_page(app, key) is None
    app.extensions["page_cache"].put(key, page)
    assert drawn_page(app, key) == page
    other = ("view", "b", 4, "en")
    app.extensions["shared_pages"] = SharedPages(tmp_path)
    try:
        assert drawn_page(app, other) is None
        SharedPages(tmp_path).put(other, page)  # another worker drew it
        assert drawn_page(app, other) == page
    finally:
        del app.extensions["shared_pages"]


def test_a_spectators_page_is_asked_for_at_once_by_one_spectator(app: Flask) -> None:
    """No spectator records deals, so nobody else draws their page: one spectator is
    told the version at the hub's first look (its reload draws the page) and the
    others get the page it drew."""
    versions = {"v": 1}
    drawn: dict[tuple[str, str, int, str], CachedPage] = {}
    hub = follow.Hub(
        app, lambda tokens, _s: {t: (versions[t], True) for t in tokens if t in versions}, drawn.get
    )
    with following(hub, 3, "v", 1, spectator=True) as phones:
        versions["v"] = 2
        changed = time.monotonic()
        ready, _, _ = select.select(phones, [], [], 3)
        assert time.monotonic() - changed < 3 * follow.TICK  # at the first look
        assert len(ready) == 1
        assert read_event(ready[0]) == follow.event(2)
        drawn[("view", "v", 2, "fr")] = CachedPage.of("<p>2</p>", "v2-fr")
        for phone in phones:
            if phone is not ready[0]:
                assert read_event(phone).startswith(b"event: page\ndata: 2 ")


def test_a_rows_digest_is_the_record_up_to_its_deal(examples_dir: Any) -> None:
    """`board.prefix_digests`: the same for the same game and deals so far; another
    deal changes its own digest and those after it, never those before; players,
    first dealer, rules or stake change them all."""
    import json

    from referee.engine.records import parse_record
    from referee.web.board import prefix_digests

    record = json.loads((examples_dir / "boulmous-with-stake.json").read_text())
    deals = record["deals"]

    def digests(**changed: Any) -> list[bytes]:
        game = service.transient_game(parse_record({**record, **changed}))
        return prefix_digests(game, changed.get("deals", deals))

    first = digests()
    assert len(set(first)) == len(deals) == len(first)
    assert digests() == first
    assert digests(deals=deals[:3]) == first[:3]
    other = [*deals[:2], {**deals[2], "tricks": list(reversed(deals[2]["tricks"]))}, *deals[3:]]
    moved = digests(deals=other)
    assert moved[:2] == first[:2]
    assert all(a != b for a, b in zip(moved[2:], first[2:], strict=True))
    for changed in (
        {"players": [*record["players"][:3], "Zoé"]},
        {"first_dealer": (record["first_dealer"] + 1) % 4},
        {"rules": {**record.get("rules", {}), "target": 30}},
        {"stake": "9"},
    ):
        assert not set(digests(**changed)) & set(first), changed
