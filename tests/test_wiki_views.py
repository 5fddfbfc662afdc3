"""The wiki's pages through the test client: reading without logging in, history, permalinks, diffs, time
travel, rule links and histories, editing with conflicts and bad input, protection and reverts."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.urls import reverse

from ruleset.models import Page, Revision
from ruleset.services import page_create, revision_add
from tests.factories import PASSWORD
from tests.test_wiki_services import RULESET_TEXT, make_people, make_ruleset
from votes.posting import post_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(t0):
    return make_people(t0)


@pytest.fixture
def ruleset(people, t0):
    """The Ruleset with three revisions: created, Storms rule changed, Gold rule added (enacting a post)."""
    page = make_ruleset(people["admin"], t0)
    second = RULESET_TEXT.replace("Storms sink", "Storms wreck")
    revision_add(page=page, author=people["admin"], text=second, summary="Stormier", now=t0 + timedelta(hours=1))
    proposal = post_create(
        author=people["player"], kind="proposal", title="Proposal: Gold", body="Add gold.", now=t0 + timedelta(hours=2)
    )
    third = second.replace("== Appendix ==", "=== Gold ===\nGold shines. See Rule 2.1.\n== Appendix ==")
    revision_add(
        page=page,
        author=people["admin"],
        text=third,
        summary="Enacting Proposal: Gold",
        now=t0 + timedelta(hours=3),
        post=proposal,
    )
    page.refresh_from_db()
    return page


def html_of(response) -> str:
    return response.content.decode()


# --- reading, without logging in ---------------------------------------------------------------------


def test_a_visitor_reads_the_structured_ruleset(client, ruleset):
    """Sections and rules are numbered, with a table of contents, anchors and the glossary's keywords."""
    html = html_of(client.get("/wiki/ruleset/"))
    assert '<nav class="ruleset-toc"' in html
    assert 'id="rule-dynasties"' in html and '<span class="rule-number">1.3</span> Dynasties' in html
    assert '<span class="rule-number">2.4</span> Gold' in html
    assert 'href="#rule-dynasties"' in html and ">1.3</a>" in html, "“Rule 1.3” links to its anchor"
    assert "Keywords (1)" in html and "<dt>Quorum</dt>" in html
    assert reverse("wiki_rule_history", args=["ruleset", "rule-gold"]) in html
    assert "Enacting Proposal: Gold" in html and "/posts/gold/" in html


def test_a_rule_cited_by_number_or_name_redirects_to_its_anchor(client, ruleset):
    """/wiki/ruleset/rule/1.3/ and /wiki/ruleset/rule/Dynasties/ lead to the rule on the page."""
    for ref in ("1.3", "Rule 1.3", "Dynasties"):
        response = client.get(reverse("wiki_rule", args=["ruleset", ref]))
        assert response.status_code == 302 and response["Location"] == "/wiki/ruleset/#rule-dynasties"
    assert client.get(reverse("wiki_rule", args=["ruleset", "9.9"])).status_code == 404


def test_history_lists_revisions_newest_first_with_author_summary_and_size_change(client, ruleset):
    """Each row has the revision's permalink, time, author, size, the change in size, and summary."""
    html = html_of(client.get("/wiki/ruleset/history/"))
    rows = re.findall(r'<tr id="r(\d+)">', html)
    assert rows == ["3", "2", "1"]
    sizes = [r.size for r in ruleset.revisions.order_by("number")]
    assert f"(+{sizes[0]:,})" in html
    assert f"(+{sizes[2] - sizes[1]})" in html
    assert "Stormier" in html and "Enacting Proposal: Gold" in html and "Kevan" in html


def test_history_is_paginated_by_revision_number(client, people, t0):
    """Fifty revisions a page, newest first; "Older" leads to the next fifty."""
    page = page_create(title="Notes", author=people["player"], text="0", now=t0)
    for n in range(1, 60):
        revision_add(page=page, author=people["player"], text=str(n), now=t0 + timedelta(minutes=n))
    first = html_of(client.get("/wiki/notes/history/"))
    assert re.findall(r'<tr id="r(\d+)">', first)[:2] == ["60", "59"] and "Page 1 of 2" in first
    second = html_of(client.get("/wiki/notes/history/?page=2"))
    assert re.findall(r'<tr id="r(\d+)">', second) == [str(n) for n in range(10, 0, -1)]
    assert html_of(client.get("/wiki/notes/history/?page=x")).count('<tr id="r') == 50


def test_an_old_revision_has_a_permalink_headed_with_its_time_and_author(client, ruleset):
    """/wiki/ruleset/r/2/ says "Revision as of … by …" and links to the older and newer revisions."""
    html = html_of(client.get("/wiki/ruleset/r/2/"))
    assert "Revision as of" in html and "25 Jul 2016 13:00 UTC" in html and "><bdi>Kevan</bdi></a>" in html
    assert 'href="/wiki/ruleset/r/1/"' in html and 'href="/wiki/ruleset/r/3/"' in html
    assert "This is an old revision" in html and "Storms wreck" in html
    latest = html_of(client.get("/wiki/ruleset/r/3/"))
    assert "The current revision" in latest and "Newer revision" not in latest
    assert "The first revision" in html_of(client.get("/wiki/ruleset/r/1/"))
    assert client.get("/wiki/ruleset/r/4/").status_code == 404


@pytest.mark.parametrize("view", ["inline", "side"])
def test_a_diff_between_any_two_revisions_inline_or_side_by_side(client, ruleset, view):
    """Deleted and inserted words are marked; ``latest`` names the current revision."""
    html = html_of(client.get(f"/wiki/ruleset/diff/1/latest/?view={view}"))
    assert "Changes between revisions 1 and 3" in html
    assert "<del>sink </del>" in html and "<ins>wreck </ins>" in html
    assert "Gold shines." in html
    assert ("diff-side-by-side" in html) is (view == "side")


def test_a_diff_with_the_previous_revision_lists_the_rules_it_changed(client, ruleset):
    """Between adjacent revisions of the Ruleset, the rules added, changed or removed are listed."""
    html = html_of(client.get("/wiki/ruleset/diff/prev/3/"))
    assert "Changes between revisions 2 and 3" in html
    assert "Rules this revision changed" in html and "Added" in html and "2.4" in html


def test_revisions_given_the_wrong_way_round_are_compared_oldest_first(client, ruleset):
    assert "Changes between revisions 1 and 2" in html_of(client.get("/wiki/ruleset/diff/2/1/"))


@pytest.mark.parametrize("path", ["/wiki/ruleset/diff/1/9/", "/wiki/ruleset/diff/one/2/", "/wiki/nope/diff/1/2/"])
def test_a_diff_of_missing_revisions_is_not_found(client, ruleset, path):
    assert client.get(path).status_code == 404


def test_the_history_compare_form_leads_to_the_diff(client, ruleset):
    response = client.get("/wiki/ruleset/diff/?old=1&new=2&view=side")
    assert response.status_code == 302 and response["Location"] == "/wiki/ruleset/diff/1/2/?view=side"


def test_switching_diff_layout_with_htmx_returns_only_the_diff(client, ruleset):
    """An htmx request gets the diff fragment alone; the same address works without JavaScript."""
    response = client.get("/wiki/ruleset/diff/1/2/?view=side", HTTP_HX_REQUEST="true")
    html = html_of(response)
    assert html.lstrip().startswith('<section id="diff-body"') and "<html" not in html
    assert "HX-Request" in response["Vary"]


def test_the_ruleset_as_it_stood_at_a_moment(client, ruleset, t0):
    """/wiki/ruleset/as-of/?at=… shows the revision current then; before the page existed is a 404."""
    html = html_of(client.get("/wiki/ruleset/as-of/?at=2016-07-25T13:30"))
    assert "As it stood at" in html and "revision 2, the one current then" in html and "Storms wreck" in html
    assert client.get("/wiki/ruleset/as-of/?at=2016-07-01T00:00").status_code == 404
    bad = client.get("/wiki/ruleset/as-of/?at=yesterday")
    assert bad.status_code == 400 and "Give a time such as" in html_of(bad)


def test_a_rule_has_its_own_history(client, ruleset):
    """The Storms rule's history lists the revisions that changed it, not those that only renumbered it."""
    html = html_of(client.get("/wiki/ruleset/rule/rule-storms/history/"))
    assert "History of" in html and "Rule 2.3 Storms" in html
    assert re.findall(r">r(\d+)</a>", html.split("<tbody>")[1]) == ["2", "1"]
    assert "Last changed in" in html.split("<tbody>")[0], "the rule's blame heads its history"
    assert client.get("/wiki/ruleset/rule/rule-never-was/history/").status_code == 404


def test_the_wiki_index_lists_every_page(client, ruleset, people, t0):
    page_create(title="Chests", kind=Page.GAMESTATE, author=people["admin"], text="- none", now=t0)
    html = html_of(client.get("/wiki/"))
    assert "Ruleset" in html and "Chests" in html and "Gamestate" in html


def test_an_ordinary_page_renders_markup_and_escapes_html(client, people, t0):
    """Headings, lists and preformatted maps render; any HTML in the text is shown as text."""
    page_create(
        title="Map",
        author=people["player"],
        now=t0,
        text="== The Island ==\n* north\n ..#..\n .#.#.\n<script>alert(1)</script>",
    )
    html = html_of(client.get("/wiki/map/"))
    assert "<h2>The Island</h2>" in html and "<li>north</li>" in html
    assert '<pre class="wiki-pre">..#..\n.#.#.</pre>' in html
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html


def test_a_missing_page_is_not_found(client):
    assert client.get("/wiki/nowhere/").status_code == 404


# --- editing -----------------------------------------------------------------------------------------


def log_in(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def test_a_visitor_is_sent_to_log_in_to_edit(client, ruleset):
    response = client.get("/wiki/ruleset/edit/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_player_may_not_edit_the_ruleset_and_is_told_why(client, ruleset, people):
    """Players see no Edit tab on the Ruleset; the edit page itself says only admins may edit it."""
    log_in(client, people["player"])
    assert ">Edit</a>" not in html_of(client.get("/wiki/ruleset/"))
    response = client.get("/wiki/ruleset/edit/")
    assert response.status_code == 403 and "Only admins may edit “Ruleset”." in html_of(response)
    response = client.post("/wiki/ruleset/edit/", {"text": "mine", "base": 3})
    assert response.status_code == 403 and ruleset.revisions.count() == 3


def test_an_admin_edits_the_ruleset_linking_the_enacted_proposal(client, ruleset, people, t0):
    """The form carries the base revision; saving adds a revision with the summary and the post."""
    log_in(client, people["admin"])
    form = html_of(client.get("/wiki/ruleset/edit/"))
    assert 'name="base" value="3"' in form
    with time_machine.travel(t0 + timedelta(days=1), tick=False):
        response = client.post(
            "/wiki/ruleset/edit/",
            {
                "text": RULESET_TEXT.replace("\n", "\r\n") + "\r\n",
                "summary": "Enacting Proposal: Gold",
                "post": "/posts/gold/",
                "base": 3,
            },
        )
    assert response.status_code == 302 and response["Location"] == "/wiki/ruleset/"
    latest = ruleset.revisions.get(number=4)
    assert (latest.author, latest.at, latest.post.slug) == (people["admin"], t0 + timedelta(days=1), "gold")
    assert "\r" not in latest.text


def test_an_unknown_post_is_a_form_error(client, ruleset, people):
    log_in(client, people["admin"])
    response = client.post("/wiki/ruleset/edit/", {"text": "x", "post": "no-such-post", "base": 3})
    assert response.status_code == 400 and "No post “no-such-post”" in html_of(response)
    assert ruleset.revisions.count() == 3


def test_an_edit_conflict_keeps_the_editors_text_shows_the_diff_and_overwrites_nothing(client, people, t0):
    """Saving on top of an unseen revision re-renders the form with the editor's text and the latest's diff."""
    page = page_create(title="Logbook", author=people["player"], text="Day one: calm seas.\n", now=t0)
    log_in(client, people["player"])
    revision_add(
        page=page,
        author=people["admin"],
        text="Day one: calm seas.\nDay two: a storm.\n",
        now=t0 + timedelta(minutes=5),
    )
    response = client.post(
        "/wiki/logbook/edit/", {"text": "Day one: calm seas, gulls.\n", "summary": "Gulls", "base": 1}
    )
    html = html_of(response)
    assert response.status_code == 409
    assert "Edit conflict: revision 2 was saved after revision 1" in html
    assert re.search(r"<textarea[^>]*name=\"text\"[^>]*>\nDay one: calm seas, gulls\.", html), "editor's text kept"
    assert 'name="base" value="2"' in html, "saving again after reading the conflict goes on top of revision 2"
    assert "<del>Day two: a storm.</del>" in html and "<ins>, gulls</ins>" in html
    assert "diff-side-by-side" in html
    assert page.revisions.count() == 2
    assert Page.objects.get(pk=page.pk).current.text.endswith("a storm.\n")
    resolved = client.post(
        "/wiki/logbook/edit/",
        {"text": "Day one: calm seas, gulls.\nDay two: a storm.\n", "summary": "Gulls", "base": 2},
    )
    assert resolved.status_code == 302 and page.revisions.count() == 3


def test_a_page_over_one_megabyte_gets_a_clear_message_and_nothing_is_written(client, people, t0):
    page_create(title="Logbook", author=people["player"], text="x", now=t0)
    log_in(client, people["player"])
    response = client.post("/wiki/logbook/edit/", {"text": "y" * (1024 * 1024 + 10), "base": 1})
    assert response.status_code == 400 and "A page may be at most 1 MB" in html_of(response)
    assert Revision.objects.count() == 1


def test_saving_without_changes_says_so(client, people, t0):
    page_create(title="Logbook", author=people["player"], text="x", now=t0)
    log_in(client, people["player"])
    response = client.post("/wiki/logbook/edit/", {"text": "x", "base": 1})
    assert response.status_code == 400 and "nothing was saved" in html_of(response)


@pytest.mark.parametrize(
    ("title", "message"),
    [
        ("", "A page needs a title."),
        ("Logbook", "A page called “Logbook” already exists."),
        ("x" * 201, "A title may be at most 200 characters."),
    ],
)
def test_creating_a_page_with_a_bad_title_gets_a_clear_message_and_writes_nothing(client, people, t0, title, message):
    page_create(title="Logbook", author=people["player"], text="x", now=t0)
    log_in(client, people["player"])
    response = client.post("/wiki/new/", {"title": title, "kind": "page", "text": "hello"})
    assert response.status_code == 400 and message in html_of(response)
    assert Page.objects.count() == 1


def test_a_player_creates_a_page_but_not_a_gamestate_page(client, people):
    log_in(client, people["player"])
    response = client.post("/wiki/new/", {"title": "Musings", "kind": "page", "text": "Hello."})
    assert response.status_code == 302 and response["Location"] == "/wiki/musings/"
    refused = client.post("/wiki/new/", {"title": "Map", "kind": "gamestate", "text": "~"})
    assert refused.status_code == 400 and "Only admins may create a page of kind “Gamestate”" in html_of(refused)


def test_a_spectator_may_not_create_pages(client, people):
    log_in(client, people["spectator"])
    response = client.get("/wiki/new/")
    assert response.status_code == 403 and "Only active players may edit wiki pages." in html_of(response)


def test_restoring_an_old_revision_adds_a_new_one(client, ruleset, people):
    log_in(client, people["admin"])
    assert "Restore this revision" in html_of(client.get("/wiki/ruleset/r/1/"))
    response = client.post("/wiki/ruleset/r/1/restore/", {"base": 3})
    assert response.status_code == 302
    assert ruleset.revisions.get(number=4).text == ruleset.revisions.get(number=1).text


def test_an_admin_protects_a_page_from_its_history(client, people, t0):
    """Admins protect from the history page; the protection log says who, when and why."""
    page_create(title="Logbook", author=people["player"], text="x", now=t0)
    log_in(client, people["player"])
    assert client.post("/wiki/logbook/protect/", {"protected": "1"}).status_code == 403
    log_in(client, people["admin"])
    client.post("/wiki/logbook/protect/", {"protected": "1", "reason": "Edit war"})
    assert Page.objects.get(slug="logbook").protected
    html = html_of(client.get("/wiki/logbook/history/"))
    assert "protected by <bdi>Kevan</bdi> (Edit war)" in html and "Unprotect" in html
    log_in(client, people["player"])
    assert client.get("/wiki/logbook/edit/").status_code == 403


# --- pages loaded from an archive ----------------------------------------------------------------------


def test_pages_imported_from_an_archive_are_readable_and_their_rules_indexed(client, tmp_path):
    """The archive importer's pages (current set, revisions from 1) show history, diffs and rule histories,
    with the rule changes indexed by the import itself."""
    archive = {
        "format": "blognomic-archive",
        "version": 1,
        "profile": "2016",
        "players": [{"name": "Kevan", "admin": True, "idle": False, "joined_at": "2016-07-01T00:00:00Z"}],
        "dynasties": [],
        "posts": [],
        "wiki": {
            "pages": [
                {
                    "title": "Ruleset",
                    "slug": "ruleset",
                    "kind": "ruleset",
                    "protected": False,
                    "revisions": [
                        {
                            "at": "2016-07-01T00:00:00Z",
                            "author": "Kevan",
                            "summary": "Start",
                            "text": RULESET_TEXT,
                            "post": None,
                        },
                        {
                            "at": "2016-07-02T00:00:00Z",
                            "author": None,
                            "summary": "Storms",
                            "text": RULESET_TEXT.replace("Storms sink", "Storms wreck"),
                            "post": None,
                        },
                    ],
                }
            ]
        },
    }
    path = tmp_path / "archive.json"
    path.write_text(json.dumps(archive))
    call_command("import_archive", str(path), stdout=open("/dev/null", "w"))
    for url in ("/wiki/ruleset/", "/wiki/ruleset/history/", "/wiki/ruleset/r/1/", "/wiki/ruleset/diff/1/latest/"):
        assert client.get(url).status_code == 200, url
    call_command("index_rule_changes", stdout=open("/dev/null", "w"))  # nothing left to do: harmless
    after = html_of(client.get("/wiki/ruleset/rule/rule-storms/history/"))
    assert "not indexed" not in after and re.findall(r">r(\d+)</a>", after.split("<tbody>")[1]) == ["2", "1"]
