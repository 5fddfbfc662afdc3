"""Every feed of the site holds what RFC 4287 (the Atom Syndication Format) requires, reads cleanly in a
feed reader's parser, and is announced by the page it follows with ``<link rel="alternate">``."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

import feedparser
import pytest
from defusedxml import ElementTree
from django.test import Client
from django.utils import timezone

from blognomic.moving.demo import build_demo
from dynasties.models import User, new_feed_token
from dynasties.notify import notify
from votes.models import KIND_SLUGS, Kind, Post

pytestmark = pytest.mark.django_db
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def demo():
    now = timezone.now()
    build_demo(now=now)
    cato = User.objects.get(username="Cato")
    cato.notices_feed_token = new_feed_token()
    cato.save(update_fields=["notices_feed_token"])
    notify(users=[cato], key="conformance-1", text="Your proposal was enacted.", url="/posts/x/", now=now, email=False)
    notify(users=[cato], key="conformance-2", text="Gus is idle.", now=now, email=False)
    return cato


def feeds(cato: User) -> dict[str, str]:
    """Each feed's address, by the page (or place) it follows."""
    story = Post.objects.filter(kind=Kind.PROPOSAL).order_by("pk").first()
    found = {
        "/": "/feed/",
        story.get_absolute_url(): f"{story.get_absolute_url()}comments/feed/",
        "/wiki/ruleset/": "/wiki/ruleset/feed/",
        "private notices": f"/notices/feed/{cato.notices_feed_token}/",
    }
    found.update(
        {
            f"/category/{slug}/": f"/category/{slug}/feed/"
            for slug, kind in KIND_SLUGS.items()
            if Post.objects.filter(kind=kind).exists()
        }
    )
    return found


def is_iri(text: str) -> bool:
    """RFC 4287 §4.2.6: atom:id is an IRI, absolute (RFC 3987): a scheme and what follows it."""
    parts = urlsplit(text or "")
    return bool(parts.scheme) and bool(parts.netloc or parts.path) and " " not in text


def rfc4287_problems(xml: bytes) -> list[str]:
    """What the feed lacks of RFC 4287's required elements (§4.1.1, §4.1.2), in words."""
    feed = ElementTree.fromstring(xml)
    problems = []

    def one(element, name: str, where: str) -> str | None:
        found = element.findall(f"{ATOM}{name}")
        if len(found) != 1:
            problems.append(f"{where} has {len(found)} atom:{name}, not exactly one")
            return None
        return found[0].text or ""

    def check_common(element, where: str) -> None:
        identifier = one(element, "id", where)
        if identifier is not None and not is_iri(identifier):
            problems.append(f"{where}'s atom:id {identifier!r} is not an IRI")
        one(element, "title", where)
        one(element, "updated", where)
        alternates = [link for link in element.findall(f"{ATOM}link") if link.get("rel", "alternate") == "alternate"]
        if len(alternates) > 1:
            problems.append(f"{where} has more than one alternate link")
        for summary in element.findall(f"{ATOM}summary"):
            if not (summary.text or "").strip():
                problems.append(f"{where} has an empty atom:summary")

    check_common(feed, "the feed")
    feed_has_author = bool(feed.findall(f"{ATOM}author"))
    for number, entry in enumerate(feed.findall(f"{ATOM}entry"), start=1):
        where = f"entry {number}"
        check_common(entry, where)
        if not feed_has_author and not entry.findall(f"{ATOM}author"):
            problems.append(f"{where} has no atom:author, nor has the feed")
        if entry.find(f"{ATOM}content") is None and not entry.findall(f"{ATOM}link[@rel='alternate']"):
            problems.append(f"{where} has neither atom:content nor an alternate link")
    return problems


class _AlternateLinks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        if tag == "link" and attrs.get("rel") == "alternate" and attrs.get("type") == "application/atom+xml":
            self.hrefs.append(attrs.get("href", ""))


def test_every_feed_holds_what_rfc_4287_requires(demo):
    """RFC 4287 §4.1.1 and §4.1.2: a feed and each entry hold exactly one atom:id (an IRI), atom:title and
    atom:updated; each entry an atom:author or the feed one ("no entry has the required <updated>; the private
    notices feed has no author, ids that aren't IRIs and empty summaries")."""
    client = Client()
    problems = {}
    for address in feeds(demo).values():
        response = client.get(address)
        assert response.status_code == 200, address
        assert response["Content-Type"].startswith("application/atom+xml"), address
        parsed = feedparser.parse(response.content)
        found = rfc4287_problems(response.content)
        if parsed.bozo:
            found.append(f"a feed reader's parser stumbles: {parsed.bozo_exception}")
        if not parsed.entries:
            found.append("no entries: the demo should give every feed some")
        if found:
            problems[address] = sorted(set(found))
    report = "\n".join(f"{address}: {'; '.join(found)}" for address, found in problems.items())
    assert not problems, f"{len(problems)} of {len(feeds(demo))} feeds fall short of RFC 4287:\n{report}"


def test_each_feed_is_announced_by_the_page_it_follows(demo):
    """A feed reader finds a category's, a post's comments' and a wiki page's feed from the page itself
    ("only /feed/ is announced with <link rel=alternate>")."""
    client = Client()
    missing = {}
    for page, address in feeds(demo).items():
        if not page.startswith("/"):
            continue  # the private feed is never announced: its address is its owner's secret
        links = _AlternateLinks()
        links.feed(client.get(page).content.decode())
        if address not in links.hrefs:
            missing[page] = address
    assert not missing, f"pages that do not announce their feed: {missing}"
