"""GNDT updates, declared actions and the admin's resolve through the API (``blognomic.community.api.writes``):
each goes through the browser's service, within its token's scope and its owner's rights, and what it answers
holds nothing its writer may not see."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.urls import reverse

from blognomic.community.api.views import JSON_ONLY
from blognomic.community.tokens.issuing import TokenError, issue_token
from gndt.models import Update
from gndt.services import gndt_action_save
from gndt.services.updates import COMMENT_TOO_LONG, NOT_A_PLAYER, OWN_SECRET_READ_ONLY, UNKNOWN_COLUMN
from tests.factories import PASSWORD, T0, make_proposal, make_spectator, vote
from tests.gndt.builders import add_calling, make_gndt, update, value
from votes.hiding import post_hide
from votes.models import Post, Resolution, Status
from votes.services import NOT_AN_ADMIN, matter_resolve

pytestmark = pytest.mark.django_db

MINE = "Oracle"  # P03's own Calling: P03, the Emperor and the admins see it
THEIRS = "Lycanthrope"  # P04's Calling
SECRET_ROLE = "Werewolf"  # P04's Role: a hidden column only the Emperor and the admins see
UPDATES = "/api/gndt/updates"
NOW = T0 + timedelta(hours=1)


@pytest.fixture
def clock():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture
def game(clock):
    game = make_gndt(T0)
    add_calling(game, at=T0)
    update(game, game.emperor, {("P03", "Calling"): MINE}, now=T0 + timedelta(minutes=1))
    update(game, game.emperor, {("P04", "Calling"): THEIRS}, now=T0 + timedelta(minutes=2))
    update(game, game.emperor, {("P04", "Role"): SECRET_ROLE}, now=T0 + timedelta(minutes=3))
    return game


def token(user, *scopes: str) -> dict:
    issued = issue_token(user=user, name="bot", scopes=list(scopes), days=30, now=NOW)
    return {"HTTP_AUTHORIZATION": f"Bearer {issued.secret}"}


def post_json(path: str, body, *, client: Client | None = None, **headers):
    data = body if isinstance(body, str) else json.dumps(body)
    return (client or Client()).post(path, data, content_type="application/json", **headers)


def change(row: str, column: str, new: str, seen: str) -> dict:
    return {"row": row, "column": column, "value": new, "seen": seen}


def logged_in(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    assert client.login(username=user.username, password=PASSWORD)
    return client


def secrets_absent(answer) -> None:
    text = answer.content.decode()
    assert THEIRS not in text and SECRET_ROLE not in text


class TestUpdates:
    def test_a_gndt_token_updates_cells_as_the_edit_form_does_and_the_table_shows_it(self, game):
        """The answer is the update as its writer sees it in the log, and the rows it changed; the table page
        and the log show it afterwards."""
        p03 = game.player("P03")
        answer = post_json(
            UPDATES,
            {"changes": [change("P03", "Money", "280", "300")], "comment": "Bought a lamp"},
            **token(p03, "gndt"),
        )
        assert answer.status_code == 201, answer.content
        body = answer.json()
        assert body["by"] == "P03" and body["comment"] == "Bought a lamp" and body["action"] is None
        assert body["changes"] == [{"row": "P03", "column": "Money", "old": "300", "new": "280"}]
        assert body["rows"][0]["name"] == "P03" and body["rows"][0]["values"]["Money"] == "280"
        # Their own Calling is theirs to see, and so is in their row.
        assert body["rows"][0]["values"]["Calling"] == MINE
        assert value(game, "P03", "Money") == "280"
        assert Update.objects.get(pk=body["id"]).by == p03
        assert "Bought a lamp" in Client().get(reverse("gndt_log")).content.decode()
        assert Client().get(body["url"]).status_code == 200
        table = Client().get(reverse("gndt_table")).content.decode()
        assert ">280<" in table

    def test_dice_in_the_comment_are_rolled_and_answered(self, game):
        answer = post_json(UPDATES, {"comment": "Raiding: DICE6"}, **token(game.player("P03"), "gndt"))
        assert answer.status_code == 201
        assert answer.json()["rolls"][0].startswith("DICE6")
        assert answer.json()["changes"] == [] and answer.json()["rows"] == []

    def test_a_token_without_the_gndt_scope_is_refused_and_writes_nothing(self, game):
        before = Update.objects.count()
        answer = post_json(
            UPDATES, {"changes": [change("P03", "Money", "1", "300")]}, **token(game.player("P03"), "vote", "read")
        )
        assert answer.status_code == 403
        assert "gndt" in answer.json()["detail"]
        assert value(game, "P03", "Money") == "300" and Update.objects.count() == before

    def test_without_credentials_the_answer_is_401(self, game):
        answer = post_json(UPDATES, {"changes": [change("P03", "Money", "1", "300")]})
        assert answer.status_code == 401
        assert value(game, "P03", "Money") == "300"

    def test_an_account_that_is_not_a_player_is_refused_403(self, game):
        spectator = make_spectator("Onlooker")
        answer = post_json(UPDATES, {"changes": [change("P03", "Money", "1", "300")]}, **token(spectator, "gndt"))
        assert answer.status_code == 403
        assert answer.json()["detail"] == NOT_A_PLAYER.format(players="players")
        assert value(game, "P03", "Money") == "300"

    def test_the_browser_needs_its_csrf_token(self, game):
        """Signed in by cookie, a write without the CSRF token is refused; with it, it is made."""
        client = logged_in(game.player("P03"), csrf=True)
        body = {"changes": [change("P03", "Money", "280", "300")]}
        assert post_json(UPDATES, body, client=client).status_code == 403
        assert value(game, "P03", "Money") == "300"
        client.get(reverse("gndt_edit"))  # the page sets the CSRF cookie, as a browser would have it
        answer = post_json(UPDATES, body, client=client, HTTP_X_CSRFTOKEN=client.cookies["csrftoken"].value)
        assert answer.status_code == 201
        assert value(game, "P03", "Money") == "280"


class TestConflicts:
    def test_a_cell_changed_since_it_was_read_is_a_409_saying_what_and_who_and_nothing_is_overwritten(self, game):
        """Two edits of the same cell never silently overwrite each other: the second sees a conflict and what
        changed."""
        first = post_json(
            UPDATES, {"changes": [change("P03", "Money", "250", "300")]}, **token(game.player("P04"), "gndt")
        )
        assert first.status_code == 201
        before = Update.objects.count()
        second = post_json(
            UPDATES, {"changes": [change("P03", "Money", "280", "300")]}, **token(game.player("P03"), "gndt")
        )
        assert second.status_code == 409
        detail = second.json()["detail"]
        assert "P03’s Money is now “250”, not “300” as you saw it" in detail and "changed by P04" in detail
        assert value(game, "P03", "Money") == "250" and Update.objects.count() == before

    def test_a_cell_the_change_was_based_on_is_checked_too(self, game):
        update(game, game.admin, {("The Pot", "Money"): "10"}, now=NOW)
        answer = post_json(
            UPDATES,
            {
                "changes": [change("P03", "Money", "290", "300")],
                "based_on": [{"row": "The Pot", "column": "Money", "seen": "300"}],
            },
            **token(game.player("P03"), "gndt"),
        )
        assert answer.status_code == 409
        assert "The Pot’s Money is now “10”" in answer.json()["detail"]
        assert value(game, "P03", "Money") == "300"


class TestSecrets:
    def test_a_hidden_column_does_not_exist_for_a_player_and_its_value_is_never_told(self, game):
        p03 = token(game.player("P03"), "gndt")
        for body in (
            {"changes": [change("P04", "Role", "Seer", "Villager")]},
            {"changes": [change("P04", "Calling", "Baker", "Baker")]},
            {
                "changes": [change("P03", "Money", "1", "300")],
                "based_on": [{"row": "P04", "column": "Role", "seen": "x"}],
            },
        ):
            answer = post_json(UPDATES, body, **p03)
            assert answer.status_code == 400
            assert (
                UNKNOWN_COLUMN.format(column=body["changes"][0]["column"] if "based_on" not in body else "Role")
                in answer.json()["detail"]
            )
            secrets_absent(answer)
        assert value(game, "P04", "Role") == SECRET_ROLE and value(game, "P04", "Calling") == THEIRS
        assert value(game, "P03", "Money") == "300"

    def test_a_player_sees_their_own_secret_but_may_not_change_it(self, game):
        answer = post_json(
            UPDATES, {"changes": [change("P03", "Calling", "Baker", MINE)]}, **token(game.player("P03"), "gndt")
        )
        assert answer.status_code == 400
        assert (
            OWN_SECRET_READ_ONLY.format(cell="P03’s Calling", column="Calling", emperor="Emperor")
            in answer.json()["detail"]
        )
        assert value(game, "P03", "Calling") == MINE

    def test_a_row_of_another_player_is_answered_without_their_secrets(self, game):
        answer = post_json(
            UPDATES, {"changes": [change("P04", "Money", "310", "300")]}, **token(game.player("P03"), "gndt")
        )
        assert answer.status_code == 201
        row = answer.json()["rows"][0]
        assert row["name"] == "P04" and row["values"]["Money"] == "310"
        assert "Calling" not in row["values"] and "Role" not in row["values"]
        secrets_absent(answer)

    def test_the_emperor_sees_and_changes_every_secret(self, game):
        answer = post_json(
            UPDATES, {"changes": [change("P04", "Role", "Seer", SECRET_ROLE)]}, **token(game.emperor, "gndt")
        )
        assert answer.status_code == 201
        assert answer.json()["changes"] == [{"row": "P04", "column": "Role", "old": SECRET_ROLE, "new": "Seer"}]
        assert answer.json()["rows"][0]["values"]["Calling"] == THEIRS

    def test_a_conflict_on_a_cell_a_player_may_see_tells_nothing_of_the_secrets_around_it(self, game):
        update(game, game.emperor, {("P04", "Money"): "5", ("P04", "Role"): "Seer"}, now=NOW)
        answer = post_json(
            UPDATES, {"changes": [change("P04", "Money", "6", "300")]}, **token(game.player("P03"), "gndt")
        )
        assert answer.status_code == 409
        assert "Seer" not in answer.content.decode()
        secrets_absent(answer)


class TestBadInput:
    @pytest.mark.parametrize(
        ("body", "words"),
        [
            ({"changes": [change("P03", "Money", "٣", "300")]}, "whole number"),
            ({"changes": [change("P03", "Money", "99999999999999999999", "300")]}, "whole number"),
            ({"changes": [change("P03", "Money", "1\x00", "300")]}, "NUL"),
            ({"changes": [change("P03", "Money", "1", "300")], "comment": "\x00"}, "NUL"),
            ({"changes": [change("P03\x00", "Money", "1", "300")]}, "NUL"),
            ({"changes": [{"row": "P03", "column": "Money", "value": "1"}]}, "seen"),
            ({"changes": [{"row": "P03", "column": "Money", "value": 1, "seen": "300"}]}, "value"),
            ({"changes": "P03 Money 1"}, "changes"),
            ({"changes": [change("Nobody", "Money", "1", "300")]}, "There is no row “Nobody”"),
            ({"changes": [change("P03", "Money", "1", "300"), change("P03", "Money", "2", "300")]}, "more than once"),
            ({}, "Change a value or write a comment"),
            ({"comment": "x" * 5001}, COMMENT_TOO_LONG.format(limit=5000, length=5001)),
            ("{not json", "request"),
            ('"P03 Money 1"', "Change a value or write a comment"),  # not an object: no fields given
        ],
    )
    def test_bad_input_is_refused_400_saying_why_and_writes_nothing(self, game, body, words):
        before = Update.objects.count()
        answer = post_json(UPDATES, body, **token(game.player("P03"), "gndt"))
        assert answer.status_code == 400, answer.content
        assert words in answer.json()["detail"]
        assert Update.objects.count() == before and value(game, "P03", "Money") == "300"

    def test_a_form_is_refused_400_asking_for_json(self, game):
        before = Update.objects.count()
        answer = Client().post(UPDATES, {"comment": "Hello"}, **token(game.player("P03"), "gndt"))
        assert answer.status_code == 400
        assert answer.json()["detail"] == JSON_ONLY
        assert Update.objects.count() == before


class TestActions:
    @pytest.fixture
    def trim(self, game):
        return gndt_action_save(dynasty=game.dynasty, by=game.admin, now=T0, name="Trim the Wick", frequency="daily")

    def take(self, headers, body=None, *, name="Trim the Wick"):
        return post_json(reverse("api:gndt_action_take", args=[name]), body or {"comment": "Snip. DICE6"}, **headers)

    def test_the_actions_are_listed(self, game, trim):
        answer = Client().get("/api/gndt/actions")
        assert answer.json()["actions"] == [
            {"name": "Trim the Wick", "frequency": "daily", "weekly_cap": None, "phase": "", "description": ""}
        ]

    def test_a_daily_action_is_taken_once_a_day_and_shows_in_the_log(self, game, trim, clock):
        """“If a game action is a Daily Action, each Hunter able to perform it may take that action once each
        day, but not more than once every ten hours” (Ruleset 142)."""
        p03 = token(game.player("P03"), "gndt")
        answer = self.take(p03, {"changes": [change("P03", "Pieces", "7", "8")], "comment": "Snip. DICE6"})
        assert answer.status_code == 201, answer.content
        assert answer.json()["action"] == "Trim the Wick" and answer.json()["rolls"][0].startswith("DICE6")
        assert Update.objects.get(pk=answer.json()["id"]).action == trim
        assert "Trim the Wick" in Client().get(reverse("gndt_log")).content.decode()
        before = Update.objects.count()
        clock.move_to(NOW + timedelta(hours=2))
        again = self.take(p03, {"changes": [change("P03", "Pieces", "6", "7")]})
        assert again.status_code == 400
        assert "you already did it today" in again.json()["detail"]
        assert Update.objects.count() == before and value(game, "P03", "Pieces") == "7"

    def test_the_ten_hours_between_two_days_actions_are_enforced(self, game, trim, clock):
        p03 = token(game.player("P03"), "gndt")
        clock.move_to(T0.replace(hour=20))
        assert self.take(p03).status_code == 201
        clock.move_to(T0.replace(hour=20) + timedelta(hours=7))  # 03:00 the next day
        refused = self.take(p03)
        assert refused.status_code == 400
        assert "it must be at least 10 hours after your last" in refused.json()["detail"]
        clock.move_to(T0.replace(hour=20) + timedelta(hours=10))
        assert self.take(p03).status_code == 201
        assert Update.objects.filter(action=trim).count() == 2

    def test_an_unknown_action_is_404_and_the_scope_is_needed(self, game, trim):
        before = Update.objects.count()
        assert self.take(token(game.player("P03"), "gndt"), name="Juggle").status_code == 404
        assert self.take(token(game.player("P03"), "vote")).status_code == 403
        assert Update.objects.count() == before


class TestResolving:
    @pytest.fixture
    def proposal(self, game):
        post = make_proposal(game.players[2], at=T0, title="Proposal: Brighter Lamps")
        for voter in game.players[3:5]:
            vote(post, voter, "for", at=T0 + timedelta(minutes=30))
        return post

    def resolve(self, post, headers, action="enact", **extra):
        return post_json(reverse("api:post_resolve", args=[post.slug]), {"action": action, **extra}, **headers)

    def test_an_admin_token_enacts_a_matter_the_rules_let_it_and_the_page_shows_it(self, game, proposal, clock):
        """“The oldest pending Proposal may be enacted by any Admin … if … it has a number of FOR votes that
        exceed or equal Quorum, and it has been open for voting for at least 12 hours” (Ruleset 142)."""
        clock.move_to(T0 + timedelta(hours=13))
        answer = self.resolve(proposal, token(game.admin, "admin"))
        assert answer.status_code == 200, answer.content
        body = answer.json()
        assert body["status"] == "enacted" and body["outcome"] == "enacted" and body["by"] == "P02"
        assert body["tally"] == {"for": 3, "against": 0, "quorum": 3, "self_killed": False, "vetoed": False}
        assert Post.objects.get(pk=proposal.pk).status == Status.ENACTED
        assert "Enacted" in Client().get(proposal.get_absolute_url()).content.decode()

    def test_a_resolution_the_rules_do_not_allow_yet_is_refused_saying_why(self, game, proposal):
        answer = self.resolve(proposal, token(game.admin, "admin"))
        assert answer.status_code == 400
        assert "cannot be enacted now" in answer.json()["detail"]
        assert Post.objects.get(pk=proposal.pk).status == Status.PENDING and not Resolution.objects.exists()

    def test_a_token_cannot_exceed_its_owners_rights(self, game, proposal, clock):
        """A player may not be given the admin scope; an admin who stops being one is refused at the next
        request with the token made while they were; a token without the scope is refused."""
        clock.move_to(T0 + timedelta(hours=13))
        with pytest.raises(TokenError):
            issue_token(user=game.players[3], name="bot", scopes=["admin"], days=30, now=NOW)
        assert self.resolve(proposal, token(game.admin, "gndt", "vote")).status_code == 403
        headers = token(game.admin, "admin")
        game.admin.is_admin = False
        game.admin.save()
        answer = self.resolve(proposal, headers)
        assert answer.status_code == 403 and answer.json()["detail"] == NOT_AN_ADMIN
        player = logged_in(game.players[3])
        assert (
            post_json(reverse("api:post_resolve", args=[proposal.slug]), {"action": "enact"}, client=player).status_code
            == 403
        )
        assert Post.objects.get(pk=proposal.pk).status == Status.PENDING and not Resolution.objects.exists()

    def test_a_hidden_post_is_404_to_all_but_admins(self, game, proposal, clock):
        clock.move_to(T0 + timedelta(hours=13))
        matter_resolve(post=proposal, admin=game.admin, action="enact")
        post_hide(post=proposal, admin=game.admin, at=T0 + timedelta(hours=14))
        player = logged_in(game.players[3])
        answer = post_json(reverse("api:post_resolve", args=[proposal.slug]), {"action": "fail"}, client=player)
        assert answer.status_code == 404
        assert "Brighter" not in answer.content.decode()
        # An admin sees it, and is told why it cannot be resolved again.
        again = self.resolve(proposal, token(game.admin, "admin"), action="fail")
        assert again.status_code == 400 and "not pending" in again.json()["detail"]
        assert Resolution.objects.count() == 1

    @pytest.mark.parametrize(
        "body",
        [
            {"action": "adopt"},
            {"action": "enact\x00"},
            {"action": "enact", "apply_amendment": "perhaps"},
            {},
            {"action": "enact", "effects": ["\x00"]},
        ],
    )
    def test_bad_input_is_400_and_resolves_nothing(self, game, proposal, clock, body):
        clock.move_to(T0 + timedelta(hours=13))
        answer = post_json(reverse("api:post_resolve", args=[proposal.slug]), body, **token(game.admin, "admin"))
        assert answer.status_code == 400
        assert Post.objects.get(pk=proposal.pk).status == Status.PENDING

    def test_an_unknown_post_is_404(self, game):
        answer = post_json("/api/posts/no-such-post-٣/resolve", {"action": "enact"}, **token(game.admin, "admin"))
        assert answer.status_code == 404


class TestRetries:
    """“Requests that create something take an Idempotency-Key, so a bot's retry never posts or votes twice”
    (issue 49): each write here is answered again, not run again."""

    def test_a_retried_update_or_action_is_answered_as_the_first_and_written_once(self, game):
        gndt_action_save(dynasty=game.dynasty, by=game.admin, now=T0, name="Trim the Wick", frequency="daily")
        headers = token(game.player("P03"), "gndt")
        for path, body in (
            (UPDATES, {"changes": [change("P03", "Money", "280", "300")]}),
            (reverse("api:gndt_action_take", args=["Trim the Wick"]), {"comment": "Snip"}),
        ):
            before = Update.objects.count()
            first = post_json(path, body, HTTP_IDEMPOTENCY_KEY=f"key-{path}", **headers)
            again = post_json(path, body, HTTP_IDEMPOTENCY_KEY=f"key-{path}", **headers)
            assert first.status_code == again.status_code == 201
            assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
            assert Update.objects.count() == before + 1

    def test_a_retried_resolution_is_answered_as_the_first(self, game, clock):
        post = make_proposal(game.players[2], at=T0, title="Proposal: Brighter Lamps")
        for voter in game.players[3:5]:
            vote(post, voter, "for", at=T0 + timedelta(minutes=30))
        clock.move_to(T0 + timedelta(hours=13))
        headers = {**token(game.admin, "admin"), "HTTP_IDEMPOTENCY_KEY": "enact-brighter-lamps"}
        path = reverse("api:post_resolve", args=[post.slug])
        first = post_json(path, {"action": "enact"}, **headers)
        again = post_json(path, {"action": "enact"}, **headers)
        assert first.status_code == again.status_code == 200
        assert again.json() == first.json() and Resolution.objects.count() == 1

    def test_a_key_never_hides_a_wrong_method_or_a_form(self, game):
        """A key first used with POST, sent again with PUT, is answered 405 as any PUT there is; a form under a
        key is refused for not being JSON, never a server error."""
        headers = {**token(game.player("P03"), "gndt"), "HTTP_IDEMPOTENCY_KEY": "same-key"}
        assert post_json(UPDATES, {"comment": "Hello"}, **headers).status_code == 201
        assert Client().put(UPDATES, "{}", content_type="application/json", **headers).status_code == 405
        form = Client().post(UPDATES, {"comment": "Hello"}, **{**headers, "HTTP_IDEMPOTENCY_KEY": "other-key"})
        assert form.status_code == 400 and form.json()["detail"] == JSON_ONLY
        assert Update.objects.filter(comment="Hello").count() == 1
