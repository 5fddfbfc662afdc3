"""Reading archive fields with errors that say exactly where a bad value is (``posts[3].comments[7].at``)."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from dynasties.clock import NotATime, format_iso_time, parse_iso_time, storable_moment_problem

FORMAT = "blognomic-archive"
VERSION = 3
# Versions this code reads. Version 1 lacked accounts, applications, renames, notifications, reopened
# resolutions, the beat job's flags, the wiki's protection log and primary keys; version 2 lacked when posts,
# comments and resolutions were imported from another site. Both are read as before.
READABLE_VERSIONS = (1, 2, 3)

NOT_A_TIME = "not an ISO 8601 time"
NO_TIME_ZONE = "not an ISO 8601 time with a time zone (add Z for UTC)"
NUL_IN_TEXT = "may not contain the NUL character (\\u0000)"
BAD_UNICODE = "is not valid Unicode text (it holds a lone surrogate such as \\ud800)"
NOT_FINITE = "is NaN or infinite, which JSON cannot hold"
TOO_LARGE = "{size:,} bytes, more than the {limit} {holder} may hold"
# The largest value an integer column holds on every supported database (PostgreSQL ``integer``).
MAX_INTEGER = 2_147_483_647


class ArchiveError(Exception):
    """A bad field in an archive; ``path`` names it as the JSON nests it (``posts[1].comments[0].at``)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else f"The archive {message}")
        self.path = path
        self.message = message


def check_text(value: str, path: str) -> str:
    """Refuse what no database column can store, so the error names the field instead of a crash mid-write."""
    if "\x00" in value:
        raise ArchiveError(path, NUL_IN_TEXT)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ArchiveError(path, BAD_UNICODE) from None
    return value


def check_json(value: Any, path: str) -> Any:
    """Free-form JSON (a GNDT roll, a recorded tally) holds only what every database stores: no NUL byte or
    lone surrogate in any string or key, no NaN or infinite number."""
    if isinstance(value, str):
        check_text(value, path)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ArchiveError(path, NOT_FINITE)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_text(str(key), path)
            check_json(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_json(item, f"{path}[{index}]")
    return value


class Reader:
    """A view of one JSON object at a path."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise ArchiveError(path, "must be an object")
        self.data = data
        self.path = path

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def has(self, key: str) -> bool:
        return self.data.get(key) is not None

    def text(
        self,
        key: str,
        *,
        required: bool = True,
        default: str = "",
        max_length: int | None = None,
        max_bytes: int | None = None,
        holder: str = "",
    ) -> str:
        """A string; ``max_bytes`` is a limit the site sets in bytes of UTF-8 (a post's 100 KB), which
        ``holder`` names in the refusal ("a post")."""
        value = self.data.get(key)
        if value is None:
            if required:
                raise ArchiveError(self.at(key), "is required")
            return default
        if not isinstance(value, str):
            raise ArchiveError(self.at(key), "must be a string")
        if required and not value.strip():
            raise ArchiveError(self.at(key), "may not be empty")
        if max_length is not None and len(value) > max_length:
            raise ArchiveError(self.at(key), f"is longer than {max_length} characters")
        check_text(value, self.at(key))
        # A character is at most four bytes, so most texts of a large archive fit without being encoded.
        if max_bytes is not None and len(value) * 4 > max_bytes and len(value.encode("utf-8")) > max_bytes:
            raise ArchiveError(
                self.at(key),
                TOO_LARGE.format(size=len(value.encode("utf-8")), limit=in_kilobytes(max_bytes), holder=holder),
            )
        return value

    def boolean(self, key: str, *, default: bool = False) -> bool:
        value = self.data.get(key, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ArchiveError(self.at(key), "must be true or false")
        return value

    def integer(self, key: str, *, required: bool = True, minimum: int = 0, maximum: int = MAX_INTEGER) -> int | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise ArchiveError(self.at(key), "is required")
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise ArchiveError(self.at(key), "must be a whole number")
        if not minimum <= value <= maximum:
            raise ArchiveError(self.at(key), f"must be between {minimum} and {maximum}")
        return value

    def time(self, key: str, *, required: bool = True) -> datetime | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise ArchiveError(self.at(key), "is required")
            return None
        return parse_time(value, self.at(key))

    def choice(self, key: str, choices: tuple[str, ...], *, required: bool = True, nullable: bool = False):
        value = self.data.get(key)
        if value is None:
            if nullable or not required:
                return None
            raise ArchiveError(self.at(key), "is required")
        if not isinstance(value, str) or value not in choices:
            raise ArchiveError(self.at(key), f"must be one of {', '.join(choices)}; got {value!r}")
        return value

    def items(self, key: str, *, required: bool = False) -> list[tuple[Any, str]]:
        """The elements of a list field, each with its path (``posts[3]``)."""
        value = self.data.get(key)
        if value is None:
            if required:
                raise ArchiveError(self.at(key), "is required")
            return []
        if not isinstance(value, list):
            raise ArchiveError(self.at(key), "must be a list")
        return [(item, f"{self.at(key)}[{i}]") for i, item in enumerate(value)]

    def child(self, key: str) -> Reader | None:
        value = self.data.get(key)
        return None if value is None else Reader(value, self.at(key))


def in_kilobytes(size: int) -> str:
    """A limit as people say it: 102,400 bytes is "100 KB", 1,048,576 "1 MB"."""
    if size % (1024 * 1024) == 0:
        return f"{size // (1024 * 1024)} MB"
    return f"{size / 1024:g} KB"


def parse_time(value: Any, path: str) -> datetime:
    """An aware UTC datetime from an ISO 8601 string that carries its time zone (``Z`` or ``+02:00``)."""
    if not isinstance(value, str):
        raise ArchiveError(path, NOT_A_TIME)
    # datetime.fromisoformat ignores whatever follows a NUL byte after a complete time.
    check_text(value, path)
    try:
        moment = parse_iso_time(value)
    except NotATime as error:
        raise ArchiveError(path, NO_TIME_ZONE if error.naive else NOT_A_TIME) from None
    problem = storable_moment_problem(moment)
    if problem is not None:
        raise ArchiveError(path, problem)
    return moment


format_time = format_iso_time
