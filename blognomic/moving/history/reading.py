"""Reading the history's CSV files defensively: odd bytes, mojibake and broken lines never stop a read.

Every file is read as bytes and decoded line by line: UTF-8 where it is UTF-8, a byte that is not read as
Windows-1252 (the usual culprit), and a byte that is neither becomes U+FFFD and is counted. Texts then go
through ``repair_mojibake``, which undoes UTF-8 that was once read as Windows-1252 or Latin-1 (``Ã©`` for
``é``, ``â€™`` for ``’``) wherever the garbled run decodes back to valid UTF-8. A row whose fields cannot be
read (wrong number of fields, a date that is not a date, an unknown status) is skipped and recorded in the
``ReadReport`` with its file, line and reason.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from dynasties.clock import EARLIEST_STORED, LATEST_STORED, moment_plus, storable_moment_problem

PROPOSALS_FILE = "fullprophistory.csv"
PLAYERS_FILE = "players.csv"
LENGTHS_FILE = "dynasty_lengths.csv"

STATUSES = ("Enacted", "Failed", "Vetoed", "Illegal", "Open")
PROPOSAL_COLUMNS = (
    "title",
    "proposer",
    "postedDate",
    "status",
    "admin",
    "closedDate",
    "lifespan",
    "comments",
    "dynasty",
)
PLAYER_COLUMNS = ("Month", "Active Players", "Names")
# Admin fields that mean "not known" rather than a name.
NO_ADMIN = ("", "?", "-")
TITLE_MAX_LENGTH = 300
# No proposal or dynasty runs longer than the span of dates a game may carry; a longer one is a typing error.
LONGEST_DAYS = (LATEST_STORED - EARLIEST_STORED).days
NAME_MAX_LENGTH = 150
# A quoted field may span lines; one still open after this many lines is a broken quote, not a long title.
MAX_RECORD_LINES = 5
UNTITLED = "(untitled)"
# How many skipped rows the report keeps with their reasons (the count is always complete).
KEPT_EXAMPLES = 50


class HistoryFileError(Exception):
    """A file that is missing or is not the expected table at all (no usable header)."""


def _windows_1252() -> dict[int, str]:
    table = {}
    for byte in range(0x80, 0x100):
        try:
            table[byte] = bytes([byte]).decode("cp1252")
        except UnicodeDecodeError:
            continue  # 0x81, 0x8D, 0x8F, 0x90, 0x9D: no character in Windows-1252
    return table


CP1252 = _windows_1252()
# Each character back to the byte it came from when UTF-8 was read as Windows-1252, or as Latin-1 for the
# five bytes Windows-1252 leaves undefined (and for C1 controls a Latin-1 reader would have produced).
_BYTE_OF = {char: byte for byte, char in CP1252.items()}
_BYTE_OF.update({chr(byte): byte for byte in range(0x80, 0x100) if chr(byte) not in _BYTE_OF})


def _char_class(low: int, high: int) -> str:
    return "".join(re.escape(char) for char, byte in _BYTE_OF.items() if low <= byte <= high)


_CONT = f"[{_char_class(0x80, 0xBF)}]"
# Lead bytes with exactly their number of continuation bytes, so a garbled run next to a real character
# ("SchrÃ¶dinger’s") is repaired on its own.
MOJIBAKE = re.compile(
    f"[{_char_class(0xC2, 0xDF)}]{_CONT}"
    f"|[{_char_class(0xE0, 0xEF)}]{_CONT}{{2}}"
    f"|[{_char_class(0xF0, 0xF4)}]{_CONT}{{3}}"
)


def repair_mojibake(text: str) -> str:
    """Undo UTF-8 read as Windows-1252/Latin-1 where a garbled run decodes back; leave the rest as it is."""

    def undo(match: re.Match) -> str:
        run = match.group()
        try:
            return bytes(_BYTE_OF[char] for char in run).decode("utf-8")
        except UnicodeDecodeError:
            return run

    # Twice-garbled text ("Ã©" read again) comes back one layer per pass.
    for _ in range(3):
        repaired = MOJIBAKE.sub(undo, text)
        if repaired == text:
            break
        text = repaired
    return text


def looks_garbled(text: str) -> bool:
    """Whether mojibake is left in a text after repair (a run that did not decode back)."""
    return MOJIBAKE.search(text) is not None


def decode_line(raw: bytes) -> tuple[str, int]:
    """One line as text and the number of bytes that were neither UTF-8 nor Windows-1252 (now U+FFFD)."""
    parts: list[str] = []
    lost = 0
    while raw:
        try:
            parts.append(raw.decode("utf-8"))
            break
        except UnicodeDecodeError as error:
            parts.append(raw[: error.start].decode("utf-8"))
            for byte in raw[error.start : error.end]:
                char = CP1252.get(byte)
                if char is None:
                    lost += 1
                parts.append(char or "\ufffd")
            raw = raw[error.end :]
    return "".join(parts), lost


@dataclass(frozen=True)
class Skipped:
    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file} line {self.line}: {self.reason}"


@dataclass
class ReadReport:
    """What reading the files met: rows read and skipped, texts repaired, bytes that could not be read."""

    rows: dict[str, int] = field(default_factory=dict)
    skipped: int = 0
    examples: list[Skipped] = field(default_factory=list)
    repaired_texts: int = 0
    garbled_texts: int = 0
    lost_bytes: int = 0
    lines_with_lost_bytes: int = 0
    closed_before_posted: int = 0

    def skip(self, file: str, line: int, reason: str) -> None:
        self.skipped += 1
        if len(self.examples) < KEPT_EXAMPLES:
            self.examples.append(Skipped(file, line, reason))

    def read(self, file: str) -> None:
        self.rows[file] = self.rows.get(file, 0) + 1

    def text(self, raw: str) -> str:
        """A text from the files, repaired, with control characters as spaces; counted as it goes."""
        text = repair_mojibake(raw)
        if text != raw:
            self.repaired_texts += 1
        if looks_garbled(text):
            self.garbled_texts += 1
        return " ".join("".join(" " if ord(ch) < 32 or ord(ch) == 127 else ch for ch in text).split())


@dataclass(frozen=True)
class ProposalRecord:
    line: int
    title: str
    proposer: str
    posted_at: datetime
    status: str
    admin: str | None
    closed_at: datetime | None
    comments: int
    dynasty: int


@dataclass(frozen=True)
class MonthRecord:
    month: date
    active: int
    names: tuple[str, ...]


def clean_name(name: str) -> str:
    """A name the site accepts (no '/', trimmed), or '' when nothing is left."""
    return name.replace("/", "-").strip()[:NAME_MAX_LENGTH].strip()


def parse_moment(text: str) -> datetime | None:
    """``03 Aug  2005 05:42:56`` (the spacing varies) as UTC, or None."""
    try:
        return datetime.strptime(" ".join(text.split()), "%d %b %Y %H:%M:%S").replace(tzinfo=UTC)
    except ValueError:
        return None


def _closed_at(value: dict[str, str], posted_at: datetime, report: ReadReport) -> datetime | str:
    """When a closed proposal was resolved (from its closedDate, else its lifespan), or why it cannot be said."""
    closed_at = parse_moment(value["closedDate"])
    lifespan = _whole(value["lifespan"])
    if lifespan is not None and not 0 <= lifespan <= LONGEST_DAYS * 24:
        lifespan = None
    if closed_at is None and lifespan is not None:
        closed_at = moment_plus(posted_at, timedelta(hours=lifespan))
    if closed_at is None:
        return f"closedDate {value['closedDate']!r} is not a date"
    if closed_at <= posted_at:
        # The old site's clocks disagreed by minutes: a resolution never comes before its post.
        report.closed_before_posted += 1
        closed_at = moment_plus(posted_at, timedelta(hours=lifespan or 0, minutes=1))
    if (problem := storable_moment_problem(closed_at)) is not None:
        return f"closedDate {problem}"
    return closed_at


def _whole(text: str) -> int | None:
    text = text.strip()
    if text.startswith("-") and text[1:].isdigit():
        return -int(text[1:])
    return int(text) if text.isdigit() else None


def _records(path: Path, report: ReadReport) -> Iterator[tuple[int, list[str]]]:
    """Each CSV record with the line it starts on; a quote left open for too long is a broken line."""
    if not path.is_file():
        raise HistoryFileError(f"{path.name} is missing from the history directory.")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise HistoryFileError(f"{path.name} cannot be read: {error.strerror or error}.") from None
    lines = []
    for raw in data.removeprefix(b"\xef\xbb\xbf").split(b"\n"):
        text, lost = decode_line(raw.removesuffix(b"\r"))
        if lost:
            report.lost_bytes += lost
            report.lines_with_lost_bytes += 1
        lines.append(text)
    number = 0
    while number < len(lines):
        start = number
        buffer = [lines[number]]
        number += 1
        while sum(part.count('"') for part in buffer) % 2 and number < len(lines) and len(buffer) < MAX_RECORD_LINES:
            buffer.append(lines[number])
            number += 1
        if sum(part.count('"') for part in buffer) % 2:
            # Give the lines after the broken one their own chance.
            report.skip(path.name, start + 1, "a quoted field is never closed")
            number = start + 1
            continue
        if not "".join(buffer).strip():
            continue
        try:
            fields = next(csv.reader(["\n".join(buffer)], strict=True))
        except (csv.Error, StopIteration) as error:
            report.skip(path.name, start + 1, f"not a CSV row ({error})")
            continue
        yield start + 1, fields


def _header(path: Path, records: Iterator[tuple[int, list[str]]], required: tuple[str, ...]) -> dict[str, int]:
    for _, fields in records:
        columns = {name.strip().lower(): index for index, name in enumerate(fields)}
        missing = [name for name in required if name.lower() not in columns]
        if missing:
            raise HistoryFileError(f"{path.name} has no column {', '.join(missing)} in its first row.")
        return {name: columns[name.lower()] for name in required} | {"": len(fields)}
    raise HistoryFileError(f"{path.name} is empty.")


def read_proposals(directory: Path, report: ReadReport) -> list[ProposalRecord]:
    path = directory / PROPOSALS_FILE
    records = _records(path, report)
    columns = _header(path, records, PROPOSAL_COLUMNS)
    proposals = []
    for line, fields in records:
        if len(fields) != columns[""]:
            report.skip(path.name, line, f"has {len(fields)} fields, not {columns['']}")
            continue
        value = {name: fields[index] for name, index in columns.items() if name}
        proposal = _proposal(value, line, report)
        if isinstance(proposal, str):
            report.skip(path.name, line, proposal)
            continue
        report.read(path.name)
        proposals.append(proposal)
    return proposals


def _proposal(value: dict[str, str], line: int, report: ReadReport) -> ProposalRecord | str:
    """The row as a record, or the reason it cannot be read."""
    proposer = clean_name(report.text(value["proposer"]))
    if not proposer:
        return "no proposer"
    posted_at = parse_moment(value["postedDate"])
    if posted_at is None:
        return f"postedDate {value['postedDate']!r} is not a date"
    if (problem := storable_moment_problem(posted_at)) is not None:
        return f"postedDate {problem}"
    status = value["status"].strip().capitalize()
    if status not in STATUSES:
        return f"status {value['status']!r} is not one of {', '.join(STATUSES)}"
    dynasty = _whole(value["dynasty"])
    if dynasty is None or dynasty < 1:
        return f"dynasty {value['dynasty']!r} is not a dynasty number"
    comments = _whole(value["comments"])
    if comments is None or comments < 0:
        return f"comments {value['comments']!r} is not a count"
    closed_at = None
    if status != "Open":
        closed_at = _closed_at(value, posted_at, report)
        if isinstance(closed_at, str):
            return closed_at
    title = report.text(value["title"])
    if len(title) > TITLE_MAX_LENGTH:
        title = title[: TITLE_MAX_LENGTH - 1] + "…"
    admin = clean_name(report.text(value["admin"]))
    return ProposalRecord(
        line=line,
        title=title or UNTITLED,
        proposer=proposer,
        posted_at=posted_at,
        status=status,
        admin=None if admin in NO_ADMIN else admin,
        closed_at=closed_at,
        comments=comments,
        dynasty=dynasty,
    )


def read_months(directory: Path, report: ReadReport) -> list[MonthRecord]:
    path = directory / PLAYERS_FILE
    records = _records(path, report)
    columns = _header(path, records, PLAYER_COLUMNS)
    months = []
    for line, fields in records:
        if len(fields) < columns[""]:
            report.skip(path.name, line, f"has {len(fields)} fields, not {columns['']}")
            continue
        month_text = fields[columns["Month"]].strip()
        try:
            month = datetime.strptime(month_text, "%Y-%m").date()
        except ValueError:
            report.skip(path.name, line, f"Month {month_text!r} is not a month (YYYY-MM)")
            continue
        if (problem := storable_moment_problem(datetime(month.year, month.month, 1, tzinfo=UTC))) is not None:
            report.skip(path.name, line, f"Month {problem}")
            continue
        active = _whole(fields[columns["Active Players"]])
        names = tuple(
            dict.fromkeys(
                name for name in (clean_name(report.text(part)) for part in fields[columns["Names"]].split(",")) if name
            )
        )
        report.read(path.name)
        months.append(MonthRecord(month=month, active=active if active is not None else len(names), names=names))
    return sorted(months, key=lambda m: m.month)


def read_lengths(directory: Path, report: ReadReport) -> dict[int, int]:
    """Each dynasty's length in days (the file has no header row)."""
    path = directory / LENGTHS_FILE
    lengths: dict[int, int] = {}
    for line, fields in _records(path, report):
        number, days = (_whole(fields[0]), _whole(fields[1])) if len(fields) == 2 else (None, None)
        if number is None or days is None or number < 1 or not 0 <= days <= LONGEST_DAYS:
            if line == 1 and len(fields) == 2:
                continue  # a header row, if the file ever gains one
            report.skip(path.name, line, f"{','.join(fields)!r} is not a dynasty number and a length in days")
            continue
        report.read(path.name)
        lengths[number] = days
    return lengths
