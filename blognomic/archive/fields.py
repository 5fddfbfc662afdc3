"""Reading archive fields with errors that say exactly where the bad value is (``posts[3].comments[7].at``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any


class ArchiveError(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


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

    def text(self, key: str, *, required: bool = True, default: str = "", max_length: int | None = None) -> str:
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
        return value

    def boolean(self, key: str, *, default: bool = False) -> bool:
        value = self.data.get(key, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ArchiveError(self.at(key), "must be true or false")
        return value

    def integer(self, key: str, *, required: bool = True) -> int | None:
        value = self.data.get(key)
        if value is None:
            if required:
                raise ArchiveError(self.at(key), "is required")
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise ArchiveError(self.at(key), "must be a whole number")
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
        if value not in choices:
            raise ArchiveError(self.at(key), f"must be one of {', '.join(choices)}; got {value!r}")
        return value

    def items(self, key: str, *, required: bool = False) -> list[Reader | Any]:
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


def parse_time(value: Any, path: str) -> datetime:
    if not isinstance(value, str):
        raise ArchiveError(path, "not an ISO 8601 time")
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ArchiveError(path, "not an ISO 8601 time") from None
    if moment.tzinfo is None:
        raise ArchiveError(path, "not an ISO 8601 time with a time zone (add Z for UTC)")
    return moment.astimezone(UTC)


def format_time(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
