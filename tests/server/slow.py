"""Slow clients and a table beside them: what a proxy in front must absorb.

`SlowClients` opens connections from one address that never finish a request: a
third stop in the middle of their headers, a third send their headers and then
drip a body a byte a second, a third connect (over HTTPS: shake hands) and say
nothing. `Table` is a table playing meanwhile: a phone reading the scoreboard,
polling the version, opening the deal form and recording deals (everyone passed:
it never ends). Both are bounded: the clients by their count and a deadline, the
table by a number of requests and seconds.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field

from tests.server.conftest import HOST, Phone

#: Each kind of slow client, in turn.
KINDS = ("stalled", "dripping", "silent")


@dataclass
class SlowClients:
    """`count` slow connections to HOST:port, held until `close()` (or `deadline` s)."""

    port: int
    count: int
    deadline: float = 60.0
    #: Over HTTPS, with this context (the handshake done, then the slow request).
    tls: ssl.SSLContext | None = None
    sockets: list[tuple[str, socket.socket]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _drip: threading.Thread | None = None

    def open(self) -> None:
        for i in range(self.count):
            kind = KINDS[i % len(KINDS)]
            conn = socket.create_connection((HOST, self.port), timeout=5)
            if self.tls is not None:
                conn = self.tls.wrap_socket(conn, server_hostname="referee.test")
            if kind == "stalled":
                conn.sendall(b"POST /new HTTP/1.1\r\nHost: referee.test\r\nContent-Le")
            elif kind == "dripping":
                conn.sendall(
                    b"POST /new HTTP/1.1\r\nHost: referee.test\r\n"
                    b"Content-Type: application/x-www-form-urlencoded\r\n"
                    b"Content-Length: 4096\r\n\r\ngame="
                )
            self.sockets.append((kind, conn))
        self._drip = threading.Thread(target=self._dripping, daemon=True)
        self._drip.start()

    def _dripping(self) -> None:
        ends = time.monotonic() + self.deadline
        while not self._stop.wait(1.0) and time.monotonic() < ends:
            for kind, conn in self.sockets:
                if kind == "dripping":
                    with contextlib.suppress(OSError):
                        conn.send(b"x")

    def still_open(self) -> int:
        """How many of the connections are still waiting: the server (or proxy) has
        neither closed them nor answered them. (Reading consumes nothing a slow
        client would send; over TLS a session ticket is not an answer.)"""
        waiting = 0
        for _kind, conn in self.sockets:
            conn.setblocking(False)
            try:
                conn.recv(1)  # b"": closed; a byte: answered (408, 400…)
            except (BlockingIOError, ssl.SSLWantReadError):
                waiting += 1
            except OSError:
                pass
            finally:
                conn.setblocking(True)
        return waiting

    def close(self) -> None:
        self._stop.set()
        if self._drip is not None:
            self._drip.join(timeout=5)
        for _kind, conn in self.sockets:
            conn.close()


class Table:
    """A table playing through HOST:port (its game is created at once)."""

    def __init__(self, port: int, tls: ssl.SSLContext | None = None) -> None:
        self.phone = Phone(port, tls=tls)
        self.token = self.phone.new_game(["Ana", "Bruno", "Chloé", "Driss"])

    def play(self, requests: int = 120, seconds: float = 30.0, fresh: bool = False) -> list[float]:
        """The latency of each request of the table (s): the scoreboard, the version
        poll, the deal form, a deal recorded, in turn. A request that fails or times
        out (10 s) counts as 10 s: a table that cannot play has the worst latency.
        `fresh`: each request on a new connection (a phone waking up, a new player),
        which a server must accept and serve, not only the connections it holds."""
        phone, token = self.phone, self.token
        deal = {"action": "save", "passed": "1"}  # all passed: the game never ends
        fields: dict[str, str] = {}
        latencies: list[float] = []
        ends = time.monotonic() + seconds
        while len(latencies) < requests and time.monotonic() < ends:
            step = len(latencies) % 4
            if fresh:
                phone.close()
                phone.conn = None
            started = time.monotonic()
            try:
                if step == 0:
                    status = phone.request("GET", f"/g/{token}", timeout=10)[0]
                elif step == 1:
                    status = phone.request("GET", f"/g/{token}/version.json", timeout=10)[0]
                elif step == 2:
                    fields, status = phone.form(f"/g/{token}/deal"), 200
                else:
                    status = phone.post_deal(token, {**fields, **deal})[0]
                ok = status in (200, 302)
            except (OSError, AssertionError):
                phone.conn = None
                ok = False
            elapsed = time.monotonic() - started
            latencies.append(elapsed if ok else max(elapsed, 10.0))
        return latencies

    def close(self) -> None:
        self.phone.close()


def p95(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[max(0, round(0.95 * len(ordered)) - 1)]
