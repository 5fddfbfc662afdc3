"""What the pages show about votable matters, built for their templates: the post page's and the admin
panel's view of a matter, the front page's toteboards, and the sidebar's votes awaited from a player."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import Q

from dynasties.models import Game
from dynasties.profiles import Profile
from dynasties.terms import replace_keywords
from votes import effects, engine, horizon, limits, matter_kind_rules, tallying
from votes.at_moment import judge_at, read_basis_at
from votes.engine_inputs import ballots_from, edit_comments, electorate_of, matter_from
from votes.judging import (
    judge_matter,
    oldest_pending_id,
    resolution_standings,
)
from votes.matter_kind_services import effects_in_force, resolution_facts
from votes.models import Comment, Icon, Kind, Post, Resolution
from votes.recorded import Recorded, read_recorded
from votes.selectors import votes_by_post
from votes.standing import ENACT_WITHOUT_AMENDMENT, Standing
from votes.state import GameState

TENTH_OF_AN_HOUR = timedelta(minutes=6)


def edit_verdict_for(post: Post, comments: Sequence[Comment], *, viewer, profile, now: datetime):
    """Whether ``viewer`` may edit ``post`` now and why not, for its author; None for anyone else, to whom
    editing is never offered."""
    if not viewer.is_authenticated or viewer.pk != post.author_id:
        return None
    return limits.edit_allowed(
        profile=profile,
        post_author=post.author.username,
        editor=viewer.username,
        official=post.kind in limits.OFFICIAL_KINDS,
        comments=edit_comments(comments),
        now=now,
        resolved=post.is_resolved,
        kind=post.kind,
    )


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
    why_no_vote: str = ""  # for a logged-in reader offered no icon: why
    can_comment: bool = False
    may_resolve: bool = False
    is_stale: bool = False
    emperor_may_decide: bool = False  # 2005: the viewer is the Duke and may rule on this DoV now
    terms: dict[str, str] = field(default_factory=dict)  # the dynasty's words for "Player" and "Emperor"
    not_voted: list[str] = field(default_factory=list)  # active players with no counted vote, while pending
    edit: limits.LimitVerdict | None = None  # for the post's author: may it be edited now, and why not
    options: dict[str, limits.LimitVerdict] = field(default_factory=dict)  # enact / fail, for a pending matter
    standing: Standing | None = None  # for a pending matter: what decides it now
    kind: matter_kind_rules.KindSpec | None = None  # the dynasty's own kind of matter this is, if any
    electorate: engine.Electorate | None = None  # who may vote on it
    effects_offered: dict[str, list] = field(default_factory=dict)  # enact / fail: optional effects to choose
    # An imported matter resolved where it came from: the result recorded there, and the admin's note.
    recorded: Recorded | None = None
    recorded_note: str = ""
    keeps_recorded_result: bool = False

    @property
    def recorded_differs(self) -> bool:
        """Whether the engine's count here is not the count recorded on the site the matter came from."""
        tally = self.tally
        return bool(self.recorded and tally and self.recorded.differs_from(tally.for_count, tally.against_count))

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
    def can_enact_without_amendment(self) -> bool:
        """The votes allow enacting, but only without the amendment, which no longer applies."""
        return ENACT_WITHOUT_AMENDMENT in self.options

    @property
    def enact_obstacle(self) -> str:
        return self.options["enact"].message if self.can_enact_without_amendment else ""

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


def allowed_icons_for(
    post: Post, *, viewer, state: GameState, electorate: engine.Electorate | None = None
) -> list[tuple[str, str]]:
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


NO_VOTE_NOT_A_PLAYER = "You are not a {player}, so you may comment here but not vote."


NO_VOTE_IDLE = "You are idle, and an idle {player} has no vote: unidle to vote."


NO_VOTE_NOT_ELECTED = "Only those the rule for {kind} names may vote on it, and you are not among them now."


def why_no_vote(post: Post, *, viewer, state: GameState, electorate: engine.Electorate | None) -> str:
    """Why a logged-in reader is offered no voting icon on a pending matter: said beside the Comment button."""
    player = state.player_term.lower()
    if viewer.username not in state.roster.active_names:
        idle = bool(state.roster.idle_among([viewer]))  # one query for the reader alone, not every idle player
        return (NO_VOTE_IDLE if idle else NO_VOTE_NOT_A_PLAYER).format(player=player)
    if electorate is not None and viewer.username not in electorate.active:
        kind = post.matter_kind.name if post.matter_kind_id else post.get_kind_display()
        return NO_VOTE_NOT_ELECTED.format(kind=kind)
    return ""


def matter_view(post: Post, *, state: GameState, now: datetime, viewer) -> MatterView:
    """Judge one post whose comments were prefetched, marking each comment's part in the tally."""
    comments = list(post.comments.all())
    rows = [CommentRow(comment=c) for c in comments]
    view = MatterView(
        post=post, judgement=None, rows=rows, terms={"Player": state.player_term, "Emperor": state.emperor_term}
    )
    view.can_comment = viewer.is_authenticated and not post.is_resolved
    view.may_resolve = viewer.is_authenticated and getattr(viewer, "is_admin", False)
    profile = state.game.rules_profile()
    view.edit = edit_verdict_for(post, comments, viewer=viewer, profile=profile, now=now)
    if not post.is_votable:
        return view
    matter = matter_from(post, comments)
    if post.is_pending:
        # Its hours open are shown to a tenth, rounded ("open 12.4 hours"), in the tally box and its reasons.
        horizon.note_ages((post.posted_at,), TENTH_OF_AN_HOUR / 2, now=now)
        view.judgement, electorate, view.kind = judge_matter(post, comments, state=state, now=now)
        view.not_voted = engine.not_voted(view.judgement.tally, active=electorate.active)
        oldest = oldest_pending_id(state.pending, profile=profile, now=now)
        view.is_oldest_pending = oldest == post.pk
        view.is_stale = post.kind == Kind.PROPOSAL and engine.is_stale(post.posted_at, profile=profile, now=now)
        options, standings = resolution_standings(
            [post], {post.pk: view.judgement}, state=state, now=now, oldest_id=oldest
        )
        view.options, view.standing = options[post.pk], standings[post.pk]
    else:
        electorate, profile = _judge_resolved(view, matter, comments, game=state.game)
    _mark_comment_rows(view, matter=matter, electorate=electorate, profile=profile)
    view.columns = _vote_columns(view.judgement, matter.ballots)
    view.allowed_icons = (
        allowed_icons_for(post, viewer=viewer, state=state, electorate=electorate) if post.is_pending else []
    )
    if post.is_pending and viewer.is_authenticated and not view.allowed_icons:
        view.why_no_vote = why_no_vote(post, viewer=viewer, state=state, electorate=electorate)
    view.electorate = electorate
    view.emperor_may_decide = bool(
        post.is_pending
        and view.judgement.emperor_may_decide
        and viewer.is_authenticated
        and state.emperor is not None
        and state.emperor.pk == viewer.pk
    )
    return view


def judged_as_of(*, resolved_at: datetime | None, comment_times: Sequence[datetime], posted_at: datetime) -> datetime:
    """The moment a resolved matter is judged at: its resolution, or, for one resolved with no resolution on
    record (an import from a blog that kept none), its last comment: never the reader's today, which would count
    years of idling players against it."""
    if resolved_at is not None:
        return resolved_at
    return max([posted_at, *comment_times])


def _judge_resolved(
    view: MatterView, matter, comments: list[Comment], *, game: Game
) -> tuple[engine.Electorate, Profile]:
    """A resolved matter, judged as the game stood at its resolution (electorate, hiatus and rules then),
    shown for the record; an imported one with the result recorded where it came from. Gives who could vote
    then and the rules then."""
    post = view.post
    latest = post.resolutions.filter(~Q(outcome=Resolution.REOPENED)).last()
    moment = judged_as_of(
        resolved_at=latest.at if latest else None, comment_times=[c.at for c in comments], posted_at=post.posted_at
    )
    basis = read_basis_at(moment, game=game)
    # Judged as it stood when resolved: the record never changes with time, so no moment is noted (one
    # noted after the resolution would expire the cached page in the past, and it would never be served).
    view.judgement, electorate, view.kind = judge_at(post, matter.ballots, basis=basis)
    view.keeps_recorded_result = post.keeps_recorded_result(latest)
    if view.keeps_recorded_result and latest is not None:
        view.recorded, view.recorded_note = read_recorded(latest.tally), latest.note
    return electorate, basis.profile


def _mark_comment_rows(view: MatterView, *, matter, electorate, profile) -> None:
    """Each comment's part in the tally: counted, superseded, not counted (and why), abstaining, or a
    replaced vote that still decides."""
    tally = view.judgement.tally
    effective = set(tally.effective_ballot.values())
    renames = {old: new for old, new in view.terms.items() if new and new != old}
    ballots = {ballot.comment_id: ballot for ballot in matter.ballots}
    decided: set[str] = set()
    facts = {"matter": matter, "electorate": electorate, "profile": profile, "tally": tally}
    for row in view.rows:
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


def _in_terms(text: str, renames: dict[str, str]) -> str:
    return replace_keywords(text, renames) if renames and text else text


def pending_votes_of(*, state: GameState, viewer, now: datetime) -> dict[int, str]:
    """Each pending matter ``viewer`` may vote on, with their vote as it counts now: the icon they last used,
    or the tally's vote for them when they used none (an author counts as FOR), or "" for none yet. Matters
    they may not vote on (a kind only the Emperor votes on, a Town Meeting closed to the dead) are absent."""
    if not getattr(viewer, "is_authenticated", False) or viewer.username not in state.roster.active_names:
        return {}
    by_post = votes_by_post(state.pending)
    votes = {}
    for post in state.pending:
        comments = by_post[post.pk]
        judgement, electorate, _ = judge_matter(post, comments, state=state, now=now)
        if viewer.username not in electorate.active:
            continue
        used = [comment.icon for comment in comments if comment.author_id == viewer.pk]
        votes[post.pk] = used[-1] if used else judgement.tally.votes.get(viewer.username, "")
    return votes


def awaiting_vote(*, state: GameState, votes: dict[int, str]) -> list[Post]:
    """The pending matters, oldest first, on which ``votes`` (of ``pending_votes_of``) has nothing counted."""
    return [post for post in state.pending if votes.get(post.pk) == ""]


@dataclass
class Toteboard:
    """A pending matter as the front page shows it: counts, age, the viewer's vote, resolvable now."""

    judgement: engine.Judgement
    deferential_count: int
    hours: int
    my_vote: str = ""  # the viewer's effective vote, "" when they have none
    my_vote_deferred: bool = False  # their DEFERENTIAL counts as the Emperor's vote
    may_vote: bool = False
    standing: Standing | None = None  # what decides it now

    @property
    def tally(self) -> engine.Tally:
        return self.judgement.tally


def toteboards(posts: Sequence[Post], *, state: GameState, now: datetime, viewer) -> dict[int, Toteboard]:
    """Toteboards of the pending matters among ``posts``, with one query for all their votes."""
    pending = [post for post in posts if post.is_votable and post.is_pending]
    if not pending:
        return {}
    by_post = votes_by_post(pending)
    profile = state.game.rules_profile()
    oldest = oldest_pending_id(state.pending, profile=profile, now=now)
    name = viewer.username if viewer.is_authenticated else None
    horizon.note_ages((post.posted_at for post in pending), timedelta(hours=1), now=now)  # "3 hours old"
    boards = {}
    judgements: dict[int, engine.Judgement] = {}
    for post in pending:
        judgement, electorate, _ = judge_matter(post, by_post[post.pk], state=state, now=now)
        tally = judgement.tally
        cast = {ballot.comment_id: ballot.icon for ballot in ballots_from(by_post[post.pk])}
        icons = [cast.get(tally.effective_ballot.get(voter)) for voter in tally.votes]
        board = Toteboard(
            judgement=judgement,
            deferential_count=icons.count(Icon.DEFERENTIAL),
            hours=int(tally.open_hours),
            may_vote=name in electorate.active,
        )
        if name in tally.votes:
            board.my_vote = tally.votes[name]
            board.my_vote_deferred = (
                cast.get(tally.effective_ballot.get(name)) == Icon.DEFERENTIAL and board.my_vote != Icon.DEFERENTIAL
            )
        judgements[post.pk] = judgement
        boards[post.pk] = board
    # What the toteboards say may be done now is what the admin panel offers: the same rule, asked once.
    _, standings = resolution_standings(pending, judgements, state=state, now=now, oldest_id=oldest, with_moments=False)
    for post_id, board in boards.items():
        board.standing = standings[post_id]
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
                facts = resolution_facts(
                    view.post, view.judgement.tally, electorate=everyone, enacted=action == "enact", admin=admin
                )
                view.effects_offered[action] = effects.offered(in_force, facts)
