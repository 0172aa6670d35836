#!/usr/bin/env bash
# Start a throwaway PostgreSQL server on loopback for the database tests and print
# its DATABASE_URL. Usage: eval "$(bash .ci/postgres.sh start)"; bash .ci/postgres.sh stop
set -euo pipefail
DIR=${PGTEST_DIR:-/tmp/referee-pg}
PORT=${PGTEST_PORT:-55432}

bindir() {
  local ctl
  ctl=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$ctl" ] || return 1
  echo "$ctl"
}

as_postgres() {
  # PostgreSQL refuses to run as root: run its tools as the postgres user then.
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-start}" in
  start)
    if ! BIN=$(bindir); then
      bash "$(dirname "$0")/../tools/debian-packages.sh" postgres >&2
      BIN=$(bindir)
    fi
    rm -rf "$DIR" && mkdir -p "$DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$DIR"
    as_postgres "$BIN/initdb" -D "$DIR/data" -U referee --auth=trust -E UTF8 >/dev/null
    as_postgres "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
      -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=${PGTEST_FSYNC:-off}" start >/dev/null
    as_postgres "$BIN/createdb" -h 127.0.0.1 -p "$PORT" -U referee referee_test
    echo "export DATABASE_URL=postgresql://referee@127.0.0.1:$PORT/referee_test"
    ;;
  stop)
    BIN=$(bindir) && as_postgres "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null || true
    ;;
esac
