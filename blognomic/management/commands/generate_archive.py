"""``python manage.py generate_archive --scale N [--load | FILE]``: a made-up game N times BlogNomic's size."""

import json
import time
from datetime import UTC, datetime

from django.core.management.base import BaseCommand, CommandError

from blognomic.management.commands.export_archive import _write_atomically
from blognomic.moving.archive import import_archive
from blognomic.moving.archive.fields import ArchiveError
from blognomic.moving.archive.generator import generate_archive, sizes


class Command(BaseCommand):
    help = (
        "Make up a game shaped like BlogNomic's history at N times its size (1: 15,792 proposals and "
        "144,382 comments) and write it as an archive, or load it into this database."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", nargs="?", help="Where to write the archive ('-' for standard output).")
        parser.add_argument("--scale", type=float, required=True, help="Multiple of the real history's size.")
        parser.add_argument("--load", action="store_true", help="Import it into this database instead.")
        parser.add_argument("--seed", type=int, default=2003)

    def handle(self, *args, file: str | None, scale: float, load: bool, seed: int, **options) -> None:
        if not scale > 0 or scale > 100:
            raise CommandError("--scale must be more than 0 and at most 100.")
        if bool(file) == load:
            raise CommandError("Give either a FILE to write or --load.")
        started = time.perf_counter()
        archive = generate_archive(
            scale=scale, end=datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0), seed=seed
        )
        figures = ", ".join(f"{value:,} {key.replace('_', ' ')}" for key, value in sizes(scale).items())
        self.stderr.write(f"Made up {figures} in {time.perf_counter() - started:.1f} s.")
        if load:
            started = time.perf_counter()
            try:
                import_archive(archive)
            except ArchiveError as error:
                raise CommandError(str(error)) from None
            self.stderr.write(f"Loaded in {time.perf_counter() - started:.1f} s.")
            return
        text = json.dumps(archive, ensure_ascii=False)
        if file == "-":
            self.stdout.write(text)
            return
        _write_atomically(file, text)
        self.stderr.write(f"Wrote {file}.")
