"""Writing another wiki's history into this one: pages and revisions with their own authors and times.

An edit made here goes through ``ruleset.services`` one revision at a time, checking rights and parsing
the Ruleset for each. A history brought in from another program (a MediaWiki export) is thousands of
revisions already made: they are appended in batches, in the order the source gives, with their own
authors, times and summaries, and the rules each Ruleset revision changed are indexed afterwards in bulk
(``rule_changes_index``), so blame and rule history work on them as on edits made here.

These services run inside the importer's transaction and check no edit rights: the operator's command
decided the history belongs here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.db.models import F, Max
from django.utils.text import slugify

from ruleset.lineage import forget_latest_changes
from ruleset.models import RULESET_SLUG, Page, Revision, RuleChange
from ruleset.rule_index import rule_changes_index
from ruleset.services import MAX_PAGE_BYTES, MAX_SUMMARY_CHARS, MAX_TITLE_CHARS, RESERVED_SLUGS

BATCH = 500
# A batch is also cut by its texts' size: a revision may be 1 MB, and a count alone would let 500 of them
# (and their copies on the way to the database) sit in memory at once.
BATCH_BYTES = 8 * 1024 * 1024


@dataclass(frozen=True)
class HistoryRevision:
    """One revision as the source recorded it; ``author`` is an account here, or None for nobody shown."""

    at: datetime
    author: object | None
    summary: str
    text: str


def page_for_history(
    *, title: str, kind: str, created_at: datetime, protected: bool = False, slug: str | None = None
) -> tuple[Page, bool]:
    """The page called ``title`` (in any capitalisation), or a new empty one; and whether it is new.

    The live Ruleset is found by its address whatever the source calls it. A new page's address is a slug
    of its title, numbered if another page holds it.
    """
    if kind == Page.RULESET and slug == RULESET_SLUG:
        existing = Page.objects.filter(slug=RULESET_SLUG).first()
    else:
        existing = Page.objects.filter(title__iexact=title).first()
    if existing is not None:
        return existing, False
    base = slug or slugify(title, allow_unicode=True)[: MAX_TITLE_CHARS - 4] or "page"
    if base in RESERVED_SLUGS:
        base = f"{base}-page"
    candidate, number = base, 2
    while Page.objects.filter(slug=candidate).exists():
        candidate, number = f"{base}-{number}", number + 1
    page = Page.objects.create(title=title, slug=candidate, kind=kind, protected=protected, created_at=created_at)
    return page, True


def history_fits(*, title: str, text: str) -> str | None:
    """Why a revision cannot be kept here (the wiki's own limits), or None."""
    if len(title) > MAX_TITLE_CHARS:
        return f"the title is longer than {MAX_TITLE_CHARS} characters"
    size = len(text.encode("utf-8"))
    if size > MAX_PAGE_BYTES:
        return f"the text is {size:,} bytes; a page may be at most 1 MB"
    return None


def history_summary(summary: str) -> str:
    """A summary as this wiki keeps it: one line, at most 300 characters (longer ones end in an ellipsis)."""
    summary = " ".join(summary.split())
    return summary if len(summary) <= MAX_SUMMARY_CHARS else summary[: MAX_SUMMARY_CHARS - 1] + "…"


def history_append(*, page: Page, revisions: list[HistoryRevision]) -> list[Revision]:
    """Append ``revisions`` to ``page`` after its last, in the order given, and make the last one current."""
    if not revisions:
        return []
    latest = page.revisions.aggregate(last=Max("number"))["last"] or 0
    rows = [
        Revision(
            page=page,
            number=latest + position,
            author=revision.author,
            at=revision.at,
            summary=history_summary(revision.summary),
            text=revision.text,
            size=len(revision.text.encode("utf-8")),
            rules_indexed=False,
        )
        for position, revision in enumerate(revisions, start=1)
    ]
    Revision.objects.bulk_create(rows, batch_size=BATCH)
    current = page.revisions.order_by("-number").only("id").first()
    Page.objects.filter(pk=page.pk).update(current=current)
    return rows


def history_put_in_time_order(*, page: Page) -> bool:
    """Number ``page``'s revisions by time (then by their order so far) if they are not already.

    A source may give a page's history out of order (several ``<page>`` elements for one page, or a history
    older than edits made here): revisions are numbered as they happened, the newest is current, and the
    rules each changed are indexed again. Returns whether anything moved.
    """
    numbers = list(page.revisions.order_by("at", "number").values_list("id", "number"))
    if all(number == position for position, (_, number) in enumerate(numbers, start=1)):
        return False
    with transaction.atomic():
        # Two steps, so no two revisions share a number in between (the pair is unique).
        offset = len(numbers) + (page.revisions.aggregate(last=Max("number"))["last"] or 0)
        page.revisions.update(number=F("number") + offset)
        for position, (revision_id, _) in enumerate(numbers, start=1):
            Revision.objects.filter(pk=revision_id).update(number=position)
        RuleChange.objects.filter(page=page).delete()
        page.revisions.update(rules_indexed=False)
        current = page.revisions.order_by("-number").only("id").first()
        Page.objects.filter(pk=page.pk).update(current=current)
    return True


def history_index_rules(*, page: Page) -> int:
    """Record the rules each imported revision of a ruleset page changed, for blame and rule history."""
    if page.kind != Page.RULESET:
        return 0
    indexed = rule_changes_index(page=page)
    transaction.on_commit(lambda: forget_latest_changes(page))
    return indexed
