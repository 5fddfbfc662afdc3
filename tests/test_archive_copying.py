"""The archive's bulk insert of comments (``COPY`` on PostgreSQL, ``bulk_create`` elsewhere) moves the content
version as every other write does, so no cached page outlives the rows it writes."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import transaction
from django.test import Client

from blognomic.moving.archive.copying import insert_without_keys
from blognomic.web.freshness import current_version, version_lags_writes
from tests.factories import make_proposal, make_table
from votes.models import Comment


def copied_comment(post, author, *, at, text: str) -> Comment:
    return Comment(post=post, author=author, at=at, text=text, text_html=f"<p>{text}</p>")


@pytest.mark.django_db
def test_a_page_cached_before_the_insert_shows_the_inserted_comment(t0):
    """A visitor's cached page of a matter is not served once comments have been inserted under it."""
    players = make_table(3, start=t0)
    post = make_proposal(players[1], at=t0, title="Proposal: Lanterns at the Gate")
    visitor = Client()
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        assert "Copied beside the gate" not in visitor.get(post.get_absolute_url()).content.decode()
        before = current_version()
        insert_without_keys(
            Comment,
            [copied_comment(post, players[2], at=t0 + timedelta(minutes=5), text="Copied beside the gate")],
            batch_size=10,
        )
        assert current_version() != before
        assert "Copied beside the gate" in visitor.get(post.get_absolute_url()).content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_database_store_moves_once_the_insert_commits(settings, t0):
    """With the version in the database (every worker's store without Redis), the insert is counted once its
    transaction commits; until then the writer keeps nothing under the old version."""
    players = make_table(2, start=t0)
    post = make_proposal(players[0], at=t0, title="Proposal: Count the Lanterns")
    settings.CONTENT_VERSION_STORE = "database"
    start = current_version()
    with transaction.atomic():
        insert_without_keys(
            Comment,
            [copied_comment(post, players[1], at=t0 + timedelta(minutes=3), text="Forty-one of them")],
            batch_size=10,
        )
        assert version_lags_writes(), "the insert is not yet counted, so nothing read now may be kept"
        assert current_version() == start
    assert current_version() != start
    assert Comment.objects.filter(post=post, text="Forty-one of them").exists()
