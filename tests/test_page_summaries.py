"""What a search engine and a reader's outline want of every page, as Lighthouse audits it: a description
in ``<meta name="description">`` and one top-level heading."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.test import Client
from django.utils import timezone

from blognomic.moving.demo import build_demo
from dynasties.models import User
from tests.main_pages import ACCOUNTS, ROLES, pages_for

pytestmark = pytest.mark.django_db


class _Outline(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.descriptions: list[str] = []
        self.h1s = 0

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if tag == "meta" and attrs.get("name") == "description":
            self.descriptions.append((attrs.get("content") or "").strip())
        elif tag == "h1":
            self.h1s += 1


def outlines() -> dict[str, _Outline]:
    build_demo(now=timezone.now())
    found = {}
    for role in ROLES:
        client = Client()
        if ACCOUNTS[role]:
            client.force_login(User.objects.get(username=ACCOUNTS[role]))
        for page in pages_for(role):
            outline = _Outline()
            outline.feed(client.get(page.path).content.decode())
            found[f"{page.name} ({role})"] = outline
    return found


def test_every_page_has_a_description_and_one_top_heading():
    """Lighthouse: "Document does not have a meta description"; the front page had no <h1>."""
    found = outlines()
    no_description = [name for name, o in found.items() if len(o.descriptions) != 1 or not o.descriptions[0]]
    not_one_h1 = [f"{name}: {o.h1s}" for name, o in found.items() if o.h1s != 1]
    assert not no_description, f"{len(no_description)} of {len(found)} pages have no description: {no_description}"
    assert not not_one_h1, f"{len(not_one_h1)} of {len(found)} pages have not exactly one <h1>: {not_one_h1}"
