"""Finding posts, comments, wiki pages and GNDT comments that contain every term of a search.

On PostgreSQL the matching uses its full-text search (stemmed, so "lighthouses" finds "lighthouse"; whole
words only, and words as common as "the" match nothing), which indexes serve for posts and comments; on
SQLite every term must occur in the text. Either way each kind of result costs one query, and anonymous
posts never answer a search by author.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.db.models import DateTimeField, ExpressionWrapper, F, Q, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.urls import reverse

from blognomic.community.search.text import snippet
from gndt.models import CellChange, Update
from ruleset.models import Page
from votes.models import Comment, Post

SEARCH_CONFIG = "english"  # the text search configuration the indexes were built with
KINDS = {"posts": "Posts", "comments": "Comments", "wiki": "Wiki pages", "gndt": "GNDT comments"}


@dataclass(frozen=True)
class Filters:
    author: str = ""
    dynasty: int | None = None
    since: datetime | None = None
    until: datetime | None = None
    viewer: object = None  # who is searching: GNDT comments on secret columns are only for those who see them


@dataclass
class Hit:
    title: str
    url: str
    snippet: str
    author: str
    at: datetime | None


def _search_query(terms: list[str]):
    """PostgreSQL's full-text query for every term (a phrase for a term with spaces)."""
    # Only PostgreSQL has full-text search (and the psycopg that django.contrib.postgres needs).
    from django.contrib.postgres.search import SearchQuery

    query = None
    for term in terms:
        part = SearchQuery(term, search_type="phrase" if " " in term else "plain", config=SEARCH_CONFIG)
        query = part if query is None else query & part
    return query


def _search_vector(fields: list[str]):
    from django.contrib.postgres.search import SearchVector

    # The very expression the GIN indexes are built over (votes migration 0007_search_indexes).
    return SearchVector(*fields, config=SEARCH_CONFIG)


def _matching(queryset: QuerySet, fields: list[str], terms: list[str]) -> QuerySet:
    if connection.vendor == "postgresql":
        # Full-text matching alone (no substring fallback OR-ed in), so that the GIN indexes serve it.
        matches = queryset.model._default_manager.alias(search=_search_vector(fields))
        matches = matches.filter(search=_search_query(terms)).values("pk")
        sql, params = matches.query.sql_with_params()
        # OFFSET 0 keeps the matching a query of its own, planned apart from the filters and the ordering
        # around it, so that it is answered by the index alone (see ``matches_through_the_index``).
        return queryset.filter(pk__in=RawSQL(f"{sql} OFFSET 0", params))
    return queryset.filter(_contains_all(fields, terms))


def _newest_matching(
    queryset: QuerySet,
    fields: list[str],
    terms: list[str],
    field: str,
    *,
    related: tuple[str, ...],
    offset: int,
    limit: int,
) -> QuerySet:
    """One page of the matches in ``queryset``, newest first, their rows read in one query.

    On PostgreSQL the page's ids are found first, in a subquery that reads only the matches' dates, and only
    those rows are joined and read: for a word in most posts, joining every match and sorting them all to keep
    twenty took several times as long over the ten-times archive (benchmarks/RESULTS.md, "Search at 10×")."""
    if connection.vendor != "postgresql":
        matches = queryset.filter(_contains_all(fields, terms)).select_related(*related)
        return matches.order_by(f"-{field}", "-pk")[offset : offset + limit]
    page = _newest_first(queryset.alias(search=_search_vector(fields)).filter(search=_search_query(terms)), field)
    ids = page.values("pk")[offset : offset + limit]
    rows = queryset.model._default_manager.select_related(*related)
    return rows.filter(pk__in=ids).order_by(f"-{field}", "-pk")


def _newest_first(queryset: QuerySet, field: str) -> QuerySet:
    """Matches newest first, ordered by an expression no index holds, so that PostgreSQL finds them through the
    full-text index and sorts them (see ``matches_through_the_index``)."""
    unindexed = ExpressionWrapper(F(field) + Value(timedelta(0)), output_field=DateTimeField())
    return queryset.order_by(unindexed.desc(), "-pk")


@contextmanager
def matches_through_the_index() -> Iterator[None]:
    """While a search reads its results, PostgreSQL finds matching posts and comments through their full-text
    indexes, at a cost that follows the number of matches.

    Left to itself it guesses. Ordered by date, it walks the date index from the newest row, working out each
    row's words until enough match: for a word last used years ago that reads the whole archive. For a word
    in most posts it reads every row and works out its words rather than use the index, because it prices the
    index as if each match's words were worked out again (both measured over the real history:
    benchmarks/RESULTS.md, "Search: matching through the index"). So the search
    orders by an expression no index holds (``_newest_first``) and, for its own queries only, rules out
    reading whole tables where an index can answer.
    """
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        yield
        # The setting would otherwise last until an enclosing transaction ends.
        cursor.execute("RESET enable_seqscan")


def _contains_all(fields: list[str], terms: list[str]) -> Q:
    condition = Q()
    for term in terms:
        condition &= _any_contains(fields, term)
    return condition


def _any_contains(fields: list[str], term: str) -> Q:
    condition = Q()
    for field in fields:
        condition |= Q(**{f"{field}__icontains": term})
    return condition


def _dated(queryset: QuerySet, field: str, filters: Filters) -> QuerySet:
    if filters.since:
        queryset = queryset.filter(**{f"{field}__gte": filters.since})
    if filters.until:
        queryset = queryset.filter(**{f"{field}__lte": filters.until})
    return queryset


def search_posts(terms: list[str], filters: Filters, *, offset: int, limit: int) -> list[Hit]:
    posts = _dated(Post.objects.shown(), "posted_at", filters)
    if filters.author:
        posts = posts.filter(author__username=filters.author, anonymous=False)
    if filters.dynasty is not None:
        posts = posts.filter(dynasty__number=filters.dynasty)
    posts = _newest_matching(
        posts, ["title", "body"], terms, "posted_at", related=("author",), offset=offset, limit=limit
    )
    return [
        Hit(
            title=p.title,
            url=p.get_absolute_url(),
            snippet=snippet(f"{p.title} — {p.body}", terms),
            author="" if p.anonymous else p.author.username,
            at=p.posted_at,
        )
        for p in posts
    ]


def search_comments(terms: list[str], filters: Filters, *, offset: int, limit: int) -> list[Hit]:
    comments = _dated(Comment.objects.shown(), "at", filters)
    if filters.author:
        comments = comments.filter(author__username=filters.author)
    if filters.dynasty is not None:
        comments = comments.filter(post__dynasty__number=filters.dynasty)
    comments = _newest_matching(comments, ["text"], terms, "at", related=("author", "post"), offset=offset, limit=limit)
    return [
        Hit(
            title=f"On “{c.post.title}”",
            url=f"{c.post.get_absolute_url()}#comment-{c.pk}",
            snippet=snippet(c.text, terms),
            author=c.author.username,
            at=c.at,
        )
        for c in comments
    ]


def search_wiki(terms: list[str], filters: Filters, *, offset: int, limit: int) -> list[Hit]:
    pages = Page.objects.filter(current__isnull=False).select_related("current", "current__author")
    if filters.author:
        pages = pages.filter(current__author__username=filters.author)
    pages = _dated(pages, "current__at", filters)
    pages = _matching(pages, ["title", "current__text"], terms).order_by("title")[offset : offset + limit]
    return [
        Hit(
            title=p.title,
            url=p.get_absolute_url(),
            snippet=snippet(p.current.text, terms),
            author=p.current.author.username if p.current.author else "",
            at=p.current.at,
        )
        for p in pages
    ]


def search_gndt(terms: list[str], filters: Filters, *, offset: int, limit: int) -> list[Hit]:
    updates = _dated(Update.objects.select_related("by", "dynasty").exclude(comment=""), "at", filters)
    viewer = filters.viewer
    if not (viewer is not None and viewer.is_authenticated and viewer.is_admin):
        # Changing a secret value the viewer may not see (a player sees their own value in an owner-visible
        # column), or about a secret column (an admin's change to it, an effect on it) without changing
        # anything of the viewer's own in it.
        unseen = CellChange.objects.filter(column__hidden=True)
        own = CellChange.objects.none()
        if viewer is not None and viewer.is_authenticated:
            unseen = unseen.exclude(column__owner_visible=True, row__user_id=viewer.pk)
            own = CellChange.objects.filter(column__hidden=True, column__owner_visible=True, row__user_id=viewer.pk)
        secret = Update.objects.filter(
            Q(pk__in=unseen.values("update")) | Q(column__hidden=True) & ~Q(pk__in=own.values("update"))
        )
        if viewer is not None and viewer.is_authenticated:
            secret = secret.exclude(dynasty__emperor=viewer)
        updates = updates.exclude(pk__in=secret.values("pk"))
    if filters.author:
        updates = updates.filter(by__username=filters.author)
    if filters.dynasty is not None:
        updates = updates.filter(dynasty__number=filters.dynasty)
    updates = _matching(updates, ["comment"], terms).order_by("-at", "-pk")[offset : offset + limit]
    return [
        Hit(
            title=f"GNDT update #{u.pk}",
            url=reverse("gndt_update", args=[u.pk]),
            snippet=snippet(u.comment, terms),
            author=u.by.username if u.by else "the system",
            at=u.at,
        )
        for u in updates
    ]


SEARCHES = {"posts": search_posts, "comments": search_comments, "wiki": search_wiki, "gndt": search_gndt}
