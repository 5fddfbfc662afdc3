"""Names of GNDT rows and columns, by the players' name rules (``dynasties.names``). Pure.

A row sits beside players' rows and a column is named in the log and in amendments, so a name is kept in
Unicode's normal form (NFKC), may hold nothing invisible or direction-changing, and may not be one a reader
could take for a name the table has or had: the same letters in another case, a Cyrillic look-alike, a
full-width spelling. Every way a row or column is made (the GNDT's own pages, an amendment) asks here.
"""

from __future__ import annotations

from collections.abc import Iterable

from dynasties import names

ONE_LINE = "A {what} name must be one line of text."


def normalise(raw: object) -> str:
    """The name as it would be stored: NFKC, ends trimmed."""
    return names.normalise(str(raw or ""))


def name_problem(name: str, *, what: str) -> str | None:
    """Why ``name`` (already normalised) may not name a row or column at all, or None."""
    problem = names.name_problem(name) if name else None
    if problem in (names.INVISIBLE, names.DIRECTIONAL):
        return problem
    if any(ord(character) < 32 for character in name):
        return ONE_LINE.format(what=what)
    return None


def clash(name: str, taken: Iterable[str]) -> str | None:
    """The name among ``taken`` that ``name`` could be taken for (in any case, or by its confusable
    skeleton), or None."""
    key = names.lookalike_key(name)
    return next((other for other in taken if names.lookalike_key(other) == key), None)
