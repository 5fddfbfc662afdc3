"""``python manage.py restore FILE``: load a backup's archive into an empty database, all or nothing."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from blognomic.moving.archive import ArchiveError
from blognomic.running.backups import BackupError, backup_restore

SINGULAR = {
    "players": "player",
    "dynasties": "dynasty",
    "posts": "post",
    "comments": "comment",
    "pages": "page",
    "revisions": "revision",
}


class Command(BaseCommand):
    help = (
        "Load a backup (an archive, .json or .json.gz) into an empty, migrated database. Refused when the "
        "database holds anything; atomic."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The archive: blognomic-YYYY-MM-DD.json.gz from BACKUP_DIR, or any .json.")

    def handle(self, *args, file: str, **options) -> None:
        try:
            counts = backup_restore(file=Path(file))
        except BackupError as error:
            raise CommandError(str(error)) from None
        except ArchiveError as error:
            raise CommandError(f"Nothing was restored. {error}") from None
        summary = ", ".join(f"{n} {SINGULAR.get(what, what) if n == 1 else what}" for what, n in counts.items())
        self.stdout.write(self.style.SUCCESS(f"Restored {summary}."))
