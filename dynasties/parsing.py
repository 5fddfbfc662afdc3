"""Reading the numbers and moments people type, as pure functions with one message for each kind of refusal.

Every ``?at=`` moment and every number the site reads from an address, a query string, a form or a command
goes through ``parse_moment`` or ``parse_whole_number``, so they all accept the same spellings and refuse the
rest the same way. ``dynasties.inputs`` turns an ``InputError`` into a 400, a 404 or a form error.
"""

from __future__ import annotations

from datetime import UTC, datetime

BAD_MOMENT = "“{value}” is not a date and time. Give a time such as 2016-07-26 12:00 (UTC)."
MOMENT_OUT_OF_RANGE = "“{value}” is not a moment between the years 1 and 9999 (UTC)."
BAD_NUMBER = "“{value}” is not a whole number such as 3."
NUMBER_TOO_LARGE = "“{value}” is too large; the largest number here is {maximum}."

# The widest integer every supported database stores: SQLite's and PostgreSQL's ``bigint``. Any id or number
# beyond it cannot name a row, and SQLite refuses even to compare with it.
MAX_BIGINT = 2**63 - 1
# PostgreSQL's ``integer``, the width of the counts and bounds the site stores.
MAX_INTEGER = 2**31 - 1
MAX_MOMENT_LENGTH = 64
ASCII_DIGITS = frozenset("0123456789")


class InputError(ValueError):
    """A typed value that is not what was asked for; the message says what was typed and what is wanted."""


def parse_moment(value: str) -> datetime:
    """A moment as typed in a form (``2016-07-26T12:00`` or ``2016-07-26 12:00``, read as UTC) or in ISO 8601
    with a zone (``…Z``, ``…+02:00``), as an aware UTC datetime between the years 1 and 9999."""
    text = value.strip().replace(" ", "T", 1)
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    # isprintable() also refuses a NUL byte, after which datetime.fromisoformat ignores the rest.
    if not text or len(text) > MAX_MOMENT_LENGTH or not text.isascii() or not text.isprintable():
        raise InputError(BAD_MOMENT.format(value=value))
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise InputError(BAD_MOMENT.format(value=value)) from None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        # "0001-01-01T00:00+14:00" is well formed, but its UTC moment falls before the year 1.
        raise InputError(MOMENT_OUT_OF_RANGE.format(value=value)) from None


def parse_whole_number(value: str, *, maximum: int = MAX_BIGINT) -> int:
    """A whole number of ASCII digits (``"²"`` and ``"٣"`` are digits to ``str.isdigit`` but not here), at most
    ``maximum``."""
    text = value.strip()
    if not text or not set(text) <= ASCII_DIGITS:
        raise InputError(BAD_NUMBER.format(value=value))
    # Compare lengths first: int() of a very long string is slow, and the number is refused anyway.
    if len(text.lstrip("0")) > len(str(maximum)) or int(text) > maximum:
        raise InputError(NUMBER_TOO_LARGE.format(value=value, maximum=maximum))
    return int(text)
