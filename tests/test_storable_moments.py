"""The dates a game's records may carry: ``dynasties.clock.storable_moment_problem``."""

from datetime import UTC, datetime

from dynasties.clock import storable_moment_problem


def test_an_ordinary_moment_may_be_stored():
    assert storable_moment_problem(datetime(2006, 3, 1, 12, tzinfo=UTC)) is None


def test_the_last_day_of_year_9999_is_refused_with_the_date_named():
    problem = storable_moment_problem(datetime(9999, 12, 31, tzinfo=UTC))
    assert problem is not None and "9999-12-31" in problem


def test_a_moment_before_1970_is_refused():
    assert storable_moment_problem(datetime(1, 1, 1, tzinfo=UTC)) is not None


def test_a_naive_moment_is_refused():
    assert "time zone" in (storable_moment_problem(datetime(2006, 3, 1)) or "")
