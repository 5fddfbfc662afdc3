"""Cross-site scripting payloads, stored: every one in every field a player can write is kept as written, and
every page that shows them answers. Whether any runs as script is the browser's test
(``tests/e2e/test_hostile_input.py``), run on SQLite alone; this runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.test import Client
from django.utils import timezone

from ruleset.models import Page
from tests.factories import PASSWORD
from tests.hostile_game import ALL_TEXT, PAYLOADS, VISITOR_PAGES, addresses, fill_every_field
from votes.models import Post

pytestmark = pytest.mark.django_db


def logged_in(name: str) -> Client:
    client = Client()
    assert client.login(username=name, password=PASSWORD)
    return client


def test_every_payload_is_kept_as_written_and_every_page_showing_one_answers():
    """Every payload in every field, stored through the services on this database, is read back as it was
    written, and every page that shows them answers an admin and a visitor without a server error. Whether
    any of them runs as script in those pages is the browser's test, run on SQLite alone."""
    admin = fill_every_field(timezone.now())
    proposal = Post.objects.get(kind="proposal")
    assert proposal.body == ALL_TEXT
    assert list(proposal.comments.order_by("pk").values_list("text", flat=True)) == PAYLOADS
    assert Page.objects.get(slug="ruleset").current.text.endswith(ALL_TEXT)
    for client, urls in ((logged_in(admin.username), addresses()), (Client(), VISITOR_PAGES)):
        for url in urls:
            response = client.get(quote(url, safe="/:?=&"))
            assert response.status_code < 500, f"{url}: {response.status_code}"
