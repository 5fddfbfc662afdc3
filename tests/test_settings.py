"""Settings read from the environment: defaults, bad values stopped at start-up, production checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SERVICE_VARIABLES = {
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "EMAIL_URL",
    "SITE_URL",
}
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": "a-long-random-production-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "blognomic.example.org",
    "SITE_URL": "https://blognomic.example.org",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DATABASE_URL", "mysql://x@localhost/db"),
        ("DATABASE_URL", "postgres://"),
        ("DATABASE_URL", "not a url"),
        ("REDIS_URL", "http://127.0.0.1:6379/0"),
        ("REDIS_URL", "redis://127.0.0.1:notaport/0"),
        ("REDIS_URL", "redis://127.0.0.1:6379/zero"),
        ("EMAIL_URL", "smpt://mail.example.org:587"),
        ("EMAIL_URL", "smtp://mail.example.org:notaport/"),
        ("EMAIL_URL", "smtp://mail.example.org/?timeout=soon"),
        ("SITE_URL", "nomic.example.org"),
        ("SITE_URL", "ftp://nomic.example.org"),
    ],
)
def test_malformed_service_url_stops_start_up_naming_the_variable(variable, value):
    """A malformed DATABASE_URL or REDIS_URL stops start-up with a message naming the variable."""
    result = run_manage("check", env={variable: value})
    assert result.returncode != 0
    assert variable in result.stderr
    assert "Traceback" not in result.stderr.splitlines()[-1]


def test_production_settings_pass_check_deploy_without_warnings():
    """With DEBUG=0, SECRET_KEY and ALLOWED_HOSTS set, `check --deploy` reports nothing."""
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_production_without_secret_key_refuses_to_start():
    """DEBUG=0 without SECRET_KEY is refused rather than running with a known key."""
    result = run_manage("check", env={"DEBUG": "0", "ALLOWED_HOSTS": "x"})
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_embedded_default_uses_sqlite_eager_tasks_and_local_memory_cache():
    """Nothing set: a SQLite file, Celery in-process, a local-memory cache."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='blognomic.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'],"
        " s.SESSION_ENGINE)"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, check=True
    ).stdout
    # Sessions stay in the database: a local-memory copy in each worker would keep a logged-out session alive.
    assert out.split() == [
        "django.db.backends.sqlite3",
        "True",
        "django.core.cache.backends.locmem.LocMemCache",
        "django.contrib.sessions.backends.db",
    ]


def test_redis_url_switches_broker_cache_and_sessions():
    """REDIS_URL makes Redis the Celery broker and the cache, tasks stop running in-process, and sessions are
    read from Redis (written through to the database)."""
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='blognomic.settings'; django.setup();"
        "from django.conf import settings as s;"
        "print(s.CELERY_BROKER_URL, s.CELERY_TASK_ALWAYS_EAGER, s.CACHES['default']['BACKEND'], s.SESSION_ENGINE)"
    )
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/3"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == [
        "redis://127.0.0.1:6379/3",
        "False",
        "blognomic.web.sturdy_cache.SturdyRedisCache",
        "blognomic.web.sessions",
    ]
