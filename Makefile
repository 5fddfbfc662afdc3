# Two entry points: `make run` (install and run the demo site) and `make test` (the whole suite).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
HOST   ?= 127.0.0.1:8000
PG_URL ?= $(shell cat .run/pg-url 2>/dev/null)

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e .
	touch $@

$(BIN)/.installed-dev: $(BIN)/.installed
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

install: $(BIN)/.installed

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	$(BIN)/python manage.py run $(HOST)

# The import contract (the layers the README draws), then the whole suite on SQLite and again on
# PostgreSQL; Redis and Chromium tests run in both.
test: $(BIN)/.installed-dev
	@mkdir -p .run
	@scripts/ensure-test-services.sh > .run/pg-url
	$(BIN)/lint-imports
	env -u DATABASE_URL $(BIN)/pytest
	DATABASE_URL=$$(cat .run/pg-url) $(BIN)/pytest

lint: $(BIN)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: $(BIN)/.installed-dev
	$(BIN)/python benchmarks/run_all.py

.PHONY: install run test lint bench
