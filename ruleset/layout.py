"""Carrying a change made on the Ruleset's canonical form back into the text as it was written.

Amendments are applied to the parsed Ruleset, which writes its canonical markup: one blank line between
rules, ``== Title ==`` with single spaces, no trailing spaces. Stored as is, an enactment that changed one
rule would also rewrite the layout of every other rule, and the revision's diff would show lines nobody
changed. ``carry_over`` finds what the amendment changed between two canonical texts and makes the same
line changes in the original text, leaving the rest of it as it was written.

Pure: no Django.
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import SequenceMatcher


def carry_over(original: str, before: str, after: str, *, canonical: Callable[[str], str]) -> str:
    """``original`` with the changes that turn ``before`` into ``after``.

    ``before`` is the canonical form of ``original`` and ``after`` the canonical form with the amendment
    applied; ``canonical`` writes the canonical form of any text. Lines of ``before`` are found in
    ``original`` by their words (headings by level and title), so blank lines and spacing may differ.
    The result reads exactly as ``after`` does once made canonical; where the change cannot be carried
    over so (an edit touching lines the original spells very differently), ``after`` itself is returned.
    """
    if before == after:
        return original
    source, old, new = _lines(original), _lines(before), _lines(after)
    found = _where_in_source(old, source)
    edits = _opcodes(old, new)
    spaced = _spaces_headings(source)
    result = source[:]
    for tag, i1, i2, j1, j2 in reversed(edits):
        if tag == "equal":
            continue
        start, end = _source_span(found, i1, i2, len(source))
        lines = _trimmed(new[j1:j2])
        # A new rule is set off by a blank line only where the original sets its rules off so.
        if spaced and lines and _line_key(lines[0]).startswith("==") and start and result[start - 1].strip():
            lines.insert(0, "")
        if spaced and lines and end < len(result) and _line_key(result[end]).startswith("=="):
            lines.append("")
        result[start:end] = lines
    carried = "\n".join(result) + ("\n" if original.endswith("\n") or not original else "")
    return carried if canonical(carried) == after else after


def _opcodes(a: list[str], b: list[str]) -> list[tuple[str, int, int, int, int]]:
    """How ``a`` turns into ``b``, as ``SequenceMatcher.get_opcodes`` says, comparing only what lies between
    their common first and last lines: an amendment changes a few rules of a long Ruleset, and the matcher's
    time grows with the square of what it is given (blank lines, every other line, match everywhere)."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    middle = SequenceMatcher(None, a[start : len(a) - end], b[start : len(b) - end], autojunk=False)
    codes = [("equal", 0, start, 0, start)] if start else []
    codes += [(tag, i1 + start, i2 + start, j1 + start, j2 + start) for tag, i1, i2, j1, j2 in middle.get_opcodes()]
    if end:
        codes.append(("equal", len(a) - end, len(a), len(b) - end, len(b)))
    return codes


def _lines(text: str) -> list[str]:
    """The lines of ``text``; a final line break ends the last line rather than starting an empty one."""
    return text.removesuffix("\n").split("\n") if text else []


def _trimmed(lines: list[str]) -> list[str]:
    """Lines without the blank lines the canonical form puts around them."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end]


def _spaces_headings(lines: list[str]) -> bool:
    """Whether the written text puts a blank line before most of its headings."""
    before = [not lines[i - 1].strip() for i in range(1, len(lines)) if _line_key(lines[i]).startswith("==")]
    return sum(before) * 2 > len(before)


def _line_key(line: str) -> str:
    """A line by its words alone; a heading by its level and title however its marks are spaced."""
    words = " ".join(line.split())
    marks = len(words) - len(words.lstrip("="))
    if 2 <= marks and words.endswith("=" * marks) and len(words) > 2 * marks:
        return f"{'=' * marks} {words[marks:-marks].strip()}"
    return words


def _where_in_source(lines: list[str], source: list[str]) -> list[int | None]:
    """For each line of a canonical text, the index of the same line in the written text, if it is there."""
    found: list[int | None] = [None] * len(lines)
    for tag, i1, i2, j1, _j2 in _opcodes([_line_key(line) for line in lines], [_line_key(line) for line in source]):
        if tag == "equal":
            for offset in range(i2 - i1):
                found[i1 + offset] = j1 + offset
    return found


def _source_span(found: list[int | None], i1: int, i2: int, length: int) -> tuple[int, int]:
    """The lines of the written text that canonical lines ``i1`` to ``i2`` stand for: from just after the
    last line found before them to the last of them found (or an empty span where none is)."""
    inside = [index for index in found[i1:i2] if index is not None]
    before = next((index for index in reversed(found[:i1]) if index is not None), -1)
    if not inside:
        following = next((index for index in found[i2:] if index is not None), length)
        at = min(before + 1, following)
        return at, at
    # A first line not found in the original (a blank line the canonical form adds) stands for whatever the
    # original has between the line before and the first line found.
    start = inside[0] if found[i1] is not None else before + 1
    return start, inside[-1] + 1
