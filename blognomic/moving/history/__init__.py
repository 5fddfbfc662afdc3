"""The real BlogNomic history as a playable archive.

The published figures (one CSV row per proposal since 2005, the players active each month, each dynasty's
length) hold titles, proposers, dates, outcomes and comment counts but no texts. ``reading`` turns the files
into plain records, tolerating their mojibake and broken lines; ``building`` makes an archive of them, with
comments and votes written here to fit each recorded outcome; ``loading.history_import`` loads it through the
archive importer.
"""
