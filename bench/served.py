"""The real server and a browser for the fuzz and contention benches (issue 37).

`Served` starts `referee serve` (gunicorn: its workers, threads and page cache) on a
free port of 127.0.0.1, on its own temporary `--data` folder, in its own process
group, and stops that group by the PID it started, as tests/server/conftest.py's
`Server` does. `Browser` is one phone: a keep-alive connection, its session
cookie, the CSRF token read from the forms it was shown and sent with every post,
gzip taken as a browser takes it. `Tally` counts every answer by route and status,
every 409 by the kind its `Referee-Conflict` header names, and keeps a sample of
each server error.
"""

from __future__ import annotations

import gzip
import html
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HOST = "127.0.0.1"
#: The header in which the app names the kind of a 409 (referee/web/games.py).
CONFLICT = "Referee-Conflict"
#: Seconds a kept connection may stay idle before a new one is opened (the server's
#: keep-alive is 20 s).
IDLE = 15.0
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_ROUTE_PARTS = [
    (re.compile(r"^/(g|v|t|tv)/[A-Za-z0-9_-]+"), r"/\1/<token>"),
    (re.compile(r"/deal/[0-9]+/"), "/deal/<n>/"),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """`referee serve --data FOLDER` on a free loopback port: 2 workers x `threads`.
    Several may share a folder (its SQLite file and secret key); `database`: a
    PostgreSQL URL instead of the folder's SQLite file."""

    data: Path
    threads: int = 4
    database: str | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def log(self) -> Path:
        return self.data / f"server-{self.port}.log"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        if self.database:
            env["DATABASE_URL"] = self.database
        # Every phone of a bench posts from 127.0.0.1: the per-address rate limits
        # (600 writes a minute) are not what it measures.
        env["REFEREE_RATE_LIMITS"] = "0"
        command = [sys.executable, "-m", "referee.cli", "serve", "--host", HOST]
        command += ["--port", str(self.port), "--workers", "2", "--threads", str(self.threads)]
        command += ["--data", str(self.data)]
        with self.log.open("ab") as log:  # the child keeps its copy
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=log, start_new_session=True
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.process.poll() is None:
            try:  # its workers up: /health answers (it asks the database)
                probe = http.client.HTTPConnection(HOST, self.port, timeout=5)
                probe.request("GET", "/health")
                if probe.getresponse().status == 200:
                    probe.close()
                    return
                probe.close()
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.2)
        self.stop()
        raise SystemExit("the server did not start: " + self.log.read_text()[-2000:])

    def stop(self) -> None:
        """SIGTERM to the process group of the PID started here (gunicorn's master,
        its workers and their PDF processes), SIGKILL if it is still there in 15 s."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def tracebacks(self) -> int:
        return self.log.read_text(errors="replace").count("Traceback")

    def __enter__(self) -> Served:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def route_of(path: str) -> str:
    """`POST /g/<token>/deal/<n>/edit` for `/g/abc.../deal/3/edit?x=1`."""
    path = path.split("?", 1)[0]
    for pattern, replacement in _ROUTE_PARTS:
        path = pattern.sub(replacement, path)
    return path


@dataclass
class Tally:
    """Every answer by (method route, status); every 409 by (method route, kind)."""

    statuses: Counter[tuple[str, int]] = field(default_factory=Counter)
    conflicts: Counter[tuple[str, str]] = field(default_factory=Counter)
    #: A few server errors (route, status, the start of the body), to show.
    errors: list[str] = field(default_factory=list)
    #: Requests that had no answer (connection reset, timeout).
    unanswered: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, route: str, status: int, kind: str | None, body: str) -> None:
        with self.lock:
            self.statuses[route, status] += 1
            if status == 409:
                self.conflicts[route, kind or "unnamed"] += 1
            if status >= 500 and len(self.errors) < 10:
                self.errors.append(f"{route} {status}: {body[:300]!r}")

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())

    @property
    def server_errors(self) -> int:
        return sum(n for (_, status), n in self.statuses.items() if status >= 500)

    def by_status(self) -> Counter[int]:
        out: Counter[int] = Counter()
        for (_, status), n in self.statuses.items():
            out[status] += n
        return out

    def by_kind(self) -> Counter[str]:
        out: Counter[str] = Counter()
        for (_, kind), n in self.conflicts.items():
            out[kind] += n
        return out

    def table(self) -> str:
        """One line a route: its statuses, its 409s by kind."""
        routes = sorted({route for route, _ in self.statuses})
        lines = []
        for route in routes:
            statuses = sorted((s, n) for (r, s), n in self.statuses.items() if r == route)
            kinds = sorted((k, n) for (r, k), n in self.conflicts.items() if r == route)
            line = f"  {route}: " + ", ".join(f"{s}: {n}" for s, n in statuses)
            if kinds:
                line += " (409: " + ", ".join(f"{k} {n}" for k, n in kinds) + ")"
            lines.append(line)
        return "\n".join(lines)


@dataclass
class Answer:
    status: int
    body: str
    headers: http.client.HTTPMessage

    @property
    def location(self) -> str:
        return self.headers.get("Location") or ""

    @property
    def conflict(self) -> str | None:
        return self.headers.get(CONFLICT)


@dataclass
class Browser:
    """One phone's browser: its connection, its session cookie, its CSRF token."""

    port: int
    tally: Tally
    lang: str = "en"
    cookie: str = ""
    csrf: str = ""
    conn: http.client.HTTPConnection | None = field(default=None, repr=False)
    #: When the connection was last used: the server closes one idle for 20 s
    #: (`keepalive`), and a browser then opens another.
    used: float = 0.0

    def request(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        *,
        files: dict[str, bytes] | None = None,
        headers: dict[str, str] | None = None,
        csrf: bool = True,
        timeout: float = 60,
    ) -> Answer | None:
        """One request, counted; None if it had no answer (the connection dropped)."""
        sent = {"Accept-Language": self.lang, "Accept-Encoding": "gzip", **(headers or {})}
        if self.cookie:
            sent["Cookie"] = self.cookie
        body: bytes | None = None
        if form is not None or files is not None:
            fields = dict(form or {})
            if csrf and method == "POST":
                fields["csrf_token"] = self.csrf
            if files is None:
                body = urllib.parse.urlencode(fields).encode()
                sent["Content-Type"] = "application/x-www-form-urlencoded"
            else:
                body, sent["Content-Type"] = multipart(fields, files)
        route = f"{method} {route_of(path)}"
        if self.conn is not None and time.monotonic() - self.used > IDLE:
            self.close()
        for attempt in (1, 2):
            reused = self.conn is not None
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(HOST, self.port, timeout=timeout)
                self.conn.timeout = timeout
                self.conn.request(method, path, body=body, headers=sent)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (OSError, http.client.HTTPException):
                self.close()
                # A kept connection the server had just closed: a browser sends a GET
                # again on a new one (never a post: it may have landed).
                if attempt == 1 and reused and method == "GET":
                    continue
                with self.tally.lock:
                    self.tally.unanswered[route] += 1
                return None
        self.used = time.monotonic()
        if response.getheader("Content-Encoding") == "gzip":
            data = gzip.decompress(data)
        text = data.decode("utf-8", "replace")
        for cookie in response.msg.get_all("Set-Cookie") or []:
            self.cookie = cookie.split(";", 1)[0]
        found = _CSRF.search(text)
        if found:
            self.csrf = found.group(1)
        answer = Answer(response.status, text, response.msg)
        self.tally.add(route, answer.status, answer.conflict, text)
        return answer

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def multipart(fields: dict[str, str], files: dict[str, bytes]) -> tuple[bytes, str]:
    """A multipart/form-data body (fields, then files) and its Content-Type."""
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
        parts.append(head.encode() + value.encode("utf-8", "surrogatepass") + b"\r\n")
    for name, content in files.items():
        head = (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{name}.json"\r\nContent-Type: application/json\r\n\r\n'
        )
        parts.append(head.encode() + content + b"\r\n")
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


_INPUT = re.compile(r"<(input|select|textarea|option|/select)\b([^>]*)>", re.S)
_ATTR = re.compile(r'([a-zA-Z_:-]+)(?:="([^"]*)")?')


def form_values(page: str, marker: str = "deal-form") -> dict[str, str]:
    """What a browser would send of the form whose class holds `marker`, as shown:
    hidden and typed inputs, checked boxes and radios, selected options (no button)."""
    start = page.find(marker)
    if start < 0:
        return {}
    end = page.find("</form>", start)
    values: dict[str, str] = {}
    select: str | None = None
    for tag, attributes in _INPUT.findall(page[start:end]):
        attrs = {k: html.unescape(v or "") for k, v in _ATTR.findall(attributes)}
        name = attrs.get("name")
        if tag == "select":
            select = name
        elif tag == "/select":
            select = None
        elif tag == "option":
            if select and "selected" in attrs:
                values[select] = attrs.get("value", "")
        elif name and name != "csrf_token":
            kind = attrs.get("type", "text")
            if kind in ("radio", "checkbox"):
                if "checked" in attrs:
                    values[name] = attrs.get("value", "on")
            elif kind not in ("submit", "button", "reset"):
                values[name] = attrs.get("value", "")
    return values
