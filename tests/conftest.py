"""Shared fixtures: eager Celery, a game with players built through the real services, a browser, the site's sweep."""

from __future__ import annotations

import os
import time
from datetime import datetime

import pytest
from django.db.backends.signals import connection_created

from dynasties import outbound
from tests.factories import T0
from tests.isolation import FAST_HASHERS, resolve_offline, run_tasks_in_process
from tests.site_sweep import site_sweep  # noqa: F401  (one sweep of the site for the whole session)
from tests.site_writes import writes_through_the_site

# Playwright's sync API runs an event loop in the test thread; Django must still allow ORM calls there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


# What pytest-django gives a test that uses the database; a test with none of them (nor the django_db mark) is
# refused any query, so it runs the same whatever DATABASE_URL names.
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback", "live_server"}
)


def uses_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
    )


def one_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("one_database") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The suite runs once on SQLite and once on PostgreSQL. On PostgreSQL, a test that cannot touch the database
    (pure rules, parsers, settings, the tools that start their own SQLite site) is skipped, and so is one marked
    ``one_database`` (read-only checks of pages the database does not shape: accessibility, HTML, layout).
    Skipped here, before their fixtures start a browser or a live server for nothing."""
    from django.db import connection

    if connection.vendor == "sqlite":
        return
    no_database = pytest.mark.skip(reason="uses no database: run on the suite's SQLite run")
    once = pytest.mark.skip(reason="one_database: checked on the suite's SQLite run")
    for item in items:
        if not uses_database(item):
            item.add_marker(no_database)
        elif one_database(item):
            item.add_marker(once)


# PostgreSQL's test database, kept fit between tests (see ``pytest_runtest_teardown``): vacuumed at least this
# often, and at once when a table is planned as empty.
VACUUM_EVERY = 30.0
_upkeep = {"connection": None, "vacuumed": time.monotonic()}
# Tables whose planner statistics say they hold no rows while their files hold pages: the planner then counts
# every row inserted since as none.
PLANNED_EMPTY = """
    SELECT quote_ident(relname) FROM pg_class
    WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace AND reltuples = 0 AND relpages > 0
"""
OTHER_TRANSACTIONS = """
    SELECT count(*) FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
"""


def _plan_with_the_tables_as_they_are(sender, connection, **kwargs) -> None:
    """On PostgreSQL, every statement is planned for the tables' sizes when it runs, not once for a session.

    PostgreSQL keeps a generic plan of a statement it runs often, foreign-key checks among them, made with
    the sizes its tables had then. A table the vacuum above found empty is planned as empty, and a test that
    fills it gets sequential scans for its checks: the GNDT's 50,000-update test checked each new update by
    reading all those before it, and its teardown (where Django checks the deferred constraints) took 125 s
    in a run of the tests before it, against 10 s planning each check afresh."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET plan_cache_mode = force_custom_plan")


connection_created.connect(_plan_with_the_tables_as_they_are, dispatch_uid="tests.plan_with_the_tables_as_they_are")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """Keeps PostgreSQL's planner statistics true between tests, once each test's transaction is rolled back.

    Rolled-back rows stay in a table's file as dead rows until a vacuum, and autovacuum is off on the project's
    CI server. An ``ANALYZE`` run inside a test (an archive import runs one) then records, outside any
    transaction, a table with pages and no rows, and the planner multiplies every later size of it by zero:
    a later test that builds a 50,000-update log ran past 400 s instead of 10. A vacuum of such a table
    empties its file, so it is planned by its size again. The vacuum waits for no one: it is put off while
    another transaction is open (the site's sweep, say), since it could then neither see the dead rows as
    dead nor empty the file."""
    if nextitem is None and _upkeep["connection"] is not None:
        _upkeep["connection"].close()  # the last test: its teardown drops the test database
    yield
    if nextitem is None or not uses_database(item):
        return
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    upkeep = _upkeep_connection(connection.settings_dict)
    due = time.monotonic() - _upkeep["vacuumed"] >= VACUUM_EVERY
    planned_empty = [row[0] for row in upkeep.execute(PLANNED_EMPTY)]
    if not (due or planned_empty) or upkeep.execute(OTHER_TRANSACTIONS).fetchone()[0]:
        return
    upkeep.execute("VACUUM" if due else f"VACUUM {', '.join(planned_empty)}")
    if due:
        _upkeep["vacuumed"] = time.monotonic()


def _upkeep_connection(database: dict):
    import psycopg

    upkeep = _upkeep["connection"]
    if upkeep is None or upkeep.closed or upkeep.info.dbname != database["NAME"]:
        given = {"user": database["USER"], "password": database["PASSWORD"], "host": database["HOST"]}
        upkeep = _upkeep["connection"] = psycopg.connect(
            dbname=database["NAME"],
            port=database["PORT"] or None,
            autocommit=True,
            **{name: value for name, value in given.items() if value},
        )
    return upkeep


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def static_files_looked_up_when_asked(settings):
    """WhiteNoise looks a static file up when it is asked for, as in development, instead of listing STATIC_ROOT
    each time a test client starts: 27 ms for its 700 files, for every client of the suite, and a listing that
    failed when the other database's run, collecting the static files, rewrote one under it."""
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(autouse=True)
def one_database_reads_only(request, monkeypatch):
    """A test marked ``one_database`` runs on SQLite alone, so it may read the site but write nothing to the game
    through it: such a test fails here, naming the requests that wrote, and belongs on both databases."""
    if not one_database(request.node):
        yield
        return
    with writes_through_the_site(monkeypatch) as written:
        yield
    assert not written, (
        f"run on one database alone, yet wrote through the site at {sorted(set(written))}: what a request writes is "
        "checked on both databases, so drop the test's one_database mark"
    )


@pytest.fixture(autouse=True)
def eager_celery(settings):
    run_tasks_in_process()
    yield


@pytest.fixture(autouse=True)
def fresh_page_cache(settings):
    """Pages are cached in tests as on the site, with the content version in this process's memory (each test
    runs inside one transaction, which never commits); a new version per test, so no test sees another's.
    The cache starts empty too: a test's rolled-back rows may hand their ids to the next test's."""
    from django.core.cache import cache

    from blognomic.web.freshness import bump_version

    settings.CONTENT_VERSION_STORE = "memory"
    cache.clear()
    bump_version()
    yield


@pytest.fixture(autouse=True)
def no_real_dns(monkeypatch):
    monkeypatch.setattr(outbound, "resolve", resolve_offline)


@pytest.fixture
def postgres_only():
    """Row locking is tested on PostgreSQL (the suite's second run); SQLite serialises every write anyway."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locking is tested on PostgreSQL (the suite's second run)")


@pytest.fixture
def t0() -> datetime:
    return T0


@pytest.fixture(scope="session")
def chromium():
    """One Chromium for the whole run; tests ask for ``browser``."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def browser(chromium):
    """The run's Chromium, with every page a test opened closed when it ends. A page left open goes on
    polling the live server, which outlives the test (a pending matter's tally asks every 30 seconds), and
    its requests then land in a later test: once in the middle of a check that no request writes."""
    before = set(chromium.contexts)
    yield chromium
    for context in chromium.contexts:
        if context not in before:
            context.close()


SCREENSHOTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), ".run", "screenshots")


@pytest.fixture
def screenshot():
    """``screenshot(page or locator, "name.png", full_page=...)`` keeps a picture in ``.run/screenshots/`` for a
    person to look at, on the SQLite run: the PostgreSQL run draws the same pages, and its pictures would only
    overwrite the first."""
    from django.db import connection

    os.makedirs(SCREENSHOTS, exist_ok=True)
    here = connection.vendor == "sqlite"

    def take(target, name: str, *, full_page: bool = False) -> None:
        if here:
            # full_page only when asked: a locator's screenshot takes no such argument at all.
            target.screenshot(path=os.path.join(SCREENSHOTS, name), **({"full_page": True} if full_page else {}))

    return take


@pytest.fixture
def wsgi_app():
    """The site's WSGI application, for a client that speaks WSGI rather than Django's test client (schemathesis,
    httpx): kept from closing the test's connection after each request, as the test client does, so every
    request reads the data the test made inside its transaction."""
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield get_wsgi_application()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
