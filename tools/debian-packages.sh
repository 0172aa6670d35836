#!/usr/bin/env bash
# The Debian packages Referee needs, listed once: the Makefile (`make run`,
# `make test`), .ci/run and the container image (deploy/Dockerfile) all ask here.
#
#   tools/debian-packages.sh run|test|deploy|postgres
#                                             install what is missing (as root), or
#                                             print the one command to run, exit 1
#   tools/debian-packages.sh --list LIST      print the list
#
# run:  python3-venv builds the virtual environment; WeasyPrint draws the score
#       sheets with Pango (its fonts ship with the package, referee/fonts/), and
#       HarfBuzz's subsetter halves a sheet's time (WeasyPrint warns without it);
#       tzdata names the clubs' time zones (a concours's times; without it, UTC).
# test: pdftoppm (poppler) turns a sheet into a PNG; curl runs the examples of
#       docs/API.md as a reader would; tesseract-ocr reads the names back from
#       the result picture (OCR); the browser tests drive
#       Debian's Chromium (Playwright never downloads its own) through
#       Playwright's Node.js driver, which needs libatomic1 (seen missing on a
#       fresh debootstrap root).
# deploy: `make test-deploy` puts nginx and Caddy in front of a real server and
#       checks the units with systemd-analyze (deploy/). Kept apart from
#       `make test`: on a machine with systemd, installing nginx or Caddy also
#       starts them on port 80.
# postgres: `make test-postgres` starts a throwaway server (.ci/postgres.sh).
set -euo pipefail

RUN=(python3-venv libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 tzdata)
TEST=("${RUN[@]}" poppler-utils chromium libatomic1 curl tesseract-ocr)
DEPLOY=("${RUN[@]}" nginx-light caddy systemd)
POSTGRES=(postgresql)

list=0
if [ "${1:-}" = "--list" ]; then list=1; shift; fi
case "${1:-}" in
  run) wanted=("${RUN[@]}") ;;
  test) wanted=("${TEST[@]}") ;;
  deploy) wanted=("${DEPLOY[@]}") ;;
  postgres) wanted=("${POSTGRES[@]}") ;;
  *) echo "usage: $0 [--list] run|test|deploy|postgres" >&2; exit 2 ;;
esac
if [ "$list" = 1 ]; then echo "${wanted[*]}"; exit 0; fi

if ! command -v dpkg >/dev/null; then
  echo "Not a Debian system: install the equivalents of ${wanted[*]} yourself." >&2
  exit 0
fi
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "Referee needs these Debian packages first; run:" >&2
  echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "Installing the Debian packages Referee needs: ${missing[*]}" >&2
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
