"""Reads that turn posts and comments into the engine's plain data and judge them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import Exists, OuterRef, Q, Subquery

from dynasties.clock import format_iso_time
from dynasties.models import Dynasty, Game, User
from dynasties.terms import replace_keywords
from votes import effects, engine, horizon, kinds, limits, tallying
from votes.matter_kinds import ValuesCache, effects_in_force, electorate_for_post, resolution_facts
from votes.models import Comment, Icon, Kind, Post, Resolution, Status
from votes.state import GameState


def ballots_from(comments: Iterable[Comment]) -> tuple[engine.Ballot, ...]:
    return tuple(
        engine.Ballot(author=c.author.username, at=c.at, icon=c.icon or None, comment_id=c.pk, trivial=c.trivial)
        for c in comments
    )


def matter_from(post: Post, comments: Iterable[Comment]) -> engine.Matter:
    return _matter_of(post, ballots_from(comments))


def _matter_of(post: Post, ballots: tuple[engine.Ballot, ...]) -> engine.Matter:
    return engine.Matter(
        id=post.pk,
        kind=post.kind,
        author=post.author.username,
        posted_at=post.posted_at,
        ballots=ballots,
        title=post.title,
        trivial=post.trivial,
    )


def edit_comments(comments: Iterable[Comment]) -> list[limits.PostComment]:
    """Comments as the edit locks see them; a comment by an account that never joined is a spectator's."""
    return [
        limits.PostComment(author=c.author.username, at=c.at, text=c.text, icon=c.icon or None,
                           by_player=c.author.joined_at is not None)
        for c in comments
    ]


def edit_verdict_for(post: Post, comments: Sequence[Comment], *, viewer, profile, now: datetime):
    """Whether ``viewer`` may edit ``post`` now and why not, for its author; None for anyone else, to whom
    editing is never offered."""
    if not viewer.is_authenticated or viewer.pk != post.author_id:
        return None
    return limits.edit_allowed(profile=profile, post_author=post.author.username, editor=viewer.username,
                               official=post.kind in limits.OFFICIAL_KINDS, comments=edit_comments(comments),
                               now=now, resolved=post.is_resolved)


def electorate_of(state: GameState) -> engine.Electorate:
    emperor = state.dynasty.emperor.username if state.dynasty and state.dynasty.emperor else None
    return engine.Electorate(active=state.roster.active_names, emperor=emperor, hiatus=state.hiatus is not None)


def values_cache(state: GameState) -> ValuesCache:
    """The GNDT values read for this state's page or service, kept with the state so they are read once."""
    cache = getattr(state, "_values_cache", None)
    if cache is None:
        cache = state._values_cache = ValuesCache()
    return cache


def judge_matter(post: Post, comments: Iterable[Comment], *, state: GameState, now: datetime
                 ) -> tuple[engine.Judgement, engine.Electorate, kinds.KindSpec | None]:
    """Judge a pending matter as it stands: its judgement, who may vote on it and its dynasty's kind, if any."""
    return _judge_ballots(post, ballots_from(comments), base=electorate_of(state), state=state, now=now)


def _judge_ballots(post: Post, ballots: tuple[engine.Ballot, ...], *, base: engine.Electorate, state: GameState,
                   now: datetime) -> tuple[engine.Judgement, engine.Electorate, kinds.KindSpec | None]:
    electorate, spec = electorate_for_post(post, base, cache=values_cache(state))
    judgement = _judge(_matter_of(post, ballots), electorate=electorate, profile=state.game.rules_profile(),
                       now=now, kind=spec)
    return judgement, electorate, spec


def electorate_at(moment: datetime) -> engine.Electorate:
    """Who could vote at a past moment: players active then, the Emperor of the dynasty then, hiatus then."""
    active = frozenset(User.objects.active_at(moment).values_list("username", flat=True))
    dynasty = Dynasty.objects.at(moment)
    emperor = dynasty.emperor.username if dynasty and dynasty.emperor else None
    pending_dov = bool(pending_at(moment, kinds=(Kind.DOV,)))
    return engine.Electorate(active=active, emperor=emperor, hiatus=pending_dov)


def oldest_pending_id(pending: Sequence[Post], *, profile, now: datetime) -> object | None:
    proposals = [(post.pk, post.posted_at) for post in pending if post.kind == Kind.PROPOSAL]
    return engine.oldest_pending(proposals, profile=profile, now=now)


def _votes_by_post(pending: Sequence[Post]) -> dict[int, list[Comment]]:
    """Every comment with an icon on these posts, oldest first, grouped by post: one query."""
    by_post: dict[int, list[Comment]] = defaultdict(list)
    votes = Comment.objects.filter(post__in=pending, icon__isnull=False).select_related("author")
    for comment in votes.order_by("at", "pk"):
        by_post[comment.post_id].append(comment)
    return by_post


def _judge(matter: engine.Matter, **arguments) -> engine.Judgement:
    """``engine.judge``, noting when its verdict would change with time alone (see ``votes.horizon``)."""
    judgement = engine.judge(matter, **arguments)
    horizon.note((judgement.enact_from, judgement.fail_from), now=arguments["now"])
    return judgement


def _ballots_by_post(pending: Sequence[Post]) -> dict[int, tuple[engine.Ballot, ...]]:
    """The ballots of ``_votes_by_post``, read as plain values: a sweep over a thousand matters spends most of
    its time making objects, and judging needs only these five columns of each vote."""
    by_post: dict[int, list[engine.Ballot]] = defaultdict(list)
    votes = (Comment.objects.filter(post__in=pending, icon__isnull=False).order_by("at", "pk")
             .values_list("post_id", "author__username", "at", "icon", "pk", "trivial"))
    for post_id, author, at, icon, pk, trivial in votes:
        by_post[post_id].append(engine.Ballot(author=author, at=at, icon=icon or None, comment_id=pk, trivial=trivial))
    return {post.pk: tuple(by_post[post.pk]) for post in pending}


def judge_posts(posts: Sequence[Post], *, state: GameState, now: datetime) -> dict[int, engine.Judgement]:
    """Judgements of the pending matters among ``posts``, with one query for all their votes."""
    pending = [post for post in posts if post.is_votable and post.is_pending]
    if not pending:
        return {}
    by_post = _ballots_by_post(pending)
    base = electorate_of(state)
    return {post.pk: _judge_ballots(post, by_post[post.pk], base=base, state=state, now=now)[0] for post in pending}


RESOLUTION_ACTIONS = ("enact", "fail")


def resolution_options(post: Post, judgement: engine.Judgement, *, state: GameState, now: datetime,
                       oldest_id: object | None) -> dict[str, limits.LimitVerdict]:
    """For a pending matter, whether each of enact and fail is legal now and why not: the one rule the admin
    panel, the resolving service and the auto_resolve job share (``limits.resolution_allowed``)."""
    profile = state.game.rules_profile()
    stale = post.kind == Kind.PROPOSAL and engine.is_stale(post.posted_at, profile=profile, now=now)
    return {
        action: limits.resolution_allowed(
            action=action, kind=post.kind, can_enact=judgement.can_enact, can_fail=judgement.can_fail,
            is_oldest_pending=oldest_id == post.pk, is_stale=stale, profile=profile,
            hiatus_reason=state.hiatus.reasons if state.hiatus else None,
        )
        for action in RESOLUTION_ACTIONS
    }


def resolvable_matters(state: GameState, *, now: datetime,
                       judgements: dict[int, engine.Judgement] | None = None) -> list[tuple[Post, str]]:
    """The pending matters the admin panel offers to resolve now, oldest first, each with the action the
    system takes (enact where both are legal). ``judgements`` of every pending matter, if already made for
    this state and moment, spare judging them again."""
    return list(iter_resolvable_matters(state, now=now, judgements=judgements))


def iter_resolvable_matters(state: GameState, *, now: datetime,
                            judgements: dict[int, engine.Judgement] | None = None) -> Iterator[tuple[Post, str]]:
    """``resolvable_matters`` one by one, for a caller that needs only the first."""
    if judgements is None:
        judgements = judge_posts(state.pending, state=state, now=now)
    oldest = oldest_pending_id(state.pending, profile=state.game.rules_profile(), now=now)
    for post in state.pending:
        options = resolution_options(post, judgements[post.pk], state=state, now=now, oldest_id=oldest)
        legal = [action for action in RESOLUTION_ACTIONS if options[action].allowed]
        if legal:
            yield post, legal[0]


@dataclass
class CommentRow:
    comment: Comment
    effective: bool = False
    superseded: bool = False
    not_counted: bool = False
    abstaining: bool = False  # an effective DEFERENTIAL that does not count yet (no Emperor's vote to follow)
    why_not_counted: str = ""  # for a voting icon that is no vote: why, and which vote counts instead
    still_decides: str = ""  # a replaced VETO or self-kill that the profile makes stick: "vetoed", "self-killed"


@dataclass
class MatterView:
    """Everything the post page and the admin panel show about one matter."""

    post: Post
    judgement: engine.Judgement | None
    rows: list[CommentRow]
    columns: dict[str, list[str]] = field(default_factory=dict)
    is_oldest_pending: bool = False
    allowed_icons: list[tuple[str, str]] = field(default_factory=list)
    can_comment: bool = False
    may_resolve: bool = False
    is_stale: bool = False
    emperor_may_decide: bool = False  # 2005: the viewer is the Duke and may rule on this DoV now
    terms: dict[str, str] = field(default_factory=dict)  # the dynasty's words for "Player" and "Emperor"
    hiatus_message: str = ""  # set when the hiatus forbids resolving this kind of matter now
    not_voted: list[str] = field(default_factory=list)  # active players with no counted vote, while pending
    edit: limits.LimitVerdict | None = None  # for the post's author: may it be edited now, and why not
    options: dict[str, limits.LimitVerdict] = field(default_factory=dict)  # enact / fail, for a pending matter
    kind: kinds.KindSpec | None = None  # the dynasty's own kind of matter this is, if any
    electorate: engine.Electorate | None = None  # who may vote on it
    effects_offered: dict[str, list] = field(default_factory=dict)  # enact / fail: optional effects to choose

    @property
    def reasons(self) -> list[str]:
        """The engine's reasons, in the dynasty's own words ("Hunters", "the Pirate")."""
        if not self.judgement:
            return []
        renames = {old: new for old, new in self.terms.items() if new and new != old}
        return [replace_keywords(reason, renames) if renames else reason for reason in self.judgement.reasons]

    @property
    def tally(self) -> engine.Tally | None:
        return self.judgement.tally if self.judgement else None

    @property
    def eligible_voters(self) -> list[str]:
        return sorted(self.electorate.active, key=str.lower) if self.electorate else []

    @property
    def vetoers(self) -> list[str] | None:
        """Who may veto a matter of the dynasty's own kind; None where the core rules say."""
        if self.electorate is None or self.electorate.vetoers is None:
            return None
        return sorted(self.electorate.vetoers, key=str.lower)

    @property
    def can_enact_now(self) -> bool:
        return "enact" in self.options and self.options["enact"].allowed

    @property
    def can_fail_now(self) -> bool:
        return "fail" in self.options and self.options["fail"].allowed

    @property
    def queue_allows(self) -> bool:
        return self.post.kind != Kind.PROPOSAL or self.is_oldest_pending


@dataclass(frozen=True)
class ColumnVoter:
    """A name under a tally column; a DEFERENTIAL that counts as the Emperor's vote is marked deferred."""

    name: str
    deferred: bool = False

    def __str__(self) -> str:
        return f"{self.name} (deferred)" if self.deferred else self.name


VOTE_COLUMNS = ("for", "against", "deferential", "veto")


def _vote_columns(judgement: engine.Judgement, ballots: Sequence[engine.Ballot]) -> dict[str, list[ColumnVoter]]:
    """Voters under the vote each counts as, so a column's length is its count; "deferential" holds only
    deferrals that count as nothing yet, "veto" the Emperor's standing VETO."""
    tally = judgement.tally
    cast_icon = {b.comment_id: b.icon for b in ballots}
    columns: dict[str, list[ColumnVoter]] = {key: [] for key in VOTE_COLUMNS}
    for voter, vote in sorted(tally.votes.items(), key=lambda item: item[0].lower()):
        cast = cast_icon.get(tally.effective_ballot.get(voter))
        if vote in columns:
            columns[vote].append(ColumnVoter(voter, deferred=cast == Icon.DEFERENTIAL and vote != cast))
    return columns


def allowed_icons_for(post: Post, *, viewer, state: GameState,
                      electorate: engine.Electorate | None = None) -> list[tuple[str, str]]:
    """The icons that can be a vote of ``viewer`` on ``post``; ``electorate`` is who may vote on it (by
    default every active player)."""
    if not post.is_votable or not viewer.is_authenticated or viewer.username not in state.roster.active_names:
        return []
    electorate = electorate or electorate_of(state)
    emperor = state.emperor
    is_emperor = emperor is not None and emperor.pk == viewer.pk
    profile = state.game.rules_profile()
    icons = []
    if viewer.username in electorate.active:
        icons = [(Icon.FOR.value, "FOR"), (Icon.AGAINST.value, "AGAINST")]
    # Only icons that can be a vote on this kind under this profile; others would be kept but never count.
    if icons and not is_emperor and post.kind in profile.deferential_kinds:
        icons.append((Icon.DEFERENTIAL.value, "DEFERENTIAL"))
    if electorate.vetoers is not None:
        if viewer.username in electorate.vetoers:
            icons.append((Icon.VETO.value, "VETO"))
    elif icons and is_emperor and post.kind in profile.veto_kinds:
        icons.append((Icon.VETO.value, "VETO"))
    return icons


def matter_view(post: Post, *, state: GameState, now: datetime, viewer) -> MatterView:
    """Judge one post whose comments were prefetched, marking each comment's part in the tally."""
    comments = list(post.comments.all())
    rows = [CommentRow(comment=c) for c in comments]
    view = MatterView(post=post, judgement=None, rows=rows,
                      terms={"Player": state.player_term, "Emperor": state.emperor_term})
    view.can_comment = viewer.is_authenticated and not post.is_resolved
    view.may_resolve = viewer.is_authenticated and getattr(viewer, "is_admin", False)
    profile = state.game.rules_profile()
    view.edit = edit_verdict_for(post, comments, viewer=viewer, profile=profile, now=now)
    if not post.is_votable:
        return view
    matter = matter_from(post, comments)
    if post.is_pending:
        view.judgement, electorate, view.kind = judge_matter(post, comments, state=state, now=now)
        view.not_voted = engine.not_voted(view.judgement.tally, active=electorate.active)
        oldest = oldest_pending_id(state.pending, profile=profile, now=now)
        view.is_oldest_pending = oldest == post.pk
        view.is_stale = post.kind == Kind.PROPOSAL and engine.is_stale(post.posted_at, profile=profile, now=now)
        view.options = resolution_options(post, view.judgement, state=state, now=now, oldest_id=oldest)
        if state.hiatus is not None:
            verdict = limits.hiatus_resolve_allowed(kind=post.kind, profile=profile, hiatus_reason=state.hiatus.reasons)
            view.hiatus_message = "" if verdict.allowed else verdict.message
    else:
        # A resolved matter keeps the electorate of its resolution time, shown for the record.
        moment = post.resolutions.filter(~Q(outcome="reopened")).values_list("at", flat=True).last() or now
        electorate, view.kind = electorate_for_post(post, electorate_at(moment), at=moment)
        view.judgement = _judge(matter, electorate=electorate, profile=profile, now=moment, kind=view.kind)
    tally = view.judgement.tally
    effective = set(tally.effective_ballot.values())
    renames = {old: new for old, new in view.terms.items() if new and new != old}
    ballots = {ballot.comment_id: ballot for ballot in matter.ballots}
    decided: set[str] = set()
    facts = {"matter": matter, "electorate": electorate, "profile": profile, "tally": tally}
    for row in rows:
        cid = row.comment.pk
        row.effective = cid in effective
        row.superseded = bool(row.comment.icon) and cid in tally.superseded
        row.not_counted = bool(row.comment.icon) and cid in tally.not_counted
        row.abstaining = row.effective and tally.votes.get(row.comment.author.username) == "deferential"
        if not row.comment.icon:
            continue
        if row.not_counted:
            row.why_not_counted = _in_terms(tallying.why_not_counted(ballots[cid], **facts), renames)
        decides = tallying.still_decides(ballots[cid], **facts, first_of_its_kind=row.comment.icon not in decided)
        if decides:
            decided.add(row.comment.icon)
            row.still_decides, row.superseded = decides, False
    view.columns = _vote_columns(view.judgement, matter.ballots)
    view.allowed_icons = (allowed_icons_for(post, viewer=viewer, state=state, electorate=electorate)
                          if post.is_pending else [])
    view.electorate = electorate
    view.emperor_may_decide = bool(
        post.is_pending and view.judgement.emperor_may_decide and viewer.is_authenticated
        and state.emperor is not None and state.emperor.pk == viewer.pk
    )
    return view


def _in_terms(text: str, renames: dict[str, str]) -> str:
    return replace_keywords(text, renames) if renames and text else text


def pending_at(moment: datetime, *, kinds: Sequence[str] | None = None) -> list[Post]:
    """Votable matters that were pending at ``moment``: posted by then and not resolved by then.

    One query, reading only matters pending now or resolved after ``moment`` (a matter resolved by then and
    never reopened since cannot have been pending), so its cost follows the queue, not the archive.
    """
    resolved_later = Resolution.objects.filter(post=OuterRef("pk"), at__gt=moment)
    outcome_then = (
        Resolution.objects.filter(post=OuterRef("pk"), at__lte=moment)
        .order_by("-at", "-pk")
        .values("outcome")[:1]
    )
    matters = Post.objects.votable() if kinds is None else Post.objects.filter(kind__in=kinds)
    return list(
        matters.filter(posted_at__lte=moment)
        .filter(Q(status=Status.PENDING) | Exists(resolved_later))
        .annotate(outcome_then=Subquery(outcome_then))
        .filter(Q(outcome_then__isnull=True) | Q(outcome_then=Resolution.REOPENED))
        .select_related("author")
        .order_by("posted_at", "pk")
    )


def tally_report(post: Post, *, now: datetime) -> dict:
    """The tally interface's JSON object (see the README) for ``post`` as it stood at ``now``."""
    game = Game.load()
    profile = game.rules_profile()
    comments = list(post.comments.filter(at__lte=now).select_related("author").order_by("at", "pk"))
    matter = matter_from(post, comments)
    electorate, spec = electorate_for_post(post, electorate_at(now), at=now)
    judgement = _judge(matter, electorate=electorate, profile=profile, now=now, kind=spec)
    tally = judgement.tally
    if post.kind == Kind.PROPOSAL:
        queue = [(p.pk, p.posted_at) for p in pending_at(now, kinds=(Kind.PROPOSAL,))]
        is_oldest = engine.oldest_pending(queue, profile=profile, now=now) == post.pk
    else:
        # Only proposals queue; a CfJ or DoV may be resolved whenever its own votes allow.
        is_oldest = True
    report = {
        "post": post.slug, "kind": post.kind, "at": format_iso_time(now), "profile": game.profile,
        "active_players": tally.active_count, "quorum": tally.quorum,
        "open_hours": round(tally.open_hours, 2), "votes": dict(sorted(tally.votes.items())),
        "for": tally.for_count, "against": tally.against_count,
        "self_killed": tally.self_killed, "vetoed": tally.vetoed, "can_enact": judgement.can_enact,
        "can_fail": judgement.can_fail, "is_oldest_pending": is_oldest, "reasons": list(judgement.reasons),
    }
    if spec is not None:
        # Only a matter of the dynasty's own kind carries these, so the core kinds' objects stay as they were.
        report["matter_kind"] = spec.name
        report["eligible_voters"] = sorted(electorate.active)
    return report


def last_failed_dov_with_against(author: User) -> datetime | None:
    """When the author's latest Declaration of Victory failed, if it had any AGAINST vote."""
    failed = (
        Post.objects.filter(author=author, kind=Kind.DOV, status=Status.FAILED)
        .filter(pk__in=Comment.objects.filter(icon="against").values("post_id"))
        .prefetch_related("resolutions")
        .order_by("-posted_at")
    )
    moments = [r.at for post in failed for r in post.resolutions.all() if r.outcome != "reopened"]
    return max(moments) if moments else None


def awaiting_vote(*, state: GameState, viewer, now: datetime) -> list[Post]:
    """The pending matters on which ``viewer``, an active player, has no counted vote yet, oldest first."""
    if not getattr(viewer, "is_authenticated", False) or viewer.username not in state.roster.active_names:
        return []
    by_post = _votes_by_post(state.pending)
    awaiting = []
    for post in state.pending:
        judgement, electorate, _ = judge_matter(post, by_post[post.pk], state=state, now=now)
        if viewer.username in electorate.active and viewer.username not in judgement.tally.votes:
            awaiting.append(post)
    return awaiting


def proposal_allowance_of(author: User, *, profile, now: datetime) -> limits.Allowance:
    """How many more proposals ``author`` may post today and have pending, by the profile's limits."""
    from datetime import timedelta

    recent = Post.objects.counting_towards_limits().filter(author=author).filter(
        Q(posted_at__gte=now - timedelta(days=2)) | Q(status=Status.PENDING))
    own = [limits.OwnProposal(posted_at=p.posted_at, pending=p.status == Status.PENDING, trivial=p.trivial)
           for p in recent.only("posted_at", "status", "trivial")]
    return limits.proposal_allowance(profile=profile, now=now, own=own)


# An enactment older than this is taken to have been carried out, or to have needed no Ruleset change.
AWAITING_RULESET_DAYS = 7
RULESET_SLUG = "ruleset"


def enacted_awaiting_ruleset(*, now: datetime) -> list[Post]:
    """Proposals and CfJs enacted in the last week that no Ruleset revision cites yet, newest first.

    The Ruleset's revisions name the post that caused them (``Revision.post``, reverse name ``revisions``);
    the lookup goes through that relation so this layer imports nothing of the wiki's.
    """
    from datetime import timedelta

    return list(
        Post.objects.filter(kind__in=(Kind.PROPOSAL, Kind.CFJ), status=Status.ENACTED,
                            resolutions__outcome="enacted",
                            resolutions__at__gte=now - timedelta(days=AWAITING_RULESET_DAYS))
        .exclude(revisions__page__slug=RULESET_SLUG)
        .exclude(amendment_applications__applied=True)  # its amendment carried out what it changed
        .distinct()
        .order_by("-posted_at")[:10]
    )


def votes_on_pending(user: User, state: GameState) -> dict[int, str]:
    """The last voting icon ``user`` used on each pending matter, in one query."""
    last: dict[int, str] = {}
    rows = (Comment.objects.filter(author=user, post__in=[post.pk for post in state.pending], icon__isnull=False)
            .order_by("at", "pk").values_list("post_id", "icon"))
    for post_id, icon in rows:
        last[post_id] = icon
    return last


@dataclass
class Toteboard:
    """A pending matter as the front page shows it: counts, age, the viewer's vote, resolvable now."""

    judgement: engine.Judgement
    deferential_count: int
    hours: int
    my_vote: str = ""  # the viewer's effective vote, "" when they have none
    my_vote_deferred: bool = False  # their DEFERENTIAL counts as the Emperor's vote
    may_vote: bool = False
    can_enact_now: bool = False
    can_fail_now: bool = False

    @property
    def tally(self) -> engine.Tally:
        return self.judgement.tally


def toteboards(posts: Sequence[Post], *, state: GameState, now: datetime, viewer) -> dict[int, Toteboard]:
    """Toteboards of the pending matters among ``posts``, with one query for all their votes."""
    pending = [post for post in posts if post.is_votable and post.is_pending]
    if not pending:
        return {}
    by_post = _votes_by_post(pending)
    profile = state.game.rules_profile()
    oldest = oldest_pending_id(state.pending, profile=profile, now=now)
    name = viewer.username if viewer.is_authenticated else None
    boards = {}
    for post in pending:
        judgement, electorate, _ = judge_matter(post, by_post[post.pk], state=state, now=now)
        tally = judgement.tally
        cast = {ballot.comment_id: ballot.icon for ballot in ballots_from(by_post[post.pk])}
        icons = [cast.get(tally.effective_ballot.get(voter)) for voter in tally.votes]
        board = Toteboard(judgement=judgement, deferential_count=icons.count(Icon.DEFERENTIAL),
                          hours=int(tally.open_hours), may_vote=name in electorate.active)
        if name in tally.votes:
            board.my_vote = tally.votes[name]
            board.my_vote_deferred = cast.get(tally.effective_ballot.get(name)) == Icon.DEFERENTIAL \
                and board.my_vote != Icon.DEFERENTIAL
        hiatus_forbids = state.hiatus is not None and not limits.hiatus_resolve_allowed(
            kind=post.kind, profile=profile, hiatus_reason=state.hiatus.reasons).allowed
        stale = post.kind == Kind.PROPOSAL and engine.is_stale(post.posted_at, profile=profile, now=now)
        queue_allows = post.kind != Kind.PROPOSAL or post.pk == oldest
        board.can_enact_now = judgement.can_enact and queue_allows and not hiatus_forbids
        board.can_fail_now = judgement.can_fail and (queue_allows or stale) and not hiatus_forbids
        boards[post.pk] = board
    return boards


def offer_optional_effects(views: Sequence[MatterView], *, state: GameState, admin) -> None:
    """Fill each pending matter's ``effects_offered``: the optional effects the admin may choose when enacting
    and when failing it now (2005: "they may claim 5 Thalers"), with one query for the dynasty's effects."""
    in_force = effects_in_force(state.dynasty) if views else []
    if not any(spec.optional for spec in in_force):
        return
    everyone = electorate_of(state)
    for view in views:
        if view.judgement is None or not view.post.is_pending:
            continue
        for action, legal in (("enact", view.can_enact_now), ("fail", view.can_fail_now)):
            if legal:
                facts = resolution_facts(view.post, view.judgement.tally, electorate=everyone,
                                         enacted=action == "enact", admin=admin)
                view.effects_offered[action] = effects.offered(in_force, facts)


RECENT_COMMENTS = 5


def recent_comments(limit: int = RECENT_COMMENTS) -> list[Comment]:
    """The latest comments anywhere, for the sidebar: one query that reads the newest rows of the index on
    ``at`` and only the columns the box shows."""
    return list(
        Comment.objects.select_related("author", "post")
        .only("pk", "at", "text", "icon", "author__username", "post__slug", "post__title")
        .order_by("-at", "-pk")[:limit]
    )
