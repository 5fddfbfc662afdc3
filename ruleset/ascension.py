"""The Ruleset at a change of dynasty: the snapshot of the Ruleset a dynasty leaves, and the Ascension Address's
repeal of dynastic rules and renaming of terms, in the Ruleset and on the gamestate pages.

These flows do not check the author's edit rights: the Ascension Address has decided the change is due.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from django.db import transaction

from dynasties.terms import replace_keywords
from ruleset.editing import RulesetEditError, repeal_dynastic_rules
from ruleset.models import RULESET_SLUG, RULESET_TITLE, Page, Revision
from ruleset.services import (
    MAX_SUMMARY_CHARS,
    NO_RULESET,
    WikiError,
    clean_page_text,
    clean_summary,
    page_create,
    revision_append,
)
from ruleset.structure import parse_ruleset


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
        return revision_append(
            page=page,
            author=author,
            text=clean_page_text(text),
            summary=clean_summary(summary or _ascension_summary(repealed, replacements or {})),
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
    return ruleset_apply_ascension(
        replacements=replacements,
        keep_anchors=None,
        author=author,
        now=now,
        post=post,
        plurals=plurals,
        summary=summary,
    )


def gamestate_pages_replace_keywords(
    *, replacements: Mapping[str, str], author, now: datetime, post=None, summary: str = ""
) -> list[Revision]:
    """Rename terms on every gamestate page as the Ascension does in the Ruleset: one revision per page
    whose text changes, citing ``post``; pages the renames do not touch get no revision."""
    written: list[Revision] = []
    if not replacements:
        return written
    with transaction.atomic():
        for page in Page.objects.filter(kind=Page.GAMESTATE, current__isnull=False).select_related("current"):
            current = page.current
            assert current is not None  # the query asked for pages with a current revision
            text = replace_keywords(current.text, replacements)
            if text == current.text:
                continue
            written.append(
                revision_append(
                    page=page,
                    author=author,
                    text=clean_page_text(text),
                    now=now,
                    post=post,
                    summary=clean_summary(summary or _ascension_summary((), replacements)),
                )
            )
    return written


def ruleset_repeal_rules(
    *, keep_anchors: Iterable[str], author, now: datetime, post=None, summary: str = ""
) -> Revision:
    """Repeal every dynastic rule not named in ``keep_anchors``, in one revision."""
    return ruleset_apply_ascension(
        replacements=None, keep_anchors=keep_anchors, author=author, now=now, post=post, summary=summary
    )
