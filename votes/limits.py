"""Limits on what a player may post or edit, and when, under each rules profile.

Pure functions over plain data with the time passed in, each answering with a `LimitVerdict`: proposal
limits (2005 weighs a Trivial proposal as half a normal one), what may still be posted, voted on or
resolved during a hiatus, whether an official post may still be edited or change category, and whether a
Declaration of Victory may be made. Messages are module constants so that services and tests share them.

A "day" is 00:00:00 to 23:59:59 UTC.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from dynasties.clock import INSTANT, day_start, format_moment, moment_plus, next_day_start
from dynasties.hiatus import HIATUS_WHY
from dynasties.profiles import (
    EDIT_UNTIL_ANY_COMMENT,
    EDIT_UNTIL_NON_NOTE_COMMENT,
    EDIT_UNTIL_OTHERS_COMMENT,
    Profile,
)

OFFICIAL_KINDS = frozenset({"proposal", "cfj", "dov", "ascension"})
NOTE_PREFIX = "Note:"

ALLOWED = "Allowed."

PENDING_LIMIT = (
    "You already have {count} Proposals pending (the limit is {limit}); "
    "you may post another once one of them has been resolved."
)
DAILY_LIMIT = (
    "You already have {count} Proposals posted today (the limit is {limit} per day); "
    "your next Proposal is allowed from {when}."
)
WEIGHTED_PENDING_LIMIT = (
    "You already have {weight} Trivial Proposals' worth of Proposals pending and this one is worth "
    "{new_weight} (the limit is {limit}; a non-Trivial Proposal is worth {full_weight}); "
    "you may post it once one of them has been resolved."
)
WEIGHTED_DAILY_LIMIT = (
    "You have already posted {weight} Trivial Proposals' worth of Proposals today and this one is worth "
    "{new_weight} (the limit is {limit} per day); your next Proposal is allowed from {when}."
)
TRIVIAL_STILL_ALLOWED = "A Trivial Proposal would still be allowed."

HIATUS_FORBIDS = "The game is in hiatus ({why}): {what} is not allowed until it ends."
UNKNOWN_HIATUS_REASON = "Unknown hiatus reason {reason!r}; expected one of: dov, ascension, seasonal."
KIND_NAMES = {
    "proposal": "a Proposal",
    "cfj": "a Call for Judgement",
    "dov": "a Declaration of Victory",
    "ascension": "an Ascension Address",
}
ACTION_PHRASES = {
    "post": "posting {kind}",
    "vote": "voting on {kind}",
    "resolve": "resolving {kind}",
}

EDIT_ONLY_AUTHOR = "Only the author of a post may edit it."
EDIT_RESOLVED = "A resolved matter can no longer be edited."
# Why an official post can no longer be edited: who locked it and how, then the profile's rule in plain words,
# then what its author can do instead (``edit_locked_message``).
EDIT_LOCKED = {
    EDIT_UNTIL_OTHERS_COMMENT: (
        "This post can no longer be edited: {who} {did} on it. An official post may be changed only until "
        "someone other than its author comments on it."
    ),
    EDIT_UNTIL_ANY_COMMENT: (
        "This post can no longer be edited: {who} {did} on it. An official post may be changed only until "
        "a player, its author included, comments on it."
    ),
    EDIT_UNTIL_NON_NOTE_COMMENT: (
        "This post can no longer be edited: {who} {did} on it. An official post may be changed only until "
        "a player, its author included, votes or comments on it; a comment that begins “Note:” and carries no "
        "vote does not count."
    ),
}
EDIT_INSTEAD = {
    "proposal": "You can still explain in a comment, or post a corrected Proposal and vote AGAINST this one.",
    "": "You can still explain in a comment.",
}
CATEGORY_FIXED = "An official post's category is fixed {minutes} minutes after it was posted."
NEVER_BECOMES_OFFICIAL = "A non-official post may not be changed into an official post."
BECOMES_OFFICIAL_WINDOW = (
    "A non-official post may only move into an official category within {minutes} minutes of posting "
    "and while it has no comments."
)

DOV_NOT_BY_EMPEROR = "The Emperor may not make a Declaration of Victory."
DOV_BARRED = (
    "Your Declaration of Victory failed with AGAINST votes at {failed}; you may not make another until after {until}."
)


@dataclass(frozen=True)
class LimitVerdict:
    """Whether something is allowed, a message saying why (or "Allowed."), and when it next may be."""

    allowed: bool
    message: str = ALLOWED
    next_allowed_at: datetime | None = None


@dataclass(frozen=True)
class OwnProposal:
    """One of the poster's own proposals: when it was posted, whether it is still pending, if Trivial."""

    posted_at: datetime
    pending: bool
    trivial: bool = False


@dataclass(frozen=True)
class PostComment:
    """A comment on a post, as the edit locks see it. `by_player` is False for spectators' comments."""

    author: str
    at: datetime
    text: str = ""
    icon: str | None = None
    by_player: bool = True


# --- Proposal limits ---


def proposal_weight(*, profile: Profile, trivial: bool) -> int:
    """What a proposal counts for against the limits: 2005 counts a Trivial one as 1 and others as 2."""
    return profile.trivial_weight if trivial and profile.trivial_proposals else profile.proposal_weight


def proposal_limit(
    *, profile: Profile, now: datetime, own: Sequence[OwnProposal], new_is_trivial: bool = False
) -> LimitVerdict:
    """Whether the poster may submit one more proposal now, given their own proposals.

    `own` needs every pending proposal of theirs and every one posted today (others are ignored).
    """
    new_weight = proposal_weight(profile=profile, trivial=new_is_trivial)
    pending_weight = sum(proposal_weight(profile=profile, trivial=p.trivial) for p in own if p.pending)
    today = day_start(now)
    posted_today = [p for p in own if today <= p.posted_at <= now]
    today_weight = sum(proposal_weight(profile=profile, trivial=p.trivial) for p in posted_today)

    problems: list[str] = []
    next_allowed_at: datetime | None = None
    pending_blocked = pending_weight + new_weight > profile.pending_limit
    if pending_blocked:
        problems.append(_pending_message(profile, pending_weight, new_weight))
    if today_weight + new_weight > profile.daily_limit:
        problems.append(_daily_message(profile, today_weight, new_weight, len(posted_today), now))
        next_allowed_at = None if pending_blocked else next_day_start(now)
    if not problems:
        return LimitVerdict(allowed=True)
    if _trivial_would_fit(profile, new_is_trivial, pending_weight, today_weight):
        problems.append(TRIVIAL_STILL_ALLOWED)
    return LimitVerdict(allowed=False, message=" ".join(problems), next_allowed_at=next_allowed_at)


@dataclass(frozen=True)
class Allowance:
    """How much more a player may propose: in proposals, or in 2005's weights (a Trivial one is 1)."""

    pending_left: int
    today_left: int
    weighted: bool


def proposal_allowance(*, profile: Profile, now: datetime, own: Sequence[OwnProposal]) -> Allowance:
    """What the limits leave of today's and the pending allowance, given the poster's own proposals."""
    pending_weight = sum(proposal_weight(profile=profile, trivial=p.trivial) for p in own if p.pending)
    today = day_start(now)
    today_weight = sum(proposal_weight(profile=profile, trivial=p.trivial) for p in own if today <= p.posted_at <= now)
    if profile.trivial_proposals:
        return Allowance(
            pending_left=max(0, profile.pending_limit - pending_weight),
            today_left=max(0, profile.daily_limit - today_weight),
            weighted=True,
        )
    full = profile.proposal_weight
    return Allowance(
        pending_left=max(0, profile.pending_limit - pending_weight) // full,
        today_left=max(0, profile.daily_limit - today_weight) // full,
        weighted=False,
    )


def _pending_message(profile: Profile, pending_weight: int, new_weight: int) -> str:
    if not profile.trivial_proposals:
        return PENDING_LIMIT.format(count=pending_weight, limit=profile.pending_limit)
    return WEIGHTED_PENDING_LIMIT.format(
        weight=pending_weight,
        new_weight=new_weight,
        limit=profile.pending_limit,
        full_weight=profile.proposal_weight,
    )


def _daily_message(profile: Profile, today_weight: int, new_weight: int, count: int, now: datetime) -> str:
    when = format_moment(next_day_start(now))
    if not profile.trivial_proposals:
        return DAILY_LIMIT.format(count=count, limit=profile.daily_limit, when=when)
    return WEIGHTED_DAILY_LIMIT.format(weight=today_weight, new_weight=new_weight, limit=profile.daily_limit, when=when)


def _trivial_would_fit(profile: Profile, new_is_trivial: bool, pending_weight: int, today_weight: int) -> bool:
    if new_is_trivial or not profile.trivial_proposals:
        return False
    return (
        pending_weight + profile.trivial_weight <= profile.pending_limit
        and today_weight + profile.trivial_weight <= profile.daily_limit
    )


# --- Hiatus ---


def hiatus_post_allowed(*, kind: str, profile: Profile, hiatus_reason: str | Iterable[str] | None) -> LimitVerdict:
    """Whether a post of `kind` may be made during the hiatus; non-official posts always may."""
    return _hiatus_verdict("post", kind, profile, hiatus_reason)


def hiatus_vote_allowed(*, kind: str, profile: Profile, hiatus_reason: str | Iterable[str] | None) -> LimitVerdict:
    """Whether votes may be cast on a matter of `kind` during the hiatus."""
    return _hiatus_verdict("vote", kind, profile, hiatus_reason)


def hiatus_resolve_allowed(*, kind: str, profile: Profile, hiatus_reason: str | Iterable[str] | None) -> LimitVerdict:
    """Whether an admin may enact or fail a matter of `kind` during the hiatus."""
    return _hiatus_verdict("resolve", kind, profile, hiatus_reason)


def _hiatus_verdict(
    action: str, kind: str, profile: Profile, hiatus_reason: str | Iterable[str] | None
) -> LimitVerdict:
    reasons = [hiatus_reason] if isinstance(hiatus_reason, str) else list(hiatus_reason or ())
    for reason in reasons:
        if reason not in HIATUS_WHY:
            raise ValueError(UNKNOWN_HIATUS_REASON.format(reason=reason))
        if kind not in OFFICIAL_KINDS:
            continue
        allowance = profile.hiatus_allowance(reason)
        allowed_kinds = {
            "post": allowance.post_kinds,
            "vote": allowance.vote_kinds,
            "resolve": allowance.resolve_kinds,
        }[action]
        if kind not in allowed_kinds:
            what = ACTION_PHRASES[action].format(kind=KIND_NAMES[kind])
            return LimitVerdict(allowed=False, message=HIATUS_FORBIDS.format(why=HIATUS_WHY[reason], what=what))
    return LimitVerdict(allowed=True)


# --- Resolving ---

RESOLVE_NOT_OLDEST = "Only the oldest pending Proposal may be resolved."
RESOLVE_NOT_LEGAL = "The matter's own votes and age do not allow it now."
UNKNOWN_ACTION = "Unknown resolution {action!r}; use enact or fail."


def resolution_allowed(
    *,
    action: str,
    kind: str,
    can_enact: bool,
    can_fail: bool,
    is_oldest_pending: bool,
    is_stale: bool,
    profile: Profile,
    hiatus_reason: str | Iterable[str] | None,
) -> LimitVerdict:
    """Whether an admin (or the system) may `action` ("enact" or "fail") a pending matter now.

    `can_enact` and `can_fail` are the engine's judgement of the matter's own votes and age. Only the oldest
    pending Proposal may be resolved, except that a stale one (2016: pending more than seven days, skipped
    when finding the oldest) may be failed; the hiatus allows what the profile says. The admin panel, the
    resolving service and the auto_resolve job all ask this.
    """
    if action not in ("enact", "fail"):
        raise ValueError(UNKNOWN_ACTION.format(action=action))
    if kind == "proposal" and not is_oldest_pending and not (action == "fail" and is_stale):
        return LimitVerdict(allowed=False, message=RESOLVE_NOT_OLDEST)
    during_hiatus = hiatus_resolve_allowed(kind=kind, profile=profile, hiatus_reason=hiatus_reason)
    if not during_hiatus.allowed:
        return during_hiatus
    if not (can_enact if action == "enact" else can_fail):
        return LimitVerdict(allowed=False, message=RESOLVE_NOT_LEGAL)
    return LimitVerdict(allowed=True)


# --- Editing and categories ---


def is_note(comment: PostComment) -> bool:
    """2016: a comment that begins with "Note:" and has no voting icon does not lock the post."""
    return comment.icon is None and comment.text.lstrip().startswith(NOTE_PREFIX)


def edit_allowed(
    *,
    profile: Profile,
    post_author: str,
    editor: str,
    official: bool,
    comments: Sequence[PostComment],
    now: datetime,
    resolved: bool = False,
    kind: str = "",
) -> LimitVerdict:
    """Whether `editor` may alter or remove the post now: its author only, while the profile's lock allows.
    `kind` (the post's) lets a refusal say what its author can do instead.

    No profile lets anyone else alter a post, admins included: the admin processing an official post only
    appends its status in the admin field, which resolving writes. This answers both whether the edit form
    is offered and whether an edit is accepted; a change of category has further rules.
    """
    if resolved:
        return LimitVerdict(allowed=False, message=EDIT_RESOLVED)
    if editor != post_author:
        return LimitVerdict(allowed=False, message=EDIT_ONLY_AUTHOR)
    if not official:
        return LimitVerdict(allowed=True)
    locking = _locking_comment(profile, post_author, [comment for comment in comments if comment.at <= now])
    if locking is not None:
        message = edit_locked_message(profile, locking, post_author=post_author, kind=kind)
        return LimitVerdict(allowed=False, message=message)
    return LimitVerdict(allowed=True)


def _locking_comment(profile: Profile, post_author: str, comments: Sequence[PostComment]) -> PostComment | None:
    """The first comment that locks the post under the profile's rule, if any has."""
    if profile.edit_lock == EDIT_UNTIL_OTHERS_COMMENT:
        locks = [comment for comment in comments if comment.author != post_author]
    elif profile.edit_lock == EDIT_UNTIL_ANY_COMMENT:
        locks = [comment for comment in comments if comment.by_player]
    elif profile.edit_lock == EDIT_UNTIL_NON_NOTE_COMMENT:
        locks = [comment for comment in comments if comment.by_player and not is_note(comment)]
    else:
        raise ValueError(f"Unknown edit_lock {profile.edit_lock!r}.")
    return min(locks, key=lambda comment: comment.at) if locks else None


def edit_locked_message(profile: Profile, locking: PostComment, *, post_author: str, kind: str = "") -> str:
    """Why the post can no longer be edited, naming the comment that locked it ("Ben voted on it"), and what
    its author can do instead."""
    who = "you" if locking.author == post_author else locking.author
    did = "voted" if locking.icon else "commented"
    why = EDIT_LOCKED[profile.edit_lock].format(who=who, did=did)
    return f"{why} {EDIT_INSTEAD.get(kind, EDIT_INSTEAD[''])}"


def category_change_allowed(
    *,
    profile: Profile,
    post_author: str,
    editor: str,
    from_kind: str,
    to_kind: str,
    posted_at: datetime,
    comments: Sequence[PostComment],
    now: datetime,
) -> LimitVerdict:
    """Whether `editor` may move the post from category `from_kind` to `to_kind` now."""
    if editor != post_author:
        return LimitVerdict(allowed=False, message=EDIT_ONLY_AUTHOR)
    if from_kind == to_kind:
        return LimitVerdict(allowed=True)
    age = now - posted_at
    earlier = [comment for comment in comments if comment.at <= now]
    if from_kind in OFFICIAL_KINDS:
        return _official_category_change(profile, post_author, earlier, age)
    if to_kind in OFFICIAL_KINDS:
        return _becoming_official(profile, earlier, age)
    return LimitVerdict(allowed=True)


def _official_category_change(
    profile: Profile, post_author: str, comments: list[PostComment], age: timedelta
) -> LimitVerdict:
    fixed_after = profile.official_category_fixed_minutes
    if fixed_after is not None and age > timedelta(minutes=fixed_after):
        return LimitVerdict(allowed=False, message=CATEGORY_FIXED.format(minutes=fixed_after))
    locking = _locking_comment(profile, post_author, comments)
    if locking is not None:
        return LimitVerdict(allowed=False, message=edit_locked_message(profile, locking, post_author=post_author))
    return LimitVerdict(allowed=True)


def _becoming_official(profile: Profile, comments: list[PostComment], age: timedelta) -> LimitVerdict:
    window = profile.non_official_category_minutes
    if window is None:
        return LimitVerdict(allowed=False, message=NEVER_BECOMES_OFFICIAL)
    if comments or age >= timedelta(minutes=window):
        return LimitVerdict(allowed=False, message=BECOMES_OFFICIAL_WINDOW.format(minutes=window))
    return LimitVerdict(allowed=True)


# --- Declarations of Victory ---


def dov_post_allowed(
    *,
    profile: Profile,
    author: str,
    emperor: str | None,
    now: datetime,
    hiatus_reason: str | Iterable[str] | None = None,
    last_failed_dov_with_against_at: datetime | None = None,
) -> LimitVerdict:
    """Whether `author` may make a Declaration of Victory now.

    `last_failed_dov_with_against_at` is when the author's latest DoV failed, if it had any AGAINST vote.
    """
    if author == emperor and not profile.dov_by_emperor:
        return LimitVerdict(allowed=False, message=DOV_NOT_BY_EMPEROR)
    during_hiatus = hiatus_post_allowed(kind="dov", profile=profile, hiatus_reason=hiatus_reason)
    if not during_hiatus.allowed:
        return during_hiatus
    bar = profile.dov_failed_bar_hours
    if bar is not None and last_failed_dov_with_against_at is not None:
        bar_ends = moment_plus(last_failed_dov_with_against_at, timedelta(hours=bar))
        if now <= bar_ends:
            message = DOV_BARRED.format(
                failed=format_moment(last_failed_dov_with_against_at), until=format_moment(bar_ends)
            )
            return LimitVerdict(allowed=False, message=message, next_allowed_at=bar_ends + INSTANT)
    return LimitVerdict(allowed=True)
