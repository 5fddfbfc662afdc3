"""The chat players use: "an outgoing webhook can speak Discord's and Slack's incoming-webhook formats as well as
our plain JSON (a new votable matter, a matter ready to resolve, a resolution, with the post's absolute link),
chosen per webhook". The bodies are checked against the shapes the two services document."""

from __future__ import annotations

import re

import pytest

from dynasties.chat_formats import (
    DISCORD,
    PLAIN,
    SLACK,
    FormatError,
    chat_body,
    check_format,
    discord_message,
    slack_escape,
    slack_message,
    summary,
)

URL = "https://nomic.example.org/posts/proposal-brass-bells/"
POSTED = {
    "event": "matter_posted",
    "title": "Proposal: Brass Bells",
    "kind": "proposal",
    "url": URL,
    "author": "Kevan",
    "at": "2016-07-25T12:00:00+00:00",
}
RESOLVABLE = {
    "event": "matter_resolvable",
    "title": "CfJ: Ruling",
    "kind": "cfj",
    "may_be": "enacted",
    "url": URL,
    "at": "2016-07-25T12:00:00+00:00",
}
RESOLVED = {
    "event": "matter_resolved",
    "title": "Proposal: Brass Bells",
    "kind": "proposal",
    "url": URL,
    "author": None,
    "at": "2016-07-25T12:00:00+00:00",
    "outcome": "failed_quorum",
}
HOSTILE = {
    "event": "matter_posted",
    "kind": "proposal",
    "url": URL,
    "author": "Mallory",
    "title": "@everyone @here <@&123> <!channel> <https://evil.example|bank> [click](https://evil.example) "
    "& **bold** # heading",
}


def assert_discord_shape(body: dict) -> None:
    """Discord's execute-webhook body: ``content`` up to 2000 characters, up to 10 embeds of a title up to 256,
    a description up to 4096 and an http(s) url; ``allowed_mentions.parse`` a list of roles/users/everyone."""
    assert set(body) <= {"content", "embeds", "allowed_mentions", "username", "avatar_url", "tts"}
    assert isinstance(body["content"], str) and 0 < len(body["content"]) <= 2000
    assert isinstance(body["embeds"], list) and len(body["embeds"]) <= 10
    for embed in body["embeds"]:
        assert set(embed) <= {"title", "url", "description"}
        assert len(embed["title"]) <= 256 and len(embed.get("description", "")) <= 4096
        assert embed.get("url", "https://").startswith(("http://", "https://"))
    assert set(body["allowed_mentions"]["parse"]) <= {"roles", "users", "everyone"}


def assert_slack_shape(body: dict) -> None:
    """Slack's incoming-webhook body: ``text`` and up to 50 ``blocks``; a section's mrkdwn text up to 3000
    characters; outside ``<url|label>`` links no bare ``<`` or ``>``, and every ``&`` starts an entity."""
    assert isinstance(body["text"], str) and body["text"]
    assert isinstance(body["blocks"], list) and 0 < len(body["blocks"]) <= 50
    for block in body["blocks"]:
        assert block["type"] == "section" and block["text"]["type"] == "mrkdwn"
        assert 0 < len(block["text"]["text"]) <= 3000
    outside_links = re.sub(r"<https?://[^|<>\s]+\|[^<>]*>", "", body["text"])
    assert "<" not in outside_links and ">" not in outside_links
    assert re.fullmatch(r"([^&]|&(amp|lt|gt);)*", body["text"])


@pytest.mark.parametrize("event", [POSTED, RESOLVABLE, RESOLVED, HOSTILE])
def test_each_event_is_a_discord_message_that_links_to_the_post_and_pings_no_one(event):
    body = discord_message(event)
    assert_discord_shape(body)
    assert body["allowed_mentions"] == {"parse": []}  # player text must not ping @everyone
    assert body["embeds"][0]["url"] == URL


@pytest.mark.parametrize("event", [POSTED, RESOLVABLE, RESOLVED, HOSTILE])
def test_each_event_is_a_slack_message_with_a_link_to_the_post(event):
    body = slack_message(event)
    assert_slack_shape(body)
    assert f"<{URL}|open>" in body["text"]


def test_the_lines_say_what_happened():
    assert summary(POSTED) == "New Proposal: “Proposal: Brass Bells” by Kevan"
    assert summary(RESOLVABLE) == "Call for Judgement “CfJ: Ruling” may now be enacted"
    assert summary(RESOLVED) == "Proposal “Proposal: Brass Bells” was failed (failed_quorum)"
    assert summary(RESOLVED | {"outcome": "enacted"}) == "Proposal “Proposal: Brass Bells” was enacted"


def test_a_title_can_neither_ping_nor_pass_for_a_link():
    """Slack: "&, <, > escaped"; Discord: no mention parsed, no masked link."""
    text = slack_message(HOSTILE)["text"]
    assert "&lt;!channel&gt;" in text and "&lt;https://evil.example|bank&gt;" in text and "&amp; " in text
    content = discord_message(HOSTILE)["content"]
    assert "](https://evil.example)" not in content and r"\[click\]\(https://evil.example\)" in content
    assert slack_escape("a < b & c > d") == "a &lt; b &amp; c &gt; d"


def test_the_longest_title_and_name_stay_within_the_limits():
    worst = HOSTILE | {"title": "&<>" * 100, "author": "&" * 150, "url": URL + "x" * 300}
    assert_slack_shape(slack_message(worst))
    assert_discord_shape(discord_message(worst | {"title": "*" * 300}))


def test_a_link_cannot_be_broken_out_of():
    body = slack_message(POSTED | {"url": "https://nomic.example.org/a|b>c"})
    assert "<https://nomic.example.org/a%7Cb%3Ec|open>" in body["text"]


def test_plain_json_is_the_event_itself():
    assert chat_body(POSTED, PLAIN) == POSTED
    assert chat_body(POSTED, DISCORD) == discord_message(POSTED)
    assert chat_body(POSTED, SLACK) == slack_message(POSTED)


@pytest.mark.parametrize("value", ["teams", "DISCORD", "plain\x00", 7, ["slack"], "x" * 10_000])
def test_an_unknown_format_is_refused_with_a_clear_message(value):
    with pytest.raises(FormatError, match="is not a webhook format: choose plain JSON, Discord or Slack"):
        check_format(value)
    assert check_format("") == PLAIN and check_format(None) == PLAIN and check_format("slack") == SLACK
