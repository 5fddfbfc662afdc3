"""Edit summaries as MediaWiki shows them: ``/* Gold */ fixed a typo`` reads "→Gold: fixed a typo", the arrow and
section name a link to the section, in the wiki's history pages."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from ruleset.models import Page
from ruleset.services import page_create, revision_add
from ruleset.summaries import SummaryPart, summary_parts


@pytest.mark.parametrize(
    ("summary", "parts"),
    [
        ("plain words", [SummaryPart("plain words")]),
        ("/* Gold */ fixed a typo", [SummaryPart("Gold", "Gold", True), SummaryPart("fixed a typo")]),
        ("/* Gold */", [SummaryPart("Gold", "Gold", False)]),
        ("/* Gold */   ", [SummaryPart("Gold", "Gold", False)]),
        ("tidy /* Maps */", [SummaryPart("tidy "), SummaryPart("Maps", "Maps", False)]),
        ("/**/ nothing named", [SummaryPart("/**/ nothing named")]),
        ("", []),
    ],
)
def test_a_summary_is_cut_into_text_and_sections(summary, parts):
    assert summary_parts(summary) == parts


@pytest.mark.django_db
def test_the_history_page_shows_the_section_arrow_link_and_the_rest(t0):
    page = page_create(
        title="Harbour Notes", kind=Page.ORDINARY, text="{{TOCRight}}\n== Tides ==\nHigh.", now=t0, slug="harbour-notes"
    )
    revision_add(
        page=page,
        author=None,
        text="{{TOCRight}}\n== Tides ==\nLow.",
        summary="/* Tides */ <b>lowered</b>",
        now=t0 + timedelta(hours=1),
    )
    html = Client().get("/wiki/harbour-notes/history/").content.decode()
    link = '<a href="/wiki/harbour-notes/#wiki-tides" title="Harbour Notes">→\u200eTides</a>'
    assert f'<span class="autocomment">{link}: </span>&lt;b&gt;lowered&lt;/b&gt;' in html
    assert 'id="wiki-tides"' in Client().get("/wiki/harbour-notes/").content.decode()
