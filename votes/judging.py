"""Judging matters as they stand, and what may be done with each pending one now: the one rule the admin
panel, the toteboards, the resolving service and the auto-resolve job share (``resolution_options``).
Also the tally interface's report of a matter at a moment."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta

from dynasties.clock import format_iso_time, moment_plus
from dynasties.models import Game
from votes import engine, horizon, limits, matter_kind_rules
from votes.at_moment import Basis, basis_of, judge_at, read_basis_at
from votes.engine_inputs import ballots_by_post, ballots_from, values_cache
from votes.models import Comment, Kind, Post
from votes.resolution_steps import obstacles_to_enacting
from votes.selectors import pending_at
from votes.standing import ENACT_WITHOUT_AMENDMENT, Standing, standing_of
from votes.state import GameState


def judge_matter(
    post: Post, comments: Iterable[Comment], *, state: GameState, now: datetime
) -> tuple[engine.Judgement, engine.Electorate, matter_kind_rules.KindSpec | None]:
    """Judge a pending matter as it stands: its judgement, who may vote on it and its dynasty's kind, if any."""
    return _judge_ballots(post, ballots_from(comments), basis=basis_of(state, at=now), state=state)


def _judge_ballots(
    post: Post, ballots: tuple[engine.Ballot, ...], *, basis: Basis, state: GameState
) -> tuple[engine.Judgement, engine.Electorate, matter_kind_rules.KindSpec | None]:
    judgement, electorate, spec = judge_at(post, ballots, basis=basis, cache=values_cache(state))
    _note_horizon(judgement, now=basis.at)
    return judgement, electorate, spec


def oldest_pending_id(pending: Sequence[Post], *, profile, now: datetime) -> object | None:
    proposals = [(post.pk, post.posted_at) for post in pending if post.kind == Kind.PROPOSAL]
    if profile.stale_after_days is not None:
        # A proposal turning stale is skipped as the oldest from that moment, with no write.
        stale_after = timedelta(days=profile.stale_after_days)
        horizon.note((moment_plus(posted_at, stale_after) for _, posted_at in proposals), now=now)
    return engine.oldest_pending(proposals, profile=profile, now=now)


def _note_horizon(judgement: engine.Judgement, *, now: datetime) -> None:
    """Note when the verdict would change with time alone (see ``votes.horizon``)."""
    horizon.note((judgement.enact_from, judgement.fail_from), now=now)


def judge_posts(posts: Sequence[Post], *, state: GameState, now: datetime) -> dict[int, engine.Judgement]:
    """Judgements of the pending matters among ``posts``, with one query for all their votes."""
    pending = [post for post in posts if post.is_votable and post.is_pending]
    if not pending:
        return {}
    by_post = ballots_by_post(pending)
    basis = basis_of(state, at=now)
    return {post.pk: _judge_ballots(post, by_post[post.pk], basis=basis, state=state)[0] for post in pending}


RESOLUTION_ACTIONS = ("enact", "fail")


def resolution_options(
    post: Post, judgement: engine.Judgement, *, state: GameState, now: datetime, oldest_id: object | None
) -> dict[str, limits.LimitVerdict]:
    """For a pending matter, whether each of enact and fail is legal now and why not: the one rule the admin
    panel, the resolving service and the auto_resolve job share (``limits.resolution_allowed``)."""
    profile = state.game.rules_profile()
    stale = post.kind == Kind.PROPOSAL and engine.is_stale(post.posted_at, profile=profile, now=now)
    return {
        action: limits.resolution_allowed(
            action=action,
            kind=post.kind,
            can_enact=judgement.can_enact,
            can_fail=judgement.can_fail,
            is_oldest_pending=oldest_id == post.pk,
            is_stale=stale,
            profile=profile,
            hiatus_reason=state.hiatus.reasons if state.hiatus else None,
        )
        for action in RESOLUTION_ACTIONS
    }


def with_enactment_obstacles(
    options: dict[int, dict[str, limits.LimitVerdict]],
    posts: Sequence[Post],
    *,
    now: datetime,
    later: Sequence[Post] = (),
) -> dict[int, str]:
    """Where the votes allow enacting but an obstacle stands, Enact is refused with its reason and enacting
    without the amendment (``ENACT_WITHOUT_AMENDMENT``) is offered instead. Asked only about matters that
    could be enacted now and those in ``later`` (in one question), so a page with none costs nothing more;
    answers the obstacles found among ``later``."""
    enactable = [post for post in posts if post.pk in options and options[post.pk]["enact"].allowed]
    found = obstacles_to_enacting([*enactable, *later], now=now)
    for post in enactable:
        if post.pk in found:
            options[post.pk][ENACT_WITHOUT_AMENDMENT] = options[post.pk]["enact"]
            options[post.pk]["enact"] = limits.LimitVerdict(allowed=False, message=found[post.pk])
    return {post.pk: found[post.pk] for post in later if post.pk in found}


def resolution_standings(
    posts: Sequence[Post],
    judgements: dict[int, engine.Judgement],
    *,
    state: GameState,
    now: datetime,
    oldest_id: object | None,
    with_moments: bool = True,
) -> tuple[dict[int, dict[str, limits.LimitVerdict]], dict[int, Standing]]:
    """Each pending matter's resolution options (as the resolving service checks them) and its standing: what
    decides it now, said once, for the tally box, the toteboard and the admin panel alike. A page that shows
    no moment from which a matter could be enacted (the toteboards) passes ``with_moments=False``, and whether
    it could be enacted then with its amendment is not asked."""
    options = {
        post.pk: resolution_options(post, judgements[post.pk], state=state, now=now, oldest_id=oldest_id)
        for post in posts
    }
    # A matter that only time keeps from Enact: would enacting it then still carry out its amendment?
    later = [
        post
        for post in posts
        if with_moments
        and options[post.pk]["enact"].message == limits.RESOLVE_NOT_LEGAL
        and judgements[post.pk].enact_from
    ]
    later_obstacles = with_enactment_obstacles(options, posts, now=now, later=later)
    oldest_title = next((post.title for post in state.pending if post.pk == oldest_id), None)
    standings = {
        post.pk: standing_of(
            options[post.pk],
            judgements[post.pk],
            oldest_title=oldest_title,
            later_obstacle=later_obstacles.get(post.pk, ""),
        )
        for post in posts
    }
    return options, standings


def resolvable_matters(
    state: GameState, *, now: datetime, judgements: dict[int, engine.Judgement] | None = None
) -> list[tuple[Post, str]]:
    """The pending matters the admin panel offers to resolve now, oldest first, each with the action the
    system takes (enact where both are legal). ``judgements`` of every pending matter, if already made for
    this state and moment, spare judging them again."""
    return list(iter_resolvable_matters(state, now=now, judgements=judgements))


def iter_resolvable_matters(
    state: GameState, *, now: datetime, judgements: dict[int, engine.Judgement] | None = None
) -> Iterator[tuple[Post, str]]:
    """``resolvable_matters`` one by one, for a caller that needs only the first."""
    if judgements is None:
        judgements = judge_posts(state.pending, state=state, now=now)
    oldest = oldest_pending_id(state.pending, profile=state.game.rules_profile(), now=now)
    options = {
        post.pk: resolution_options(post, judgements[post.pk], state=state, now=now, oldest_id=oldest)
        for post in state.pending
    }
    with_enactment_obstacles(options, state.pending, now=now)
    for post in state.pending:
        legal = [action for action in RESOLUTION_ACTIONS if options[post.pk][action].allowed]
        if legal:
            yield post, legal[0]


def kept_tally(tally: engine.Tally) -> dict:
    """The tally a resolution keeps (``Resolution.tally``): the counts and who voted how."""
    return {
        "for": tally.for_count,
        "against": tally.against_count,
        "quorum": tally.quorum,
        "votes": dict(tally.votes),
        "self_killed": tally.self_killed,
        "vetoed": tally.vetoed,
    }


def tally_report(post: Post, *, now: datetime) -> dict:
    """The tally interface's JSON object (see docs/reference/commands.md) for ``post`` as it stood at ``now``."""
    game = Game.load()
    basis = read_basis_at(now, game=game)
    profile = basis.profile
    comments = list(post.comments.filter(at__lte=now).select_related("author").order_by("at", "pk"))
    judgement, electorate, spec = judge_at(post, ballots_from(comments), basis=basis)
    _note_horizon(judgement, now=now)
    horizon.note_ages((post.posted_at,), timedelta(hours=0.005), now=now)  # its hours open, to a hundredth
    tally = judgement.tally
    if post.kind == Kind.PROPOSAL:
        queue = [(p.pk, p.posted_at) for p in pending_at(now, kinds=(Kind.PROPOSAL,))]
        is_oldest = engine.oldest_pending(queue, profile=profile, now=now) == post.pk
    else:
        # Only proposals queue; a CfJ or DoV may be resolved whenever its own votes allow.
        is_oldest = True
    report = {
        "post": post.slug,
        "kind": post.kind,
        "at": format_iso_time(now),
        "profile": game.profile,
        "active_players": tally.active_count,
        "quorum": tally.quorum,
        "open_hours": round(tally.open_hours, 2),
        "votes": dict(sorted(tally.votes.items())),
        "for": tally.for_count,
        "against": tally.against_count,
        "self_killed": tally.self_killed,
        "vetoed": tally.vetoed,
        "can_enact": judgement.can_enact,
        "can_fail": judgement.can_fail,
        "is_oldest_pending": is_oldest,
        "reasons": list(judgement.reasons),
    }
    if spec is not None:
        # Only a matter of the dynasty's own kind carries these, so the core kinds' objects stay as they were.
        report["matter_kind"] = spec.name
        report["eligible_voters"] = sorted(electorate.active)
    return report
