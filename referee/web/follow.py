"""Following a game live: server-sent events that say its version when it changes.

A scoreboard page (a spectator's, or another phone at the table) holds one
`EventSource` open on `/v/<token>/live` or `/g/<token>/live`. The first event is the
game's version now; another comes when a deal changes it. The page reloads itself
when the version is not the one it shows (app.js); without JavaScript the page has
its Reload button.

Why push and not polling (issue 19, `bench/http.py` part c): a poll is a whole
request (parse, session, a database read, headers) for nothing new 99 times out of
100. With 3,000 followers asking every 1.5 s that is 2,000 requests a second, more
than this server's trivial endpoint serves at all. Here a follower costs a socket
and a few bytes when something happens.

How, under gunicorn's threaded workers: the view writes the answer's head itself on
a duplicate of the connection's socket and hands it to this worker process's `Hub`,
then tells gunicorn it is done with the connection (`_take`: gunicorn closes a
spent socket in its place). The hub is one thread with a selector. Four times a
second (`LOOK`) it asks the database for the versions of the games it follows, in one
query; so a deal recorded
by another worker or another app server reaches the followers too. It notices a
follower that went away (the socket reads empty), says the same version again now
and then so that proxies and phones keep the connection (and the page shows when it
last heard from the server), and ends each stream after a while
so that the phone reconnects, maybe to a less busy server.

The new page itself, where the phone can take it (issue 19): a page whose script
runs under the app's service worker opens its stream with `?pages=1`. When its game
changes, the hub looks for the new version's page among those this server already
drew (a page is drawn once a version: the phone that recorded the deal loads it at
once) and sends it in the stream, gzipped as it is kept, in base64: an
`event: page`. The page hands it to the service worker, which answers the page's
reload with it: the phone shows the new scores without asking the server (four
phones a table: four requests a deal fewer). A page nobody drew within `ELECT`
is asked for by one of its followers, told the version: it reloads, and its load
draws the page for the others (another one is asked every `ASK_AGAIN`). A
spectators' page is asked for at once: no spectator records deals, so nobody else
draws it. Only past `PAGE_WAIT` are all the others told the version. A page that
is each phone's own (a finished game's editors' page, or one whose deals are
confirmed) is never drawn for everyone: its followers are told the version at once.

Anywhere else (the development server, the test client, TLS served by gunicorn
itself) the answer is one event and `retry:`, which makes the browser ask again
shortly: polling, with the same page code.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import os
import selectors
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask, Response, current_app, request

from referee.services import games as service
from referee.web.cache import CachedPage, PageKey, drawn_page, game_page_key

#: Seconds between two turns of the hub: the new pages it waits for are sent to
#: their followers at the next turn after they are drawn.
TICK = 0.1
#: Seconds between two looks at the followed games' versions (the delay it adds).
#: A look is one query for every game the worker follows: at 400 paced tables on
#: PostgreSQL, 400 rows ten times a second in each worker, 5-6 % of the server's
#: Python (py-spy, 2026-12-03) for the few games that changed. Until then a look
#: came every 0.1 s: when every phone told of a new version asked for its page at
#: once, a look every 0.25 s made bursts that doubled the pages' median wait (300
#: paced tables, PERFORMANCE.md). Since the new page comes in the phones' streams,
#: a look finds it drawn already and sends it at once (bench/http.py part c).
LOOK = 0.25
#: Seconds between two events on a quiet stream (the same version again).
HEARTBEAT = 15.0
#: A stream is ended after this long (the phone reconnects at once, on its own).
LIFETIME = 600.0
#: Seconds between two sweeps of every stream (a "still here" due, a stream at its
#: end): the looks themselves only visit the followers of games that changed.
SWEEP = 1.0
#: Followers one worker process holds; beyond, a phone gets the polling answer.
MOST = 8000
#: Seconds after which, a new version's editors' page not drawn yet, one of its
#: followers is told the version (its reload draws the page for the others). The
#: phone that recorded the deal draws it first, within a few milliseconds, unless
#: the server is loaded: then a follower asked early only adds a request to the
#: queue that delays the drawing (0.2 s until 2026-12-03: at 450-500 paced tables, a
#: joining flood's backlog turned into such reloads and the level never recovered,
#: PERFORMANCE.md). A spectators' page: at once (nobody else draws it; at 3,000
#: spectators waiting for it made the deal reach them 0.1 s later, bench/http.py).
ELECT = {False: 1.0, True: 0.0}
#: Seconds after which, the page asked for (`ELECT`) still not drawn, another of its
#: followers is asked (the first one's reload failed, or it went away).
ASK_AGAIN = 3.0
#: Seconds after which the followers still waiting for a page are told the version
#: (and reload): a last resort. Until 2026-12-03 this was 2 s and every follower
#: of a page not drawn by then reloaded: on a server behind by more than that (a
#: joining flood at 450 paced tables, bench/http.py) a deal cost seven requests
#: instead of three and the server never caught up (PERFORMANCE.md). A page that is
#: each phone's own (the editors' page of a finished game, or of one whose deals
#: are confirmed) is not waited for: its followers are told the version at once.
PAGE_WAIT = 10.0
#: A server that is behind draws pages late for everyone: the hub waits that many
#: times as long as pages lately took to appear before it asks a follower for one
#: (or asks again), so that a backlog is not fed with reloads of pages already on
#: their way (a 450-table level with a joining flood: the followers' reloads took
#: the requests from 135 to 210-260 a second and the level never recovered,
#: PERFORMANCE.md). `LAG_WEIGHT`: the weight of each new page in that average.
LAG_FACTOR = 3.0
LAG_WEIGHT = 0.2
#: Milliseconds a browser waits before it asks again (a polling answer, or a
#: dropped stream).
RETRY_MS = 1500

HEAD = (
    b"HTTP/1.1 200 OK\r\n"
    b"Content-Type: text/event-stream; charset=utf-8\r\n"
    b"Cache-Control: no-store\r\n"
    b"X-Accel-Buffering: no\r\n"  # nginx: pass each event on at once
    b"X-Content-Type-Options: nosniff\r\n"
    b"Connection: close\r\n\r\n"
)


def event(version: int) -> bytes:
    """The event that says a game's version."""
    return f"retry: {RETRY_MS}\ndata: {version}\n\n".encode()


GONE = b"event: gone\ndata: \n\n"


def page_event(version: int, page: CachedPage) -> bytes:
    """The event that brings a version's page: "<version> <the gzipped page in base64>"."""
    return b"event: page\ndata: %d %s\n\n" % (version, base64.b64encode(page.gzipped))


class HandedOver(Response):
    """The answer of a stream given to the hub: gunicorn must neither write nor keep
    the connection. Raising StopIteration from the WSGI call is how a gunicorn
    worker is told that the application took the socket."""

    def __call__(self, environ: object, start_response: object) -> object:  # type: ignore[override]
        raise StopIteration


@dataclass(eq=False)
class Follower:
    """One open stream: its socket, which game it follows, what it was last told."""

    sock: socket.socket
    spectator: bool
    token: str
    version: int
    until: float
    quiet_since: float = field(default_factory=time.monotonic)
    #: The language of its page, where the phone takes new pages in its stream
    #: (`?pages=1`); None: it is told the version only.
    lang: str | None = None

    def page_key(self, version: int) -> PageKey:
        """The key of this follower's page at `version` (as the views keep it)."""
        return game_page_key(self.spectator, self.token, version, self.lang or "")


class Hub:
    """Every stream of one worker process, served by one thread."""

    def __init__(
        self,
        app: Flask,
        versions: Callable[[list[str], bool], dict[str, tuple[int, bool]]],
        pages: Callable[[PageKey], CachedPage | None] = lambda _key: None,
    ) -> None:
        self.app = app
        self.versions = versions
        #: The page of a key if this server drew it already (never draws one).
        self.pages = pages
        #: Followers waiting for their new version's page, and since when.
        self.waiting: dict[int, float] = {}
        #: The pages one follower was sent to ask for (`ELECT`), and when.
        self.asked: dict[PageKey, float] = {}
        #: How long pages lately took to be drawn once their version was seen (or
        #: once a follower was asked for them), in seconds, a moving average: see
        #: LAG_FACTOR.
        self.lag = 0.0
        self.selector = selectors.DefaultSelector()
        self.followers: dict[int, Follower] = {}
        #: The followers of each game, by (spectator?, token), and the version each
        #: game had at the last look; a game's followers are visited when it changed,
        #: or when a follower joined it since (it may have been told an older one).
        self.watching: dict[tuple[bool, str], set[int]] = {}
        self.last: dict[tuple[bool, str], int | None] = {}
        self.joined: set[tuple[bool, str]] = set()
        self.lock = threading.Lock()
        self.incoming: list[Follower] = []
        self.wake_read, self.wake_write = socket.socketpair()
        self.wake_read.setblocking(False)
        self.wake_write.setblocking(False)
        self.selector.register(self.wake_read, selectors.EVENT_READ)
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="referee-follow", daemon=True)
        self.thread.start()

    def __len__(self) -> int:
        return len(self.followers) + len(self.incoming)

    def add(self, follower: Follower) -> None:
        """Take a stream whose head and first event were sent."""
        with self.lock:
            self.incoming.append(follower)
        self._wake()

    def close(self) -> None:
        """Stop the hub: its streams end (the phones reconnect elsewhere)."""
        self.stopping = True
        self._wake()
        self.thread.join(5)

    def _wake(self) -> None:
        """Wake the hub's thread up."""
        # An error: the pipe is full, so the hub is being woken already.
        with contextlib.suppress(OSError):
            self.wake_write.send(b"!")

    def _run(self) -> None:
        next_look = next_tick = next_sweep = 0.0
        while not self.stopping:
            for key, _mask in self.selector.select(timeout=TICK):
                if key.fileobj is self.wake_read:
                    try:
                        while self.wake_read.recv(512):
                            pass
                    except OSError:
                        pass
                else:
                    self._readable(key.fileobj)  # type: ignore[arg-type]
            with self.lock:
                incoming, self.incoming = self.incoming, []
            for follower in incoming:
                fd = follower.sock.fileno()
                self.followers[fd] = follower
                game = (follower.spectator, follower.token)
                self.watching.setdefault(game, set()).add(fd)
                self.joined.add(game)
                self.selector.register(follower.sock, selectors.EVENT_READ)
            now = time.monotonic()
            if now >= next_look and self.followers:
                next_look = now + LOOK
                try:
                    self._look()
                except Exception:  # a database hiccup: the streams stay, next look
                    self.app.logger.exception("live follow: could not read the versions")
            if now >= next_tick:
                next_tick = now + TICK
                # Once a turn (not at every wake of the selector: each look for a
                # page not drawn yet reads the shared folder).
                if self.waiting:
                    self._deliver(time.monotonic())
            if now >= next_sweep:
                next_sweep = now + SWEEP
                self._sweep(now)
        with self.lock:
            incoming, self.incoming = self.incoming, []
        for follower in incoming:
            follower.sock.close()
        for fd in list(self.followers):
            self._drop(fd)
        self.selector.close()
        self.wake_read.close()
        self.wake_write.close()

    def _readable(self, sock: socket.socket) -> None:
        """A follower's phone sent something: nothing is expected but its going away."""
        try:
            data = sock.recv(1024)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._drop(sock.fileno())

    def _look(self) -> None:
        """Tell the followers of each game that changed; "gone" where it went."""
        for spectator in (True, False):
            tokens = sorted(token for side, token in self.watching if side is spectator)
            if not tokens:
                continue
            with self.app.app_context():
                found = self.versions(tokens, spectator)
            for token in tokens:
                key = (spectator, token)
                version, shared = found.get(token, (None, False))
                if version == self.last.get(key, -1) and key not in self.joined:
                    continue
                self.last[key] = version
                self.joined.discard(key)
                for fd in list(self.watching.get(key, ())):
                    follower = self.followers[fd]
                    if version is None:  # the link was replaced, or the game is gone
                        self._send(fd, GONE)
                        self._drop(fd)
                    elif version != follower.version:
                        if follower.lang is None or not shared:
                            follower.version = version
                            self._send(fd, event(version))
                        else:
                            self.waiting.setdefault(fd, time.monotonic())

    def _deliver(self, now: float) -> None:
        """Send the waiting followers their game's new page if it was drawn; past
        `ELECT`, have one follower of a page nobody drew ask for it (told the
        version, it reloads), another one every `ASK_AGAIN`; past `PAGE_WAIT`,
        tell the others the version."""
        made: dict[PageKey, bytes | None] = {}
        for fd, since in list(self.waiting.items()):
            follower = self.followers.get(fd)
            version = self.last.get((follower.spectator, follower.token)) if follower else None
            if follower is None or version is None or version == follower.version:
                del self.waiting[fd]
                continue
            key = follower.page_key(version)
            if key not in made:
                page = self.pages(key)
                made[key] = page_event(version, page) if page is not None else None
                if page is not None:  # drawn: how late (after the ask, if asked)
                    took = now - self.asked.get(key, since)
                    self.lag += (took - self.lag) * LAG_WEIGHT
            data = made[key]
            if data is None:
                if now - since >= PAGE_WAIT:
                    data = event(version)
                elif now - since >= self._first_ask(follower.spectator) and (key not in self.asked):
                    self.asked[key] = now
                    data = event(version)
                else:
                    continue
            del self.waiting[fd]
            follower.version = version
            self._send(fd, data)
        # A page asked for ASK_AGAIN ago and still not drawn: another follower is asked.
        again = self.patience(ASK_AGAIN)
        self.asked = {key: at for key, at in self.asked.items() if now - at < again}

    def _first_ask(self, spectator: bool) -> float:
        """When to ask a follower for a page nobody drew: a spectators' page at once
        whatever the lag (no one else draws it: the ask is its drawing, not an extra
        request); an editors' page after ELECT, or later while pages come late."""
        return ELECT[True] if spectator else self.patience(ELECT[False])

    def patience(self, wait: float) -> float:
        """How long to wait for a page before asking for it: `wait`, or longer while
        this server draws pages late (see LAG_FACTOR); never past PAGE_WAIT."""
        return min(PAGE_WAIT, max(wait, LAG_FACTOR * self.lag))

    def _sweep(self, now: float) -> None:
        """Say "still here" on the quiet streams (the page's clock); end those due."""
        for fd, follower in list(self.followers.items()):
            if now - follower.quiet_since > HEARTBEAT:
                self._send(fd, event(follower.version))
            if fd in self.followers and now > follower.until:
                self._drop(fd)

    def _send(self, fd: int, data: bytes) -> None:
        follower = self.followers[fd]
        follower.quiet_since = time.monotonic()
        try:
            sent = follower.sock.send(data)
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                self._drop(fd)
                return
            sent = 0
        if sent < len(data):  # a phone that does not read: it will reconnect
            self._drop(fd)

    def _drop(self, fd: int) -> None:
        follower = self.followers.pop(fd, None)
        self.waiting.pop(fd, None)
        if follower is None:
            return
        key = (follower.spectator, follower.token)
        fds = self.watching.get(key)
        if fds is not None:
            fds.discard(fd)
            if not fds:
                del self.watching[key]
                self.last.pop(key, None)
                self.joined.discard(key)
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(follower.sock)
        follower.sock.close()


_hubs: dict[int, Hub] = {}
_hubs_lock = threading.Lock()


def hub(app: Flask) -> Hub:
    """This process's hub, started on first use (after gunicorn forked the worker)."""
    pid = os.getpid()
    with _hubs_lock:
        found = _hubs.get(pid)
        if found is None:
            found = _hubs[pid] = Hub(
                app,
                lambda tokens, s: service.versions_of(tokens, spectators=s),
                lambda key: drawn_page(app, key),
            )
        return found


def _take(sock: socket.socket) -> socket.socket:
    """The connection, taken from gunicorn: a socket of our own on it, and gunicorn's
    file descriptor pointed at a spent socket pair instead. gunicorn ends a
    connection it is done with by shutting it down (which would end ours too, since
    a duplicate shares the connection), then closes it: it now does both to nothing."""
    mine = sock.dup()
    spent, other = socket.socketpair()
    os.dup2(spent.fileno(), sock.fileno())
    spent.close()
    other.close()
    return mine


def stream(token: str, version: int, *, spectator: bool, lang: str | None = None) -> Response:
    """The answer to a follower: a stream handed to the hub, or one event to poll.
    `lang`: the language of the pages to send it, if it takes them (`?pages=1`)."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    sock = request.environ.get("gunicorn.socket")
    if type(sock) is socket.socket and len(hub(app)) < MOST:  # not TLS, not a test client
        mine = _take(sock)
        try:
            mine.settimeout(2)
            mine.sendall(HEAD + event(version))
            mine.setblocking(False)
        except OSError:
            mine.close()
            return HandedOver()
        until = time.monotonic() + LIFETIME
        hub(app).add(Follower(mine, spectator, token, version, until, lang=lang))
        return HandedOver()
    response = Response(event(version), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    return response
