"""Writes on the wiki: every save appends a revision with the next per-page number; nothing is edited in place."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.text import slugify

from ruleset.models import Page, Revision

MAX_PAGE_BYTES = 1024 * 1024


class WikiError(Exception):
    """A wiki write was refused; the message says why."""


EMPTY_TITLE = "A page needs a title."
TITLE_TAKEN = "A page called “{title}” already exists."
PAGE_TOO_LARGE = "A page may be at most 1 MB; this text is {size:,} bytes."


def page_create(*, title: str, kind: str = Page.ORDINARY, author=None, text: str = "", summary: str = "",
                now: datetime, slug: str | None = None) -> Page:
    title = (title or "").strip()
    if not title:
        raise WikiError(EMPTY_TITLE)
    slug = slug or slugify(title, allow_unicode=True) or "page"
    with transaction.atomic():
        if Page.objects.filter(title__iexact=title).exists() or Page.objects.filter(slug=slug).exists():
            raise WikiError(TITLE_TAKEN.format(title=title))
        page = Page.objects.create(title=title, slug=slug, kind=kind, created_at=now)
        revision_add(page=page, author=author, text=text, summary=summary or "Created the page", now=now)
    return page


def revision_add(*, page: Page, author, text: str, summary: str = "", now: datetime, post=None) -> Revision:
    """Append a revision and make it the page's current one."""
    size = len(text.encode("utf-8"))
    if size > MAX_PAGE_BYTES:
        raise WikiError(PAGE_TOO_LARGE.format(size=size))
    with transaction.atomic():
        page = Page.objects.select_for_update().get(pk=page.pk)
        last = page.revisions.order_by("-number").values_list("number", flat=True).first() or 0
        revision = Revision.objects.create(
            page=page, number=last + 1, author=author, at=now, summary=summary, text=text, post=post
        )
        page.current = revision
        page.save(update_fields=["current"])
    return revision
