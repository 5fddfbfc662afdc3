"""Pages of the blog: the front page, archives, categories, a post with its comments, a player."""

from __future__ import annotations

from datetime import UTC, datetime

from django.core.paginator import Paginator
from django.db.models import Count, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.functional import cached_property

from blognomic.web import live
from blognomic.web.page_cache import kept_for_version
from dynasties.models import Absence, User
from gndt.selectors import private_decks_for
from votes.forms import CommentForm
from votes.hiding import may_see
from votes.models import KIND_PLURALS, KIND_SLUGS, Comment, Kind, Post
from votes.page_models import matter_view, toteboards
from votes.requests import GameRequest, state_of
from votes.state import game_state

POSTS_PER_PAGE = 20


class CountedPerVersion(Paginator):
    """A paginator that counts its posts once per content version: counting every post of a category reads
    the whole listing's index, which grows with the archive (benchmarks/RESULTS.md has the figures)."""

    def __init__(self, listing: QuerySet[Post], per_page: int, *, request: HttpRequest) -> None:
        super().__init__(listing, per_page)
        self.listing = listing
        self.request = request

    @cached_property
    def count(self) -> int:
        sql, params = self.listing.query.sql_with_params()
        return kept_for_version(self.request, "listing-count", f"{sql}\x00{params!r}", self.listing.count)


def _listing(request: GameRequest, posts, *, template: str = "blog/post_list.html", **context) -> HttpResponse:
    """A page of posts, each with its comment count and, for pending matters, a short tally."""
    now = timezone.now()
    request.game_state = game_state(now)
    listing = posts.shown().for_listing().order_by("-posted_at", "-pk")
    page = CountedPerVersion(listing, POSTS_PER_PAGE, request=request).get_page(request.GET.get("page"))
    page.object_list = list(page.object_list)
    sticky = context.get("sticky", [])
    with_comment_counts([*page.object_list, *sticky])
    with live.watching(now):  # the front page's poller learns when its toteboards' ages change
        boards = toteboards(page.object_list, state=request.game_state, now=now, viewer=request.user)
        return render(request, template, {"page": page, "boards": boards, **context})


def with_comment_counts(posts: list[Post]) -> None:
    """Set ``comment_count`` on each post with one query over just these posts.

    Annotating the listing query instead would group every post with all its comments before the page is
    cut, which grows with the whole archive.
    """
    counts = dict(
        Comment.objects.filter(post__in=[post.pk for post in posts])
        .values_list("post")
        .annotate(n=Count("pk"))
        .values_list("post", "n")
    )
    for post in posts:
        post.comment_count = counts.get(post.pk, 0)


def front_page(request: GameRequest) -> HttpResponse:
    live.mark_version(request)  # before any data its live parts show (``blognomic.web.live``)
    sticky = list(Post.objects.shown().filter(kind=Kind.STORY, sticky=True).for_listing().order_by("-posted_at")[:3])
    return _listing(request, Post.objects.all(), template="blog/front_page.html", sticky=sticky)


NO_SUCH_MONTH = "No such month: the archive has a page for each month from January 2000 to this one."


def month_archive(request: GameRequest, year: int, month: int) -> HttpResponse:
    # A month yet to begin has no posts, and the end of December 9999 is beyond any datetime.
    today = timezone.now()
    if not 1 <= month <= 12 or not 2000 <= year or (year, month) > (today.year, today.month):
        raise Http404(NO_SUCH_MONTH)
    start = datetime(year, month, 1, tzinfo=UTC)
    end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
    posts = Post.objects.filter(posted_at__gte=start, posted_at__lt=end)
    return _listing(request, posts, heading=f"Posts of {start:%B %Y}", month=start)


def category(request: GameRequest, category: str) -> HttpResponse:
    kind = KIND_SLUGS.get(category)
    if kind is None:
        raise Http404("No such category.")
    return _listing(
        request,
        Post.objects.filter(kind=kind),
        heading=KIND_PLURALS[kind],
        feed_url=reverse("category_feed", args=[category]),
    )


def post_detail(request: GameRequest, slug: str) -> HttpResponse:
    live.mark_version(request)  # before any data its live parts show (``blognomic.web.live``)
    post = get_object_or_404(Post.objects.for_listing().with_comments().select_related("amendment"), slug=slug)
    if not may_see(post, request.user):
        raise Http404("No such post.")
    now = timezone.now()
    request.game_state = game_state(now)
    with live.watching(now):
        view = matter_view(post, state=request.game_state, now=now, viewer=request.user)
        return render(request, "blog/post_detail.html", {"post": post, "matter": view, "form": CommentForm()})


def player_list(request: GameRequest) -> HttpResponse:
    """Every current player, active then idle, with when each idle one went idle (two queries more than the
    layout's: the idle players, and when they went idle)."""
    now = timezone.now()
    request.game_state = state = game_state(now)
    # The latest start of an idle spell still open (a later one overwrites an earlier in the dict).
    since = dict(
        Absence.objects.filter(kind=Absence.IDLE, started_at__lte=now)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=now))
        .order_by("started_at")
        .values_list("user_id", "started_at")
    )
    idle = sorted(
        ((player, since.get(player.pk)) for player in state.roster.idle),
        key=lambda pair: (pair[1] is None, -(pair[1].timestamp() if pair[1] else 0), pair[0].username.casefold()),
    )
    return render(request, "blog/player_list.html", {"idle": idle})


def player_detail(request: GameRequest, name: str) -> HttpResponse:
    user = get_object_or_404(User, username=name)
    # An anonymous Call for Judgement stays anonymous on its author's page too.
    # The primary key breaks ties, so the page reads the same on every database and after an archive restore.
    posts = list(
        Post.objects.shown().filter(author=user, anonymous=False).for_listing().order_by("-posted_at", "-pk")[:50]
    )
    with_comment_counts(posts)
    votes = (
        Comment.objects.shown()
        .filter(author=user, icon__isnull=False)
        .select_related("post")
        .order_by("-at", "-pk")[:50]
    )
    last_post = (
        Post.objects.shown()
        .filter(author=user, anonymous=False)
        .order_by("-posted_at")
        .values_list("posted_at", flat=True)
    )
    last_comment = Comment.objects.shown().filter(author=user).order_by("-at").values_list("at", flat=True)
    moments = [m for m in (last_post.first(), last_comment.first()) if m]
    absences = user.absences.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=timezone.now()))
    response = render(
        request,
        "blog/player_detail.html",
        {
            "player": user,
            "posts": posts,
            "votes": votes,
            "last_activity": max(moments) if moments else None,
            "absence": absences.first(),
            "own_decks": _own_decks(request, user),
        },
    )
    if request.user.pk == user.pk:
        patch_cache_control(response, private=True, no_store=True)  # may show the player's own hole cards
    return response


def _own_decks(request: GameRequest, player: User) -> list:
    """The player's unrevealed decks of this dynasty, shown on their own page to them alone."""
    if request.user.pk != player.pk:
        return []
    dynasty = state_of(request).dynasty
    if dynasty is None:
        return []
    return [view for view in private_decks_for(dynasty, request.user, owner=player) if view.is_own]
