"""Hostile input in a real browser: classic cross-site scripting payloads typed into every text field a player
or an admin can fill (``tests/hostile_game.py``), then every page that shows them opened in Chromium. No script
may run (a ``dialog`` listener and a ``window.__xss`` canary watch), and no element may carry an event handler or
a ``javascript:`` address.

Run on SQLite alone (``one_database``): whether a stored payload runs depends on the markup the templates make
of its text, not on the database that kept it. Storing every payload and answering every page that shows them without
a server error is checked on both databases, by ``tests/test_hostile_input.py``.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.utils import timezone

from tests.e2e.test_journeys import log_in
from tests.factories import PASSWORD
from tests.hostile_game import VISITOR_PAGES, addresses, fill_every_field

pytestmark = [pytest.mark.e2e, pytest.mark.one_database, pytest.mark.django_db(transaction=True)]

# What the page may not contain once parsed: any inline handler, or an address that runs script.
DOM_CHECK = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      const value = attr.value.replace(/[\\s\\u0000-\\u001f]/g, '').toLowerCase();
      const handler = attr.name.startsWith('on') || /^(data-)?hx-on/.test(attr.name);
      if (handler || value.startsWith('javascript:') || value.startsWith('data:text/html')) {
        bad.push(el.tagName + ' ' + attr.name + '=' + attr.value.slice(0, 60));
      }
    }
    if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED'].includes(el.tagName) && /__xss|alert/.test(el.outerHTML)) {
      bad.push(el.outerHTML.slice(0, 80));
    }
  }
  return bad;
}"""


def test_no_payload_runs_script_or_breaks_a_page(browser, live_server):
    admin = fill_every_field(timezone.now())
    fired: list[str] = []
    for who in ("visitor", "admin"):
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = context.new_page()

        def on_dialog(dialog, page=page):
            fired.append(f"{page.url}: {dialog.message}")
            dialog.dismiss()

        page.on("dialog", on_dialog)
        if who == "admin":
            log_in(page, live_server.url, admin.username, PASSWORD, "/")
        for url in addresses() if who == "admin" else VISITOR_PAGES:
            response = page.goto(live_server.url + quote(url, safe="/:?=&"), wait_until="domcontentloaded")
            assert response is not None and response.status < 500, f"{url} as {who}: {response and response.status}"
            page.evaluate("() => { for (const el of document.querySelectorAll('details')) el.open = true; }")
            assert page.evaluate("() => window.__xss") is None, f"a payload ran on {url} as {who}"
            assert page.evaluate(DOM_CHECK) == [], f"{url} as {who} holds a live handler or address"
        page.close()
        context.close()
    assert fired == [], f"dialogs opened: {fired}"
