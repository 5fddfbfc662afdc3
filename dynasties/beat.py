"""What every beat job shares: the report it returns, and the management command that runs it by hand.

A job is an idempotent service ``<thing>_<verb>(*, now, dry_run=False) -> JobReport``; running it twice,
or late, does nothing more than running it once on time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.management.base import BaseCommand
from django.utils import timezone


@dataclass
class JobReport:
    done: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join(self.done) if self.done else "Nothing to do."


class JobCommand(BaseCommand):
    """Runs one beat job now; ``--dry-run`` says what it would do and changes nothing."""

    job = None  # a callable(*, now, dry_run) -> JobReport

    def add_arguments(self, parser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Say what would be done; change nothing.")

    def handle(self, *args, dry_run: bool, **options) -> None:
        report = type(self).job(now=timezone.now(), dry_run=dry_run)
        prefix = "Would do:\n" if dry_run and report.done else ""
        self.stdout.write(prefix + str(report))
