"""Cached pages are never older than the data: each main page is read, changed through the real service (a
vote, a comment, an enactment, a Ruleset edit, a GNDT update, an idling, a beat job) and read again, by a
visitor and by a player; time alone changes what a page says; a page is never shown to the wrong reader."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import MessageEncoder
from django.core.cache import cache, caches
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import resolve

from blognomic.flows.roster.services import player_idle
from blognomic.web import page_cache, private_pages
from blognomic.web.freshness import bump_reader_version
from blognomic.web.page_cache import page_key, placeholder
from blognomic.web.sessions import SessionStore
from gndt.models import Column
from ruleset.services import revision_add, ruleset_import_plaintext
from tests.factories import PASSWORD, make_proposal, vote
from tests.gndt.builders import make_gndt, update
from votes.jobs import flag_resolvable_matters
from votes.services import comment_add, matter_resolve

pytestmark = pytest.mark.django_db

RULESET = "Core Rules\n\nLamps\n\nEvery Keeper tends one lamp.\n"


def text_of(response) -> str:
    assert response.status_code == 200, response.status_code
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def shows_for_votes(text: str, count: int) -> bool:
    """The front page's toteboard says "FOR 2", the post's tally box "For (2)"."""
    return f"FOR {count}" in text or f"For ({count})" in text


def signed_in_as(name: str, response) -> bool:
    return f"{name} Log out" in text_of(response)


def logged_in(name: str) -> Client:
    client = Client()
    assert client.login(username=name, password=PASSWORD)
    return client


@pytest.fixture
def game(t0):
    game = make_gndt(t0)
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        yield game


@pytest.fixture
def proposal(game, t0):
    post = make_proposal(game.players[2], at=t0, title="Proposal: Brighter Lamps")
    vote(post, game.players[3], "for", at=t0 + timedelta(minutes=5))
    return post


def readers(game) -> dict[str, Client]:
    return {"visitor": Client(), "player": logged_in(game.players[4].username)}


def test_a_page_read_twice_is_served_from_the_cache(game, proposal, django_assert_num_queries):
    visitor, player = Client(), logged_in(game.players[4].username)
    for client in (visitor, player):
        client.get("/")
        client.get(proposal.get_absolute_url())
    with django_assert_num_queries(0):
        assert shows_for_votes(text_of(visitor.get("/")), 2)
    with django_assert_num_queries(1):  # the session, to know who is reading; the account is not loaded
        assert shows_for_votes(text_of(player.get(proposal.get_absolute_url())), 2)


class CacheCalls:
    """Every call this thread makes to the default cache, by operation (a round trip to Redis each). The local
    memory cache's ``get_many`` calls its own ``get``: only the outermost call counts."""

    OPERATIONS = ("get", "get_many", "set", "set_many", "add", "delete", "delete_many", "incr", "touch", "has_key")

    def __init__(self, monkeypatch):
        self.calls: list[str] = []
        self._depth = 0
        backend = caches["default"]
        for name in self.OPERATIONS:
            monkeypatch.setattr(backend, name, self._counted(name, getattr(backend, name)))

    def _counted(self, name, operation):
        def counted(*args, **kwargs):
            if not self._depth:
                self.calls.append(name)
            self._depth += 1
            try:
                return operation(*args, **kwargs)
            finally:
                self._depth -= 1

        return counted


@pytest.fixture
def cached_sessions(settings):
    """As deployed with Redis: the content version and the sessions' copies in the cache. Its tests commit
    their writes, as the site does: the version in the cache moves only when a transaction commits."""
    settings.CONTENT_VERSION_STORE = "cache"
    settings.SESSION_ENGINE = "blognomic.web.sessions"


@pytest.mark.django_db(transaction=True)
def test_a_players_cached_page_reads_the_cache_twice_and_the_database_never(
    game, proposal, cached_sessions, monkeypatch, django_assert_num_queries
):
    """Their session is read beside the content version, and their own version beside the page: two round
    trips to Redis, as for a visitor (it was three)."""
    visitor, player = Client(), logged_in(game.players[4].username)
    for client in (visitor, player):
        client.get(proposal.get_absolute_url())
    for client, name in ((visitor, None), (player, game.players[4].username)):
        calls = CacheCalls(monkeypatch)
        with django_assert_num_queries(0):
            response = client.get(proposal.get_absolute_url())
        assert shows_for_votes(text_of(response), 2)
        assert name is None or signed_in_as(name, response)
        assert calls.calls == ["get_many", "get_many"], name
        monkeypatch.undo()


@pytest.mark.django_db(transaction=True)
def test_a_players_cached_page_is_rendered_again_once_their_own_version_moves(game, proposal, cached_sessions):
    """The reader's own version is kept in their page, not in its key: a page from before their read markers
    moved is not served again, and the one rendered after is."""
    player = logged_in(game.players[4].username)
    player.get("/")
    assert "X-Page-Cache" not in player.get("/")
    bump_reader_version(game.players[4].pk)
    with CaptureQueriesContext(connection) as rendering:
        assert signed_in_as(game.players[4].username, player.get("/"))
    assert len(rendering.captured_queries) > 1, "the page was rendered again"
    with CaptureQueriesContext(connection) as served:
        assert signed_in_as(game.players[4].username, player.get("/"))
    assert len(served.captured_queries) == 0, "and then served from the cache"


@pytest.mark.django_db(transaction=True)
def test_a_session_not_in_the_cache_is_read_from_the_database(game, proposal, cached_sessions):
    """The cache lost the session's copy (evicted, Redis restarted): the player is still who they are."""
    player = logged_in(game.players[4].username)
    player.get("/")
    cache.delete(SessionStore(player.session.session_key).cache_key)
    assert signed_in_as(game.players[4].username, player.get("/"))


def test_a_cached_page_resolves_its_address_once(game, monkeypatch):
    """The page cache keeps the URL match on the request, and the middleware that marks personal pages private
    reads it there: resolving an address late in the URL configuration was a fifth of a cached hit."""
    player = logged_in(game.players[4].username)
    player.get("/messages/")
    resolved = []

    def counted(path, urlconf=None):
        resolved.append(path)
        return resolve(path, urlconf)

    monkeypatch.setattr(page_cache, "resolve", counted)
    monkeypatch.setattr(private_pages, "resolve", counted)
    with CaptureQueriesContext(connection) as served:
        response = player.get("/messages/")
    assert len(served.captured_queries) == 1, "served from the cache (the session's query alone)"
    assert resolved == ["/messages/"]
    assert response["Cache-Control"] == "private, no-store", "still marked as the reader's own page"


@pytest.mark.parametrize("reader", ["visitor", "player"])
def test_a_vote_shows_at_once_on_the_front_page_the_post_and_its_tally_box(game, proposal, reader, t0):
    client = readers(game)[reader]
    pages = ["/", proposal.get_absolute_url(), f"{proposal.get_absolute_url()}tally/"]
    for url in pages:
        assert shows_for_votes(text_of(client.get(url)), 2), url
    vote(proposal, game.players[1], "for", at=t0 + timedelta(hours=1))
    for url in pages:
        assert shows_for_votes(text_of(client.get(url)), 3), url


@pytest.mark.parametrize("reader", ["visitor", "player"])
def test_a_comment_shows_on_the_post_and_in_the_sidebar(game, proposal, reader, t0):
    client = readers(game)[reader]
    assert "Lamp oil is dear" not in text_of(client.get(proposal.get_absolute_url()))
    assert "Lamp oil is dear" not in text_of(client.get("/"))
    comment_add(post=proposal, author=game.players[2], text="Lamp oil is dear", now=t0 + timedelta(hours=1))
    assert "Lamp oil is dear" in text_of(client.get(proposal.get_absolute_url()))
    assert "Lamp oil is dear" in text_of(client.get("/"))


def test_an_enactment_shows_on_every_page_that_lists_the_matter(game, proposal, t0):
    admin = logged_in(game.admin.username)
    visitor = Client()
    category = "/category/proposals/"
    assert "Can be enacted" not in text_of(visitor.get(category))
    assert "Nothing is pending" not in text_of(admin.get("/admin-panel/"))
    assert "status-pending" in visitor.get("/").content.decode()
    for voter in game.players[:3]:
        vote(proposal, voter, "for", at=t0 + timedelta(minutes=30))
    matter_resolve(post=proposal, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    assert "Enacted" in text_of(visitor.get(proposal.get_absolute_url()))
    assert "Enacted" in text_of(visitor.get(category))
    front = visitor.get("/").content.decode()
    assert "status-enacted" in front and "status-pending" not in front
    assert "Nothing is pending" in text_of(admin.get("/admin-panel/"))


@pytest.mark.parametrize("reader", ["visitor", "player"])
def test_a_ruleset_edit_shows_on_the_ruleset_and_its_history(game, reader, t0):
    page = ruleset_import_plaintext(text=RULESET, now=t0).page
    client = readers(game)[reader]
    url = page.get_absolute_url()
    assert "one lamp" in text_of(client.get(url))
    history = text_of(client.get(f"{url}history/"))
    revision_add(
        page=page,
        author=game.admin,
        text=RULESET.replace("one lamp", "two lamps"),
        summary="More lamps",
        now=t0 + timedelta(hours=1),
    )
    assert "two lamps" in text_of(client.get(url))
    assert "More lamps" in text_of(client.get(f"{url}history/")) and "More lamps" not in history


@pytest.mark.parametrize("reader", ["visitor", "player"])
def test_a_gndt_update_shows_on_the_table_and_the_log(game, reader, t0):
    client = readers(game)[reader]
    assert "Polished the brass" not in text_of(client.get("/gndt/log/"))
    # The value as a cell shows it: the digits alone may be part of a row's or a cell's id on PostgreSQL, whose
    # sequences go on counting across the suite's rolled-back tests.
    shown = ">317<"
    assert shown not in client.get("/gndt/").content.decode()
    update(game, game.admin, {("P03", "Money"): "317"}, now=t0 + timedelta(hours=1), comment="Polished the brass")
    assert shown in client.get("/gndt/").content.decode()
    assert "Polished the brass" in text_of(client.get("/gndt/log/"))


def test_a_hidden_column_is_cached_for_who_may_see_it_alone(game, t0):
    update(game, game.emperor, {("P03", "Role"): "Werewolf"}, now=t0 + timedelta(hours=1))
    assert Column.objects.get(name="Role").hidden
    emperor, player, visitor = logged_in(game.emperor.username), logged_in("P04"), Client()
    assert "Werewolf" in emperor.get("/gndt/").content.decode()
    assert "Werewolf" not in player.get("/gndt/").content.decode()
    assert "Werewolf" not in visitor.get("/gndt/").content.decode()
    assert "Werewolf" in emperor.get("/gndt/").content.decode()


@pytest.mark.parametrize("reader", ["visitor", "player"])
def test_idling_a_player_changes_the_quorum_on_every_page(game, proposal, reader, t0):
    client = readers(game)[reader]
    assert "There are 5 active" in text_of(client.get("/"))
    assert "There are 5 active" in text_of(client.get(proposal.get_absolute_url()))
    player_idle(user=game.players[3], by=game.players[3], now=t0 + timedelta(hours=1))
    assert "There are 4 active" in text_of(client.get("/"))
    assert "There are 4 active" in text_of(client.get(proposal.get_absolute_url()))


@pytest.mark.parametrize("reader", ["visitor", "player"])
def test_a_new_proposal_shows_in_search_the_api_and_the_game_as_it_stood(game, proposal, reader, t0):
    client = readers(game)[reader]
    moment = (t0 + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%MZ")
    pages = ["/search/?q=Harbour", "/api/posts", f"/at/{moment}/"]
    for url in pages:
        assert "Harbour Bells" not in text_of(client.get(url)), url
    make_proposal(game.players[1], at=t0 + timedelta(hours=1), title="Proposal: Harbour Bells")
    for url in pages:
        assert "Harbour Bells" in text_of(client.get(url)), url


def test_idling_a_player_shows_on_the_roster_and_in_the_api(game, t0):
    visitor, admin = Client(), logged_in(game.admin.username)
    name = game.players[3].username

    def idle_in_api() -> bool:
        return next(p["idle"] for p in visitor.get("/api/players").json()["players"] if p["name"] == name)

    def idle_rows_on_roster() -> int:
        return admin.get("/roster/").content.decode().count("<td>Idle</td>")

    assert (idle_in_api(), idle_rows_on_roster()) == (False, 0)
    player_idle(user=game.players[3], by=game.players[3], now=t0 + timedelta(hours=1))
    assert (idle_in_api(), idle_rows_on_roster()) == (True, 1)


def test_a_beat_job_shows_its_notices_to_the_admin_at_once(game, proposal, t0):
    admin = logged_in(game.admin.username)
    assert 'class="badge"' not in admin.get("/").content.decode()
    for voter in game.players[:3]:
        vote(proposal, voter, "for", at=t0 + timedelta(minutes=30))
    flag_resolvable_matters(now=t0 + timedelta(hours=13))
    assert 'class="badge"' in admin.get("/").content.decode()


def test_a_matter_becoming_enactable_with_time_alone_shows_at_that_moment_without_any_write(game, t0, settings):
    """Even with a day's bucket the cached page lasts only until the verdict it shows changes."""
    settings.PAGE_CACHE_SECONDS = 24 * 3600
    post = make_proposal(game.players[2], at=t0 + timedelta(hours=1), title="Proposal: Slow Burn")
    for voter in game.players[:4]:
        vote(post, voter, "for", at=t0 + timedelta(hours=1, minutes=5))
    client = Client()
    with time_machine.travel(t0 + timedelta(hours=12, minutes=30), tick=False):
        assert "Cannot be resolved yet" in text_of(client.get("/"))
        assert "Cannot be resolved yet" in text_of(client.get("/"))  # from the cache
        assert "Can be enacted now" not in text_of(client.get(post.get_absolute_url()))
    with time_machine.travel(t0 + timedelta(hours=13, seconds=2), tick=False):
        assert "Can be enacted now" in text_of(client.get("/"))
        assert "Can be enacted now" in text_of(client.get(post.get_absolute_url()))


def test_a_pending_matter_turns_old_on_time(game, t0, settings):
    settings.PAGE_CACHE_SECONDS = 24 * 3600
    post = make_proposal(game.players[2], at=t0 - timedelta(hours=47, minutes=59), title="Proposal: Ageing")
    client = Client()
    with time_machine.travel(t0 - timedelta(minutes=30), tick=False):
        before = client.get("/").content.decode()
    with time_machine.travel(t0 + timedelta(minutes=2), tick=False):
        after = client.get("/").content.decode()
    assert 'class="old"' not in before and 'class="old"' in after and post.title in after


def test_a_session_from_before_a_password_change_is_never_served_the_players_pages(game):
    """The cache knows a reader by what their session claims; a claim Django would refuse finds nothing."""
    player = game.players[4]
    stolen = logged_in(player.username)
    assert signed_in_as(player.username, stolen.get("/"))
    player.set_password("Another lamp 47")
    player.save()
    own = Client()
    assert own.login(username=player.username, password="Another lamp 47")
    for _ in range(2):  # rendered, then served from the cache
        assert signed_in_as(player.username, own.get("/"))
    for _ in range(2):
        page = stolen.get("/")
        assert not signed_in_as(player.username, page) and "Log in" in text_of(page)


def test_an_account_that_may_no_longer_log_in_reads_the_visitors_pages(game):
    player = game.players[4]
    client = logged_in(player.username)
    assert signed_in_as(player.username, client.get("/"))
    player.is_active = False
    player.save(update_fields=["is_active"])
    for _ in range(2):
        assert not signed_in_as(player.username, client.get("/"))


def test_each_reader_gets_their_own_csrf_token_from_a_cached_page(game):
    tokens = {}
    for name in ("first", "second"):
        client = Client(enforce_csrf_checks=True)
        html = client.get("/").content.decode()
        assert placeholder() not in html
        token = re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)
        tokens[name] = token
        # The token works with this reader's own cookie: the login form answers instead of refusing (403).
        response = client.post(
            "/accounts/login/", {"username": "nobody", "password": "x", "csrfmiddlewaretoken": token}
        )
        assert response.status_code == 200
    assert tokens["first"] != tokens["second"]


def test_a_page_with_a_message_for_its_reader_is_not_served_from_the_cache(game, proposal):
    player = logged_in(game.players[4].username)
    player.get(proposal.get_absolute_url())
    session = player.session
    session["_messages"] = MessageEncoder().encode([Message(constants.SUCCESS, "Lamp lit.")])
    session.save()
    assert "Lamp lit." in player.get(proposal.get_absolute_url()).content.decode()
    assert "Lamp lit." not in player.get(proposal.get_absolute_url()).content.decode()


def test_an_htmx_request_and_a_plain_one_are_cached_apart(game, proposal):
    factory = RequestFactory()
    plain, fragment = factory.get("/"), factory.get("/", HTTP_HX_REQUEST="true")
    for request in (plain, fragment):
        request.user, request.session = AnonymousUser(), {}
    assert page_key(plain) != page_key(fragment)
    client, url = Client(), f"{proposal.get_absolute_url()}tally/"
    first = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert client.get(url, HTTP_HX_REQUEST="true").content.decode() == first


def test_every_page_the_cache_lists_is_a_view_of_the_site():
    """A misspelt or renamed entry would silently leave a page uncached."""
    from django.urls import get_resolver

    from blognomic.web.page_cache import CACHED_PAGES

    names = set()

    def walk(resolver, namespace: str = "") -> None:
        for pattern in resolver.url_patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern, f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace)
            elif pattern.name:
                names.add(namespace + pattern.name)

    walk(get_resolver())
    assert CACHED_PAGES <= names, sorted(CACHED_PAGES - names)
