"""A BlogNomic bot to copy and adapt: each morning it posts the pending matters to a chat channel, and votes
DEFERENTIAL for its owner on any matter they have left silent for too long.

Make a token on your account page with the scopes "read" and "vote", then run it from cron:

    BLOGNOMIC_SITE=https://blognomic.example BLOGNOMIC_TOKEN=bn_… CHAT_WEBHOOK=https://chat.example/hook/… \\
        python morning_bot.py

It needs only httpx (pip install httpx). Every vote carries an Idempotency-Key, so running it twice, or a retry
after a dropped connection, never votes twice.
"""

from __future__ import annotations

import os
import sys
from datetime import UTC, datetime, timedelta

import httpx

VOTABLE = {"proposal", "cfj", "dov"}
# Vote DEFERENTIAL on a matter still unvoted this long after it was posted.
SILENT_FOR = timedelta(hours=float(os.environ.get("SILENT_HOURS", "24")))


def pending_matters(site: httpx.Client) -> list[dict]:
    """Every pending votable matter, oldest first, with its tally."""
    matters, page, pages = [], 1, 1
    while page <= pages:
        answer = site.get("/api/posts", params={"status": "pending", "page": page})
        answer.raise_for_status()
        body = answer.json()
        matters += [post for post in body["results"] if post["kind"] in VOTABLE]
        page, pages = page + 1, body["pages"]
    return sorted(matters, key=lambda post: post["posted_at"])


def morning_message(matters: list[dict], site_url: str) -> str:
    if not matters:
        return "Nothing is pending this morning."
    lines = [f"{len(matters)} pending this morning:"]
    for post in matters:
        tally = post["tally"] or {}
        votes = f"{tally.get('for', 0)} FOR, {tally.get('against', 0)} AGAINST, Quorum {tally.get('quorum', '?')}"
        lines.append(f"• {post['title']} ({votes}) {site_url.rstrip('/')}{post['url']}")
    return "\n".join(lines)


def has_voted(site: httpx.Client, post_id: str, me: str) -> bool:
    answer = site.get(f"/api/posts/{post_id}")
    answer.raise_for_status()
    return any(c["author"] == me and c["icon"] for c in answer.json()["comments_list"])


def defer_where_silent(site: httpx.Client, matters: list[dict], me: str, now: datetime) -> list[str]:
    """Vote DEFERENTIAL on each matter its owner has not voted on after SILENT_FOR; the titles voted on."""
    voted = []
    for post in matters:
        posted = datetime.fromisoformat(post["posted_at"].replace("Z", "+00:00"))
        if post["author"] == me or now - posted < SILENT_FOR or has_voted(site, post["id"], me):
            continue
        answer = site.post(
            f"/api/posts/{post['id']}/votes",
            json={"icon": "deferential", "text": "Deferring (my bot votes while I am away)."},
            headers={"Idempotency-Key": f"morning-bot-defer-{post['id']}"},
        )
        if answer.status_code == 201:
            voted.append(post["title"])
        else:  # refused by the rules (closed meanwhile, say): the site says why
            print(f"Not voted on {post['title']}: {answer.json()['detail']}", file=sys.stderr)
    return voted


def run(site: httpx.Client, chat: httpx.Client | None, *, site_url: str, chat_url: str | None, now: datetime) -> str:
    me = site.get("/api/me")
    me.raise_for_status()
    matters = pending_matters(site)
    message = morning_message(matters, site_url)
    voted = defer_where_silent(site, matters, me.json()["name"], now)
    if voted:
        message += "\nDeferred for my owner on: " + "; ".join(voted)
    if chat is not None and chat_url:
        # Discord reads "content", Slack and Mattermost "text".
        chat.post(chat_url, json={"content": message, "text": message}).raise_for_status()
    return message


def main() -> int:
    site_url, token = os.environ["BLOGNOMIC_SITE"], os.environ["BLOGNOMIC_TOKEN"]
    chat_url = os.environ.get("CHAT_WEBHOOK")
    headers = {"Authorization": f"Bearer {token}", "User-Agent": "morning-bot"}
    with httpx.Client(base_url=site_url, headers=headers, timeout=30) as site, httpx.Client(timeout=30) as chat:
        print(run(site, chat, site_url=site_url, chat_url=chat_url, now=datetime.now(UTC)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
