"""nginx and Caddy, with the kit's files, in front of a real `referee serve`: a
game is played through them, the app sees the scheme and the client they saw, the
pages are compressed, and 64 slow clients from one address leave a table served."""

from __future__ import annotations

import gzip
import http.client
import re
import threading
from contextlib import closing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.deploy.conftest import HOST, Proxy, start_caddy, start_nginx
from tests.server.conftest import Phone
from tests.server.slow import SlowClients, Table, p95
from tests.server.test_follow import Stream

pytestmark = pytest.mark.deploy

#: Slow connections from one address, and the p95 a table must keep meanwhile (s).
SLOW, TABLE_P95 = 64, 0.200


def connection(proxy: Proxy) -> http.client.HTTPConnection:
    if proxy.tls is not None:
        return http.client.HTTPSConnection(HOST, proxy.port, timeout=20, context=proxy.tls)
    return http.client.HTTPConnection(HOST, proxy.port, timeout=20)


def test_a_game_through_the_proxy(proxy: Proxy) -> None:
    phone = Phone(proxy.port, tls=proxy.tls)
    token = phone.new_game(["Ana", "Bruno", "Chloé", "Driss"])
    fields = phone.form(f"/g/{token}/deal")
    deal = {"action": "save", "taker": "1", "bid": "4", "contract": "hearts"}
    deal.update({f"tricks{i}": str(n) for i, n in enumerate([1, 4, 1, 0])})
    assert phone.post_deal(token, {**fields, **deal})[0] == 302
    status, page, _ = phone.request("GET", f"/g/{token}")
    assert status == 200
    assert "Bruno" in page
    # The app builds its links with the scheme the proxy was asked for.
    status, page, _ = phone.request("GET", f"/g/{token}/share")
    assert status == 200
    assert re.search(rf'data-url="{proxy.scheme}://[^"]+/v/', page), page[:500]
    with closing(connection(proxy)) as sheet:
        sheet.request("GET", f"/g/{token}/sheet.pdf")
        answer = sheet.getresponse()
        assert (answer.status, answer.read()[:4]) == (200, b"%PDF")
    phone.close()


def test_a_game_followed_live_through_the_proxy(proxy: Proxy) -> None:
    """The stream of events passes the proxy at once (nginx is told not to buffer
    it): a deal reaches a follower within seconds (issue 19)."""
    phone = Phone(proxy.port, tls=proxy.tls)
    token = phone.new_game(["Ana", "Bruno", "Chloé", "Driss"])
    stream = Stream(proxy.port, f"/g/{token}/live", proxy.tls)
    assert stream.status == 200
    assert stream.next_event(5) == ("message", "0")
    fields = phone.form(f"/g/{token}/deal")
    deal = {"action": "save", "taker": "1", "bid": "4", "contract": "hearts"}
    deal.update({f"tricks{i}": str(n) for i, n in enumerate([1, 4, 1, 0])})
    assert phone.post_deal(token, {**fields, **deal})[0] == 302
    assert stream.next_event(5) == ("message", "1")
    stream.close()
    phone.close()


def test_the_session_cookie_is_secure_and_pages_are_compressed(proxy: Proxy) -> None:
    with closing(connection(proxy)) as conn:
        conn.request("GET", "/new?game=boulmous", headers={"Accept-Encoding": "gzip"})
        answer = conn.getresponse()
        body = answer.read()
    assert answer.status == 200
    assert answer.getheader("Content-Encoding") == "gzip"
    assert b"player0" in gzip.decompress(body)
    assert "Secure" in (answer.getheader("Set-Cookie") or "")
    assert answer.getheader("Strict-Transport-Security")


@pytest.mark.parametrize("name", ["nginx", "caddy"])
def test_the_app_is_told_the_scheme_and_the_address_the_proxy_saw(
    name: str, tmp_path: Path
) -> None:
    """What reaches the app: X-Forwarded-For replaced by the address the proxy saw
    (a client's forged one dropped: REFEREE_BEHIND_PROXY=1 trusts one hop) and
    X-Forwarded-Proto; an upstream that echoes the headers it got tells."""
    seen: list[dict[str, str]] = []

    class Echo(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append({k.lower(): v for k, v in self.headers.items()})
            self.send_response(200)
            self.send_header("Content-Length", "3")
            self.end_headers()
            self.wfile.write(b"ok\n")

        def log_message(self, *args: object) -> None:
            pass

    upstream = ThreadingHTTPServer((HOST, 0), Echo)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    start = start_nginx if name == "nginx" else start_caddy
    running = start(tmp_path, upstream.server_address[1])
    try:
        with closing(connection(running)) as conn:
            conn.request("GET", "/health", headers={"X-Forwarded-For": "203.0.113.9"})
            assert conn.getresponse().read() == b"ok\n"
    finally:
        running.stop()
        upstream.shutdown()
        upstream.server_close()
    headers = seen[-1]
    assert headers["x-forwarded-for"] == HOST
    assert headers["x-forwarded-proto"] == running.scheme


def test_slow_clients_leave_a_table_served(proxy: Proxy) -> None:
    """64 connections from one address stalled in their headers, dripping their
    bodies or silent: the proxy holds them; the table's p95 stays under 200 ms."""
    table = Table(proxy.port, tls=proxy.tls)
    before = table.play(requests=40, seconds=20)
    slow = SlowClients(proxy.port, SLOW, deadline=60, tls=proxy.tls)
    slow.open()
    try:
        during = table.play(requests=160, seconds=40)
        held = slow.still_open()
    finally:
        slow.close()
        table.close()
    assert len(during) == 160, "the table could not play its requests in 40 s"
    assert p95(during) <= TABLE_P95, (proxy.name, p95(before), p95(during))
    assert held >= SLOW * 2 // 3, f"only {held} slow clients were still held: not a real load"
