"""A subject rule reads a title as a reader sees it: "Proposal: Town␣␣Meeting: …" (two spaces), a no-break
space, a zero-width character or full-width letters do not make a Town Meeting into a plain Proposal, on any
way in (posting, retitling, moving into Proposals, defining a kind)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dynasties.phases import DAYTIME, NIGHTTIME, OUTSIDE_PHASE
from tests.factories import make_proposal, vote
from tests.kinds_builders import village
from votes import matter_kind_rules
from votes.matter_kind_services import KindError, matter_kind_define
from votes.models import Post
from votes.posting import PostError
from votes.services import NOT_IN_ELECTORATE, VoteError
from votes.subjects import subject_form
from votes.tallying import title_declares_trivial

NIGHT = datetime(2016, 7, 25, 20, 0, tzinfo=UTC)  # the 25th: odd, Nighttime
DAY = datetime(2016, 7, 26, 9, 0, tzinfo=UTC)  # the 26th: even, Daytime
REFUSED_AT_NIGHT = OUTSIDE_PHASE.format(
    what="A Town Meeting", done="posted", phase=DAYTIME, now_phase=NIGHTTIME, until="Tue 26 Jul 2016 00:00"
)

TOWN_MEETING = matter_kind_rules.KindSpec(
    name="Town Meeting",
    base=matter_kind_rules.BASE_PROPOSAL,
    subject_rule=matter_kind_rules.SUBJECT_PHRASE,
    subject_text="Town Meeting",
    id=1,
)
PETITION = matter_kind_rules.KindSpec(
    name="Petition",
    base=matter_kind_rules.BASE_MATTER,
    subject_rule=matter_kind_rules.SUBJECT_PREFIX,
    subject_text="Petition:",
)

# Ways of writing "Town Meeting" that read the same.
DISGUISES = [
    "Proposal: Town  Meeting: Barn Raising",  # two spaces
    "Proposal: Town\u00a0Meeting: Barn Raising",  # no-break space
    "Proposal: Town\u202fMeeting: Barn Raising",  # narrow no-break space
    "Proposal: Town\u3000Meeting: Barn Raising",  # ideographic space
    "Proposal: Town\tMeeting: Barn Raising",  # tab
    "Proposal: Town \u200bMeeting: Barn Raising",  # a space and a zero-width space
    "Proposal: To\u200dwn Meet\u00adi\u2060ng: Barn Raising",  # zero-width joiner, soft hyphen, word joiner
    "Proposal: Ｔｏｗｎ Ｍｅｅｔｉｎｇ: Barn Raising",  # full-width letters
    "Proposal: TOWN MEETING: Barn Raising",
]


@pytest.mark.parametrize("title", DISGUISES)
def test_a_town_meeting_is_one_however_its_spaces_and_letters_are_written(title):
    """2008: "If a Proposal title includes the phrase 'Town Meeting', then it represents a physical activity
    within the village" — the phrase as a reader sees it, whatever spaces or invisible characters it holds."""
    assert matter_kind_rules.matches_subject(TOWN_MEETING, title)
    assert (
        matter_kind_rules.kind_for_title([TOWN_MEETING], base=matter_kind_rules.BASE_PROPOSAL, title=title)
        == TOWN_MEETING
    )


@pytest.mark.parametrize("title", ["Proposal: TownMeeting", "Proposal: Town-Meeting", "Proposal: Town\u200bMeeting"])
def test_words_that_read_differently_are_not_the_phrase(title):
    assert not matter_kind_rules.matches_subject(TOWN_MEETING, title)


@pytest.mark.parametrize(
    "title",
    [
        "Petition:  Accuse P05",
        "Petition:\u00a0Accuse P05",
        "\u200bPetition: Accuse P05",
        "ＰＥＴＩＴＩＯＮ： Accuse P05",
    ],
)
def test_a_petition_prefix_is_read_the_same_way(title):
    """2005: "a post with a subject of 'Petition: [Topic]'"."""
    assert matter_kind_rules.matches_subject(PETITION, title)


def test_a_prefix_still_needs_a_topic_after_it_whatever_spaces_follow():
    assert not matter_kind_rules.matches_subject(PETITION, "Petition:\u00a0\u200b\u3000")


def test_the_subject_form_collapses_white_space_removes_invisible_characters_and_folds_case():
    assert subject_form("  Town\u00a0\u2003 Meet\u200bing\n:  Barn \x00") == "town meeting : barn"
    assert subject_form("Straße") == subject_form("STRASSE")
    assert subject_form("") == ""


def test_two_subject_rules_that_differ_only_in_spacing_clash():
    """A second kind "Town␣␣Meeting" would match every title the first does."""
    twin = matter_kind_rules.KindSpec(
        name="Gathering",
        base=matter_kind_rules.BASE_PROPOSAL,
        subject_rule=matter_kind_rules.SUBJECT_PHRASE,
        subject_text="town\u00a0\u00a0meeting",
    )
    problems = matter_kind_rules.spec_problems(twin, columns={}, others=[TOWN_MEETING])
    assert problems == [
        matter_kind_rules.CLASHES_WITH.format(
            subject=twin.subject_text, other="Town Meeting", their=matter_kind_rules.describe_subject(TOWN_MEETING)
        )
    ]


def test_trivial_in_a_title_is_read_the_same_way():
    """2005: "A Family can state in his Proposal's title that the Proposal is Trivial"."""
    assert title_declares_trivial("Proposal: Tri\u200bvial: Fix a typo")
    assert title_declares_trivial("Proposal: Ｔｒｉｖｉａｌ Fix")
    assert not title_declares_trivial("Proposal: Trivially Large")


@pytest.mark.django_db
@pytest.mark.parametrize("title", DISGUISES[:3])
def test_a_spaced_out_town_meeting_is_refused_at_night_and_nothing_is_posted(t0, title):
    """The finding: "Proposal: Town␣␣Meeting: …" posted at night as a plain Proposal. 2008: "Town Meetings may
    be called by any living Villager during the daytime"."""
    players, _ = village(t0, phase=DAYTIME)
    before = Post.objects.count()
    with pytest.raises(PostError) as refused:
        make_proposal(players[2], at=NIGHT, title=title)
    assert str(refused.value) == REFUSED_AT_NIGHT
    assert Post.objects.count() == before


@pytest.mark.django_db
def test_the_dead_and_the_prisoner_may_not_vote_on_a_spaced_out_town_meeting(t0):
    """2008: "Dead Villagers and Prisoners may not vote in a Town Meeting"."""
    players, _ = village(t0)
    meeting = make_proposal(players[2], at=t0, title="Proposal: Town\u00a0\u00a0Meeting: Lynching")
    assert meeting.matter_kind.name == "Town Meeting"
    for dead_or_gaoled in (players[6], players[5]):
        with pytest.raises(VoteError, match=NOT_IN_ELECTORATE.format(kind="Town Meeting")):
            vote(meeting, dead_or_gaoled, "for", at=t0 + timedelta(hours=1))


@pytest.mark.django_db
def test_an_admin_may_not_define_a_kind_that_differs_from_another_only_in_spacing(t0):
    players, citation = village(t0)
    with pytest.raises(KindError) as refused:
        matter_kind_define(
            admin=players[1],
            proposal=citation,
            now=t0,
            name="Gathering",
            base="proposal",
            subject_rule="phrase",
            subject_text="Town\u00a0 Meeting",
        )
    assert "would also match the kind “Town Meeting”" in str(refused.value.problems)
