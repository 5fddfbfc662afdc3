"""Hostile input through Django's test client: every address, query parameter and form field a player can
type into answers a clear 400 or 404 page with a message, never a 500, and writes nothing.

Each case here was once a server error (a moment outside the years a datetime can hold, a number wider than
the database's integers, a Unicode digit, a NUL byte); the tests run on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
import time_machine
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse

from dynasties.models import Application, User
from dynasties.parsing import (
    BAD_MOMENT,
    BAD_NUMBER,
    MAX_BIGINT,
    MAX_INTEGER,
    MOMENT_OUT_OF_RANGE,
    NUMBER_TOO_LARGE,
)
from gndt.models import Action, Cell, Column, Row, ScheduledEffect, Update
from ruleset.models import Page, ProtectionChange, Revision
from ruleset.services import page_create, revision_add
from tests.factories import PASSWORD, T0, make_proposal
from tests.gndt.builders import make_gndt
from votes.models import Comment, Post

pytestmark = pytest.mark.django_db

OUT_OF_RANGE = ["0001-01-01T00:00+14:00", "9999-12-31T23:59-14:00"]
HX = {"HTTP_HX_REQUEST": "true"}


def build_game():
    """The GNDT test game (P01 the Emperor, P02 an admin, P03–P05 players), a Ruleset with two revisions and
    a pending proposal by P03."""
    game = make_gndt(T0)
    page = page_create(
        title="Ruleset",
        kind=Page.RULESET,
        author=game.admin,
        text="== Core ==\n=== One ===\nA.",
        summary="Start",
        now=T0,
        slug="ruleset",
    )
    revision_add(page=page, author=game.admin, text="== Core ==\n=== One ===\nB.", summary="B", now=T0)
    game.proposal = make_proposal(game.player("P03"), at=T0, title="Proposal: Calm Seas")
    return game


@pytest.fixture
def game(db):
    return build_game()


@pytest.fixture
def now(t0):
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        yield t0 + timedelta(hours=1)


def logged_in(name: str) -> Client:
    client = Client()
    assert client.login(username=name, password=PASSWORD)
    return client


def snapshot() -> dict[str, int]:
    """How many rows every table a player can write to holds; a refused request changes none of them."""
    models = [
        Post,
        Comment,
        Revision,
        Page,
        ProtectionChange,
        Column,
        Row,
        Cell,
        Update,
        Action,
        ScheduledEffect,
        Application,
        User,
    ]
    return {model.__name__: model.objects.count() for model in models}


def assert_refused(response, status: int, *texts: str) -> str:
    html = response.content.decode()
    assert response.status_code == status, html[:2000]
    for text in texts:
        assert text in html, f"{text!r} not in the page"
    return html


# --- ?at= moments ----------------------------------------------------------------------------------------


AT_PAGES = ["/gndt/", "/gndt/export.csv", "/gndt/dynasty/1/", "/gndt/dynasty/1/export.csv", "/wiki/ruleset/as-of/"]


@pytest.mark.parametrize("moment", OUT_OF_RANGE)
@pytest.mark.parametrize("address", AT_PAGES)
def test_a_moment_no_calendar_can_hold_in_utc_is_refused(client, game, now, address, moment):
    """``?at=`` is a valid ISO 8601 string whose UTC moment lies before year 1 or after year 9999: a 400
    that says so, not a server error."""
    assert_refused(client.get(address, {"at": moment}), 400, MOMENT_OUT_OF_RANGE.format(value=moment))


@pytest.mark.parametrize("address", AT_PAGES)
def test_garbage_at_is_refused_on_every_table_not_ignored(client, game, now, address):
    """``/gndt/?at=garbage`` is refused with a 400 naming the input, as the wiki's as-of page refuses it;
    it does not quietly show the table as it is now."""
    response = client.get(address, {"at": "garbage"})
    assert_refused(response, 400, BAD_MOMENT.format(value="garbage"))
    assert "The table as it stood" not in response.content.decode()


def test_a_moment_in_the_effect_form_out_of_range_is_refused(game, now):
    """The scheduled effect's start is read by the same parser: out of range, the form says so."""
    before = snapshot()
    money = Column.objects.get(name="Money")
    response = logged_in("P02").post(
        reverse("gndt_effect_new"),
        {
            "name": "Interest",
            "column": money.pk,
            "target": "all",
            "delta": 1,
            "hour": 0,
            "minute": 0,
            "starts_at": OUT_OF_RANGE[0],
            "enabled": "on",
        },
    )
    assert_refused(response, 400, "between the years 1 and 9999")
    assert snapshot() == before


# --- numbers ---------------------------------------------------------------------------------------------


def test_the_month_archive_of_december_9999_is_not_found(client, game, now):
    """/9999/12/ names a month whose end no datetime can hold: a 404 with a message."""
    assert_refused(client.get("/9999/12/"), 404, "No such month")
    assert_refused(client.get("/1999/12/"), 404, "No such month")
    assert client.get("/2016/07/").status_code == 200


@pytest.mark.parametrize("address", ["/wiki/ruleset/diff/²/2/", "/wiki/ruleset/diff/1/²/", "/wiki/ruleset/diff/١/2/"])
def test_unicode_digits_are_not_revision_numbers(client, game, now, address):
    """``"²".isdigit()`` is true but ``int("²")`` fails: a revision number is ASCII digits or “latest”."""
    assert_refused(client.get(address), 404, "A revision is a number")


def test_a_restore_with_a_unicode_digit_base_is_refused_and_restores_nothing(game, now):
    before = snapshot()
    response = logged_in("P02").post("/wiki/ruleset/r/1/restore/", {"base": "²"})
    assert_refused(response, 400, BAD_NUMBER.format(value="²"))
    assert snapshot() == before


@pytest.mark.parametrize("query", [{"old": "a/b", "new": "c"}, {"old": "1", "new": "x/y"}, {"old": "²"}])
def test_the_compare_form_refuses_what_is_not_a_revision(client, game, now, query):
    """``/wiki/ruleset/diff/?old=a/b&new=c`` could not be turned into an address: a 404 saying why."""
    assert_refused(client.get("/wiki/ruleset/diff/", query), 404, "A revision is a number")


def test_the_compare_form_still_sends_good_numbers_on(client, game, now):
    response = client.get("/wiki/ruleset/diff/", {"old": "1", "new": "latest"})
    assert response.status_code == 302 and response["Location"] == "/wiki/ruleset/diff/1/latest/"


@pytest.mark.parametrize(
    "query, bad",
    [
        ({"row": "abc", "column": "1"}, "abc"),
        ({"row": "1", "column": "²"}, "²"),
        ({"row": "-1", "column": "1"}, "-1"),
    ],
)
def test_the_cell_form_refuses_a_row_or_column_that_is_not_a_number(game, now, query, bad):
    """``/gndt/cell/?row=abc`` is a 400 that names what was typed, with or without htmx."""
    client = logged_in("P03")
    assert_refused(client.get("/gndt/cell/", query, **HX), 400, BAD_NUMBER.format(value=bad))
    assert_refused(client.get("/gndt/cell/", query), 400, BAD_NUMBER.format(value=bad))


def test_the_cell_form_refuses_a_row_number_wider_than_the_database_holds(game, now):
    response = logged_in("P03").get("/gndt/cell/", {"row": "9" * 20, "column": "1"}, **HX)
    assert_refused(response, 400, NUMBER_TOO_LARGE.format(value="9" * 20, maximum=MAX_BIGINT))


def test_the_gndt_log_filters_and_edit_form_refuse_nothing_they_can_read(client, game, now):
    """Filters are names, not numbers; an unknown one shows an empty log instead of an error."""
    assert client.get("/gndt/log/", {"row": "abc", "column": "²", "by": "nobody"}).status_code == 200
    assert logged_in("P03").get("/gndt/edit/", {"row": "abc"}).status_code == 200


HUGE = "9" * 25


@pytest.mark.parametrize("field", ["minimum", "maximum", "order"])
def test_a_column_bound_wider_than_the_database_holds_is_refused(game, now, field):
    before = snapshot()
    data = {"name": "Gems", "kind": "integer", "default": "0", field: HUGE}
    response = logged_in("P02").post(reverse("gndt_column_new"), data)
    assert_refused(response, 400, "Ensure this value is")
    assert snapshot() == before


def test_an_action_cap_wider_than_the_database_holds_is_refused(game, now):
    before = snapshot()
    response = logged_in("P02").post(
        reverse("gndt_action_new"), {"name": "Dig", "frequency": "weekly", "weekly_cap": HUGE}
    )
    assert_refused(response, 400, "Ensure this value is")
    assert snapshot() == before


@pytest.mark.parametrize("field", ["delta", "at_most", "at_least"])
def test_an_effect_number_wider_than_the_database_holds_is_refused(game, now, field):
    before = snapshot()
    money = Column.objects.get(name="Money")
    data = {
        "name": "Interest",
        "column": money.pk,
        "target": "all",
        "delta": 1,
        "hour": 0,
        "minute": 0,
        "enabled": "on",
        field: HUGE if field == "delta" else "-" + HUGE,
    }
    response = logged_in("P02").post(reverse("gndt_effect_new"), data)
    assert_refused(response, 400, "Ensure this value is")
    assert snapshot() == before


TWENTY_DIGITS = "9" * 20


@pytest.mark.parametrize(
    "address",
    [
        f"/wiki/ruleset/r/{TWENTY_DIGITS}/",
        f"/wiki/ruleset/diff/1/{TWENTY_DIGITS}/",
        f"/wiki/ruleset/diff/{TWENTY_DIGITS}/latest/",
        f"/gndt/updates/{TWENTY_DIGITS}/",
        f"/gndt/dynasty/{TWENTY_DIGITS}/",
        f"/gndt/dynasty/{TWENTY_DIGITS}/log/",
        f"/dynasties/{TWENTY_DIGITS}/",
        f"/{TWENTY_DIGITS}/07/",
        "/gndt/updates/9223372036854775808/",
        "/wiki/ruleset/r/5000000000/",
        "/dynasties/5000000000/",
        "/gndt/dynasty/5000000000/",
    ],
)
def test_a_twenty_digit_number_in_an_address_is_not_found(client, game, now, address):
    """SQLite's integers are 64 bits wide: a wider number in an address is a 404, not an overflow."""
    response = client.get(address)
    assert response.status_code == 404
    assert "Not found" in response.content.decode()


@pytest.mark.parametrize(
    "address",
    [
        f"/wiki/ruleset/r/{TWENTY_DIGITS}/restore/",
        f"/gndt/updates/{TWENTY_DIGITS}/undo/",
        f"/gndt/manage/columns/{TWENTY_DIGITS}/",
        f"/gndt/manage/rows/{TWENTY_DIGITS}/remove/",
        f"/roster/applications/{TWENTY_DIGITS}/",
    ],
)
def test_a_twenty_digit_number_in_a_write_address_is_not_found_and_writes_nothing(game, now, address):
    before = snapshot()
    assert logged_in("P02").post(address, {"base": TWENTY_DIGITS, "decision": "approve"}).status_code == 404
    assert snapshot() == before


def test_a_twenty_digit_base_revision_is_refused(game, now):
    before = snapshot()
    response = logged_in("P02").post("/wiki/ruleset/r/1/restore/", {"base": TWENTY_DIGITS})
    assert_refused(response, 400, NUMBER_TOO_LARGE.format(value=TWENTY_DIGITS, maximum=MAX_INTEGER))
    assert snapshot() == before
    response = logged_in("P02").post("/wiki/ruleset/edit/", {"text": "x", "base": TWENTY_DIGITS})
    assert_refused(response, 400, "Ensure this value is")
    assert snapshot() == before


@pytest.mark.parametrize("raw", ["²", "٣", "9" * 25, "-1"])
def test_a_core_rule_value_that_is_no_ascii_number_is_refused(game, t0, raw):
    """``"²".isdigit()`` is true; the core-rules form once turned it into a 500. Now it says what it takes."""
    from dynasties.models import RuleChange
    from tests.factories import vote
    from votes.services import matter_resolve

    for name in ("P04", "P05"):
        vote(game.proposal, game.player(name), "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=game.proposal, admin=game.admin, action="enact", now=t0 + timedelta(hours=13))
    with time_machine.travel(t0 + timedelta(hours=14), tick=False):
        response = logged_in("P02").post(
            "/core-rules/", {"proposal": game.proposal.slug, "parameter": "pending_limit", "value": raw}, follow=True
        )
    assert_refused(response, 200, "pending_limit takes a whole number of 0 or more")
    assert not RuleChange.objects.exists()


# --- NUL bytes -------------------------------------------------------------------------------------------


NUL_MESSAGE = "NUL character"


@pytest.mark.parametrize(
    "address",
    [
        "/posts/calm%00seas/",
        "/players/P0%001/",
        "/wiki/rule%00set/",
        "/wiki/ruleset/rule/1%00/",
        "/wiki/ruleset/rule/rule-one%00/history/",
        "/wiki/ruleset/diff/1/lat%00est/",
        "/category/pro%00posal/",
    ],
)
def test_a_nul_byte_in_the_path_is_refused(client, game, now, address):
    assert_refused(client.get(address), 400, NUL_MESSAGE)


@pytest.mark.parametrize(
    "address, query",
    [
        ("/gndt/log/", {"by": "P0\x001"}),
        ("/gndt/log/", {"row": "\x00"}),
        ("/gndt/log/", {"column": "a\x00"}),
        ("/gndt/", {"sort": "Money\x00"}),
        ("/gndt/", {"at": "2016-07-25\x00"}),
        ("/wiki/ruleset/as-of/", {"at": "\x00"}),
        ("/wiki/ruleset/history/", {"page": "\x00"}),
        ("/", {"page": "1\x00"}),
        ("/new/", {"kind": "\x00"}),
        ("/wiki/ruleset/diff/", {"old": "1", "new": "\x00"}),
        ("/gndt/cell/", {"row": "\x00"}),
        ("/wiki/new/", {"title": "a\x00"}),
        ("/wiki/ruleset/edit/", {"summary": "\x00"}),
        ("/accounts/login/", {"next": "/\x00"}),
    ],
)
def test_a_nul_byte_in_a_query_parameter_is_refused(game, now, address, query):
    assert_refused(logged_in("P02").get(address, query), 400, NUL_MESSAGE)


def test_a_nul_byte_in_a_query_parameter_name_is_refused(client, game, now):
    assert_refused(client.get("/gndt/?a%00b=1"), 400, NUL_MESSAGE)


def nul_posts(game):
    row, column = Row.objects.get(name="P03"), Column.objects.get(name="Money")
    slug = game.proposal.slug
    return [
        ("P04", f"/posts/{slug}/comment/", {"text": "Fine\x00", "icon": "for"}),
        ("P03", f"/posts/{slug}/edit/", {"kind": "proposal", "title": "Proposal: Calm\x00", "body": "x"}),
        ("P03", "/new/", {"kind": "story", "title": "Story\x00", "body": "Hello"}),
        ("P03", "/gndt/edit/", {f"v-{row.pk}-{column.pk}": "301\x00", f"s-{row.pk}-{column.pk}": "300"}),
        ("P03", "/gndt/edit/", {f"v-{row.pk}-{column.pk}": "301", "comment": "why\x00"}),
        ("P03", "/gndt/edit/", {f"v-{row.pk}-{column.pk}\x00": "301"}),
        ("P02", "/wiki/ruleset/edit/", {"text": "== A ==\x00", "base": "2", "summary": ""}),
        ("P02", "/wiki/ruleset/protect/", {"protected": "1", "reason": "vandal\x00"}),
        ("P02", "/wiki/new/", {"title": "Chests", "kind": "ordinary", "text": "Gold\x00"}),
        ("P02", "/gndt/manage/rows/new/", {"name": "The Pot\x00"}),
        ("P02", "/gndt/manage/lists/", {"name": "FRUIT", "entries": "apple\x00", "scope": "dynasty"}),
        ("P02", f"/admin-panel/{slug}/reopen/", {"reason": "x\x00"}),
        ("P02", "/roster/P04/rename/", {"name": "P04\x00x"}),
        (None, "/join/", {"name": "Newcomer\x00", "email": "a@example.org", "password1": "x", "password2": "x"}),
        (None, "/accounts/login/", {"username": "P03\x00", "password": PASSWORD}),
    ]


@pytest.mark.parametrize("index", range(15))
def test_a_nul_byte_in_a_form_field_is_refused_and_nothing_is_written(game, now, index):
    """A NUL byte, which PostgreSQL cannot store in text and SQLite would store, is refused with a 400 before
    any view runs, on every form; nothing is written."""
    name, address, data = nul_posts(game)[index]
    client = logged_in(name) if name else Client()
    before = snapshot()
    assert_refused(client.post(address, data), 400, NUL_MESSAGE)
    assert snapshot() == before


def test_a_nul_byte_in_the_session_cookie_is_refused(game, now):
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    sessions = Session.objects.count()
    assert_refused(client.get("/"), 400, NUL_MESSAGE)
    assert Session.objects.count() == sessions


def test_nul_bytes_are_never_stored_even_past_the_forms(game, now):
    """A service called from a management command or the shell is refused too: no model saves a NUL byte
    (PostgreSQL would fail mid-write; SQLite would store it)."""
    from django.core.exceptions import ValidationError

    page = Page.objects.get(slug="ruleset")
    before = snapshot()
    with pytest.raises(ValidationError, match=NUL_MESSAGE):
        revision_add(page=page, author=game.admin, text="== Core ==\x00", summary="", now=now)
    with pytest.raises(ValidationError, match=NUL_MESSAGE):
        make_proposal(game.player("P04"), at=now, title="Proposal: Nul\x00")
    with pytest.raises(ValidationError, match=NUL_MESSAGE):
        make_proposal(game.player("P04"), at=now, title="Proposal: Nul", body="Body\x00")
    assert snapshot() == before


def test_import_ruleset_never_stores_a_nul_byte_from_its_file(game, now, tmp_path):
    """The plain-text converter drops control characters, so the revision saved holds none."""
    from django.core.management import call_command

    source = tmp_path / "ruleset.txt"
    source.write_bytes(b"Core Rules\n\nRuleset and Gamestate\n\nEvery Player obeys\x00 this Ruleset.\n")
    call_command("import_ruleset", str(source), stdout=io.StringIO())
    latest = Revision.objects.filter(page__slug="ruleset").order_by("-number").first()
    assert "obeys this Ruleset" in latest.text
    assert not any("\x00" in text for text in Revision.objects.values_list("text", flat=True))
