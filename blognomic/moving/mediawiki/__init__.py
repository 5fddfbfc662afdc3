"""Moving a wiki in from MediaWiki and back out: reading and writing its XML export, importing and exporting."""
