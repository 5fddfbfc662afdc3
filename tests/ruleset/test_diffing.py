"""Diffs between revisions: line matching, word highlights, context collapsing and safe HTML."""

from __future__ import annotations

import random
import re
import time

import pytest

from ruleset.diffing import (
    MAX_WORD_DIFF_CHARS,
    NO_CHANGES_HTML,
    DiffLine,
    diff_lines,
    group_hunks,
    render_inline_diff,
    render_side_by_side_diff,
    word_segments,
)


def numbered(count: int, prefix: str = "line") -> list[str]:
    return [f"{prefix} {index}" for index in range(1, count + 1)]


def rebuild(lines: list[DiffLine], side: str) -> list[str]:
    keep = {"old": ("equal", "delete"), "new": ("equal", "insert")}[side]
    return [line.text for line in lines if line.kind in keep]


def test_identical_texts_have_only_equal_lines_and_render_no_differences():
    """No change means no hunks and a short message."""
    text = "a\nb\n"
    assert all(line.kind == "equal" for line in diff_lines(text, text))
    assert render_inline_diff(text, text) == NO_CHANGES_HTML
    assert render_side_by_side_diff(text, text) == NO_CHANGES_HTML


def test_a_changed_line_is_a_delete_then_an_insert_with_line_numbers():
    """Each side keeps its own line numbers."""
    lines = diff_lines("a\nb\nc", "a\nB\nc\nd")
    assert [(line.kind, line.old_number, line.new_number, line.text) for line in lines] == [
        ("equal", 1, 1, "a"),
        ("delete", 2, None, "b"),
        ("insert", None, 2, "B"),
        ("equal", 3, 3, "c"),
        ("insert", None, 4, "d"),
    ]


def test_a_final_newline_does_not_add_a_line():
    """'a\\n' and 'a' are the same single line."""
    assert [line.kind for line in diff_lines("a\n", "a")] == ["equal"]
    assert diff_lines("", "") == []


@pytest.mark.parametrize("seed", range(25))
def test_diff_lines_always_rebuild_both_texts(seed):
    """Whatever the edits, the equal+deleted lines are the old text and equal+inserted the new."""
    rng = random.Random(seed)
    vocabulary = ["", "", "* item", "alpha", "beta", "gamma", "=== Rule ===", "delta epsilon"]
    old = [rng.choice(vocabulary) + (str(rng.randrange(5)) if rng.random() < 0.5 else "") for _ in range(60)]
    new = list(old)
    for _ in range(rng.randrange(1, 12)):
        position = rng.randrange(len(new) + 1)
        action = rng.random()
        if action < 0.4 and position < len(new):
            new[position] = new[position] + " changed"
        elif action < 0.7:
            new.insert(position, rng.choice(vocabulary))
        elif position < len(new):
            del new[position]
    lines = diff_lines("\n".join(old) + "\n", "\n".join(new) + "\n")
    assert rebuild(lines, "old") == old
    assert rebuild(lines, "new") == new
    assert [line.old_number for line in lines if line.old_number] == list(range(1, len(old) + 1))
    assert [line.new_number for line in lines if line.new_number] == list(range(1, len(new) + 1))


def test_a_moved_paragraph_shows_as_deleted_and_inserted():
    """Lines unique to both texts anchor the diff; a moved block is removed in one place, added in another."""
    old = numbered(20)
    new = old[5:15] + old[:5] + old[15:]
    lines = diff_lines("\n".join(old), "\n".join(new))
    assert rebuild(lines, "old") == old and rebuild(lines, "new") == new
    assert sum(line.kind != "equal" for line in lines) == 10


def test_paired_changed_lines_get_word_segments():
    """An edited line shows which words went and which came."""
    lines = diff_lines("The quick brown fox jumps.", "The slow brown fox jumps.")
    deleted, inserted = lines
    assert deleted.segments == (("equal", "The "), ("delete", "quick "), ("equal", "brown fox jumps."))
    assert inserted.segments == (("equal", "The "), ("insert", "slow "), ("equal", "brown fox jumps."))


def test_unlike_lines_are_shown_whole():
    """A line replaced by something unrelated gets no word highlights."""
    old_segments, new_segments = word_segments("Proposals need a quorum.", "Ships sail at dawn!")
    assert old_segments == new_segments == ()


def test_very_long_lines_skip_word_level_diffing():
    """Lines over the limit are compared whole, to keep the diff fast."""
    long_line = "word " * (MAX_WORD_DIFF_CHARS // 5 + 10)
    assert word_segments(long_line, long_line + "more") == ((), ())


def test_context_collapses_to_three_lines_around_changes():
    """Only three unchanged lines are shown on each side of a change."""
    old = numbered(30)
    new = list(old)
    new[14] = "line 15 changed"
    hunks = group_hunks(diff_lines("\n".join(old), "\n".join(new)))
    assert len(hunks) == 1
    assert [line.text for line in hunks[0]] == [
        "line 12",
        "line 13",
        "line 14",
        "line 15",
        "line 15 changed",
        "line 16",
        "line 17",
        "line 18",
    ]


def test_distant_changes_make_separate_hunks_and_near_ones_merge():
    """Changes more than six unchanged lines apart are separate hunks."""
    old = numbered(40)
    far = list(old)
    far[5], far[30] = "x", "y"
    near = list(old)
    near[5], near[11] = "x", "y"
    assert len(group_hunks(diff_lines("\n".join(old), "\n".join(far)))) == 2
    assert len(group_hunks(diff_lines("\n".join(old), "\n".join(near)))) == 1


def test_inline_diff_marks_skipped_stretches_with_their_size():
    """'…' stands between hunks and at either end, saying how many lines were left out."""
    old = numbered(40)
    new = list(old)
    new[10], new[30] = "changed a", "changed b"
    html = render_inline_diff("\n".join(old), "\n".join(new))
    assert re.findall(r'<div class="diff-skip">… (\d+) unchanged lines …</div>', html) == ["7", "13", "6"]


def test_inline_diff_uses_del_and_ins_and_highlights_words():
    """Changed words are in <del>/<ins>; a pure insertion is wholly in <ins>."""
    html = render_inline_diff("keep\nThe quick fox.\n", "keep\nThe slow fox.\nBrand new line.\n")
    assert '<div class="diff-line diff-delete">' in html
    assert '<span class="diff-text">The <del>quick </del>fox.</span>' in html
    assert '<span class="diff-text">The <ins>slow </ins>fox.</span>' in html
    assert '<span class="diff-text"><ins>Brand new line.</ins></span>' in html
    assert '<div class="diff-line diff-equal"><span class="diff-lineno">1</span>' in html


def test_diff_html_escapes_text():
    """Page text in a diff is escaped, in both layouts."""
    old, new = "<b>a</b> & x", "<script>alert(1)</script> & x"
    for html in (render_inline_diff(old, new), render_side_by_side_diff(old, new)):
        assert "<script" not in html and "<b>" not in html
        assert "&lt;" in html and "&amp;" in html


def test_side_by_side_pairs_deleted_and_inserted_lines_in_one_row():
    """A replaced line sits next to its replacement; extra insertions get an empty left cell."""
    html = render_side_by_side_diff("a\nold line here\nz", "a\nnew line here\nadded\nz")
    rows = re.findall(r"<tr>.*?</tr>", html)
    assert rows[1] == (
        '<tr><td class="diff-lineno">2</td><td class="diff-delete"><del>old </del>line here</td>'
        '<td class="diff-lineno">2</td><td class="diff-insert"><ins>new </ins>line here</td></tr>'
    )
    assert rows[2] == (
        '<tr><td class="diff-lineno"></td><td class="diff-empty"></td>'
        '<td class="diff-lineno">3</td><td class="diff-insert"><ins>added</ins></td></tr>'
    )
    assert html.startswith('<table class="diff diff-side-by-side">')


def test_side_by_side_marks_skipped_stretches():
    """The table has a '…' row where unchanged lines were left out."""
    old = numbered(20)
    new = [*old[:-1], "the end"]
    html = render_side_by_side_diff("\n".join(old), "\n".join(new))
    assert '<tr class="diff-skip"><td colspan="4">… 16 unchanged lines …</td></tr>' in html


def test_diff_from_and_to_empty_text():
    """Creating or blanking a page diffs as all insertions or all deletions."""
    assert {line.kind for line in diff_lines("", "a\nb")} == {"insert"}
    assert {line.kind for line in diff_lines("a\nb", "")} == {"delete"}


def _generated_text(rng: random.Random, lines: int) -> list[str]:
    words = "player proposal vote quorum enact fail rule dynasty hiatus admin may shall the a of".split()
    text = []
    for index in range(lines):
        if index % 4 == 3:
            text.append("")
        else:
            text.append(" ".join(rng.choice(words) for _ in range(rng.randint(5, 25))))
    return text


@pytest.mark.parametrize(
    "shape",
    ["scattered edits", "unrelated texts", "repeated lines", "long similar lines"],
)
def test_large_diffs_stay_fast_whatever_their_shape(shape):
    """A regression guard, far above the benchmark's figures: 100 KB texts diff within two seconds of CPU
    time (CPU time, so that a busy machine running other work does not fail it)."""
    rng = random.Random(7)
    if shape == "scattered edits":
        old = _generated_text(rng, 1500)
        new = list(old)
        for index in range(0, len(new), 37):
            new[index] += " edited"
    elif shape == "unrelated texts":
        old, new = _generated_text(rng, 1500), _generated_text(rng, 1500)
    elif shape == "repeated lines":
        old = ["* the same bullet", ""] * 3000
        new = list(old)
        new[100] = "* changed"
        new.insert(4000, "inserted")
    else:
        line = " ".join(f"w{index}" for index in range(700))
        old = [line] * 25
        new = [line.replace("w5", "Z5")] * 25
    started = time.process_time()
    render_inline_diff("\n".join(old), "\n".join(new))
    render_side_by_side_diff("\n".join(old), "\n".join(new))
    assert time.process_time() - started < 2.0
