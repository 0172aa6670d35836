"""The `Host:` header: never a 500, only the allowed hosts, links from REFEREE_URL."""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import EnvironBuilder, run_wsgi_app

from referee.app import create_app
from referee.extensions import db
from referee.web.hosts import HostCheck, host_name, hosts_setting, public_url_setting
from tests.web.conftest import new_game

#: What a stranger may send as `Host:` (issue 37: the first two answered 500 on every
#: route, the error page included, with three tracebacks in the log).
HOSTILE = [
    "a" * 64 + ".example.org",
    "a..b",
    "..",
    ".",
    "-a.example",
    "a-.example",
    "x" * 300,
    "localhost:99999",
    "localhost:0",
    "localhost:abc",
    "localhost:",
    "[::1",
    "[::1]x",
    "[nonsense]",
    "ex ample",
    "é.example",
    "xn--.example",
    "xn--zz-.example",
    "a\x00b",
    "localhost\r\nX-Injected: 1",
    "127.0.0.1:5000:5000",
    "user@localhost",
    "localhost/path",
    "%00",
    "*",
]


def _app(tmp_path: Any, **env: str) -> Flask:
    return create_app(
        {
            "TESTING": True,  # an exception anywhere fails the test, as a 500 would be
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'hosts.sqlite3'}",
            "WTF_CSRF_ENABLED": False,
            **env,
        }
    )


@pytest.fixture
def table_app(tmp_path: Any) -> Iterator[Flask]:
    app = _app(tmp_path)
    yield app
    with app.app_context():
        db.engine.dispose()


def _routes(client: FlaskClient) -> list[tuple[str, str]]:
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    return [
        ("GET", "/health"),
        ("GET", "/"),
        ("GET", "/static/app.css"),
        ("GET", f"/g/{token}"),
        ("GET", f"/g/{token}/share"),
        ("GET", "/no/such/page"),
        ("POST", "/new"),
        ("POST", f"/g/{token}/deal"),
    ]


@pytest.mark.parametrize("host", HOSTILE)
def test_no_host_header_makes_a_page_fail(
    table_app: Flask, host: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    for method, path in _routes(table_app.test_client()):
        # The header as a server hands it over (the test client would refuse to
        # send some of these, or fail reading its own request's address).
        environ = EnvironBuilder(path=path, method=method).get_environ()
        environ["HTTP_HOST"] = host
        body, status, _headers = run_wsgi_app(table_app, environ, buffered=True)
        assert status.startswith("400 "), (method, path, status)
        page = b"".join(body).decode()
        assert "Adresse inconnue" in page
        assert "Unknown address" in page
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


def test_at_the_table_any_address_and_the_machine_s_name_are_answered(
    table_app: Flask,
) -> None:
    """No setting (a laptop at the table): phones come by an IP address or by the
    machine's name; another name (DNS rebinding) is not this server."""
    client = table_app.test_client()
    machine = socket.gethostname().split(".")[0].lower()
    hosts = ("192.168.1.23:5000", "[fe80::1]:5000", "127.0.0.1", "localhost:5000")
    for host in (*hosts, f"{machine}.local:5000", f"{machine}.fritz.box"):
        assert client.get("/health", headers={"Host": host}).status_code == 200, host
    assert client.get("/health", headers={"Host": "evil.example"}).status_code == 400
    # An empty Host header, or none in HTTP/1.1, is no host (issue 51: its pages
    # linked to http:///…); HTTP/1.0 may send none.
    assert client.get("/health", headers={"Host": ""}).status_code == 400
    check = HostCheck(lambda _env, start: start("200 OK", []) or [b""], hosts_setting(None, None))
    for protocol, status in (("HTTP/1.1", "400 Bad Request"), ("HTTP/1.0", "200 OK")):
        said: list[str] = []
        bare = {"SERVER_NAME": "127.0.0.1", "SERVER_PROTOCOL": protocol}
        check(bare, lambda line, _headers, said=said: said.append(line))
        assert said == [status], protocol
    # The machine's name under a domain of the internet is anyone's (issue 51).
    for host in (f"{machine}.evil.example", f"{machine}.local.evil.example"):
        assert client.get("/health", headers={"Host": host}).status_code == 400, host


def test_the_allowed_hosts_and_the_links_come_from_the_settings(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REFEREE_URL", "https://scores.example.org/")
    app = _app(tmp_path)
    client = app.test_client()
    assert client.get("/health", headers={"Host": "scores.example.org"}).status_code == 200
    assert client.get("/health", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/health", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/health", headers={"Host": "192.168.1.23"}).status_code == 400
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    # Even through a host the server answers to, the links are the configured ones.
    page = client.get(f"/g/{token}/share", headers={"Host": "localhost:8000"})
    text = page.get_data(as_text=True)
    assert f"https://scores.example.org/g/{token}" in text
    assert "localhost:8000" not in text
    with app.app_context():
        db.engine.dispose()


def test_referee_hosts_lists_more_names(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_HOSTS", "scores.example.org, club.example.org")
    client = _app(tmp_path).test_client()
    assert client.get("/health", headers={"Host": "club.example.org"}).status_code == 200
    assert client.get("/health", headers={"Host": "CLUB.example.org."}).status_code == 200
    assert client.get("/health", headers={"Host": "192.168.1.23"}).status_code == 400
    monkeypatch.setenv("REFEREE_HOSTS", "*")
    anyone = _app(tmp_path).test_client()
    assert anyone.get("/health", headers={"Host": "whatever.example"}).status_code == 200
    assert anyone.get("/health", headers={"Host": "a..b"}).status_code == 400


def test_host_names_are_read_strictly() -> None:
    assert host_name("Scores.Example.org:443") == "scores.example.org"
    assert host_name("[::1]:5000") == "::1"
    assert host_name("192.168.1.2") == "192.168.1.2"
    assert host_name("a" * 63 + ".org") == "a" * 63 + ".org"
    for bad in HOSTILE:
        assert host_name(bad) is None, bad


@pytest.mark.parametrize(
    "value", ["scores.example.org", "ftp://x.org", "https://a..b", "https://x.org/sub", "https://"]
)
def test_a_wrong_referee_url_is_refused_at_start(value: str) -> None:
    with pytest.raises(ValueError, match="REFEREE_URL"):
        public_url_setting(value)


def test_a_wrong_referee_hosts_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="REFEREE_HOSTS"):
        hosts_setting("good.example, a..b", None)


#: Headers a stranger may send, and what they may hold.
HEADERS = [
    "Accept-Language",
    "Cookie",
    "Range",
    "If-None-Match",
    "If-Modified-Since",
    "Accept-Encoding",
    "X-Forwarded-For",
    "X-Forwarded-Proto",
    "X-Forwarded-Host",
    "Origin",
    "Referer",
    "Content-Type",
    "Content-Length",
    "Accept",
    "Authorization",
    "Transfer-Encoding",
    "Forwarded",
]
VALUES = ["", "\x00", "é", "a" * 9000, "*", "-1", "9" * 30, "bytes=5-1", "fr;q=2, *;q=-1", "‮"]


def test_no_request_header_makes_a_page_fail(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Every header above, with each value, on the pages a phone opens (behind a
    proxy: the forwarded headers are read then)."""
    monkeypatch.setenv("REFEREE_BEHIND_PROXY", "1")
    app = _app(tmp_path)
    token = new_game(app.test_client(), "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    paths = [("GET", "/"), ("GET", "/static/app.css"), ("GET", f"/g/{token}")]
    paths += [("POST", f"/g/{token}/deal"), ("GET", "/lang/en")]
    caplog.set_level(logging.WARNING)
    answered = 0
    for header in HEADERS:
        for value in VALUES:
            for method, path in paths:
                environ = EnvironBuilder(path=path, method=method).get_environ()
                key = header.upper().replace("-", "_")
                environ[key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else f"HTTP_{key}"] = value
                _body, status, _headers = run_wsgi_app(app, environ, buffered=True)
                assert int(status.split()[0]) < 500, (header, value[:20], path, status)
                answered += 1
    assert answered == len(HEADERS) * len(VALUES) * len(paths)
    assert not caplog.records
    with app.app_context():
        db.engine.dispose()
