"""An Atom feed of a wiki page's revisions (``/wiki/ruleset/feed/``): who changed the Ruleset, when, and why."""

from __future__ import annotations

from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape

from ruleset.models import Page, Revision


class RevisionsFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, slug: str) -> Page:
        return get_object_or_404(Page, slug=slug)

    def title(self, page: Page) -> str:
        return f"{page.title}: revisions"

    def link(self, page: Page) -> str:
        return page.get_absolute_url()

    def items(self, page: Page):
        return page.revisions.select_related("author", "page", "post").order_by("-number")[:30]

    def item_title(self, item: Revision) -> str:
        return f"r{item.number}: {item.summary or 'no summary'}"

    def item_description(self, item: Revision) -> str:
        cause = f" Made for “{escape(item.post.title)}”." if item.post_id else ""
        return f"<p>{escape(item.summary or 'No summary.')}{cause}</p>"

    def item_author_name(self, item: Revision) -> str:
        return item.author.username if item.author else "the system"

    def item_pubdate(self, item: Revision):
        return item.at

    def item_updateddate(self, item: Revision):
        # RFC 4287 §4.1.2: every entry has atom:updated; a revision never changes after it is made.
        return item.at
