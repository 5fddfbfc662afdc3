"""Pages that update themselves (``blognomic.web.live``): a matter's page and the front page ask every few
seconds what changed; an unchanged game costs a 204 after reading the content version alone."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from blognomic.web.freshness import bump_version, current_version
from tests.factories import PASSWORD, make_proposal, vote
from tests.gndt.builders import make_gndt
from votes.hiding import post_hide

pytestmark = pytest.mark.django_db

POLLER = re.compile(r'<div id="live-poller" hidden data-hx-get="([^"]+)"')


@pytest.fixture
def game(t0):
    return make_gndt(t0)


@pytest.fixture
def proposal(game, t0):
    post = make_proposal(game.players[2], at=t0, title="Proposal: Brighter Lamps")
    vote(post, game.players[3], "for", at=t0 + timedelta(minutes=5))
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        yield post


def poll_address(page: str) -> str:
    found = POLLER.search(page)
    assert found, "the page has no poller"
    return unescape(found.group(1))


def since_in(address: str) -> str:
    return parse_qs(urlsplit(address).query)["since"][0]


def player(name: str = "P05") -> Client:
    client = Client()
    assert client.login(username=name, password=PASSWORD)
    return client


def test_a_pending_matter_page_polls_with_the_version_it_was_rendered_at(proposal):
    """The poller names the content version and the digests of the tally box and the comments, and the page
    holds an empty polite status line."""
    page = Client().get(proposal.get_absolute_url()).content.decode()
    address = poll_address(page)
    assert address.startswith(reverse("matter_live", args=[proposal.slug]) + "?since=")
    assert since_in(address) == str(current_version())
    assert re.search(r"shown=[0-9a-f]{12}(\.[0-9a-f]{12}){2}", address)  # tally, what it says, comments
    assert 'data-hx-trigger="every 5s"' in page
    assert '<p id="live-status" class="visually-hidden" role="status" aria-live="polite"></p>' in page


@pytest.mark.parametrize("reader", ["visitor", "player"])
def test_an_unchanged_game_answers_204_after_reading_the_version_alone(
    proposal, reader, settings, django_assert_num_queries
):
    """Kept in the database (the default without Redis), the version is one small query, and nothing else is
    read: not the session, not the post."""
    client = Client() if reader == "visitor" else player()
    address = poll_address(client.get(proposal.get_absolute_url()).content.decode())
    settings.CONTENT_VERSION_STORE = "database"
    address = re.sub(r"since=[^&]*", f"since={current_version()}", address)  # as a page rendered now
    with django_assert_num_queries(1):
        response = client.get(address)
    assert response.status_code == 204 and response.content == b""
    assert "no-store" in response["Cache-Control"]


def test_an_unchanged_answer_says_nothing_of_which_posts_exist(proposal):
    address = poll_address(Client().get(proposal.get_absolute_url()).content.decode())
    query = address.split("?", 1)[1]
    assert Client().get(f"/posts/no-such-post/live/?{query}").status_code == 204


def test_a_vote_comes_back_as_the_tally_box_and_the_comments_and_is_said_once(game, proposal, t0):
    client = Client()
    address = poll_address(client.get(proposal.get_absolute_url()).content.decode())
    vote(proposal, game.players[4], "against", at=t0 + timedelta(hours=1))
    answer = client.get(address)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'<section data-hx-swap-oob="true" class="tally-box" id="tally-{proposal.slug}">' in html
    assert '<section data-hx-swap-oob="true" class="comments" id="comments">' in html
    assert 'data-hx-swap-oob="innerHTML:#live-status">Tally now 2 FOR, 1 AGAINST.</p>' in html
    assert "matter-reply" not in html  # a comment being written is never cleared while the matter is pending
    assert answer["ETag"].startswith(f'"{current_version()}.')
    again = client.get(poll_address(html))
    assert again.status_code == 204


def test_a_comment_without_a_vote_swaps_the_comments_and_says_nothing(game, proposal, t0):
    client = Client()
    address = poll_address(client.get(proposal.get_absolute_url()).content.decode())
    vote(proposal, game.players[4], None, text="Nice lamps.", at=t0 + timedelta(hours=1))
    html = client.get(address).content.decode()
    assert "Nice lamps." in html and 'id="comments"' in html
    assert "live-status" not in html


def test_a_write_elsewhere_sends_a_new_poller_and_nothing_to_swap(proposal):
    client = Client()
    address = poll_address(client.get(proposal.get_absolute_url()).content.decode())
    bump_version()
    html = client.get(address).content.decode()
    assert "hx-swap-oob" not in html, html
    assert since_in(poll_address(html)) == str(current_version())


def test_a_resolution_closes_the_comments_and_stops_polling(game, proposal, t0):
    from votes.services import matter_resolve

    client = Client()
    address = poll_address(client.get(proposal.get_absolute_url()).content.decode())
    for voter in game.players[:2]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    with time_machine.travel(t0 + timedelta(hours=13), tick=False):
        matter_resolve(post=proposal, admin=game.admin, action="enact")
        html = client.get(address).content.decode()
        assert '<div id="live-poller" hidden></div>' in html
        assert "Comments are closed: this matter has been resolved." in html
        assert 'innerHTML:#live-status">Enacted' in html
        page = client.get(proposal.get_absolute_url()).content.decode()
        assert "data-hx-trigger" not in page and '<div id="live-poller" hidden></div>' in page


def test_a_hidden_post_answers_404_to_all_but_admins(game, proposal, t0):
    """A hidden post is absent from its live answer as from its page (``votes.hiding``)."""
    from votes.services import matter_resolve

    for voter in game.players[:2]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    with time_machine.travel(t0 + timedelta(hours=13), tick=False):
        matter_resolve(post=proposal, admin=game.admin, action="enact")
        post_hide(post=proposal, admin=game.admin, at=t0 + timedelta(hours=13))
        address = f"{reverse('matter_live', args=[proposal.slug])}?since=0"
        assert Client().get(address).status_code == 404
        assert player("P04").get(address).status_code == 404
        assert player("P02").get(address).status_code == 200  # the admin


def test_the_moment_the_page_waited_for_renders_it_again(proposal, t0):
    """The tally box shows its hours open to the tenth: at the next tenth the poll renders, with no write."""
    client = Client()
    address = poll_address(client.get(proposal.get_absolute_url()).content.decode())
    assert "until=" in address
    assert client.get(address).status_code == 204
    with time_machine.travel(t0 + timedelta(hours=2, minutes=7), tick=False):
        html = client.get(address).content.decode()
    assert "2.1 hours" in html and "live-status" not in html


@pytest.mark.parametrize(
    "query",
    [
        "since=abc",
        "since=\u0663",
        "since=" + "9" * 20,
        "until=soon",
        "until=" + "1" * 13,
        "shown=xyz",
        "shown=" + "a" * 13,
    ],
)
def test_a_poll_address_no_page_writes_is_refused_with_400(proposal, query):
    response = Client().get(f"{reverse('matter_live', args=[proposal.slug])}?{query}")
    assert response.status_code == 400
    assert response.content.decode().split(":")[0] in {"since", "until", "shown"}


def test_a_nul_byte_in_the_poll_is_refused_with_400(proposal):
    assert Client().get(f"{reverse('matter_live', args=[proposal.slug])}?since=1%00").status_code == 400


def test_if_none_match_with_the_etag_answers_304(game, proposal, t0):
    client = Client()
    vote(proposal, game.players[4], "against", at=t0 + timedelta(hours=1))
    answer = client.get(reverse("matter_live", args=[proposal.slug]))
    tag = answer["ETag"]
    again = client.get(reverse("matter_live", args=[proposal.slug]), HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again["ETag"] == tag
    vote(proposal, game.players[0], "for", at=t0 + timedelta(hours=1))
    assert client.get(reverse("matter_live", args=[proposal.slug]), HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_the_front_page_watches_its_toteboards_and_the_pending_matters(game, proposal, t0):
    client = player()
    page = client.get("/").content.decode()
    address = poll_address(page)
    assert address.startswith(reverse("front_page_live"))
    assert 'aria-live="polite"' in page
    vote(proposal, game.players[4], "against", at=t0 + timedelta(hours=1))
    html = client.get(address).content.decode()
    assert f'id="toteboard-{proposal.slug}"' in html and 'id="recent-comments"' in html
    assert "Proposal: Brighter Lamps: tally now 2 FOR, 1 AGAINST." in html
    assert 'id="pending"' not in html  # the same matters are pending
    assert client.get(poll_address(html)).status_code == 204
