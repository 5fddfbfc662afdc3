"""A dynasty's kind of votable matter limited to a phase of the calendar: the 2008 Town Meeting, called only in
the Daytime. Posting one, retitling a post into one and moving one into Proposals are refused alike outside it,
with nothing saved; a definition naming a phase that does not exist is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from dynasties.phases import DAYTIME, NIGHTTIME, OUTSIDE_PHASE, UNKNOWN_PHASE
from tests.factories import make_proposal
from tests.kinds_builders import village
from votes.matter_kind_services import KindError, matter_kind_define
from votes.models import MatterKind, Post
from votes.posting import PostError, post_create, post_edit

pytestmark = pytest.mark.django_db

NIGHT = datetime(2016, 7, 25, 20, 0, tzinfo=UTC)  # the 25th: odd, Nighttime
DAY = datetime(2016, 7, 26, 9, 0, tzinfo=UTC)  # the 26th: even, Daytime
REFUSED_AT_NIGHT = OUTSIDE_PHASE.format(
    what="A Town Meeting", done="posted", phase=DAYTIME, now_phase=NIGHTTIME, until="Tue 26 Jul 2016 00:00"
)


def test_a_definition_naming_no_phase_of_the_calendar_is_refused_and_nothing_saved(t0):
    players, citation = village(t0)
    before = MatterKind.objects.count()
    with pytest.raises(KindError) as refused:
        matter_kind_define(
            admin=players[1],
            proposal=citation,
            now=t0,
            name="Seance",
            base="proposal",
            subject_rule="phrase",
            subject_text="Seance",
            phase="Dusk",
        )
    assert refused.value.problems == [UNKNOWN_PHASE.format(phase="Dusk", phases="Daytime, Nighttime")]
    assert MatterKind.objects.count() == before


def test_a_town_meeting_is_called_in_the_daytime_and_refused_at_night(t0):
    """2008: "Town Meetings may be called by any living Villager during the daytime"; "All even-numbered days
    in the real world are Daytime in Zahndorf, and all odd-numbered days are Nighttime"."""
    players, _ = village(t0, phase=DAYTIME)
    assert MatterKind.objects.get(name="Town Meeting").phase == DAYTIME
    before = Post.objects.count()
    with pytest.raises(PostError) as refused:
        make_proposal(players[2], at=NIGHT, title="Proposal: Town Meeting: Barn Raising")
    assert str(refused.value) == REFUSED_AT_NIGHT
    assert Post.objects.count() == before
    # An ordinary Proposal is not limited to a phase.
    make_proposal(players[3], at=NIGHT, title="Proposal: Fences")
    meeting = make_proposal(players[2], at=DAY, title="Proposal: Town Meeting: Barn Raising")
    assert meeting.matter_kind.name == "Town Meeting"


@pytest.mark.parametrize(
    ("retitled_as", "posted_as"),
    [
        ("Town Meeting", "Town Meeting"),
        # A subject rule is not dodged by spacing: two spaces, an em space.
        ("Town  Meeting", "Town\u2003Meeting"),
    ],
)
def test_retitling_or_moving_a_post_into_a_town_meeting_at_night_is_refused_alike(t0, retitled_as, posted_as):
    players, _ = village(t0, phase=DAYTIME)
    proposal = make_proposal(players[2], at=NIGHT, title="Proposal: Barn")
    with pytest.raises(PostError) as retitled:
        post_edit(
            post=proposal,
            editor=players[2],
            title=f"Proposal: {retitled_as}: Barn",
            body=proposal.body,
            flavour="",
            kind="proposal",
            now=NIGHT + timedelta(minutes=5),
        )
    assert str(retitled.value) == REFUSED_AT_NIGHT
    plain = post_create(author=players[3], kind="post", title=f"{posted_as}: Well", body="x", now=NIGHT)
    with pytest.raises(PostError) as moved:
        post_edit(
            post=plain,
            editor=players[3],
            title=plain.title,
            body=plain.body,
            flavour="",
            kind="proposal",
            now=NIGHT + timedelta(minutes=4),
        )
    assert str(moved.value) == REFUSED_AT_NIGHT
    assert Post.objects.get(pk=proposal.pk).matter_kind_id is None
    assert Post.objects.get(pk=plain.pk).kind == "post"
    # An existing Town Meeting's text may still be fixed at night; only posting one is limited.
    meeting = make_proposal(players[4], at=DAY, title="Proposal: Town Meeting: Barn Raising")
    post_edit(
        post=meeting,
        editor=players[4],
        title=meeting.title,
        body="Bring nails.",
        flavour="",
        kind="proposal",
        now=DAY + timedelta(hours=15, minutes=1),
    )
    assert Post.objects.get(pk=meeting.pk).body == "Bring nails."


def test_the_core_rules_page_says_when_a_town_meeting_may_be_called(client, t0):
    village(t0, phase=DAYTIME)
    page = client.get(reverse("core_rules")).content.decode()
    assert "May be posted only during the Daytime." in page
