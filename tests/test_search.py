"""Search across posts, comments, wiki pages and GNDT comments, with filters, highlighting and clear refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse

from blognomic.community.search.selectors import _newest_matching
from blognomic.community.search.text import EMPTY_QUERY, QueryError, parse_query, plain_text, snippet
from ruleset.services import page_create
from tests.factories import PASSWORD, T0, make_proposal, vote
from tests.gndt.builders import make_gndt, update
from votes.models import Comment, Post

pytestmark = pytest.mark.django_db


def test_parse_query_reads_words_and_quoted_phrases():
    assert parse_query('Fog  "storm WARNINGS" fog x') == ["fog", "storm warnings"]


@pytest.mark.parametrize("raw", ["", "   ", "a", "\x00fog", "x" * 201, " ".join(f"w{n}" for n in range(11))])
def test_parse_query_refuses_what_cannot_be_searched(raw):
    with pytest.raises(QueryError):
        parse_query(raw)


def test_snippets_mark_matches_and_escape_everything_else():
    html = snippet("<b>Lighthouse</b> keepers tend the LIGHTHOUSE lamp if 3 < 4 & <script", ["lighthouse"])
    assert html.count("<mark>") == 2 and "<b>" not in html and "&lt;b&gt;" not in html
    assert "3 &lt; 4 &amp; &lt;script" in html


def build_game():
    game = make_gndt(T0)
    admin, p3 = game.players[1], game.players[2]
    proposal = make_proposal(
        p3,
        at=T0,
        title="Proposal: Storm Warnings",
        body="Add a rule: when the barometer falls, every keeper raises a storm flag.",
    )
    vote(proposal, game.players[3], "for", at=T0 + timedelta(hours=1), text="Storm flags are overdue.")
    page_create(
        title="Map",
        kind="gamestate",
        author=admin,
        text="The north cape has a storm beacon.",
        summary="Start the map",
        now=T0,
        check_permission=False,
    )
    update(game, p3, {("P03", "Money"): "310"}, now=T0 + timedelta(hours=2), comment="Paid for a storm lantern")
    update(game, admin, {("P03", "Role"): "Werewolf"}, now=T0 + timedelta(hours=3), comment="Secret storm role")
    return game


@pytest.fixture
def game(db):
    return build_game()


def test_one_search_finds_every_kind_of_text(client, game):
    page = client.get(reverse("search"), {"q": "storm"}).content.decode()
    for section in ("results-posts", "results-comments", "results-wiki", "results-gndt"):
        assert "Nothing found." not in page.split(section)[1].split("</section>")[0], section
    assert "<mark>Storm</mark> Warnings" in page


def test_a_rules_wording_finds_the_proposal_that_introduced_it(client, game):
    page = client.get(reverse("search"), {"q": '"raises a storm flag"', "kind": "posts"}).content.decode()
    assert "Proposal: Storm Warnings" in page


def test_filters_narrow_by_author_and_date(client, game, t0):
    page = client.get(reverse("search"), {"q": "storm", "kind": "comments", "author": "P04"}).content.decode()
    assert "Storm flags are overdue." in page.replace("<mark>", "").replace("</mark>", "")
    page = client.get(reverse("search"), {"q": "storm", "kind": "comments", "author": "P02"}).content.decode()
    assert "Nothing found." in page
    later = (t0 + timedelta(days=3)).date().isoformat()
    page = client.get(reverse("search"), {"q": "storm", "kind": "posts", "since": later}).content.decode()
    assert "Nothing found." in page


def test_gndt_comments_on_secret_columns_are_only_for_those_who_see_them(client, game):
    page = client.get(reverse("search"), {"q": "secret", "kind": "gndt"}).content.decode()
    assert "Nothing found." in page
    page = client.get(reverse("search"), {"q": "role", "kind": "gndt"}).content.decode()
    assert "Nothing found." in page  # not even the admin's update that added the secret column
    assert client.login(username="P02", password=PASSWORD)  # an admin
    page = client.get(reverse("search"), {"q": "secret", "kind": "gndt"}).content.decode()
    assert "Secret" in page and "Nothing found." not in page


def test_an_anonymous_post_never_answers_a_search_by_its_author(client, game, t0):
    Post.objects.filter(title="Proposal: Storm Warnings").update(anonymous=True)
    page = client.get(reverse("search"), {"q": "storm", "kind": "posts", "author": "P03"}).content.decode()
    assert "Nothing found." in page
    page = client.get(reverse("search"), {"q": "storm", "kind": "posts"}).content.decode()
    assert "P03" not in page.split("results-posts")[1].split("</section>")[0]


@pytest.mark.parametrize(
    "params",
    [
        {"q": ""},
        {"q": "x" * 10_000},
        {"q": "storm", "kind": "users"},
        {"q": "storm", "since": "yesterday"},
        {"q": "storm", "dynasty": "²"},
        {"q": "storm", "dynasty": "9" * 20},
        {"q": "storm", "page": "0"},
        {"q": "storm\x00"},
    ],
)
def test_bad_searches_get_a_clear_400(client, game, params):
    response = client.get(reverse("search"), params)
    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="error"' in page or "NUL character" in page  # a NUL is refused before any view


def test_the_empty_search_page_just_shows_the_form(client):
    response = client.get(reverse("search"))
    assert response.status_code == 200 and EMPTY_QUERY not in response.content.decode()


def test_each_kind_costs_one_query_however_much_matches(client, game, t0, django_assert_max_num_queries):
    for n in range(30):
        Post.objects.create(
            slug=f"storm-{n}",
            kind="story",
            title=f"Story: Storm {n}",
            author=game.players[n % 5],
            posted_at=t0 - timedelta(days=10 + n),
            body="A storm story.",
        )
    # On PostgreSQL the results are read inside a savepoint that sets the planner (matches_through_the_index).
    with django_assert_max_num_queries(12 + (4 if connection.vendor == "postgresql" else 0)):
        assert client.get(reverse("search"), {"q": "storm"}).status_code == 200


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the full-text indexes exist on PostgreSQL only")
@pytest.mark.parametrize(
    ("model", "fields", "field", "index"),
    [
        (Post, ["title", "body"], "posted_at", "post_search_vector"),
        (Comment, ["text"], "at", "comment_search_vector"),
    ],
)
def test_the_full_text_match_is_the_expression_its_index_was_built_on(game, model, fields, field, index):
    """If the search's expression and the migration's drift apart, every search reads the whole table again."""
    found = _newest_matching(model.objects.all(), fields, ["storm", "flag"], field, related=(), offset=0, limit=21)
    sql, params = found.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a few rows: make the planner show what it could use
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert f"Bitmap Index Scan on {index}" in plan, plan


def test_matches_come_newest_first_page_after_page(client, game, t0):
    """Ordered by date whichever way the database finds the matches (see matches_through_the_index)."""
    for n in range(25):
        Post.objects.create(
            slug=f"gale-{n}",
            kind="story",
            title=f"Story: Gale {n:02}",
            author=game.players[n % 5],
            posted_at=t0 - timedelta(days=n),
            body="A gale story.",
        )
    first = client.get(reverse("search"), {"q": "gale", "kind": "posts"}).content.decode()
    second = client.get(reverse("search"), {"q": "gale", "kind": "posts", "page": "2"}).content.decode()
    titles = [f"Gale {n:02}" for n in range(25)]
    shown = sorted(titles, key=lambda title: (first + "\x00" + second).find(title))
    assert shown == titles
    assert all(title in first for title in titles[:20]) and all(title in second for title in titles[20:])


def test_the_hits_are_kept_until_the_content_changes(client, game, t0):
    """The page is rendered afresh every minute (the sidebar tells the time) without searching again, and a
    new matching post is found at once."""
    import time_machine
    from django.test.utils import CaptureQueriesContext

    def searched(moment) -> tuple[str, int]:
        with time_machine.travel(moment, tick=False), CaptureQueriesContext(connection) as queries:
            html = client.get(reverse("search"), {"q": "gale", "kind": "posts"}).content.decode()
        return html, sum("blognomic_post" in q["sql"] and "gale" in str(q["sql"]).lower() for q in queries)

    Post.objects.create(
        slug="gale-one",
        kind="story",
        title="Story: Gale One",
        author=game.players[0],
        posted_at=t0,
        body="A gale story.",
    )
    html, searches = searched(t0 + timedelta(hours=1))
    assert "Gale One" in html
    html, again = searched(t0 + timedelta(hours=1, minutes=5))
    assert "Gale One" in html and again == 0 < searches
    Post.objects.create(
        slug="gale-two",
        kind="story",
        title="Story: Gale Two",
        author=game.players[1],
        posted_at=t0 + timedelta(hours=1),
        body="Another gale.",
    )
    html, _ = searched(t0 + timedelta(hours=1, minutes=6))
    assert "Gale One" in html and "Gale Two" in html


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        (
            "=== Votable Matters ===\nA '''Votable Matter''' is a [[Proposal]] or a [[Call for Judgement|CfJ]].",
            "Votable Matters. A Votable Matter is a Proposal or a CfJ.",
        ),
        ('{| class="wikitable sortable"\n|-\n! Keeper !! Oil\n|-\n| Wren || 24\n|}', "Keeper Oil Wren 24"),
        ("{{TOCRight}}<!-- hidden note -->Each <s>Keeper</s> tends a <br/>lamp.", "Each Keeper tends a lamp."),
        (
            "## Votable Matters\n* **Bold** and _emphasised_ [words](/wiki/words/)\n> quoted",
            "Votable Matters Bold and emphasised words quoted",
        ),
        ("Keep 2*3*4 and snake_case_names as typed.", "Keep 2*3*4 and snake_case_names as typed."),
    ],
)
def test_a_snippet_shows_the_words_not_the_markup(source, shown):
    """Search snippets showed raw markup ("=== Votable Matters ==="): they show what a reader of the page
    sees, whether the source is the wiki's wikitext or a post's Markdown."""
    assert plain_text(source) == shown
    assert "===" not in snippet(source, ["votable"]) and "[[" not in snippet(source, ["proposal"])
