"""A base for the management commands that run one beat job by hand, with --dry-run."""

from django.core.management.base import BaseCommand
from django.utils import timezone


class JobCommand(BaseCommand):
    job = None  # a callable(*, now, dry_run) -> report

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Say what would be done; change nothing.")

    def handle(self, *args, dry_run: bool, **options) -> None:
        report = type(self).job(now=timezone.now(), dry_run=dry_run)
        prefix = "Would do:\n" if dry_run and report.done else ""
        self.stdout.write(prefix + str(report))
