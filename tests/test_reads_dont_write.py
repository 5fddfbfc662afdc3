"""Reads don't write: every URL of the site, requested with GET as every role of the permission matrix, leaves
the content version where it was and writes nothing to the database but the bookkeeping named below, each
with its reason; and a page rendered for one reader says so to every cache on the way (``Cache-Control:
private``), while the visitors' pages stay as shareable as they were.

The requests are the site's one sweep (``tests/site_sweep.py``), made once per process with the permission
matrix and the secrets canary: every GET it makes (the matrix's, as an htmx fragment, with a bad id, and those
aimed at the canary's secrets), each in a savepoint rolled back.
"""

from __future__ import annotations

import pytest

from tests.permissions import ROLES
from tests.site_sweep import Answer

# The sweep is made once per process that runs one of its tests: kept on one worker, it is made once.
pytestmark = pytest.mark.xdist_group("site-sweep")

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
    "api:gndt_actions": "the dynasty's declared actions and their limits, the same for every reader",
    "healthz": "answered before the session is read, for the container's health check: whether the database answers",
}


@pytest.fixture
def answers(site_sweep) -> tuple[list[Answer], Answer]:
    """Every GET as every role; and a POST that writes (the active player's notice preferences), to show that
    the watch sees a write."""
    gets = [answer for answer in site_sweep.answers if answer.probe.method == "GET"]
    post = next(
        answer
        for answer in site_sweep.answers
        if (answer.key, answer.probe.method, answer.probe.kind, answer.role)
        == ("notice_preferences", "POST", "matrix", "active")
    )
    return gets, post


def described(found: list[Answer]) -> str:
    return "\n".join(
        f"{a.probe.label} ({a.key}) as {a.role}: {a.status}, wrote {list(a.written)}, Cache-Control {a.cache_control!r}"
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


@pytest.mark.django_db
def test_a_read_with_a_token_writes_only_when_the_token_was_last_used(site_sweep):
    """The API's GETs sent with each role's token move no version and write nothing but the token's last use
    (``TokenUse``, bookkeeping that no cached page shows)."""
    reads = [answer for answer in site_sweep.answers if answer.probe.method == "TOKEN GET"]
    assert len(reads) > 50
    moved = [a for a in reads if a.content_moved]
    assert not moved, described(moved)
    stray = [a for a in reads if set(a.written) - {"tokens_tokenuse"}]
    assert not stray, described(stray)
