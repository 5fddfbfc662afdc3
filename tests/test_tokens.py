"""Personal access tokens (``blognomic.community.tokens``): made on the account page, shown once, kept as a hash;
accepted only in the Authorization header, within their scopes, until revoked or expired; never mixed with the
browser's cookie; one request budget each."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from blognomic.community.tokens.issuing import (
    MAX_LIVE_TOKENS,
    TokenError,
    TokenRefused,
    issue_token,
    revoke_token,
    token_for,
)
from blognomic.community.tokens.models import AccessToken, TokenUse
from blognomic.community.tokens.throttling import over_budget
from blognomic.web.freshness import current_version
from tests.factories import PASSWORD, T0, make_player
from tests.gndt.builders import add_calling, make_gndt, update

pytestmark = pytest.mark.django_db


@pytest.fixture
def cora(t0):
    return make_player("Cora Ng", joined_at=t0)


@pytest.fixture
def issued(cora):
    return issue_token(user=cora, name="chat bot", scopes=["vote", "read"], days=30, now=timezone.now())


def bearer(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def logged_in(user) -> Client:
    client = Client()
    client.login(username=user.username, password=PASSWORD)
    return client


class TestIssuing:
    def test_the_secret_is_returned_once_and_only_its_hash_is_kept(self, issued):
        assert re.fullmatch(r"bn_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}", issued.secret)
        row = AccessToken.objects.get()
        assert issued.secret not in (row.secret_hash, row.public_id, row.name)
        assert row.public_id in issued.secret
        assert row.scopes == ["read", "vote"]  # kept in the order the scopes are listed

    @pytest.mark.parametrize(
        ("name", "scopes", "days", "message"),
        [
            ("   ", ["vote"], 30, "Give the token a name"),
            ("bot\x00", ["vote"], 30, "NUL"),
            ("x" * 81, ["vote"], 30, "at most 80"),
            ("bot", [], 30, "at least one"),
            ("bot", ["vote", "sudo"], 30, "no scope called “sudo”"),
            ("bot", ["admin"], 30, "Only an admin"),
            ("bot", ["vote"], 9_999_999_999_999_999_999, "lasts 7, 30, 90 or 365 days"),
            ("bot", ["vote"], None, "lasts"),
        ],
    )
    def test_a_bad_request_is_refused_with_its_reason_and_makes_nothing(self, cora, name, scopes, days, message):
        with pytest.raises(TokenError, match=re.escape(message)):
            issue_token(user=cora, name=name, scopes=scopes, days=days, now=timezone.now())
        assert not AccessToken.objects.exists()

    def test_an_admin_may_give_the_admin_scope(self, t0):
        admin = make_player("Ada", joined_at=t0, admin=True)
        assert issue_token(user=admin, name="b", scopes=["admin"], days=7, now=timezone.now()).token.scopes == ["admin"]

    def test_a_player_holds_at_most_twenty_live_tokens(self, cora):
        now = timezone.now()
        for n in range(MAX_LIVE_TOKENS):
            issue_token(user=cora, name=f"bot {n}", scopes=["read"], days=7, now=now)
        with pytest.raises(TokenError, match="revoke one"):
            issue_token(user=cora, name="one more", scopes=["read"], days=7, now=now)
        revoke_token(token=AccessToken.objects.first(), by=cora, now=now)
        issue_token(user=cora, name="one more", scopes=["read"], days=7, now=now)


class TestChecking:
    def test_the_right_secret_finds_its_token(self, issued):
        assert token_for(issued.secret, now=timezone.now()) == issued.token

    @pytest.mark.parametrize("presented", ["", "bn_", "password", "bn_short_x", "٣" * 60, "bn_" + "A" * 12 + "_\x00"])
    def test_what_is_not_a_token_is_refused(self, issued, presented):
        with pytest.raises(TokenRefused):
            token_for(presented, now=timezone.now())

    def test_a_wrong_secret_with_a_real_public_id_is_refused(self, issued):
        forged = issued.secret[:-4] + ("AAAA" if not issued.secret.endswith("AAAA") else "BBBB")
        with pytest.raises(TokenRefused, match="No token matches"):
            token_for(forged, now=timezone.now())

    def test_a_revoked_expired_or_disabled_token_is_refused_saying_why(self, issued, cora):
        now = timezone.now()
        with pytest.raises(TokenRefused, match="expired"):
            token_for(issued.secret, now=now + timedelta(days=31))
        cora.is_active = False
        cora.save()
        with pytest.raises(TokenRefused, match="disabled"):
            token_for(issued.secret, now=now)
        revoke_token(token=issued.token, by=cora, now=now)
        with pytest.raises(TokenRefused, match="revoked"):
            token_for(issued.secret, now=now)


class TestTheApiTakesTokensFromTheHeaderAlone:
    def test_a_token_says_who_it_acts_for(self, issued):
        answer = Client().get("/api/me", **bearer(issued.secret))
        assert answer.status_code == 200
        assert answer.json()["name"] == "Cora Ng"
        assert answer.json()["token"]["scopes"] == ["read", "vote"]

    def test_without_credentials_the_answer_is_401_naming_the_scheme(self, issued):
        answer = Client().get("/api/me")
        assert answer.status_code == 401
        assert answer["WWW-Authenticate"].startswith("Bearer")

    def test_a_token_in_the_address_is_not_taken(self, issued):
        for query in ("token", "access_token", "key", "authorization"):
            assert Client().get(f"/api/me?{query}={issued.secret}").status_code == 401

    def test_other_schemes_and_empty_tokens_are_refused_with_a_reason(self, issued):
        for header in ("Basic Y29yYTpwdw==", "Bearer", "Bearer   ", issued.secret, "Token " + issued.secret):
            answer = Client().get("/api/me", HTTP_AUTHORIZATION=header)
            assert answer.status_code == 401, header
            assert "Bearer" in answer.json()["detail"]

    def test_a_revoked_token_is_refused_at_the_next_request(self, issued, cora):
        client = Client()
        assert client.get("/api/me", **bearer(issued.secret)).status_code == 200
        revoke_token(token=issued.token, by=cora, now=timezone.now())
        answer = client.get("/api/me", **bearer(issued.secret))
        assert answer.status_code == 401
        assert "revoked" in answer.json()["detail"]

    def test_a_token_is_refused_on_reads_too_once_revoked(self, issued, cora):
        assert Client().get("/api/posts", **bearer(issued.secret)).status_code == 200
        revoke_token(token=issued.token, by=cora, now=timezone.now())
        assert Client().get("/api/posts", **bearer(issued.secret)).status_code == 401
        assert Client().get("/api/posts").status_code == 200  # reading needs no token

    def test_a_token_request_ignores_the_cookie_it_rides_with(self, issued, t0):
        other = make_player("Bram", joined_at=t0)
        client = logged_in(other)
        assert client.get("/api/me").json()["name"] == "Bram"
        assert client.get("/api/me", **bearer(issued.secret)).json()["name"] == "Cora Ng"
        # A bad token never falls back to the cookie.
        assert client.get("/api/me", **bearer(issued.secret + "x")).status_code == 401

    def test_use_is_recorded_without_moving_the_content_version(self, issued, settings):
        settings.CONTENT_VERSION_STORE = "database"
        before = current_version()
        Client().get("/api/me", **bearer(issued.secret), REMOTE_ADDR="203.0.113.9")
        use = TokenUse.objects.get(token=issued.token)
        assert use.address == "203.0.113.9"
        assert current_version() == before


class TestBudget:
    def test_over_budget_waits_for_the_end_of_the_minute(self):
        assert over_budget(120, 120, now=1_000_000.0) is None
        assert over_budget(121, 120, now=60 * 1000 + 15.2) == 45
        assert over_budget(121, 120, now=60 * 1000 + 59.9) == 1

    def test_a_token_over_its_budget_is_answered_429_with_retry_after(self, issued, settings, t0):
        settings.API_TOKEN_RATE = 3
        client = Client()
        answers = [client.get("/api/me", **bearer(issued.secret)) for _ in range(4)]
        assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
        assert 1 <= int(answers[-1]["Retry-After"]) <= 60
        # Another token, and anyone reading without one, keep their own budgets.
        bram = make_player("Bram", joined_at=t0)
        other = issue_token(user=bram, name="b", scopes=["read"], days=7, now=timezone.now())
        assert client.get("/api/me", **bearer(other.secret)).status_code == 200
        assert client.get("/api/posts").status_code == 200


class TestTheAccountPage:
    def test_a_player_makes_a_token_and_sees_its_secret_once(self, cora):
        client = logged_in(cora)
        answer = client.post("/accounts/tokens/", {"name": "phone", "scopes": ["vote", "comment"], "days": "90"})
        assert answer.status_code == 200
        secret = re.search(r"bn_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}", answer.content.decode()).group(0)
        assert "no-store" in answer["Cache-Control"]
        assert Client().get("/api/me", **bearer(secret)).json()["token"]["name"] == "phone"
        listing = client.get("/accounts/tokens/").content.decode()
        assert "phone" in listing
        assert secret not in listing
        assert "UTC from 127.0.0.1" in listing  # when and where it was last used

    @pytest.mark.parametrize(
        "data",
        [
            {"name": "", "scopes": ["vote"], "days": "90"},
            {"name": "bot", "scopes": [], "days": "90"},
            {"name": "bot", "scopes": ["admin"], "days": "90"},
            {"name": "bot", "scopes": ["vote"], "days": "٩٠"},
            {"name": "bot", "scopes": ["vote"], "days": "99999999999999999999"},
            {"name": "bot\x00", "scopes": ["vote"], "days": "90"},
        ],
    )
    def test_bad_input_is_explained_and_makes_nothing(self, cora, data):
        answer = logged_in(cora).post("/accounts/tokens/", data)
        assert answer.status_code == 400
        assert 'role="alert"' in answer.content.decode() or "NUL" in answer.content.decode()
        assert not AccessToken.objects.exists()

    def test_the_owner_revokes_and_another_player_cannot(self, issued, cora, t0):
        other = logged_in(make_player("Bram", joined_at=t0))
        assert other.post(f"/accounts/tokens/{issued.token.pk}/revoke/").status_code == 404
        assert Client().get("/api/me", **bearer(issued.secret)).status_code == 200
        logged_in(cora).post(f"/accounts/tokens/{issued.token.pk}/revoke/")
        assert Client().get("/api/me", **bearer(issued.secret)).status_code == 401

    def test_an_admin_sees_every_live_token_and_revokes_any(self, issued, cora, t0):
        admin = logged_in(make_player("Ada", joined_at=t0, admin=True))
        page = admin.get("/admin-panel/tokens/")
        assert page.status_code == 200 and "chat bot" in page.content.decode()
        assert logged_in(cora).get("/admin-panel/tokens/").status_code == 403
        admin.post(f"/accounts/tokens/{issued.token.pk}/revoke/")
        assert Client().get("/api/me", **bearer(issued.secret)).status_code == 401
        assert "by <bdi>Ada</bdi>" in logged_in(cora).get("/accounts/tokens/").content.decode()


class TestTheReadScope:
    """A token with the read scope reads as its owner: their own secrets and nobody else's; any other read is a
    visitor's."""

    @pytest.fixture
    def werewolves(self):
        game = make_gndt(T0)
        add_calling(game, at=T0)
        update(game, game.admin, {("P03", "Calling"): "Oracle", ("P04", "Calling"): "Lycanthrope"}, now=T0)
        return game

    def tokens_of(self, user, *scopes):
        return issue_token(user=user, name="bot", scopes=list(scopes), days=7, now=timezone.now()).secret

    def test_a_read_token_sees_its_owners_own_secret_and_no_other(self, werewolves):
        p03 = werewolves.players[2]
        seen = Client().get("/api/gndt", **bearer(self.tokens_of(p03, "read"))).json()
        rows = {row["name"]: row["values"] for row in seen["rows"]}
        assert rows["P03"]["Calling"] == "Oracle"
        assert rows["P04"].get("Calling") != "Lycanthrope", rows["P04"]
        log = Client().get("/api/gndt/log", **bearer(self.tokens_of(p03, "read"))).content.decode()
        assert "Oracle" in log and "Lycanthrope" not in log

    def test_without_the_read_scope_or_a_token_a_read_is_a_visitors(self, werewolves):
        p03 = werewolves.players[2]
        for headers in ({}, bearer(self.tokens_of(p03, "vote"))):
            table = Client().get("/api/gndt", **headers).content.decode()
            log = Client().get("/api/gndt/log", **headers).content.decode()
            body = table + log
            assert "Oracle" not in body and "Calling" not in body

    def test_notices_are_the_owners_alone_and_reading_marks_nothing(self, cora, t0):
        from dynasties.models import Notification

        bram = make_player("Bram", joined_at=t0)
        Notification.objects.create(user=cora, key="a", text="Your proposal passed", created_at=t0)
        Notification.objects.create(user=bram, key="b", text="Bram's own notice", created_at=t0)
        answer = Client().get("/api/notices", **bearer(self.tokens_of(cora, "read")))
        assert [n["text"] for n in answer.json()["results"]] == ["Your proposal passed"]
        assert answer.json()["results"][0]["read"] is False
        assert not Notification.objects.filter(read_at__isnull=False).exists()
        assert Client().get("/api/notices", **bearer(self.tokens_of(cora, "vote"))).status_code == 403
        assert Client().get("/api/notices").status_code == 401
        assert logged_in(bram).get("/api/notices").json()["results"][0]["text"] == "Bram's own notice"

    def test_the_page_cache_neither_serves_nor_keeps_a_token_read(self, werewolves, settings):
        """The API's reads are kept in the page cache for visitors: a token's read is answered for its owner
        (their secret shows), and a visitor after it is still given the visitor's answer."""
        settings.PAGE_CACHE = True
        p03 = werewolves.players[2]
        assert "Oracle" not in Client().get("/api/gndt").content.decode()
        assert "Oracle" in Client().get("/api/gndt", **bearer(self.tokens_of(p03, "read"))).content.decode()
        assert "Oracle" not in Client().get("/api/gndt").content.decode()
        forged = "bn_AAAAAAAAAAAA_" + "A" * 43
        assert Client().get("/api/gndt", **bearer(forged)).status_code == 401
