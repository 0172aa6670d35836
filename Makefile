# Referee: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

PO := translations/fr/LC_MESSAGES/messages.po
MO := translations/fr/LC_MESSAGES/messages.mo

.PHONY: install test test-postgres test-deploy test-wheel wheel lint typecheck unit bench run \
	translations screenshots clean system system-test system-deploy

install: $(STAMP) $(MO)

# The Debian packages, listed once in tools/debian-packages.sh: installed when
# missing if make runs as root; otherwise it stops with the one command to run.
system:
	@bash tools/debian-packages.sh run
system-test:
	@bash tools/debian-packages.sh test
system-deploy:
	@bash tools/debian-packages.sh deploy

# Re-installs only when pyproject.toml changes; the package itself is editable.
$(STAMP): pyproject.toml | system
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# The French catalogue is compiled from its source; the .mo is not committed.
$(MO): $(PO) $(STAMP)
	$(BIN)/pybabel -q compile -d translations -D messages

# After changing a user-facing string: extract the message ids (templates, web and
# engine), merge them into the French catalogue (its source, edited as a .po), check
# that each has its French, compile.
translations: $(STAMP)
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k lazy_gettext -k _pl:1c,2 -k N_ -k NC_:1c,2 \
		--no-location --sort-output -o translations/messages.pot .
	$(BIN)/pybabel -q update -i translations/messages.pot -d translations -D messages \
		--no-fuzzy-matching --ignore-obsolete -w 100
	$(BIN)/python translations/check.py
	$(BIN)/pybabel -q compile -d translations -D messages

lint: install
	$(BIN)/ruff check referee tests bench tools translations
	$(BIN)/ruff format --check referee tests bench tools translations

typecheck: install
	$(BIN)/mypy --strict referee

unit: install system-test
	$(BIN)/pytest --cov --cov-report=term -m "not deploy"

test: lint typecheck unit

# The database tests again, on a throwaway PostgreSQL server (CI runs this too), with
# 16 phones writing to one game through one server and through two sharing it.
test-postgres: install
	eval "$$(bash .ci/postgres.sh start)" && $(BIN)/pytest -q tests/web tests/server/test_contention.py; \
		status=$$?; bash .ci/postgres.sh stop; exit $$status

# The deployment kit (deploy/): its systemd command line, and nginx and Caddy with
# their configurations in front of a real `referee serve`, slow clients included.
test-deploy: install system-deploy
	$(BIN)/pytest -q -m deploy -p no:cacheprovider

# The wheel, complete (templates, static files, the compiled catalogue, the fonts),
# in dist/; test-wheel installs it in a throwaway environment outside the checkout
# and plays a game through it: a page, a deal, a sheet, a backup.
wheel: install
	rm -rf dist build/lib
	$(BIN)/python -m pip wheel --quiet --no-deps --disable-pip-version-check . -w dist
test-wheel: wheel
	$(BIN)/python tools/smoke_wheel.py dist/referee-*.whl

# The browser tests and the sheet's picture again, kept in docs/screenshots/.
screenshots: install
	REFEREE_SCREENSHOTS=1 $(BIN)/pytest -q tests/e2e tests/games/pad/test_browser.py tests/web/test_sheets.py tests/web/test_concours_prints.py \
		-k "e2e or browser or png or concours_prints"

bench: install
	$(BIN)/python bench/engine.py

# Serve the table app on http://127.0.0.1:5000 (SQLite in instance/, upgraded first).
# HOST=0.0.0.0 make run: open it from the phones on the same Wi-Fi.
HOST ?= 127.0.0.1
PORT ?= 5000
run: install
	$(BIN)/referee serve --host $(HOST) --port $(PORT)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage build dist *.egg-info $(MO)
