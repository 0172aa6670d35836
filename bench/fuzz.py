"""A long fuzz of every form and of /import: mutated valid posts and records.

    .venv/bin/python bench/fuzz.py              # about 6,000 requests
    .venv/bin/python bench/fuzz.py --records 500 --forms 200

The same strategies as `tests/web/test_hostile.py` (tests/web/fuzz.py), many more
examples, through Flask's test client on a fresh SQLite database. Counts every
answer by status and fails (exit 1) on any 5xx or any error logged with a
traceback. Figures go to docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import io
import logging
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # `tests` for the strategies; not bench/ (its http.py shadows http)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from referee.app import create_app  # noqa: E402
from tests.web.fuzz import GOOD_FORMS, mutated_forms, mutated_records  # noqa: E402


class Tracebacks(logging.Handler):
    """Counts log records that carry an exception."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.count += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=3000, help="mutated records imported")
    parser.add_argument("--forms", type=int, default=600, help="mutated deal forms (5 requests)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="referee-fuzz-"))
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'fuzz.sqlite3'}",
            "SECRET_KEY": "fuzz",
            "WTF_CSRF_ENABLED": False,
            "RATE_LIMITS": {},
        }
    )
    tracebacks = Tracebacks()
    app.logger.addHandler(tracebacks)
    client = app.test_client()
    statuses: Counter[int] = Counter()
    quiet = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

    @settings(max_examples=args.records, deadline=None, suppress_health_check=quiet, database=None)
    @given(data=mutated_records())
    def imports(data: bytes) -> None:
        form = {"record": (io.BytesIO(data), "r.json")}
        response = client.post("/import", data=form, content_type="multipart/form-data")
        statuses[response.status_code] += 1
        if response.status_code == 302:
            statuses[client.get(response.headers["Location"]).status_code] += 1

    tokens: dict[str, str] = {}
    for game in GOOD_FORMS:
        form = {"game": game, "first_dealer": "0", "currency": "EUR"}
        form.update({f"player{i}": n for i, n in enumerate(["A", "B", "C", "D"])})
        tokens[game] = client.post("/new", data=form).headers["Location"]

    @settings(max_examples=args.forms, deadline=None, suppress_health_check=quiet, database=None)
    @given(game=st.sampled_from(sorted(GOOD_FORMS)), data=st.data())
    def forms(game: str, data: st.DataObject) -> None:
        form = data.draw(mutated_forms(game))
        base = tokens[game]
        for path in ("/deal", "/preview.json", "/deal/1/edit", "/judge"):
            statuses[client.post(base + path, data=form).status_code] += 1
        statuses[client.get(base).status_code] += 1

    started = time.perf_counter()
    imports()
    forms()
    seconds = time.perf_counter() - started
    total = sum(statuses.values())
    server_errors = sum(n for status, n in statuses.items() if status >= 500)
    print(
        f"{total} requests in {seconds:.0f} s: "
        + ", ".join(f"{status}: {n}" for status, n in sorted(statuses.items()))
    )
    print(f"5xx: {server_errors}; errors logged with a traceback: {tracebacks.count}")
    return 1 if server_errors or tracebacks.count else 0


if __name__ == "__main__":
    sys.exit(main())
