"""Titles as a subject rule reads them: as a reader sees them, not as their code points spell them.

A rule that marks a matter by its title ("If a Proposal title includes the phrase 'Town Meeting'", "a post
with a subject of 'Petition: [Topic]'") must not be dodged by a title that reads the same but is written
otherwise: two spaces, a no-break space, a zero-width character, full-width letters. Every comparison of a
title with a subject rule compares their ``subject_form``.
"""

from __future__ import annotations

import unicodedata

from dynasties.names import is_invisible


def subject_form(text: str) -> str:
    """``text`` in Unicode's compatibility form (NFKC), without invisible characters (zero-width spaces and
    joiners, soft hyphens, controls), each run of white space (no-break, ideographic, tabs, line breaks) one
    space, the ends trimmed and case folded: subject rules do not regard case."""
    text = unicodedata.normalize("NFKC", text or "")
    text = "".join(
        ch for ch in text if not (is_invisible(ch) or (unicodedata.category(ch) == "Cc" and not ch.isspace()))
    )
    return unicodedata.normalize("NFKC", " ".join(text.split()).casefold())
