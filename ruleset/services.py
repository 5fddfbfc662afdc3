"""Writes on the wiki's pages: every save appends a revision with the next per-page number; nothing changes
in place.

Who may edit what:

- the Ruleset, its snapshots and gamestate pages: admins only (the enactment flow runs as the admin who
  enacts);
- a protected page: admins only;
- any other page: any active player (joined, and neither idle nor gone at that moment);
- ``author=None`` is the site itself (a management command, a scheduled job): no check is made.

Every refusal raises ``WikiError`` (or a subclass) with a message for the person who tried; nothing is
written then.

The flows that change the Ruleset as a whole have their own modules, and do not check the author's edit
rights: the flow that calls them has already decided the change is due, and the author is recorded as the
person who caused it. ``ruleset.ascension`` keeps a dynasty's Ruleset as a snapshot and applies an
Ascension; ``ruleset.amendment_writes`` applies an enacted amendment and reverts it; ``ruleset_import_plaintext``
here loads an operator's plain-text export. ``ruleset.rule_index`` records which rules each Ruleset revision
changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from dynasties.models import User
from ruleset.models import RULESET_SLUG, RULESET_TITLE, Page, ProtectionChange, Revision, RuleChange
from ruleset.rule_index import revision_rule_changes
from ruleset.seed_import import convert_plaintext_export

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
    return bool(getattr(user, "pk", None)) and User.objects.active_at(now).filter(pk=user.pk).exists()


# --- pages and revisions ---------------------------------------------------------------------------


def _clean_title(title: str) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise WikiError(EMPTY_TITLE)
    if len(title) > MAX_TITLE_CHARS:
        raise WikiError(TITLE_TOO_LONG)
    return title


def clean_page_text(text: str) -> str:
    """``text`` with its line ends made ``\\n``; ``WikiError`` when it is over 1 MB."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n")
    size = len(text.encode("utf-8"))
    if size > MAX_PAGE_BYTES:
        raise WikiError(PAGE_TOO_LARGE.format(size=size))
    return text


def clean_summary(summary: str) -> str:
    """``summary`` on one line; ``WikiError`` when it is over 300 characters."""
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
    text = clean_page_text(text)
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
            page.current = revision_append(
                page=page, author=author, text=text, summary=summary or "Created the page", now=now, post=post
            )
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
    text = clean_page_text(text)
    summary = clean_summary(summary)
    refusal = page_edit_refusal(page=page, user=author, now=now)
    if refusal:
        raise WikiPermissionDenied(refusal)
    return revision_append(
        page=page, author=author, text=text, summary=summary, now=now, post=post, base_number=base_number
    )


def revision_revert(
    *, page: Page, number: int, author, now: datetime, base_number: int | None = None, summary: str = ""
) -> Revision:
    """Restore the text of revision ``number`` as a new revision; history keeps everything in between."""
    old = page.revisions.filter(number=number).select_related("author").first()
    if old is None:
        raise WikiError(NO_SUCH_REVISION.format(title=page.title, number=number))
    default = f"Reverted to revision {number}" + (f" by {old.author}" if old.author else "")
    return revision_add(
        page=page, author=author, text=old.text, summary=summary or default, now=now, base_number=base_number
    )


def revision_append(
    *,
    page: Page,
    author,
    text: str,
    summary: str,
    now: datetime,
    post=None,
    base_number: int | None = None,
    allow_unchanged: bool = False,
    renames: Mapping[str, str] | None = None,
) -> Revision:
    """Lock the page, check for a conflict, write the revision and record the rules it changed.

    Checks no edit right: ``revision_add`` does for a person's edit, and the flows that call this directly
    (an Ascension, an enacted amendment, an import) have decided the change is due. ``allow_unchanged`` lets
    a flow record an event (an Ascension keeping every rule and term) as a revision even when the text stays
    the same. ``renames`` (new anchor → old anchor) names rules the flow knows it renamed, beyond those the
    rule-change index pairs by itself.
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
                revision_rule_changes(page, revision, latest.text if latest else "", renames=renames)
            )
        page.current = revision
        page.save(update_fields=["current"])
    return revision


def page_set_protection(*, page: Page, protected: bool, admin, now: datetime, reason: str = "") -> ProtectionChange:
    """Protect or unprotect a page (admins only), recording who did it, when and why."""
    if admin is not None and not getattr(admin, "is_admin", False):
        raise WikiPermissionDenied(ADMINS_PROTECT)
    reason = clean_summary(reason)  # refused before the page is locked or changed
    with transaction.atomic():
        page = Page.objects.select_for_update().get(pk=page.pk)
        page.protected = protected
        page.save(update_fields=["protected"])
        return ProtectionChange.objects.create(page=page, protected=protected, by=admin, at=now, reason=reason)


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
            page = page_create(
                title=RULESET_TITLE,
                kind=Page.RULESET,
                author=author,
                text=markup,
                summary=summary,
                now=now,
                slug=RULESET_SLUG,
                check_permission=False,
            )
            assert page.current is not None  # page_create saves the first revision as the current one
            return page.current
        return revision_append(
            page=page, author=author, text=clean_page_text(markup), summary=clean_summary(summary), now=now
        )
