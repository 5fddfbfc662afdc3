"""Line diffs between two revisions of a wiki page, with word-level highlights, as safe HTML.

Speed matters: a ruleset is about 100 KB, and a history page may show many diffs. Four things keep a
diff of two such texts in the low milliseconds:

- the common head and tail are cut off before any matching;
- the rest is split at lines that occur exactly once in each text and in the same order (the anchors
  of a "patience" diff), so ``difflib.SequenceMatcher`` only ever sees the short stretches between
  anchors. Matching without autojunk keeps blank lines and list markers, which are frequent in a
  ruleset, from being junked into a bad diff; the short stretches keep that affordable;
- a stretch whose repeated lines would make exact matching slow (more than ``REGION_PAIR_BUDGET``
  pairs of equal lines, as when the texts have nothing in common but blank lines) is matched with blank
  lines as junk and autojunk on: still a correct diff, perhaps not the smallest one;
- word-level diffs are made only for a deleted line paired with an inserted one, on tokens that carry
  their trailing space (so spaces are not a token repeated hundreds of times), and skipped for lines
  longer than ``MAX_WORD_DIFF_CHARS``, for pairs too unlike to be the same line edited, and once
  ``WORD_DIFF_BUDGET_CHARS`` of text has been compared in one diff.

The HTML shows ``CONTEXT_LINES`` unchanged lines around each change and "…" between hunks.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from html import escape
from typing import Literal

CONTEXT_LINES = 3
MAX_WORD_DIFF_CHARS = 5000
MIN_PAIR_SIMILARITY = 0.3
WORD_DIFF_BUDGET_CHARS = 200_000
REGION_PAIR_BUDGET = 20_000

NO_CHANGES_HTML = '<p class="diff-empty">No differences.</p>'

Kind = Literal["equal", "delete", "insert"]
SegmentKind = Literal["equal", "delete", "insert"]
_WORD = re.compile(r"\w+\s*|[^\w\s]+\s*|\s+")


@dataclass(frozen=True)
class DiffLine:
    """One line of a diff.

    ``segments`` splits a changed line into unchanged and changed words when it was paired with the
    line it became (or came from); it is empty when the whole line changed.
    """

    kind: Kind
    old_number: int | None
    new_number: int | None
    text: str
    segments: tuple[tuple[SegmentKind, str], ...] = ()


# --- matching lines --------------------------------------------------------------------------------

Opcode = tuple[str, int, int, int, int]


def split_lines(text: str) -> list[str]:
    """Lines of ``text`` without their endings; a final line break does not add an empty line."""
    if not text:
        return []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def line_opcodes(old_lines: Sequence[str], new_lines: Sequence[str]) -> list[Opcode]:
    """``SequenceMatcher``-style opcodes turning ``old_lines`` into ``new_lines``."""
    head = _common_prefix_length(old_lines, new_lines)
    tail = _common_suffix_length(old_lines[head:], new_lines[head:])
    old_end, new_end = len(old_lines) - tail, len(new_lines) - tail
    opcodes: list[Opcode] = []
    if head:
        opcodes.append(("equal", 0, head, 0, head))
    opcodes.extend(_middle_opcodes(old_lines, new_lines, head, old_end, head, new_end))
    if tail:
        opcodes.append(("equal", old_end, len(old_lines), new_end, len(new_lines)))
    return _merge_adjacent(opcodes)


def _common_prefix_length(a: Sequence[str], b: Sequence[str]) -> int:
    length = 0
    for left, right in zip(a, b, strict=False):
        if left != right:
            break
        length += 1
    return length


def _common_suffix_length(a: Sequence[str], b: Sequence[str]) -> int:
    length = 0
    for left, right in zip(reversed(a), reversed(b), strict=False):
        if left != right:
            break
        length += 1
    return length


def _middle_opcodes(
    old: Sequence[str], new: Sequence[str], old_lo: int, old_hi: int, new_lo: int, new_hi: int
) -> Iterator[Opcode]:
    old_at, new_at = old_lo, new_lo
    for old_anchor, new_anchor in _unique_anchors(old, new, old_lo, old_hi, new_lo, new_hi):
        yield from _region_opcodes(old, new, old_at, old_anchor, new_at, new_anchor)
        yield ("equal", old_anchor, old_anchor + 1, new_anchor, new_anchor + 1)
        old_at, new_at = old_anchor + 1, new_anchor + 1
    yield from _region_opcodes(old, new, old_at, old_hi, new_at, new_hi)


def _unique_anchors(
    old: Sequence[str], new: Sequence[str], old_lo: int, old_hi: int, new_lo: int, new_hi: int
) -> list[tuple[int, int]]:
    """Lines found exactly once on each side, as (old index, new index), longest run in the same order."""
    old_counts = Counter(old[old_lo:old_hi])
    new_counts = Counter(new[new_lo:new_hi])
    new_position = {new[j]: j for j in range(new_lo, new_hi) if new_counts[new[j]] == 1}
    pairs = [
        (i, new_position[old[i]]) for i in range(old_lo, old_hi) if old_counts[old[i]] == 1 and old[i] in new_position
    ]
    return _longest_increasing_by_new(pairs)


def _longest_increasing_by_new(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    tails: list[int] = []
    tail_index: list[int] = []
    previous: list[int] = [-1] * len(pairs)
    for index, (_, new_index) in enumerate(pairs):
        position = bisect_left(tails, new_index)
        if position == len(tails):
            tails.append(new_index)
            tail_index.append(index)
        else:
            tails[position] = new_index
            tail_index[position] = index
        previous[index] = tail_index[position - 1] if position else -1
    chain: list[tuple[int, int]] = []
    index = tail_index[-1] if tail_index else -1
    while index != -1:
        chain.append(pairs[index])
        index = previous[index]
    return chain[::-1]


def _region_opcodes(
    old: Sequence[str], new: Sequence[str], old_lo: int, old_hi: int, new_lo: int, new_hi: int
) -> Iterator[Opcode]:
    if old_lo == old_hi and new_lo == new_hi:
        return
    if old_lo == old_hi:
        yield ("insert", old_lo, old_hi, new_lo, new_hi)
        return
    if new_lo == new_hi:
        yield ("delete", old_lo, old_hi, new_lo, new_hi)
        return
    old_region, new_region = old[old_lo:old_hi], new[new_lo:new_hi]
    if _candidate_pairs(old_region, new_region) <= REGION_PAIR_BUDGET:
        matcher = SequenceMatcher(None, old_region, new_region, autojunk=False)
    else:
        matcher = SequenceMatcher(_is_blank, old_region, new_region, autojunk=True)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        yield (tag, old_lo + i1, old_lo + i2, new_lo + j1, new_lo + j2)


def _is_blank(line: str) -> bool:
    return not line.strip()


def _candidate_pairs(old_region: Sequence[str], new_region: Sequence[str]) -> int:
    """How many (old, new) line pairs are equal; exact matching costs this times the number of matches."""
    new_counts = Counter(new_region)
    return sum(count * new_counts[line] for line, count in Counter(old_region).items())


def _merge_adjacent(opcodes: list[Opcode]) -> list[Opcode]:
    merged: list[Opcode] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if merged and merged[-1][0] == tag == "equal":
            merged[-1] = (tag, merged[-1][1], i2, merged[-1][3], j2)
        elif merged and tag != "equal" and merged[-1][0] != "equal":
            previous = merged[-1]
            merged[-1] = ("replace", previous[1], i2, previous[3], j2)
        else:
            merged.append((tag, i1, i2, j1, j2))
    return merged


# --- building diff lines ---------------------------------------------------------------------------


def diff_lines(old: str, new: str) -> list[DiffLine]:
    """Every line of both texts in diff order: unchanged, deleted (then inserted) lines.

    In a changed block, deleted and inserted lines are paired in order, and a pair that is alike enough
    gets word-level ``segments``.
    """
    old_lines, new_lines = split_lines(old), split_lines(new)
    result: list[DiffLine] = []
    budget = _WordDiffBudget(WORD_DIFF_BUDGET_CHARS)
    for tag, i1, i2, j1, j2 in line_opcodes(old_lines, new_lines):
        if tag == "equal":
            result.extend(DiffLine("equal", i + 1, j1 + (i - i1) + 1, old_lines[i]) for i in range(i1, i2))
        else:
            result.extend(_changed_block(old_lines, new_lines, i1, i2, j1, j2, budget))
    return result


class _WordDiffBudget:
    """Characters of changed lines that may still be word-diffed, so a diff's time stays bounded."""

    def __init__(self, chars: int) -> None:
        self.remaining = chars

    def spend(self, *lines: str) -> bool:
        cost = sum(len(line) for line in lines)
        if cost > self.remaining:
            return False
        self.remaining -= cost
        return True


def _changed_block(
    old_lines: Sequence[str],
    new_lines: Sequence[str],
    i1: int,
    i2: int,
    j1: int,
    j2: int,
    budget: _WordDiffBudget,
) -> Iterator[DiffLine]:
    deleted = [DiffLine("delete", i + 1, None, old_lines[i]) for i in range(i1, i2)]
    inserted = [DiffLine("insert", None, j + 1, new_lines[j]) for j in range(j1, j2)]
    for index in range(min(len(deleted), len(inserted))):
        if not budget.spend(deleted[index].text, inserted[index].text):
            break
        old_segments, new_segments = word_segments(deleted[index].text, inserted[index].text)
        if old_segments:
            deleted[index] = _with_segments(deleted[index], old_segments)
            inserted[index] = _with_segments(inserted[index], new_segments)
    yield from deleted
    yield from inserted


def _with_segments(line: DiffLine, segments: tuple[tuple[SegmentKind, str], ...]) -> DiffLine:
    return DiffLine(line.kind, line.old_number, line.new_number, line.text, segments)


def word_segments(
    old_line: str, new_line: str
) -> tuple[tuple[tuple[SegmentKind, str], ...], tuple[tuple[SegmentKind, str], ...]]:
    """Word-level segments of an edited line pair, or two empty tuples when not worth showing."""
    if len(old_line) > MAX_WORD_DIFF_CHARS or len(new_line) > MAX_WORD_DIFF_CHARS:
        return (), ()
    old_words, new_words = _WORD.findall(old_line), _WORD.findall(new_line)
    matcher = SequenceMatcher(None, old_words, new_words, autojunk=False)
    if matcher.quick_ratio() < MIN_PAIR_SIMILARITY or matcher.ratio() < MIN_PAIR_SIMILARITY:
        return (), ()
    old_segments: list[tuple[SegmentKind, str]] = []
    new_segments: list[tuple[SegmentKind, str]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            _append_segment(old_segments, "equal", "".join(old_words[i1:i2]))
            _append_segment(new_segments, "equal", "".join(new_words[j1:j2]))
            continue
        _append_segment(old_segments, "delete", "".join(old_words[i1:i2]))
        _append_segment(new_segments, "insert", "".join(new_words[j1:j2]))
    return tuple(old_segments), tuple(new_segments)


def _append_segment(segments: list[tuple[SegmentKind, str]], kind: SegmentKind, text: str) -> None:
    if not text:
        return
    if segments and segments[-1][0] == kind:
        segments[-1] = (kind, segments[-1][1] + text)
    else:
        segments.append((kind, text))


# --- hunks -----------------------------------------------------------------------------------------


def hunk_ranges(lines: Sequence[DiffLine], context: int = CONTEXT_LINES) -> list[tuple[int, int]]:
    """(start, end) slices of ``lines``: changed lines with up to ``context`` unchanged lines around them.

    Hunks whose context would touch or overlap are joined into one.
    """
    changed = [index for index, line in enumerate(lines) if line.kind != "equal"]
    if not changed:
        return []
    ranges: list[tuple[int, int]] = []
    start, end = max(0, changed[0] - context), changed[0] + 1
    for index in changed[1:]:
        if index - end > 2 * context:
            ranges.append((start, min(len(lines), end + context)))
            start = index - context
        end = index + 1
    ranges.append((start, min(len(lines), end + context)))
    return ranges


def group_hunks(lines: Sequence[DiffLine], context: int = CONTEXT_LINES) -> list[list[DiffLine]]:
    """The hunks of ``hunk_ranges`` as lists of lines."""
    return [list(lines[start:end]) for start, end in hunk_ranges(lines, context)]


def _hunks_with_gaps(lines: Sequence[DiffLine], context: int) -> Iterator[tuple[int, Sequence[DiffLine]]]:
    """Each hunk with the number of unchanged lines left out before it; last, the number left after."""
    position = 0
    for start, end in hunk_ranges(lines, context):
        yield start - position, lines[start:end]
        position = end
    yield len(lines) - position, ()


# --- HTML ------------------------------------------------------------------------------------------


def _line_html(line: DiffLine) -> str:
    if line.kind == "equal":
        return escape(line.text)
    tag = "del" if line.kind == "delete" else "ins"
    if not line.segments:
        return f"<{tag}>{escape(line.text)}</{tag}>"
    return "".join(
        escape(text) if kind == "equal" else f"<{tag}>{escape(text)}</{tag}>" for kind, text in line.segments
    )


def _number(value: int | None) -> str:
    return "" if value is None else str(value)


def _skip_label(count: int) -> str:
    return f"… {count} unchanged line{'s' if count != 1 else ''} …"


def render_inline_diff(old: str, new: str, *, context: int = CONTEXT_LINES) -> str:
    """A unified diff as HTML: one column of lines, deletions in ``<del>``, insertions in ``<ins>``."""
    lines = diff_lines(old, new)
    if all(line.kind == "equal" for line in lines):
        return NO_CHANGES_HTML
    out = ['<div class="diff diff-inline">']
    for skipped, hunk in _hunks_with_gaps(lines, context):
        if skipped:
            out.append(f'<div class="diff-skip">{_skip_label(skipped)}</div>')
        for line in hunk:
            out.append(
                f'<div class="diff-line diff-{line.kind}">'
                f'<span class="diff-lineno">{_number(line.old_number)}</span>'
                f'<span class="diff-lineno">{_number(line.new_number)}</span>'
                f'<span class="diff-text">{_line_html(line)}</span></div>'
            )
    out.append("</div>")
    return "\n".join(out)


def render_side_by_side_diff(old: str, new: str, *, context: int = CONTEXT_LINES) -> str:
    """A two-column diff as an HTML table: the old text on the left, the new on the right."""
    lines = diff_lines(old, new)
    if all(line.kind == "equal" for line in lines):
        return NO_CHANGES_HTML
    out = [
        '<table class="diff diff-side-by-side">',
        '<colgroup><col class="diff-lineno"><col class="diff-text">'
        '<col class="diff-lineno"><col class="diff-text"></colgroup>',
        "<tbody>",
    ]
    for skipped, hunk in _hunks_with_gaps(lines, context):
        if skipped:
            out.append(f'<tr class="diff-skip"><td colspan="4">{_skip_label(skipped)}</td></tr>')
        out.extend(_side_by_side_rows(hunk))
    out.append("</tbody></table>")
    return "\n".join(out)


def _side_by_side_rows(hunk: Sequence[DiffLine]) -> Iterator[str]:
    index = 0
    while index < len(hunk):
        line = hunk[index]
        if line.kind == "equal":
            yield _row(line, line)
            index += 1
            continue
        deleted: list[DiffLine] = []
        while index < len(hunk) and hunk[index].kind == "delete":
            deleted.append(hunk[index])
            index += 1
        inserted: list[DiffLine] = []
        while index < len(hunk) and hunk[index].kind == "insert":
            inserted.append(hunk[index])
            index += 1
        for position in range(max(len(deleted), len(inserted))):
            left = deleted[position] if position < len(deleted) else None
            right = inserted[position] if position < len(inserted) else None
            yield _row(left, right)


def _row(left: DiffLine | None, right: DiffLine | None) -> str:
    return f"<tr>{_cells(left, 'old')}{_cells(right, 'new')}</tr>"


def _cells(line: DiffLine | None, side: Literal["old", "new"]) -> str:
    if line is None:
        return '<td class="diff-lineno"></td><td class="diff-empty"></td>'
    number = line.old_number if side == "old" else line.new_number
    return f'<td class="diff-lineno">{_number(number)}</td><td class="diff-{line.kind}">{_line_html(line)}</td>'
