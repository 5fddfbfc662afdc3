"""Moving a game in and out: the whole-game archive, the imported history, MediaWiki and WordPress, and the demo
games built from our own text and from the seeds."""
