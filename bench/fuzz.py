"""A long fuzz of the real server: mutated records imported, mutated deal forms and
corrections posted to games that have deals, with CSRF on and the page cache in the loop.

    .venv/bin/python bench/fuzz.py                           # about 24,000 requests
    .venv/bin/python bench/fuzz.py --records 300 --rounds 200 --seconds 120

`referee serve` (gunicorn, 2 workers x 4 threads) on a free port of 127.0.0.1, on a
temporary `--data` folder of its own (SQLite), stopped at the end by the PID this
script started; the rate limits are off (one address posts everything). One
browser: its session cookie, and the CSRF token read from the pages it is shown,
sent with every post (a few posts go without it: each must be refused, 400).

(1) Imports: each example record of examples/ as it is (each a game with deals, then
    a target of (2)), then `--records` of them mutated (tests/web/fuzz.py: one to
    three places broken, numbers of 5,000 digits, nesting past any limit...). Each
    accepted import is opened, and its export must hold as many deals as its record.
(2) Rounds at a table (`--rounds`), each on a game with deals: a fresh game of each
    kind (one deal recorded, replaced after 30 rounds) or one of the imported
    examples. A round gets the deal form and posts a mutated deal (tests/web/fuzz.py's
    good deal with one to four fields changed), asks the live preview, opens the
    correction form of a deal it draws and posts that deal as the form shows it,
    mutated, with the form's version (so the correction guard is passed and the
    correction code runs, unless the mutation breaks the version itself), asks the
    trick judge (a good question, mutated), then loads the scoreboard with the
    entity tag it holds (200, or 304 from the page cache) and the game's version: a
    page older than the game is a stale cache. Every 10 rounds of a game, its
    export: it must hold the deals the server acknowledged (a new deal answered
    302; a form key sent again is not a new deal), no fewer, no more.

Prints the requests by route and status, each 409 by the kind its
`Referee-Conflict` header names, the server errors, the tracebacks in the server's
log, and the deals lost or doubled; exits 1 on any 5xx, traceback, request without
an answer, lost or doubled deal, stale page or accepted post without CSRF.
Bounded: `--records` + `--rounds` examples, and `--seconds` at most.
Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # `tests` for the strategies; not bench/ (its http.py shadows http)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from bench.served import Browser, Served, Tally, form_values  # noqa: E402
from referee.web.games import form_key  # noqa: E402
from tests.conftest import EXAMPLES  # noqa: E402
from tests.web.fuzz import (  # noqa: E402
    FORM_FIELDS,
    FORM_VALUES,
    GOOD_FORMS,
    example_records,
    mutated_records,
)

PLAYERS = ["Ana", "Bruno", "Chloé", "Driss"]
#: Rounds a fresh game serves before another takes its place.
FRESH_ROUNDS = 30
_DATA_VERSION = re.compile(r'data-version="([0-9]+)"')
QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
#: One to four changes to a form: (which field, by its index among the form's and
#: every field a form of the app reads; remove it if there; its new value). Drawn
#: before the form is known (the form a correction page shows is known only then),
#: as tests/web/fuzz.py's `mutated_forms` mutates a known one.
Edits = list[tuple[int, bool, str]]
#: A question the trick judge answers in every game: who wins, may the next play this.
GOOD_JUDGE = (
    {"trump": "hearts", "cards": "AH KH QH", "leader": "1"},
    {"action": "may", "trump": "hearts", "cards": "AH", "next": "KS", "hand": "KS QH"},
)
EDITS = st.lists(
    st.tuples(st.integers(0, 10**6), st.booleans(), FORM_VALUES), min_size=1, max_size=4
)


def edited(form: dict[str, str], edits: Edits) -> dict[str, str]:
    """`form` with `edits` made: a field changed, added or removed each."""
    form = dict(form)
    for index, remove, value in edits:
        names = sorted({*form, *FORM_FIELDS})
        name = names[index % len(names)]
        if remove and name in form:
            del form[name]
        else:
            form[name] = value
    return form


@dataclass
class Target:
    """A game with deals the rounds post to, and the deals the server acknowledged."""

    token: str
    game: str
    deals: int
    fresh: bool
    rounds: int = 0
    etag: str = ""


class Fuzz:
    def __init__(self, server: Served, deadline: float) -> None:
        self.server = server
        self.deadline = deadline
        self.tally = Tally()
        self.phone = Browser(server.port, self.tally)
        #: Form keys of acknowledged deals: the game each recorded a deal in.
        self.keys: dict[str, str] = {}
        self.targets: list[Target] = []
        self.problems: Counter[str] = Counter()
        self.samples: list[str] = []
        self.checked_games = 0
        self.checked_deals = 0
        self.imported = 0
        self.corrections = Counter[int]()

    def problem(self, what: str, detail: str) -> None:
        self.problems[what] += 1
        if len(self.samples) < 10:
            self.samples.append(f"{what}: {detail}")

    def over(self) -> bool:
        return time.monotonic() > self.deadline

    # --- games -----------------------------------------------------------------------

    def import_record(self, data: bytes) -> str | None:
        """POST /import (the form first, for its CSRF token); the new game's token."""
        if not self.phone.csrf:
            self.phone.request("GET", "/import")
        answer = self.phone.request("POST", "/import", files={"record": data})
        if answer is None or answer.status != 302 or "/g/" not in answer.location:
            return None
        token = answer.location.rsplit("/g/", 1)[1]
        self.phone.request("GET", f"/g/{token}")
        self.imported += 1
        return token

    def fresh(self, game: str) -> Target:
        self.phone.request("GET", f"/new?game={game}")
        form = {"game": game, "first_dealer": "0", "currency": "EUR"}
        form.update({f"player{i}": name for i, name in enumerate(PLAYERS)})
        if game == "boulmous":
            form["rule_target"] = "999"
        answer = self.phone.request("POST", "/new", form)
        if answer is None or answer.status != 302:
            raise SystemExit(f"bench/fuzz.py: a new {game} game was refused: {answer}")
        target = Target(answer.location.rsplit("/g/", 1)[1], game, 0, fresh=True)
        page = self.phone.request("GET", f"/g/{target.token}/deal")
        fields = form_values(page.body) if page is not None else {}
        answer = self.phone.request(
            "POST", f"/g/{target.token}/deal", {**fields, **GOOD_FORMS[game]}
        )
        if answer is None or answer.status != 302:
            raise SystemExit(f"bench/fuzz.py: the first {game} deal was refused")
        self.acknowledge(target, fields.get("key"))
        return target

    def acknowledge(self, target: Target, key: str | None) -> None:
        """A new deal's post answered 302: a new deal, unless its key recorded one."""
        known = form_key(key)
        if known is not None and known in self.keys:
            if self.keys[known] != target.token:
                self.problem("recorded with another game's key", known)
            return  # "already recorded"
        target.deals += 1
        if known is not None:
            self.keys[known] = target.token

    def check(self, target: Target) -> None:
        """The export holds every deal acknowledged, once."""
        answer = self.phone.request("GET", f"/g/{target.token}/export.json")
        if answer is None or answer.status != 200:
            self.problem("export", f"{target.token[:8]}: {answer and answer.status}")
            return
        stored = len(json.loads(answer.body)["deals"])
        self.checked_games += 1
        self.checked_deals += stored
        if stored < target.deals:
            self.problem("deals lost", f"{target.game} {stored} of {target.deals}")
        elif stored > target.deals:
            self.problem("deals doubled", f"{target.game} {stored} for {target.deals}")

    # --- (1) imports -----------------------------------------------------------------

    def import_examples(self) -> None:
        for record in example_records():
            token = self.import_record(json.dumps(record).encode())
            if token is None:
                raise SystemExit(f"bench/fuzz.py: the example {record['game']} was refused")
            target = Target(token, record["game"], len(record["deals"]), fresh=False)
            self.check(target)
            self.targets.append(target)

    def import_mutated(self, data: bytes) -> None:
        if self.over():
            return
        token = self.import_record(data)
        if token is None:
            return
        try:
            deals = json.loads(data)["deals"]
        except (ValueError, KeyError, TypeError):
            return  # accepted, but what it holds is not read here
        if isinstance(deals, list):
            self.check(Target(token, "imported", len(deals), fresh=False))

    # --- (2) rounds ------------------------------------------------------------------

    def round(self, pick: int, edits: list[Edits], picks: list[int]) -> None:
        if self.over():
            return
        fresh = [t for t in self.targets if t.fresh]
        pool = fresh if pick % 3 and fresh else self.targets
        target = pool[pick % len(pool)]
        target.rounds += 1
        base = f"/g/{target.token}"
        post = self.phone.request

        # A new deal: the form's key and number, the good deal mutated.
        page = post("GET", f"{base}/deal")
        fields = form_values(page.body) if page is not None and page.status == 200 else {}
        hidden = {k: v for k, v in fields.items() if k in ("key", "number")}
        form = edited({**hidden, **GOOD_FORMS[target.game]}, edits[0])
        answer = post("POST", f"{base}/deal", form)
        if answer is not None and answer.status == 302:
            self.acknowledge(target, form.get("key"))
        # The live preview, of the next deal or of a past one.
        preview = edited(GOOD_FORMS[target.game], edits[1])
        which = picks[0] % (target.deals + 1)
        post("POST", f"{base}/preview.json" + (f"?number={which}" if which else ""), preview)
        # A correction of a deal that is there, as its form shows it, mutated.
        number = 1 + picks[1] % max(1, target.deals)
        page = post("GET", f"{base}/deal/{number}/edit")
        if page is not None and page.status == 200:
            shown = {**form_values(page.body), "action": "save"}
            correction = edited(shown, edits[2])
            answer = post("POST", f"{base}/deal/{number}/edit", correction)
            if answer is not None:
                self.corrections[answer.status] += 1
        # The trick judge.
        post("POST", f"{base}/judge", edited(GOOD_JUDGE[pick % 2], edits[3]))
        self.scoreboard(target)
        if target.rounds % 10 == 0:
            post("GET", f"{base}/history")
            self.check(target)
        if target.fresh and target.rounds >= FRESH_ROUNDS:
            self.check(target)
            self.targets[self.targets.index(target)] = self.fresh(target.game)

    def scoreboard(self, target: Target) -> None:
        """The scoreboard with the entity tag held, then the game's version: the page
        (or the 304) is of the version the game is at, never an older one."""
        headers = {"If-None-Match": target.etag} if target.etag else {}
        page = self.phone.request("GET", f"/g/{target.token}", headers=headers)
        now = self.phone.request("GET", f"/g/{target.token}/version.json")
        if page is None or now is None or now.status != 200:
            return
        version = int(json.loads(now.body)["version"])
        if page.status == 304:
            shown = int(target.etag.strip('W/"').split("-", 1)[0])
        elif page.status == 200:
            found = _DATA_VERSION.search(page.body)
            shown = int(found.group(1)) if found else -1
            target.etag = page.headers.get("ETag") or ""
        else:
            self.problem("scoreboard", f"{page.status}")
            return
        if shown != version:
            self.problem("stale page", f"{page.status} shows version {shown}, game at {version}")

    def without_csrf(self) -> None:
        """A few posts without their token: each refused (400) or asked again (an
        undo), nothing written."""
        target = self.targets[0]
        before = target.deals
        for path, form in (
            (f"/g/{target.token}/deal", {"action": "save", **GOOD_FORMS[target.game]}),
            (f"/g/{target.token}/deal/1/edit", {"action": "save", "version": "0"}),
            (f"/g/{target.token}/undo", {"version": "0"}),
            ("/new", {"game": "boulmous", "player0": "A", "player1": "B", "player2": "C"}),
        ):
            # Undo without its token, from no page of this site: asked first (the
            # confirmation page, issue 38), nothing taken back.
            expected = 302 if path.endswith("/undo") else 400
            for _ in range(5):
                answer = self.phone.request("POST", path, form, csrf=False)
                if answer is None or answer.status != expected:
                    self.problem("post without CSRF not refused", f"{path}: {answer}")
        self.check(target)
        if target.deals != before:
            self.problem("post without CSRF wrote", target.token[:8])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=3000, help="mutated records imported")
    parser.add_argument("--rounds", type=int, default=2600, help="rounds at a table (~9 requests)")
    parser.add_argument("--seconds", type=float, default=1500, help="stop after this long")
    parser.add_argument("--threads", type=int, default=4, help="threads per server worker")
    args = parser.parse_args()
    if not example_records():
        print(
            f"bench/fuzz.py: no example records in {EXAMPLES} (the fuzz mutates them): "
            "run it from a whole checkout of the repository",
            file=sys.stderr,
        )
        return 2
    data = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
    began = time.monotonic()
    with Served(data, threads=args.threads) as server:
        fuzz = Fuzz(server, began + args.seconds)

        @settings(
            max_examples=args.records, deadline=None, suppress_health_check=QUIET, database=None
        )
        @given(data=mutated_records())
        def imports(data: bytes) -> None:
            fuzz.import_mutated(data)

        @settings(
            max_examples=args.rounds, deadline=None, suppress_health_check=QUIET, database=None
        )
        @given(
            pick=st.integers(0, 10**6),
            edits=st.lists(EDITS, min_size=4, max_size=4),
            picks=st.lists(st.integers(0, 10**6), min_size=2, max_size=2),
        )
        def rounds(pick: int, edits: list[Edits], picks: list[int]) -> None:
            fuzz.round(pick, edits, picks)

        fuzz.import_examples()
        for game in sorted(GOOD_FORMS):
            fuzz.targets.append(fuzz.fresh(game))
        imports()
        rounds()
        fuzz.without_csrf()
        for target in fuzz.targets:
            fuzz.check(target)
        fuzz.phone.close()
        seconds = time.monotonic() - began
        server.stop()
        tracebacks = server.tracebacks()
    tally = fuzz.tally
    print(
        f"{tally.requests} requests through gunicorn in {seconds:.0f} s (data {data}): "
        + ", ".join(f"{s}: {n}" for s, n in sorted(tally.by_status().items()))
    )
    print("by route:\n" + tally.table())
    kinds = tally.by_kind()
    print("409 by kind: " + (", ".join(f"{k}: {n}" for k, n in sorted(kinds.items())) or "none"))
    print(
        "corrections posted with their form's version: "
        + ", ".join(f"{s}: {n}" for s, n in sorted(fuzz.corrections.items()))
    )
    print(
        f"games imported: {fuzz.imported}; exports checked: {fuzz.checked_games} "
        f"({fuzz.checked_deals} deals)"
    )
    lost, doubled = fuzz.problems["deals lost"], fuzz.problems["deals doubled"]
    unanswered = sum(tally.unanswered.values())
    print(
        f"5xx: {tally.server_errors}; tracebacks in the server's log: {tracebacks}; "
        f"no answer: {unanswered}; games with deals lost: {lost}, doubled: {doubled}; "
        f"stale pages: {fuzz.problems['stale page']}; 409 with no kind: {kinds['unnamed']}"
    )
    for line in tally.errors + fuzz.samples:
        print("  " + line)
    bad = tally.server_errors or tracebacks or unanswered or sum(fuzz.problems.values())
    return 1 if bad or kinds["unnamed"] else 0


if __name__ == "__main__":
    sys.exit(main())
