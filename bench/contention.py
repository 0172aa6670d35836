"""Phones entering deals into one game at once, on the real server: what each answer
was, each 409 by its kind, and whether the game holds what the server acknowledged.

    .venv/bin/python bench/contention.py                    # SQLite, 1 and 2 servers
    .venv/bin/python bench/contention.py --postgres URL     # PostgreSQL too

Each server is `referee serve` (gunicorn, 2 workers x 4 threads) on a free port of
127.0.0.1; its data folder (SQLite file, secret key) is a new temporary one, shared
by both servers in the two-server cases; each is stopped by the PID started here.
Each phone is a browser of its own (session cookie, CSRF token read from its forms
and sent with every post). Per deal it gets the deal form, posts a random deal, and
does what the answer asks of a player, by the kind the 409's `Referee-Conflict`
header names: `taken` (another phone recorded the deal this form was opened for)
and `taken-back` (a deal was taken back since), tap "record it as the next deal"
(the form that came back), up to 16 times; `busy` (nothing recorded: "send them
again"), send again, up to 3 times. A recorded deal opens the scoreboard (the page
cache); in the cases "with undo", a phone then takes back one in six of its deals
with the one-tap Undo of that page (refused when another phone wrote since).

Cases: 2 phones x 72 deals (the real table), 4 x 36 with undo, 8 x 36 with undo,
16 x 18 (a flood), each on 1 server and on 2 sharing the database. Per case, one
Markdown row: the final answers, the 409s by kind (every one, and those a phone was
left with), the taps, undos, 5xx, latency from the first post of a deal to its last
answer, and whether the stored game is exactly the deals acknowledged (302) less
those taken back. Bounded: 288 deals a case, 180 s a case. The rate limits are off
(every phone posts from one address). Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # `bench` and `tests` as packages; not bench/ (its http.py)

from bench.served import Browser, Served, Tally, form_values  # noqa: E402
from tests.server.test_concurrency import as_form, key_of, random_deal  # noqa: E402

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
#: (phones, deals each, one deal in six taken back).
LOADS = ((2, 72, False), (4, 36, True), (8, 36, True), (16, 18, False))
TAPS = 16  # "record it as the next deal", at most, a deal
RESENDS = 3  # "send them again", at most, a deal
SECONDS = 180
_JUST = re.compile(r'class="just card".*?name="version" value="([0-9]+)"', re.S)


@dataclass
class Case:
    """What the phones of one case saw."""

    tally: Tally = field(default_factory=Tally)
    finals: Counter[str] = field(default_factory=Counter)  # "302", "409 busy", ...
    latencies: list[float] = field(default_factory=list)
    acknowledged: list[str] = field(default_factory=list)
    undone: list[str] = field(default_factory=list)
    undos: Counter[str] = field(default_factory=Counter)  # done, refused
    taps: int = 0
    resends: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def phone(case: Case, port: int, token: str, seed: int, deals: int, undo: bool) -> None:
    rng = random.Random(seed)
    browser = Browser(port, case.tally)
    deadline = time.monotonic() + SECONDS
    base = f"/g/{token}"
    try:
        for _ in range(deals):
            if time.monotonic() > deadline:
                return
            form = as_form(random_deal(rng))
            page = browser.request("GET", f"{base}/deal")
            if page is None or page.status != 200:
                with case.lock:
                    case.finals[f"form {page and page.status}"] += 1
                continue
            fields = form_values(page.body)
            hidden = {k: fields[k] for k in ("key", "number") if k in fields}
            started = time.perf_counter()
            taps = resends = 0
            while True:
                answer = browser.request("POST", f"{base}/deal", {**hidden, **form})
                if answer is None or answer.status != 409:
                    break
                if answer.conflict in ("taken", "taken-back") and taps < TAPS:
                    taps += 1  # the form came back with the next number: one tap
                    shown = form_values(answer.body)
                    hidden = {k: shown[k] for k in ("key", "number") if k in shown}
                    continue
                if answer.conflict == "busy" and resends < RESENDS:
                    resends += 1
                    continue
                break
            final = "no answer" if answer is None else str(answer.status)
            if answer is not None and answer.status == 409:
                final += f" {answer.conflict or 'unnamed'}"
            with case.lock:
                case.latencies.append(time.perf_counter() - started)
                case.finals[final] += 1
                case.taps += taps
                case.resends += resends
                if final == "302":
                    case.acknowledged.append(key_of(form))
            if final == "302":
                board = browser.request("GET", base)  # where Record leads
                if undo and board is not None and rng.random() < 1 / 6:
                    take_back(case, browser, base, board.body, key_of(form))
    finally:
        browser.close()


def take_back(case: Case, browser: Browser, base: str, board: str, deal: str) -> None:
    """The one-tap Undo under "Deal N recorded", if the page still offers it (no other
    phone wrote since): it takes back this phone's deal, or is refused if another
    phone wrote in between (the scoreboard then says "nothing was undone")."""
    found = _JUST.search(board)
    if found is None:
        with case.lock:
            case.undos["not offered"] += 1
        return
    answer = browser.request("POST", f"{base}/undo", {"version": found.group(1)})
    if answer is None or answer.status != 302:
        with case.lock:
            case.undos[f"answered {answer and answer.status}"] += 1
        return
    after = browser.request("GET", base)
    refused = after is None or "nothing was undone" in after.body
    with case.lock:
        case.undos["refused" if refused else "done"] += 1
        if not refused:
            case.undone.append(deal)


def stored(browser: Browser, token: str) -> list[str]:
    answer = browser.request("GET", f"/g/{token}/export.json")
    if answer is None or answer.status != 200:
        raise SystemExit(f"bench/contention.py: the game's export answered {answer}")
    deals = json.loads(answer.body)["deals"]
    return [key_of(as_form({k: v for k, v in d.items() if k != "dealer"})) for d in deals]


def run(
    label: str, database: str | None, servers: int, phones: int, deals: int, undo: bool
) -> tuple[bool, Tally]:
    folder = Path(tempfile.mkdtemp(prefix="referee-contention-"))
    running = [Served(folder, database=database) for _ in range(servers)]
    case = Case()
    try:
        for server in running:
            server.start()
        host = Browser(running[0].port, case.tally)
        host.request("GET", "/new?game=boulmous")
        form = {"game": "boulmous", "first_dealer": "0", "currency": "EUR", "rule_target": "999"}
        form.update({f"player{i}": name for i, name in enumerate(PLAYERS)})
        created = host.request("POST", "/new", form)
        if created is None or created.status != 302:
            raise SystemExit(f"bench/contention.py: a new game was refused: {created}")
        token = created.location.rsplit("/g/", 1)[1]
        began = time.perf_counter()
        threads = [
            threading.Thread(
                target=phone,
                args=(case, running[n % servers].port, token, n, deals, undo),
            )
            for n in range(phones)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=SECONDS + 120)
        seconds = time.perf_counter() - began
        kept = stored(host, token)
        host.close()
    finally:
        for server in running:
            server.stop()
    tracebacks = sum(server.tracebacks() for server in running)
    expected = Counter(case.acknowledged) - Counter(case.undone)
    exact = Counter(kept) == expected
    lost = sum((expected - Counter(kept)).values())
    doubled = sum((Counter(kept) - expected).values())
    latencies = sorted(case.latencies) or [0.0]

    def pct(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    kinds = case.tally.by_kind()
    finals = ", ".join(f"{k}: {n}" for k, n in sorted(case.finals.items()))
    seen = ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())) or "none"
    undos = ", ".join(f"{k} {n}" for k, n in sorted(case.undos.items())) or "-"
    errors = case.tally.server_errors
    unanswered = sum(case.tally.unanswered.values())
    print(
        f"| {label} | {servers} | {phones} × {deals}{' + undo' if undo else ''} | "
        f"{case.tally.requests} | {finals} | {seen} | {case.taps} | {case.resends} | "
        f"{undos} | {errors} | {pct(0.5):.0f} / {pct(0.95):.0f} / {latencies[-1] * 1000:.0f} | "
        f"{len(kept)} stored = {len(case.acknowledged)} acknowledged − {len(case.undone)} "
        f"taken back: {'yes' if exact else 'NO'} (lost {lost}, doubled {doubled}) | "
        f"{len(case.acknowledged) / seconds:.0f} | {tracebacks} |",
        flush=True,
    )
    for line in case.tally.errors:
        print("    " + line)
    good = exact and not errors and not tracebacks and not unanswered
    return good and not kinds["unnamed"], case.tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL URL (a scratch database) to try too")
    parser.add_argument("--quick", action="store_true", help="a quarter of the deals")
    args = parser.parse_args()
    print(
        "| database | servers | phones × deals | requests | final answers | 409 by kind "
        "(every one) | taps on next | sent again | one-tap undos | 5xx | "
        "p50 / p95 / max ms | stored = acknowledged − taken back | deals/s | tracebacks |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    good = True
    total = Tally()
    databases: list[tuple[str, str | None]] = [("SQLite", None)]
    if args.postgres:
        databases.append(("PostgreSQL", args.postgres))
    for phones, deals, undo in LOADS:
        deals = max(4, deals // 4) if args.quick else deals
        for label, url in databases:
            for servers in (1, 2):
                ok, tally = run(label, url, servers, phones, deals, undo)
                good &= ok
                total.statuses.update(tally.statuses)
                total.conflicts.update(tally.conflicts)
    print(f"\nall cases: {total.requests} requests; by route:\n" + total.table())
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
