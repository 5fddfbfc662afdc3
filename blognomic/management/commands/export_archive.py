"""``python manage.py export_archive FILE``: write the whole game as an archive."""

import json
import os
import tempfile

from django.core.management.base import BaseCommand, CommandError

from blognomic.archive import export_archive


class Command(BaseCommand):
    help = "Write players, dynasties, posts with their votes and wiki pages to a JSON archive."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="Where to write the archive ('-' for standard output).")

    def handle(self, *args, file: str, **options) -> None:
        text = json.dumps(export_archive(), ensure_ascii=False, indent=1)
        if file == "-":
            self.stdout.write(text)
            return
        directory = os.path.dirname(os.path.abspath(file))
        try:
            # Write beside the target and rename, so a failed export never leaves half a file behind.
            fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
            os.replace(tmp, file)
        except OSError as error:
            raise CommandError(f"Cannot write {file}: {error.strerror}.") from None
        self.stderr.write(f"Wrote {file}.")
