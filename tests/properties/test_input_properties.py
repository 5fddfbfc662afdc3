"""Properties of every parser of typed moments and numbers: ``?at=`` on the GNDT, its CSV and past tables,
the wiki's as-of, the forms' moment fields, the archive's times and the whole numbers in addresses.

Every one either reads a value or refuses it with a message; none raises anything else, and where two read
the same spelling they agree.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from blognomic.moving.archive.fields import ArchiveError, parse_time
from dynasties.parsing import (
    BAD_MOMENT,
    BAD_NUMBER,
    MAX_BIGINT,
    MOMENT_OUT_OF_RANGE,
    NUMBER_TOO_LARGE,
    InputError,
    parse_moment,
    parse_whole_number,
)
from ruleset.forms import AsOfForm
from tests.properties.profiles import examples

moment_like = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "0001-01-01T00:00+14:00",
            "9999-12-31T23:59-14:00",
            "2016-07-26",
            "2016-07-26 12:00",
            "2016-07-26T12:00:00Z",
            "2016-07-26T12:00:00.5+02:00",
            "yesterday",
            "2016-13-01",
            "²⁰¹⁶",
            "٢٠١٦-٠٧-٢٦",
            "2016-07-26T25:00",
            "+002016-07-26",
            "2016-W30-2",
            "20160726T1200",
        ]
    ),
    st.datetimes(timezones=st.timezones()).map(lambda moment: moment.isoformat()),
)
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(lambda m: timezone(timedelta(minutes=m)))
in_range = st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9998, 12, 31), timezones=offsets)


@settings(max_examples=examples(300))
@given(value=moment_like)
def test_parse_moment_reads_a_utc_moment_or_refuses_with_a_message(value):
    try:
        moment = parse_moment(value)
    except InputError as error:
        assert str(error) in (BAD_MOMENT.format(value=value), MOMENT_OUT_OF_RANGE.format(value=value))
        return
    assert moment.tzinfo is UTC


@settings(max_examples=examples(200))
@given(moment=in_range)
def test_parse_moment_reads_back_what_isoformat_writes(moment):
    assert parse_moment(moment.isoformat()) == moment
    assert parse_moment(moment.astimezone(UTC).isoformat().replace("+00:00", "Z")) == moment
    typed = moment.astimezone(UTC).replace(tzinfo=None, microsecond=0)
    assert parse_moment(typed.isoformat(sep=" ")) == typed.replace(tzinfo=UTC)


@settings(max_examples=examples(200))
@given(value=moment_like)
def test_the_archive_and_the_pages_agree_on_every_time_the_archive_accepts(value):
    """The archive's stricter reader (a zone is required) never accepts a time the pages read otherwise."""
    try:
        strict = parse_time(value, "at")
    except ArchiveError:
        return
    assert parse_moment(value) == strict


@pytest.mark.django_db
@settings(max_examples=examples(200))
@given(value=moment_like)
def test_the_as_of_form_accepts_exactly_what_parse_moment_accepts(value):
    form = AsOfForm({"at": value})
    try:
        expected = parse_moment(value) if value.strip() else None
    except InputError as error:
        assert not form.is_valid() and form.errors["at"] == [str(error)]
        return
    if expected is None:
        assert not form.is_valid()
    else:
        assert form.is_valid() and form.cleaned_data["at"] == expected


@settings(max_examples=examples(300))
@given(
    value=st.one_of(
        st.text(max_size=25),
        st.integers(min_value=-5, max_value=2**70).map(str),
        st.sampled_from(["²", "١٢", "0" * 40 + "7", " 12 ", "1_000", "+3", "0x1f", "1e3"]),
    ),
    maximum=st.sampled_from([100_000, 2**31 - 1, MAX_BIGINT]),
)
def test_parse_whole_number_reads_ascii_digits_up_to_the_maximum(value, maximum):
    try:
        number = parse_whole_number(value, maximum=maximum)
    except InputError as error:
        assert str(error) in (BAD_NUMBER.format(value=value), NUMBER_TOO_LARGE.format(value=value, maximum=maximum))
        stripped = value.strip()
        assert not (stripped.isascii() and stripped.isdigit() and int(stripped) <= maximum)
        return
    assert 0 <= number <= maximum and value.strip().isascii() and int(value.strip()) == number


# --- Through the pages ---------------------------------------------------------------------------------


@pytest.fixture
def tables(t0):
    from ruleset.models import Page
    from ruleset.services import page_create
    from tests.gndt.builders import make_gndt

    game = make_gndt(t0)
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        author=game.admin,
        text="== Core ==\n=== One ===\nA.",
        summary="Start",
        now=t0,
        slug="ruleset",
    )
    return game


AT_PAGES = ["/gndt/", "/gndt/export.csv", "/gndt/dynasty/1/", "/gndt/dynasty/1/export.csv", "/wiki/ruleset/as-of/"]


@pytest.mark.django_db
@settings(max_examples=examples(25), suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=moment_like.filter(lambda text: "\x00" not in text), address=st.sampled_from(AT_PAGES))
@example(value="", address="/wiki/ruleset/as-of/")
@example(value="", address="/gndt/")
@example(value="0001-01-01T00:00+14:00", address="/gndt/export.csv")
def test_every_at_page_shows_the_moment_or_refuses_it_with_the_parsers_message(client, tables, value, address):
    """``?at=`` on every page that takes one: the page (200, or 404 before the wiki page existed) exactly when
    the shared parser reads the value, else a 400 carrying the parser's message. Never a 500. An empty value
    shows the table as it is now; the wiki's as-of page asks for a moment again; the GNDT's CSV of a moment
    before its dynasty began is a 404."""
    response = client.get(address, {"at": value})
    try:
        moment = parse_moment(value) if value.strip() else None
    except InputError as error:
        assert response.status_code == 400
        from django.utils.html import escape

        body = response.content.decode()
        assert str(error) in body or escape(str(error)) in body
        return
    # Before the dynasty began there was no table: its page says so, and its CSV export is a 404.
    before_start = moment is not None and moment < tables.dynasty.started_at
    if address.startswith("/wiki/"):
        # The as-of page is about a moment: an empty one is asked for again (400), as the form requires it.
        assert response.status_code in ((200, 404) if moment is not None else (400,))
    else:
        assert response.status_code == (404 if before_start and address.endswith(".csv") else 200)
    if moment is not None and address.endswith(".csv") and not before_start:
        assert f"-at-{moment:%Y%m%dT%H%M}.csv" in response["Content-Disposition"]
