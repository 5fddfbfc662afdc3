"""Writing on matters through the API: voting, commenting, posting a matter with its amendment, editing a post.

Each operation calls the very service the browser's view calls (``votes.services.comment_added``,
``blognomic.flows.amendments.services.post_create_with_amendment``, ``votes.posting.post_edit``), so every
rule, limit, lock and window holds alike; the service's refusal is the answer's ``detail``. A token acts for
its owner with the owner's rights as they stand at the request; a signed-in browser may call the same
operations with its session cookie and CSRF token.

Refusals: 400 for a request that cannot be read or a text no post or comment may have (empty, too long), 403
for who may not do it at all, 404 for a post that does not exist or that the asker may not see (a hidden post,
to all but admins), 409 for what the game's rules refuse now (a proposal limit, a hiatus, a matter closed to
comments, an edit window passed, an amendment that does not apply), 413 for a body over the site's limit.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any, Literal, Union

from django.http import HttpRequest
from django.utils import timezone
from ninja import Field, Schema, Status
from ninja.errors import HttpError
from pydantic import ConfigDict, StringConstraints, create_model

from blognomic.community.api import schemas
from blognomic.community.api.views import NO_SUCH_POST, api, post_detail
from blognomic.community.tokens import scopes
from blognomic.community.tokens.auth import acting_as
from blognomic.flows.amendments.services import post_create_with_amendment, ruleset_base_number
from blognomic.flows.amendments.shape import (
    DELTA,
    FIELDS,
    FLAG,
    MAX_OPERATIONS,
    NUMBER,
    TEXT,
    TEXTS,
    AmendmentRefused,
)
from blognomic.web.middleware import NUL, NUL_REFUSED
from votes.hiding import may_see
from votes.models import MAX_BODY_BYTES, Comment, Icon, Kind, Post
from votes.posting import MAX_TITLE, PostError, PostForbidden, PostUnreadable, post_edit
from votes.services import CommentUnreadable, VoteError, VoteForbidden, comment_added

NOT_TEXT = "The request was refused: it holds a lone surrogate (such as \\ud800), which is not text."
# A whole number in an operation: as large as the database keeps.
MAX_WHOLE = 2**63 - 1
# A Ruleset revision's number: anything larger names no revision, and is refused before it reaches the database.
MAX_REVISION = 2**31 - 1

VoteIcon = StrEnum("VoteIcon", {value: value for value in Icon.values})
# The categories a post may be made in: an Ascension Address has a form of its own, as in the browser.
PostKind = StrEnum("PostKind", {value: value for value in Kind.values if value != Kind.ASCENSION})
# What the services refuse of any text, declared in the schema too: no NUL character (no field of the site
# takes one), a title with a subject (the part after the first colon, if any, holds more than spaces), a comment
# that says something, and the size limits (in characters here; the services count the bytes).
NO_NUL = r"^[^\x00]*$"
SAYS_SOMETHING = r"^[^\x00]*[^\s\x00][^\x00]*$"
TITLE_WITH_SUBJECT = r"^(?:[^:\x00]*[^\s:\x00][^:\x00]*|[^:\x00]*:[^\x00]*[^\s\x00][^\x00]*)$"


class VoteIn(Schema):
    icon: VoteIcon = Field(description="for, against, deferential or veto")
    text: str = Field(
        "", max_length=MAX_BODY_BYTES, pattern=NO_NUL, description="a comment to go with the vote (Markdown)"
    )
    trivial: bool = Field(False, description="mark a FOR vote Trivial (2005 rules only)")


class CommentIn(Schema):
    text: str = Field(max_length=MAX_BODY_BYTES, pattern=SAYS_SOMETHING, description="the comment (Markdown)")


Text = Annotated[str, StringConstraints(pattern=NO_NUL)]
WholeNumber = Annotated[int, Field(ge=-MAX_WHOLE, le=MAX_WHOLE)]
# Each operation's fields as the amendment format (``blognomic.flows.amendments.shape``) types them.
FIELD_TYPES: dict[str, Any] = {
    TEXT: Text,
    NUMBER: WholeNumber | None,
    FLAG: bool,
    TEXTS: list[Text],
    DELTA: WholeNumber | Text,
}


class _Strict(Schema):
    model_config = ConfigDict(extra="forbid")


OPERATION_MODELS = [
    create_model(
        "".join(part.title() for part in op.split("_")) + "Operation",
        __base__=_Strict,
        op=(Literal[op], ...),
        **{name: (FIELD_TYPES[kind], ...) for name, kind in required.items()},
        **{name: (FIELD_TYPES[kind], None) for name, kind in optional.items()},
    )
    for op, (required, optional) in FIELDS.items()
]
Operation = Annotated[Union[tuple(OPERATION_MODELS)], Field(discriminator="op")]  # noqa: UP007 - built at run time


class AmendmentIn(Schema):
    operations: list[Operation] = Field(
        max_length=MAX_OPERATIONS,
        description="the operations, as the amendment format describes them (see the documentation's Amendments)",
    )
    ruleset_revision: int | None = Field(
        None,
        ge=1,
        le=MAX_REVISION,
        description="the Ruleset revision the rule operations were written against (the current one if omitted)",
    )


class PostIn(Schema):
    kind: PostKind = Field(description="the category: proposal, cfj, dov, story, post, or matter")
    title: str = Field(
        max_length=MAX_TITLE,
        pattern=TITLE_WITH_SUBJECT,
        description="for example “Proposal: Quorum Failures”; the part after the colon is the subject",
    )
    body: str = Field("", max_length=MAX_BODY_BYTES, pattern=NO_NUL)
    flavour: str = Field("", max_length=MAX_BODY_BYTES, pattern=NO_NUL)
    trivial: bool = Field(False, description="a Trivial Proposal (2005 rules only)")
    anonymous: bool = Field(False, description="post a Call for Judgement anonymously (2008 rules only)")
    amendment: AmendmentIn | None = Field(None, description="what the matter changes when enacted")


class PostEditIn(Schema):
    """Only the fields given change; the others keep their value."""

    kind: PostKind | None = None
    title: str | None = Field(None, max_length=MAX_TITLE, pattern=TITLE_WITH_SUBJECT)
    body: str | None = Field(None, max_length=MAX_BODY_BYTES, pattern=NO_NUL)
    flavour: str | None = Field(None, max_length=MAX_BODY_BYTES, pattern=NO_NUL)


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
    409: schemas.Problem,
    413: schemas.Problem,
}


def _refusal(error: Exception) -> HttpError:
    """The service's refusal as the API answers it, with the service's own message: who may not (403), what
    no request could carry (400), and otherwise what the game's rules refuse as the game stands now (409)."""
    if isinstance(error, VoteForbidden | PostForbidden):
        return HttpError(403, str(error))
    if isinstance(error, CommentUnreadable | PostUnreadable):
        return HttpError(400, str(error))
    return HttpError(409, str(error))


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
    response={201: CommentAnswer, **REFUSALS},
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
    response={201: CommentAnswer, **REFUSALS},
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
    # Each operation as it was sent, without the optional fields it left out.
    operations = [op.model_dump(exclude_unset=True) for op in amendment.operations] if amendment is not None else []
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
