"""``python manage.py import_mediawiki FILE.xml``: bring a wiki's pages and whole history in, all or nothing."""

import os
import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import reset_queries

from blognomic.moving.archive.people import PeopleError, read_names_file
from blognomic.moving.mediawiki.importing import import_mediawiki
from blognomic.moving.mediawiki.reading import ExportError


class Command(BaseCommand):
    help = (
        "Import a MediaWiki XML export (Special:Export or dumpBackup.php, schema 0.10 or 0.11) with every "
        "revision. Re-importing the same file changes nothing; a newer export adds only what is new."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The export to read.")
        parser.add_argument("--dry-run", action="store_true", help="Write nothing; print what would be imported.")
        parser.add_argument(
            "--ruleset-title",
            default="Ruleset",
            help="The title of the page that holds the Ruleset (default: Ruleset).",
        )
        parser.add_argument("--names", help="A names file: 'name there = name here' lines for names that differ.")
        parser.add_argument("--talk-pages", action="store_true", help="Import talk pages too.")
        parser.add_argument("--user-pages", action="store_true", help="Import user pages too.")

    def handle(self, *args, file: str, **options) -> None:
        mapping = _names(options.get("names"))
        try:
            stream = open(file, "rb")  # noqa: SIM115 (closed below, after a streamed read)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}.") from None
        size = os.fstat(stream.fileno()).st_size
        progress = _Progress(size, sys.stderr) if sys.stderr.isatty() else None

        def on_progress(done: int) -> None:
            # With DEBUG on, Django keeps the last 9,000 queries, texts included: gigabytes on a big file.
            reset_queries()
            if progress is not None:
                progress(done)

        try:
            report = import_mediawiki(
                stream,
                ruleset_title=options["ruleset_title"],
                include_talk=options["talk_pages"],
                include_user=options["user_pages"],
                mapping=mapping,
                dry_run=options["dry_run"],
                on_progress=on_progress,
            )
        except (ExportError, PeopleError) as error:
            raise CommandError(f"Nothing was imported. {error}") from None
        finally:
            stream.close()
            if progress is not None:
                progress.done()
        for line in report.lines():
            self.stdout.write(line)


def _names(path: str | None) -> dict[str, str]:
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return read_names_file(handle.read())
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text.") from None
    except PeopleError as error:
        raise CommandError(f"Nothing was imported. {error}") from None


class _Progress:
    """A one-line progress bar on the terminal: how much of the file is read."""

    WIDTH = 30

    def __init__(self, total: int, out) -> None:
        self.total, self.out, self.shown = max(total, 1), out, -1

    def __call__(self, done: int) -> None:
        percent = min(100, done * 100 // self.total)
        if percent != self.shown:
            self.shown = percent
            filled = self.WIDTH * percent // 100
            self.out.write(
                f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {percent:3d}% "
                f"{done / 1e6:,.1f} of {self.total / 1e6:,.1f} MB"
            )
            self.out.flush()

    def done(self) -> None:
        self.out.write("\n")
