"""Exporting the wiki as MediaWiki XML (schema 0.11): the Ruleset and every page, with full history.

Each revision keeps its author (as a MediaWiki user name; a revision with no author is written with its
contributor deleted), its time to the second (MediaWiki keeps no finer), its summary and its text. Pages
and revisions are read a batch at a time, so the export's size does not bound the memory it needs.
"""

from __future__ import annotations

from typing import TextIO

from blognomic.moving.mediawiki.reading import Contributor
from blognomic.moving.mediawiki.writing import OutPage, OutRevision, namespace_of, write_export
from ruleset.models import Page, Revision

BATCH = 500


def _revisions(page: Page, names: dict[str, str]):
    rows = (
        Revision.objects.filter(page=page)
        .order_by("number")
        .select_related("author")
        .only("id", "at", "summary", "text", "author__id", "author__username")
    )
    for revision in rows.iterator(chunk_size=BATCH):
        author = revision.author
        contributor = (
            Contributor(username=names.get(author.username, author.username), user_id=author.pk)
            if author is not None
            else Contributor(deleted=True)
        )
        yield OutRevision(
            revision_id=revision.pk,
            timestamp=revision.at,
            contributor=contributor,
            comment=revision.summary,
            text=revision.text,
        )


def export_mediawiki(out: TextIO, *, names: dict[str, str] | None = None, base: str = "") -> int:
    """Write every page to ``out``; ``names`` renames accounts (name here → name there). Returns the pages."""
    names = names or {}
    pages = list(Page.objects.order_by("pk").only("id", "title"))
    write_export(
        out,
        (
            OutPage(
                title=page.title, namespace=namespace_of(page.title), page_id=page.pk, revisions=_revisions(page, names)
            )
            for page in pages
        ),
        base=base,
    )
    return len(pages)
