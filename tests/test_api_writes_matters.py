"""Writing on matters through the API (``blognomic.flows.api.matters``): voting, commenting, posting and editing
with a personal token or a signed-in browser, through the same services and refusals as the site's forms."""

from __future__ import annotations

import html
import json
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from blognomic.community.tokens.issuing import issue_token
from dynasties.models import Game
from ruleset.services import page_create
from tests.factories import PASSWORD, T0, make_idle, make_proposal, make_spectator, make_table, vote
from votes.hiding import post_hide
from votes.limits import CATEGORY_FIXED, EDIT_ONLY_AUTHOR
from votes.models import Amendment, Comment, Post
from votes.posting import ANONYMOUS_ONLY_CFJ, TRIVIAL_NOT_IN_PROFILE
from votes.services import ONLY_PLAYERS_VOTE, VETO_ONLY_EMPEROR, matter_resolve

pytestmark = pytest.mark.django_db

NOW = T0 + timedelta(hours=1)


@pytest.fixture(autouse=True)
def frozen():
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def players():
    """P01 the Emperor, P02 an admin, P03…P05 players."""
    return make_table(5, start=T0)


@pytest.fixture
def proposal(players):
    return make_proposal(players[2], at=T0, title="Proposal: Fog Bells", body="Ring the bells.")


def token(user, *scopes: str) -> str:
    return issue_token(user=user, name="bot", scopes=list(scopes), days=30, now=timezone.now()).secret


def send(method: str, path: str, body, *, secret: str | None = None, client: Client | None = None, **extra):
    client = client or Client()
    if secret is not None:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {secret}"
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return getattr(client, method)(path, data=data, content_type="application/json", **extra)


def signed_in(user, *, csrf: bool) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.login(username=user.username, password=PASSWORD)
    client.get("/")  # the page sets the CSRF cookie, as a browser's first visit does
    return client


class TestVoting:
    def test_a_vote_scoped_token_votes_and_the_answer_has_the_fresh_tally(self, players, proposal):
        """2016: "A Hunter's Vote on a Votable Matter is the last valid voting icon that they have used in any
        comment on that Votable Matter"; the vote shows on the post's page."""
        secret = token(players[3], "vote")
        answer = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "for", "text": "Bells!"}, secret=secret)
        assert answer.status_code == 201, answer.content
        data = answer.json()
        assert data["comment"]["author"] == "P04"
        assert data["comment"]["icon"] == "for"
        assert data["comment"]["url"].startswith(proposal.get_absolute_url() + "#comment-")
        assert data["post"]["full_tally"]["votes"]["P04"] == "for"
        assert data["post"]["tally"]["for"] == 2  # the author's implicit FOR and this one
        page = Client().get(proposal.get_absolute_url()).content.decode()
        assert "Bells!" in page

        changed = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "against"}, secret=secret)
        assert changed.status_code == 201
        assert changed.json()["post"]["full_tally"]["votes"]["P04"] == "against"
        assert changed.json()["post"]["tally"]["against"] == 1

    def test_a_token_without_the_vote_scope_is_refused_and_nothing_is_written(self, players, proposal):
        secret = token(players[3], "comment", "post", "read")
        answer = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "for"}, secret=secret)
        assert answer.status_code == 403
        assert "vote" in answer.json()["detail"]
        assert not Comment.objects.exists()

    def test_a_non_players_token_cannot_vote_as_the_browser_cannot(self, players, proposal):
        """Only players vote: a spectator's vote is refused through the API with the browser's own message."""
        spectator = make_spectator("Onlooker")
        answer = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "for"}, secret=token(spectator, "vote"))
        assert answer.status_code == 403
        assert answer.json()["detail"] == ONLY_PLAYERS_VOTE.format(players="Players")
        browser = Client()
        browser.login(username="Onlooker", password=PASSWORD)
        page = browser.post(f"/posts/{proposal.slug}/comment/", {"icon": "for", "text": ""})
        assert answer.json()["detail"] in html.unescape(page.content.decode())
        assert not Comment.objects.exists()

    def test_an_idle_players_token_cannot_vote(self, players, proposal):
        """2016: "Idle Hunters are not counted as Hunters"; "A non-Hunter never has a Vote"."""
        make_idle(players[4], since=T0)
        answer = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "for"}, secret=token(players[4], "vote"))
        assert answer.status_code == 403
        assert not Comment.objects.exists()

    def test_a_token_cannot_do_more_than_its_owner_may(self, players, proposal):
        """2016: "The Pirate may use VETO as a voting icon": a player's token may not."""
        answer = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "veto"}, secret=token(players[3], "vote"))
        assert answer.status_code == 403
        assert answer.json()["detail"] == VETO_ONLY_EMPEROR.format(emperor="Emperor")
        emperor = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "veto"}, secret=token(players[0], "vote"))
        assert emperor.status_code == 201
        assert emperor.json()["post"]["full_tally"]["vetoed"] is True

    def test_a_resolved_matter_takes_no_more_votes(self, players, proposal):
        for voter in players[:3]:
            vote(proposal, voter, "against", at=T0 + timedelta(minutes=5))
        matter_resolve(post=proposal, admin=players[1], action="fail", now=T0 + timedelta(minutes=30))
        answer = send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "for"}, secret=token(players[3], "vote"))
        assert answer.status_code == 409
        assert "No more comments are accepted" in answer.json()["detail"]
        assert Comment.objects.filter(author=players[3]).count() == 0

    def test_unknown_and_hidden_posts_are_404(self, players):
        admin = players[1]
        story = Post.objects.create(slug="old-story", kind="story", title="Story: Old", author=admin, posted_at=T0)
        post_hide(post=story, admin=admin, at=T0)
        secret = token(players[3], "comment")
        assert send("post", "/api/posts/nothing-here/comments", {"text": "Hi"}, secret=secret).status_code == 404
        hidden = send("post", "/api/posts/old-story/comments", {"text": "Hi"}, secret=secret)
        assert hidden.status_code == 404
        assert "old-story" in hidden.json()["detail"]
        assert (
            send("post", "/api/posts/old-story/comments", {"text": "Hi"}, secret=token(admin, "comment")).status_code
            == 201
        )


class TestCommenting:
    def test_a_comment_scoped_token_comments_without_a_vote(self, players, proposal):
        answer = send(
            "post",
            f"/api/posts/{proposal.slug}/comments",
            {"text": "Which bells?"},
            secret=token(players[4], "comment"),
        )
        assert answer.status_code == 201
        assert answer.json()["comment"]["icon"] is None
        assert "P05" not in answer.json()["post"]["full_tally"]["votes"]
        assert "Which bells?" in Client().get(proposal.get_absolute_url()).content.decode()

    def test_a_vote_scoped_token_may_not_comment_without_voting(self, players, proposal):
        answer = send("post", f"/api/posts/{proposal.slug}/comments", {"text": "Hi"}, secret=token(players[4], "vote"))
        assert answer.status_code == 403
        assert not Comment.objects.exists()

    @pytest.mark.parametrize(
        ("body", "detail"),
        [
            ({"text": "   "}, "text"),
            ({"text": "a\x00b"}, "text"),
            ({"text": "x" * (100 * 1024 + 1)}, "text"),
            ({"text": "é" * (60 * 1024)}, "at most 100 KB"),
            ({}, "text"),
            ({"text": ["a list"]}, "text"),
        ],
    )
    def test_bad_input_is_400_and_writes_nothing(self, players, proposal, body, detail):
        answer = send("post", f"/api/posts/{proposal.slug}/comments", body, secret=token(players[4], "comment"))
        assert answer.status_code == 400
        assert detail in answer.json()["detail"]
        assert not Comment.objects.exists()

    def test_what_is_not_json_or_not_text_is_400(self, players, proposal):
        secret = token(players[4], "vote", "comment")
        path = f"/api/posts/{proposal.slug}"
        for body in ("{not json", '{"text": "\\ud800"}', b"\xff\xfe"):
            assert send("post", f"{path}/comments", body, secret=secret).status_code == 400, body
        assert send("post", f"{path}/votes", {"icon": "FOR!"}, secret=secret).status_code == 400
        form = Client().post(f"{path}/comments", {"text": "a form"}, HTTP_AUTHORIZATION=f"Bearer {secret}")
        assert form.status_code == 400
        assert "JSON" in form.json()["detail"]
        assert send("post", f"{path}/votes", {"icon": "for", "trivial": True}, secret=secret).status_code == 409
        assert not Comment.objects.exists()

    def test_a_body_over_the_sites_limit_is_refused_in_json(self, players, proposal, settings):
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
        path = f"/api/posts/{proposal.slug}/comments"
        answer = send("post", path, {"text": "x" * 2000}, secret=token(players[4], "comment"))
        assert answer.status_code == 413
        assert "at most 1,000 bytes" in answer.json()["detail"]
        assert not Comment.objects.exists()


class TestTheBrowsersSession:
    def test_a_cookie_without_csrf_is_refused_and_with_it_works(self, players, proposal):
        client = signed_in(players[3], csrf=True)
        path = f"/api/posts/{proposal.slug}/votes"
        assert send("post", path, {"icon": "for"}, client=client).status_code == 403
        assert not Comment.objects.exists()
        csrf = client.cookies["csrftoken"].value
        answer = send("post", path, {"icon": "for"}, client=client, HTTP_X_CSRFTOKEN=csrf)
        assert answer.status_code == 201
        assert answer.json()["comment"]["author"] == "P04"

    def test_a_token_acts_for_its_owner_whatever_cookie_rides_along(self, players, proposal):
        client = signed_in(players[3], csrf=True)
        csrf = client.cookies["csrftoken"].value
        answer = send(
            "post",
            f"/api/posts/{proposal.slug}/comments",
            {"text": "From the bot"},
            client=client,
            secret=token(players[4], "comment"),
            HTTP_X_CSRFTOKEN=csrf,
        )
        assert answer.status_code == 201
        assert Comment.objects.get().author == players[4]

    def test_without_any_credentials_the_answer_is_401(self, proposal):
        assert send("post", f"/api/posts/{proposal.slug}/votes", {"icon": "for"}).status_code == 401
        assert not Comment.objects.exists()


def post_body(**fields) -> dict:
    return {"kind": "proposal", "title": "Proposal: Louder Bells", "body": "Ring louder.", **fields}


class TestPosting:
    def test_a_post_scoped_token_posts_a_proposal_that_the_blog_shows(self, players):
        answer = send("post", "/api/posts", post_body(), secret=token(players[3], "post"))
        assert answer.status_code == 201, answer.content
        data = answer.json()
        assert data["author"] == "P04"
        assert data["status"] == "pending"
        assert data["tally"]["for"] == 1
        made = Post.objects.get(slug=data["id"])
        assert Client().get(data["url"]).status_code == 200
        assert made.title in Client().get("/").content.decode()

    def test_the_proposal_limit_holds_as_in_the_browser(self, players):
        """2016: a Hunter may submit a Proposal "unless the Hunter already has 2 Proposals pending, or has
        already made 3 Proposals that day"."""
        secret = token(players[3], "post")
        for n in range(2):
            assert send("post", "/api/posts", post_body(title=f"Proposal: Bell {n}"), secret=secret).status_code == 201
        third = send("post", "/api/posts", post_body(title="Proposal: Bell 3"), secret=secret)
        assert third.status_code == 409
        assert Post.objects.count() == 2
        browser = Client()
        browser.login(username="P04", password=PASSWORD)
        page = browser.post("/new/", {"kind": "proposal", "title": "Proposal: Bell 3", "body": "x"})
        assert page.status_code == 400
        assert third.json()["detail"] in html.unescape(page.content.decode())
        assert Post.objects.count() == 2

    def test_a_token_without_the_post_scope_or_a_non_player_posts_nothing(self, players):
        assert send("post", "/api/posts", post_body(), secret=token(players[3], "vote", "comment")).status_code == 403
        spectator = make_spectator("Onlooker")
        answer = send("post", "/api/posts", post_body(), secret=token(spectator, "post"))
        assert answer.status_code == 403
        assert "Only active" in answer.json()["detail"]
        assert not Post.objects.exists()

    @pytest.mark.parametrize(
        ("fields", "detail"),
        [
            ({"title": "Proposal:   "}, "title"),
            ({"title": "Proposal: " + "x" * 300}, "title"),
            ({"kind": "ascension"}, "kind"),
            ({"kind": "nonsense"}, "kind"),
            ({"body": "x" * (100 * 1024 + 1)}, "body"),
            ({"body": "é" * (60 * 1024)}, "at most 100 KB"),
            ({"title": "Proposal: Bells\x00"}, "title"),
            ({"amendment": {"operations": [{"op": "explode"}]}}, "operations"),
            ({"amendment": {"operations": [{"op": "rule_repeal", "rule": "1", "why": "x"}]}}, "operations"),
            (
                {"amendment": {"operations": [{"op": "cell_add", "row": "P04", "column": "M", "delta": 10**20}]}},
                "delta",
            ),
            ({"amendment": {"operations": [], "ruleset_revision": 10**20}}, "ruleset_revision"),
            ({"amendment": {"operations": [], "ruleset_revision": "٣"}}, "ruleset_revision"),
        ],
    )
    def test_bad_input_is_400_and_posts_nothing(self, players, fields, detail):
        answer = send("post", "/api/posts", post_body(**fields), secret=token(players[3], "post"))
        assert answer.status_code == 400, answer.content
        assert detail in answer.json()["detail"]
        assert not Post.objects.exists()

    @pytest.mark.parametrize(
        ("fields", "detail"),
        [
            ({"trivial": True}, TRIVIAL_NOT_IN_PROFILE),
            ({"kind": "post", "anonymous": True}, ANONYMOUS_ONLY_CFJ),
            ({"kind": "matter", "title": "Petition: More bells"}, "no kinds of votable matter"),
            (
                {"amendment": {"operations": [{"op": "rule_repeal", "rule": "9.9"}], "ruleset_revision": 7}},
                "revision 7",
            ),
            ({"amendment": {"operations": [{"op": "rule_add", "title": "Bells"}]}}, "say where it goes"),
            ({"kind": "story", "amendment": {"operations": [{"op": "row_add", "row": "The Pot"}]}}, "amendment"),
        ],
    )
    def test_what_the_rules_refuse_now_is_409_and_posts_nothing(self, players, fields, detail):
        answer = send("post", "/api/posts", post_body(**fields), secret=token(players[3], "post"))
        assert answer.status_code == 409, answer.content
        assert detail in answer.json()["detail"]
        assert not Post.objects.exists()

    def test_a_proposal_carries_its_amendment(self, players):
        page_create(
            title="Ruleset",
            kind="ruleset",
            author=players[1],
            summary="Start",
            now=T0,
            check_permission=False,
            text="== Core Rules ==\n=== Ruleset ===\nThe rules.\n=== Fog ===\nBells ring in fog.",
        )
        operations = [{"op": "rule_replace_passage", "rule": "rule-fog", "old": "ring", "new": "toll"}]
        answer = send(
            "post", "/api/posts", post_body(amendment={"operations": operations}), secret=token(players[3], "post")
        )
        assert answer.status_code == 201, answer.content
        amendment = Amendment.objects.get(post__slug=answer.json()["id"])
        assert amendment.operations == operations
        assert amendment.base_ruleset_revision == 1

    def test_an_anonymous_call_for_judgement_never_names_its_author(self, players):
        """2008: "If the Villager wishes, they may post anonymously"; no answer names them."""
        game = Game.load()
        game.profile = "2008"
        game.save()
        body = {"kind": "cfj", "title": "Call for Judgement: Who rang?", "body": "Someone.", "anonymous": True}
        answer = send("post", "/api/posts", body, secret=token(players[3], "post"))
        assert answer.status_code == 201, answer.content
        assert answer.json()["author"] is None
        assert "P04" not in answer.content.decode()
        assert "P04" not in Client().get(f"/api/posts/{answer.json()['id']}").content.decode()

    def test_in_2016_no_post_is_anonymous(self, players):
        body = {"kind": "cfj", "title": "Call for Judgement: Who rang?", "anonymous": True}
        answer = send("post", "/api/posts", body, secret=token(players[3], "post"))
        assert answer.status_code == 409
        assert answer.json()["detail"] == ANONYMOUS_ONLY_CFJ


class TestEditing:
    def test_the_author_edits_within_the_window_and_the_page_shows_it(self, players):
        made = make_proposal(players[3], at=NOW - timedelta(minutes=5), title="Proposal: Fog Bells")
        answer = send(
            "patch", f"/api/posts/{made.slug}", {"body": "Ring them twice."}, secret=token(players[3], "post")
        )
        assert answer.status_code == 200, answer.content
        assert answer.json()["body"] == "Ring them twice."
        assert answer.json()["title"] == "Proposal: Fog Bells"  # what was not sent is kept
        assert "Ring them twice." in Client().get(made.get_absolute_url()).content.decode()

    def test_another_players_post_is_not_theirs_to_edit(self, players, proposal):
        answer = send("patch", f"/api/posts/{proposal.slug}", {"body": "Mine now."}, secret=token(players[4], "post"))
        assert answer.status_code == 403
        assert answer.json()["detail"] == EDIT_ONLY_AUTHOR
        proposal.refresh_from_db()
        assert proposal.body == "Ring the bells."

    def test_once_another_player_has_voted_the_post_is_fixed(self, players, proposal):
        """2016: "If no Hunter has commented on it ... an official post may be altered ... by its author"."""
        vote(proposal, players[4], "for", at=T0 + timedelta(minutes=1))
        answer = send("patch", f"/api/posts/{proposal.slug}", {"body": "Changed."}, secret=token(players[2], "post"))
        assert answer.status_code == 403
        proposal.refresh_from_db()
        assert proposal.body == "Ring the bells."

    def test_the_category_is_fixed_after_fifteen_minutes(self, players, proposal):
        """2016: official posts "can never be changed from one category to another ... if they have been posted
        for more than fifteen minutes"."""
        answer = send("patch", f"/api/posts/{proposal.slug}", {"kind": "cfj"}, secret=token(players[2], "post"))
        assert answer.status_code == 409
        assert answer.json()["detail"] == CATEGORY_FIXED.format(minutes=15)
        proposal.refresh_from_db()
        assert proposal.kind == "proposal"

    def test_a_vote_scoped_token_cannot_edit(self, players, proposal):
        answer = send("patch", f"/api/posts/{proposal.slug}", {"body": "x"}, secret=token(players[2], "vote"))
        assert answer.status_code == 403
        proposal.refresh_from_db()
        assert proposal.body == "Ring the bells."
