"""Posts and comments turned into the engine's plain data: ballots, matters, who may vote, and the comments
the edit locks read (``votes.engine``, ``votes.limits``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from votes import engine, limits
from votes.matter_kind_services import ValuesCache
from votes.models import Comment, Post
from votes.state import GameState


def ballots_from(comments: Iterable[Comment]) -> tuple[engine.Ballot, ...]:
    return tuple(
        engine.Ballot(author=c.author.username, at=c.at, icon=c.icon or None, comment_id=c.pk, trivial=c.trivial)
        for c in comments
    )


def matter_from(post: Post, comments: Iterable[Comment]) -> engine.Matter:
    return matter_of_ballots(post, ballots_from(comments))


def matter_of_ballots(post: Post, ballots: tuple[engine.Ballot, ...]) -> engine.Matter:
    return engine.Matter(
        id=post.pk,
        kind=post.kind,
        author=post.author.username,
        posted_at=post.posted_at,
        ballots=ballots,
        title=post.title,
        trivial=post.trivial,
        anonymous=post.anonymous,
    )


def ballots_by_post(pending: Sequence[Post]) -> dict[int, tuple[engine.Ballot, ...]]:
    """The ballots of ``votes_by_post``, read as plain values: a sweep over a thousand matters spends most of
    its time making objects, and judging needs only these five columns of each vote."""
    by_post: dict[int, list[engine.Ballot]] = defaultdict(list)
    votes = (
        Comment.objects.filter(post__in=pending, icon__isnull=False)
        .order_by("at", "pk")
        .values_list("post_id", "author__username", "at", "icon", "pk", "trivial")
    )
    for post_id, author, at, icon, pk, trivial in votes:
        by_post[post_id].append(engine.Ballot(author=author, at=at, icon=icon or None, comment_id=pk, trivial=trivial))
    return {post.pk: tuple(by_post[post.pk]) for post in pending}


def edit_comments(comments: Iterable[Comment]) -> list[limits.PostComment]:
    """Comments as the edit locks see them; a comment by an account that never joined is a spectator's."""
    return [
        limits.PostComment(
            author=c.author.username,
            at=c.at,
            text=c.text,
            icon=c.icon or None,
            by_player=c.author.joined_at is not None,
        )
        for c in comments
    ]


def electorate_of(state: GameState) -> engine.Electorate:
    emperor = state.dynasty.emperor.username if state.dynasty and state.dynasty.emperor else None
    return engine.Electorate(active=state.roster.active_names, emperor=emperor, hiatus=state.hiatus is not None)


def values_cache(state: GameState) -> ValuesCache:
    """The GNDT values read for this state's page or service, kept with the state so they are read once."""
    cache = getattr(state, "_values_cache", None)
    if cache is None:
        cache = state._values_cache = ValuesCache()
    return cache
