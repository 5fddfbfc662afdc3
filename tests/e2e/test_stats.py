"""A visitor opens the statistics of an imported slice of the real history in Chromium: every chart loads."""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from playwright.sync_api import expect

from blognomic.community.stats.plots import CHARTS
from blognomic.moving.history.loading import DEFAULT_DIRECTORY

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not (Path(settings.BASE_DIR) / DEFAULT_DIRECTORY / "fullprophistory.csv").is_file(),
        reason="the real history's figures live beside the project",
    ),
]


def test_the_statistics_page_shows_every_chart_of_an_imported_history(browser, live_server, screenshot):
    call_command("import_history", "--dynasties", "3", stdout=io.StringIO())
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(live_server.url + "/")
    page.click("nav.site-nav >> text=Statistics")
    expect(page.locator("h1")).to_have_text("Statistics")
    images = page.locator(".stats-figure img")
    expect(images).to_have_count(len(CHARTS))
    page.wait_for_function(
        "() => [...document.querySelectorAll('.stats-figure img')].every(img => img.complete && img.naturalWidth > 0)"
    )
    widths = images.evaluate_all("imgs => imgs.map(img => img.naturalWidth)")
    assert widths == [chart.width for chart in CHARTS.values()]
    expect(page.locator(".stats-summary")).to_contain_text("253 proposals")
    with (Path(settings.BASE_DIR) / DEFAULT_DIRECTORY / "fullprophistory.csv").open(encoding="utf-8") as handle:
        proposers = Counter(row["proposer"] for row in csv.DictReader(handle) if int(row["dynasty"]) >= 230)
    expect(page.locator("table.stats-players tbody tr").first).to_contain_text(proposers.most_common(1)[0][0])
    screenshot(page, "stats.png", full_page=True)
