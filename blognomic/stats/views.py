"""``/stats/``: the statistics page and its images, each image at its own URL and cached by the game's version."""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from django.shortcuts import render
from django.utils import timezone

from blognomic.stats.plots import CHARTS, render_png
from blognomic.stats.selectors import CACHE_SECONDS, cached_statistics, stats_version

NO_SUCH_CHART = "There is no chart named “{name}”; the statistics page links to every chart."
# An image URL carries the version it was drawn for (?v=…), so a browser may keep it: a new post, vote or
# resolution changes the version and so the URL the page asks for.
IMMUTABLE = "public, max-age=86400, immutable"
# Part of each image's cache key: raise it when the drawing code changes, so a deployment redraws.
DRAWING = 1


def stats_page(request: HttpRequest) -> HttpResponse:
    stats = cached_statistics(timezone.now())
    return render(request, "stats/stats.html", {
        "stats": stats, "charts": {slug.replace("-", "_"): chart for slug, chart in CHARTS.items()},
        "dynasties_newest_first": stats.dynasties[::-1],
    })


def stats_chart(request: HttpRequest, name: str) -> HttpResponse:
    chart = CHARTS.get(name)
    if chart is None:
        return HttpResponseNotFound(NO_SUCH_CHART.format(name=name), content_type="text/plain; charset=utf-8")
    now = timezone.now()
    version = stats_version(now)
    key = f"stats:png:{DRAWING}:{version}:{chart.slug}"
    png = cache.get(key)
    if png is None:
        png = render_png(chart, cached_statistics(now, version=version))
        cache.set(key, png, CACHE_SECONDS)
    response = HttpResponse(png, content_type="image/png")
    response["Cache-Control"] = IMMUTABLE if request.GET.get("v") == version else "no-cache"
    return response
