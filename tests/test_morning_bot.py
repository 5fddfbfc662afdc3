"""The documentation's morning bot (docs/playing/examples/morning_bot.py), run as printed against the site:
it posts the pending matters to a chat webhook and votes DEFERENTIAL for its owner where they stayed silent,
once however often it runs, through the API with a token scoped to read and vote."""

from __future__ import annotations

import importlib.util
import json
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.utils import timezone

from blognomic.community.tokens.issuing import issue_token
from tests.factories import make_proposal, make_table, vote
from votes.models import Comment

pytestmark = pytest.mark.django_db
BOT = Path(settings.BASE_DIR) / "docs" / "playing" / "examples" / "morning_bot.py"
HOOK = "https://chat.example.org/hooks/lighthouse"


def load_bot():
    spec = importlib.util.spec_from_file_location("morning_bot", BOT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def game():
    now = timezone.now()
    players = make_table(5, start=now - timedelta(days=3))
    old = make_proposal(players[2], at=now - timedelta(hours=30), title="Proposal: Foghorns at Dawn")
    fresh = make_proposal(players[3], at=now - timedelta(hours=2), title="Proposal: Whitewash the Tower")
    answered = make_proposal(players[1], at=now - timedelta(hours=40), title="Proposal: Oil for the Lamp")
    vote(answered, players[4], "against", at=now - timedelta(hours=39))
    return players, old, fresh, answered


def test_the_bot_reports_every_pending_matter_and_defers_once_where_its_owner_is_silent(game, wsgi_app):
    players, old, fresh, answered = game
    owner = players[4]
    token = issue_token(user=owner, name="morning bot", scopes=["read", "vote"], days=30, now=timezone.now()).secret
    said = []

    def chat_server(request: httpx.Request) -> httpx.Response:
        said.append((str(request.url), json.loads(request.content)))
        return httpx.Response(204)

    bot = load_bot()
    headers = {"Authorization": f"Bearer {token}"}
    transport = httpx.WSGITransport(app=wsgi_app)
    with (
        httpx.Client(transport=transport, base_url="http://testserver", headers=headers) as site,
        httpx.Client(transport=httpx.MockTransport(chat_server)) as chat,
    ):
        for _ in range(2):  # a second run the same morning votes nothing more
            bot.run(site, chat, site_url="https://blognomic.example", chat_url=HOOK, now=timezone.now())

    votes = Comment.objects.filter(author=owner, icon__isnull=False)
    assert [(c.post_id, c.icon) for c in votes.order_by("pk")] == [(answered.pk, "against"), (old.pk, "deferential")]
    assert len(said) == 2 and said[0][0] == HOOK
    first = said[0][1]["content"]
    assert first == said[0][1]["text"]
    for post in (old, fresh, answered):
        assert post.title in first and f"https://blognomic.example{post.get_absolute_url()}" in first
    assert "Deferred for my owner on: Proposal: Foghorns at Dawn" in first
    assert "Deferred" not in said[1][1]["content"]


def test_a_token_without_the_vote_scope_votes_nothing(game, wsgi_app, capsys):
    players, old, *_ = game
    token = issue_token(user=players[4], name="reader", scopes=["read"], days=30, now=timezone.now()).secret
    bot = load_bot()
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(
        transport=httpx.WSGITransport(app=wsgi_app), base_url="http://testserver", headers=headers
    ) as site:
        message = bot.run(site, None, site_url="https://blognomic.example", chat_url=None, now=timezone.now())
    assert "Deferred" not in message
    assert not Comment.objects.filter(author=players[4], post=old).exists()
    assert "needs the scope “vote”" in capsys.readouterr().err
