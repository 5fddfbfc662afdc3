"""Reading wiki pages. The Ruleset page is shown structured: numbered rules, a table of contents, anchors."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from ruleset.models import Page
from ruleset.render import render_ruleset_html
from ruleset.structure import parse_ruleset


def wiki_page(request: HttpRequest, slug: str) -> HttpResponse:
    page = get_object_or_404(Page.objects.select_related("current", "current__author"), slug=slug)
    revision = page.current
    html = ""
    if revision is not None and page.kind == Page.RULESET:
        html = render_ruleset_html(parse_ruleset(revision.text))
    return render(request, "ruleset/page.html", {"page": page, "revision": revision, "ruleset_html": html})
