"""What an enacted amendment writes to the wiki, and its revert: one revision per page it changes, each citing
its post, with rules followed through the renames since the revision it was written against.

The operations themselves are pure (``ruleset.amendment_operations``); checking them against the game and recording what
was applied is the site's (``blognomic.flows.amendments``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from ruleset.amendment_operations import (
    PAGE_OPS,
    RULE_OPS,
    apply_page_operations,
    apply_rule_operations,
    translate_operations,
)
from ruleset.models import RULESET_SLUG, Page, Revision, RuleChange
from ruleset.services import NO_RULESET, WikiError, clean_page_text, clean_summary, revision_append
from votes.amendment_errors import OperationRefused

AMENDMENT_NO_PAGE = "there is no wiki page “{page}”"
AMENDMENT_OPERATION = "Operation {number}: {reason}."
AMENDMENT_REVERT_MOVED = (
    "“{title}” has changed since the amendment was applied (revision {latest} is newer than {applied}); "
    "revert it by hand from the page's history."
)


def rule_renames_since(page: Page, base_number: int | None) -> list[tuple[str, str]]:
    """The (old anchor, new anchor) renames recorded on ``page`` after revision ``base_number``, oldest first."""
    changes = RuleChange.objects.filter(page=page, kind=RuleChange.ADDED).exclude(previous_anchor="")
    if base_number is not None:
        changes = changes.filter(revision__number__gt=base_number)
    return list(changes.order_by("revision__number", "pk").values_list("previous_anchor", "anchor"))


def ruleset_apply_amendment(
    *, operations: list[dict], base_number: int | None, post, author, now: datetime, summary: str
) -> list[Revision]:
    """Apply the wiki operations of an enacted matter: one revision per page changed, each citing ``post``.

    Rules are followed through renames since ``base_number`` (the Ruleset revision the amendment was written
    against). Raises ``WikiError`` naming the operation when one no longer applies; nothing is written then.
    """
    revisions: list[Revision] = []
    with transaction.atomic():
        if any(op.get("op") in RULE_OPS for op in operations):
            page = Page.objects.select_for_update().filter(slug=RULESET_SLUG).first()
            if page is None or page.current_id is None:
                raise WikiError(NO_RULESET)
            translated = translate_operations(operations, rule_renames_since(page, base_number))
            current = page.revisions.get(pk=page.current_id)
            stale = base_number is not None and current.number != base_number
            try:
                applied = apply_rule_operations(current.text, translated, stale=stale)
            except OperationRefused as error:
                raise WikiError(AMENDMENT_OPERATION.format(number=error.index + 1, reason=error.reason)) from None
            revisions.append(
                revision_append(
                    page=page,
                    author=author,
                    text=clean_page_text(applied.text),
                    summary=clean_summary(summary),
                    now=now,
                    post=post,
                )
            )
        by_page: dict[str, list[tuple[int, dict]]] = {}
        for index, op in enumerate(operations):
            if op.get("op") in PAGE_OPS:
                by_page.setdefault(op.get("page", ""), []).append((index, op))
        for slug, numbered in by_page.items():
            page = Page.objects.select_for_update().filter(slug=slug).first()
            if page is None or page.current_id is None:
                raise WikiError(
                    AMENDMENT_OPERATION.format(number=numbered[0][0] + 1, reason=AMENDMENT_NO_PAGE.format(page=slug))
                )
            text = page.revisions.get(pk=page.current_id).text
            try:
                text = apply_page_operations(text, [op for _, op in numbered], stale=True)
            except OperationRefused as error:
                number = numbered[error.index][0] + 1
                raise WikiError(AMENDMENT_OPERATION.format(number=number, reason=error.reason)) from None
            revisions.append(
                revision_append(
                    page=page,
                    author=author,
                    text=clean_page_text(text),
                    summary=clean_summary(summary),
                    now=now,
                    post=post,
                )
            )
    return revisions


def ruleset_revert_amendment(*, revision_ids: list[int], post, author, now: datetime, summary: str) -> list[Revision]:
    """Undo the revisions an amendment made, each as a new revision restoring the text before it.

    Refused with ``WikiError`` when a page has been changed since the amendment's revision: that needs a
    person to merge.
    """
    reverted: list[Revision] = []
    with transaction.atomic():
        for applied in Revision.objects.filter(pk__in=revision_ids).select_related("page").order_by("pk"):
            page = Page.objects.select_for_update().get(pk=applied.page_id)
            if page.current_id != applied.pk:
                latest = page.revisions.latest("number")
                raise WikiError(
                    AMENDMENT_REVERT_MOVED.format(title=page.title, latest=latest.number, applied=applied.number)
                )
            before = page.revisions.filter(number=applied.number - 1).first()
            reverted.append(
                revision_append(
                    page=page,
                    author=author,
                    text=before.text if before else "",
                    summary=clean_summary(summary),
                    now=now,
                    post=post,
                )
            )
    return reverted
