"""Rules shared by every profile: Quorum, the oldest pending proposal, the profiles themselves, and the
engine's guards on its input."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

import pytest

from dynasties.profiles import PROFILES, UNKNOWN_PROFILE_MESSAGE, get_profile
from votes.engine import UNKNOWN_KIND_MESSAGE, oldest_pending, quorum, tally

from .builders import POSTED, electorate, hours, judged, matter, vote, votes


@pytest.mark.parametrize(("active", "expected"), [(0, 1), (1, 1), (2, 2), (8, 5), (9, 5), (10, 6), (11, 6)])
def test_quorum_is_half_rounded_down_plus_one(active: int, expected: int) -> None:
    """All eras: 'Quorum is equal to half the number of [players], rounded down, plus one.'"""
    assert quorum(active) == expected


@pytest.mark.parametrize("name", ["2005", "2008"])
def test_oldest_pending_is_the_oldest_even_when_old(name: str) -> None:
    """2005/2008 'the oldest pending Proposal' has no staleness rule: a week-old proposal is still first."""
    pending = [("newer", hours(30)), ("old", hours(0))]
    assert oldest_pending_of(pending, name, at_hours=500) == "old"


def test_oldest_pending_keeps_the_given_order_for_ties() -> None:
    """Two proposals posted in the same second: the first listed is taken as the older."""
    pending = [("first", hours(1)), ("second", hours(1))]
    assert oldest_pending_of(pending, "2016", at_hours=2) == "first"


def test_oldest_pending_ignores_proposals_posted_after_now() -> None:
    """A proposal posted after the moment asked about was not pending then."""
    assert oldest_pending_of([("later", hours(5))], "2016", at_hours=4) is None
    assert oldest_pending_of([], "2016", at_hours=4) is None


def test_get_profile_names_the_known_profiles() -> None:
    """Profiles are '2005', '2008' and '2016'; any other name is a clear ValueError."""
    assert set(PROFILES) == {"2005", "2008", "2016"}
    assert get_profile("2008").ruleset == "Rulesets 50 and 52"
    with pytest.raises(ValueError) as raised:
        get_profile("2012")
    assert str(raised.value) == UNKNOWN_PROFILE_MESSAGE.format(name="2012", known="2005, 2008, 2016")


def test_changed_core_rules_are_a_modified_profile() -> None:
    """An enacted proposal that changes the core rules is a replaced parameter, e.g. a 24-hour wait."""
    longer_wait = dataclasses.replace(get_profile("2016"), quorum_wait_hours=24)
    subject = matter(votes("for", "Ben", "Cat", "Dan", "Eve"))
    judgement = judged(subject, longer_wait, 12)
    assert not judgement.can_enact
    assert judgement.enact_from == hours(24)


def test_unknown_kind_is_rejected() -> None:
    """Only proposal, cfj and dov are votable."""
    with pytest.raises(ValueError) as raised:
        tally(matter(kind="story"), electorate=electorate(), profile=get_profile("2016"), now=hours(1))
    assert str(raised.value) == UNKNOWN_KIND_MESSAGE.format(kind="story")


def test_naive_now_is_rejected() -> None:
    """Time is UTC and always timezone-aware; a naive `now` is a programming error."""
    with pytest.raises(ValueError):
        tally(matter(), electorate=electorate(), profile=get_profile("2016"), now=datetime(2016, 7, 26))


@pytest.mark.parametrize("name", ["2005", "2008", "2016"])
def test_future_votes_do_not_bring_the_earliest_time_forward(name: str) -> None:
    """Earliest times assume no vote changes: FOR votes posted after `now` do not count towards them."""
    subject = matter(votes("for", "Ben", "Cat", "Dan", "Eve", at_hours=30))
    judgement = judged(subject, get_profile(name), 1)
    assert judgement.tally.for_count == 1
    assert judgement.enact_from is None or judgement.enact_from >= hours(48)


@pytest.mark.parametrize("name", ["2005", "2008", "2016"])
def test_matter_posted_after_now_has_been_open_zero_hours(name: str) -> None:
    """A tally asked for before the post existed shows it open for zero hours."""
    before = POSTED - timedelta(hours=1)
    counted = tally(matter(vote("Ben", 1, "for")), electorate=electorate(), profile=get_profile(name), now=before)
    assert counted.open_hours == 0
    assert counted.votes == {"Amy": "for"}


def oldest_pending_of(pending: list[tuple[str, datetime]], name: str, *, at_hours: float) -> object | None:
    return oldest_pending(pending, profile=get_profile(name), now=hours(at_hours))
