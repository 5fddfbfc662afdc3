"""Reads on the wiki, each in a fixed number of queries however long a page's history grows.

Revision numbers run 1, 2, 3… without gaps on every page (the services and the archive importer both
number them so), so a page of history is a range of numbers read through the ``(page, number)`` index,
never an OFFSET that grows with the depth of the page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from django.http import Http404

from ruleset.models import Page, ProtectionChange, Revision, RuleChange

HISTORY_PER_PAGE = 50
PROTECTION_LOG_ROWS = 5


def page_for_reading(slug: str) -> Page:
    """The page with its current revision's number, author and size, but not its text; 404 if missing."""
    page = Page.objects.with_current_summary().filter(slug=slug).first()
    if page is None:
        raise Http404("No such page.")
    return page


def latest_number(page: Page) -> int:
    return page.current.number if page.current_id else 0


@dataclass(frozen=True)
class HistoryRow:
    """One line of a page's history, with its addresses and figures ready for the template.

    The addresses are built under the page's own address (``page_url``, from ``ruleset/urls.py``) rather
    than reversed row by row: a history page has fifty rows, and reversing and formatting in the template
    language was most of the page's time.
    """

    revision: Revision
    size_change: int
    page_url: str

    @property
    def is_first(self) -> bool:
        return self.revision.number == 1

    @property
    def revision_url(self) -> str:
        return f"{self.page_url}r/{self.revision.number}/"

    @property
    def diff_with_previous_url(self) -> str:
        return f"{self.page_url}diff/prev/{self.revision.number}/"

    @property
    def diff_with_latest_url(self) -> str:
        return f"{self.page_url}diff/{self.revision.number}/latest/"

    @property
    def at_iso(self) -> str:
        """For a ``datetime`` attribute, which allows at most three digits of a second's fraction."""
        return self.revision.at.replace(microsecond=0).isoformat()

    @property
    def at_text(self) -> str:
        return f"{self.revision.at:%Y-%m-%d %H:%M}"

    @property
    def size_text(self) -> str:
        return f"{self.revision.size:,}"

    @property
    def size_change_text(self) -> str:
        return f"({self.size_change:+,})" if self.size_change else "(0)"

    @property
    def size_change_class(self) -> str:
        return "grew" if self.size_change > 0 else "shrank" if self.size_change < 0 else ""


@dataclass(frozen=True)
class NumberedPage:
    """One page of a listing, with what ``templates/ruleset/_pagination.html`` needs."""

    rows: list
    number: int
    num_pages: int

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages

    @property
    def previous_page_number(self) -> int:
        return self.number - 1

    @property
    def next_page_number(self) -> int:
        return self.number + 1

    @property
    def has_other_pages(self) -> bool:
        return self.num_pages > 1


def page_number_within(raw: str | None, num_pages: int) -> int:
    try:
        number = int(raw or 1)
    except ValueError:
        number = 1
    return min(max(number, 1), max(num_pages, 1))


def revision_history(page: Page, page_number: str | None, per_page: int = HISTORY_PER_PAGE) -> NumberedPage:
    """Revisions newest first, with the change in size from the revision before each, in one query.

    The row before the oldest one shown is read too (and not shown), so every size change comes from the
    ``size`` column; no text is loaded.
    """
    latest = latest_number(page)
    num_pages = max(1, math.ceil(latest / per_page))
    number = page_number_within(page_number, num_pages)
    high = latest - (number - 1) * per_page
    low = max(1, high - per_page + 1)
    revisions = list(page.revisions.without_text().filter(number__gte=low - 1, number__lte=high).order_by("-number"))
    size_before = {revision.number + 1: revision.size for revision in revisions}
    page_url = page.get_absolute_url()
    rows = [
        HistoryRow(revision, revision.size - size_before.get(revision.number, 0), page_url)
        for revision in revisions
        if revision.number >= low
    ]
    return NumberedPage(rows=rows, number=number, num_pages=num_pages)


def protection_log(page: Page) -> list[ProtectionChange]:
    return list(page.protection_changes.select_related("by")[:PROTECTION_LOG_ROWS])


def revision_by_number(page: Page, number: int) -> Revision:
    """One revision with its author and post; 404 if the page has no such revision."""
    revision = page.revisions.select_related("author", "post").filter(number=number).first()
    if revision is None:
        raise Http404("No such revision.")
    return revision


def revision_pair(page: Page, old: int, new: int) -> tuple[Revision, Revision]:
    """Two revisions (text included) in one query; 404 unless both exist."""
    found = {
        revision.number: revision
        for revision in page.revisions.select_related("author", "post").filter(number__in={old, new})
    }
    if old not in found or new not in found:
        raise Http404("No such revision.")
    return found[old], found[new]


def revision_as_of(page: Page, at: datetime) -> Revision | None:
    """The revision current at ``at``, with its author and post, or None if the page had none yet."""
    return page.revisions.select_related("author", "post").as_of(at)


def rule_changes_in(revision: Revision) -> list[RuleChange]:
    """The rules a ruleset revision added, changed, renamed or removed, in rule-number order.

    A renamed rule is one entry (its ``former_title`` set), not a removal and an addition.
    """
    changes = list(
        RuleChange.objects.filter(revision=revision).only("anchor", "kind", "number", "title", "previous_anchor")
    )
    removed = {change.anchor: change for change in changes if change.kind == RuleChange.REMOVED}
    renamed_from = set()
    for change in changes:
        before = removed.get(change.previous_anchor) if change.kind == RuleChange.ADDED else None
        change.former_title = before.title if before else ""
        if before:
            renamed_from.add(before.anchor)
    kept = [change for change in changes if change.anchor not in renamed_from or change.kind != RuleChange.REMOVED]
    return sorted(kept, key=lambda change: [int(n) for n in change.number.split(".") if n.isdigit()])


def pages_index() -> list[Page]:
    """Every page with its current revision's time, author and size (no text), by title."""
    return list(Page.objects.with_current_summary().order_by("title"))
