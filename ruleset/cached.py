"""Wiki pages and diffs rendered as HTML, cached under a digest of their text.

Revisions never change, so a rendering is cached under a digest of the text (not the revision's id, which
a database may hand out again after a rollback). A rendered Ruleset carries a marker under each rule's
heading (see ``ruleset.lineage.fill_blame``) for the page showing it to fill with what last changed the rule.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.urls import reverse

from ruleset.diffing import render_inline_diff, render_side_by_side_diff
from ruleset.models import Page, Revision
from ruleset.render import render_ruleset_html, render_wiki_html
from ruleset.structure import parse_ruleset

RENDER_VERSION = 3
"""Part of the cache key of rendered pages: raise it when the renderers' output changes."""
RENDER_CACHE_SECONDS = 7 * 24 * 3600


def content_html(page: Page, revision: Revision | None) -> tuple[str, dict]:
    """The revision's text as HTML and, for a ruleset, its glossary; a ruleset's HTML keeps its blame
    markers, which ``ruleset.lineage.fill_blame`` fills or removes before it is shown."""
    if revision is None:
        return "", {}
    key = f"wiki-html:{RENDER_VERSION}:{page.kind}:{page.slug}:{_digest(revision.text)}"
    cached = cache.get(key)
    if cached is None:
        cached = _render_content(page, revision.text)
        cache.set(key, cached, RENDER_CACHE_SECONDS)
    return cached


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def diff_html(old: str, new: str, view: str) -> str:
    """The diff of two texts as HTML, cached like renderings: the same two texts always diff the same."""
    key = f"wiki-diff:{RENDER_VERSION}:{view}:{_digest(old)}:{_digest(new)}"
    html = cache.get(key)
    if html is None:
        html = (render_side_by_side_diff if view == "side" else render_inline_diff)(old, new)
        cache.set(key, html, RENDER_CACHE_SECONDS)
    return html


def _render_content(page: Page, text: str) -> tuple[str, dict]:
    if page.is_ruleset:
        ruleset = parse_ruleset(text)
        history_url = reverse("wiki_rule_history", args=[page.slug, "-"]).removesuffix("-/history/")
        html = render_ruleset_html(
            ruleset, rule_history_url=lambda anchor: f"{history_url}{anchor}/history/", blame_markers=True
        )
        return html, ruleset.glossary()
    return render_wiki_html(text), {}
