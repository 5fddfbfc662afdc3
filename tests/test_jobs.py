"""Beat jobs with frozen time: each does its work once, and running it twice or late does nothing more."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.core.management import call_command

from blognomic.flows.roster.jobs import idle_candidates_report
from dynasties.jobs import seasonal_hiatus_announce
from dynasties.mail import mails_send
from dynasties.models import Game, Notification
from tests.factories import make_proposal, make_table, vote
from votes.jobs import flag_resolvable_matters, matters_auto_resolve, proposals_mark_stale
from votes.models import Post, Resolution

pytestmark = pytest.mark.django_db

# The flag run, whatever the number of matters: the game state, the pending posts and their votes, the admins
# and their preferences, the notices already sent, the flags, the new notices and the webhooks; the last three
# in one transaction (a savepoint and its release inside a test's own).
FLAG_QUERIES = 15


@pytest.fixture
def players(t0):
    players = make_table(5, start=t0)
    players[1].email = "admin@example.org"
    players[1].save()
    return players


def test_flag_marks_a_matter_once_when_it_becomes_enactable(players, t0):
    """Quorum FOR at 3 hours; at 12 hours it becomes enactable: flagged, admins told once, by email too."""
    proposal = make_proposal(players[2], at=t0)
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    assert flag_resolvable_matters(now=t0 + timedelta(hours=3)).done == []
    report = flag_resolvable_matters(now=t0 + timedelta(hours=12))
    assert report.done == [f"{proposal.slug}: may now be enacted"]
    assert Post.objects.get(pk=proposal.pk).enactable_since == t0 + timedelta(hours=12)
    assert flag_resolvable_matters(now=t0 + timedelta(hours=12)).done == []
    assert flag_resolvable_matters(now=t0 + timedelta(hours=30)).done == []
    assert Notification.objects.filter(user=players[1]).count() == 1
    mails_send(now=t0 + timedelta(hours=30))
    assert len(mail.outbox) == 1 and "may now be enacted" in mail.outbox[0].subject


def test_dry_run_changes_nothing(players, t0, capsys):
    proposal = make_proposal(players[2], at=t0 - timedelta(hours=13))
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 - timedelta(hours=12))
    report = flag_resolvable_matters(now=t0, dry_run=True)
    assert report.done and Post.objects.get(pk=proposal.pk).enactable_since is None
    assert not Notification.objects.exists()


def test_stale_proposals_are_marked_after_seven_days(players, t0):
    """2016: “pending for more than 7 days … can be failed by any Admin”."""
    proposal = make_proposal(players[2], at=t0)
    assert proposals_mark_stale(now=t0 + timedelta(days=7)).done == []
    assert proposals_mark_stale(now=t0 + timedelta(days=7, seconds=1)).done == [
        f"{proposal.slug}: pending more than seven days"
    ]
    assert proposals_mark_stale(now=t0 + timedelta(days=9)).done == []
    assert Post.objects.get(pk=proposal.pk).stale_since == t0 + timedelta(days=7, seconds=1)


def test_auto_resolve_is_off_by_default_and_resolves_as_the_system(players, t0):
    """A game setting, off by default: when on, the oldest legal matter is resolved by the system."""
    proposal = make_proposal(players[2], at=t0)
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    assert matters_auto_resolve(now=t0 + timedelta(hours=13)).done == []
    Game.objects.filter(pk=1).update(auto_resolve=True)
    assert matters_auto_resolve(now=t0 + timedelta(hours=13)).done == [f"{proposal.slug}: enact"]
    assert matters_auto_resolve(now=t0 + timedelta(hours=14)).done == []
    resolution = Resolution.objects.get(post=proposal)
    assert resolution.by is None and "by the system" in resolution.note


def test_seasonal_downtime_is_announced_once_at_start_and_once_at_end(players):
    """2016: hiatus from 24 December to 27 December; each announcement reaches each player once."""
    assert seasonal_hiatus_announce(now=datetime(2016, 12, 23, 23, tzinfo=UTC)).done == []
    assert len(seasonal_hiatus_announce(now=datetime(2016, 12, 24, 0, 5, tzinfo=UTC)).done) == 1
    assert seasonal_hiatus_announce(now=datetime(2016, 12, 25, tzinfo=UTC)).done == []
    assert len(seasonal_hiatus_announce(now=datetime(2016, 12, 27, 3, tzinfo=UTC)).done) == 1
    assert seasonal_hiatus_announce(now=datetime(2016, 12, 28, tzinfo=UTC)).done == []
    assert Notification.objects.filter(user=players[0]).count() == 2


def test_idle_candidates_are_listed_and_admins_told_once_a_day(players, t0):
    make_proposal(players[2], at=t0 + timedelta(days=5))
    report = idle_candidates_report(now=t0 + timedelta(days=8))
    assert [line.split(":")[0] for line in report.done] == ["P01", "P02", "P04", "P05"]
    idle_candidates_report(now=t0 + timedelta(days=8, hours=2))
    assert Notification.objects.filter(user=players[1], key__startswith="idle-candidates").count() == 1


def test_job_commands_take_dry_run(players, capsys):
    for command in (
        "flag_resolvable_matters",
        "mark_stale_proposals",
        "auto_resolve",
        "seasonal_hiatus",
        "idle_candidates",
    ):
        call_command(command, "--dry-run")
    assert "Nothing to do." in capsys.readouterr().out


def test_notices_show_in_the_header_and_are_read_on_their_page(client, players, t0):
    from tests.factories import PASSWORD

    proposal = make_proposal(players[2], at=t0 - timedelta(hours=13))
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 - timedelta(hours=12))
    flag_resolvable_matters(now=t0)
    client.login(username="P02", password=PASSWORD)
    assert '<strong class="badge">1</strong>' in client.get("/").content.decode()
    assert "may now be enacted" in client.get("/notices/").content.decode()
    assert 'class="badge"' not in client.get("/").content.decode()


def _failable_proposals(players, t0, count: int) -> list[Post]:
    """``count`` pending proposals with quorum AGAINST (any of them may be failed, not only the oldest), written
    directly: posting limits would refuse so many."""
    from votes.models import Comment

    posts = []
    for n in range(count):
        post = Post.objects.create(
            slug=f"sweep-{n}",
            kind="proposal",
            status="pending",
            title=f"Proposal: Sweep {n}",
            author=players[2],
            posted_at=t0 + timedelta(minutes=n),
            body="Do a thing.",
            body_html="<p>Do a thing.</p>",
        )
        for voter in (players[0], players[3], players[4]):
            Comment.objects.create(post=post, author=voter, at=t0 + timedelta(hours=1), icon="against")
        posts.append(post)
    return posts


@pytest.mark.parametrize("count", [3, 12])
def test_flagging_many_matters_takes_the_same_queries_as_flagging_few(players, t0, count, django_assert_num_queries):
    """A run that finds hundreds of matters resolvable at once (after an import) writes them together."""
    posts = _failable_proposals(players, t0, count)
    Notification.objects.create(user=players[1], key=f"failable_since:{posts[0].pk}", text="told before", created_at=t0)
    # The only admin has an email address: no bulk insert, and the notices to mail go one by one, each
    # written to the outbox.
    with django_assert_num_queries(FLAG_QUERIES - 1 + 6 * (count - 1)):
        report = flag_resolvable_matters(now=t0 + timedelta(hours=12))
    assert len(report.done) == count
    assert not Post.objects.filter(pk__in=[p.pk for p in posts], failable_since__isnull=True).exists()
    assert Notification.objects.filter(user=players[1]).count() == count  # one of them from before
    mails_send(now=t0 + timedelta(hours=12))
    assert len(mail.outbox) == count - 1


def test_flagging_many_tells_admins_without_email_in_one_insert(players, t0, django_assert_num_queries):
    players[1].email = ""
    players[1].save()
    count = 20
    _failable_proposals(players, t0, count)
    with django_assert_num_queries(FLAG_QUERIES):
        flag_resolvable_matters(now=t0 + timedelta(hours=12))
    assert Notification.objects.filter(user=players[1]).count() == count
    assert not mail.outbox
    assert flag_resolvable_matters(now=t0 + timedelta(hours=13)).done == []
    assert Notification.objects.filter(user=players[1]).count() == count
