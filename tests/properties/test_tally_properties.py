"""Properties of the tally engine (``votes.engine``) over generated games, for every profile and kind.

- A vote sequence's tally does not depend on how unrelated voters' comments interleave: only each voter's
  own comments, in their own order, decide their vote.
- A matter is never both enactable and failable at the same moment, except where the seed rules grant both
  in so many words (three cases, each named below and checked to be exactly that case).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from dynasties.profiles import PROFILES
from tests.properties.profiles import examples
from votes.engine import judge
from votes.tallying import (
    ICONS,
    PROPOSAL,
    VOTABLE_KINDS,
    Ballot,
    Electorate,
    Matter,
    is_stale,
    oldest_pending,
    tally,
)

POSTED = datetime(2016, 7, 25, 12, 0, tzinfo=UTC)
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]

profiles = st.sampled_from(sorted(PROFILES))
kinds = st.sampled_from(VOTABLE_KINDS)
icons = st.one_of(st.none(), st.sampled_from(ICONS))


@st.composite
def electorates(draw) -> Electorate:
    active = draw(st.sets(st.sampled_from(NAMES), min_size=1))
    emperor = draw(st.one_of(st.none(), st.sampled_from(NAMES)))
    return Electorate(active=frozenset(active), emperor=emperor, hiatus=draw(st.booleans()))


@st.composite
def voter_sequences(draw) -> dict[str, list[tuple[str | None, bool]]]:
    """Each voter's own comments in order: (icon or None, marked Trivial)."""
    voters = draw(st.lists(st.sampled_from(NAMES), unique=True, max_size=len(NAMES)))
    return {voter: draw(st.lists(st.tuples(icons, st.booleans()), min_size=1, max_size=4)) for voter in voters}


def interleave(sequences: dict[str, list], order: list[str]) -> list[Ballot]:
    """Ballots in the order ``order`` names voters (each voter's comments stay in their own order), one
    minute apart; each ballot's id names its voter and its place in the voter's own sequence."""
    taken = {voter: 0 for voter in sequences}
    ballots = []
    for minute, voter in enumerate(order):
        icon, trivial = sequences[voter][taken[voter]]
        ballots.append(
            Ballot(
                author=voter,
                at=POSTED + timedelta(minutes=minute + 1),
                icon=icon,
                comment_id=(voter, taken[voter]),
                trivial=trivial,
            )
        )
        taken[voter] += 1
    return ballots


def orders(sequences: dict[str, list]):
    """Any interleaving of the voters' comments: a permutation of the multiset of voter names."""
    slots = [voter for voter, comments in sequences.items() for _ in comments]
    return st.permutations(slots)


@settings(max_examples=examples(100))
@given(
    data=st.data(),
    profile=profiles,
    kind=kinds,
    electorate=electorates(),
    sequences=voter_sequences(),
    author=st.sampled_from(NAMES),
    hours=st.integers(min_value=1, max_value=24 * 9),
)
def test_a_tally_does_not_depend_on_how_voters_interleave(data, profile, kind, electorate, sequences, author, hours):
    """Two interleavings of the same voters' comments (each voter's own in order) give the same tally and
    the same judgement: who votes what never depends on when someone else commented."""
    first = data.draw(orders(sequences))
    second = data.draw(orders(sequences))
    now = POSTED + timedelta(hours=hours)
    results = []
    for order in (first, second):
        matter = Matter(
            id=1,
            kind=kind,
            author=author,
            posted_at=POSTED,
            ballots=tuple(interleave(sequences, order)),
            title="Proposal: Tides",
        )
        counted = tally(matter, electorate=electorate, profile=PROFILES[profile], now=now)
        judged = judge(matter, electorate=electorate, profile=PROFILES[profile], now=now)
        results.append(
            (counted, judged.can_enact, judged.can_fail, judged.reasons, judged.enact_from, judged.fail_from)
        )
    assert results[0] == results[1]


def seed_grants_both(judged, matter: Matter, profile, now) -> str | None:
    """Which clause of the seeds makes an admin free to enact or to fail this matter, if any does.

    - Ruleset 21 (2005): enacted when "FOR votes exceed or equal Quorum, or if it is more than 48 hours old and
      more than half of its votes are FOR", failed "if the Family who proposed it has voted AGAINST it"; nothing
      bars enacting a self-killed proposal.
    - Ruleset 52 (2008): enacted with "FOR votes that exceed or equal Quorum … open for at least 12 hours",
      failed when "open for voting for at least 48 hours and has fewer than 2 valid votes": with a single
      active player, the author's own FOR is both.
    - Ruleset 142 (2016): a proposal "pending for more than 7 days" may be failed by any admin whatever its
      votes, Quorum reached or not; it is also skipped as the oldest, so it is never the one that may be enacted
      now.
    """
    counted = judged.tally
    if matter.kind == PROPOSAL and is_stale(matter.posted_at, profile=profile, now=now):
        # Whatever its votes: the queue skips it, so the admin panel offers only Fail.
        assert oldest_pending([(matter.id, matter.posted_at)], profile=profile, now=now) is None
        return "2016 stale proposal"
    if (
        matter.kind == PROPOSAL
        and profile.name == "2005"
        and counted.self_killed
        and not profile.self_kill_blocks_enactment
    ):
        # Enactable by Quorum FOR or, after 48 hours, by more than half FOR; failable once its author is AGAINST.
        return "2005 self-kill"
    if matter.kind != PROPOSAL or counted.for_count < counted.quorum:
        return None
    if profile.name == "2008" and counted.active_count == 1 and counted.valid_count < profile.long_vote_min_valid:
        return "2008 a lone player's own FOR"
    return None


@settings(max_examples=examples(150))
@given(
    data=st.data(),
    profile=profiles,
    kind=kinds,
    electorate=electorates(),
    sequences=voter_sequences(),
    author=st.sampled_from(NAMES),
    minutes=st.integers(min_value=0, max_value=60 * 24 * 10),
    trivial_title=st.booleans(),
)
def test_a_matter_is_never_both_enactable_and_failable(
    data, profile, kind, electorate, sequences, author, minutes, trivial_title
):
    """At no moment, under no profile, may an admin both enact and fail the same matter, unless a seed rule
    grants both in so many words; the moments from which either becomes possible are never in the past of
    ``now`` while it is impossible now."""
    order = data.draw(orders(sequences))
    now = POSTED + timedelta(minutes=minutes)
    matter = Matter(
        id=1,
        kind=kind,
        author=author,
        posted_at=POSTED,
        ballots=tuple(interleave(sequences, order)),
        title="Proposal: Trivial Tides" if trivial_title else "Proposal: Tides",
    )
    judged = judge(matter, electorate=electorate, profile=PROFILES[profile], now=now)
    if judged.can_enact and judged.can_fail:
        assert seed_grants_both(judged, matter, PROFILES[profile], now), judged.reasons
    if judged.enact_from is not None and not judged.can_enact:
        assert judged.enact_from > now
    if judged.fail_from is not None and not judged.can_fail:
        assert judged.fail_from > now
    assert judged.tally.for_count + judged.tally.against_count == judged.tally.valid_count
    assert set(judged.tally.votes) <= electorate.active


def test_a_stale_proposal_short_of_quorum_but_ahead_is_failable_and_never_offered_for_enacting():
    """Found by the explore profile: 2016, a Proposal open 168 hours and a minute, FOR ahead 2 to 0 of four
    active players (Quorum 3). "Open 168 hours with more FOR than AGAINST" makes it enactable and "pending more
    than 7 days" failable; Ruleset 142 lets any admin fail a stale proposal whatever its votes and skips it as the
    oldest, so it is never the one that may be enacted now: the seeds grant both, and only Fail is offered."""
    profile = PROFILES["2016"]
    now = POSTED + timedelta(minutes=10081)
    matter = Matter(
        id=1,
        kind=PROPOSAL,
        author="Ann",
        posted_at=POSTED,
        title="Proposal: Tides",
        ballots=(
            Ballot(author="Ann", at=POSTED + timedelta(minutes=1), icon=None, comment_id=("Ann", 0), trivial=False),
            Ballot(author="Bob", at=POSTED + timedelta(minutes=2), icon="for", comment_id=("Bob", 0), trivial=False),
        ),
    )
    electorate = Electorate(active=frozenset({"Ann", "Bob", "Cat", "Dan"}), emperor=None, hiatus=False)
    judged = judge(matter, electorate=electorate, profile=profile, now=now)
    assert judged.can_enact and judged.can_fail and judged.tally.for_count < judged.tally.quorum
    assert seed_grants_both(judged, matter, profile, now) == "2016 stale proposal"
    assert oldest_pending([(matter.id, matter.posted_at)], profile=profile, now=now) is None


def test_a_2005_self_killed_proposal_with_a_for_majority_after_48_hours_is_both():
    """Found by the explore profile: 2005, six active Families (Quorum 4), the author AGAINST and two FOR, 48
    hours and a minute in. Ruleset 21 enacts "if it is more than 48 hours old and more than half of its votes are
    FOR" and fails "if the Family who proposed it has voted AGAINST it": both, in so many words."""
    profile = PROFILES["2005"]
    now = POSTED + timedelta(minutes=2881)
    ballots = tuple(
        Ballot(author=name, at=POSTED + timedelta(minutes=i + 1), icon=icon, comment_id=(name, 0), trivial=False)
        for i, (name, icon) in enumerate([("Dan", "against"), ("Eve", "for"), ("Fay", "for")])
    )
    matter = Matter(id=1, kind=PROPOSAL, author="Dan", posted_at=POSTED, title="Proposal: Tides", ballots=ballots)
    electorate = Electorate(active=frozenset({"Ann", "Bob", "Cat", "Dan", "Eve", "Fay"}), emperor=None, hiatus=False)
    judged = judge(matter, electorate=electorate, profile=profile, now=now)
    assert judged.can_enact and judged.can_fail and judged.tally.for_count < judged.tally.quorum
    assert seed_grants_both(judged, matter, profile, now) == "2005 self-kill"
