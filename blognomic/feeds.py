"""Atom feeds of the latest posts, for players who follow the game in a feed reader."""

from django.contrib.syndication.views import Feed
from django.utils.feedgenerator import Atom1Feed

from dynasties.models import Game
from votes.models import Post


class LatestPostsFeed(Feed):
    feed_type = Atom1Feed
    link = "/"

    def title(self) -> str:
        return f"{Game.load().name}: latest posts"

    def subtitle(self) -> str:
        return "Proposals, Calls for Judgement, Declarations of Victory and story posts."

    def items(self):
        return Post.objects.select_related("author").order_by("-posted_at", "-pk")[:30]

    def item_title(self, item: Post) -> str:
        return item.title

    def item_description(self, item: Post) -> str:
        return item.body_html

    def item_author_name(self, item: Post) -> str:
        return item.get_kind_display() if item.anonymous else item.author.username

    def item_pubdate(self, item: Post):
        return item.posted_at

    def item_categories(self, item: Post):
        return [item.get_kind_display()]
