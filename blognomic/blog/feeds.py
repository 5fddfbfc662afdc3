"""Atom feeds, for players who follow the game in a feed reader: the latest posts, each category, the
comments of one post, and a player's own notices at a private address."""

from __future__ import annotations

import copy
import re
from urllib.parse import urljoin

from django.contrib.syndication.views import Feed
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed

from dynasties.models import Game, Notification, User
from dynasties.privacy import personal_page
from votes.models import KIND_SLUGS, Comment, Kind, Post

ITEMS = 30
# An anonymous Call for Judgement's entry still has the author RFC 4287 requires, naming no one.
ANONYMOUS = "Anonymous"

# A link in a post's HTML that starts at the site's root ("/wiki/ruleset/"): relative in a feed reader.
_ROOT_RELATIVE = re.compile(r'(\s(?:href|src)=")(/(?!/)[^"]*)"')


def absolute_links(html: str, base: str) -> str:
    return _ROOT_RELATIVE.sub(lambda m: f'{m.group(1)}{urljoin(base, m.group(2))}"', html)


class LatestPostsFeed(Feed):
    feed_type = Atom1Feed
    link = "/"
    base = ""

    def get_feed(self, obj, request):
        # One feed object serves every request; the site's address goes on a copy for this request only.
        feed = copy.copy(self)
        feed.base = request.build_absolute_uri("/")
        return super(LatestPostsFeed, feed).get_feed(obj, request)

    def title(self) -> str:
        return f"{Game.load().name}: latest posts"

    def subtitle(self) -> str:
        return "Proposals, Calls for Judgement, Declarations of Victory and story posts."

    def items(self):
        return Post.objects.shown().select_related("author").order_by("-posted_at", "-pk")[:ITEMS]

    def item_title(self, item: Post) -> str:
        return item.title

    def item_description(self, item: Post) -> str:
        return absolute_links(item.body_html, self.base) if self.base else item.body_html

    def item_author_name(self, item: Post) -> str:
        return ANONYMOUS if item.anonymous else item.author.username

    def item_pubdate(self, item: Post):
        return item.posted_at

    def item_updateddate(self, item: Post):
        # RFC 4287 §4.1.2: every entry has atom:updated, the last change that matters to its readers.
        return item.edited_at or item.posted_at

    def item_categories(self, item: Post):
        return [item.get_kind_display()]


class CategoryFeed(LatestPostsFeed):
    """The latest posts of one category (``/category/proposals/feed/``)."""

    def get_object(self, request, category: str) -> str:
        kind = KIND_SLUGS.get(category)
        if kind is None:
            raise Http404("No such category.")
        self._slug = category
        return kind

    def title(self, kind: str) -> str:
        return f"{Game.load().name}: {Kind(kind).label}s"

    def link(self, kind: str) -> str:
        return reverse("category", args=[self._slug])

    def subtitle(self, kind: str) -> str:
        return f"The latest {Kind(kind).label}s."

    def items(self, kind: str):
        return Post.objects.shown().filter(kind=kind).select_related("author").order_by("-posted_at", "-pk")[:ITEMS]


class PostCommentsFeed(Feed):
    """Every comment on one post, latest first (``/posts/<id>/comments/feed/``)."""

    feed_type = Atom1Feed

    def get_object(self, request, slug: str) -> Post:
        return get_object_or_404(Post.objects.shown(), slug=slug)

    def title(self, post: Post) -> str:
        return f"Comments on “{post.title}”"

    def link(self, post: Post) -> str:
        return post.get_absolute_url()

    def items(self, post: Post):
        return post.comments.select_related("author").order_by("-at", "-pk")[:100]

    def item_title(self, item: Comment) -> str:
        vote = f" ({item.get_icon_display()})" if item.icon else ""
        return f"{item.author.username}{vote}"

    def item_description(self, item: Comment) -> str | None:
        # A vote cast without words has no summary rather than an empty one; its title says the vote.
        return item.text_html or None

    def item_link(self, item: Comment) -> str:
        return f"{reverse('post_detail', args=[item.post.slug])}#comment-{item.pk}"

    def item_author_name(self, item: Comment) -> str:
        return item.author.username

    def item_pubdate(self, item: Comment):
        return item.at

    def item_updateddate(self, item: Comment):
        return item.at  # comments are never edited


@personal_page
class NoticesFeed(Feed):
    """A player's own notices, at an address only they know (``/notices/feed/<token>/``)."""

    feed_type = Atom1Feed
    notices_url = ""

    def get_feed(self, obj, request):
        # Each entry's atom:id is an IRI (RFC 4287 §4.2.6) under the notices page, which needs the site's
        # address; it goes on a copy for this request only, as LatestPostsFeed's does.
        feed = copy.copy(self)
        feed.notices_url = request.build_absolute_uri(reverse("notifications"))
        return super(NoticesFeed, feed).get_feed(obj, request)

    def get_object(self, request, token: str) -> User:
        if len(token) < 20:
            raise Http404("No such feed.")
        # A deactivated account's feed answers no one, though it keeps its address.
        return get_object_or_404(User, notices_feed_token=token, is_active=True)

    def author_name(self, user: User) -> str:
        # The game sends the notices: RFC 4287 §4.1.1 wants an author on the feed or on every entry.
        return Game.load().name

    def title(self, user: User) -> str:
        return f"{Game.load().name}: notices for {user.username}"

    def link(self, user: User) -> str:
        return reverse("notifications")

    def items(self, user: User):
        return Notification.objects.filter(user=user).order_by("-created_at", "-pk")[:50]

    def item_title(self, item: Notification) -> str:
        return item.text

    def item_description(self, item: Notification) -> None:
        return None  # the notice is its title; an empty summary would say nothing

    def item_link(self, item: Notification) -> str:
        return item.url or f"{reverse('notifications')}#notice-{item.pk}"

    def item_guid(self, item: Notification) -> str:
        return f"{self.notices_url}#notice-{item.pk}"

    def item_guid_is_permalink(self, item: Notification) -> bool:
        return False

    def item_pubdate(self, item: Notification):
        return item.created_at

    def item_updateddate(self, item: Notification):
        return item.created_at
