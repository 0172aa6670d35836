# Referee: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

PO := translations/fr/LC_MESSAGES/messages.po
MO := translations/fr/LC_MESSAGES/messages.mo

.PHONY: install test test-postgres lint typecheck unit bench run translations screenshots clean

install: $(STAMP) $(MO)

# Re-installs only when pyproject.toml changes; the package itself is editable.
$(STAMP): pyproject.toml
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

unit: install
	$(BIN)/pytest --cov --cov-report=term

test: lint typecheck unit

# The database tests again, on a throwaway PostgreSQL server (CI runs this too), with
# 16 phones writing to one game through one server and through two sharing it.
test-postgres: install
	eval "$$(bash .ci/postgres.sh start)" && $(BIN)/pytest -q tests/web tests/server/test_contention.py; \
		status=$$?; bash .ci/postgres.sh stop; exit $$status

# The browser tests and the sheet's picture again, kept in docs/screenshots/.
screenshots: install
	REFEREE_SCREENSHOTS=1 $(BIN)/pytest -q tests/e2e tests/web/test_sheets.py -k "e2e or png"

bench: install
	$(BIN)/python bench/engine.py

# Serve the table app on http://127.0.0.1:5000 (SQLite in instance/, upgraded first).
# HOST=0.0.0.0 make run: open it from the phones on the same Wi-Fi.
HOST ?= 127.0.0.1
PORT ?= 5000
run: install
	$(BIN)/referee serve --host $(HOST) --port $(PORT)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage build *.egg-info $(MO)
