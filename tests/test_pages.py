"""Every page renders, for visitors and players, with a number of queries that does not grow with the data."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from blognomic.moving.demo import build_demo
from tests.factories import PASSWORD, make_player, make_proposal, make_table
from votes.models import Comment

pytestmark = pytest.mark.django_db


def count_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(context.captured_queries)


def add_comments(post, voters, n: int, start):
    """``n`` comments spread over ``voters``, every third one a vote."""
    icons = ["for", "against", None]
    Comment.objects.bulk_create(
        Comment(
            post=post,
            author=voters[i % len(voters)],
            at=start + timedelta(minutes=i),
            icon=icons[i % 3],
            text=f"Comment {i}",
        )
        for i in range(n)
    )


def test_demo_front_page_shows_the_quorum_line(client):
    """The sidebar says how many players are active and what Quorum is, in the dynasty's own terms."""
    from django.utils import timezone

    build_demo(now=timezone.now())
    html = client.get("/").content.decode()
    assert "There are 7 active keepers. Quorum is 4." in html
    assert "The First Dynasty of Wren" in html and "Harbourmaster" in html
    # Idle players are counted in the sidebar and listed on the players' page, which every page links.
    assert ">1 idle</a>" in html and "/players/Gus/" not in html.split('id="roster"')[1]
    players = client.get(reverse("player_list")).content.decode()
    assert "7 active, 1 idle. Quorum is 4." in players and "Gus" in players and "Wren" in players


def test_the_players_page_lists_the_most_recently_idle_first(client, t0):
    from dynasties.models import Absence
    from tests.factories import make_player

    for n, name in enumerate(["Ada", "Bo", "Cy"]):
        player = make_player(name, joined_at=t0)
        Absence.objects.create(user=player, kind=Absence.IDLE, started_at=t0 + timedelta(days=1 + n))
    make_player("Dee", joined_at=t0)
    html = client.get(reverse("player_list")).content.decode()
    # By their links: a name this short may also be part of another word on the page.
    first, second, third = (html.index(f'href="/players/{name}/"') for name in ("Cy", "Bo", "Ada"))
    assert first < second < third
    assert "1 active, 3 idle." in html and "27 Jul 2016" in html


@pytest.mark.parametrize(
    "path", ["/", "/category/proposals/", "/wiki/ruleset/", "/gndt/", "/players/Ezra%20Vane/", "/posts/storm-warnings/"]
)
def test_demo_pages_render_for_visitors(client, path):
    from django.utils import timezone

    build_demo(now=timezone.now())
    assert client.get(path).status_code == 200


def test_month_archive_and_bad_month(client, t0):
    players = make_table(3, start=t0)
    make_proposal(players[1], at=t0, title="Proposal: July Thing")
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        html = client.get("/2016/07/").content.decode()
    assert "Proposal: July Thing" in html and "Posts of July 2016" in html
    assert client.get("/2016/13/").status_code == 404
    assert client.get("/category/nonsense/").status_code == 404


def test_player_names_with_spaces_and_punctuation_have_pages(client, t0):
    """Real names like “Seventy-Fifth Trombone” and “The Duke of Waltham” work as usernames and URLs."""
    make_table(2, start=t0)
    for name in ["Seventy-Fifth Trombone", "The Duke of Waltham", "ais523", "Prince Anduril"]:
        user = make_player(name, joined_at=t0)
        assert client.get(user.get_absolute_url()).status_code == 200
        assert client.login(username=name, password=PASSWORD)


@pytest.mark.parametrize("comments", [(10, 100)])
def test_post_page_queries_do_not_grow_with_comments(client, t0, comments):
    """A post with 100 comments from 30 voters uses as many queries as one with 10."""
    players = make_table(30, start=t0)
    small = make_proposal(players[1], at=t0, title="Proposal: Small")
    big = make_proposal(players[2], at=t0, title="Proposal: Big")
    add_comments(small, players, comments[0], t0)
    add_comments(big, players, comments[1], t0)
    client.login(username="P05", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=20), tick=False):
        assert count_queries(client, small.get_absolute_url()) == count_queries(client, big.get_absolute_url())
        assert count_queries(client, reverse("tally_box", args=[small.slug])) == count_queries(
            client, reverse("tally_box", args=[big.slug])
        )


def test_front_page_and_panel_queries_do_not_grow(client, t0):
    """The front page and the admin panel cost the same with 10 or 100 comments per post."""
    players = make_table(30, start=t0)
    posts = [make_proposal(players[i], at=t0 + timedelta(minutes=i), title=f"Proposal: Idea {i}") for i in range(3)]
    for post in posts:
        add_comments(post, players, 10, t0 + timedelta(hours=1))
    client.login(username="P02", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=20), tick=False):
        front_small = count_queries(client, "/")
        panel_small = count_queries(client, reverse("admin_panel"))
    for post in posts:
        add_comments(post, players, 90, t0 + timedelta(hours=5))
    for i in range(3, 6):
        make_proposal(players[i], at=t0 + timedelta(minutes=i), title=f"Proposal: Idea {i}")
    with time_machine.travel(t0 + timedelta(hours=20), tick=False):
        assert count_queries(client, "/") == front_small
        assert count_queries(client, reverse("admin_panel")) == panel_small


def test_feed_lists_the_latest_posts(client, t0):
    """The Atom feed carries each post's title, author and rendered body."""
    players = make_table(3, start=t0)
    make_proposal(players[1], at=t0, title="Proposal: Feed Me", body="Some *text*.")
    body = client.get("/feed/").content.decode()
    assert "<title>Proposal: Feed Me</title>" in body and "P02" in body and "&lt;em&gt;text&lt;/em&gt;" in body


def test_dynasty_list_names_each_dynasty_without_a_query_each(client, t0):
    """“The Second Dynasty of P01”: ordinals come from one query, however many dynasties there are."""
    from dynasties.models import Dynasty

    players = make_table(2, start=t0)
    count_before = count_queries(client, "/dynasties/")
    for number in range(2, 12):
        Dynasty.objects.create(number=number, emperor=players[number % 2], started_at=t0)
    assert count_queries(client, "/dynasties/") == count_before
    html = client.get("/dynasties/").content.decode()
    assert "The Sixth Dynasty of P01" in html and "The Fifth Dynasty of P02" in html


@pytest.mark.parametrize("viewer", [None, "P04"])
def test_front_page_toteboards_summary_and_recent_comments_cost_the_same_however_much_is_pending(client, t0, viewer):
    """Toteboards, the viewer's own votes, the phone summary and recent comments add no query per matter:
    3 pending matters with 10 comments each cost what 8 with 100 each do."""
    players = make_table(30, start=t0)
    if viewer:
        client.login(username=viewer, password=PASSWORD)
    posts = [make_proposal(players[i], at=t0 + timedelta(minutes=i), title=f"Proposal: Idea {i}") for i in range(3)]
    for post in posts:
        add_comments(post, players, 10, t0 + timedelta(hours=1))
    with time_machine.travel(t0 + timedelta(hours=20), tick=False):
        before = count_queries(client, "/")
    more = [make_proposal(players[i], at=t0 + timedelta(minutes=i), title=f"Proposal: Idea {i}") for i in range(3, 8)]
    for post in posts + more:
        add_comments(post, players, 90, t0 + timedelta(hours=5))
    with time_machine.travel(t0 + timedelta(hours=20), tick=False):
        assert count_queries(client, "/") == before
        html = client.get("/").content.decode()
    assert html.count('class="toteboard') == 8
    assert 'id="recent-comments"' in html and 'id="game-summary"' in html
