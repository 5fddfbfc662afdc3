"""The archive keeps which Proposal's enactment made a GNDT update, so a restored log cites it as before."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from blognomic.flows.amendments.services import post_create_with_amendment
from blognomic.moving.archive import ArchiveError, export_archive, import_archive
from gndt.models import Update
from tests.factories import vote
from tests.kinds_builders import duchy
from votes.models import Post
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db
CSRF = re.compile(r'"X-CSRFToken": "[^"]+"')


def gndt_log(at) -> str:
    """The GNDT log as a visitor reads it at ``at`` (the header shows the time)."""
    with time_machine.travel(at, tick=False):
        return CSRF.sub("CSRF", Client().get("/gndt/log/").content.decode())


def enact_a_payment(t0) -> Post:
    """A Proposal whose amendment pays P05, enacted: the GNDT update it makes cites it."""
    players, _ = duchy(t0)
    post = post_create_with_amendment(
        author=players[2],
        kind="proposal",
        title="Proposal: Fair Winds",
        body="P05 is paid 120 Thalers for the voyage.",
        flavour="",
        trivial=False,
        anonymous=False,
        operations=[{"op": "cell_set", "row": "P05", "column": "Thalers", "value": "120"}],
        base_number=None,
        now=t0,
    )
    for i, voter in enumerate(players[3:8]):
        vote(post, voter, "for", at=t0 + timedelta(minutes=1 + i))
    matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=1))
    return post


@pytest.mark.django_db(transaction=True)  # flush truncates: PostgreSQL refuses it with deferred checks pending
def test_an_update_made_by_an_enactment_keeps_its_proposal_through_export_and_import(t0):
    """The log says "enacting Proposal: …" beside such an update; after export, emptying and import it
    still does, byte for byte."""
    post = enact_a_payment(t0)
    made = Update.objects.filter(post=post).count()
    assert made >= 1
    before = gndt_log(t0 + timedelta(hours=2))
    assert f'enacting <a href="{post.get_absolute_url()}">Proposal: Fair Winds</a>' in before

    archive = export_archive()
    assert [entry.get("post") for entry in archive["gndt"]["log"]].count(post.slug) == made
    call_command("flush", "--no-input", verbosity=0)
    cache.clear()
    import_archive(archive)

    assert Update.objects.filter(post__slug=post.slug).count() == made
    assert gndt_log(t0 + timedelta(hours=2)) == before


@pytest.mark.django_db(transaction=True)  # flush truncates: PostgreSQL refuses it with deferred checks pending
def test_a_log_entry_citing_a_post_found_nowhere_is_refused_and_nothing_is_written(t0):
    enact_a_payment(t0)
    archive = export_archive()
    citing = next(i for i, entry in enumerate(archive["gndt"]["log"]) if entry["post"])
    archive["gndt"]["log"][citing]["post"] = "no-such-proposal"
    call_command("flush", "--no-input", verbosity=0)
    with pytest.raises(ArchiveError, match=rf"gndt\.log\[{citing}\]\.post: no post with id 'no-such-proposal'"):
        import_archive(archive)
    assert not Post.objects.exists() and not Update.objects.exists()
