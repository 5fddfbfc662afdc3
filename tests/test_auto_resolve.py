"""The auto_resolve beat job and the admin panel agree on what may be resolved now: one rule decides for both."""

from __future__ import annotations

from datetime import timedelta

import pytest

from dynasties.models import Game
from tests.factories import make_proposal, make_table, vote
from votes import limits
from votes.jobs import matters_auto_resolve
from votes.models import Post
from votes.page_models import matter_view
from votes.posting import post_create
from votes.state import game_state

pytestmark = pytest.mark.django_db


def panel_offers(admin, now) -> list[str]:
    """What the admin panel offers, as the job reports it: "slug: enact" or "slug: fail", oldest first."""
    state = game_state(now)
    offers = []
    for pending in state.pending:
        post = Post.objects.for_listing().with_comments().get(pk=pending.pk)
        view = matter_view(post, state=state, now=now, viewer=admin)
        if view.can_enact_now:
            offers.append(f"{post.slug}: enact")
        elif view.can_fail_now:
            offers.append(f"{post.slug}: fail")
    return offers


def test_auto_resolve_fails_a_stale_proposal_the_panel_offers_to_fail(t0):
    """2016: “If the oldest pending Proposal has been pending for more than 7 days, it is skipped when
    determining the oldest pending Proposal, and may be failed by any Admin.” The panel offers Fail on such a
    proposal even though it is not the oldest; the beat job fails it too."""
    players = make_table(5, start=t0 - timedelta(days=30))
    Game.objects.filter(pk=1).update(auto_resolve=True)
    stale = make_proposal(players[2], at=t0 - timedelta(days=8), title="Proposal: Forgotten")
    for voter in players[3:5]:
        vote(stale, voter, "against", at=t0 - timedelta(days=7, hours=20))
    make_proposal(players[3], at=t0 - timedelta(hours=1), title="Proposal: Fresh")
    assert panel_offers(players[1], t0) == [f"{stale.slug}: fail"]
    assert matters_auto_resolve(now=t0).done == [f"{stale.slug}: fail"]
    assert Post.objects.get(pk=stale.pk).status == "failed"
    assert panel_offers(players[1], t0) == [] and matters_auto_resolve(now=t0).done == []


def test_auto_resolve_resolves_a_declaration_the_hiatus_allows_past_a_proposal_it_forbids(t0):
    """2016: during a DoV's hiatus Proposals are not resolved, DoVs are. The panel offers the enactable DoV and
    not the enactable Proposal before it; the job does the same, instead of stopping at the Proposal."""
    players = make_table(5, start=t0 - timedelta(days=30))
    Game.objects.filter(pk=1).update(auto_resolve=True)
    proposal = make_proposal(players[2], at=t0 - timedelta(hours=30), title="Proposal: Before The Win")
    for voter in players[3:5]:
        vote(proposal, voter, "for", at=t0 - timedelta(hours=29))
    dov = post_create(author=players[3], kind="dov", title="DoV: Victory", body="I win.", now=t0 - timedelta(hours=13))
    for voter in (players[0], players[2], players[4]):
        vote(dov, voter, "for", at=t0 - timedelta(hours=12))
    state = game_state(t0)
    assert (
        limits.hiatus_resolve_allowed(
            kind="proposal", profile=state.game.rules_profile(), hiatus_reason=state.hiatus.reasons
        ).allowed
        is False
    )
    assert panel_offers(players[1], t0) == [f"{dov.slug}: enact"]
    assert matters_auto_resolve(now=t0).done == [f"{dov.slug}: enact"]
    assert Post.objects.get(pk=dov.pk).status == "enacted"
    assert Post.objects.get(pk=proposal.pk).status == "pending"


@pytest.mark.parametrize(
    ("kind", "oldest", "stale", "hiatus_allows", "enact", "fail"),
    [
        ("proposal", True, False, True, True, True),
        ("proposal", False, False, True, False, False),
        ("proposal", False, True, True, False, True),  # stale: any admin may fail it, none may enact it
        ("proposal", True, False, False, False, False),
        ("cfj", False, False, True, True, True),  # only Proposals queue
        ("dov", False, False, False, False, False),
    ],
)
def test_resolution_allowed_clause_by_clause(kind, oldest, stale, hiatus_allows, enact, fail):
    """“Only the oldest pending Proposal may be resolved”; a stale one “may be failed by any Admin”; hiatus
    forbids what the profile says; otherwise the matter's own votes and age decide."""
    from dynasties.profiles import get_profile

    profile = get_profile("2016")
    reason = None if hiatus_allows else "seasonal"
    for action, expected in (("enact", enact), ("fail", fail)):
        verdict = limits.resolution_allowed(
            action=action,
            kind=kind,
            can_enact=True,
            can_fail=True,
            is_oldest_pending=oldest,
            is_stale=stale,
            profile=profile,
            hiatus_reason=reason,
        )
        assert verdict.allowed is expected, (action, verdict.message)
    assert not limits.resolution_allowed(
        action="enact",
        kind=kind,
        can_enact=False,
        can_fail=True,
        is_oldest_pending=True,
        is_stale=False,
        profile=profile,
        hiatus_reason=None,
    ).allowed


def _resolvable_queue(players, size: int, t0) -> list[Post]:
    """``size`` proposals by different players, each with a Quorum of FOR votes for more than twelve hours."""
    proposals = []
    for n in range(size):
        proposal = make_proposal(players[n], at=t0 - timedelta(hours=30, minutes=-n), title=f"Proposal: Queue {n}")
        for voter in players[size : size + 5]:
            vote(proposal, voter, "for", at=t0 - timedelta(hours=20))
        proposals.append(proposal)
    return proposals


@pytest.mark.parametrize("size", [2, 4, 6])
def test_auto_resolve_judges_each_matter_about_once_however_many_it_resolves(
    t0, size, monkeypatch, django_assert_num_queries
):
    """“Only the oldest pending Proposal may be resolved”: the run enacts the queue one by one, in order, and
    judges each matter twice (once for the run, once when it is resolved) instead of after every resolution;
    its queries grow by the same number per matter resolved."""
    from votes import engine

    players = make_table(size + 5, start=t0 - timedelta(days=30))
    Game.objects.filter(pk=1).update(auto_resolve=True)
    proposals = _resolvable_queue(players, size, t0)
    judged = []
    judge = engine.judge
    monkeypatch.setattr(
        engine, "judge", lambda matter, **arguments: judged.append(matter.id) or judge(matter, **arguments)
    )
    with django_assert_num_queries(PER_RESOLUTION_QUERIES * size + RUN_QUERIES):
        report = matters_auto_resolve(now=t0)
    assert report.done == [f"{proposal.slug}: enact" for proposal in proposals]
    assert sorted(judged) == sorted([proposal.pk for proposal in proposals] * 2)
    assert set(Post.objects.filter(pk__in=[p.pk for p in proposals]).values_list("status", flat=True)) == {"enacted"}


# Each resolution: the game state again, the resolving service's own reads and its writes, and the look for an
# amendment that would stand in the way of enacting; each run: the game, the votes of every pending matter
# once and the last look that finds nothing more to resolve.
PER_RESOLUTION_QUERIES = 20
RUN_QUERIES = 7
