"""The Fair Play thresholds of the seed rulesets, as pure functions over plain data with the time passed in.

The 2015 and 2016 rulesets' Fair Play rule: a player “should not ‘spam’ the BlogNomic blog. What counts as
spamming is subjective, but would typically include posting more than ten blog entries in a day, more than
ten blog comments in a row, or posting a blog entry of more than 1000 words.” The software does not judge
spam, since the rule calls it subjective: passing a threshold tells the admins, who decide. A "day" is
00:00:00 to 23:59:59 UTC. "In a row" is read within one entry's comments: comments by the same account with
nobody else's between them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from dynasties.clock import day_start, next_day_start

MAX_POSTS_PER_DAY = 10
MAX_COMMENTS_IN_A_ROW = 10
MAX_WORDS_PER_ENTRY = 1000

POSTS_FLAG = (
    "Fair Play: {player} has made {count} posts on {day}; the Fair Play rule counts more than ten blog entries "
    "in a day as spam."
)
COMMENTS_FLAG = (
    "Fair Play: {player} has made {count} comments in a row on “{title}”; the Fair Play rule counts more than "
    "ten blog comments in a row as spam."
)
WORDS_FLAG = (
    "Fair Play: “{title}”{by} is {count} words long; the Fair Play rule counts a blog entry of more than 1000 "
    "words as spam."
)

# A word holds at least one letter or digit; Markdown's bullets, rules and quote marks are not words.
_WORD = re.compile(r"\S*[^\W_]\S*")


@dataclass(frozen=True)
class Threshold:
    """A Fair Play threshold passed: how far (`count`), and the key that makes its notice once only."""

    count: int
    key: str


def posts_in_a_day(post_times: Sequence[datetime], *, player_id: object, now: datetime) -> Threshold | None:
    """More than ten posts by one player on the UTC day of `now` (`post_times`: their posts' times)."""
    start, end = day_start(now), next_day_start(now)
    count = sum(1 for moment in post_times if start <= moment < end and moment <= now)
    if count <= MAX_POSTS_PER_DAY:
        return None
    return Threshold(count=count, key=f"fairplay-posts:{player_id}:{start.date().isoformat()}")


def comments_in_a_row(thread: Sequence[tuple[object, object]], *, post_id: object) -> Threshold | None:
    """More than ten comments in a row at the end of one entry's thread.

    `thread` is the entry's comments in order as (comment id, author id); the run that ends the thread is
    judged, and its first comment names it, so a twelfth comment in the same run is not a new finding.
    """
    if not thread:
        return None
    last_author = thread[-1][1]
    run = 0
    for _comment_id, author in reversed(thread):
        if author != last_author:
            break
        run += 1
    if run <= MAX_COMMENTS_IN_A_ROW:
        return None
    first_of_run = thread[len(thread) - run][0]
    return Threshold(count=run, key=f"fairplay-comments:{post_id}:{first_of_run}")


def word_count(text: str) -> int:
    """Words in a post's Markdown source: runs of non-space characters holding a letter or a digit."""
    return len(_WORD.findall(text or ""))


def entry_too_long(*, body: str, flavour: str = "", post_id: object) -> Threshold | None:
    """A blog entry of more than 1000 words, its flavour text included (it is shown as part of the entry)."""
    count = word_count(body) + word_count(flavour)
    if count <= MAX_WORDS_PER_ENTRY:
        return None
    return Threshold(count=count, key=f"fairplay-words:{post_id}")
