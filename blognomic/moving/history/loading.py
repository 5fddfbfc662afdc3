"""``history_import``: read the history's files, take a slice if asked, and load it as one archive."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction

from blognomic.moving.archive import ArchiveError, import_archive
from blognomic.moving.history.building import History, build_archive
from blognomic.moving.history.reading import (
    HistoryFileError,
    ReadReport,
    read_lengths,
    read_months,
    read_proposals,
)
from dynasties.models import Dynasty

# Relative to the project's root: the figures live beside the project, never inside it.
DEFAULT_DIRECTORY = Path("..") / "shared" / "data" / "blognomic-history"
DEFAULT_SEED = 2003

NO_PROPOSALS = "The history holds no proposals in that slice ({slice})."
ALREADY_THERE = (
    "The database already has dynasties {numbers}: import the history into a database without them "
    "(a fresh one, or choose other dynasties with --dynasties)."
)
BAD_SLICE = (
    "--dynasties takes a count of the latest dynasties (3) or a range of dynasty numbers (28-30); got {value!r}."
)
NOT_IMPORTED = "Nothing was imported: the archive built from the history was refused ({error})."


class HistoryError(Exception):
    """The history cannot be imported as asked; the message says why. Nothing was written."""


@dataclass(frozen=True)
class DynastySlice:
    """The latest ``count`` dynasties, or the dynasties numbered ``first`` to ``last``."""

    count: int | None = None
    first: int | None = None
    last: int | None = None

    @classmethod
    def parse(cls, value: str) -> DynastySlice:
        text = value.strip()
        low, dash, high = text.partition("-")
        try:
            if dash:
                first, last = int(low), int(high)
                if 1 <= first <= last:
                    return cls(first=first, last=last)
            elif int(text) >= 1:
                return cls(count=int(text))
        except ValueError:
            pass
        raise HistoryError(BAD_SLICE.format(value=value))

    def __str__(self) -> str:
        return f"the latest {self.count} dynasties" if self.count else f"dynasties {self.first} to {self.last}"


@dataclass
class HistoryImport:
    counts: dict[str, int]
    report: ReadReport
    read_seconds: float
    import_seconds: float
    first_dynasty: int
    last_dynasty: int


def read_history(directory: Path, report: ReadReport) -> History:
    try:
        return History(
            proposals=read_proposals(directory, report),
            months=read_months(directory, report),
            lengths=read_lengths(directory, report),
        )
    except HistoryFileError as error:
        raise HistoryError(str(error)) from None


def select(history: History, *, dynasties: DynastySlice | None, limit: int | None) -> tuple[History, list[int]]:
    """The slice's proposals and the numbers of the dynasties it covers."""
    every = sorted(set(history.lengths) | {p.dynasty for p in history.proposals})
    if dynasties is None:
        numbers = every
    elif dynasties.count is not None:
        numbers = every[-dynasties.count :]
    else:
        numbers = [n for n in every if dynasties.first <= n <= dynasties.last]
    chosen = set(numbers)
    proposals = [p for p in history.proposals if p.dynasty in chosen]
    if limit is not None:
        proposals = sorted(proposals, key=lambda p: (p.posted_at, p.line))[-limit:] if limit > 0 else []
        numbers = sorted({p.dynasty for p in proposals})
    return History(proposals=proposals, months=history.months, lengths=history.lengths), numbers


def history_import(
    *, directory: Path, dynasties: DynastySlice | None = None, limit: int | None = None, seed: int = DEFAULT_SEED
) -> HistoryImport:
    """Load the history (or a slice of it) into the database in one transaction; refuse rather than merge."""
    report = ReadReport()
    started = time.perf_counter()
    history, numbers = select(read_history(directory, report), dynasties=dynasties, limit=limit)
    if not history.proposals:
        raise HistoryError(NO_PROPOSALS.format(slice=dynasties or f"the latest {limit} proposals"))
    archive = build_archive(history, dynasties=numbers, seed=seed)
    read_seconds = time.perf_counter() - started
    started = time.perf_counter()
    with transaction.atomic():
        # The archive format would update a dynasty already there; history is only ever added whole.
        taken = sorted(Dynasty.objects.filter(number__in=numbers).values_list("number", flat=True))
        if taken:
            shown = ", ".join(map(str, taken[:10])) + (" and more" if len(taken) > 10 else "")
            raise HistoryError(ALREADY_THERE.format(numbers=shown))
        try:
            counts = import_archive(archive)
        except ArchiveError as error:
            raise HistoryError(NOT_IMPORTED.format(error=error)) from None
    return HistoryImport(
        counts=counts,
        report=report,
        read_seconds=read_seconds,
        import_seconds=time.perf_counter() - started,
        first_dynasty=numbers[0],
        last_dynasty=numbers[-1],
    )
