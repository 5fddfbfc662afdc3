"""Writes on votable matters: commenting and voting, resolving, reopening.

Each service validates, runs in one transaction, locks the post it changes and records who did what when.
A refused action raises ``VoteError`` with a message meant for the player, and writes nothing.

Every write on a matter reads the clock only once it holds the lock on the matter's row (unless the caller
passes ``now``), so the records of one matter are dated in the order they were made: a vote stored before a
resolution is earlier than it and counted in its tally, a vote that comes after finds the matter closed and
is refused, and a vote never bears a time at which the matter was closed. A caller that passes ``now`` (an
import, a beat job, a test) is held to the same order: a moment earlier than what the matter already records
is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from dynasties.models import User
from votes import effects, engine, limits, matter_kind_rules, resolution_steps
from votes.engine_inputs import electorate_of, values_cache
from votes.fairplay_notices import after_commit, fair_play_check_comment
from votes.judging import judge_matter, kept_tally, oldest_pending_id, resolution_options
from votes.matter_kind_services import effects_in_force, electorate_for_post, resolution_facts
from votes.models import MAX_BODY_BYTES, Comment, Icon, Kind, Outcome, Post, Resolution, Status
from votes.resolution_steps import EnactmentRefused, Resolving
from votes.state import GameState, game_state


class VoteError(Exception):
    """An action on a votable matter was refused; the message says why."""


class VoteForbidden(VoteError):
    """Refused because of who asks rather than what is asked (the API answers it 403, not 400): not an admin,
    not in the electorate, not the one who may VETO."""


class CommentUnreadable(VoteError):
    """The comment itself cannot be taken, whatever the game: empty, too long, or an icon that is none."""


class MatterClosed(VoteError):
    """The matter is no longer open to comments: resolved, or reopened after the comment was sent."""


MATTER_CLOSED = "“{title}” was {how} at {when}; your {what} was not recorded. No more comments are accepted on it."
MATTER_CLOSED_UNDATED = (
    "“{title}” has been resolved ({status}); your {what} was not recorded. No more comments are accepted on it."
)
REOPENED_SINCE = "“{title}” was reopened at {when}, after your {what} was sent; it was not recorded. Send it again."
RECORDED_LATER = (
    "“{title}” has a {record} recorded at {when}, later than {moment}; nothing was changed. Look at it again."
)
EMPTY_COMMENT = "Write a comment or choose a voting icon."
COMMENT_TOO_LONG = "A comment may be at most 100 KB."
UNKNOWN_ICON = "“{icon}” is not a voting icon; use FOR, AGAINST, DEFERENTIAL or VETO."
ICON_ON_UNVOTABLE = "Only Proposals, Calls for Judgement and Declarations of Victory take votes."
NOT_IN_ELECTORATE = "Only those its rule names may vote on a {kind}; you may still comment without a voting icon."
VETO_NOT_YOURS = "You may not VETO a {kind}."
UNKNOWN_EFFECT = "“{effect}” is not an optional effect of resolving “{title}” this way now."
ONLY_PLAYERS_VOTE = "Only active {players} may vote; you may still comment without a voting icon."
VETO_ONLY_EMPEROR = "Only the {emperor} may VETO."
VETO_ONLY_PROPOSALS = "VETO may only be used on Proposals."
EMPEROR_CANNOT_DEFER = "The {emperor} cannot vote DEFERENTIAL."
TRIVIAL_ONLY_FOR = "Only a FOR vote may be marked Trivial, and only under the 2005 rules."
NOT_AN_ADMIN = "Only admins may resolve votable matters."
NOT_PENDING = "“{title}” is not pending; it is {status}."
IMPORTED_RESOLVED = (
    "“{title}” was resolved on the site it was imported from ({status}); its result stands as recorded there. "
    "Your {what} was not recorded."
)
IMPORTED_NOT_REOPENED = (
    "“{title}” was resolved on the site it was imported from; its recorded result stands and it cannot be reopened."
)
NOT_A_DOV = "“{title}” is not a Declaration of Victory but a {kind}: only a win can be ruled legal or illegal."
NOT_OLDEST = "Only the oldest pending Proposal may be resolved; “{oldest}” is older."
CANNOT_ENACT = "“{title}” cannot be enacted now: {why}"
CANNOT_FAIL = "“{title}” cannot be failed now: {why}"
NOT_RESOLVED = "“{title}” has not been resolved, so there is nothing to reopen."
REASON_NEEDED = "Say why the resolution is being reopened (for example the Call for Judgement that overturned it)."


def utc_stamp(moment: datetime) -> str:
    return date_format(moment, "j M Y H:i:s") + " UTC"


def _locked_post(post: Post) -> Post:
    return Post.objects.select_for_update().select_related("author").get(pk=post.pk)


def _moment(now: datetime | None) -> datetime:
    """The moment of a write on a locked matter: the caller's, or the clock read now that the lock is held."""
    return now if now is not None else timezone.now()


def _latest_resolution(post: Post) -> Resolution | None:
    return post.resolutions.select_related("by").order_by("-at", "-pk").first()


RESOLVED_HOW: dict[str, str] = {
    Outcome.ENACTED: "enacted",
    Outcome.FAILED: "failed",
    Outcome.VETOED: "failed (vetoed)",
    Outcome.SELF_KILLED: "failed (self-killed)",
}


def _closed_message(post: Post, last: Resolution | None, *, what: str) -> str:
    """Why a comment on a resolved matter was refused: how it was resolved, by whom and when, to the second."""
    if last is None or last.outcome not in RESOLVED_HOW:
        return MATTER_CLOSED_UNDATED.format(title=post.title, status=post.display_status.lower(), what=what)
    who = last.by.username if last.by else "the system"
    return MATTER_CLOSED.format(
        title=post.title, how=f"{RESOLVED_HOW[last.outcome]} by {who}", when=utc_stamp(last.at), what=what
    )


def _check_nothing_later(post: Post, comments, now: datetime, *, moment: str) -> None:
    """Refuse to resolve or reopen at a moment earlier than a vote or resolution the matter already records.

    Reading the clock under the lock makes this impossible for the site's own requests; it guards callers
    that pass their own ``now`` and clocks that step back.
    """
    last = _latest_resolution(post)
    later = [(c.at, "comment") for c in comments if c.at > now]
    if last is not None and last.at > now:
        later.append((last.at, "resolution"))
    if later:
        at, record = max(later)
        raise VoteError(
            RECORDED_LATER.format(
                title=post.title, record=record, when=utc_stamp(at), moment=f"this {moment} ({utc_stamp(now)})"
            )
        )


def comment_add(
    *,
    post: Post,
    author: User,
    text: str = "",
    icon: str | None = None,
    trivial: bool = False,
    now: datetime | None = None,
) -> Comment:
    """Add a comment, with at most one voting icon, to ``post``; ``now`` None means the clock, read under the lock."""
    return comment_added(post=post, author=author, text=text, icon=icon, trivial=trivial, now=now).comment


@dataclass(frozen=True)
class CommentAdded:
    comment: Comment
    # The game as the vote was checked against it, under the post's lock; None for a comment without a vote.
    state: GameState | None


def comment_added(
    *,
    post: Post,
    author: User,
    text: str = "",
    icon: str | None = None,
    trivial: bool = False,
    now: datetime | None = None,
) -> CommentAdded:
    """``comment_add``, also giving back the game state a vote was checked against: the page that shows the
    vote at once (an htmx vote) need not build it a second time (its roster is the largest query of a page)."""
    icon = icon or None
    text = text or ""
    if icon is None and not text.strip():
        raise CommentUnreadable(EMPTY_COMMENT)
    if len(text.encode("utf-8")) > MAX_BODY_BYTES:
        raise CommentUnreadable(COMMENT_TOO_LONG)
    if icon is not None and icon not in Icon.values:
        raise CommentUnreadable(UNKNOWN_ICON.format(icon=icon))
    with transaction.atomic():
        # The lock orders this vote against a resolution of the same matter: whichever comes second sees
        # the other's result, and its time, read under the lock, is later than the other's.
        post = _locked_post(post)
        now = _moment(now)
        what = "vote" if icon is not None else "comment"
        last = _latest_resolution(post)
        if post.keeps_recorded_result(last):
            raise MatterClosed(IMPORTED_RESOLVED.format(title=post.title, status=post.display_status, what=what))
        if post.is_resolved:
            raise MatterClosed(_closed_message(post, last, what=what))
        if last is not None and last.at > now:
            raise MatterClosed(REOPENED_SINCE.format(title=post.title, when=utc_stamp(last.at), what=what))
        state = None
        if icon is not None:
            state = _check_icon(post=post, author=author, icon=icon, trivial=trivial, now=now)
        elif trivial:
            raise VoteError(TRIVIAL_ONLY_FOR)
        comment = Comment.objects.create(post=post, author=author, at=now, icon=icon, trivial=trivial, text=text)
        after_commit(fair_play_check_comment, comment=comment, now=now)
        return CommentAdded(comment, state)


def _check_icon(*, post: Post, author: User, icon: str, trivial: bool, now: datetime) -> GameState:
    """Refuses a vote the rules do not allow; gives back the game state it was checked against."""
    state = game_state(now)
    if not post.is_votable:
        raise VoteError(ICON_ON_UNVOTABLE)
    if author.username not in state.roster.active_names:
        raise VoteForbidden(ONLY_PLAYERS_VOTE.format(players=state.players_term))
    is_emperor = state.emperor is not None and state.emperor.pk == author.pk
    if post.matter_kind_id is not None:
        _check_kind_icon(post=post, author=author, icon=icon, state=state, now=now)
    elif icon == Icon.VETO:
        if not is_emperor:
            raise VoteForbidden(VETO_ONLY_EMPEROR.format(emperor=state.emperor_term))
        if post.kind != Kind.PROPOSAL:
            raise VoteError(VETO_ONLY_PROPOSALS)
    if icon == Icon.DEFERENTIAL and is_emperor:
        raise VoteForbidden(EMPEROR_CANNOT_DEFER.format(emperor=state.emperor_term))
    if trivial and (icon != Icon.FOR or state.game.profile != "2005"):
        raise VoteError(TRIVIAL_ONLY_FOR)
    if state.hiatus is not None:
        verdict = limits.hiatus_vote_allowed(
            kind=post.kind, profile=state.game.rules_profile(), hiatus_reason=state.hiatus.reasons
        )
        if not verdict.allowed:
            raise VoteError(verdict.message)
    return state


def _check_kind_icon(*, post: Post, author: User, icon: str, state, now: datetime) -> None:
    """A matter of the dynasty's own kind: only its electorate votes, only its vetoers veto."""
    electorate, spec = electorate_for_post(post, electorate_of(state), cache=values_cache(state))
    assert spec is not None  # the post is of a kind (the caller checked ``matter_kind_id``), so it has a spec
    if icon == Icon.VETO:
        if electorate.vetoers is not None and author.username not in electorate.vetoers:
            raise VoteForbidden(VETO_NOT_YOURS.format(kind=spec.name))
        if electorate.vetoers is None and not (
            state.emperor and state.emperor.pk == author.pk and post.kind in state.game.rules_profile().veto_kinds
        ):
            raise VoteForbidden(VETO_NOT_YOURS.format(kind=spec.name))
        return
    if author.username not in electorate.active:
        raise VoteForbidden(NOT_IN_ELECTORATE.format(kind=spec.name))
    if icon == Icon.DEFERENTIAL and post.kind not in state.game.rules_profile().deferential_kinds:
        raise VoteForbidden(NOT_IN_ELECTORATE.format(kind=spec.name))


def _final_tally_text(tally: engine.Tally) -> str:
    return f"{tally.for_count}-{tally.against_count} (Quorum {tally.quorum})"


def matter_resolve(
    *,
    post: Post,
    admin: User | None,
    action: str,
    now: datetime | None = None,
    apply_amendment: bool = True,
    effects_chosen: Iterable[object] = (),
) -> Resolution:
    """Enact or fail a pending matter, if the rules allow it now. ``admin`` None means the system did it.

    ``now`` None means the clock, read once the matter is locked. This checks that the rules allow it and
    works out the final tally, the note and the dynasty's effects of resolving (``votes.effects``): every
    automatic one that applies, and the optional ones whose ids are in ``effects_chosen``. Then the steps
    listed in ``blognomic/enactment.py`` carry it out, in this transaction: close the matter, start the next
    dynasty (a Declaration of Victory), record the resolution, apply the amendment (a Proposal or Call for
    Judgement; ``apply_amendment=False`` enacts it without, when the admin chose so because it no longer
    applies cleanly), apply the effects to the GNDT. If any step cannot be carried out, nothing is written
    and ``VoteError`` says why.
    """
    if action not in ("enact", "fail"):
        raise VoteError(f"Unknown resolution “{action}”; use enact or fail.")
    if admin is not None and not admin.is_admin:
        raise VoteForbidden(NOT_AN_ADMIN)
    with transaction.atomic():
        post = _locked_post(post)
        now = _moment(now)
        if not post.is_votable or not post.is_pending:
            raise VoteError(NOT_PENDING.format(title=post.title, status=post.display_status.lower() or "not votable"))
        state = game_state(now)
        comments = list(post.comments.select_related("author").order_by("at", "pk"))
        _check_nothing_later(post, comments, now, moment="resolution")
        judgement, electorate, spec = judge_matter(post, comments, state=state, now=now)
        tally = judgement.tally
        _check_resolution_allowed(post, judgement, action=action, state=state, now=now)
        outcome = _outcome_of(action, tally)
        deltas = _effects_due(post, tally, state=state, action=action, admin=admin, chosen=effects_chosen)
        summary = _resolution_summary(tally, outcome=outcome, admin=admin, spec=spec)
        if outcome == Outcome.ENACTED and not apply_amendment:
            summary += " (its amendment was not applied)"
        if deltas:
            summary += ". Effects: " + "; ".join(effects.describe(delta) for delta in deltas)
        resolving = Resolving(
            post=post,
            outcome=outcome,
            by=admin,
            tally=tally,
            note=f"{summary}. Adminned at {utc_stamp(now)}",
            now=now,
            apply_amendment=apply_amendment,
            deltas=deltas,
        )
        return _carry_out(resolving)


def _check_resolution_allowed(post: Post, judgement, *, action: str, state, now: datetime) -> None:
    """Refuses resolving ``post`` this way now, as the admin panel would refuse to offer it, and says why."""
    profile = state.game.rules_profile()
    oldest = oldest_pending_id(state.pending, profile=profile, now=now)
    verdict = resolution_options(post, judgement, state=state, now=now, oldest_id=oldest)[action]
    if verdict.message == limits.RESOLVE_NOT_OLDEST:
        older = next((p.title for p in state.pending if p.pk == oldest), "another proposal")
        raise VoteError(NOT_OLDEST.format(oldest=older))
    if verdict.message == limits.RESOLVE_NOT_LEGAL:
        why = "; ".join(judgement.reasons)
        raise VoteError((CANNOT_ENACT if action == "enact" else CANNOT_FAIL).format(title=post.title, why=why))
    if not verdict.allowed:
        raise VoteError(verdict.message)


def _outcome_of(action: str, tally: engine.Tally) -> Outcome:
    """Enacted, or failed, vetoed or self-killed as the tally says."""
    if action == "enact":
        return Outcome.ENACTED
    if tally.vetoed:
        return Outcome.VETOED
    if tally.self_killed:
        return Outcome.SELF_KILLED
    return Outcome.FAILED


def _resolution_summary(tally: engine.Tally, *, outcome: Outcome, admin: User | None, spec) -> str:
    """The first words of the resolution's note: the outcome, the final tally and who resolved it."""
    who = admin.username if admin else "the system"
    if spec is not None and spec.resolution == matter_kind_rules.RESOLVE_VERDICT and outcome != Outcome.VETOED:
        word = matter_kind_rules.verdict_word(tally, enacted=outcome == Outcome.ENACTED)
        return f"{Outcome(outcome).label} ({word}) {_final_tally_text(tally)} by {who}"
    if outcome in (Outcome.VETOED, Outcome.SELF_KILLED):
        return f"Failed by {who}: {'vetoed' if outcome == Outcome.VETOED else 'self-killed'}"
    return f"{Outcome(outcome).label} {_final_tally_text(tally)} by {who}"


def _effects_due(
    post: Post, tally: engine.Tally, *, state, action: str, admin: User | None, chosen: Iterable[object]
) -> list[effects.CellDelta]:
    """The GNDT changes resolving ``post`` this way makes; an optional effect not offered now is refused."""
    in_force = effects_in_force(state.dynasty)
    if not in_force:
        return []
    facts = resolution_facts(post, tally, electorate=electorate_of(state), enacted=action == "enact", admin=admin)
    offered = {spec.id for spec in effects.offered(in_force, facts)}
    chosen = {str(effect) for effect in chosen}
    for effect in chosen:
        if effect not in {str(pk) for pk in offered}:
            raise VoteError(UNKNOWN_EFFECT.format(effect=effect, title=post.title))
    return effects.changes_due(in_force, facts, chosen=[pk for pk in offered if str(pk) in chosen])


def _carry_out(resolving: Resolving) -> Resolution:
    """Run the steps of resolving (``votes.resolution_steps``, listed in ``blognomic/enactment.py``) on a
    locked, pending matter; a step's refusal becomes the admin's ``VoteError`` and the transaction keeps
    nothing."""
    try:
        resolution_steps.carry_out(resolving)
    except EnactmentRefused as refused:
        raise VoteError(str(refused)) from refused
    assert resolving.resolution is not None  # "record the resolution" runs whatever the outcome
    return resolving.resolution


def matter_close(resolving: Resolving) -> None:
    """The first step of resolving: the locked matter's status and outcome, and the note in its admin field."""
    post = resolving.post
    post.status = Status.ENACTED if resolving.outcome == Outcome.ENACTED else Status.FAILED
    post.outcome = resolving.outcome
    post.admin_note = f"{post.admin_note}\n{resolving.note}".strip() if post.admin_note else resolving.note
    post.save(update_fields=["status", "outcome", "admin_note", "body_html", "flavour_html"])


def resolution_record(resolving: Resolving) -> None:
    """The step of resolving that keeps the record: who resolved the matter, when, how, and the final tally."""
    tally = resolving.tally
    resolving.resolution = Resolution.objects.create(
        post=resolving.post,
        outcome=resolving.outcome,
        by=resolving.by,
        at=resolving.now,
        note=resolving.note,
        tally=kept_tally(tally),
    )


NOT_THE_EMPERORS_CALL = "Only the {emperor} may decide a Declaration of Victory, and only when the rules allow it."


def dov_emperor_decide(*, post: Post, emperor: User, legal: bool, now: datetime | None = None) -> Resolution:
    """2005: with no clear decision after 24 hours, the Duke may step in and rule the win legal or not."""
    with transaction.atomic():
        post = _locked_post(post)
        now = _moment(now)
        state = game_state(now)
        if post.kind != Kind.DOV:
            raise VoteError(NOT_A_DOV.format(title=post.title, kind=post.get_kind_display()))
        if not post.is_pending:
            raise VoteError(NOT_PENDING.format(title=post.title, status=post.display_status.lower()))
        if state.emperor is None or state.emperor.pk != emperor.pk:
            raise VoteError(NOT_THE_EMPERORS_CALL.format(emperor=state.emperor_term))
        comments = list(post.comments.select_related("author").order_by("at", "pk"))
        _check_nothing_later(post, comments, now, moment="decision")
        judgement = judge_matter(post, comments, state=state, now=now)[0]
        if not judgement.emperor_may_decide:
            raise VoteError(NOT_THE_EMPERORS_CALL.format(emperor=state.emperor_term))
        verdict = "legal" if legal else "illegal"
        note = (
            f"{'Enacted' if legal else 'Failed'} {_final_tally_text(judgement.tally)}: the {state.emperor_term}, "
            f"{emperor.username}, ruled the win {verdict}. Decided at {utc_stamp(now)}"
        )
        resolving = Resolving(
            post=post,
            outcome=Outcome.ENACTED if legal else Outcome.FAILED,
            by=emperor,
            tally=judgement.tally,
            note=note,
            now=now,
        )
        return _carry_out(resolving)


NOT_ENACTED = "“{title}” was not enacted, so there are no effects to mark as carried out."


def matter_mark_carried_out(*, post: Post, admin: User, now: datetime | None = None) -> bool:
    """Record that an enacted matter's effects were carried out by other means (a GNDT update, or nothing the
    Ruleset needed), so the admin panel stops asking for a Ruleset revision. Returns whether anything changed:
    marking it twice changes nothing."""
    if not admin.is_admin:
        raise VoteError(NOT_AN_ADMIN)
    with transaction.atomic():
        post = _locked_post(post)
        if post.status != Status.ENACTED:
            raise VoteError(NOT_ENACTED.format(title=post.title))
        if post.carried_out_at is not None:
            return False
        post.carried_out_at = _moment(now)
        post.save(update_fields=["carried_out_at"])
        return True


def matter_reopen(*, post: Post, admin: User, reason: str, now: datetime | None = None) -> Resolution:
    """Set a resolved matter pending again, keeping the earlier resolution on record."""
    if not admin.is_admin:
        raise VoteError(NOT_AN_ADMIN)
    if not reason.strip():
        raise VoteError(REASON_NEEDED)
    with transaction.atomic():
        post = _locked_post(post)
        now = _moment(now)
        if not post.is_resolved:
            raise VoteError(NOT_RESOLVED.format(title=post.title))
        if post.keeps_recorded_result(_latest_resolution(post)):
            raise VoteError(IMPORTED_NOT_REOPENED.format(title=post.title))
        _check_nothing_later(post, post.comments.all(), now, moment="reopening")
        note = f"Reopened by {admin.username} at {utc_stamp(now)}: {reason.strip()}"
        post.status = Status.PENDING
        post.outcome = ""
        post.admin_note = f"{post.admin_note}\n{note}".strip()
        post.save(update_fields=["status", "outcome", "admin_note", "body_html", "flavour_html"])
        return Resolution.objects.create(
            post=post, outcome=Resolution.REOPENED, by=admin, at=now, note=note, reason=reason.strip()
        )
