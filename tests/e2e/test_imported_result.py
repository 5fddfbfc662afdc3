"""In Chromium: an imported resolved matter shows the result recorded where it came from, and no way to vote."""

from __future__ import annotations

import io

import pytest
from playwright.sync_api import expect

from blognomic.moving.wordpress.importing import import_wordpress
from dynasties.models import User
from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD, T0, make_player
from tests.test_imported_past import RECORDED, lanterns_export

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_imported_resolved_matter_shows_its_recorded_result_and_no_vote_button(browser, live_server):
    """The Result section reads 4–1 as recorded, the engine's 3–1 beside it; a logged-in player sees no vote."""
    import_wordpress(lambda: io.BytesIO(lanterns_export()), at=T0)
    lanterns = User.objects.get(username="Ilse").posts.get()
    resolution = lanterns.resolutions.get()
    resolution.tally = {**resolution.tally, "recorded": RECORDED}
    resolution.save()
    make_player("Warden", joined_at=T0, admin=True)

    page = browser.new_page(viewport={"width": 1200, "height": 900})
    log_in(page, live_server.url, "Warden", PASSWORD, lanterns.get_absolute_url())

    result = page.locator("section.recorded-result")
    expect(result.locator("h2")).to_have_text("Result")
    expect(result.locator(".recorded-outcome")).to_contain_text("Enacted 4–1")
    expect(result.locator(".engine-count")).to_contain_text("3–1")
    expect(page.locator("button.vote")).to_have_count(0)
    expect(page.locator("form.comment-form")).to_have_count(0)
    expect(page.locator(".closed")).to_contain_text("resolved on the site it was imported from")
