"""``/stats/``: the statistics page and its images, each image at its own URL and cached by the game's version."""

from __future__ import annotations

from functools import partial

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import render
from django.utils import timezone

from blognomic.community.stats.plots import CHARTS, render_png
from blognomic.community.stats.selectors import CACHE_SECONDS, ShownStatistics, shown_statistics, stats_version
from blognomic.community.stats.tasks import count_statistics
from blognomic.web.page_cache import kept_for_version

NO_SUCH_CHART = "There is no chart named “{name}”; the statistics page links to every chart."
# An image URL carries the version it was drawn for (?v=…), so a browser may keep it: a new post, vote or
# resolution changes the version and so the URL the page asks for.
IMMUTABLE = "public, max-age=86400, immutable"
# Part of each image's cache key: raise it when the drawing code changes, so a deployment redraws.
DRAWING = 1


# The statistics page shows the head of each table and links to the whole of it, a page at a time: after
# twenty years they hold hundreds of players and dynasties, which every reading of the page would carry.
HEAD_ROWS = 20
ROWS_PER_PAGE = 100
TABLES = {"players": "Players", "dynasties": "Every dynasty, newest first", "winners": "Winners"}


def _table_rows(stats, table: str) -> list:
    if table == "players":
        return list(stats.players)
    if table == "dynasties":
        return list(stats.dynasties[::-1])
    return stats.wins


def _shown(request: HttpRequest) -> ShownStatistics:
    now = timezone.now()
    # Counting every post for the version reads the whole index (tens of milliseconds at ten times the history);
    # every post, comment and resolution moves the content version, so each reader's page missing the cache
    # after a change asks once between them. The day is part of the question, as it is of the version.
    version = kept_for_version(request, "stats-version", f"{now:%Y-%m-%d}", partial(stats_version, now))
    return shown_statistics(now, queue_count=count_statistics.delay, version=version)


def stats_page(request: HttpRequest) -> HttpResponse:
    shown = _shown(request)
    stats = shown.stats
    heads = {table: _table_rows(stats, table) for table in TABLES}
    return render(
        request,
        "stats/stats.html",
        {
            "stats": stats,
            "current": shown.current,
            "charts": {slug.replace("-", "_"): chart for slug, chart in CHARTS.items()},
            "heads": {table: rows[:HEAD_ROWS] for table, rows in heads.items()},
            "totals": {table: len(rows) for table, rows in heads.items()},
        },
    )


def stats_table(request: HttpRequest, table: str) -> HttpResponse:
    """One of the statistics page's tables whole, a hundred rows a page (``?page=``: a number past the last
    shows the last, anything else the first)."""
    if table not in TABLES:
        raise Http404(f"There is no statistics table named “{table}”; the statistics page links to each one.")
    shown = _shown(request)
    stats = shown.stats
    page = Paginator(_table_rows(stats, table), ROWS_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "stats/table.html",
        {
            "stats": stats,
            "current": shown.current,
            "table": table,
            "title": TABLES[table],
            "page": page,
            "rows": page.object_list,
        },
    )


def stats_chart(request: HttpRequest, name: str) -> HttpResponse:
    chart = CHARTS.get(name)
    if chart is None:
        return HttpResponseNotFound(NO_SUCH_CHART.format(name=name), content_type="text/plain; charset=utf-8")
    stats = _shown(request).stats  # the figures the page shows, which name their version in the image's address
    version = stats.version
    key = f"stats:png:{DRAWING}:{version}:{chart.slug}"
    png = cache.get(key)
    if png is None:
        png = render_png(chart, stats)
        cache.set(key, png, CACHE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = IMMUTABLE if request.GET.get("v") == version else "no-cache"
    return response
