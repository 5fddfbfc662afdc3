"""Writes on the wiki: every save appends a revision with the next per-page number; nothing changes in place.

Who may edit what:

- the Ruleset, its snapshots and gamestate pages: admins only (the enactment flow runs as the admin who
  enacts);
- a protected page: admins only;
- any other page: any active player (joined, and neither idle nor gone at that moment);
- ``author=None`` is the site itself (a management command, a scheduled job): no check is made.

The flow services (``ruleset_snapshot``, ``ruleset_apply_ascension`` and its two halves,
``ruleset_import_plaintext``) do not check the author's edit rights: the flow that calls them has already
decided the change is due (an Ascension Address, a new dynasty, an operator's command), and the author is
recorded as the person who caused it.

Every refusal raises ``WikiError`` (or a subclass) with a message for the person who tried; nothing is
written then.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from dynasties.terms import replace_keywords
from ruleset.amend import (
    PAGE_OPS,
    RULE_OPS,
    AmendError,
    apply_page_operations,
    apply_rule_operations,
    pair_renamed_rules,
    translate_operations,
)
from ruleset.editing import RulesetEditError, repeal_dynastic_rules
from ruleset.lineage import forget_latest_changes
from ruleset.models import RULESET_SLUG, RULESET_TITLE, Page, ProtectionChange, Revision, RuleChange
from ruleset.seed_import import convert_plaintext_export
from ruleset.structure import parse_ruleset

MAX_PAGE_BYTES = 1024 * 1024
MAX_TITLE_CHARS = 200
MAX_SUMMARY_CHARS = 300
RESERVED_SLUGS = frozenset({"new"})
"""Slugs that would clash with the wiki's own addresses (``/wiki/new/``)."""

EMPTY_TITLE = "A page needs a title."
TITLE_TOO_LONG = "A title may be at most 200 characters."
TITLE_TAKEN = "A page called “{title}” already exists."
PAGE_TOO_LARGE = "A page may be at most 1 MB; this text is {size:,} bytes."
SUMMARY_TOO_LONG = "An edit summary may be at most 300 characters."
NO_CHANGES = "The text is the same as the current revision; nothing was saved."
EDIT_CONFLICT = (
    "Edit conflict: revision {latest} was saved after revision {base}, which you started from. Nothing "
    "was saved. Your text is kept below, with how it differs from revision {latest}."
)
ADMINS_ONLY = "Only admins may edit “{title}”."
PROTECTED = "“{title}” is protected: only admins may edit it."
PLAYERS_ONLY = "Only active players may edit wiki pages."
ADMINS_CREATE_KIND = "Only admins may create a page of kind “{kind}”."
ADMINS_PROTECT = "Only admins may protect or unprotect a page."
NO_RULESET = "There is no Ruleset page yet."
NO_SUCH_REVISION = "“{title}” has no revision {number}."


class WikiError(Exception):
    """A wiki write was refused; the message says why."""


class WikiPermissionDenied(WikiError):
    """The author may not make this change."""


class NoChanges(WikiError):
    """The new text is the same as the current one, so no revision was added."""


class EditConflict(WikiError):
    """Someone saved the page after the revision the editor started from.

    ``latest`` is the page's current revision (text included), ``base_number`` the one the editor saw.
    """

    def __init__(self, *, latest: Revision, base_number: int) -> None:
        self.latest = latest
        self.base_number = base_number
        super().__init__(EDIT_CONFLICT.format(latest=latest.number, base=base_number))


# --- permissions -----------------------------------------------------------------------------------


def page_edit_refusal(*, page: Page, user, now: datetime, is_active: bool | None = None) -> str | None:
    """Why ``user`` may not edit ``page`` at ``now``, or None when they may.

    ``is_active`` says whether the user is an active player at ``now`` when the caller already knows
    (the page views read it from the sidebar's roster); otherwise it is looked up.
    """
    if user is None or getattr(user, "is_admin", False):
        return None
    if page.protected:
        return PROTECTED.format(title=page.title)
    if page.admins_only:
        return ADMINS_ONLY.format(title=page.title)
    if is_active is None:
        is_active = _is_active_player(user, now)
    return None if is_active else PLAYERS_ONLY


def page_create_refusal(*, kind: str, user, now: datetime, is_active: bool | None = None) -> str | None:
    """Why ``user`` may not create a page of ``kind``, or None when they may."""
    if user is None or getattr(user, "is_admin", False):
        return None
    if kind != Page.ORDINARY:
        return ADMINS_CREATE_KIND.format(kind=dict(Page.KIND_CHOICES).get(kind, kind))
    if is_active is None:
        is_active = _is_active_player(user, now)
    return None if is_active else PLAYERS_ONLY


def _is_active_player(user, now: datetime) -> bool:
    from dynasties.models import User

    return bool(getattr(user, "pk", None)) and User.objects.active_at(now).filter(pk=user.pk).exists()


# --- pages and revisions ---------------------------------------------------------------------------


def _clean_title(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise WikiError(EMPTY_TITLE)
    if len(title) > MAX_TITLE_CHARS:
        raise WikiError(TITLE_TOO_LONG)
    return title


def _clean_text(text: str) -> str:
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    size = len(text.encode("utf-8"))
    if size > MAX_PAGE_BYTES:
        raise WikiError(PAGE_TOO_LARGE.format(size=size))
    return text


def _clean_summary(summary: str) -> str:
    summary = " ".join((summary or "").split())
    if len(summary) > MAX_SUMMARY_CHARS:
        raise WikiError(SUMMARY_TOO_LONG)
    return summary


def page_create(
    *,
    title: str,
    kind: str = Page.ORDINARY,
    author=None,
    text: str = "",
    summary: str = "",
    now: datetime,
    slug: str | None = None,
    protected: bool = False,
    post=None,
    check_permission: bool = True,
) -> Page:
    """Create a page with its first revision.

    Refused with ``WikiError`` when the title is empty, too long or already used (in any capitalisation,
    or as an address), when the text is over 1 MB, or when the author may not create a page of ``kind``.
    """
    title = _clean_title(title)
    text = _clean_text(text)
    if check_permission:
        refusal = page_create_refusal(kind=kind, user=author, now=now)
        if refusal:
            raise WikiPermissionDenied(refusal)
    slug = slug or slugify(title, allow_unicode=True)[:MAX_TITLE_CHARS] or "page"
    if slug in RESERVED_SLUGS:
        slug = f"{slug}-page"
    try:
        with transaction.atomic():
            if Page.objects.filter(title__iexact=title).exists() or Page.objects.filter(slug=slug).exists():
                raise WikiError(TITLE_TAKEN.format(title=title))
            page = Page.objects.create(title=title, slug=slug, kind=kind, protected=protected, created_at=now)
            page.current = _append(page=page, author=author, text=text, summary=summary or "Created the page",
                                   now=now, post=post)
    except IntegrityError as error:
        # Another request created the same title between the check and the insert.
        raise WikiError(TITLE_TAKEN.format(title=title)) from error
    return page


def revision_add(
    *,
    page: Page,
    author,
    text: str,
    summary: str = "",
    now: datetime,
    post=None,
    base_number: int | None = None,
) -> Revision:
    """Append a revision and make it the page's current one.

    ``base_number`` is the revision the editor started from; if another revision was saved since,
    ``EditConflict`` is raised and nothing is written. Also refused (``WikiError``) when the author may
    not edit the page, the text is over 1 MB or the same as the current text (``NoChanges``).
    """
    text = _clean_text(text)
    summary = _clean_summary(summary)
    refusal = page_edit_refusal(page=page, user=author, now=now)
    if refusal:
        raise WikiPermissionDenied(refusal)
    return _append(page=page, author=author, text=text, summary=summary, now=now, post=post,
                   base_number=base_number)


def revision_revert(*, page: Page, number: int, author, now: datetime, base_number: int | None = None,
                    summary: str = "") -> Revision:
    """Restore the text of revision ``number`` as a new revision; history keeps everything in between."""
    old = page.revisions.filter(number=number).select_related("author").first()
    if old is None:
        raise WikiError(NO_SUCH_REVISION.format(title=page.title, number=number))
    default = f"Reverted to revision {number}" + (f" by {old.author}" if old.author else "")
    return revision_add(page=page, author=author, text=old.text, summary=summary or default, now=now,
                        base_number=base_number)


def _append(*, page: Page, author, text: str, summary: str, now: datetime, post=None,
            base_number: int | None = None, allow_unchanged: bool = False,
            renames: Mapping[str, str] | None = None) -> Revision:
    """Lock the page, check for a conflict, write the revision and record the rules it changed.

    ``allow_unchanged`` lets a flow record an event (an Ascension keeping every rule and term) as a
    revision even when the text stays the same. ``renames`` (new anchor → old anchor) names rules the
    flow knows it renamed, beyond those the rule-change index pairs by itself.
    """
    with transaction.atomic():
        page = Page.objects.select_for_update().get(pk=page.pk)
        latest = page.revisions.order_by("-number").first()
        if latest is not None:
            if base_number is not None and latest.number != base_number:
                raise EditConflict(latest=latest, base_number=base_number)
            if latest.text == text and not allow_unchanged:
                raise NoChanges(NO_CHANGES)
        revision = Revision.objects.create(
            page=page,
            number=(latest.number if latest else 0) + 1,
            author=author,
            at=now,
            summary=summary,
            text=text,
            post=post,
            rules_indexed=page.is_ruleset,
        )
        if page.is_ruleset:
            RuleChange.objects.bulk_create(
                _rule_changes(page, revision, latest.text if latest else "", renames=renames))
        page.current = revision
        page.save(update_fields=["current"])
    return revision


def _rule_changes(page: Page, revision: Revision, previous_text: str,
                  renames: Mapping[str, str] | None = None) -> list[RuleChange]:
    """The rules ``revision`` added, changed or removed compared with ``previous_text``, by anchor.

    A rule that reappears under a new title is recorded as added with its ``previous_anchor``: the
    ``renames`` given (new anchor → old) first, then the pairs ``pair_renamed_rules`` finds among the rest.
    """
    return _changes_between(page, revision, parse_ruleset(previous_text), parse_ruleset(revision.text), renames)


def _changes_between(page: Page, revision: Revision, old_ruleset, new_ruleset,
                     renames: Mapping[str, str] | None = None) -> list[RuleChange]:
    old = {rule.anchor: rule for rule in old_ruleset.all_rules()}
    new = {rule.anchor: rule for rule in new_ruleset.all_rules()}
    known = {after: before for after, before in (renames or {}).items()
             if after in new and after not in old and before in old and before not in new}
    renamed = {after: before for after, before in pair_renamed_rules(old_ruleset, new_ruleset).items()
               if after not in known and before not in known.values()}
    renamed.update(known)
    changes = []
    for anchor, rule in new.items():
        if anchor not in old:
            kind = RuleChange.ADDED
        elif old[anchor].own_text != rule.own_text:
            kind = RuleChange.CHANGED
        else:
            continue
        change = _rule_change(page, revision, rule, kind)
        change.previous_anchor = renamed.get(anchor, "")[:255]
        changes.append(change)
    changes.extend(
        _rule_change(page, revision, rule, RuleChange.REMOVED)
        for anchor, rule in old.items()
        if anchor not in new
    )
    return changes


def _rule_change(page: Page, revision: Revision, rule, kind: str) -> RuleChange:
    return RuleChange(page=page, revision=revision, anchor=rule.anchor[:255], kind=kind,
                      number=rule.number[:40], title=rule.title[:300])


# Revisions read, and rule changes written, per query when indexing in bulk.
INDEX_BATCH = 500


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
            transaction.on_commit(lambda page=ruleset_page: forget_latest_changes(page))
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
        chunk = list(revisions.filter(number__gt=after)[:INDEX_BATCH])
        if not chunk:
            return indexed
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


def _write_index_batch(revisions: list[Revision], changes: list[RuleChange]) -> int:
    ids = [revision.pk for revision in revisions]
    RuleChange.objects.filter(revision_id__in=ids).delete()
    RuleChange.objects.bulk_create(changes, batch_size=INDEX_BATCH * 4)
    Revision.objects.filter(pk__in=ids).update(rules_indexed=True)
    return len(ids)


def page_set_protection(
    *, page: Page, protected: bool, admin, now: datetime, reason: str = ""
) -> ProtectionChange:
    """Protect or unprotect a page (admins only), recording who did it, when and why."""
    if admin is not None and not getattr(admin, "is_admin", False):
        raise WikiPermissionDenied(ADMINS_PROTECT)
    with transaction.atomic():
        page = Page.objects.select_for_update().get(pk=page.pk)
        page.protected = protected
        page.save(update_fields=["protected"])
        return ProtectionChange.objects.create(page=page, protected=protected, by=admin, at=now,
                                               reason=_clean_summary(reason))


# --- the Ruleset -----------------------------------------------------------------------------------


def ruleset_page() -> Page:
    """The live Ruleset page; ``WikiError`` if it has not been created yet."""
    page = Page.objects.filter(slug=RULESET_SLUG).first()
    if page is None:
        raise WikiError(NO_RULESET)
    return page


def snapshot_title(dynasty_number: int) -> str:
    return f"{RULESET_TITLE} {dynasty_number}"


def ruleset_snapshot(*, dynasty_number: int, now: datetime, author=None) -> Page:
    """Keep the Ruleset as it stood at ``now`` as a protected page "Ruleset <dynasty_number>".

    The Ascension Address calls it with the number of the dynasty that just ended, before changing the
    Ruleset, with ``now`` the moment of the change: the copy is the Ruleset's revision
    current at that moment, so a late call still copies the right text. Idempotent: if the snapshot page
    exists already it is returned unchanged. Raises ``WikiError`` when there is no Ruleset yet or it had
    no revision by ``now``.
    """
    title = snapshot_title(dynasty_number)
    existing = Page.objects.filter(title__iexact=title).first()
    if existing is not None:
        return existing
    source = ruleset_page()
    revision = source.revisions.as_of(now)
    if revision is None:
        raise WikiError(NO_RULESET)
    try:
        return page_create(
            title=title,
            kind=Page.RULESET,
            author=author,
            text=revision.text,
            summary=f"The Ruleset as dynasty {dynasty_number} left it (revision {revision.number})",
            now=now,
            slug=f"{RULESET_SLUG}-{dynasty_number}",
            protected=True,
            check_permission=False,
        )
    except WikiError:
        # A concurrent call created it first.
        existing = Page.objects.filter(title__iexact=title).first()
        if existing is None:
            raise
        return existing


def ruleset_apply_ascension(
    *,
    replacements: Mapping[str, str] | None,
    keep_anchors: Iterable[str] | None,
    author,
    now: datetime,
    post=None,
    plurals: Mapping[str, str] | None = None,
    summary: str = "",
) -> Revision:
    """Repeal the dynastic rules not kept and rename keywords throughout the Ruleset, in ONE revision.

    ``keep_anchors`` names the dynastic rules to keep (anchors, numbers such as "2.3", or titles); every
    other top-level rule of the Dynastic Rules is repealed. ``None`` repeals nothing; an empty list repeals
    them all. ``replacements`` maps old terms to new ones ({"Player": "Hunter", "Emperor": "Pirate"}),
    plurals and capitalisation following (see ``dynasties.terms``). A reference to no dynastic rule
    raises ``WikiError`` and nothing is written. A revision is written even when nothing changes, so the
    Ascension is always in the Ruleset's history.
    """
    with transaction.atomic():
        page = Page.objects.select_for_update().filter(slug=RULESET_SLUG).first()
        if page is None or page.current_id is None:
            raise WikiError(NO_RULESET)
        text = page.revisions.get(pk=page.current_id).text
        repealed: tuple[tuple[str, str], ...] = ()
        if keep_anchors is not None:
            try:
                repeal = repeal_dynastic_rules(text, list(keep_anchors))
            except RulesetEditError as error:
                raise WikiError(str(error)) from error
            text, repealed = repeal.text, repeal.repealed
        renames: dict[str, str] = {}
        if replacements:
            before = text
            text = replace_keywords(text, replacements, plurals=plurals)
            renames = _renamed_by_keywords(before, text)
        return _append(
            page=page,
            author=author,
            text=_clean_text(text),
            summary=_clean_summary(summary or _ascension_summary(repealed, replacements or {})),
            now=now,
            post=post,
            allow_unchanged=True,
            renames=renames,
        )


def _renamed_by_keywords(before: str, after: str) -> dict[str, str]:
    """Rules whose anchor a keyword replacement changed: new anchor → old anchor.

    Replacing words never adds, removes or reorders headings, so the rules of the two texts correspond
    one to one in document order, however much of each title and body the replacement rewrote.
    """
    old_rules, new_rules = list(parse_ruleset(before).all_rules()), list(parse_ruleset(after).all_rules())
    if len(old_rules) != len(new_rules):
        return {}
    return {new.anchor: old.anchor for old, new in zip(old_rules, new_rules, strict=True) if new.anchor != old.anchor}


def _ascension_summary(repealed: tuple[tuple[str, str], ...], replacements: Mapping[str, str]) -> str:
    parts = []
    if repealed:
        parts.append(f"Repealed {len(repealed)} dynastic rule{'s' if len(repealed) != 1 else ''}")
    if replacements:
        parts.append("Replaced " + ", ".join(f"{old} → {new}" for old, new in replacements.items()))
    summary = "; ".join(parts) or "Ascension"
    return summary if len(summary) <= MAX_SUMMARY_CHARS else summary[: MAX_SUMMARY_CHARS - 1] + "…"


def ruleset_replace_keywords(
    *,
    replacements: Mapping[str, str],
    author,
    now: datetime,
    post=None,
    plurals: Mapping[str, str] | None = None,
    summary: str = "",
) -> Revision:
    """Rename terms throughout the Ruleset in one revision ("Player" → "Hunter", plurals and capitals too)."""
    return ruleset_apply_ascension(replacements=replacements, keep_anchors=None, author=author, now=now,
                                   post=post, plurals=plurals, summary=summary)


def gamestate_pages_replace_keywords(
    *, replacements: Mapping[str, str], author, now: datetime, post=None, summary: str = ""
) -> list[Revision]:
    """Rename terms on every gamestate page as the Ascension does in the Ruleset: one revision per page
    whose text changes, citing ``post``; pages the renames do not touch get no revision."""
    written = []
    if not replacements:
        return written
    with transaction.atomic():
        for page in Page.objects.filter(kind=Page.GAMESTATE, current__isnull=False).select_related("current"):
            text = replace_keywords(page.current.text, replacements)
            if text == page.current.text:
                continue
            written.append(_append(page=page, author=author, text=_clean_text(text), now=now, post=post,
                                   summary=_clean_summary(summary or _ascension_summary((), replacements))))
    return written


def ruleset_repeal_rules(*, keep_anchors: Iterable[str], author, now: datetime, post=None,
                         summary: str = "") -> Revision:
    """Repeal every dynastic rule not named in ``keep_anchors``, in one revision."""
    return ruleset_apply_ascension(replacements=None, keep_anchors=keep_anchors, author=author, now=now,
                                   post=post, summary=summary)


def ruleset_import_plaintext(*, text: str, now: datetime, author=None, summary: str = "") -> Revision:
    """Convert a plain-text export of the ruleset page and save it as the Ruleset's next revision.

    The Ruleset page is created if missing. Raises ``WikiError`` when the text holds no recognisable
    ruleset (the converter's message) or converts to the current text.
    """
    try:
        markup = convert_plaintext_export(text)
    except ValueError as error:
        raise WikiError(str(error)) from error
    summary = summary or "Imported a plain-text ruleset"
    with transaction.atomic():
        page = Page.objects.filter(slug=RULESET_SLUG).first()
        if page is None:
            page = page_create(title=RULESET_TITLE, kind=Page.RULESET, author=author, text=markup,
                               summary=summary, now=now, slug=RULESET_SLUG, check_permission=False)
            return page.current
        return _append(page=page, author=author, text=_clean_text(markup), summary=_clean_summary(summary),
                       now=now)


# --- amendments ------------------------------------------------------------------------------------

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


def ruleset_apply_amendment(*, operations: list[dict], base_number: int | None, post, author, now: datetime,
                            summary: str) -> list[Revision]:
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
            except AmendError as error:
                raise WikiError(AMENDMENT_OPERATION.format(number=error.index + 1, reason=error.reason)) from None
            revisions.append(_append(page=page, author=author, text=_clean_text(applied.text),
                                     summary=_clean_summary(summary), now=now, post=post))
        by_page: dict[str, list[tuple[int, dict]]] = {}
        for index, op in enumerate(operations):
            if op.get("op") in PAGE_OPS:
                by_page.setdefault(op.get("page", ""), []).append((index, op))
        for slug, numbered in by_page.items():
            page = Page.objects.select_for_update().filter(slug=slug).first()
            if page is None or page.current_id is None:
                raise WikiError(AMENDMENT_OPERATION.format(number=numbered[0][0] + 1,
                                                           reason=AMENDMENT_NO_PAGE.format(page=slug)))
            text = page.revisions.get(pk=page.current_id).text
            try:
                text = apply_page_operations(text, [op for _, op in numbered], stale=True)
            except AmendError as error:
                number = numbered[error.index][0] + 1
                raise WikiError(AMENDMENT_OPERATION.format(number=number, reason=error.reason)) from None
            revisions.append(_append(page=page, author=author, text=_clean_text(text),
                                     summary=_clean_summary(summary), now=now, post=post))
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
                latest = page.revisions.order_by("-number").first()
                raise WikiError(AMENDMENT_REVERT_MOVED.format(title=page.title, latest=latest.number,
                                                              applied=applied.number))
            before = page.revisions.filter(number=applied.number - 1).first()
            reverted.append(_append(page=page, author=author, text=before.text if before else "",
                                    summary=_clean_summary(summary), now=now, post=post))
    return reverted
