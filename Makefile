# Referee: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install test lint typecheck unit bench run clean

install: $(STAMP)

# Re-installs only when pyproject.toml changes; the package itself is editable.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

lint: install
	$(BIN)/ruff check referee tests bench
	$(BIN)/ruff format --check referee tests bench

typecheck: install
	$(BIN)/mypy --strict referee/engine

unit: install
	$(BIN)/pytest --cov --cov-report=term

test: lint typecheck unit

bench: install
	$(BIN)/python bench/engine.py

# The table app (issue 5) is not built yet: say so rather than pretend to serve.
run: install
	@echo "The table app is not built yet (issue 5). Meanwhile: $(BIN)/referee score FILE"
	@exit 1

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .coverage build *.egg-info
