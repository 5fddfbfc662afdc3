"""Ruleset blame: every rule on the Ruleset page names the matter (or the revision) that last changed it, and a
rule's history follows it across renumbering, renames and an Ascension's keyword replacement."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ruleset.ascension import ruleset_apply_ascension
from ruleset.lineage import cited_slug, rule_lifetimes
from ruleset.models import Page, RuleChange
from ruleset.services import revision_add
from tests.test_wiki_services import RULESET_TEXT, make_people, make_ruleset
from votes.models import Kind, Post, Status
from votes.posting import post_create

pytestmark = pytest.mark.django_db

ASCENSION_RULESET = """\
== Core Rules ==
=== Player Actions ===
A Player may act once a day.
== Dynastic Rules ==
=== Fog ===
When the fog comes, nobody sees.
=== Player Boats ===
Each Player has a boat. A Player without a boat may ask the Emperor for one.
"""


@pytest.fixture
def people(t0):
    return make_people(t0)


def blame_of(html: str, anchor: str) -> str:
    """The blame line under the heading of the rule ``anchor``."""
    match = re.search(rf'id="{anchor}">\s*<h\d>.*?</h\d>\s*(<p class="rule-blame">.*?</p>)', html, re.S)
    assert match, f"no blame line under {anchor}"
    return re.sub(r"<[^>]+>", "", match[1])


def test_every_rule_names_the_matter_or_revision_that_last_changed_it(client, people, t0):
    """An enacted matter's revision names it; a hand edit whose summary cites a post's address names that
    post; a plain edit names its revision and author; renumbering alone changes no rule's blame."""
    page = make_ruleset(people["admin"], t0)
    gold = post_create(
        author=people["player"], kind="proposal", title="Proposal: Gold", body="Gold.", now=t0 + timedelta(hours=1)
    )
    storms = post_create(
        author=people["player"], kind="proposal", title="Proposal: Storms", body="Storms.", now=t0 + timedelta(hours=1)
    )
    text = RULESET_TEXT.replace("== Dynastic Rules ==\n", "== Dynastic Rules ==\n=== Gold ===\nGold shines.\n")
    revision_add(
        page=page,
        author=people["admin"],
        text=text,
        summary="Enacting Proposal: Gold",
        post=gold,
        now=t0 + timedelta(days=1),
    )
    text = text.replace("Storms sink", "Storms wreck")
    revision_add(
        page=page,
        author=people["admin"],
        text=text,
        now=t0 + timedelta(days=2),
        summary="Enacting http://testserver/posts/storms/ by hand",
    )
    text = text.replace("Any Player may leave", "Any Player may quit")
    revision_add(page=page, author=people["admin"], text=text, summary="Typo", now=t0 + timedelta(days=3))

    html = client.get("/wiki/ruleset/").content.decode()
    enacted = f"{t0 + timedelta(days=1):%-d %b %Y}"
    assert blame_of(html, "rule-gold") == f"Last changed by Proposal: Gold, enacted {enacted} (r2)"
    assert blame_of(html, "rule-storms").startswith("Last changed by Proposal: Storms, enacted")
    assert blame_of(html, "rule-players") == f"Last changed in r4 by Kevan, {t0 + timedelta(days=3):%-d %b %Y}"
    assert blame_of(html, "rule-ships").startswith("Last changed in r1 by Kevan"), "renumbered, not changed"
    assert f'href="{storms.get_absolute_url()}"' in html
    assert "rule-blame" not in client.get("/wiki/ruleset/r/2/").content.decode(), "only the current page"


def test_a_summary_cites_a_post_by_its_address():
    assert cited_slug("Enacting https://nomic.example.org/posts/fog-horn/ (by hand)") == "fog-horn"
    assert cited_slug("Enacting /posts/fog-horn") == "fog-horn"
    assert cited_slug("Enacting Proposal: Fog Horn") is None


def test_a_renamed_rule_keeps_its_history(client, people, t0):
    """A rule retitled in place is the same rule: its history lists what changed it under its old title,
    the rename says what it was called, and the revision's diff lists one rename, not a repeal and an
    addition."""
    page = make_ruleset(people["admin"], t0)
    text = RULESET_TEXT.replace("Storms sink", "Storms wreck")
    revision_add(page=page, author=people["admin"], text=text, summary="Stormier", now=t0 + timedelta(days=1))
    text = text.replace("=== Storms ===", "=== Tempests ===")
    revision_add(page=page, author=people["admin"], text=text, summary="Renamed", now=t0 + timedelta(days=2))

    html = client.get("/wiki/ruleset/rule/rule-tempests/history/").content.decode()
    rows = html.split("<tbody>")[1]
    assert re.findall(r">r(\d+)</a>", rows) == ["3", "2", "1"]
    assert "Renamed</span>" in rows and "(was Storms)" in rows
    assert "rule-storms" in html.split("<tbody>")[0], "it names its former anchor"
    old_address = client.get("/wiki/ruleset/rule/rule-storms/history/")
    assert old_address.status_code == 302 and old_address["Location"] == "/wiki/ruleset/rule/rule-tempests/history/"
    diff = client.get("/wiki/ruleset/diff/prev/3/").content.decode()
    assert "wiki-change-renamed" in diff and "wiki-change-removed" not in diff


def test_an_ascension_keeps_every_rule_s_identity(client, people, t0):
    """An Ascension's keyword replacement retitles rules ("Player Boats" → "Keeper Boats") while its repeal
    renumbers them and the replacement rewrites their text: each is still the same rule, recorded as a
    rename, and its history reaches back before the Ascension."""
    page = make_ruleset(people["admin"], t0, text=ASCENSION_RULESET)
    text = ASCENSION_RULESET.replace("ask the Emperor", "ask the Emperor politely")
    revision_add(page=page, author=people["admin"], text=text, summary="Politeness", now=t0 + timedelta(days=1))
    ruleset_apply_ascension(
        replacements={"Player": "Keeper", "Emperor": "Harbourmaster"},
        keep_anchors=["Player Boats"],
        author=people["admin"],
        now=t0 + timedelta(days=2),
    )

    ascension = Page.objects.get(slug="ruleset").current
    changes = {(change.kind, change.anchor, change.previous_anchor) for change in ascension.rule_changes.all()}
    assert ("added", "rule-keeper-boats", "rule-player-boats") in changes
    assert ("added", "rule-keeper-actions", "rule-player-actions") in changes
    assert ("removed", "rule-fog", "") in changes
    assert [lifetime.anchor for lifetime in rule_lifetimes(page, "rule-keeper-boats")] == [
        "rule-keeper-boats",
        "rule-player-boats",
    ]

    rows = client.get("/wiki/ruleset/rule/rule-keeper-boats/history/").content.decode().split("<tbody>")[1]
    assert re.findall(r">r(\d+)</a>", rows) == ["3", "2", "1"]
    assert "(was Player Boats)" in rows and "Politeness" in rows
    diff = client.get("/wiki/ruleset/diff/prev/3/").content.decode()
    assert diff.count("wiki-change-renamed") == 2 and diff.count("wiki-change-removed") == 1


def ruleset_of(rules: int) -> str:
    return "== Core Rules ==\n" + "".join(f"=== Rule {n} ===\nText {n}.\n" for n in range(rules))


def page_queries(client) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get("/wiki/ruleset/").status_code == 200
    return len(context.captured_queries)


def test_the_ruleset_page_reads_blame_in_a_fixed_number_of_queries(client, people, t0):
    """Blame costs the same two queries (the latest change of every rule, and those revisions with their
    causes) for a 3-rule Ruleset with 3 revisions as for a 60-rule one with 40, each read first after a new
    revision (later readings keep the latest changes: see the next test)."""
    page = make_ruleset(people["admin"], t0, text=ruleset_of(3))
    revision_add(
        page=page,
        author=people["admin"],
        text=ruleset_of(3).replace("Text 1.", "Text one."),
        summary="One",
        now=t0 + timedelta(hours=1),
    )
    page_queries(client)  # the first request also fills the layout's caches
    revision_add(
        page=page,
        author=people["admin"],
        text=ruleset_of(3).replace("Text 2.", "Text two."),
        summary="Two",
        now=t0 + timedelta(hours=2),
    )
    small = page_queries(client)
    text = ruleset_of(60)
    for n in range(40):
        text = text.replace(f"Text {n}.", f"Text {n} changed.")
        proposal = Post.objects.create(
            slug=f"change-{n}",
            kind=Kind.PROPOSAL,
            title=f"Proposal: Change {n}",
            author=people["player"],
            posted_at=t0,
            status=Status.ENACTED,
        )
        revision_add(
            page=page,
            author=people["admin"],
            text=text,
            summary=f"Change {n}",
            post=proposal,
            now=t0 + timedelta(hours=3, minutes=n),
        )
    assert page_queries(client) == small
    assert RuleChange.objects.filter(page=page).count() > 100


def test_the_blame_groups_the_rule_changes_once_per_revision(client, people, t0, settings):
    """Grouping every change the page has had grows with its age, and its answer changes only with a new
    revision: it is kept under the newest one, and a new revision is blamed anew."""
    settings.PAGE_CACHE = False  # the view's own queries, not a page cache hit
    page = make_ruleset(people["admin"], t0)

    def read() -> tuple[str, int]:
        with CaptureQueriesContext(connection) as queries:
            html = client.get("/wiki/ruleset/").content.decode()
        return html, sum(
            "GROUP BY" in query["sql"] and "ruleset_rulechange" in query["sql"] for query in queries.captured_queries
        )

    assert read()[1] == 1
    html, grouped = read()
    assert grouped == 0 and blame_of(html, "rule-players").startswith("Last changed in r1")
    revision_add(
        page=page,
        author=people["admin"],
        text=RULESET_TEXT.replace("may leave", "may quit"),
        summary="Quitting",
        now=t0 + timedelta(days=1),
    )
    html, grouped = read()
    assert grouped == 1 and blame_of(html, "rule-players").startswith("Last changed in r2")


def test_recording_past_revisions_rule_changes_forgets_the_kept_blame(
    client, people, t0, settings, django_capture_on_commit_callbacks
):
    """Revisions loaded without their rule changes are blamed once ``index_rule_changes`` records them, though
    the newest revision is the same."""
    from ruleset.models import Revision
    from ruleset.rule_index import rule_changes_index

    settings.PAGE_CACHE = False  # the view's own reading, not a page cache hit
    page = Page.objects.create(title="Ruleset", slug="ruleset", kind=Page.RULESET, created_at=t0)
    texts = [RULESET_TEXT, RULESET_TEXT.replace("smallest ship", "smallest boat")]
    Revision.objects.bulk_create(
        Revision(page=page, number=n + 1, author=people["admin"], at=t0 + timedelta(days=n), text=text, size=len(text))
        for n, text in enumerate(texts)
    )
    page.current = page.revisions.get(number=2)
    page.save(update_fields=["current"])
    assert "rule-blame" not in client.get("/wiki/ruleset/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert rule_changes_index() == 2
    html = client.get("/wiki/ruleset/").content.decode()
    assert blame_of(html, "rule-rafts").startswith("Last changed in r2 by Kevan")
