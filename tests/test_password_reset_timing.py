"""The reset page answers known and unknown addresses in the same time: the request checks the form and answers
alike, reading nothing about the address; the mail is written after the answer has gone."""

from __future__ import annotations

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.core.signals import request_finished
from django.db import close_old_connections, connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from blognomic.community.accounts.reset import AnswerThenRun, PasswordResetView
from dynasties.models import OutgoingMail, User
from tests.factories import make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def known(t0, settings):
    settings.SITE_URL = "https://nomic.example.org"
    players = make_table(2, start=t0)
    User.objects.filter(pk=players[0].pk).update(email="p01@example.org")


def answer(address: str) -> tuple[AnswerThenRun, list[str]]:
    request = RequestFactory().post("/accounts/password/reset/", {"email": address})
    request._dont_enforce_csrf_checks = True
    request.session = SessionStore()
    with CaptureQueriesContext(connection) as queries:
        response = PasswordResetView.as_view()(request)
    return response, [q["sql"] for q in queries.captured_queries]


def sent(response: AnswerThenRun) -> None:
    """What the server does after the last byte, with the test's database connection kept open (as Django's
    test client keeps it)."""
    request_finished.disconnect(close_old_connections)
    try:
        response.close()
    finally:
        request_finished.connect(close_old_connections)


def test_the_answer_reads_nothing_about_the_address(known):
    """Known or not, the same answer after the same work: no query at all before the answer."""
    known_answer, known_queries = answer("P01@example.org")
    unknown_answer, unknown_queries = answer("nobody@example.org")
    assert (known_answer.status_code, known_answer["Location"]) == (
        unknown_answer.status_code,
        unknown_answer["Location"],
    )
    assert known_queries == unknown_queries == []
    assert not OutgoingMail.objects.exists()


def test_the_mail_is_written_once_the_answer_has_gone(known):
    known_answer, _ = answer("p01@example.org")
    unknown_answer, _ = answer("nobody@example.org")
    sent(known_answer)
    sent(unknown_answer)
    assert list(OutgoingMail.objects.values_list("to", "kind")) == [("p01@example.org", "reset")]
