"""What a webhook sends, in the format its receiver reads: our plain JSON event, or a message for a Discord or
Slack incoming webhook. Pure: an event (as queued, with its absolute link) in, a JSON body out.

The titles and names in an event are players' text, so nothing in them may ping a whole channel or pass for a
link: Discord is told to parse no mentions, and Slack's control characters are escaped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

PLAIN, DISCORD, SLACK = "plain", "discord", "slack"
FORMATS = {PLAIN: "Plain JSON", DISCORD: "Discord", SLACK: "Slack"}
UNKNOWN_FORMAT = "“{value}” is not a webhook format: choose plain JSON, Discord or Slack."

KIND_NAMES = {
    "proposal": "Proposal",
    "cfj": "Call for Judgement",
    "dov": "Declaration of Victory",
    "matter": "Votable matter",
}

# Discord's documented limits on a message and an embed.
DISCORD_CONTENT_MAX = 2000
DISCORD_TITLE_MAX = 256
DISCORD_DESCRIPTION_MAX = 4096
# Slack's limit on a section block's text.
SLACK_SECTION_MAX = 3000
TITLE_MAX = 300  # a title or name in a chat line: no post title is longer

_DISCORD_MARKDOWN = re.compile(r"([\\*_~`|>\[\]()#-])")


class FormatError(ValueError):
    """Not one of ``FORMATS``; the message says which are."""


def check_format(value: object) -> str:
    """``value`` when it names a format; an empty or missing choice is plain JSON."""
    if value in (None, ""):
        return PLAIN
    if not isinstance(value, str) or value not in FORMATS:
        shown = str(value).replace("\x00", "")[:40]
        raise FormatError(UNKNOWN_FORMAT.format(value=shown))
    return value


def summary(event: Mapping[str, object]) -> str:
    """One line that says what happened, in plain words (player text as it is; each format escapes it)."""
    title = _cut(str(event.get("title") or "Untitled"), TITLE_MAX)
    author = _cut(str(event.get("author") or ""), TITLE_MAX)
    kind = KIND_NAMES.get(str(event.get("kind")), "Matter")
    what = event.get("event")
    if what == "matter_posted":
        return f"New {kind}: “{title}”" + (f" by {author}" if author else "")
    if what == "matter_resolvable":
        return f"{kind} “{title}” may now be {event.get('may_be') or 'resolved'}"
    if what == "matter_resolved":
        outcome = str(event.get("outcome") or "resolved")
        return f"{kind} “{title}” was " + ("enacted" if outcome == "enacted" else f"failed ({outcome})")
    return f"{kind} “{title}”"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def discord_escape(text: str) -> str:
    """Text that Discord shows as written: its markdown characters escaped (no masked link, no heading)."""
    return _DISCORD_MARKDOWN.sub(r"\\\1", text)


def discord_message(event: Mapping[str, object]) -> dict[str, object]:
    """A Discord incoming-webhook body: the line as content, an embed that links to the post, no mentions."""
    line = summary(event)
    url = str(event.get("url") or "")
    embed = {
        "title": _cut(discord_escape(str(event.get("title") or "Untitled")), DISCORD_TITLE_MAX),
        "description": _cut(discord_escape(line), DISCORD_DESCRIPTION_MAX),
    }
    if url:
        embed["url"] = url
    return {
        "content": _cut(discord_escape(line), DISCORD_CONTENT_MAX),
        "embeds": [embed],
        "allowed_mentions": {"parse": []},
    }


def slack_escape(text: str) -> str:
    """Slack's three control characters as entities, so ``<!channel>`` or a ``<url|label>`` in a title is text."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack_link(url: str, label: str) -> str:
    """``<url|label>``: the label escaped; a character that would end the link is percent-encoded in the URL."""
    safe = url.replace("|", "%7C").replace("<", "%3C").replace(">", "%3E")
    return f"<{safe}|{slack_escape(label)}>"


def slack_message(event: Mapping[str, object]) -> dict[str, object]:
    """A Slack incoming-webhook body: ``text`` (shown in notifications) and one section block with the link."""
    line = summary(event)
    url = str(event.get("url") or "")
    # The line is short (``summary`` cuts the title), so even escaped it stays within a section's limit.
    text = f"{slack_escape(line)}: {slack_link(url, 'open')}" if url else slack_escape(line)
    return {"text": text, "blocks": [{"type": "section", "text": {"type": "mrkdwn", "text": text}}]}


def chat_body(event: Mapping[str, object], format: str) -> dict[str, object]:
    """What is POSTed to a webhook of ``format`` for ``event``."""
    if format == DISCORD:
        return discord_message(event)
    if format == SLACK:
        return slack_message(event)
    return dict(event)
