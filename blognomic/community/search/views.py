"""The search page: every kind of text at once, or one kind page by page, with filters."""

from __future__ import annotations

import json
from contextlib import ExitStack

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from blognomic.community.search.selectors import KINDS, SEARCHES, Filters, Hit, matches_through_the_index
from blognomic.community.search.text import QueryError, parse_query
from blognomic.web.page_cache import kept_for_version
from dynasties.clock import NotATime, parse_iso_time

PER_KIND = 5
PER_PAGE = 20
MAX_PAGE = 500
BAD_KIND = "“{kind}” is not something to search; choose posts, comments, wiki or gndt."
BAD_DATE = "“{value}” is not a date such as 2016-07-25."
BAD_DYNASTY = "“{value}” is not a dynasty number."
BAD_PAGE = "“{value}” is not a page number."


def _date(value: str, *, end: bool) -> object:
    value = value.strip()
    if not value:
        return None
    text = f"{value}T23:59:59Z" if end and len(value) == 10 else (f"{value}T00:00:00Z" if len(value) == 10 else value)
    try:
        return parse_iso_time(text)
    except NotATime:
        raise QueryError(BAD_DATE.format(value=value[:40])) from None


def _number(value: str, message: str, *, limit: int) -> int | None:
    value = value.strip()
    if not value:
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 6 or not 0 < int(value) <= limit:
        raise QueryError(message.format(value=value[:40]))
    return int(value)


def search(request: HttpRequest) -> HttpResponse:
    params = request.GET
    raw = params.get("q", "")
    context = {
        "q": raw,
        "kinds": KINDS,
        "kind": params.get("kind", ""),
        "author": params.get("author", ""),
        "dynasty": params.get("dynasty", ""),
        "since": params.get("since", ""),
        "until": params.get("until", ""),
        "sections": [],
        "error": "",
    }
    if "q" not in params:
        return render(request, "search/search.html", context)
    try:
        terms = parse_query(raw)
        kind = context["kind"]
        if kind and kind not in KINDS:
            raise QueryError(BAD_KIND.format(kind=kind[:40]))
        filters = Filters(
            author=context["author"].strip()[:150],
            dynasty=_number(context["dynasty"], BAD_DYNASTY, limit=100_000),
            since=_date(context["since"], end=False),
            until=_date(context["until"], end=True),
            viewer=request.user,
        )
        page = _number(params.get("page", ""), BAD_PAGE, limit=MAX_PAGE) or 1
    except QueryError as error:
        context["error"] = str(error)
        return render(request, "search/search.html", context, status=400)
    with _PageSearch(request, terms, filters) as search_for:
        if kind:
            found = search_for(kind, offset=(page - 1) * PER_PAGE, limit=PER_PAGE + 1)
            context["sections"] = [(kind, KINDS[kind], found[:PER_PAGE], len(found) > PER_PAGE)]
            context["page"], context["next_page"] = page, page + 1 if len(found) > PER_PAGE else None
        else:
            for name, label in KINDS.items():
                found = search_for(name, offset=0, limit=PER_KIND + 1)
                context["sections"].append((name, label, found[:PER_KIND], len(found) > PER_KIND))
    context["terms"] = terms
    return render(request, "search/search.html", context)


class _PageSearch:
    """The searches of one page, each kind's hits kept per content version (``kept_for_version``): a search
    for a word in most posts costs its number of matches (see ``matches_through_the_index``). The GNDT's
    hits are not kept, since they depend on who reads. The database is set up for reading matches once,
    before the first search that runs."""

    def __init__(self, request: HttpRequest, terms: list[str], filters: Filters) -> None:
        self.request, self.terms, self.filters = request, terms, filters
        self._reading = ExitStack()
        self._index_set = False

    def __enter__(self) -> _PageSearch:
        return self

    def __exit__(self, *exc_info) -> bool | None:
        return self._reading.__exit__(*exc_info)

    def __call__(self, name: str, *, offset: int, limit: int) -> list[Hit]:
        if name == "gndt":
            return self._run(name, offset, limit)
        question = json.dumps(
            [
                name,
                self.terms,
                self.filters.author,
                self.filters.dynasty,
                str(self.filters.since),
                str(self.filters.until),
                offset,
                limit,
            ]
        )
        return kept_for_version(self.request, "search-hits", question, lambda: self._run(name, offset, limit))

    def _run(self, name: str, offset: int, limit: int) -> list[Hit]:
        if not self._index_set:
            self._reading.enter_context(matches_through_the_index())
            self._index_set = True
        return SEARCHES[name](self.terms, self.filters, offset=offset, limit=limit)
