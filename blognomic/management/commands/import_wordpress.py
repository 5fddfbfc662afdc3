"""``python manage.py import_wordpress FILE.xml [--dry-run]``: bring a game's blog in from a WordPress export."""

from __future__ import annotations

import os
import sys

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from blognomic.moving.archive.people import PeopleError, read_names_file
from blognomic.moving.wordpress.importing import ImportRefused, import_wordpress
from blognomic.moving.wordpress.mapping import Mapping, MappingError, load_mapping
from blognomic.moving.wordpress.reading import WxrError


class Command(BaseCommand):
    help = (
        "Import posts, comments, votes and authors from a WordPress export (WXR 1.1 or 1.2). All or nothing; "
        "importing the same file again changes nothing, a newer export adds what is new."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="The export WordPress wrote (Tools, Export, All content).")
        parser.add_argument("--dry-run", action="store_true", help="Write nothing; print what would be imported.")
        parser.add_argument(
            "--mapping",
            dest="mapping_file",
            help="A TOML file that changes how categories, tags and fields map to kinds and "
            "statuses (see blognomic/moving/wordpress/mapping.py).",
        )
        parser.add_argument(
            "--names", help="A names file ('old name = name here', one a line) for people whose names differ here."
        )
        parser.add_argument(
            "--players",
            nargs="+",
            metavar="NAME",
            help="Who plays now, when the export's authors carry no is_player field; everyone else who wrote on "
            "the blog comes in idle until they come back.",
        )

    def handle(
        self,
        *args,
        file: str,
        dry_run: bool,
        mapping_file: str | None,
        names: str | None,
        players: list[str] | None,
        **options,
    ) -> None:
        mapping = Mapping.default()
        renames: dict[str, str] = {}
        try:
            if mapping_file:
                mapping = load_mapping(_read_text(mapping_file))
            if names:
                renames = read_names_file(_read_text(names))
        except (MappingError, PeopleError) as error:
            raise CommandError(f"Nothing was imported. {error}") from None
        try:
            size = os.path.getsize(file)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}.") from None
        bar = _ProgressBar(size, sys.stderr) if sys.stderr.isatty() else None
        try:
            report = import_wordpress(
                lambda: open(file, "rb"),
                mapping=mapping,
                names=renames,
                players=tuple(players) if players else None,
                dry_run=dry_run,
                progress=bar,
                at=timezone.now(),
            )
        except (WxrError, ImportRefused) as error:
            raise CommandError(f"Nothing was imported. {file}: {error}") from None
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}.") from None
        finally:
            if bar is not None:
                bar.done()
        for line in report.lines():
            self.stdout.write(line)
        if dry_run:
            self.stdout.write("Dry run: nothing was written.")
        if report.all_skipped:
            raise CommandError(f"Nothing imported: all {report.items} items were skipped.")


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror or error}.") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not UTF-8 text.") from None


class _ProgressBar:
    """How much of the file has been read, drawn on one terminal line."""

    WIDTH = 40

    def __init__(self, total: int, stream) -> None:
        self.total = max(total, 1)
        self.stream = stream
        self.shown = -1

    def __call__(self, read: int) -> None:
        percent = min(100, read * 100 // self.total)
        if percent != self.shown:
            self.shown = percent
            filled = self.WIDTH * percent // 100
            self.stream.write(f"\rReading [{'#' * filled}{'.' * (self.WIDTH - filled)}] {percent:3d}%")
            self.stream.flush()

    def done(self) -> None:
        if self.shown >= 0:
            self.stream.write("\n")
            self.stream.flush()
