# Two entry points: `make run` (install and run the demo site) and `make test` (the whole suite).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
HOST   ?= 127.0.0.1:8000
DOCS_HOST ?= 127.0.0.1:8001
# Material for MkDocs prints a notice about its future on every build; the build's own warnings still show.
MKDOCS = NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs
# The PostgreSQL run's database: the one scripts/ensure-test-services.sh prints, unless PG_URL names another.
PG_URL ?=
POSTGRES_URL = $(or $(PG_URL),$$(cat .run/pg-url))
# Python keeps each module it compiles as bytecode beside it (in __pycache__, which git ignores) and later
# processes read that instead of compiling again. Some containers turn this off (PYTHONDONTWRITEBYTECODE): then
# each run of the suite, and each of the web, worker and manage.py processes its tests start, compiled the site
# and the tests anew, assertions rewritten included (half of collecting the suite).
export PYTHONDONTWRITEBYTECODE :=
PYTEST = $(BIN)/python -m pytest

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(BIN)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

# The site and the development tools in one pip run, which resolves and builds the project once where two runs
# did it twice (about ten seconds of a clean clone's `make test`); it installs all the site needs, so `make run`
# has nothing left to install either.
$(BIN)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev]'
	touch $(BIN)/.installed $@

install: $(BIN)/.installed

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo
	DEMO_CLOCK=1 $(BIN)/python manage.py run $(HOST)

# The linter and the formatter's check, the import contract (the layers the README draws), the type checker over the
# modules pyproject.toml lists, a check that every model change has its migration and a strict build of the
# documentation (any warning, a broken link included, fails), then the whole suite on SQLite
# and on PostgreSQL side by side, each log under .run/ and both printed when both have ended; Redis and Chromium
# tests run in both.
test: $(BIN)/.installed-dev test-services
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	env -u DATABASE_URL $(BIN)/python manage.py makemigrations --check --dry-run
	$(MKDOCS) build --strict --quiet
	PYTHON=$(BIN)/python scripts/test-both-databases.sh "$(POSTGRES_URL)"

# The suite on one database alone.
test-sqlite: $(BIN)/.installed-dev test-services
	env -u DATABASE_URL $(PYTEST)

test-postgres: $(BIN)/.installed-dev test-services
	DATABASE_URL="$(POSTGRES_URL)" $(PYTEST)

test-services:
	@mkdir -p .run
	@scripts/ensure-test-services.sh > .run/pg-url

lint: $(BIN)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

# The documentation site (mkdocs.yml, docs/), served while you edit it; beside `make run`'s port, not on it.
docs: $(BIN)/.installed-dev
	$(MKDOCS) serve -a $(DOCS_HOST)

bench: $(BIN)/.installed-dev
	$(BIN)/python benchmarks/run_all.py

# The site's first admin, on a new or freshly imported site: `make first-admin NAME="Ann" EMAIL=ann@example.org`.
first-admin: install
	@test -n "$(NAME)" -a -n "$(EMAIL)" || { echo 'Give NAME="…" and EMAIL=…'; exit 2; }
	$(BIN)/python manage.py create_first_admin "$(NAME)" "$(EMAIL)"

.PHONY: first-admin install run test test-sqlite test-postgres test-services lint docs bench
