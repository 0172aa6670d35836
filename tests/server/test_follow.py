"""Following a game live through the real server (issue 19): the stream of events
tells each new version within a second, from any worker, and holds no thread."""

from __future__ import annotations

import random
import re
import socket
import ssl
import time

from tests.server.conftest import HOST, Phone, Server
from tests.server.test_concurrency import as_form, random_deal


class Stream:
    """A raw stream of events, read line by line as EventSource would."""

    def __init__(self, port: int, path: str, tls: ssl.SSLContext | None = None) -> None:
        self.sock = socket.create_connection((HOST, port), timeout=5)
        if tls is not None:
            self.sock = tls.wrap_socket(self.sock, server_hostname=HOST)
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        self.head = {}
        while line := self.file.readline().strip():
            name, _, value = line.decode().partition(":")
            self.head[name.lower()] = value.strip()

    def next_event(self, timeout: float) -> tuple[str, str]:
        """(event name, data) of the next event, within `timeout` seconds."""
        self.sock.settimeout(timeout)
        name, data = "message", ""
        while True:
            line = self.file.readline()
            assert line, "the stream ended"
            text = line.decode().rstrip("\n")
            if not text:
                return name, data
            field, _, value = text.partition(": ")
            if field == "event":
                name = value
            elif field == "data":
                data = value

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def view_token_of(phone: Phone, token: str) -> str:
    _status, page, _ = phone.request("GET", f"/g/{token}/share")
    found = re.search(r"/v/([A-Za-z0-9_-]+)", page)
    assert found
    return found.group(1)


def test_followers_hear_each_deal_and_a_replaced_link(server: Server) -> None:
    host = Phone(server.port)
    token = host.new_game(["Ana", "Bruno", "Chloé", "Driss"])
    view = view_token_of(host, token)
    # More streams than the server has threads (2 workers × 4): none holds one.
    spectators = [Stream(server.port, f"/v/{view}/live") for _ in range(12)]
    editor = Stream(server.port, f"/g/{token}/live")
    for stream in [*spectators, editor]:
        assert stream.status == 200
        assert stream.head["content-type"].startswith("text/event-stream")
        assert stream.next_event(5) == ("message", "0")
    started = time.monotonic()
    assert host.request("GET", "/ping")[0] == 200  # the server still answers at once
    assert time.monotonic() - started < 2

    fields = host.form(f"/g/{token}/deal")
    status, _ = host.post_deal(token, {**fields, **as_form(random_deal(random.Random(1)))})
    assert status == 302
    recorded = time.monotonic()
    for stream in [*spectators, editor]:
        assert stream.next_event(3) == ("message", "1")
    # Within a second of the deal, whichever worker each stream is on.
    assert time.monotonic() - recorded < 1.5

    # A replaced spectators' link: its followers are told, and the stream ends.
    fields = host.form(f"/g/{token}/share")
    status, _, _ = host.request("POST", f"/g/{token}/rotate", {**fields, "which": "viewer"})
    assert status == 302
    for stream in spectators:
        assert stream.next_event(3)[0] == "gone"
        assert stream.file.readline() == b""  # closed
    assert host.request("GET", f"/v/{view}/live")[0] == 404
    for stream in [*spectators, editor]:
        stream.close()
    host.close()
