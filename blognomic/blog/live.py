"""The live parts' answers: what changed on a matter's page, or on the front page, since the reader's page was
rendered (see ``blognomic.web.live``). Each renders the parts with the page's own templates, for this reader."""

from __future__ import annotations

from datetime import datetime

from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from blognomic.blog.views import POSTS_PER_PAGE
from blognomic.web import live
from votes.forms import CommentForm
from votes.hiding import may_see
from votes.models import Post
from votes.page_models import matter_view, toteboards
from votes.requests import GameRequest
from votes.selectors import recent_comments
from votes.state import game_state

NO_SUCH_POST = "No such post."


def _poll(request: GameRequest, now: datetime) -> tuple[live.Poll | None, HttpResponse | None]:
    """The poll the reader's page sent, or the answer that ends it here: a 400 for an address no page of
    ours writes, the cheap "nothing changed" while nothing has. Otherwise the version being rendered is
    marked on the request, for the answer to name."""
    try:
        unchanged = live.unchanged_answer(request, now)
        poll = live.read_poll(request.GET)
    except live.BadPoll as error:
        return None, HttpResponse(str(error), status=400, content_type="text/plain; charset=utf-8")
    if unchanged is not None:
        return None, unchanged
    live.mark_version(request)
    return poll, None


@require_GET
def matter_live(request: GameRequest, slug: str) -> HttpResponse:
    """A matter's tally box, comments and, once it is resolved, its closed comment form."""
    now = timezone.now()
    poll, answered = _poll(request, now)
    if answered is not None:
        return answered
    post = Post.objects.for_listing().with_comments().select_related("amendment").filter(slug=slug).first()
    if post is None or not may_see(post, request.user):
        raise Http404(NO_SUCH_POST)
    request.fragment_only = True
    request.game_state = state = game_state(now)
    with live.watching(now) as moments:
        view = matter_view(post, state=state, now=now, viewer=request.user)
        render_to_string("votes/_matter.html", {"post": post, "matter": view, "form": CommentForm()}, request=request)
    url = reverse("matter_live", args=[post.slug]) if post.is_pending else None
    return live.changed_answer(
        poll, live.collected(request).parts, url=url, since=live.since_of(request), until=min(moments, default=None)
    )


@require_GET
def front_page_live(request: GameRequest) -> HttpResponse:
    """The first page's toteboards, and the sidebar's pending matters and recent comments."""
    now = timezone.now()
    poll, answered = _poll(request, now)
    if answered is not None:
        return answered
    request.fragment_only = True
    request.game_state = state = game_state(now)
    with live.watching(now) as moments:
        posts = list(Post.objects.shown().for_listing().order_by("-posted_at", "-pk")[:POSTS_PER_PAGE])
        boards = toteboards(posts, state=state, now=now, viewer=request.user)
        render_to_string(
            "blog/_front_live.html",
            {"page": posts, "boards": boards, "recent_comments": recent_comments()},
            request=request,
        )
    return live.changed_answer(
        poll,
        live.collected(request).parts,
        url=reverse("front_page_live"),
        since=live.since_of(request),
        until=min(moments, default=None),
    )
