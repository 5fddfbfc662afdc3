"""The rule-change index: which rules each Ruleset revision added, changed, removed or renamed, by anchor.

Every Ruleset revision saved through ``ruleset.services`` is indexed as it is written; ``rule_changes_index``
indexes in bulk the revisions loaded without it (from an archive). Rule histories, blame and amendments
followed through renames read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from django.db import transaction

from ruleset.amendment_operations import pair_renamed_rules
from ruleset.lineage import forget_latest_changes
from ruleset.models import Page, Revision, RuleChange
from ruleset.structure import parse_ruleset


def revision_rule_changes(
    page: Page, revision: Revision, previous_text: str, renames: Mapping[str, str] | None = None
) -> list[RuleChange]:
    """The rules ``revision`` added, changed or removed compared with ``previous_text``, by anchor.

    A rule that reappears under a new title is recorded as added with its ``previous_anchor``: the
    ``renames`` given (new anchor → old) first, then the pairs ``pair_renamed_rules`` finds among the rest.
    """
    return _changes_between(page, revision, parse_ruleset(previous_text), parse_ruleset(revision.text), renames)


def _changes_between(
    page: Page, revision: Revision, old_ruleset, new_ruleset, renames: Mapping[str, str] | None = None
) -> list[RuleChange]:
    old = {rule.anchor: rule for rule in old_ruleset.all_rules()}
    new = {rule.anchor: rule for rule in new_ruleset.all_rules()}
    known = {
        after: before
        for after, before in (renames or {}).items()
        if after in new and after not in old and before in old and before not in new
    }
    renamed = {
        after: before
        for after, before in pair_renamed_rules(old_ruleset, new_ruleset).items()
        if after not in known and before not in known.values()
    }
    renamed.update(known)
    changes = []
    for anchor, rule in new.items():
        if anchor not in old:
            kind = RuleChange.ADDED
        elif old[anchor].own_text != rule.own_text:
            kind = RuleChange.CHANGED
        else:
            continue
        change = rule_change_for(page, revision, rule, kind)
        change.previous_anchor = renamed.get(anchor, "")[:255]
        changes.append(change)
    changes.extend(
        rule_change_for(page, revision, rule, RuleChange.REMOVED) for anchor, rule in old.items() if anchor not in new
    )
    return changes


def rule_change_for(page: Page, revision: Revision, rule, kind: str) -> RuleChange:
    return RuleChange(
        page=page,
        revision=revision,
        anchor=rule.anchor[:255],
        kind=kind,
        number=rule.number[:40],
        title=rule.title[:300],
    )


# Revisions read, and rule changes written, per query when indexing in bulk.
INDEX_BATCH = 500
# A batch of texts is also cut by size (a revision may be 1 MB), so indexing holds megabytes, not a history.
INDEX_BATCH_BYTES = 8 * 1024 * 1024


def rule_changes_index(*, page: Page | None = None) -> int:
    """Record the rule changes of ruleset revisions that lack them (those loaded from an archive).

    Idempotent: revisions already indexed are skipped, so running it twice does nothing more. Returns how
    many revisions were indexed. Each page's revisions are read in order, a batch per query, and each text
    is parsed once (as the newer side of one pair and the older of the next), so a whole archive's Ruleset
    history takes a few queries per batch rather than several per revision.
    """
    pages = Page.objects.filter(kind=Page.RULESET)
    if page is not None:
        pages = pages.filter(pk=page.pk)
    indexed = 0
    for ruleset_page in pages.filter(revisions__rules_indexed=False).distinct():
        with transaction.atomic():
            indexed += _index_page(ruleset_page)
            transaction.on_commit(partial(forget_latest_changes, ruleset_page))
    return indexed


def _index_page(page: Page) -> int:
    """Index ``page``'s unindexed revisions, each against the revision numbered just before it."""
    first = page.revisions.filter(rules_indexed=False).order_by("number").values_list("number", flat=True).first()
    if first is None:
        return 0
    # The page is named in only(): the related manager reads it for every row and would fetch it one by one.
    revisions = page.revisions.order_by("number").only("id", "page", "number", "text", "rules_indexed")
    indexed, after = 0, first - 2
    previous_number, previous_parsed = None, parse_ruleset("")
    while True:
        # Keyset pages: each batch is read whole before this batch's writes, on any database.
        last = _batch_end(page, after)
        if last is None:
            return indexed
        chunk = list(revisions.filter(number__gt=after, number__lte=last))
        batch: list[Revision] = []
        changes: list[RuleChange] = []
        for revision in chunk:
            parsed = parse_ruleset(revision.text)
            if not revision.rules_indexed:
                before = previous_parsed if previous_number == revision.number - 1 else parse_ruleset("")
                changes.extend(_changes_between(page, revision, before, parsed))
                batch.append(revision)
            previous_number, previous_parsed = revision.number, parsed
        if batch:
            indexed += _write_index_batch(batch, changes)
        after = chunk[-1].number


def _batch_end(page: Page, after: int) -> int | None:
    """The number of the last revision of the batch after ``after``: at most INDEX_BATCH, about INDEX_BATCH_BYTES."""
    sizes = page.revisions.filter(number__gt=after).order_by("number").values_list("number", "size")[:INDEX_BATCH]
    last, total = None, 0
    for number, size in sizes:
        if last is not None and total + size > INDEX_BATCH_BYTES:
            break
        last, total = number, total + size
    return last


def _write_index_batch(revisions: list[Revision], changes: list[RuleChange]) -> int:
    ids = [revision.pk for revision in revisions]
    RuleChange.objects.filter(revision_id__in=ids).delete()
    RuleChange.objects.bulk_create(changes, batch_size=INDEX_BATCH * 4)
    Revision.objects.filter(pk__in=ids).update(rules_indexed=True)
    return len(ids)
