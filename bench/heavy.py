"""The longest allowed game, and heavy readers beside a table that plays.

    .venv/bin/python bench/heavy.py            # about two minutes
    .venv/bin/python bench/heavy.py --quick    # shorter phases

Starts `referee serve` (2 workers x 4 threads) on a free loopback port, on a fresh
SQLite database, with rate limits off. Then:

(a) imports the longest games a record may hold (300 deals: Boulmous and Pitch to a
    target of 999, every deal played) and times, for each, its scoreboard, its record
    (export) and its score sheet: the first request (nothing cached) and the median of
    the next ten;
(b) a normal table plays (a deal every 2 s, its scoreboard reloaded every 0.5 s),
    alone, then beside 8 clients that loop on the long games' exports and sheets
    (A4 and Letter, French and English), and reports the table's latencies side by
    side.

Only 127.0.0.1; every loop is bounded in time. Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # not bench/: its http.py would shadow the standard http

import http.client  # noqa: E402

from bench.engine import boulmous_record, pitch_game, random_boulmous_deal  # noqa: E402
from referee.engine.errors import RulesError  # noqa: E402
from referee.engine.records import MAX_DEALS, parse_record, score_record  # noqa: E402
from tests.server.conftest import Server, free_port  # noqa: E402

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_KEY = re.compile(r'name="key" value="([^"]+)"')


class Browser:
    """One client: a keep-alive connection and its cookie; bodies kept as bytes."""

    def __init__(self, port: int, lang: str = "fr") -> None:
        self.port = port
        self.lang = lang
        self.cookie = ""
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, body: bytes | None = None, kind: str = ""
    ) -> tuple[int, bytes, str]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=90)
        headers = {"Accept-Language": self.lang, "Accept-Encoding": "gzip"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if kind:
            headers["Content-Type"] = kind
        try:
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (ConnectionError, http.client.HTTPException):
            self.conn.close()
            self.conn = None
            raise
        # Every cookie the server sets (the session, the phone's name), as a browser.
        jar = dict(c.split("=", 1) for c in self.cookie.split("; ") if "=" in c)
        for cookie in response.msg.get_all("Set-Cookie") or []:
            name, _, value = cookie.split(";", 1)[0].partition("=")
            jar[name] = value
        self.cookie = "; ".join(f"{k}={v}" for k, v in jar.items())
        return response.status, data, response.getheader("Location") or ""

    def timed(self, method: str, path: str, **options: Any) -> tuple[float, int, bytes, str]:
        started = time.perf_counter()
        status, data, location = self.request(method, path, **options)
        return time.perf_counter() - started, status, data, location

    def post_form(self, path: str, form: dict[str, str]) -> tuple[float, int, bytes, str]:
        body = urlencode(form).encode()
        return self.timed("POST", path, body=body, kind="application/x-www-form-urlencoded")

    def hidden(self, path: str) -> dict[str, str]:
        _status, page, _ = self.request("GET", path)
        text = page.decode("utf-8", "replace")
        fields = {"csrf_token": _CSRF.search(text).group(1)}  # type: ignore[union-attr]
        key = _KEY.search(text)
        if key:
            fields["key"] = key.group(1)
        return fields

    def import_record(self, record: dict[str, Any]) -> str:
        fields = self.hidden("/import")
        boundary = uuid.uuid4().hex
        body = (
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n'
                f"{fields['csrf_token']}\r\n--{boundary}\r\nContent-Disposition: form-data; "
                f'name="record"; filename="r.json"\r\nContent-Type: application/json\r\n\r\n'
            ).encode()
            + json.dumps(record).encode()
            + f"\r\n--{boundary}--\r\n".encode()
        )
        status, _data, location = self.request(
            "POST", "/import", body=body, kind=f"multipart/form-data; boundary={boundary}"
        )
        assert status == 302, status
        return location.removeprefix("/g/")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def longest_games(seed: int) -> dict[str, dict[str, Any]]:
    """Boulmous and Pitch games of `MAX_DEALS` deals that nobody wins before the end."""
    rng = random.Random(seed)
    games: dict[str, dict[str, Any]] = {}
    while "boulmous" not in games:
        deals = [random_boulmous_deal(rng) for _ in range(MAX_DEALS)]
        record = boulmous_record(deals, 999)
        if _plays_to_the_end(record):
            games["boulmous"] = record
    while "pitch" not in games:
        record = pitch_game(rng, MAX_DEALS)
        if _plays_to_the_end(record):
            games["pitch"] = record
    return games


def _plays_to_the_end(record: dict[str, Any]) -> bool:
    try:
        return not score_record(parse_record(record)).finished
    except RulesError:  # a random game that ended early: draw another
        return False


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"


def pct(values: list[float], q: float) -> float:
    data = sorted(values)
    return data[min(len(data) - 1, int(q * len(data)))] if data else float("nan")


def long_game_costs(port: int, tokens: dict[str, str]) -> None:
    print("| game (300 deals) | page | first (ms) | next ten, median (ms) | size (KB) |")
    print("|---|---|---|---|---|")
    for game, token in tokens.items():
        for page, path in (
            ("scoreboard", f"/g/{token}"),
            ("record (export)", f"/g/{token}/export.json"),
            ("score sheet (PDF)", f"/g/{token}/sheet.pdf"),
        ):
            browser = Browser(port)
            first, status, data, _ = browser.timed("GET", path)
            assert status == 200, (path, status)
            warm = [browser.timed("GET", path)[0] for _ in range(10)]
            browser.close()
            print(
                f"| {game} | {page} | {ms(first)} | {ms(statistics.median(warm))} | "
                f"{len(data) / 1024:.0f} |",
                flush=True,
            )


def play_table(port: int, seconds: float, rng: random.Random) -> tuple[list[float], int]:
    """A table: a deal every 2 s, the scoreboard every 0.5 s; its latencies, errors."""
    phone = Browser(port)
    fields = phone.hidden("/new?game=boulmous")
    form = {**fields, "game": "boulmous", "first_dealer": "0", "currency": "EUR"}
    form.update({f"player{i}": n for i, n in enumerate(["Ana", "Bruno", "Chloé", "Driss"])})
    form["rule_target"] = "999"
    _t, status, _d, location = phone.post_form("/new", form)
    assert status == 302, status
    token = location.removeprefix("/g/")
    latencies: list[float] = []
    errors = 0
    end = time.monotonic() + seconds
    tick = 0
    while time.monotonic() < end:
        started = time.monotonic()
        if tick % 4 == 0:
            took, status, page, _ = phone.timed("GET", f"/g/{token}/deal")
            latencies.append(took)
            key = _KEY.search(page.decode("utf-8", "replace"))
            csrf = _CSRF.search(page.decode("utf-8", "replace"))
            deal = random_boulmous_deal(rng)
            post = {"csrf_token": csrf.group(1) if csrf else "", "action": "save"}
            post["key"] = key.group(1) if key else ""
            if deal.get("passed"):
                post["passed"] = "1"
            else:
                post.update({k: str(deal[k]) for k in ("taker", "bid", "contract")})
                post.update({f"tricks{i}": str(n) for i, n in enumerate(deal["tricks"])})
            took, status, _d, _l = phone.post_form(f"/g/{token}/deal", post)
            latencies.append(took)
            errors += status != 302
        took, status, _d, _l = phone.timed("GET", f"/g/{token}")
        latencies.append(took)
        errors += status != 200
        tick += 1
        time.sleep(max(0.0, 0.5 - (time.monotonic() - started)))
    phone.close()
    return latencies, errors


def heavy_reader(port: int, paths: list[str], stop: threading.Event, counts: list[int]) -> None:
    browsers = {lang: Browser(port, lang) for lang in ("fr", "en")}
    index = 0
    while not stop.is_set():
        path = paths[index % len(paths)]
        browser = browsers["fr" if index % 4 < 2 else "en"]
        try:
            status, _d, _l = browser.request("GET", path)
        except (ConnectionError, http.client.HTTPException, TimeoutError):
            status = 0
        counts.append(status)
        index += 1
    for browser in browsers.values():
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="shorter phases")
    parser.add_argument("--seed", type=int, default=12)
    args = parser.parse_args()
    seconds = 10.0 if args.quick else 30.0
    folder = Path(tempfile.mkdtemp(prefix="referee-heavy-"))
    os.environ["REFEREE_RATE_LIMITS"] = "0"
    server = Server(free_port(), f"sqlite:///{folder / 'heavy.sqlite3'}", folder)
    server.start()
    try:
        importer = Browser(server.port)
        tokens = {game: importer.import_record(r) for game, r in longest_games(args.seed).items()}
        importer.close()
        long_game_costs(server.port, tokens)
        print()
        rng = random.Random(args.seed)
        alone, errors_alone = play_table(server.port, seconds, rng)
        paths = [
            f"/g/{token}/{page}"
            for token in tokens.values()
            for page in ("export.json", "sheet.pdf", "sheet.pdf?size=letter")
        ]
        stop = threading.Event()
        counts: list[int] = []
        readers = [
            threading.Thread(
                target=heavy_reader, args=(server.port, paths[i:] + paths[:i], stop, counts)
            )
            for i in range(8)
        ]
        for reader in readers:
            reader.start()
        beside, errors_beside = play_table(server.port, seconds, rng)
        stop.set()
        for reader in readers:
            reader.join(timeout=120)
        statuses = {s: counts.count(s) for s in sorted(set(counts))}
        print("| the table's requests | n | p50 (ms) | p95 (ms) | max (ms) | errors |")
        print("|---|---|---|---|---|---|")
        for label, values, errors in (
            ("alone", alone, errors_alone),
            ("beside 8 heavy readers", beside, errors_beside),
        ):
            print(
                f"| {label} | {len(values)} | {ms(pct(values, 0.5))} | {ms(pct(values, 0.95))} | "
                f"{ms(max(values))} | {errors} |"
            )
        print(f"\nheavy readers: {len(counts)} requests in {seconds:.0f} s, statuses {statuses}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
