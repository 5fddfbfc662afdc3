"""``python manage.py export_mediawiki FILE.xml``: the wiki, with full history, as a MediaWiki 0.11 export."""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from blognomic.moving.archive.people import PeopleError, read_names_file
from blognomic.moving.mediawiki.exporting import export_mediawiki


class Command(BaseCommand):
    help = "Write the Ruleset and every wiki page with full history as a MediaWiki XML export (schema 0.11)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The file to write ('-' for standard output).")
        parser.add_argument("--names", help="A names file: 'name there = name here' lines, applied backwards.")

    def handle(self, *args, file: str, **options) -> None:
        names = {}
        if options.get("names"):
            try:
                with open(options["names"], encoding="utf-8-sig") as handle:
                    names = {here: there for there, here in read_names_file(handle.read()).items()}
            except (OSError, UnicodeDecodeError, PeopleError) as error:
                raise CommandError(f"Cannot read the names file: {error}") from None
        base = getattr(settings, "SITE_URL", "") or ""
        if file == "-":
            export_mediawiki(sys.stdout, names=names, base=base)
            return
        try:
            with open(file, "w", encoding="utf-8", newline="\n") as out:
                count = export_mediawiki(out, names=names, base=base)
        except OSError as error:
            raise CommandError(f"Cannot write {file}: {error.strerror or error}.") from None
        self.stdout.write(f"Exported {count} page(s) to {file}.")
