"""``python manage.py import_archive FILE``: load a game from an archive, all or nothing."""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from blognomic.moving.archive import ArchiveError, import_archive

SINGULAR = {
    "players": "player",
    "dynasties": "dynasty",
    "posts": "post",
    "comments": "comment",
    "pages": "page",
    "revisions": "revision",
}


class Command(BaseCommand):
    help = "Load players, dynasties, posts with their votes and wiki pages from a JSON archive. Atomic."
    stealth_options = ("stdin",)

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The archive to read ('-' for standard input).")

    def handle(self, *args, file: str, **options) -> None:
        data = _read_json(file, stdin=options.get("stdin") or sys.stdin)
        try:
            counts = import_archive(data)
        except ArchiveError as error:
            raise CommandError(f"Nothing was imported. {error}") from None
        summary = ", ".join(f"{n} {SINGULAR[what] if n == 1 else what}" for what, n in counts.items())
        self.stdout.write(self.style.SUCCESS(f"Imported {summary}."))


def _read_json(file: str, *, stdin):
    try:
        if file == "-":
            return json.load(stdin)
        # utf-8-sig: an archive saved by an editor that adds a byte-order mark still reads.
        with open(file, encoding="utf-8-sig") as handle:
            return json.load(handle)
    except OSError as error:
        raise CommandError(f"Cannot read {file}: {error.strerror or error}.") from None
    except UnicodeDecodeError as error:
        raise CommandError(
            f"{file} is not UTF-8 text (byte {error.start} cannot be decoded); archives are UTF-8 JSON."
        ) from None
    except json.JSONDecodeError as error:
        raise CommandError(f"{file} is not valid JSON: {error}.") from None
    except RecursionError:
        raise CommandError(f"{file} is nested too deeply to be an archive.") from None
