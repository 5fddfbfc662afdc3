"""Reading numbers and moments from requests, addresses and forms with ``dynasties.parsing``.

The request helpers turn a refused value into a 400 (or a 404 for a part of the address) whose message says
what was typed and what is wanted; the path converter and the form field use the same parsers.
"""

from __future__ import annotations

from datetime import UTC, datetime

from django import forms
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest
from django.urls import register_converter
from django.urls.converters import get_converters

from dynasties.parsing import MAX_BIGINT, InputError, parse_moment, parse_whole_number

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
