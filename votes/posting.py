"""Writing posts: the subject rule, categories, size, proposal limits and hiatus are checked here."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from dynasties.models import User
from votes import limits, matter_kind_rules
from votes.engine_inputs import edit_comments
from votes.fairplay_notices import after_commit, fair_play_check_post
from votes.matter_kind_services import game_values, kind_of_title
from votes.models import (
    AMENDABLE_KINDS,
    MAX_BODY_BYTES,
    OFFICIAL_KINDS,
    VOTABLE_KINDS,
    Amendment,
    Kind,
    Post,
    Status,
    title_subject,
)
from votes.selectors import last_failed_dov_with_against
from votes.state import GameState, game_state


class PostError(Exception):
    """A post was refused; the message says why."""


class PostUnreadable(PostError):
    """The post itself cannot be taken, whatever the game: no such category, no subject, too long."""


class PostForbidden(PostError):
    """The author may not make this post at all: not an active player, or not one a dynasty's kind lets post it."""


class EditForbidden(PostForbidden):
    """The editor may not edit this post at all (not its author, resolved, or locked by comments)."""


EMPTY_SUBJECT = "The title needs a subject: the part after the first colon may not be empty."
UNKNOWN_KIND = "“{kind}” is not a category; choose one of: {choices}."
BODY_TOO_LONG = "A post may be at most 100 KB."
MAX_TITLE = 300
TITLE_TOO_LONG = "A title may be at most 300 characters; this one has {length}."
TRIVIAL_NOT_IN_PROFILE = "Only the 2005 rules know Trivial Proposals; this game's rules do not."
ONLY_PLAYERS_POST = "Only active {players} may make posts."
ANONYMOUS_ONLY_CFJ = "Only a Call for Judgement may be posted anonymously, and only under the 2008 rules."
ASCENSION_THROUGH_FORM = "An Ascension Address is posted by the new Emperor through the Ascension form."
NOT_AMENDABLE = "Only a Proposal or a Call for Judgement may carry an amendment."
AMENDMENT_OF_RESOLVED = "“{title}” has been resolved; its amendment can no longer change."
NO_MATTER_KIND = (
    "“{title}” is not of any kind of votable matter this dynasty's rules define; give it a title that marks "
    "one ({known})."
)
NO_MATTER_KINDS = "This dynasty's rules define no kinds of votable matter of their own."
MAY_NOT_POST_KIND = "Under its rule, you may not post a {kind}."


def unique_slug(title: str) -> str:
    base = slugify(title_subject(title) or title, allow_unicode=True)[:180] or "post"
    slug, n = base, 1
    while Post.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _checked_text(*, kind: str, title: str, body: str, flavour: str) -> str:
    """The category, the subject rule and the size limit; the title, stripped."""
    if kind not in Kind.values:
        raise PostUnreadable(UNKNOWN_KIND.format(kind=kind, choices=", ".join(Kind.labels)))
    title = (title or "").strip()
    if not title_subject(title):
        raise PostUnreadable(EMPTY_SUBJECT)
    if len(title) > MAX_TITLE:
        raise PostUnreadable(TITLE_TOO_LONG.format(length=len(title)))
    if len((body or "").encode("utf-8")) > MAX_BODY_BYTES or len((flavour or "").encode("utf-8")) > MAX_BODY_BYTES:
        raise PostUnreadable(BODY_TOO_LONG)
    return title


def matter_kind_for(*, author: User, kind: str, title: str, state: GameState):
    """The dynasty's kind a post in ``kind`` with this title is, checking who may post one; None if none.

    A Proposal whose title marks a kind (“Town Meeting”) is of it; a post in the category of votable matters
    must be of one (“Petition: …”).
    """
    if kind not in (Kind.PROPOSAL, Kind.MATTER):
        return None
    matter_kind = kind_of_title(state.dynasty, base=kind, title=title)
    if matter_kind is None and kind == Kind.MATTER:
        known = (
            [k for k in state.dynasty.matter_kinds.filter(retired_at__isnull=True, base=matter_kind_rules.BASE_MATTER)]
            if state.dynasty
            else []
        )
        if not known:
            raise PostError(NO_MATTER_KINDS)
        raise PostError(
            NO_MATTER_KIND.format(
                title=title, known="; ".join(f"{k.name}: {matter_kind_rules.describe_subject(k.spec())}" for k in known)
            )
        )
    if matter_kind is not None:
        spec = matter_kind.spec()
        values = game_values(matter_kind.dynasty_id).values if matter_kind_rules.needs_values(spec) else {}
        emperor = state.emperor.username if state.emperor else None
        if not matter_kind_rules.may_post(spec, author=author.username, emperor=emperor, values=values):
            raise PostForbidden(MAY_NOT_POST_KIND.format(kind=spec.name))
    return matter_kind


def check_kind_phase(matter_kind, *, now: datetime) -> None:
    """Refuse a matter of a kind limited to a phase of the calendar outside it (2008: "Town Meetings may be
    called by any living Villager during the daytime")."""
    if matter_kind is not None and matter_kind.phase:
        problem = matter_kind_rules.phase_refusal_for(matter_kind.spec(), now)
        if problem:
            raise PostError(problem)


def check_posting_rules(
    *,
    author: User,
    kind: str,
    trivial: bool,
    anonymous: bool,
    state: GameState,
    now: datetime,
    moving: Post | None = None,
    matter_kind=None,
) -> None:
    """Every rule a post in ``kind`` must pass to be made now: who may post, hiatus, the phase a dynasty's kind
    may be posted in, proposal limits, who may declare victory, the Ascension Address's own form, anonymity.

    Posting and moving a post into a new category both pass here, so that they refuse alike. ``moving`` is the
    post being moved, left out of its author's own proposals. The caller holds the lock on the author's row.
    """
    if author.username not in state.roster.active_names:
        raise PostForbidden(ONLY_PLAYERS_POST.format(players=state.players_term))
    profile = state.game.rules_profile()
    if trivial and not profile.trivial_proposals:
        # The browser's form offers the flag only under such rules (2005: "A Family can state in his
        # Proposal's title that the Proposal is Trivial"); any other way in is refused alike.
        raise PostError(TRIVIAL_NOT_IN_PROFILE)
    if state.hiatus is not None:
        verdict = limits.hiatus_post_allowed(kind=kind, profile=profile, hiatus_reason=state.hiatus.reasons)
        if not verdict.allowed:
            raise PostError(verdict.message)
    check_kind_phase(matter_kind, now=now)
    if (kind == Kind.PROPOSAL and matter_kind is None) or (
        matter_kind is not None and matter_kind.counts_towards_limits
    ):
        _check_proposal_limit(author=author, profile=profile, now=now, trivial=trivial, moving=moving)
    if kind == Kind.DOV:
        _check_declaration(author=author, state=state, profile=profile, now=now)
    if kind == Kind.ASCENSION:
        raise PostError(ASCENSION_THROUGH_FORM)
    if anonymous and not (kind == Kind.CFJ and profile.cfj_anonymous):
        raise PostError(ANONYMOUS_ONLY_CFJ)


def post_create(
    *,
    author: User,
    kind: str,
    title: str,
    body: str = "",
    flavour: str = "",
    trivial: bool = False,
    anonymous: bool = False,
    now: datetime,
    slug: str | None = None,
) -> Post:
    """Make a post in a category, enforcing the rules on who may post what and when."""
    title = _checked_text(kind=kind, title=title, body=body, flavour=flavour)
    with transaction.atomic():
        # Lock the author's row so two simultaneous proposals cannot both slip under the limit.
        User.objects.select_for_update().filter(pk=author.pk).first()
        state = game_state(now)
        matter_kind = None
        if author.username in state.roster.active_names:
            matter_kind = matter_kind_for(author=author, kind=kind, title=title, state=state)
        check_posting_rules(
            author=author,
            kind=kind,
            trivial=trivial,
            anonymous=anonymous,
            state=state,
            now=now,
            matter_kind=matter_kind,
        )
        post = Post.objects.create(
            slug=slug or unique_slug(title),
            kind=kind,
            title=title,
            author=author,
            posted_at=now,
            dynasty=state.dynasty,
            body=body or "",
            flavour=flavour or "",
            trivial=trivial and kind == Kind.PROPOSAL,
            anonymous=anonymous,
            status=Status.PENDING if kind in VOTABLE_KINDS else Status.NONE,
            matter_kind=matter_kind,
        )
        after_commit(fair_play_check_post, post=post, now=now)
        return post


def _check_declaration(*, author: User, state, profile, now: datetime) -> None:
    verdict = limits.dov_post_allowed(
        profile=profile,
        author=author.username,
        emperor=state.emperor.username if state.emperor else None,
        now=now,
        hiatus_reason=state.hiatus.reasons if state.hiatus else None,
        last_failed_dov_with_against_at=last_failed_dov_with_against(author),
    )
    if not verdict.allowed:
        raise PostError(verdict.message.replace("The Emperor", f"The {state.emperor_term}"))


def _check_proposal_limit(*, author: User, profile, now: datetime, trivial: bool, moving: Post | None) -> None:
    counted = Post.objects.counting_towards_limits()
    recent = counted.filter(author=author).filter(posted_at__gte=now - timedelta(days=2)) | counted.filter(
        author=author, status=Status.PENDING
    )
    if moving is not None:
        recent = recent.exclude(pk=moving.pk)
    own = [
        limits.OwnProposal(posted_at=p.posted_at, pending=p.status == Status.PENDING, trivial=p.trivial)
        for p in recent.distinct()
    ]
    verdict = limits.proposal_limit(profile=profile, now=now, own=own, new_is_trivial=trivial)
    if not verdict.allowed:
        raise PostError(verdict.message)


def _locked_post(post: Post) -> Post:
    return Post.objects.select_for_update().select_related("author").get(pk=post.pk)


def post_edit(
    *, post: Post, editor: User, title: str, body: str, flavour: str, kind: str, now: datetime | None = None
) -> Post:
    """Change a post's text or category: its author only, while the profile's edit lock allows; a change of
    category also passes the category locks and every rule of posting in the new category.

    An edit that changes nothing writes nothing and does not mark the post edited. ``now`` None means the
    clock, read once the post is locked, so that a comment stored first is seen by the edit lock.
    """
    title = _checked_text(kind=kind, title=title, body=body, flavour=flavour)
    body, flavour = body or "", flavour or ""
    with transaction.atomic():
        post = _locked_post(post)
        now = now if now is not None else timezone.now()
        state = game_state(now)
        profile = state.game.rules_profile()
        comments = edit_comments(post.comments.select_related("author"))
        verdict = limits.edit_allowed(
            profile=profile,
            post_author=post.author.username,
            editor=editor.username,
            official=post.kind in OFFICIAL_KINDS,
            comments=comments,
            now=now,
            resolved=post.is_resolved,
            kind=post.kind,
        )
        if not verdict.allowed:
            raise EditForbidden(verdict.message)
        if (title, body, flavour, kind) == (post.title, post.body, post.flavour, post.kind):
            return post
        matter_kind = post.matter_kind
        if (title, kind) != (post.title, post.kind):
            # A new title may make it another of the dynasty's kinds, or none: it is checked as if posted.
            matter_kind = matter_kind_for(author=post.author, kind=kind, title=title, state=state)
        if kind != post.kind:
            _check_category_change(
                post, editor=editor, kind=kind, matter_kind=matter_kind, comments=comments, state=state, now=now
            )
            post.trivial = post.trivial and kind == Kind.PROPOSAL
            post.status = Status.PENDING if kind in VOTABLE_KINDS else Status.NONE
        elif matter_kind is not None and matter_kind.pk != post.matter_kind_id:
            # A new title that makes it one of the dynasty's kinds is posting one: only in the kind's phase.
            check_kind_phase(matter_kind, now=now)
        post.title, post.body, post.flavour, post.kind = title, body, flavour, kind
        post.matter_kind = matter_kind
        post.edited_at = now
        post.save()
        after_commit(fair_play_check_post, post=post, now=now, new=False)
        return post


def _check_category_change(
    post: Post, *, editor: User, kind: str, matter_kind, comments, state: GameState, now: datetime
) -> None:
    """Refuses moving ``post`` into category ``kind`` unless the category locks and every rule of posting in
    the new category allow it."""
    verdict = limits.category_change_allowed(
        profile=state.game.rules_profile(),
        post_author=post.author.username,
        editor=editor.username,
        from_kind=post.kind,
        to_kind=kind,
        posted_at=post.posted_at,
        comments=comments,
        now=now,
    )
    if not verdict.allowed:
        raise PostError(verdict.message)
    # As in post_create: a move into Proposals and a new Proposal by the same author take turns.
    User.objects.select_for_update().filter(pk=post.author_id).first()
    check_posting_rules(
        author=post.author,
        kind=kind,
        trivial=post.trivial,
        anonymous=post.anonymous,
        state=state,
        now=now,
        moving=post,
        matter_kind=matter_kind,
    )


def amendment_save(
    *, post: Post, editor: User, operations: list, base_ruleset_revision: int | None, now: datetime
) -> Amendment | None:
    """Attach operations to a Proposal or Call for Judgement, or replace or drop (empty list) its amendment.

    The operations must already have been checked against the game by the layer that understands them;
    this only guards who may change them and when: the author, while the profile's edit lock allows the post
    itself to be edited. Returns the amendment, or None when it was dropped.
    """
    with transaction.atomic():
        post = Post.objects.select_for_update().select_related("author").get(pk=post.pk)
        if post.kind not in AMENDABLE_KINDS:
            raise PostError(NOT_AMENDABLE)
        if post.is_resolved:
            raise PostError(AMENDMENT_OF_RESOLVED.format(title=post.title))
        profile = game_state(now).game.rules_profile()
        verdict = limits.edit_allowed(
            profile=profile,
            post_author=post.author.username,
            editor=editor.username,
            official=True,
            comments=edit_comments(post.comments.select_related("author")),
            now=now,
            kind=post.kind,
        )
        if not verdict.allowed:
            raise PostError(verdict.message)
        existing = Amendment.objects.filter(post=post).first()
        if not operations:
            if existing is not None:
                existing.delete()
            return None
        amendment = existing or Amendment(post=post)
        amendment.operations = list(operations)
        amendment.base_ruleset_revision = base_ruleset_revision
        amendment.written_at = now
        amendment.save()
        if existing is not None:
            post.edited_at = now
            post.save(update_fields=["edited_at"])
        return amendment
