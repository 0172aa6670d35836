"""The server's worker: gunicorn's threaded worker, each request read whole first.

gunicorn's `gthread` worker hands a connection to a thread as soon as it is
readable, and the thread then waits for the rest of the request: a client that
sends its headers or its body a byte a second holds a thread the whole time, and
eight of them (2 workers × 4 threads) silenced a server exposed directly (issue
37), as the README's phones-on-the-Wi-Fi set-up runs it, with no proxy in front.

`BufferingWorker` reads each request in the worker's event loop instead, without
blocking, as nginx or Caddy in front would: only a request that has fully arrived
(its head, and its body by `Content-Length` or its last chunk) goes to a thread.
A slow client costs a socket and a buffer, not a thread. A request must arrive
within `HEAD_WAIT` seconds for its head and `REQUEST_WAIT` for the whole, with no
silence longer than `IDLE_WAIT`; else the connection is closed. A thread's reads
(what was misjudged as complete, a pipelined request) wait `IDLE_WAIT` at most.
"""

from __future__ import annotations

import contextlib
import errno
import selectors
import socket
import time
from functools import partial
from typing import Any, Final

from gunicorn.http.unreader import SocketUnreader
from gunicorn.workers.gthread import TConn, ThreadWorker

#: Seconds a request's head (its line and headers) may take to arrive in full.
HEAD_WAIT: Final = 10.0
#: Seconds a whole request may take (a 1 MB upload on a slow phone line).
REQUEST_WAIT: Final = 60.0
#: Seconds of silence in the middle of a request before the connection is closed.
IDLE_WAIT: Final = 10.0
#: A head larger than this is handed on whole as it is: gunicorn refuses it (400).
MAX_HEAD: Final = 64 * 1024
#: A body announced larger than this is handed on at once: the app refuses it (413)
#: without reading it (the app's MAX_CONTENT_LENGTH is 1 MiB).
MAX_BODY: Final = 2 * 1024 * 1024
#: The addresses that take larger bodies, and how large: a concours's event file
#: (docs/EVENT-FORMAT.md: 32 MiB at most, and a form's envelope).
LARGE_BODIES: Final = {b"/events/import": 33 * 1024 * 1024}
#: All the requests a worker is receiving may hold this many bytes together; a
#: connection that would take it past is closed (400 clients each sending 2 MB
#: took a server from 511 to 1,386 MB, issue 51).
MAX_BUFFERED: Final = 96 * 1024 * 1024
_CONTINUE: Final = b"HTTP/1.1 100 Continue\r\n\r\n"


def body_limit(head: bytes | bytearray) -> int:
    """The largest body the request of this head may send (its address's)."""
    line = bytes(head[: head.find(b"\r\n")]).split(b" ")
    path = line[1].split(b"?", 1)[0] if len(line) > 1 else b""
    return LARGE_BODIES.get(path, MAX_BODY)


def request_complete(data: bytes) -> bool:
    """Whether `data` holds a whole HTTP/1 request, or so much of one, or one so
    malformed, that gunicorn can answer it without waiting for more."""
    return _Progress().complete(bytearray(data))


class _Progress:
    """How far a request has arrived, read once: its head is parsed once it is
    whole, and a chunked body is walked from where the last read stopped (a body
    sent a byte at a time is not read again from its start at every byte)."""

    __slots__ = ("at", "chunked", "end", "length", "limit", "searched")

    def __init__(self) -> None:
        self.end = -1  # where the head ends (-1: not yet)
        self.searched = 0  # the head's end was not found before this
        self.length = 0
        self.chunked = False
        self.limit = MAX_BODY
        self.at = 0  # the next chunk's size line, in the body

    def complete(self, data: bytearray) -> bool:
        if self.end < 0:
            end = data.find(b"\r\n\r\n", max(0, self.searched - 3))
            if end < 0:
                self.searched = len(data)
                return len(data) > MAX_HEAD
            self.end = end
            if not self._head(data[:end]):
                return True  # gunicorn refuses it
        body = len(data) - self.end - 4
        if self.chunked:
            return body > self.limit or self._last_chunk_in(data, self.end + 4)
        return self.length > self.limit or self.length < 0 or body >= self.length

    def _head(self, head: bytearray) -> bool:
        self.limit = body_limit(head)
        for line in bytes(head).split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                try:
                    self.length = int(value.strip())
                except ValueError:
                    return False
            elif name == b"transfer-encoding":
                self.chunked = b"chunked" in value.lower()
        return True

    def _last_chunk_in(self, data: bytearray, start: int) -> bool:
        """Whether a chunked body has arrived to its end (the zero chunk and the
        blank line after its trailers); a malformed one counts as arrived
        (gunicorn refuses it). Each whole chunk is walked past once."""
        while True:
            at = start + self.at
            line_end = data.find(b"\r\n", at)
            if line_end < 0:
                return False
            try:
                size = int(bytes(data[at:line_end]).split(b";")[0].strip(), 16)
            except ValueError:
                return True
            if size < 0:
                return True
            if size == 0:
                rest = data[line_end + 2 :]
                return rest.startswith(b"\r\n") or b"\r\n\r\n" in rest
            following = line_end + 2 + size + 2
            if following > len(data):
                return False
            self.at = following - start


class TimedUnreader(SocketUnreader):  # type: ignore[misc]
    """gunicorn's socket reader, waiting at most `IDLE_WAIT` for each piece: a
    silent client ends its request (as a closed connection) instead of holding
    the thread."""

    def chunk(self, size_hint: int | None = None) -> bytes:
        selector = selectors.DefaultSelector()
        try:
            selector.register(self.sock, selectors.EVENT_READ)
            if not selector.select(timeout=IDLE_WAIT):
                return b""
        except (OSError, ValueError):
            return b""
        finally:
            selector.close()
        return bytes(super().chunk(size_hint))


class BufferingWorker(ThreadWorker):  # type: ignore[misc]
    """gunicorn's threaded worker; a thread takes a request only once it has
    arrived whole (see the module's docstring)."""

    def init_process(self) -> None:
        #: Connections whose request is arriving: the bytes so far, and deadlines.
        self.arriving: dict[TConn, _Arrival] = {}
        #: The bytes they hold together (`MAX_BUFFERED`).
        self.buffered = 0
        super().init_process()

    def accept(self, listener: socket.socket) -> None:
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = TConn(self.cfg, client, address, listener.getsockname())  # non-blocking
        if self.cfg.is_ssl:  # TLS is read by gunicorn's own handshake: as gthread does
            self.enqueue_req(conn)
            return
        self._await(conn, b"")

    def on_client_socket_readable(self, conn: TConn, client: socket.socket) -> None:
        """A kept-alive connection sends its next request: read it here too."""
        self.poller.unregister(client)
        self.keepalived_conns.remove(conn)
        self._await(conn, b"")

    def _await(self, conn: TConn, data: bytes) -> None:
        now = time.monotonic()
        arrival = _Arrival(bytearray(data), now)
        if data and arrival.progress.complete(arrival.data):
            self._ready(conn, arrival)
            return
        self.arriving[conn] = arrival
        self.buffered += len(data)
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_bytes, conn))

    def _on_bytes(self, conn: TConn, _sock: socket.socket) -> None:
        arrival = self.arriving[conn]
        try:
            piece = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            piece = b""
        if not piece or self.buffered + len(piece) > MAX_BUFFERED:  # gone, or too much
            self._drop(conn)
            return
        arrival.data += piece
        self.buffered += len(piece)
        arrival.last = time.monotonic()
        data = arrival.data
        if arrival.progress.complete(data):
            self.poller.unregister(conn.sock)
            del self.arriving[conn]
            self.buffered -= len(data)
            self._ready(conn, arrival)
        elif not arrival.continued and arrival.progress.end >= 0:
            arrival.continued = True  # its head is read once
            if _expects_continue(data):  # the client waits for this before its body
                try:
                    conn.sock.send(_CONTINUE)
                except OSError:
                    self._drop(conn)

    def _ready(self, conn: TConn, arrival: _Arrival) -> None:
        conn.data_ready = True
        conn.arrived = bytes(arrival.data)
        self.enqueue_req(conn)

    def _drop(self, conn: TConn) -> None:
        arrival = self.arriving.pop(conn, None)
        if arrival is not None:
            self.buffered -= len(arrival.data)
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Close the connections whose request is late (and gthread's own)."""
        super().murder_pending()
        now = time.monotonic()
        for conn, arrival in list(self.arriving.items()):
            if arrival.late(now):
                self._drop(conn)

    def handle(self, conn: TConn) -> Any:
        arrived = getattr(conn, "arrived", None)
        if arrived is not None:
            conn.arrived = None
            conn.sock.setblocking(True)
            conn.init()
            if not isinstance(conn.parser.unreader, TimedUnreader):
                conn.parser.unreader = TimedUnreader(conn.sock)
            conn.parser.unreader.unread(arrived)
        return super().handle(conn)

    def finish_request(self, conn: TConn, fs: Any) -> None:
        """A request pipelined behind the one served is read here too, not by a thread."""
        served = not fs.cancelled() and fs.exception() is None and fs.result()
        parser = getattr(conn, "parser", None)
        if served is True and self.alive and parser is not None:
            leftover = parser.unreader.take_buffered()
            if leftover:
                conn.sock.setblocking(False)
                self._await(conn, leftover)
                return
        super().finish_request(conn, fs)


def _expects_continue(data: bytes | bytearray) -> bool:
    head = bytes(data[: data.find(b"\r\n\r\n")]).lower()
    return b"\r\nexpect:" in head and b"100-continue" in head


class _Arrival:
    """A request arriving: its bytes so far, when it began, its last byte's time."""

    __slots__ = ("begun", "continued", "data", "last", "progress")

    def __init__(self, data: bytearray, begun: float) -> None:
        self.data = data
        self.begun = begun
        self.last = begun
        self.continued = False
        self.progress = _Progress()

    def late(self, now: float) -> bool:
        """Past a deadline: the head's, the request's, or silent too long."""
        if now - self.last > IDLE_WAIT or now - self.begun > REQUEST_WAIT:
            return True
        return b"\r\n\r\n" not in self.data and now - self.begun > HEAD_WAIT
