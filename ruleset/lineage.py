"""A rule's identity through the Ruleset's revisions: what last changed each rule (its blame) and every
change of one rule, followed across renames.

Both read the rule-change index (``RuleChange``). An anchor follows a rule's title, so a renamed rule (by a
Proposal, or by an Ascension's keyword replacement) is recorded as added under its new anchor with the
old one in ``previous_anchor``; a rule's latest change is therefore always filed under the anchor it has
now, and its earlier life is found by walking ``previous_anchor`` back.

A revision names the matter that caused it in its ``post``; a hand edit whose summary cites a post's
address ("Enacting /posts/fog-horn/") names that post too.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Max, Q
from django.utils.formats import date_format
from django.utils.html import format_html

from ruleset.models import Page, Revision, RuleChange
from ruleset.selectors import NumberedPage, page_number_within
from votes.models import Kind, Post

RULE_HISTORY_PER_PAGE = 50
_CITED_POST = re.compile(r"/posts/(?P<slug>[^/\s)\]>\"'“”]+)/?")
BLAME_MARKER = re.compile(r"<!--rule-blame:(?P<anchor>[^>]*?)-->")
BLAME_VERSION = 1
"""Part of the cache key of each rule's last change: raise it when the rule changes are worked out anew."""
BLAME_CACHE_SECONDS = 7 * 24 * 3600


def cited_slug(summary: str) -> str | None:
    """The slug of the first post address an edit summary cites, if any."""
    match = _CITED_POST.search(summary or "")
    return match["slug"] if match else None


@dataclass(frozen=True)
class Blame:
    """The revision that last added or changed a rule, and the matter behind it (None for a plain edit)."""

    revision: Revision
    post: Post | None
    page_url: str

    @property
    def revision_url(self) -> str:
        return f"{self.page_url}r/{self.revision.number}/"

    @property
    def when(self) -> str:
        return date_format(self.revision.at, "j M Y")

    def as_html(self) -> str:
        """One line for under the rule's heading: "Last changed by Proposal: X, enacted 19 Nov 2026 (r12)"."""
        if self.post is not None:
            verb = "enacted " if self.post.kind in (Kind.PROPOSAL, Kind.CFJ) else ""
            return format_html(
                '<p class="rule-blame">Last changed by <a href="{}">{}</a>, {}{} (<a href="{}">r{}</a>)</p>',
                self.post.get_absolute_url(),
                self.post.title,
                verb,
                self.when,
                self.revision_url,
                self.revision.number,
            )
        who = self.revision.author.username if self.revision.author_id else "the system"
        return format_html(
            '<p class="rule-blame">Last changed in <a href="{}">r{}</a> by {}, {}</p>',
            self.revision_url,
            self.revision.number,
            who,
            self.when,
        )


def _causes(revisions: list[Revision]) -> dict[int, Post | None]:
    """Revision number → the post each revision names, directly or by an address its summary cites.

    The revisions come with their posts joined; the cited posts are one query, made only when a revision
    without a post cites one.
    """
    cited = {revision.number: cited_slug(revision.summary) for revision in revisions if not revision.post_id}
    slugs = {slug for slug in cited.values() if slug}
    posts = (
        {post.slug: post for post in Post.objects.filter(slug__in=slugs).only("slug", "title", "kind")} if slugs else {}
    )
    return {
        revision.number: revision.post if revision.post_id else posts.get(cited.get(revision.number))
        for revision in revisions
    }


def ruleset_blame(page: Page, *, up_to: int | None = None) -> dict[str, Blame]:
    """For every rule of the page (as of revision ``up_to``, or now), the revision that last added or
    changed it: in two or three queries however many rules and revisions there are."""
    latest = _latest_changes(page, up_to)
    if not latest:
        return {}
    revisions = {
        revision.number: revision
        for revision in page.revisions.filter(number__in=set(latest.values()))
        .select_related("author", "post")
        .only("id", "page_id", "number", "at", "summary", "author__username", "post__slug", "post__title", "post__kind")
    }
    causes = _causes(list(revisions.values()))
    page_url = page.get_absolute_url()
    return {
        anchor: Blame(revision=revisions[number], post=causes[number], page_url=page_url)
        for anchor, number in latest.items()
        if number in revisions
    }


def _latest_changes(page: Page, up_to: int | None) -> dict[str, int]:
    """Each rule's anchor → the number of the last revision (up to ``up_to``) that added or changed it.

    The grouping reads every change the page has had, which grows with its age (benchmarks/RESULTS.md has the
    figures at ten times the real history), while its answer changes only when a revision is added. So the
    current page's answer is kept under its newest revision, which no later write can change (revisions are
    only ever added, each with its rule changes in the same transaction).
    """
    changes = RuleChange.objects.filter(page=page).exclude(kind=RuleChange.REMOVED)
    if up_to is not None:
        changes = changes.filter(revision__number__lte=up_to)
        return dict(changes.values("anchor").annotate(last=Max("revision__number")).values_list("anchor", "last"))
    key = _latest_changes_key(page)
    latest = cache.get(key)
    if latest is None:
        latest = dict(changes.values("anchor").annotate(last=Max("revision__number")).values_list("anchor", "last"))
        cache.set(key, latest, BLAME_CACHE_SECONDS)
    return latest


def _latest_changes_key(page: Page) -> str:
    return f"rule-blame:{BLAME_VERSION}:{page.pk}:{page.current_id}"


def forget_latest_changes(page: Page) -> None:
    """Drop what ``_latest_changes`` keeps for the page: past revisions have just had their changes recorded
    (``index_rule_changes`` after an archive loaded without them), so the newest revision no longer tells."""
    cache.delete(_latest_changes_key(page))


def fill_blame(html: str, blame: dict[str, Blame] | None) -> str:
    """The rendered Ruleset with each rule's blame marker replaced by its line (or removed)."""
    if blame is None:
        return BLAME_MARKER.sub("", html)

    def line(match: re.Match[str]) -> str:
        found = blame.get(match["anchor"])
        return found.as_html() if found else ""

    return BLAME_MARKER.sub(line, html)


# --- one rule's history ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Lifetime:
    """One stretch of a rule's life under one anchor: revisions ``first`` to ``last`` (None: to now)."""

    anchor: str
    first: int
    last: int | None


def rule_lifetimes(page: Page, anchor: str) -> list[Lifetime]:
    """The anchors a rule has had, newest first, following ``previous_anchor`` back to where it began.

    One query: every recorded addition of the page (anchor, previous anchor, revision number); additions
    are as many as rules ever added, far fewer than revisions times rules.
    """
    additions: dict[str, list[tuple[int, str]]] = {}
    rows = RuleChange.objects.filter(page=page, kind=RuleChange.ADDED).values_list(
        "anchor", "previous_anchor", "revision__number"
    )
    for added_anchor, previous, number in rows:
        additions.setdefault(added_anchor, []).append((number, previous))
    lifetimes: list[Lifetime] = []
    last: int | None = None
    seen: set[tuple[str, int]] = set()
    while True:
        starts = [
            (number, previous) for number, previous in additions.get(anchor, []) if last is None or number <= last
        ]
        if not starts:
            lifetimes.append(Lifetime(anchor=anchor, first=0, last=last))
            return lifetimes
        first, previous = max(starts)
        lifetimes.append(Lifetime(anchor=anchor, first=first, last=last))
        if not previous or (previous, first) in seen:
            return lifetimes
        seen.add((previous, first))
        anchor, last = previous, first - 1


def _in_lifetime(lifetime: Lifetime) -> Q:
    condition = Q(anchor=lifetime.anchor, revision__number__gte=lifetime.first)
    if lifetime.last is not None:
        condition &= Q(revision__number__lte=lifetime.last)
    return condition


@dataclass(frozen=True)
class LineageRow:
    """One change of the rule, with its cause; a rename says the title it had before."""

    change: RuleChange
    post: Post | None
    former_title: str

    @property
    def revision(self) -> Revision:
        return self.change.revision

    @property
    def label(self) -> str:
        return "Renamed" if self.former_title else self.change.get_kind_display()

    @property
    def css_kind(self) -> str:
        return "renamed" if self.former_title else self.change.kind


@dataclass(frozen=True)
class RuleLineage:
    anchor: str
    latest: RuleChange | None
    blame: Blame | None
    former_anchors: list[str]
    changes: NumberedPage
    unindexed: int
    renamed_to: str = ""


def rule_lineage(
    page: Page, anchor: str, page_number: str | None, per_page: int = RULE_HISTORY_PER_PAGE
) -> RuleLineage:
    """Every revision that added, changed, renamed or removed one rule, newest first, across its anchors.

    A fixed number of queries whatever the history's length: the additions (to follow renames), the
    count, one page of changes with their revisions and posts, the rule's latest change and the unindexed
    count; and only when needed the titles before the renames shown, the posts summaries cite, and for a
    rule that left ``anchor`` by a rename the anchor it went to (``renamed_to``).
    """
    lifetimes = rule_lifetimes(page, anchor)
    condition = Q()
    for lifetime in lifetimes:
        condition |= _in_lifetime(lifetime)
    changes = RuleChange.objects.filter(page=page).filter(condition)
    # Each earlier lifetime ends the revision before the rename, so the old anchor's removal in the
    # rename's own revision (the rename, not a repeal) is left out.
    renamed_at = {lifetime.first: lifetimes[i + 1].anchor for i, lifetime in enumerate(lifetimes[:-1])}
    total = changes.count()
    num_pages = max(1, math.ceil(total / per_page))
    number = page_number_within(page_number, num_pages)
    rows = _changes_on_page(changes, number=number, per_page=per_page)
    former_titles = _titles_before_renames(page, renamed_at, rows)
    causes = _causes([row.revision for row in rows])
    latest = (
        changes.select_related("revision")
        .only("anchor", "kind", "number", "title", "revision__number")
        .order_by("-revision__number")
        .first()
    )
    lineage_rows = [
        LineageRow(
            change=row,
            post=causes.get(row.revision.number),
            former_title=former_titles.get(row.revision.number, "")
            if row.kind == RuleChange.ADDED and row.previous_anchor
            else "",
        )
        for row in rows
    ]
    first = lineage_rows[0] if number == 1 and lineage_rows else None
    blame = None
    if first is not None and first.change.kind != RuleChange.REMOVED:
        blame = Blame(revision=first.revision, post=first.post, page_url=page.get_absolute_url())
    return RuleLineage(
        anchor=anchor,
        renamed_to=_renamed_to(page, anchor, latest),
        latest=latest,
        blame=blame,
        former_anchors=[lifetime.anchor for lifetime in lifetimes[1:]],
        changes=NumberedPage(rows=lineage_rows, number=number, num_pages=num_pages),
        unindexed=page.revisions.filter(rules_indexed=False).count(),
    )


def _changes_on_page(changes, *, number: int, per_page: int) -> list[RuleChange]:
    """Page ``number`` of ``changes``, newest first, with what the history shows of their revisions."""
    return list(
        changes.select_related("revision", "revision__author", "revision__post")
        .only(
            "anchor",
            "kind",
            "number",
            "title",
            "previous_anchor",
            "revision__id",
            "revision__number",
            "revision__at",
            "revision__summary",
            "revision__author__username",
            "revision__post__slug",
            "revision__post__title",
            "revision__post__kind",
        )
        .order_by("-revision__number")[(number - 1) * per_page : number * per_page]
    )


def _renamed_to(page: Page, anchor: str, latest: RuleChange | None) -> str:
    """A rule that left this anchor by a rename lives on under the new one: which, or ""."""
    if latest is None or latest.kind != RuleChange.REMOVED:
        return ""
    return (
        RuleChange.objects.filter(
            page=page, kind=RuleChange.ADDED, previous_anchor=anchor, revision__number=latest.revision.number
        )
        .values_list("anchor", flat=True)
        .first()
        or ""
    )


def _titles_before_renames(page: Page, renamed_at: dict[int, str], rows: list[RuleChange]) -> dict[int, str]:
    """For the renames among ``rows``: revision number → the title the rule had before."""
    wanted = {row.revision.number for row in rows if row.previous_anchor and row.revision.number in renamed_at}
    if not wanted:
        return {}
    condition = Q()
    for number in wanted:
        condition |= Q(anchor=renamed_at[number], revision__number=number)
    return dict(
        RuleChange.objects.filter(page=page, kind=RuleChange.REMOVED)
        .filter(condition)
        .values_list("revision__number", "title")
    )
