"""The past stays past: what a WordPress import brings in keeps its recorded result and is told to nobody.

An imported resolved matter is never reopened, re-judged, voted on or announced, however recent its times;
an imported pending matter is pending here; statistics and player pages count the imported game.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse

from blognomic.community.stats.selectors import statistics
from blognomic.moving.wordpress.importing import import_wordpress
from dynasties.mail import mails_send
from dynasties.models import Game, Notification, OutgoingMail, User, Webhook, WebhookDelivery
from tests.factories import PASSWORD, make_player
from tests.wordpress.wxr import C, P, author, export
from votes.jobs import flag_resolvable_matters, matters_auto_resolve, proposals_mark_stale
from votes.notices import digests_send, notices_send
from votes.page_models import judged_as_of
from votes.selectors import enacted_awaiting_ruleset
from votes.services import IMPORTED_NOT_REOPENED, VoteError, comment_add, matter_reopen

pytestmark = pytest.mark.django_db

PEOPLE = ("Ilse", "Odo", "Pim", "Quill")
RECORDED = {"outcome": "enacted", "source": "note", "counts": [[4, 1]], "deferring": None}


def lanterns_export() -> bytes:
    """A small made-up blog: one Proposal resolved a few hours before the import, one still open."""
    authors = "".join(author(i, name, player=True) for i, name in enumerate(PEOPLE, start=1))
    return export(
        [
            P(
                20,
                "Proposal: Lanterns at Dusk",
                "Ilse",
                "2016-07-24 08:00:00",
                name="lanterns-at-dusk",
                meta={"admin": "Enacted 4-1"},
                modified="2016-07-25 09:00:00",
                comments=[
                    C(200, "Ilse", "2016-07-24 09:00:00", vote="for", user_id=1, text="Light them."),
                    C(201, "Odo", "2016-07-24 10:00:00", vote="for", user_id=2),
                    C(202, "Pim", "2016-07-24 11:00:00", vote="for", user_id=3, text="Odo, bring oil."),
                    C(203, "Quill", "2016-07-24 12:00:00", vote="against", user_id=4, text="Too bright."),
                ],
            ),
            P(
                21,
                "Proposal: Ferries",
                "Odo",
                "2016-07-25 10:00:00",
                name="ferries",
                comments=[C(210, "Odo", "2016-07-25 10:30:00", vote="for", user_id=2)],
            ),
        ],
        authors=authors,
    )


@pytest.fixture
def imported(t0):
    """The export imported at ``t0`` (2016-07-25 12:00), with a webhook and an admin of this site waiting."""
    game = Game.load()
    game.auto_resolve = True
    game.save()
    admin = make_player("Warden", joined_at=t0 - timedelta(days=30), admin=True)
    Webhook.objects.create(url="https://chat.example/hook", created_at=t0 - timedelta(days=1), created_by=admin)
    import_wordpress(lambda: io.BytesIO(lanterns_export()), at=t0)
    lanterns = User.objects.get(username="Ilse").posts.get()
    resolution = lanterns.resolutions.get()
    resolution.tally = {**resolution.tally, "recorded": RECORDED}
    resolution.save()
    for user in User.objects.filter(username__in=PEOPLE):
        user.email = f"{user.username.lower()}@nomic.example"
        user.save()
    return lanterns


def test_the_import_marks_what_it_brought_in(imported, t0):
    """Every post, comment and resolution the import wrote carries the moment it came in."""
    assert imported.imported_at == t0
    assert {c.imported_at for c in imported.comments.all()} == {t0}
    assert imported.resolutions.get().imported_at == t0


def test_no_beat_job_tells_anyone_of_the_imported_past(imported, t0):
    """Its post, comments (one naming a player) and resolution are within the jobs' look-back, yet no
    notice, mail or webhook event is written, and nothing is flagged, failed or resolved."""
    before = imported.resolutions.values_list("pk", "outcome", "at").get()
    now = t0 + timedelta(minutes=5)
    for job in (notices_send, flag_resolvable_matters, proposals_mark_stale, matters_auto_resolve, digests_send):
        job(now=now)
    mails_send(now=now)
    imported.refresh_from_db()

    assert Notification.objects.count() == 0
    assert WebhookDelivery.objects.count() == 0
    assert OutgoingMail.objects.count() == 0 and mail.outbox == []
    assert (imported.status, imported.outcome) == ("enacted", "enacted")
    assert imported.resolutions.values_list("pk", "outcome", "at").get() == before
    assert (imported.enactable_since, imported.failable_since, imported.stale_since) == (None, None, None)


def test_a_pending_imported_matter_is_pending_here_and_takes_votes(imported, t0):
    """Judged by today's rules: a player votes on it as on any matter."""
    ferries = User.objects.get(username="Odo").posts.get()
    assert ferries.is_pending
    comment_add(post=ferries, author=User.objects.get(username="Pim"), icon="for", now=t0 + timedelta(hours=1))
    assert ferries.comments.filter(imported_at__isnull=True, icon="for").count() == 1


def test_an_imported_resolved_matter_takes_no_vote_and_is_not_reopened(imported, client, t0):
    """The vote endpoint refuses, writing nothing; reopening is refused by name."""
    # Imported accounts come without a password; this one is given the admin's for the test.
    User.objects.filter(username="Odo").update(password=User.objects.get(username="Warden").password)
    client.login(username="Odo", password=PASSWORD)
    count = imported.comments.count()
    response = client.post(reverse("comment_create", args=[imported.slug]), {"icon": "against", "text": "Again?"})
    assert "its result stands as recorded there" in response.content.decode()
    assert imported.comments.count() == count
    with pytest.raises(VoteError) as refused:
        matter_reopen(post=imported, admin=User.objects.get(username="Warden"), reason="Recount", now=t0)
    assert str(refused.value) == IMPORTED_NOT_REOPENED.format(title=imported.title)


def test_the_admin_panel_awaits_nothing_of_the_imported_past(imported, client, t0):
    """Not awaiting a Ruleset revision, not offered for reopening among the recently resolved."""
    assert enacted_awaiting_ruleset(now=t0 + timedelta(minutes=5)) == []
    client.login(username="Warden", password=PASSWORD)
    page = client.get(reverse("admin_panel")).content.decode()
    assert "Nothing has been resolved yet." in page
    assert reverse("reopen", args=[imported.slug]) not in page


def test_the_matter_page_shows_the_recorded_result_beside_a_differing_count(imported, client):
    """Recorded 4-1; the engine counts 3-1 (no vote from its author is missing: four voters, one against)."""
    page = client.get(imported.get_absolute_url()).content.decode()
    assert 'class="recorded-result"' in page
    assert 'Enacted <span class="recorded-count">4–1</span>' in page
    assert 'class="engine-count">3–1' in page
    assert 'class="vote ' not in page and "comment-form" not in page


def test_statistics_and_player_pages_count_the_imported_game(imported, client, t0):
    """Imported proposals have no dynasty; the headline counts them all the same."""
    stats = statistics(t0 + timedelta(minutes=5))
    assert (stats.proposals, stats.enacted) == (2, 1)
    assert client.get(reverse("player_detail", args=["Ilse"])).content.decode().count("Lanterns at Dusk") >= 1


def test_a_resolved_matter_without_a_resolution_is_judged_as_of_its_last_comment(t0):
    """Never today: a matter last commented on in 2006 is not judged with twenty years of idling."""
    last = t0 - timedelta(days=3650)
    comments = [last - timedelta(hours=5), last]
    assert judged_as_of(resolved_at=None, comment_times=comments, posted_at=last - timedelta(days=1)) == last
    assert judged_as_of(resolved_at=t0, comment_times=[last], posted_at=last) == t0
    assert judged_as_of(resolved_at=None, comment_times=[], posted_at=last) == last
