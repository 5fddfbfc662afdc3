"""Reading the numbers and moments people type into addresses, query strings and forms.

Every ``?at=`` moment and every number a view reads from a request goes through ``parse_moment`` or
``parse_whole_number``, so they all accept the same spellings and refuse the rest with the same message.
Both are pure functions raising ``InputError``; the request helpers below turn that into a 400 (or a 404 for
a part of the address), and the form fields into a form error.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django import forms
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest
from django.urls import register_converter
from django.urls.converters import get_converters

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
    if not text or len(text) > MAX_MOMENT_LENGTH or not text.isascii():
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


# --- Requests --------------------------------------------------------------------------------------------


def query_moment(request: HttpRequest, name: str = "at") -> datetime | None:
    """The moment in ``?name=``, None when it is absent or empty; anything else not a moment is a 400."""
    value = request.GET.get(name, "")
    if not value:
        return None
    try:
        return parse_moment(value)
    except InputError as error:
        raise BadRequest(str(error)) from None


def query_number(request: HttpRequest, name: str, *, maximum: int = MAX_BIGINT) -> int | None:
    """The whole number in ``?name=`` (or the POST field of that name), None when absent or empty."""
    source = request.POST if request.method == "POST" and name in request.POST else request.GET
    value = source.get(name, "")
    if not value:
        return None
    try:
        return parse_whole_number(value, maximum=maximum)
    except InputError as error:
        raise BadRequest(str(error)) from None


def path_number(value: str, *, message: str) -> int:
    """A number that is part of an address: anything else names no page, so it is a 404 with ``message``."""
    try:
        return parse_whole_number(value)
    except InputError:
        raise Http404(message) from None


# --- Addresses and forms ---------------------------------------------------------------------------------


class WholeNumberConverter:
    """``<num:pk>`` in an address: ASCII digits up to the widest database integer (Django's ``<int:>`` takes any
    length, and SQLite then fails on the lookup instead of finding nothing)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        return parse_whole_number(value)

    def to_url(self, value: int) -> str:
        return str(value)


def register_path_converters() -> None:
    """Make ``<num:…>`` usable in the URL configuration; each urls module calls it, the first call counts."""
    if "num" not in get_converters():
        register_converter(WholeNumberConverter, "num")


class MomentField(forms.Field):
    """A form field for a moment, read by ``parse_moment``: the same spellings as every ``?at=``."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local", "step": "1"}, format="%Y-%m-%dT%H:%M:%S")

    def to_python(self, value):
        if isinstance(value, datetime) or value in self.empty_values:
            return value or None
        try:
            return parse_moment(str(value))
        except InputError as error:
            raise forms.ValidationError(str(error), code="invalid") from None

    def prepare_value(self, value):
        if isinstance(value, datetime):
            return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")
        return value
