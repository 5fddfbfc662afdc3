"""Reading writes nothing others see. Opening one's notices or a conversation marks read only what was unread,
and writes nothing at all when nothing was; the mark moves the reader's own version, not the site's content
version, so every other reader's cached pages stay; and the reader's own pages, on every device they are
logged in on, show their unread counts as they now are.

The finding: "Every GET of ``/notices/`` or ``/messages/<id>/`` runs an UPDATE even with nothing unread, which
empties the whole page cache: any account looping on it defeats caching for everyone."
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from blognomic.community.messaging.models import Participant
from blognomic.community.messaging.services import message_reply, message_send
from blognomic.tasks import heartbeat
from blognomic.web.freshness import BOOKKEEPING_TABLES, READ_MARKER_TABLES, current_version, current_versions
from dynasties.models import Notification
from dynasties.notify import notify
from dynasties.read_markers import marking_read
from tests.factories import PASSWORD, T0
from tests.gndt.builders import make_gndt

pytestmark = pytest.mark.django_db

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.IGNORECASE)


def logged_in(name: str) -> Client:
    client = Client()
    assert client.login(username=name, password=PASSWORD)
    return client


def writes(queries: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"]
        for query in queries.captured_queries
        if WRITE.match(query["sql"]) and "django_session" not in query["sql"]
    ]


def badges(html: str) -> dict[str, str]:
    """The header's unread counts: {"messages": "1", "notices": "2"} (absent when none)."""
    found = {}
    for name, pattern in (
        ("messages", r'id="messages-link">Messages <strong class="badge">(\d+)</strong>'),
        ("notices", r'Notices <strong class="badge">(\d+)</strong>'),
    ):
        match = re.search(pattern, html)
        if match:
            found[name] = match.group(1)
    return found


@pytest.fixture
def game(db, t0):
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        yield make_gndt(T0)


@pytest.fixture
def letter(game, t0):
    """A conversation the Emperor (P01) has not read yet, started by P03; it sends the Emperor a notice too."""
    return message_send(
        sender=game.players[2],
        recipients=[game.emperor.username],
        subject="Plans",
        body="Meet at dawn",
        now=t0 + timedelta(hours=1),
    )


def test_opening_the_notices_with_nothing_unread_writes_nothing(game, letter):
    """ "A GET writes nothing unless something really changed": the second look at one's notices sends no
    INSERT, UPDATE or DELETE at all, and moves no version."""
    reader = logged_in(game.emperor.username)
    reader.get("/notices/")
    before = current_versions(game.emperor.pk)
    with CaptureQueriesContext(connection) as queries:
        assert reader.get("/notices/").status_code == 200
    assert writes(queries) == []
    assert current_versions(game.emperor.pk) == before


def test_opening_a_conversation_already_read_writes_nothing(game, letter):
    reader, sender = logged_in(game.emperor.username), logged_in(game.players[2].username)
    reader.get(letter.get_absolute_url())
    before = current_versions(game.emperor.pk)
    for client in (reader, sender):  # the sender has read their own letter
        with CaptureQueriesContext(connection) as queries:
            assert client.get(letter.get_absolute_url()).status_code == 200
        assert writes(queries) == []
    assert current_versions(game.emperor.pk) == before


def test_opening_a_conversation_marks_only_what_was_unread(game, letter, t0):
    """The mark moves only when a message from someone else came after it; one's own reply moves nothing."""
    emperor = Participant.objects.get(conversation=letter, user=game.emperor)
    logged_in(game.emperor.username).get(letter.get_absolute_url())
    emperor.refresh_from_db()
    assert emperor.last_read_at == t0 + timedelta(hours=2)
    sender = logged_in(game.players[2].username)
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        message_reply(conversation=letter, sender=game.emperor, body="Agreed", now=t0 + timedelta(hours=3))
        mark = Participant.objects.get(conversation=letter, user=game.players[2]).last_read_at
        sender.get(letter.get_absolute_url())
        assert Participant.objects.get(conversation=letter, user=game.players[2]).last_read_at > mark
        emperor = logged_in(game.emperor.username)
        with CaptureQueriesContext(connection) as queries:
            emperor.get(letter.get_absolute_url())
        assert writes(queries) == [], "the Emperor's own reply is nothing new to him"


def test_reading_ones_notices_empties_no_other_readers_cached_page(game, letter, django_assert_num_queries):
    """A read marker changes the reader's own pages alone: a visitor's and another player's cached front page
    are still served from the cache after the Emperor reads his notices and his letter."""
    visitor, player, emperor = Client(), logged_in(game.players[3].username), logged_in(game.emperor.username)
    for client in (visitor, player):
        client.get("/")
    content = current_version()
    emperor.get("/notices/")
    emperor.get(letter.get_absolute_url())
    assert current_version() == content
    with django_assert_num_queries(0):
        assert visitor.get("/").status_code == 200
    with django_assert_num_queries(1):  # the session alone: the page came from the cache
        assert player.get("/").status_code == 200


def test_the_readers_own_cached_pages_show_their_unread_counts_as_they_now_are(game, letter):
    """Their pages are cached under their own version, which the read marker moves: the header's counts and
    the inbox's "new" go at once, on the device they read on and on any other they are logged in on."""
    here, elsewhere = logged_in(game.emperor.username), logged_in(game.emperor.username)
    for client in (here, elsewhere):
        assert badges(client.get("/").content.decode()) == {"messages": "1", "notices": "1"}
        assert "1 new" in client.get("/messages/").content.decode()
        assert badges(client.get("/").content.decode()) == {"messages": "1", "notices": "1"}  # from the cache
    here.get("/notices/")
    for client in (here, elsewhere):
        assert badges(client.get("/").content.decode()) == {"messages": "1"}
    here.get(letter.get_absolute_url())
    for client in (here, elsewhere):
        assert badges(client.get("/").content.decode()) == {}
        assert "1 new" not in client.get("/messages/").content.decode()


def test_a_new_notice_still_shows_on_the_readers_cached_pages(game, t0):
    """Only marking read is the reader's own bookkeeping: a notice sent to them moves the content version."""
    reader = logged_in(game.players[3].username)
    assert badges(reader.get("/").content.decode()) == {}
    notify(users=[game.players[3]], key="lamp", text="Your lamp is lit", now=t0, email=False)
    assert badges(reader.get("/").content.decode()) == {"notices": "1"}


@pytest.mark.parametrize("store", ["memory", "cache", "database"])
def test_a_read_marker_moves_the_readers_own_version_alone_in_every_store(
    store, settings, game, letter, django_capture_on_commit_callbacks
):
    settings.CONTENT_VERSION_STORE = store
    emperor, other = game.emperor.pk, game.players[3].pk
    content, own = current_versions(emperor)
    others = current_versions(other)[1]
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic(), marking_read(game.emperor):
        Notification.objects.filter(user=game.emperor, read_at__isnull=True).update(read_at=letter.started_at)
    assert current_versions(emperor)[0] == content
    assert current_versions(emperor)[1] != own
    assert current_versions(other)[1] == others


def test_a_write_to_a_read_marker_table_outside_reading_moves_the_content_version(game, letter):
    """Notices are created, and accounts deleted, outside ``marking_read``: those show to others or are news."""
    for table in READ_MARKER_TABLES:
        before = current_version()
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)} WHERE 1 = 0")
        assert current_version() != before, table


def test_every_bookkeeping_and_read_marker_table_exists():
    """A misspelt name would leave its table watched, or its reads writing for everyone, without a sound."""
    tables = connection.introspection.table_names()
    for name in [*BOOKKEEPING_TABLES, *READ_MARKER_TABLES]:
        assert any(table.startswith(name) for table in tables), name


def test_the_beat_heartbeat_moves_no_version(game):
    """Beat records its run every minute, shown in Django's admin alone: it must not empty the page cache."""
    before = current_versions(game.emperor.pk)
    assert heartbeat() >= 1
    assert heartbeat() >= 2
    assert current_versions(game.emperor.pk) == before
