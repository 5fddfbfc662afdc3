"""Saving a session while the database is away is an outage (the site's error page), not a bad request.

Found by the fault test: a player whose vote had just been answered opened the post page while PostgreSQL
restarted; reading the vote's message changed the session, saving it failed, and Django answered 400.
"""

from unittest import mock

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.exceptions import SessionInterrupted
from django.contrib.sessions.models import Session
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpResponse
from django.test import RequestFactory

from blognomic.web.sessions import OutageAwareSessionMiddleware

pytestmark = pytest.mark.django_db


def saved_session_changed_again() -> SessionStore:
    session = SessionStore()
    session["_messages"] = "your vote is counted"
    session.save()
    del session["_messages"]  # as reading the message does
    return session


def respond_while_saving_fails(error: Exception):
    request = RequestFactory().get("/")
    request.session = saved_session_changed_again()
    middleware = OutageAwareSessionMiddleware(lambda request: HttpResponse("page"))
    with mock.patch.object(Session, "save", side_effect=error):
        return middleware.process_response(request, HttpResponse("page"))


@pytest.mark.parametrize("error", [OperationalError("server closed the connection"), InterfaceError("closed")])
def test_an_unreachable_database_while_saving_the_session_is_the_database_error(error):
    with pytest.raises(type(error)):
        respond_while_saving_fails(error)


def test_a_session_deleted_by_another_request_is_still_django_s_bad_request():
    with pytest.raises(SessionInterrupted):
        respond_while_saving_fails(DatabaseError("Forced update did not affect any rows."))


def test_a_session_saved_as_usual_answers_the_page_and_keeps_the_change():
    request = RequestFactory().get("/")
    request.session = saved_session_changed_again()
    response = OutageAwareSessionMiddleware(lambda request: HttpResponse()).process_response(
        request, HttpResponse("page")
    )
    assert response.content == b"page"
    assert "_messages" not in SessionStore(request.session.session_key).load()
