#!/usr/bin/env bash
# The paced-tables benchmark (bench/http.py, part b, SQLite) on two checkouts of
# Referee, alternately, in one run on one machine: the ratio of their figures is
# what counts, since this machine's timings drift from one hour to the next.
#
#   bash bench/paced_compare.sh OLD_CHECKOUT NEW_CHECKOUT [LEVELS] [ROUNDS]
#
# Each checkout is put first on PYTHONPATH (the app, its templates and static files
# are read from it); this checkout's virtual environment and bench/http.py run both.
# Both need their French catalogue compiled (`pybabel compile -d translations`).
# Prints each run's level lines: p95, the server's cores and its CPU per deal.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
old="$(cd "$1" && pwd)"
new="$(cd "$2" && pwd)"
levels="${3:-300}"
rounds="${4:-2}"
for round in $(seq 1 "$rounds"); do
  for tree in "$old" "$new"; do
    echo "== round $round: $tree ($(git -C "$tree" rev-parse --short HEAD))"
    PYTHONPATH="$tree" "$here/.venv/bin/python" "$here/bench/http.py" --database sqlite \
      --no-flat --follow 0 --levels "$levels" 2>&1 | grep -E "tables:|p95 by|largest" || true
  done
done
