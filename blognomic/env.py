"""Reading settings from the environment, with messages that name the variable at fault.

Used only by ``blognomic.settings``; nothing else reads the environment.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import dj_email_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}.")


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


def env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or not raw.strip():
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number of seconds; got {raw!r}.") from None
    if value <= 0:
        raise ImproperlyConfigured(f"{name} must be greater than zero; got {raw!r}.")
    return value


def database_from_env(base_dir: Path) -> dict:
    """The default database: ``DATABASE_URL`` (PostgreSQL) if set, else a SQLite file in the project."""
    url = env_str("DATABASE_URL")
    if not url:
        return {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": base_dir / "db.sqlite3",
            # A file, not memory, so Celery worker processes started by tests see the test database;
            # one per test process, so two test runs in one checkout do not collide.
            "TEST": {"NAME": base_dir / ".run" / f"test-db-{os.getpid()}.sqlite3"},
            "OPTIONS": {"timeout": 20},
        }
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
        raise ImproperlyConfigured(
            f"DATABASE_URL must start with postgres:// (or sqlite:///); got scheme {parts.scheme or 'none'!r}."
        )
    if parts.scheme != "sqlite" and (not parts.hostname or not parts.path.strip("/")):
        raise ImproperlyConfigured(
            "DATABASE_URL must name a host and a database, like postgres://user:password@127.0.0.1:5432/blognomic."
        )
    try:
        config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    except ValueError as error:
        raise ImproperlyConfigured(f"DATABASE_URL is malformed: {error}") from None
    return config


def redis_url_from_env() -> str:
    """``REDIS_URL`` checked for shape, or "" when Redis is not configured."""
    url = env_str("REDIS_URL")
    if not url:
        return ""
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss"}:
        raise ImproperlyConfigured(f"REDIS_URL must start with redis:// or rediss://; got {url!r}.")
    try:
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        raise ImproperlyConfigured(f"REDIS_URL has a port that is not a number: {url!r}.") from None
    if not parts.hostname:
        raise ImproperlyConfigured(f"REDIS_URL must name a host, like redis://127.0.0.1:6379/0; got {url!r}.")
    db = parts.path.strip("/")
    if db and not db.isdigit():
        raise ImproperlyConfigured(f"REDIS_URL must end in a database number such as /0; got {url!r}.")
    return url


def env_networks(name: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """A comma-separated list of IP networks (``192.168.1.20/32, fd00::/64``); empty when unset."""
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ImproperlyConfigured(f"{name} must list IP networks such as 192.168.1.20/32; got {item!r}.") from None
    return tuple(networks)


# Schemes dj-email-url does not know, read as the SMTP they name: implicit TLS on 465, STARTTLS on 587.
_SMTP_VARIANTS = {"smtp+ssl": ("EMAIL_USE_SSL", 465), "smtp+tls": ("EMAIL_USE_TLS", 587)}
EMAIL_SCHEMES = ("smtp", "smtp+ssl", "smtp+tls", "submission", "console", "file", "memory", "dummy")
EMAIL_TIMEOUT_SECONDS = 10


def email_from_env() -> dict:
    """Django's ``EMAIL_*`` settings from ``EMAIL_URL`` (read by dj-email-url); the console when unset.

    ``smtp://user:pass@host:587/?tls=True`` (STARTTLS), ``smtp+ssl://user:pass@host`` (TLS from the start, port
    465), ``console://`` (mail printed where the server logs). A user name or password holding ``@`` or ``:``
    is written percent-encoded. A mail server that never answers gives up after ten seconds unless
    ``?timeout=`` says otherwise, so a send never hangs a worker.
    """
    url = env_str("EMAIL_URL")
    if not url:
        return {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    scheme = urlsplit(url).scheme.lower()
    if scheme not in EMAIL_SCHEMES:
        raise ImproperlyConfigured(
            f"EMAIL_URL must start with one of {', '.join(s + '://' for s in EMAIL_SCHEMES)}; "
            f"got scheme {scheme or 'none'!r}."
        )
    variant = _SMTP_VARIANTS.get(scheme)
    try:
        config = dj_email_url.parse("smtp" + url[len(scheme) :] if variant else url)
    except ValueError as error:  # a port or a timeout that is not a number
        raise ImproperlyConfigured(f"EMAIL_URL is malformed: {error}") from None
    if variant:
        flag, port = variant
        config.update(EMAIL_USE_SSL=False, EMAIL_USE_TLS=False)
        config[flag] = True
        if urlsplit(url).port is None:
            config["EMAIL_PORT"] = port
    if config.get("EMAIL_USE_SSL") and config.get("EMAIL_USE_TLS"):
        raise ImproperlyConfigured("EMAIL_URL may ask for tls or ssl, not both.")
    if config.get("EMAIL_TIMEOUT") is None:
        config["EMAIL_TIMEOUT"] = EMAIL_TIMEOUT_SECONDS
    config.pop("SERVER_EMAIL", None)
    config.pop("DEFAULT_FROM_EMAIL", None)  # DEFAULT_FROM_EMAIL is its own variable
    return {key: value for key, value in config.items() if value is not None}


def site_url_from_env(default: str) -> str:
    """``SITE_URL``, the public address every link in a mail or a webhook event starts with, without a
    trailing slash; refused unless it is an http(s) address with a host."""
    url = env_str("SITE_URL", default).rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname or parts.query or parts.fragment:
        raise ImproperlyConfigured(
            f"SITE_URL must be the site's public address, like https://nomic.example.org; got {url!r}."
        )
    return url
