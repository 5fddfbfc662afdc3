"""The admin's resolve through the API: enact or fail a pending votable matter, for a token with the
``admin`` scope or the signed-in browser with its CSRF token.

It calls ``votes.services.matter_resolve``, as the admin panel's resolve button does, so it is refused
whenever the panel would refuse it: "The oldest pending Proposal may be enacted by any Admin … if either of
the following is true" and "may be failed by any Admin, if any of the following are true" (Ruleset 142).
The service checks that its caller is an admin at the moment of the request, so a token made while its owner
was one acts no more once they are not.
"""

from __future__ import annotations

from ninja import Router
from ninja.errors import HttpError

from blognomic.community.api import schemas
from blognomic.community.tokens.auth import acting_as
from blognomic.community.tokens.scopes import ADMIN
from votes.hiding import may_see
from votes.models import Post
from votes.services import VoteError, VoteForbidden, matter_resolve

router = Router(tags=["Resolving"])

NO_SUCH_POST = "There is no post with id “{id}”."


@router.post(
    "/posts/{post_id}/resolve",
    auth=acting_as(ADMIN),
    response={
        200: schemas.ResolutionOut,
        400: schemas.Problem,
        401: schemas.Problem,
        403: schemas.Problem,
        404: schemas.Problem,
    },
    url_name="post_resolve",
    summary="Enact or fail a pending votable matter, as the admin panel does (scope admin, admins only)",
)
def post_resolve(request, post_id: str, payload: schemas.ResolveIn):
    """Refused (400) when the rules do not allow it now, saying why: not the oldest pending Proposal, not
    enactable or failable yet, already resolved. A hidden post answers 404 to anyone but an admin, as its
    page does."""
    post = Post.objects.filter(slug=post_id).first()
    if post is None or not may_see(post, request.user):
        raise HttpError(404, NO_SUCH_POST.format(id=post_id[:100]))
    try:
        resolution = matter_resolve(
            post=post,
            admin=request.user,
            action=payload.action,
            apply_amendment=payload.apply_amendment,
            effects_chosen=payload.effects,
        )
    except VoteForbidden as forbidden:
        raise HttpError(403, str(forbidden)) from None
    except VoteError as error:
        raise HttpError(400, str(error)) from None
    post.refresh_from_db()
    tally = resolution.tally or {}
    return {
        "post": post.slug,
        "title": post.title,
        "status": post.status,
        "outcome": resolution.outcome,
        "by": request.user.username,
        "at": resolution.at,
        "note": resolution.note,
        # The counts alone: who voted how is on the matter's page, and an anonymous author stays anonymous.
        "tally": {key: tally[key] for key in ("for", "against", "quorum", "self_killed", "vetoed") if key in tally},
        "url": post.get_absolute_url(),
    }
