"""The real server under concurrent phones, a double tap, and a kill -9 mid-burst.

Loads are small and bounded (loopback only); each test takes a few seconds.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from collections import Counter
from typing import Any

from referee.engine.records import parse_record, score_record
from tests.server.conftest import Phone, Server

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]


def random_deal(rng: random.Random) -> dict[str, Any]:
    tricks = [0, 0, 0, 0]
    for _ in range(6):
        tricks[rng.randrange(4)] += 1
    return {
        "taker": rng.randrange(4),
        "bid": rng.choice([3, 4, 5]),
        "contract": rng.choice(["spades", "hearts", "diamonds", "clubs", "no-trump"]),
        "tricks": tricks,
    }


def as_form(deal: dict[str, Any]) -> dict[str, str]:
    form = {
        "action": "save",
        "taker": str(deal["taker"]),
        "bid": str(deal["bid"]),
        "contract": deal["contract"],
    }
    form.update({f"tricks{i}": str(n) for i, n in enumerate(deal["tricks"])})
    return form


def key_of(deal: dict[str, Any]) -> str:
    return json.dumps(deal, sort_keys=True)


def stored(port: int, token: str) -> list[dict[str, Any]]:
    phone = Phone(port)
    for attempt in range(5):  # a server just restarted may still be settling its workers
        try:
            status, body, _ = phone.request("GET", f"/g/{token}/export.json")
            break
        except ConnectionError:
            if attempt == 4:
                raise
            time.sleep(0.5)
    phone.close()
    assert status == 200
    record = json.loads(body)
    score_record(parse_record(record))  # every game still scores
    return [{k: v for k, v in d.items() if k != "dealer"} for d in record["deals"]]


def test_32_phones_8_games(server: Server) -> None:
    host = Phone(server.port)
    tokens = [host.new_game(PLAYERS, target="999") for _ in range(8)]
    host.close()
    acknowledged: dict[str, list[dict[str, Any]]] = {t: [] for t in tokens}
    errors: list[str] = []
    lock = threading.Lock()

    def phone_at_table(n: int) -> None:
        rng = random.Random(n)
        token = tokens[n % 8]
        phone = Phone(server.port)
        try:
            for _ in range(4):
                deal = random_deal(rng)
                fields = phone.form(f"/g/{token}/deal")
                # A phone's deal can be taken, at most, by every deal the table's
                # three other phones record (4 each): 12 taps of "record it as the
                # next deal" at worst (8 ran out once in a dozen runs on a busy machine).
                status, _offers = phone.post_deal(token, {**fields, **as_form(deal)}, taps=12)
                if status != 302:
                    errors.append(f"{status}: {phone.said()}")
                    continue
                with lock:
                    acknowledged[token].append(deal)
                status, _, _ = phone.request("GET", f"/g/{token}")
                if status != 200:
                    errors.append(f"scoreboard {status}")
        except Exception as error:
            errors.append(repr(error))
        finally:
            phone.close()

    threads = [threading.Thread(target=phone_at_table, args=(n,)) for n in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    viewer = Phone(server.port)
    for token in tokens:
        deals = stored(server.port, token)
        # No deal lost, none recorded twice.
        assert Counter(map(key_of, deals)) == Counter(map(key_of, acknowledged[token]))
        assert len(deals) == 16
        # The server's scoreboard shows what scoring the same deals offline gives.
        record = {
            "format": "referee-game/1",
            "game": "boulmous",
            "players": PLAYERS,
            "rules": {"target": 999},
            "deals": deals,
        }
        offline = score_record(parse_record(record)).scores
        page = viewer.request("GET", f"/g/{token}")[1]
        shown = [int(v.replace("−", "-")) for v in re.findall(r'class="score">([^<]+)<', page)]
        assert sorted(shown) == sorted(offline)
    viewer.close()


def test_double_tap_records_one_deal(server: Server) -> None:
    phone = Phone(server.port)
    token = phone.new_game(PLAYERS)
    fields = phone.form(f"/g/{token}/deal")
    form = {**fields, **as_form(random_deal(random.Random(1)))}
    results: list[int] = []

    def tap() -> None:
        other = Phone(server.port, cookie=phone.cookie)
        results.append(other.request("POST", f"/g/{token}/deal", form)[0])
        other.close()

    taps = [threading.Thread(target=tap) for _ in range(3)]
    for t in taps:
        t.start()
    for t in taps:
        t.join()
    phone.close()
    assert results == [302, 302, 302]
    assert len(stored(server.port, token)) == 1


def test_kill_9_mid_burst_loses_no_acknowledged_deal(server: Server) -> None:
    host = Phone(server.port)
    tokens = [host.new_game(PLAYERS, target="999") for _ in range(4)]
    host.close()
    acknowledged: dict[str, list[dict[str, Any]]] = {t: [] for t in tokens}
    in_flight: dict[str, list[dict[str, Any]]] = {t: [] for t in tokens}
    lock = threading.Lock()
    stop = threading.Event()

    def entering(n: int) -> None:
        rng = random.Random(100 + n)
        token = tokens[n % 4]
        phone = Phone(server.port)
        try:
            while not stop.is_set():
                deal = random_deal(rng)
                fields = phone.form(f"/g/{token}/deal")
                with lock:
                    in_flight[token].append(deal)
                status, _, _ = phone.request(
                    "POST", f"/g/{token}/deal", {**fields, **as_form(deal)}
                )
                if status == 302:
                    with lock:
                        acknowledged[token].append(deal)
        except Exception:
            pass
        finally:
            phone.close()

    threads = [threading.Thread(target=entering, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    while sum(len(v) for v in acknowledged.values()) < 20:
        threading.Event().wait(0.05)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    server.start()
    for token in tokens:
        deals = Counter(map(key_of, stored(server.port, token)))
        sure = Counter(map(key_of, acknowledged[token]))
        maybe = Counter(map(key_of, in_flight[token]))
        assert not sure - deals, "an acknowledged deal was lost"
        assert not deals - maybe, "a deal was recorded twice or from nowhere"
