"""The queries every page makes, compiled once (``dynasties.compiled.CompiledOnce``): the game's row, the current
dynasty, the pending matters with their authors and the sidebar's latest comments. They must answer exactly as the ORM
does, follow every write, and read their related objects without another query."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from dynasties.compiled import CompiledOnce
from dynasties.models import Dynasty, Game, User
from tests.factories import make_dynasty, make_proposal, make_table, vote
from votes.models import Post
from votes.selectors import recent_comments
from votes.state import _pending_with_authors, game_state

pytestmark = pytest.mark.django_db


def orm_pending() -> list[Post]:
    return list(Post.objects.pending().select_related("author", "matter_kind").order_by("posted_at", "pk"))


def same_instance(ours, theirs) -> bool:
    """The same row read into the same attributes, from the same database, as a saved row."""
    columns = {name: value for name, value in vars(ours).items() if name != "_state"}
    assert columns == {name: value for name, value in vars(theirs).items() if name != "_state"}
    return ours._state.db == theirs._state.db and not ours._state.adding


def test_the_game_is_its_one_row_as_the_orm_reads_it_made_on_first_use_and_follows_each_write():
    assert not Game.objects.exists()
    made = Game.load()
    assert made.pk == 1 and Game.objects.count() == 1
    with CaptureQueriesContext(connection) as queries:
        loaded = Game.load()
    assert len(queries) == 1 and same_instance(loaded, Game.objects.get(pk=1))

    Game.objects.filter(pk=1).update(name="Lamplighters", profile="2005", auto_resolve=True)
    loaded = Game.load()
    assert (loaded.name, loaded.profile, loaded.auto_resolve) == ("Lamplighters", "2005", True)
    assert loaded.rules_profile().name == "2005"


def test_the_current_dynasty_is_the_orms_with_its_emperor_and_ordinal_and_follows_a_new_one(t0):
    players = make_table(3, start=t0)
    first = Dynasty.objects.current()
    assert same_instance(first, Dynasty.objects.running()[0])
    with CaptureQueriesContext(connection) as queries:
        assert first.emperor == players[0] and first.emperor_ordinal == 1
        assert first.name == "The First Dynasty of P01"
    assert len(queries) == 0  # the Emperor and the ordinal came with the dynasty

    Dynasty.objects.filter(pk=first.pk).update(ended_at=t0)
    make_dynasty(emperor=players[0], started_at=t0, number=2)
    second = Dynasty.objects.current()
    assert second.pk != first.pk and second.emperor_ordinal == 2 and second.name == "The Second Dynasty of P01"

    Dynasty.objects.update(ended_at=t0 + timedelta(days=1))
    assert Dynasty.objects.current() is None


def test_the_pending_matters_are_the_orms_in_order_with_their_authors_and_follow_each_write(t0):
    players = make_table(3, start=t0)
    assert _pending_with_authors() == []
    posts = [make_proposal(players[i % 3], at=t0 + timedelta(minutes=i), title=f"Proposal: {i}") for i in range(4)]
    expected = orm_pending()
    found = _pending_with_authors()
    assert [post.pk for post in found] == [post.pk for post in expected] == [post.pk for post in posts]
    assert all(same_instance(ours, theirs) for ours, theirs in zip(found, expected, strict=True))
    with CaptureQueriesContext(connection) as queries:
        assert [post.author.username for post in found] == ["P01", "P02", "P03", "P01"]
        assert [post.matter_kind for post in found] == [None] * 4
    assert len(queries) == 0

    Post.objects.filter(pk=posts[1].pk).update(status="enacted")
    assert [post.pk for post in _pending_with_authors()] == [posts[0].pk, posts[2].pk, posts[3].pk]
    assert [post.pk for post in game_state(t0 + timedelta(hours=1)).pending] == [posts[0].pk, posts[2].pk, posts[3].pk]


def test_it_is_compiled_once_per_thread(t0, monkeypatch):
    """Compiled on the first call of each thread (a compiler holds its thread's connection), then only run."""
    make_table(2, start=t0)
    compiled = CompiledOnce(lambda: User.objects.filter(is_admin=True).order_by("username"))
    calls = []
    real = compiled._compile
    monkeypatch.setattr(compiled, "_compile", lambda: calls.append(threading.get_ident()) or real())
    for _ in range(3):
        assert [user.username for user in compiled()] == ["P02"]
    assert len(calls) == 1

    def in_another_thread() -> None:
        try:
            compiled()
        finally:
            connection.close()

    other = threading.Thread(target=in_another_thread)
    other.start()
    other.join()
    assert len(calls) == 2 and calls[0] != calls[1]


def test_a_query_it_cannot_make_instances_of_is_refused():
    for build in (lambda: User.objects.values("pk"), lambda: User.objects.prefetch_related("dynasties_ruled")):
        with pytest.raises(ValueError, match="model instances"):
            CompiledOnce(build)()


def test_the_sidebars_latest_comments_are_the_orms_with_only_the_columns_it_shows(t0):
    """Every sidebar's five latest comments: the same rows as the query for any other moment or number, with
    the same columns read and the rest left deferred, and their authors and matters read with them."""
    players = make_table(3, start=t0)
    post = make_proposal(players[0], at=t0)
    for minute in range(7):
        vote(
            post,
            players[minute % 3],
            ("for", "against", None)[minute % 3],
            at=t0 + timedelta(minutes=minute),
            text="So.",
        )
    found = recent_comments()
    expected = recent_comments(until=t0 + timedelta(days=1))  # built through the ORM
    assert [comment.pk for comment in found] == [comment.pk for comment in expected] and len(found) == 5
    assert all(same_instance(ours, theirs) for ours, theirs in zip(found, expected, strict=True))
    assert found[0].get_deferred_fields() == expected[0].get_deferred_fields() != set()
    with CaptureQueriesContext(connection) as queries:
        assert {(comment.author.username, comment.post.slug) for comment in found} == {
            (player.username, post.slug) for player in players
        }
    assert len(queries) == 0
