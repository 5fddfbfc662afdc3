"""Settings for the BlogNomic site, read once from the environment.

With nothing set the site runs on the embedded default: a SQLite file, Celery tasks run in-process and a
local-memory cache. ``DATABASE_URL`` switches to PostgreSQL, ``REDIS_URL`` to Redis as Celery broker and cache.
Production needs ``DEBUG=0``, ``SECRET_KEY`` and ``ALLOWED_HOSTS`` (see docs/running/configuration.md).
"""

from datetime import timedelta
from pathlib import Path

from celery.schedules import crontab
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from blognomic.env import (
    database_from_env,
    email_from_env,
    env_bool,
    env_float,
    env_list,
    env_networks,
    env_str,
    redis_url_from_env,
    site_url_from_env,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=True)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-development-key-only-for-the-embedded-default"
# The demo's clock (blognomic/running/demo_clock.py): `make run` turns it on so an admin can move the demo's
# time ahead to watch deadlines pass. Never for a real game: refused here when DEBUG is off, and by
# `check --deploy` whatever DEBUG is.
DEMO_CLOCK = env_bool("DEMO_CLOCK", default=False)
if DEMO_CLOCK and not DEBUG:
    raise ImproperlyConfigured(
        "DEMO_CLOCK moves the game's clock for the demo only: it may not be on when DEBUG is off."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "axes",
    "csp",
    "dynasties",
    "blognomic",
    "blognomic.web",
    "blognomic.community.messaging",
    "blognomic.community.commitments",
    "blognomic.community.tokens",
    "blognomic.flows.amendments",
    "blognomic.moving.wordpress",
    "blognomic.running",
    "votes",
    "ruleset",
    "gndt",
]

MIDDLEWARE = [
    # Outermost, so every log line of a request, the health check's included, names the request.
    "blognomic.running.logs.RequestIdMiddleware",
    "blognomic.running.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    # Before anything reads the session or the database: PostgreSQL cannot compare text holding a NUL byte.
    "blognomic.web.middleware.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Django's, but an unreachable database while saving the session is an outage, not a bad request.
    "blognomic.web.sessions.OutageAwareSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "blognomic.web.middleware.BadInputMiddleware",
    # A retried API write (same Idempotency-Key) is answered as the first was, and runs once.
    "blognomic.community.api.idempotency.IdempotencyMiddleware",
    # Outside the page cache, so that pages it serves say who may keep them, as rendered ones do.
    "blognomic.web.private_pages.PrivatePagesMiddleware",
    # Last, so the session, the user, CSRF and messages are known and every outer middleware still runs on a
    # page served from the cache.
    "blognomic.web.page_cache.PageCacheMiddleware",
]

ROOT_URLCONF = "blognomic.urls"
WSGI_APPLICATION = "blognomic.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "blognomic.blog.context_processors.sidebar",
                "blognomic.web.page_cache.csrf_placeholder",
            ],
            "builtins": ["blognomic.templatetags.blog_tags"],
        },
    },
]

DATABASES = {"default": database_from_env(BASE_DIR)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "dynasties.User"
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "front_page"
LOGOUT_REDIRECT_URL = "front_page"

# Failed logins are limited (django-axes, blognomic/web/auth.py): after AXES_FAILURE_LIMIT failures in a row
# with one name from one address, that name may not log in from that address for AXES_COOLOFF_TIME (from
# elsewhere it still may); after LOGIN_ADDRESS_FAILURE_LIMIT failures from one address with any names, that
# address may not log in at all for as long.
AUTHENTICATION_BACKENDS = [
    "blognomic.web.auth.LoginLimitBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "blognomic.web.auth.LoginLimitHandler"
AXES_FAILURE_LIMIT = 5
LOGIN_ADDRESS_FAILURE_LIMIT = 20
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "blognomic.web.addresses.client_address"
AXES_VERBOSE = False

# No inline script or style anywhere: scripts and styles come from the site's own static files, and htmx
# is told not to add its indicator styles (base.html's htmx-config).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

REDIS_URL = redis_url_from_env()
if REDIS_URL:
    # Redis going away makes the site slower, never broken or stale (blognomic/web/sturdy_cache.py).
    CACHES = {"default": {"BACKEND": "blognomic.web.sturdy_cache.SturdyRedisCache", "LOCATION": REDIS_URL}}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_TASK_ALWAYS_EAGER = False
    # Every request of a logged-in player reads the session: from Redis, written through to the database so a
    # restarted Redis logs no one out (Django's cached_db, whose cached copy the page cache reads in the same
    # round trip as the content version). Without Redis the database alone, which every worker shares.
    SESSION_ENGINE = "blognomic.web.sessions"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CELERY_BROKER_URL = "memory://"
    CELERY_RESULT_BACKEND = "cache+memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
# Whole pages are cached under a key every write moves on (blognomic/web/page_cache.py, blognomic/web/freshness.py).
# The content version lives in Redis when it is configured and otherwise in the database, which every worker
# sees; "memory" is for a single process only.
PAGE_CACHE = env_bool("PAGE_CACHE", default=True)
# The longest a page is kept with no write; a page that shows something changing with time sooner (an age, a
# verdict) is kept only until then (votes/horizon.py).
PAGE_CACHE_SECONDS = int(env_float("PAGE_CACHE_SECONDS", 600))
# How many API requests one personal access token may make a minute before it is answered 429 with Retry-After.
API_TOKEN_RATE = int(env_float("API_TOKEN_RATE", 120))
CONTENT_VERSION_STORE = env_str("CONTENT_VERSION_STORE", "cache" if REDIS_URL else "database")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker takes a task only when a process of its pool is free: one holding tasks it has not started when Redis
# goes away exits ("Unrecoverable error" as it puts them back) instead of waiting for Redis to return. Every job
# is periodic and idempotent, so a task left in Redis is sent again by beat anyway.
CELERY_WORKER_DISABLE_PREFETCH = True
# Nothing reads a task's result: storing it is one more write to Redis, which fails while Redis is away.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True

# The schedule lives in code so every deployment runs the same jobs; each task is idempotent.
# BEAT_EVERY_SECONDS runs every job at that interval instead (for tests and for trying the jobs out).
_BEAT_EVERY = env_float("BEAT_EVERY_SECONDS", 0) if env_str("BEAT_EVERY_SECONDS") else None


def _every(schedule):
    return _BEAT_EVERY or schedule


CELERY_BEAT_SCHEDULE = {
    "heartbeat": {"task": "blognomic.tasks.heartbeat", "schedule": _every(60.0)},
    "warm-statistics": {"task": "blognomic.tasks.warm_statistics", "schedule": _every(crontab(minute="*"))},
    "flag-resolvable-matters": {
        "task": "votes.tasks.flag_resolvable_matters",
        "schedule": _every(crontab(minute="*/5")),
    },
    "mark-stale-proposals": {"task": "votes.tasks.mark_stale_proposals", "schedule": _every(crontab(minute="*/15"))},
    "auto-resolve-matters": {"task": "votes.tasks.auto_resolve_matters", "schedule": _every(crontab(minute="*/5"))},
    "announce-seasonal-hiatus": {
        "task": "dynasties.tasks.announce_seasonal_hiatus",
        "schedule": _every(crontab(minute=1)),
    },
    "report-idle-candidates": {
        "task": "blognomic.tasks.report_idle_candidates",
        "schedule": _every(crontab(hour=9, minute=0)),
    },
    "apply-gndt-effects": {"task": "gndt.tasks.apply_scheduled_effects", "schedule": _every(crontab(minute="*"))},
    "send-notices": {"task": "votes.tasks.send_notices", "schedule": _every(crontab(minute="*"))},
    "email-digests": {"task": "votes.tasks.email_digests", "schedule": _every(crontab(hour=7, minute=0))},
    "deliver-webhooks": {"task": "dynasties.tasks.deliver_webhooks", "schedule": _every(crontab(minute="*"))},
    "send-outbox": {"task": "dynasties.tasks.send_outbox", "schedule": _every(crontab(minute="*"))},
    "write-backup": {"task": "blognomic.tasks.write_backup", "schedule": _every(crontab(hour=3, minute=30))},
    "forget-idempotency-keys": {
        "task": "blognomic.community.tokens.tasks.forget_idempotency_keys",
        "schedule": _every(crontab(minute=17)),
    },
}

# /healthz/ (blognomic/running/health.py) says beat is not ok when its heartbeat is older than this. Checked by default
# where beat runs beside the site (with Redis, as in docker-compose; `manage.py run` turns it on itself).
HEALTH_CHECKS_BEAT = env_bool("HEALTH_CHECKS_BEAT", default=bool(REDIS_URL))
BEAT_STALE_SECONDS = max(300, 3 * int(_BEAT_EVERY or 60))

# Backups (blognomic/running/backups.py): one a day into BACKUP_DIR (empty: off), the newest BACKUP_KEEP days kept.
BACKUP_DIR = env_str("BACKUP_DIR")
BACKUP_KEEP = int(env_float("BACKUP_KEEP", 14))

# Mail: EMAIL_URL names the server (blognomic/env.py); unset, mail is printed to the console.
globals().update(email_from_env())
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "BlogNomic <blognomic@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The site's public address: every link in a mail or a webhook event starts with it.
SITE_URL = site_url_from_env("http://127.0.0.1:8000")
SITE_URL_IS_DEFAULT = not env_str("SITE_URL")
# A password reset link works once (it changes the password it was made for) and for three days at most;
# an address confirmation link as long.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600
# Webhooks go to public internet addresses only. An operator whose chat server is deliberately on the same
# network may name it here (WEBHOOK_ALLOWED_NETWORKS=192.168.1.20/32); empty by default.
WEBHOOK_ALLOWED_NETWORKS = env_networks("WEBHOOK_ALLOWED_NETWORKS")

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

# Behind the reverse proxy (docker-compose.yml's Caddy), which sets X-Forwarded-Proto and appends the
# client's address to X-Forwarded-For; gunicorn is then reachable only from the proxy.
BEHIND_TLS_PROXY = env_bool("BEHIND_TLS_PROXY", default=False)
CLIENT_ADDRESS_FROM_PROXY = BEHIND_TLS_PROXY

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(env_float("SECURE_HSTS_SECONDS", 31536000))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    if BEHIND_TLS_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Logs go to standard error, one line per event with the request or task it belongs to (blognomic/running/logs.py);
# LOG_LEVEL=INFO adds a line per request and per job. The worker and beat log the same way.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"context": {"()": "blognomic.running.logs.RequestAndTaskFilter"}},
    "formatters": {"line": {"()": "blognomic.running.logs.OneLineFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["context"], "formatter": "line"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
