"""``manage.py import_ruleset FILE``: a plain-text ruleset export becomes the Ruleset's next revision."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from dynasties.models import User
from ruleset.services import WikiError, ruleset_import_plaintext
from ruleset.structure import parse_ruleset


class Command(BaseCommand):
    help = (
        "Convert a plain-text export of the ruleset wiki page (like the seed rulesets) into the structured "
        "Ruleset and save it as a new revision of the Ruleset page, creating the page if it is missing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the plain-text export; - reads standard input")
        parser.add_argument("--summary", default="", help="edit summary (default: 'Imported a plain-text ruleset')")
        parser.add_argument("--author", default=None, help="the player recorded as the revision's author")

    def handle(self, *args, **options) -> None:
        text = self._read(options["file"])
        author = None
        if options["author"]:
            author = User.objects.filter(username=options["author"]).first()
            if author is None:
                raise CommandError(f"No account named {options['author']!r}.")
        try:
            revision = ruleset_import_plaintext(
                text=text, now=timezone.now(), author=author, summary=options["summary"]
            )
        except WikiError as error:
            raise CommandError(str(error)) from error
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from error
        ruleset = parse_ruleset(revision.text)
        rules = sum(1 for _ in ruleset.all_rules())
        sections = ", ".join(f"{section.title} ({len(section.rules)})" for section in ruleset.sections)
        self.stdout.write(f"Saved revision {revision.number} of {revision.page}: {rules} rules; {sections}.")

    def _read(self, name: str) -> str:
        if name == "-":
            return sys.stdin.read()
        path = Path(name)
        try:
            raw = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {name}: {error.strerror}.") from error
        return raw.decode("utf-8", errors="replace")
