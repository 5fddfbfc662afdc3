"""Mail is configured like a Django deployment: one EMAIL_URL, DEFAULT_FROM_EMAIL and SITE_URL (DESIGN.md, Mail)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from blognomic.env import email_from_env, site_url_from_env
from tests.test_settings import PRODUCTION, run_manage

SMTP = "django.core.mail.backends.smtp.EmailBackend"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (
            "smtp://user:pass@mail.example.org:587/?tls=True",
            {
                "EMAIL_BACKEND": SMTP,
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 587,
                "EMAIL_HOST_USER": "user",
                "EMAIL_HOST_PASSWORD": "pass",
                "EMAIL_USE_TLS": True,
                "EMAIL_USE_SSL": False,
                "EMAIL_TIMEOUT": 10,
            },
        ),
        (
            "smtp+ssl://user:p%40ss@mail.example.org",
            {
                "EMAIL_BACKEND": SMTP,
                "EMAIL_HOST": "mail.example.org",
                "EMAIL_PORT": 465,
                "EMAIL_HOST_PASSWORD": "p@ss",
                "EMAIL_USE_SSL": True,
                "EMAIL_USE_TLS": False,
            },
        ),
        (
            "smtp+ssl://mail.example.org:2465/?timeout=30",
            {"EMAIL_PORT": 2465, "EMAIL_USE_SSL": True, "EMAIL_TIMEOUT": 30},
        ),
        (
            "smtp://127.0.0.1:2525",
            {
                "EMAIL_BACKEND": SMTP,
                "EMAIL_HOST": "127.0.0.1",
                "EMAIL_PORT": 2525,
                "EMAIL_USE_TLS": False,
                "EMAIL_USE_SSL": False,
            },
        ),
        ("console://", {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}),
    ],
)
def test_email_url_names_the_server_its_login_and_its_tls(monkeypatch, url, expected):
    """`smtp://user:pass@host:587/?tls=True`, `smtp+ssl://…` and `console://` are read as Django's EMAIL_*
    settings; a server that never answers gives up after ten seconds unless the address says otherwise."""
    monkeypatch.setenv("EMAIL_URL", url)
    config = email_from_env()
    assert {key: config.get(key) for key in expected} == expected


def test_without_email_url_mail_is_printed_to_the_console(monkeypatch):
    """“With none set, mail is printed to the console” (DESIGN.md), so `make run` shows what would be sent."""
    monkeypatch.delenv("EMAIL_URL", raising=False)
    assert email_from_env() == {"EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}


@pytest.mark.parametrize("url", ["smpt://mail.example.org", "mail.example.org:25", "smtp://mail.example.org:x/"])
def test_a_malformed_email_url_is_refused_naming_it(monkeypatch, url):
    monkeypatch.setenv("EMAIL_URL", url)
    with pytest.raises(ImproperlyConfigured, match="EMAIL_URL"):
        email_from_env()


@pytest.mark.parametrize("url", ["https://nomic.example.org/", "http://127.0.0.1:8000"])
def test_site_url_is_kept_without_its_trailing_slash(monkeypatch, url):
    monkeypatch.setenv("SITE_URL", url)
    assert site_url_from_env("http://unused") == url.rstrip("/")


@pytest.mark.parametrize("url", ["nomic.example.org", "javascript:alert(1)", "https://", "https://x.org/?a=1"])
def test_a_site_url_that_is_no_public_address_is_refused(monkeypatch, url):
    monkeypatch.setenv("SITE_URL", url)
    with pytest.raises(ImproperlyConfigured, match="SITE_URL"):
        site_url_from_env("http://unused")


def test_check_deploy_warns_when_site_url_is_left_unset():
    """In production every mailed link would lead to 127.0.0.1 without SITE_URL; `check --deploy` says so."""
    unset = {key: value for key, value in PRODUCTION.items() if key != "SITE_URL"}
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=unset)
    assert result.returncode != 0
    assert "blognomic.W001" in result.stderr and "SITE_URL" in result.stderr
