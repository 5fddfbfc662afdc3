"""Private messages: compose to one or several players, inbox, sent, threads, unread counts; kept as sent."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from blognomic.community.messaging import services
from blognomic.community.messaging.models import Conversation, Message
from blognomic.community.messaging.selectors import inbox, unread_count
from blognomic.community.messaging.services import MessageError, conversation_mark_read, message_reply, message_send
from dynasties.models import Notification
from tests.factories import PASSWORD, make_spectator, make_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(t0):
    return make_table(4, start=t0)


def test_a_message_to_two_players_is_one_conversation_they_both_see_unread(players, t0):
    emperor, ada, bram, cato = players
    conversation = message_send(
        sender=cato, recipients=["P01", "P02"], subject="Secret action", body="I visit the lighthouse at night.", now=t0
    )
    assert [c.subject for c in inbox(emperor)] == ["Secret action"]
    assert unread_count(emperor) == 1 and unread_count(ada) == 1 and unread_count(bram) == 0
    assert unread_count(cato) == 0  # one's own message is not news
    assert Notification.objects.filter(key__startswith="message:").count() == 2
    message_reply(conversation=conversation, sender=emperor, body="Noted.", now=t0 + timedelta(minutes=5))
    assert unread_count(cato) == 1 and unread_count(ada) == 2


def test_each_reader_counts_unread_from_their_own_last_reading(players, t0):
    """What one participant has read changes no other's count: the Emperor reads the thread, Ada has not, and
    Cato's next message is one new message for the Emperor and the second for Ada."""
    emperor, ada, _bram, cato = players
    conversation = message_send(sender=cato, recipients=["P01", "P02"], subject="Tides", body="High at nine.", now=t0)
    conversation_mark_read(conversation=conversation, user=emperor, now=t0 + timedelta(minutes=1))
    assert unread_count(emperor) == 0 and unread_count(ada) == 1
    message_reply(conversation=conversation, sender=cato, body="Low at three.", now=t0 + timedelta(minutes=2))
    assert unread_count(emperor) == 1 and unread_count(ada) == 2
    conversation_mark_read(conversation=conversation, user=ada, now=t0 + timedelta(minutes=3))
    assert unread_count(emperor) == 1 and unread_count(ada) == 0


@pytest.mark.parametrize(
    ("recipients", "body", "subject", "message"),
    [
        ([], "Hello", "Hi", services.NO_RECIPIENT),
        (["Nobody"], "Hello", "Hi", services.UNKNOWN_RECIPIENT.format(name="Nobody")),
        (["P04"], "Hello", "Hi", services.TO_ONESELF),
        (["Sam"], "Hello", "Hi", services.NOT_A_PLAYER.format(name="Sam")),
        (["P01"], "   ", "Hi", services.EMPTY_BODY),
        (["P01"], "x" * 10_001, "Hi", services.BODY_TOO_LONG.format(limit=10_000, length=10_001)),
        (["P01"], "Hello", "", services.SUBJECT_NEEDED.format(limit=200)),
        (["P01"], "Hel\x00lo", "Hi", services.NUL_CHARACTER),
    ],
)
def test_a_refused_message_says_why_and_sends_nothing(players, t0, recipients, body, subject, message):
    make_spectator("Sam")
    with pytest.raises(MessageError, match=message[:30].replace("(", r"\(").replace("“", ".").replace("”", ".")):
        message_send(sender=players[3], recipients=recipients, subject=subject, body=body, now=t0)
    assert not Conversation.objects.exists() and not Message.objects.exists()
    assert not Notification.objects.exists()


def test_a_spectator_may_not_send(players, t0):
    with pytest.raises(MessageError, match="Only players"):
        message_send(sender=make_spectator("Sam"), recipients=["P01"], subject="Hi", body="Hello", now=t0)


def test_only_participants_may_read_or_reply(client, players, t0):
    conversation = message_send(sender=players[3], recipients=["P01"], subject="Private", body="Just us", now=t0)
    assert client.login(username=players[2].username, password=PASSWORD)
    assert client.get(conversation.get_absolute_url()).status_code == 404
    assert client.post(conversation.get_absolute_url(), {"body": "Let me in"}).status_code == 404
    with pytest.raises(MessageError):
        message_reply(conversation=conversation, sender=players[2], body="Sneaky", now=t0)
    assert Message.objects.count() == 1


def test_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("messages_inbox"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_header_counts_unread_messages_until_the_thread_is_opened(client, players, t0):
    conversation = message_send(sender=players[3], recipients=["P02"], subject="Trade", body="Oil for rope?", now=t0)
    assert client.login(username="P02", password=PASSWORD)
    page = client.get(reverse("front_page")).content.decode()
    assert 'id="messages-link">Messages <strong class="badge">1</strong>' in page
    thread = client.get(conversation.get_absolute_url()).content.decode()
    assert "Oil for rope?" in thread
    page = client.get(reverse("front_page")).content.decode()
    assert 'id="messages-link">Messages</a>' in page


def test_composing_with_a_mistake_keeps_what_was_typed(client, players):
    assert client.login(username="P04", password=PASSWORD)
    response = client.post(
        reverse("messages_compose"), {"to": "P01, Nobody", "subject": "Plans", "body": "My long careful message"}
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert "There is no player called “Nobody”." in page and "My long careful message" in page
    assert not Message.objects.exists()


def test_sending_and_replying_through_the_pages(client, players):
    assert client.login(username="P04", password=PASSWORD)
    response = client.post(reverse("messages_compose"), {"to": "P01, P02", "subject": "Plans", "body": "Meet at dawn"})
    conversation = Conversation.objects.get()
    assert response.status_code == 302 and response["Location"] == conversation.get_absolute_url()
    client.logout()
    assert client.login(username="P01", password=PASSWORD)
    client.post(conversation.get_absolute_url(), {"body": "Agreed"})
    assert [m.body for m in conversation.messages.all()] == ["Meet at dawn", "Agreed"]
    assert "Plans" in client.get(reverse("messages_sent")).content.decode()


def test_html_in_a_message_is_shown_as_text(client, players, t0):
    conversation = message_send(
        sender=players[3], recipients=["P01"], subject="<b>bold</b>", body="<script>alert(1)</script>", now=t0
    )
    assert client.login(username="P01", password=PASSWORD)
    page = client.get(conversation.get_absolute_url()).content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page


def test_a_message_renders_markdown_as_posts_and_comments_do(client, t0):
    """Found in play: "private messages don't render Markdown although posts and comments do"."""
    players = make_table(3, start=t0)
    message_send(
        sender=players[1],
        recipients=[players[2].username],
        subject="Plans",
        body="We **must** act.\n\n* first\n* second\n\n<script>alert(1)</script>",
        now=t0,
    )
    client.login(username=players[2].username, password=PASSWORD)
    conversation = Conversation.objects.get()
    page = client.get(reverse("message_thread", args=[conversation.pk])).content.decode()
    assert "<strong>must</strong>" in page and "<li>first</li>" in page
    assert "<script>alert(1)</script>" not in page
