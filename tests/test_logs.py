"""Logs as deployed: one line per event, each with the request or the task it belongs to; the request's id
is also returned to the reader in X-Request-ID."""

from __future__ import annotations

import io
import logging

import pytest
from celery import shared_task
from django.test import Client

from blognomic.running.logs import OneLineFormatter, RequestAndTaskFilter

pytestmark = pytest.mark.django_db


@pytest.fixture
def site_log():
    """What the console handler that settings.LOGGING configures writes, into a buffer."""
    (handler,) = [h for h in logging.getLogger().handlers if isinstance(h.formatter, OneLineFormatter)]
    buffer = io.StringIO()
    old = handler.setStream(buffer)
    yield buffer
    handler.setStream(old)


def test_a_log_line_written_while_answering_a_request_carries_its_id(site_log):
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    request_id = response["X-Request-ID"]
    assert len(request_id) == 32
    (line,) = [line for line in site_log.getvalue().splitlines() if "Not Found" in line]
    assert f"request={request_id} task=- " in line and line.endswith("Not Found: /no-such-page/")


def test_each_request_gets_its_own_id_and_a_proxys_well_formed_one_is_kept():
    client = Client()
    assert client.get("/healthz/")["X-Request-ID"] != client.get("/healthz/")["X-Request-ID"]
    assert client.get("/healthz/", HTTP_X_REQUEST_ID="caddy-0123abcd")["X-Request-ID"] == "caddy-0123abcd"
    forged = client.get("/healthz/", HTTP_X_REQUEST_ID="x\r\nlevel=ERROR forged line")["X-Request-ID"]
    assert len(forged) == 32 and "forged" not in forged


@shared_task(name="tests.test_logs.say_something")
def say_something() -> None:
    logging.getLogger("blognomic.test").warning("from inside a job")


def test_a_log_line_written_by_a_job_carries_its_task_id(site_log):
    result = say_something.apply()
    (line,) = [line for line in site_log.getvalue().splitlines() if "from inside a job" in line]
    assert f"request=- task={result.id} " in line


def test_a_traceback_stays_on_its_events_line():
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "it broke:\nsecond line", None, None)
    try:
        raise ValueError("deep\ndown")
    except ValueError:
        import sys

        record.exc_info = sys.exc_info()
    RequestAndTaskFilter().filter(record)
    text = OneLineFormatter().format(record)
    assert "\n" not in text
    assert "it broke:\\nsecond line\\nTraceback" in text and "ValueError: deep\\ndown" in text


def test_what_is_logged_after_a_request_belongs_to_none(site_log):
    Client().get("/healthz/")
    logging.getLogger("blognomic.test").warning("between requests")
    (line,) = [line for line in site_log.getvalue().splitlines() if "between requests" in line]
    assert "request=- task=- " in line
