"""``python manage.py import_archive FILE``: load a game from an archive, all or nothing."""

import json

from django.core.management.base import BaseCommand, CommandError

from blognomic.archive import ArchiveError, import_archive


class Command(BaseCommand):
    help = "Load players, dynasties, posts with their votes and wiki pages from a JSON archive. Atomic."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The archive to read ('-' for standard input).")

    def handle(self, *args, file: str, **options) -> None:
        try:
            if file == "-":
                import sys

                data = json.load(sys.stdin)
            else:
                with open(file, encoding="utf-8") as handle:
                    data = json.load(handle)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{file} is not valid JSON: {error}.") from None
        try:
            counts = import_archive(data)
        except ArchiveError as error:
            raise CommandError(f"Nothing was imported. {error}") from None
        summary = ", ".join(f"{n} {what}" for what, n in counts.items())
        self.stdout.write(self.style.SUCCESS(f"Imported {summary}."))
