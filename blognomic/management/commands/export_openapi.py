"""``python manage.py export_openapi [FILE]``: write the API's OpenAPI schema for the documentation."""

from django.core.management.base import BaseCommand

from blognomic.community.api.schema_file import DOCUMENTED_SCHEMA, openapi_text
from blognomic.management.commands.export_archive import _write_atomically


class Command(BaseCommand):
    help = "Write the JSON API's OpenAPI schema (by default to the documentation's reference, docs/reference/)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "file",
            nargs="?",
            default=str(DOCUMENTED_SCHEMA),
            help="Where to write the schema ('-' for standard output); the documentation's copy when omitted.",
        )

    def handle(self, *args, file: str, **options) -> None:
        text = openapi_text()
        if file == "-":
            self.stdout.write(text, ending="")
            return
        _write_atomically(file, text)
        self.stderr.write(f"Wrote {file}.")
