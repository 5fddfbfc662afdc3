"""The archive format: a whole game (or part of one) as JSON, for import, export and other tools.

The fields are documented in docs/reference/archive-format.md.
"""

from blognomic.moving.archive.exporter import export_archive
from blognomic.moving.archive.fields import FORMAT, VERSION, ArchiveError
from blognomic.moving.archive.importer import import_archive

__all__ = ["FORMAT", "VERSION", "ArchiveError", "export_archive", "import_archive"]
