"""Simultaneous wiki saves: no edit silently overwrites another and no revision number is used twice.

These need real row locks and concurrent connections, so they run on PostgreSQL (SQLite serialises every
write, which proves nothing about locking).
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ruleset.ascension import ruleset_snapshot
from ruleset.models import Page
from ruleset.services import EditConflict, page_create, revision_add
from tests.concurrency import run_together
from tests.factories import make_player
from tests.test_wiki_services import make_ruleset

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]

EDITORS = 10


def test_editors_saving_on_the_same_revision_at_once_get_one_save_and_the_rest_conflicts():
    """Ten editors who all started from revision 1 save together: one wins, nine see an edit conflict."""
    now = timezone.now()
    editors = [make_player(f"Editor {i}", joined_at=now - timedelta(days=1)) for i in range(EDITORS)]
    page = page_create(title="Logbook", author=editors[0], text="start", now=now)
    results = run_together(
        [
            (
                lambda editor=editor: revision_add(
                    page=page, author=editor, text=f"{editor} was here", now=now, base_number=1
                )
            )
            for editor in editors
        ]
    )
    saved = [result for result in results if not isinstance(result, Exception)]
    conflicts = [result for result in results if isinstance(result, EditConflict)]
    assert len(saved) == 1 and len(conflicts) == EDITORS - 1, results
    assert page.revisions.count() == 2
    assert {conflict.latest.number for conflict in conflicts} == {2}


def test_simultaneous_saves_without_a_base_all_get_their_own_number():
    """Flows that append without a base revision (enactments) never lose a save or reuse a number."""
    now = timezone.now()
    admin = make_player("Kevan", joined_at=now - timedelta(days=1), admin=True)
    page = page_create(title="Logbook", author=admin, text="start", now=now)
    results = run_together(
        [(lambda n=n: revision_add(page=page, author=admin, text=f"save {n}", now=now)) for n in range(EDITORS)]
    )
    assert not [result for result in results if isinstance(result, Exception)], results
    assert sorted(page.revisions.values_list("number", flat=True)) == list(range(1, EDITORS + 2))
    assert Page.objects.get(pk=page.pk).current.number == EDITORS + 1


def test_simultaneous_snapshots_make_one_page():
    """Two dynasty flows snapshotting the same dynasty at once end with one "Ruleset 7"."""
    now = timezone.now()
    admin = make_player("Kevan", joined_at=now - timedelta(days=1), admin=True)
    make_ruleset(admin, now - timedelta(hours=1))
    results = run_together([lambda: ruleset_snapshot(dynasty_number=7, now=now) for _ in range(4)])
    assert not [result for result in results if isinstance(result, Exception)], results
    assert len({page.pk for page in results}) == 1
    assert Page.objects.filter(title="Ruleset 7").count() == 1
