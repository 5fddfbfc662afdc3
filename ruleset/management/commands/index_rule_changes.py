"""``manage.py index_rule_changes``: record which rules each ruleset revision changed, for revisions
loaded from an archive (revisions saved through the site are recorded as they are saved)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ruleset.rule_index import rule_changes_index


class Command(BaseCommand):
    help = "Record the rules changed by ruleset revisions that lack the record (after import_archive). Idempotent."

    def handle(self, *args, **options) -> None:
        indexed = rule_changes_index()
        self.stdout.write(f"Indexed {indexed} revision{'s' if indexed != 1 else ''}.")
