"""Preferences that make sense: "turning a kind of notice on never sends notices about what happened before
it was turned on". Found in play: "Turning on 'someone comments after me' creates notices about comments from
days before" (the sending job looks back two days)."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse

from blognomic.moving.archive import export_archive, import_archive
from blognomic.moving.archive.fields import ArchiveError
from dynasties.models import NoticePreferences, Notification
from dynasties.notify import notice_preferences_save, wants_notice
from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.notices import _key, notices_send

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(t0):
    return make_table(5, start=t0)


def chosen(**on) -> dict[str, bool]:
    return NoticePreferences.defaults() | on


def test_turning_on_someone_comments_after_me_does_not_bring_back_comments_from_days_before(players, t0):
    """Found in play: "Turning on 'someone comments after me' creates notices about comments from days
    before"."""
    proposal = make_proposal(players[2], at=t0)
    vote(proposal, players[3], "for", at=t0 + timedelta(minutes=1), text="Good idea.")
    old = vote(proposal, players[4], "against", at=t0 + timedelta(hours=1), text="Not so sure.")
    notices_send(now=t0 + timedelta(hours=1, minutes=1))  # reply is off by default: nothing for P04
    turned_on = t0 + timedelta(days=1)
    notice_preferences_save(user=players[3], chosen=chosen(reply=True), now=turned_on)
    new = vote(proposal, players[1], "for", at=turned_on + timedelta(minutes=5), text="Agreed.")
    notices_send(now=turned_on + timedelta(minutes=6))
    told = set(Notification.objects.filter(user=players[3], key__startswith="reply:").values_list("key", flat=True))
    assert told == {f"reply:{new.pk}"}
    assert f"reply:{old.pk}" not in told


def test_turning_on_new_matters_does_not_announce_the_matters_posted_before(players, t0):
    """ "Turning a kind of notice on never sends notices about what happened before it was turned on"."""
    notice_preferences_save(user=players[0], chosen=chosen(new_matter=False), now=t0)
    before = make_proposal(players[2], at=t0 + timedelta(hours=1))
    notices_send(now=t0 + timedelta(hours=1, minutes=1))
    notice_preferences_save(user=players[0], chosen=chosen(new_matter=True), now=t0 + timedelta(hours=5))
    after = make_proposal(players[1], at=t0 + timedelta(hours=6))
    notices_send(now=t0 + timedelta(hours=6, minutes=1))
    assert not Notification.objects.filter(user=players[0], key=_key("new-matter", before.slug)).exists()
    assert Notification.objects.filter(user=players[0], key=_key("new-matter", after.slug)).exists()


def test_saving_other_switches_keeps_the_moment_a_kind_was_turned_on(players, t0):
    """Only a kind that goes from off to on gets a new moment; one that stays on keeps the one it had, and a
    kind on by default since the account began is not held back at all."""
    notice_preferences_save(user=players[0], chosen=chosen(reply=True), now=t0)
    notice_preferences_save(user=players[0], chosen=chosen(reply=True, daily_digest=True), now=t0 + timedelta(days=1))
    stored = NoticePreferences.objects.get(user=players[0])
    assert stored.turned_on_since("reply") == t0
    assert stored.turned_on_since("mention") is None
    notice_preferences_save(user=players[0], chosen=chosen(reply=False), now=t0 + timedelta(days=2))
    notice_preferences_save(user=players[0], chosen=chosen(reply=True), now=t0 + timedelta(days=3))
    assert NoticePreferences.objects.get(user=players[0]).turned_on_since("reply") == t0 + timedelta(days=3)


def test_the_rule_itself(t0):
    """A kind that is off tells nothing; one on since a moment tells only of events from that moment on."""
    assert not wants_notice(on=False, since=None, at=t0)
    assert wants_notice(on=True, since=None, at=t0)
    assert wants_notice(on=True, since=t0, at=t0)
    assert not wants_notice(on=True, since=t0, at=t0 - timedelta(seconds=1))
    assert wants_notice(on=True, since=t0, at=None)  # a notice about now (a matter closing soon)


def test_the_preferences_page_records_when_a_kind_was_turned_on(client, players):
    assert client.login(username="P04", password=PASSWORD)
    page = client.get(reverse("notice_preferences")).content.decode()
    assert "tells you of what happens from then on, not of what happened before" in page
    client.post(reverse("notice_preferences"), {"reply": "on", "mention": "on"})
    stored = NoticePreferences.objects.get(user=players[3])
    assert stored.reply and stored.turned_on_since("reply") is not None
    assert stored.turned_on_since("mention") is None  # on by default: on all along


@pytest.mark.django_db(transaction=True)
def test_an_archive_keeps_when_each_kind_was_turned_on_and_refuses_an_unknown_kind(t0):
    """The moment a kind was turned on survives export and import, so a restored game does not tell of the
    comments before it either; the archive's moments are checked as the page's are."""
    players = make_table(3, start=t0)
    notice_preferences_save(user=players[0], chosen=chosen(reply=True), now=t0 + timedelta(hours=1))
    archive = export_archive()
    assert archive["personal"]["preferences"][0]["turned_on_at"] == {"reply": "2016-07-25T13:00:00Z"}
    call_command("flush", "--no-input", verbosity=0)
    import_archive(archive)
    assert export_archive() == archive
    assert NoticePreferences.objects.get().turned_on_since("reply") == t0 + timedelta(hours=1)
    call_command("flush", "--no-input", verbosity=0)
    for moments, where in (
        ({"shouting": "2016-07-25T13:00:00Z"}, r"turned_on_at\.shouting"),
        ({"reply": "yesterday"}, r"turned_on_at\.reply"),
        ("soon", r"turned_on_at"),
    ):
        broken = copy.deepcopy(archive)
        broken["personal"]["preferences"][0]["turned_on_at"] = moments
        with pytest.raises(ArchiveError, match=rf"personal\.preferences\[0\]\.{where}"):
            import_archive(broken)
    assert not NoticePreferences.objects.exists()
