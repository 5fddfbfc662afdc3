"""A game admin (not a superuser) hides a post from the site and shows it again (``votes.hiding``): hidden, it is
in no listing, feed, search, statistic, sidebar or API answer, and its page answers 404 to all but admins."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from blognomic.community.stats import selectors as stats
from blognomic.moving.archive import export_archive, import_archive
from dynasties.models import User
from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.hiding import PENDING_NOT_HIDDEN, HidingError, post_hide, post_unhide
from votes.models import Post
from votes.selectors import recent_comments
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db
WORD = "kelpwort"
PAGES = [
    "/",
    "/category/proposals/",
    "/feed/",
    "/category/proposals/feed/",
    "/players/P03/",
    f"/search/?q={WORD}",
    f"/search/?q={WORD}&kind=comments",
    "/api/posts",
]


@pytest.fixture
def game(t0):
    with time_machine.travel(t0, tick=False):
        players = make_table(5, start=t0 - timedelta(days=2))
        admin = players[1]
        assert not admin.is_superuser
        post = make_proposal(players[2], at=t0 - timedelta(days=1), title=f"Proposal: The {WORD.title()} Tax")
        for voter in players[:4]:
            vote(post, voter, "for", at=t0 - timedelta(hours=23), text=f"Yes to {WORD}.")
        matter_resolve(post=post, admin=admin, action="enact", now=t0 - timedelta(hours=10))
    post.refresh_from_db()
    return {"players": players, "admin": admin, "post": post}


def as_user(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.login(username=user.username, password=PASSWORD)
    return client


def shows_word(client: Client, path: str) -> bool:
    """Whether the page shows the post's title or its comments (a search page also repeats the word asked)."""
    page = client.get(path).content.decode().lower()
    return f"the {WORD} tax" in page or f"yes to {WORD}" in page


def test_a_hidden_post_leaves_every_listing_feed_search_and_the_api(game):
    reader = as_user(game["players"][4])
    assert all(shows_word(reader, path) for path in PAGES)
    post_hide(post=game["post"], admin=game["admin"], at=timezone.now())
    assert [path for path in PAGES if shows_word(reader, path)] == []
    assert all(WORD not in comment.text for comment in recent_comments())


def test_its_page_its_comments_feed_and_its_api_answer_404_to_all_but_admins(game):
    post = game["post"]
    post_hide(post=post, admin=game["admin"], at=timezone.now())
    for client in (as_user(None), as_user(game["players"][2])):
        assert client.get(post.get_absolute_url()).status_code == 404
        assert client.get(f"/posts/{post.slug}/comments/feed/").status_code == 404
        assert client.get(f"/posts/{post.slug}/tally/").status_code == 404
    assert as_user(None).get(f"/api/posts/{post.slug}").status_code == 404
    page = as_user(game["admin"]).get(post.get_absolute_url())
    assert page.status_code == 200 and "Hidden from the site" in page.content.decode()


def test_the_statistics_leave_it_out(game):
    before = stats.stats_version(timezone.now())
    [row] = stats.proposals_by_dynasty()
    assert row.enacted == 1
    post_hide(post=game["post"], admin=game["admin"], at=timezone.now())
    assert stats.proposals_by_dynasty() == ()
    assert "P03" not in {record.name for record in stats.player_records()}
    assert stats.stats_version(timezone.now()) != before


def test_showing_it_again_brings_it_back(game):
    post_hide(post=game["post"], admin=game["admin"], at=timezone.now())
    post_unhide(post=game["post"], admin=game["admin"])
    reader = as_user(None)
    assert all(shows_word(reader, path) for path in PAGES)


def test_a_pending_matter_cannot_be_hidden(game, t0):
    pending = make_proposal(game["players"][3], at=timezone.now(), title="Proposal: Still In Play")
    with pytest.raises(HidingError, match=PENDING_NOT_HIDDEN.format(title=pending.title)):
        post_hide(post=pending, admin=game["admin"], at=timezone.now())
    assert Post.objects.hidden().count() == 0


def test_through_the_pages_an_admin_hides_and_shows_and_a_player_is_refused(game):
    post, admin = game["post"], as_user(game["admin"])
    player = as_user(game["players"][3])
    assert player.post(f"/posts/{post.slug}/hide/").status_code == 403
    assert player.get("/admin-panel/hidden/").status_code == 403
    assert admin.post(f"/posts/{post.slug}/hide/")["Location"] == "/admin-panel/hidden/"
    listed = admin.get("/admin-panel/hidden/").content.decode()
    assert post.title in listed and "P02" in listed
    admin.post(f"/posts/{post.slug}/unhide/")
    assert Post.objects.hidden().count() == 0
    assert "No post is hidden." in admin.get("/admin-panel/hidden/").content.decode()


@pytest.mark.django_db(transaction=True)  # flush truncates: PostgreSQL refuses it with deferred checks pending
def test_a_hidden_post_stays_hidden_through_the_archive(game):
    """A backup restored (``export_archive`` then ``import_archive`` into an empty site) keeps the post hidden,
    and who hid it: a restore must not show again what an admin took off the site."""
    at = timezone.now().replace(microsecond=0)
    post_hide(post=game["post"], admin=game["admin"], at=at)
    archive = export_archive()
    (entry,) = [p for p in archive["posts"] if p["title"] == game["post"].title]
    assert entry["hidden_by"] == "P02"
    call_command("flush", "--no-input", verbosity=0)
    import_archive(archive)
    restored = Post.objects.get(title=game["post"].title)
    assert (restored.hidden_at, restored.hidden_by.username) == (at, "P02")
    assert not any(shows_word(as_user(None), path) for path in PAGES)
