"""``python manage.py backup``: write a backup into BACKUP_DIR now and rotate, as the beat job does.

A backup asked for by hand is always written, under a name with the time (the one before an upgrade must hold
the game as it is, not as it was at the night's backup).
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from blognomic.running.backups import BackupError, backup_write


class Command(BaseCommand):
    help = (
        "Write a backup now (the archive, gzipped, checked to read back; on PostgreSQL also a pg_dump) into "
        "BACKUP_DIR, named blognomic-YYYY-MM-DDTHHMMSS, and keep the newest BACKUP_KEEP days."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dir", help="Write here instead of BACKUP_DIR.")
        parser.add_argument("--keep", type=int, help="Keep this many days instead of BACKUP_KEEP.")
        parser.add_argument("--dry-run", action="store_true", help="Say what would be done; change nothing.")

    def handle(self, *args, dir: str | None, keep: int | None, dry_run: bool, **options) -> None:
        directory = dir or settings.BACKUP_DIR
        if not directory:
            raise CommandError("Backups are off: BACKUP_DIR is not set. Set it, or give --dir.")
        try:
            report = backup_write(
                now=timezone.now(),
                directory=Path(directory),
                keep=settings.BACKUP_KEEP if keep is None else keep,
                dry_run=dry_run,
                by_hand=True,
            )
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(("Would do:\n" if dry_run and report.done else "") + str(report))
