"""Every wiki page uses a fixed number of SQL queries, whether a page has 10 revisions or 5,000, and
listings never load revision text."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ruleset.models import Page, Revision, RuleChange
from tests.factories import T0, make_table

pytestmark = pytest.mark.django_db

SMALL, LARGE = 10, 5000


def ruleset_text(n: int) -> str:
    """A small ruleset whose Storms rule changes in every revision."""
    return (
        "== Core Rules ==\n=== Basics ===\nPlay nicely. See Rule 2.1.\n"
        f"== Dynastic Rules ==\n=== Storms ===\nStorms strike {n} times.\n"
        "== Appendix ==\n=== Keywords ===\n; Quorum\n: Half the players plus one.\n"
    )


def page_with_revisions(slug: str, count: int, author, start) -> Page:
    """A ruleset page with ``count`` revisions written in bulk, each indexed as changing the Storms rule."""
    page = Page.objects.create(title=slug.title(), slug=slug, kind=Page.RULESET, created_at=start)
    revisions = []
    for number in range(1, count + 1):
        text = ruleset_text(number)
        revisions.append(
            Revision(
                page=page,
                number=number,
                author=author,
                at=start + timedelta(minutes=number),
                summary=f"Edit {number}",
                text=text,
                size=len(text),
                rules_indexed=True,
            )
        )
    Revision.objects.bulk_create(revisions, batch_size=1000)
    saved = list(page.revisions.order_by("number").only("id", "number"))
    RuleChange.objects.bulk_create(
        (
            RuleChange(page=page, revision=revision, anchor="rule-storms", kind="changed", number="2.1", title="Storms")
            for revision in saved
        ),
        batch_size=1000,
    )
    page.current = saved[-1]
    page.save(update_fields=["current"])
    return page


def urls(slug: str, count: int) -> dict[str, str]:
    middle = count // 2
    return {
        "page": f"/wiki/{slug}/",
        "history, newest": f"/wiki/{slug}/history/",
        "history, oldest": f"/wiki/{slug}/history/?page=1000",
        "revision 1": f"/wiki/{slug}/r/1/",
        "revision in the middle": f"/wiki/{slug}/r/{middle}/",
        "latest revision": f"/wiki/{slug}/r/{count}/",
        "diff with latest": f"/wiki/{slug}/diff/1/latest/",
        "diff with previous": f"/wiki/{slug}/diff/prev/{middle}/",
        "as of a moment": f"/wiki/{slug}/as-of/?at=2016-07-25T13:00",
        "rule history": f"/wiki/{slug}/rule/rule-storms/history/",
        "rule history, last page": f"/wiki/{slug}/rule/rule-storms/history/?page=1000",
        "index": "/wiki/",
    }


def count_queries(client, url: str) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(context.captured_queries), [query["sql"] for query in context.captured_queries]


def build_pages() -> dict[int, Page]:
    """Two ruleset pages, "small" with 10 revisions and "large" with 5,000."""
    players = make_table(3, start=T0)
    return {
        SMALL: page_with_revisions("small", SMALL, players[1], T0),
        LARGE: page_with_revisions("large", LARGE, players[1], T0),
    }


@pytest.fixture
def pages(db):
    return build_pages()


def test_every_wiki_view_uses_as_many_queries_for_5000_revisions_as_for_10(client, pages, settings):
    """History, permalinks, diffs, time travel and rule histories do not grow with the history."""
    settings.PAGE_CACHE = False  # the views' own queries: the index is read twice with nothing written between
    small, large = urls("small", SMALL), urls("large", LARGE)
    counts = {name: (count_queries(client, small[name])[0], count_queries(client, large[name])[0]) for name in small}
    assert all(at_10 == at_5000 for at_10, at_5000 in counts.values()), counts
    print("\nqueries at 10 / 5,000 revisions:", {name: pair[0] for name, pair in counts.items()})


# What each view costs beyond the shared layout (the sidebar's game state), pinned so a change shows.
WIKI_QUERIES = {
    "page": 4,  # the page with its current revision's number; that revision with its text; the blame:
    # every rule's latest change, and those revisions with their posts
    "history, newest": 3,  # the page; one range of revisions (sizes, no text); the protection log
    "history, oldest": 3,
    "revision 1": 2,  # the page; the revision
    "latest revision": 2,
    "diff with latest": 2,  # the page; both revisions in one query
    "diff with previous": 3,  # and the rules the newer one changed
    "as of a moment": 2,  # the page; the revision current then
    "rule history": 6,  # the page; the additions (to follow renames); count; one page of changes with their
    # revisions and posts; the rule's latest change; unindexed count
    "index": 1,  # every page with its current revision's summary
}


def test_wiki_views_add_a_pinned_number_of_queries_to_the_layout(client, pages, settings):
    """Beyond the layout's own queries, each view makes only the queries listed in ``WIKI_QUERIES``."""
    settings.PAGE_CACHE = False  # the index is read twice with nothing written between
    layout = count_queries(client, "/wiki/")[0] - WIKI_QUERIES["index"]
    large = urls("large", LARGE)
    measured = {name: count_queries(client, large[name])[0] - layout for name in WIKI_QUERIES}
    assert measured == WIKI_QUERIES


def test_history_and_diff_listings_never_load_revision_text(client, pages):
    """The history page selects sizes, not texts: 5,000 big revisions stay cheap to list."""
    _, queries = count_queries(client, "/wiki/large/history/")
    revision_queries = [sql for sql in queries if 'FROM "ruleset_revision"' in sql]
    assert revision_queries and all('"ruleset_revision"."text"' not in sql for sql in revision_queries)
    _, queries = count_queries(client, "/wiki/large/rule/rule-storms/history/")
    assert all('"ruleset_revision"."text"' not in sql for sql in queries)
