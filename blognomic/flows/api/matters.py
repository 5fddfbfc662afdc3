"""Writing on matters through the API: voting, commenting, posting a matter with its amendment, editing a post.

Each operation calls the very service the browser's view calls (``votes.services.comment_added``,
``blognomic.flows.amendments.services.post_create_with_amendment``, ``votes.posting.post_edit``), so every
rule, limit, lock and window holds alike; the service's refusal is the answer's ``detail``. A token acts for
its owner with the owner's rights as they stand at the request; a signed-in browser may call the same
operations with its session cookie and CSRF token.

Refusals: 400 for what the rules refuse (a limit, a hiatus, a bad field), 403 for who may not do it at all,
404 for a post that does not exist or that the asker may not see (a hidden post, to all but admins), 409 for a
matter closed to comments, 413 for a body over the site's limit.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from django.http import HttpRequest
from django.utils import timezone
from ninja import Field, Schema, Status
from ninja.errors import HttpError

from blognomic.community.api import schemas
from blognomic.community.api.views import NO_SUCH_POST, api, post_detail
from blognomic.community.tokens import scopes
from blognomic.community.tokens.auth import acting_as
from blognomic.flows.amendments.services import post_create_with_amendment, ruleset_base_number
from blognomic.flows.amendments.shape import AmendmentRefused
from blognomic.web.middleware import NUL, NUL_REFUSED
from votes.hiding import may_see
from votes.models import Comment, Icon, Kind, Post
from votes.posting import PostError, PostForbidden, post_edit
from votes.services import MatterClosed, VoteError, VoteForbidden, comment_added

NOT_TEXT = "The request was refused: it holds a lone surrogate (such as \\ud800), which is not text."
# A Ruleset revision's number: anything larger names no revision, and is refused before it reaches the database.
MAX_REVISION = 2**31 - 1

VoteIcon = StrEnum("VoteIcon", {value: value for value in Icon.values})
PostKind = StrEnum("PostKind", {value: value for value in Kind.values})


class VoteIn(Schema):
    icon: VoteIcon = Field(description="for, against, deferential or veto")
    text: str = Field("", description="a comment to go with the vote (Markdown)")
    trivial: bool = Field(False, description="mark a FOR vote Trivial (2005 rules only)")


class CommentIn(Schema):
    text: str = Field(description="the comment (Markdown)")


class AmendmentIn(Schema):
    operations: list[dict[str, Any]] = Field(
        description="the operations, as the amendment format describes them (see the documentation's Amendments)"
    )
    ruleset_revision: int | None = Field(
        None,
        ge=1,
        le=MAX_REVISION,
        description="the Ruleset revision the rule operations were written against (the current one if omitted)",
    )


class PostIn(Schema):
    kind: PostKind = Field(description="the category: proposal, cfj, dov, story, post, or matter")
    title: str = Field(description="for example “Proposal: Quorum Failures”; the part after the colon is the subject")
    body: str = ""
    flavour: str = ""
    trivial: bool = Field(False, description="a Trivial Proposal (2005 rules only)")
    anonymous: bool = Field(False, description="post a Call for Judgement anonymously (2008 rules only)")
    amendment: AmendmentIn | None = Field(None, description="what the matter changes when enacted")


class PostEditIn(Schema):
    """Only the fields given change; the others keep their value."""

    kind: PostKind | None = None
    title: str | None = None
    body: str | None = None
    flavour: str | None = None


class CommentMade(Schema):
    id: int
    author: str
    at: datetime
    icon: str | None
    trivial: bool
    text: str
    url: str


class CommentAnswer(Schema):
    comment: CommentMade
    post: schemas.PostDetail  # the post as GET /api/posts/{id} shows it now, with the fresh tally


REFUSALS = {
    400: schemas.Problem,
    401: schemas.Problem,
    403: schemas.Problem,
    404: schemas.Problem,
    413: schemas.Problem,
}


def _refusal(error: Exception) -> HttpError:
    """The service's refusal as the API answers it, with the service's own message."""
    if isinstance(error, VoteForbidden | PostForbidden):
        return HttpError(403, str(error))
    if isinstance(error, MatterClosed):
        return HttpError(409, str(error))
    return HttpError(400, str(error))


def _refuse_unstorable(value: object) -> None:
    """A string no field can keep, anywhere in the request: a NUL (PostgreSQL cannot store one) or a lone
    surrogate (not text at all). The browser's forms are held to the same by the site's middleware."""
    if isinstance(value, str):
        if NUL in value:
            raise HttpError(400, NUL_REFUSED)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise HttpError(400, NOT_TEXT) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _refuse_unstorable(key)
            _refuse_unstorable(item)
    elif isinstance(value, list):
        for item in value:
            _refuse_unstorable(item)


def _visible_post(post_id: str, user) -> Post:
    """The post, if the asker may see it: a hidden one is unknown to all but admins, as its page is."""
    post = Post.objects.select_related("author").filter(slug=post_id).first()
    if post is None or not may_see(post, user):
        raise HttpError(404, NO_SUCH_POST.format(id=post_id[:100]))
    return post


def _comment_answer(comment: Comment) -> dict:
    post = comment.post
    return {
        "comment": {
            "id": comment.pk,
            "author": comment.author.username,
            "at": comment.at,
            "icon": comment.icon,
            "trivial": comment.trivial,
            "text": comment.text,
            "url": f"{post.get_absolute_url()}#comment-{comment.pk}",
        },
        "post": post_detail(post),
    }


def _comment(request: HttpRequest, post_id: str, *, text: str, icon: str | None, trivial: bool) -> dict:
    _refuse_unstorable([text])
    post = _visible_post(post_id, request.user)
    try:
        added = comment_added(post=post, author=request.user, text=text, icon=icon, trivial=trivial)
    except VoteError as error:
        raise _refusal(error) from None
    return _comment_answer(added.comment)


@api.post(
    "/posts/{post_id}/votes",
    auth=acting_as(scopes.VOTE),
    response={201: CommentAnswer, **REFUSALS, 409: schemas.Problem},
    summary="Vote on a pending matter, or change your vote",
)
def vote_create(request, post_id: str, vote: VoteIn):
    """A vote is a comment carrying a voting icon; a later vote replaces an earlier one as the rules say (2016:
    "A Hunter's Vote on a Votable Matter is the last valid voting icon that they have used in any comment on
    that Votable Matter"). Only active players vote, and the same refusals as the browser's apply."""
    return Status(201, _comment(request, post_id, text=vote.text, icon=vote.icon.value, trivial=vote.trivial))


@api.post(
    "/posts/{post_id}/comments",
    auth=acting_as(scopes.COMMENT),
    response={201: CommentAnswer, **REFUSALS, 409: schemas.Problem},
    summary="Comment on a post without voting",
)
def comment_create(request, post_id: str, comment: CommentIn):
    return Status(201, _comment(request, post_id, text=comment.text, icon=None, trivial=False))


@api.post(
    "/posts",
    auth=acting_as(scopes.POST),
    response={201: schemas.PostDetail, **REFUSALS},
    summary="Post a matter or any other post, with its amendment",
)
def post_create(request, post: PostIn):
    """Posting holds the author to every rule the browser's form does: who may post, the proposal limits
    (2016: "unless the Hunter already has 2 Proposals pending, or has already made 3 Proposals that day"),
    hiatus, the phase of a dynasty's kind, Declarations of Victory, anonymity; an amendment that does not apply
    now is refused and nothing is posted."""
    _refuse_unstorable(post.dict())
    amendment = post.amendment
    operations = amendment.operations if amendment is not None else []
    base = amendment.ruleset_revision if amendment is not None and amendment.ruleset_revision else None
    try:
        made = post_create_with_amendment(
            author=request.user,
            operations=operations,
            base_number=base if base is not None else ruleset_base_number(),
            now=timezone.now(),
            kind=post.kind.value,
            title=post.title,
            body=post.body,
            flavour=post.flavour,
            trivial=post.trivial,
            anonymous=post.anonymous,
        )
    except (PostError, AmendmentRefused) as error:
        raise _refusal(error) from None
    return Status(201, post_detail(made))


@api.patch(
    "/posts/{post_id}",
    auth=acting_as(scopes.POST),
    response={200: schemas.PostDetail, **REFUSALS},
    summary="Edit your post within the edit window",
)
def post_update(request, post_id: str, changes: PostEditIn):
    """Its author only, while the rules allow (2016: "If no Hunter has commented on it, or if the only comments
    on it begin with “Note:” and contain no voting icons, an official post may be altered or removed by its
    author"; its category "never ... if they have been posted for more than fifteen minutes")."""
    _refuse_unstorable(changes.dict())
    post = _visible_post(post_id, request.user)
    try:
        edited = post_edit(
            post=post,
            editor=request.user,
            title=post.title if changes.title is None else changes.title,
            body=post.body if changes.body is None else changes.body,
            flavour=post.flavour if changes.flavour is None else changes.flavour,
            kind=post.kind if changes.kind is None else changes.kind.value,
        )
    except PostError as error:
        raise _refusal(error) from None
    return post_detail(edited)
