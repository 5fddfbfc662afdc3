"""``python manage.py import_history [DIRECTORY]``: load the real BlogNomic history as an archive."""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from blognomic.moving.history.loading import DEFAULT_DIRECTORY, DEFAULT_SEED, DynastySlice, HistoryError, history_import

SHOWN_SKIPS = 10


class Command(BaseCommand):
    help = (
        "Build an archive from the figures of BlogNomic's history (proposals since 2005, players by month, "
        "dynasty lengths) and load it. Rows that cannot be read are skipped and counted; nothing is written "
        "if the archive is refused."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "directory",
            nargs="?",
            type=Path,
            help=f"The directory holding fullprophistory.csv, players.csv and dynasty_lengths.csv "
            f"(default: {DEFAULT_DIRECTORY} from the project's root).",
        )
        parser.add_argument(
            "--dynasties", type=str, help="Only the latest N dynasties (3) or the dynasties numbered A to B (28-30)."
        )
        parser.add_argument("--limit", type=int, help="Only the latest N proposals (of those dynasties).")
        parser.add_argument(
            "--seed", type=int, default=DEFAULT_SEED, help="Seed for the comments and votes made up to fit the figures."
        )

    def handle(
        self, *args, directory: Path | None, dynasties: str | None, limit: int | None, seed: int, **options
    ) -> None:
        # The arguments are checked before the files are looked for, so a mistyped slice is named as such.
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1.")
        try:
            dynasty_slice = DynastySlice.parse(dynasties) if dynasties else None
        except HistoryError as error:
            raise CommandError(str(error)) from None
        directory = directory if directory is not None else Path(settings.BASE_DIR) / DEFAULT_DIRECTORY
        if not directory.is_dir():
            raise CommandError(f"{directory} is not a directory holding the history's files.")
        try:
            result = history_import(directory=directory, dynasties=dynasty_slice, limit=limit, seed=seed)
        except HistoryError as error:
            raise CommandError(str(error)) from None
        counts, report = result.counts, result.report
        out = self.stdout
        out.write(
            self.style.SUCCESS(
                f"Imported dynasties {result.first_dynasty} to {result.last_dynasty}: {counts['dynasties']} dynasties, "
                f"{counts['players']} players, {counts['posts']} proposals, {counts['comments']} comments "
                f"in {result.read_seconds + result.import_seconds:.1f} s "
                f"(reading and building {result.read_seconds:.1f} s, loading {result.import_seconds:.1f} s)."
            )
        )
        read = ", ".join(f"{n} from {file}" for file, n in report.rows.items())
        out.write(f"Rows read: {read}.")
        out.write(f"Texts repaired (mojibake undone): {report.repaired_texts}; still garbled: {report.garbled_texts}.")
        out.write(
            f"Bytes that were not text (shown as \ufffd): {report.lost_bytes} on {report.lines_with_lost_bytes} lines."
        )
        out.write(f"Resolutions dated before their proposal, moved after it: {report.closed_before_posted}.")
        if report.skipped:
            out.write(self.style.WARNING(f"Rows skipped because they could not be read: {report.skipped}."))
            for skipped in report.examples[:SHOWN_SKIPS]:
                out.write(f"  {skipped}")
            if report.skipped > SHOWN_SKIPS:
                out.write(f"  … and {report.skipped - SHOWN_SKIPS} more.")
        else:
            out.write("Rows skipped: 0.")
