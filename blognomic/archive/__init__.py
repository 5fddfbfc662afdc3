"""The archive format: a whole game (or part of one) as JSON, for import, export and other tools.

The fields are documented in the README under "Archive format".
"""

from blognomic.archive.exporter import export_archive
from blognomic.archive.fields import FORMAT, VERSION, ArchiveError
from blognomic.archive.importer import import_archive

__all__ = ["FORMAT", "VERSION", "ArchiveError", "export_archive", "import_archive"]
