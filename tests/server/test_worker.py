"""`BufferingWorker`'s event loop, in process: a request goes to a thread only once
it has arrived whole; late and vanished clients are closed (the served behaviour:
tests/server/test_exposed.py)."""

from __future__ import annotations

import selectors
import socket
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future
from types import SimpleNamespace
from typing import Any

import pytest

from referee import server
from referee.server import BufferingWorker, TimedUnreader


class Loop(BufferingWorker):  # type: ignore[misc]
    """The worker without gunicorn's process around it: the requests it would hand
    to a thread are kept in `ready`."""

    def __init__(self) -> None:
        self.cfg = SimpleNamespace(is_ssl=False, keepalive=20)
        self.poller = selectors.DefaultSelector()
        self.keepalived_conns: deque[Any] = deque()
        self.pending_conns: deque[Any] = deque()
        self.nr_conns = 0
        self.alive = True
        self.arriving = {}
        self.buffered = 0
        self.ready: list[Any] = []

    def enqueue_req(self, conn: Any) -> None:
        self.ready.append(conn)

    def turn(self) -> None:
        """One round of the event loop, without waiting."""
        for key, _events in self.poller.select(timeout=0.2):
            key.data(key.fileobj)


@pytest.fixture
def loop() -> Iterator[tuple[Loop, socket.socket]]:
    worker = Loop()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    client = socket.create_connection(listener.getsockname())
    worker.poller.register(listener, selectors.EVENT_READ, worker.accept)
    worker.turn()  # accepted
    yield worker, client
    for conn in [*worker.arriving, *worker.ready]:
        conn.sock.close()
    client.close()
    listener.close()
    worker.poller.close()


def test_a_request_goes_to_a_thread_only_once_whole(loop: tuple[Loop, socket.socket]) -> None:
    worker, client = loop
    assert worker.nr_conns == 1
    client.sendall(b"POST /new HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nab")
    worker.turn()
    assert worker.ready == []
    client.sendall(b"cd")
    worker.turn()
    assert [c.arrived for c in worker.ready] == [
        b"POST /new HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd"
    ]
    assert worker.arriving == {}


def test_a_client_waiting_for_100_continue_is_told_to_go_on(
    loop: tuple[Loop, socket.socket],
) -> None:
    worker, client = loop
    client.sendall(
        b"POST /x HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
    )
    worker.turn()
    assert client.recv(100) == b"HTTP/1.1 100 Continue\r\n\r\n"
    client.sendall(b"ok")
    worker.turn()
    assert len(worker.ready) == 1


def test_late_and_vanished_clients_are_closed(
    loop: tuple[Loop, socket.socket], monkeypatch: pytest.MonkeyPatch
) -> None:
    worker, client = loop
    client.sendall(b"GET / HTTP/1.1\r\nHo")  # and no more
    worker.turn()
    (arrival,) = worker.arriving.values()
    assert not arrival.late(arrival.begun + 5)
    assert arrival.late(arrival.begun + server.HEAD_WAIT + 1)  # the head is late
    monkeypatch.setattr(server, "HEAD_WAIT", 0.0)
    worker.murder_pending()
    assert (worker.arriving, worker.nr_conns) == ({}, 0)
    assert client.recv(10) == b""  # closed


def test_a_client_that_goes_away_is_dropped(loop: tuple[Loop, socket.socket]) -> None:
    worker, client = loop
    client.close()
    worker.turn()
    assert (worker.arriving, worker.nr_conns, worker.ready) == ({}, 0, [])


def test_a_kept_connection_and_a_pipelined_request_are_read_here_too(
    loop: tuple[Loop, socket.socket],
) -> None:
    worker, client = loop
    client.sendall(b"GET /a HTTP/1.1\r\nHost: a\r\n\r\n")
    worker.turn()
    (conn,) = worker.ready
    # Served, with half of a pipelined request left in its parser: read here, not
    # by a thread that would wait for the rest.
    leftover = b"GET /b HTTP/1.1\r\nHo"
    conn.parser = SimpleNamespace(unreader=SimpleNamespace(take_buffered=lambda: leftover))
    served: Future[bool] = Future()
    served.set_result(True)
    worker.finish_request(conn, served)
    assert bytes(worker.arriving[conn].data) == leftover
    client.sendall(b"st: a\r\n\r\n")
    worker.turn()
    assert worker.ready[-1].arrived == leftover + b"st: a\r\n\r\n"
    # A kept-alive connection's next request.
    worker.keepalived_conns.append(conn)
    worker.poller.register(conn.sock, selectors.EVENT_READ, lambda s: None)
    worker.on_client_socket_readable(conn, conn.sock)
    assert conn in worker.arriving


def test_a_thread_waits_a_bounded_time_for_more(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "IDLE_WAIT", 0.05)
    one, other = socket.socketpair()
    try:
        reader = TimedUnreader(one)
        assert reader.chunk() == b""  # silence: an end, not a thread held
        other.sendall(b"abc")
        assert reader.chunk() == b"abc"
    finally:
        one.close()
        other.close()
