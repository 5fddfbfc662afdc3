"""Importing a MediaWiki export into the wiki, every revision with its author, time, summary and text.

What is mapped:

- the page named ``Ruleset`` (or the title given) becomes the structured Ruleset: its revisions keep their
  text, and the rules each changed are indexed from the headings, so blame and rule history reach back to
  the first imported revision;
- ``Ruleset NNN`` pages become protected ruleset snapshots; every other page of the main and project
  namespaces becomes an ordinary wiki page under its own title;
- a contributor becomes the account of that name (``blognomic.moving.archive.people``); an anonymous edit (an
  address) and a deleted contributor are kept without an author, a deleted comment as an empty summary.

What is skipped, each with its reason in the report: talk pages and user pages unless asked for, the other
namespaces (files, templates, categories, the interface), content that is not wikitext, revisions without
text or with their text deleted, revisions over the wiki's 1 MB limit, log items and uploads.

The whole import is one transaction: a bad file (refused by ``reading``), or an unusable name, leaves
nothing behind. A revision already here (same page, time, author, size and text) is not added again, so
importing the same file twice changes nothing and a newer export adds only its new revisions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import BinaryIO

from django.db import transaction

from blognomic.moving.archive.people import accounts_for
from blognomic.moving.mediawiki.reading import PageRevision, SiteInfo, Skipped, read_export
from blognomic.moving.mediawiki.writing import STANDARD_NAMESPACES
from dynasties.models import User
from ruleset.history_import import (
    BATCH,
    BATCH_BYTES,
    HistoryRevision,
    history_append,
    history_fits,
    history_index_rules,
    history_put_in_time_order,
    page_for_history,
)
from ruleset.models import RULESET_SLUG, Page, Revision
from ruleset.wikitext import unknown_templates

SNAPSHOT_TITLE = re.compile(r"^Ruleset (?P<number>\d{1,6})$")
MAIN, USER, PROJECT = 0, 2, 4
SKIPPED_SHOWN = 200


@dataclass
class ImportReport:
    dry_run: bool = False
    formats: set[str] = field(default_factory=set)
    counts: Counter = field(default_factory=Counter)
    skipped: list[str] = field(default_factory=list)
    skipped_total: int = 0
    unknown_templates: Counter = field(default_factory=Counter)

    def skip(self, reason: str) -> None:
        self.skipped_total += 1
        if len(self.skipped) < SKIPPED_SHOWN:
            self.skipped.append(reason)

    def lines(self) -> list[str]:
        head = "Dry run: nothing was written." if self.dry_run else "Imported."
        out = [head, "Formats read: " + (", ".join(f"MediaWiki export {v}" for v in sorted(self.formats)) or "none")]
        out += [f"  {kind}: {count}" for kind, count in sorted(self.counts.items())]
        if self.skipped_total:
            out.append(f"Skipped ({self.skipped_total}):")
            out += [f"  {reason}" for reason in self.skipped]
            if self.skipped_total > len(self.skipped):
                out.append(f"  … and {self.skipped_total - len(self.skipped)} more")
        if self.unknown_templates:
            out.append("Unknown templates (shown by name where used):")
            out += [f"  {{{{{name}}}}}: {count} page(s)" for name, count in sorted(self.unknown_templates.items())]
        return out


@dataclass
class _PageState:
    page: Page
    keys: dict[tuple, list[int]]
    latest_at: object = None
    added: int = 0
    out_of_order: bool = False


class _Importer:
    def __init__(
        self,
        *,
        report: ImportReport,
        ruleset_title: str,
        include_talk: bool,
        include_user: bool,
        mapping: dict[str, str],
    ) -> None:
        self.report = report
        self.ruleset_title = ruleset_title.strip()
        self.include_talk = include_talk
        self.include_user = include_user
        self.mapping = mapping
        self.namespaces = dict(STANDARD_NAMESPACES)
        self.buffer: list[PageRevision] = []
        self.buffer_bytes = 0
        self.pages: dict[str, _PageState] = {}
        self.users: dict[str, User] = {}
        self.refused_titles: set[str] = set()

    def take(self, record) -> None:
        if isinstance(record, SiteInfo):
            self.report.formats.add(record.version)
            self.namespaces.update(record.namespaces)
        elif isinstance(record, Skipped):
            self.report.counts[f"{record.kind}s skipped"] += 1
            self.report.skip(record.reason)
        elif isinstance(record, PageRevision):
            self._take_revision(record)

    def _take_revision(self, revision: PageRevision) -> None:
        refusal = self._refusal(revision)
        if refusal is not None:
            self.report.counts["revisions skipped"] += 1
            if revision.title not in self.refused_titles:
                self.refused_titles.add(revision.title)
                self.report.skip(f"line {revision.line}: {revision.title!r}: {refusal}")
            return
        problem = history_fits(title=revision.title, text=revision.text)
        if problem is not None:
            self.report.counts["revisions skipped"] += 1
            self.report.skip(
                f"line {revision.line}: <revision> {revision.revision_id} of {revision.title!r}: {problem}"
            )
            return
        self.buffer.append(revision)
        self.buffer_bytes += len(revision.text)
        if len(self.buffer) >= BATCH or self.buffer_bytes >= BATCH_BYTES:
            self.flush()

    def _refusal(self, revision: PageRevision) -> str | None:
        ns = revision.namespace
        name = self.namespaces.get(ns, str(ns))
        if ns > 0 and ns % 2 == 1:
            return None if self.include_talk else f"a talk page ({name}); give --talk-pages to import talk pages"
        if ns == USER:
            return None if self.include_user else "a user page; give --user-pages to import user pages"
        if ns not in (MAIN, PROJECT, USER):
            return f"pages of the {name or ns} namespace are not imported"
        if revision.model != "wikitext":
            return f"its content is {revision.model}, not wikitext"
        return None

    def flush(self) -> None:
        batch, self.buffer, self.buffer_bytes = self.buffer, [], 0
        if not batch:
            return
        self._resolve_people(batch)
        by_title: dict[str, list[PageRevision]] = {}
        for revision in batch:
            by_title.setdefault(revision.title, []).append(revision)
        for title, revisions in by_title.items():
            self._append(self._state(title, revisions[0]), revisions)

    def _resolve_people(self, batch: list[PageRevision]) -> None:
        names = {r.contributor.username for r in batch if r.contributor.username and not r.contributor.deleted}
        missing = names - self.users.keys()
        if missing:
            before = User.objects.count()
            self.users.update(accounts_for(sorted(missing), mapping=self.mapping))
            self.report.counts["accounts created"] += User.objects.count() - before

    def _author(self, revision: PageRevision) -> User | None:
        contributor = revision.contributor
        if contributor.deleted or not contributor.username:
            return None
        return self.users[contributor.username]

    def _state(self, title: str, first: PageRevision) -> _PageState:
        state = self.pages.get(title)
        if state is not None:
            return state
        snapshot = SNAPSHOT_TITLE.match(title)
        if title.casefold() == self.ruleset_title.casefold():
            page, new = page_for_history(title=title, kind=Page.RULESET, slug=RULESET_SLUG, created_at=first.timestamp)
            kind = "the Ruleset"
        elif snapshot:
            page, new = page_for_history(
                title=title,
                kind=Page.RULESET,
                protected=True,
                created_at=first.timestamp,
                slug=f"{RULESET_SLUG}-{snapshot['number']}",
            )
            kind = "ruleset snapshots"
        else:
            page, new = page_for_history(title=title, kind=Page.ORDINARY, created_at=first.timestamp)
            kind = "wiki pages"
        self.report.counts[f"pages created ({kind})" if new else f"pages already here ({kind})"] += 1
        keys: dict[tuple, list[int]] = {}
        latest = None
        if not new:
            for pk, at, author_id, size in page.revisions.values_list("id", "at", "author_id", "size").iterator():
                keys.setdefault((at, author_id, size), []).append(pk)
                latest = at if latest is None or at > latest else latest
        state = _PageState(page=page, keys=keys, latest_at=latest)
        self.pages[title] = state
        return state

    def _append(self, state: _PageState, revisions: list[PageRevision]) -> None:
        candidates = []
        for revision in revisions:
            author = self._author(revision)
            key = (revision.timestamp, author.pk if author else None, len(revision.text.encode("utf-8")))
            candidates.append((key, revision, author))
        # Texts of revisions here that match a candidate's time, author and size, read in one query.
        matching = [pk for key, _, _ in candidates for pk in state.keys.get(key, ())]
        texts = dict(Revision.objects.filter(pk__in=matching).values_list("id", "text")) if matching else {}
        new: list[HistoryRevision] = []
        for key, revision, author in candidates:
            if any(texts.get(pk) == revision.text for pk in state.keys.get(key, ())):
                self.report.counts["revisions already here"] += 1
                continue
            if any(
                key == (r.at, r.author.pk if r.author else None, len(r.text.encode("utf-8")))
                and r.text == revision.text
                for r in new
            ):
                self.report.counts["revisions already here"] += 1
                continue
            summary = "" if revision.comment_deleted else revision.comment
            new.append(HistoryRevision(at=revision.timestamp, author=author, summary=summary, text=revision.text))
        if not new:
            return
        for row in history_append(page=state.page, revisions=new):
            state.keys.setdefault((row.at, row.author_id, row.size), []).append(row.pk)
            if state.latest_at is not None and row.at < state.latest_at:
                state.out_of_order = True
            state.latest_at = row.at if state.latest_at is None or row.at > state.latest_at else state.latest_at
        state.added += len(new)
        self.report.counts["revisions added"] += len(new)

    def finish(self) -> None:
        self.flush()
        for state in self.pages.values():
            if not state.added:
                continue
            if state.out_of_order and history_put_in_time_order(page=state.page):
                self.report.counts["pages put in time order"] += 1
            history_index_rules(page=state.page)
            current = state.page.revisions.order_by("-number").values_list("text", flat=True).first() or ""
            for name in set(unknown_templates(current)):
                self.report.unknown_templates[name] += 1


def import_mediawiki(
    stream: BinaryIO,
    *,
    ruleset_title: str = "Ruleset",
    include_talk: bool = False,
    include_user: bool = False,
    mapping: dict[str, str] | None = None,
    dry_run: bool = False,
    on_progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Import the export in ``stream`` in one transaction; with ``dry_run`` roll it back and only report.

    Raises ``reading.ExportError`` or ``people.PeopleError`` for a file or a name that cannot be imported;
    nothing is written then.
    """
    report = ImportReport(dry_run=dry_run)
    importer = _Importer(
        report=report,
        ruleset_title=ruleset_title,
        include_talk=include_talk,
        include_user=include_user,
        mapping=mapping or {},
    )
    with transaction.atomic():
        for record in read_export(stream, on_progress=on_progress):
            importer.take(record)
        importer.finish()
        if dry_run:
            transaction.set_rollback(True)
    return report
