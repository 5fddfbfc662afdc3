"""In Chromium: a wiki imported from a MediaWiki export shows the Ruleset with its history and each rule's last
change, and a gamestate page's wikitable and templates drawn."""

from __future__ import annotations

import os

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from ruleset.models import Page
from tests.mediawiki.exports import blognomic_wiki

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_imported_wiki_reads_with_its_history_blame_tables_and_templates(browser, live_server, screenshot, tmp_path):
    """Moving in, item 8: "open the Ruleset with its history and blame, a gamestate page with a wikitable and
    templates"."""
    export = tmp_path / "wiki.xml"
    export.write_bytes(blognomic_wiki(newer=True))
    call_command("import_mediawiki", str(export), stdout=open(os.devnull, "w"))  # noqa: SIM115
    page = browser.new_page(viewport={"width": 1200, "height": 900})

    page.goto(live_server.url + "/wiki/ruleset/")
    # Level-one sections of the wiki are the Ruleset's sections; the rules under them are numbered.
    expect(page.locator("h2", has_text="Dynastic Rules")).to_be_visible()
    expect(page.locator("h3", has_text="Lamps")).to_be_visible()
    expect(page.locator("h3", has_text="Fog")).to_be_visible()
    # {{box|Lamp Meter|yellow}} is drawn, not shown as its markup; no inline style survives the wrapper.
    expect(page.get_by_text("Lamp Meter")).to_be_visible()
    assert "{{box" not in page.content() and 'style="padding' not in page.content()
    # Each rule's last change: the Fog rule came with the newest imported revision, by its author.
    fog = page.locator("section, div").filter(has=page.locator("h3", has_text="Fog")).last
    expect(fog).to_contain_text("Bucky")
    screenshot(page, "mediawiki-imported-ruleset.png", full_page=True)

    page.goto(live_server.url + "/wiki/ruleset/history/")
    expect(page.locator("table tbody tr")).to_have_count(Page.objects.get(slug="ruleset").revisions.count())
    expect(page.get_by_text("Start of the dynasty")).to_be_visible()

    # The history page's first revision holds its wikitable (a later anonymous edit replaced it): its permalink.
    history = Page.objects.get(title="Dynasty History")
    first = history.revisions.order_by("number").first()
    page.goto(live_server.url + first.get_absolute_url())
    table = page.locator("table.wiki-wikitable")
    expect(table).to_be_visible()
    expect(table.locator("th")).to_have_count(2)
    expect(table).to_contain_text("Kevan")
    screenshot(page, "mediawiki-imported-table.png", full_page=True)
