"""Atom feeds of the latest posts, for players who follow the game in a feed reader."""

import copy
import re
from urllib.parse import urljoin

from django.contrib.syndication.views import Feed
from django.utils.feedgenerator import Atom1Feed

from dynasties.models import Game
from votes.models import Post

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
        return Post.objects.select_related("author").order_by("-posted_at", "-pk")[:30]

    def item_title(self, item: Post) -> str:
        return item.title

    def item_description(self, item: Post) -> str:
        return absolute_links(item.body_html, self.base) if self.base else item.body_html

    def item_author_name(self, item: Post) -> str:
        return item.get_kind_display() if item.anonymous else item.author.username

    def item_pubdate(self, item: Post):
        return item.posted_at

    def item_categories(self, item: Post):
        return [item.get_kind_display()]
