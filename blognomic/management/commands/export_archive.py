"""``python manage.py export_archive FILE``: write the whole game as an archive."""

import json
import os
import tempfile

from django.core.management.base import BaseCommand, CommandError

from blognomic.moving.archive import export_archive


class Command(BaseCommand):
    help = "Write players, dynasties, posts with their votes and wiki pages to a JSON archive."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="Where to write the archive ('-' for standard output).")

    def handle(self, *args, file: str, **options) -> None:
        text = json.dumps(export_archive(), ensure_ascii=False, indent=1)
        if file == "-":
            self.stdout.write(text)
            return
        _write_atomically(file, text)
        self.stderr.write(f"Wrote {file}.")


def _write_atomically(file: str, text: str) -> None:
    """Write beside the target and rename, so a failed export never leaves half a file behind."""
    directory = os.path.dirname(os.path.abspath(file))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".export-", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        # mkstemp makes the file private (0600); give it the mode any new file would get.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, file)
        tmp = None
    except OSError as error:
        raise CommandError(f"Cannot write {file}: {error.strerror or error}.") from None
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
