"""Reads don't write: every URL of the site, requested with GET as every role of the permission matrix, leaves
the content version where it was and writes nothing to the database but the bookkeeping named below, each
with its reason; and a page rendered for one reader says so to every cache on the way (``Cache-Control:
private``), while the visitors' pages stay as shareable as they were.

The game, the roles and each URL's arguments are the permission matrix's (``tests/permissions.py``), built
once for this module; each request is made once, in a savepoint rolled back, and the tests read the answers.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

import pytest
from django.db import connection, transaction
from django.test import Client, override_settings
from django.urls import resolve, reverse

from blognomic.community.messaging.selectors import inbox
from blognomic.web.freshness import current_versions, written_table
from dynasties.privacy import is_personal_page
from tests.permissions import ROLES
from tests.test_permissions import game, requests_to_make  # noqa: F401  (the matrix's module-scoped game)

# Every request is made once per process that runs one of these tests: kept on one worker, once.
pytestmark = pytest.mark.xdist_group("reads-dont-write")

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|TRUNCATE)\b", re.IGNORECASE)

# The only writes a GET may make, by URL name and table, each with its reason. Both record how far the reader
# has read, and only when something was unread; neither moves the content version (``READ_MARKER_TABLES``).
BOOKKEEPING_WRITES = {
    ("notifications", "dynasties_notification"): "opening one's notices marks the unread ones read",
    ("message_thread", "messaging_participant"): "opening a conversation marks it read up to its last message",
}

# Answers that cannot depend on who asks, each with its reason; every other answer to a logged-in reader is private.
SAME_FOR_EVERYONE = {
    "api:index": "the API's list of its endpoints, read from its schema, whoever asks",
    "api:api-root": "the same address as api:index, under the name the API's library gives it",
    "healthz": "answered before the session is read, for the container's health check: whether the database answers",
}


@dataclass(frozen=True)
class Answer:
    role: str
    key: str
    path: str
    status: int
    written: tuple[str, ...]  # the tables written, in order
    content_moved: bool
    own_moved: bool
    had_unread: bool
    cache_control: str
    personal: bool  # the view says it is one account's own page

    @property
    def directives(self) -> set[str]:
        return {part.strip() for part in self.cache_control.lower().split(",") if part.strip()}


def unread_before(key: str, path: str, user) -> bool:
    """Whether the reader had anything unread that the page would mark read."""
    if user is None:
        return False
    if key == "notifications":
        return user.notifications.filter(read_at__isnull=True).exists()
    if key == "message_thread":
        pk = resolve(path.partition("?")[0]).kwargs["pk"]
        return any(conversation.unread for conversation in inbox(user) if conversation.pk == pk)
    return False


def request_once(
    client: Client,
    path: str,
    headers: dict,
    role: str,
    key: str,
    user,
    data: dict | None = None,
) -> Answer:
    written: list[str] = []

    def watch(execute, sql, params, many, context):
        if isinstance(sql, str) and WRITE.match(sql):
            written.append(written_table(sql) or sql)
        return execute(sql, params, many, context)

    reader = user.pk if user is not None else None
    cookies = copy.deepcopy(client.cookies)
    with transaction.atomic():
        had_unread = unread_before(key, path, user)
        content, own = current_versions(reader)
        with connection.execute_wrapper(watch):
            response = client.get(path, **headers) if data is None else client.post(path, data, **headers)
        content_after, own_after = current_versions(reader)
        transaction.set_rollback(True)
    client.cookies = cookies
    return Answer(
        role=role,
        key=key,
        path=path,
        status=response.status_code,
        written=tuple(written),
        content_moved=content_after != content,
        own_moved=own_after != own,
        had_unread=had_unread,
        cache_control=response.get("Cache-Control", ""),
        personal=is_personal_page(resolve(path.partition("?")[0]).func),
    )


@pytest.fixture(scope="module")
def answers(game, django_db_blocker) -> tuple[list[Answer], Answer]:  # noqa: F811
    """Every GET as every role; and one POST that writes, to show that the watch sees a write."""
    built, clients = game
    # In this process's memory, which every statement moves at once even inside the test's transaction (the
    # suite's own setting is made per test, after this module's fixtures).
    with override_settings(CONTENT_VERSION_STORE="memory"), django_db_blocker.unblock():
        gets = [
            request_once(clients[role], path, headers, role, key, built.users[role])
            for key, method, path, headers in requests_to_make(built)
            if method == "GET"
            for role in ROLES
        ]
        post = request_once(
            clients["active"],
            reverse("notice_preferences"),
            {},
            "active",
            "notice_preferences",
            built.users["active"],
            data=built.data["notice_preferences"],
        )
    return gets, post


def described(found: list[Answer]) -> str:
    return "\n".join(
        f"GET {a.path} ({a.key}) as {a.role}: {a.status}, wrote {list(a.written)}, Cache-Control {a.cache_control!r}"
        for a in found
    )


# The marker makes pytest-django create the test database even when this module runs alone.
@pytest.mark.django_db
def test_no_get_moves_the_content_version(answers):
    """A GET of any URL, as any role, leaves every other reader's cached pages where they were. There is no
    exception: the read markers move the reader's own version instead."""
    answers, post = answers
    assert post.written and post.content_moved, "a POST that writes moves the version: the watch sees writes"
    assert len(answers) > 500
    moved = [a for a in answers if a.content_moved]
    assert not moved, described(moved)


@pytest.mark.django_db
def test_a_get_writes_only_the_named_bookkeeping_and_only_when_something_was_unread(answers):
    """No INSERT, UPDATE or DELETE at all from a GET, sessions included, but the read markers of
    ``BOOKKEEPING_WRITES``; and those only for a reader who had something unread, which then moves that
    reader's own version."""
    answers, _ = answers
    stray = [a for a in answers if any((a.key, table) not in BOOKKEEPING_WRITES for table in a.written)]
    assert not stray, described(stray)
    needless = [a for a in answers if a.written and not a.had_unread]
    assert not needless, described(needless)
    unmarked = [a for a in answers if a.had_unread and a.status == 200 and not (a.written and a.own_moved)]
    assert not unmarked, described(unmarked)
    assert {a.key for a in answers if a.written} == {key for key, _ in BOOKKEEPING_WRITES}, (
        "the game gives some reader something unread on each page that marks it, so each exception is used"
    )


@pytest.mark.django_db
def test_every_page_rendered_for_a_logged_in_reader_is_private(answers):
    """Finding: "pages for one reader (``/messages/``, ``/notices/``, the admin panel) lack ``Cache-Control:
    private``". Any answer to a reader whose session names them says ``private``, whatever the page."""
    answers, _ = answers
    logged_in = {role for role in ROLES if role not in ("visitor", "applicant")}
    public = [
        a
        for a in answers
        if a.role in logged_in and a.status == 200 and "private" not in a.directives and a.key not in SAME_FOR_EVERYONE
    ]
    assert not public, described(public)
    assert any(a.key == "admin_panel" and a.role == "admin" and a.status == 200 for a in answers)


@pytest.mark.django_db
def test_pages_of_ones_own_letters_and_notices_are_kept_by_no_cache(answers):
    """Messages, notices and the notices feed: ``private, no-store`` for whoever may read them (the feed by its
    secret address, with no session)."""
    answers, _ = answers
    personal = [a for a in answers if a.status == 200 and a.personal]
    assert {a.key for a in personal} >= {"notifications", "notices_feed", "messages_inbox", "message_thread"}
    kept = [a for a in personal if not {"private", "no-store"} <= a.directives]
    assert not kept, described(kept)


@pytest.mark.django_db
def test_the_visitors_pages_stay_shareable(answers):
    """A visitor's page is the same for every visitor: it does not say ``private``, unless its view asks that
    no one keep it at all (``no-store``: the login forms, the notices feed at its secret address)."""
    answers, _ = answers
    visitors = [a for a in answers if a.role == "visitor" and a.status == 200]
    assert len(visitors) > 40
    private = [a for a in visitors if "private" in a.directives and "no-store" not in a.directives]
    assert not private, described(private)
