"""Carrying an amendment's change back into the Ruleset as it was written (``ruleset.layout``)."""

from __future__ import annotations

import difflib

import pytest

from ruleset.layout import carry_over
from ruleset.structure import parse_ruleset, serialize_ruleset
from tests.growth import LINEAR_GROWTH_LIMIT, growth


def canonical(text: str) -> str:
    return serialize_ruleset(parse_ruleset(text))


def changed_lines(old: str, new: str) -> list[str]:
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=0)
    return [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]


TIGHT = "== Core Rules ==\n===Players===\nAnyone may join.   \n=== Quorum ===\nHalf, plus one.\n"
SPACED = "== Core Rules ==\n\n=== Players ===\nAnyone may join.\n\n\n=== Quorum ===\nHalf, plus one.\n"


@pytest.mark.parametrize("original", [TIGHT, SPACED])
def test_a_changed_body_changes_that_line_alone(original):
    before = canonical(original)
    after = before.replace("Half, plus one.", "Half, plus two.")
    carried = carry_over(original, before, after, canonical=canonical)
    assert changed_lines(original, carried) == ["-Half, plus one.", "+Half, plus two."]


def test_a_new_rule_follows_the_originals_spacing():
    for original, blank in ((TIGHT, False), (SPACED, True)):
        before = canonical(original)
        after = before.replace("Anyone may join.", "Anyone may join.\n\n=== Idling ===\nOn request.")
        carried = carry_over(original, before, after, canonical=canonical)
        assert canonical(carried) == after
        added = changed_lines(original, carried)
        assert [line for line in added if line.strip("+")] == ["+=== Idling ===", "+On request."]
        assert all(line.startswith("+") for line in added)
        lines = carried.split("\n")
        at = lines.index("=== Idling ===")
        assert (lines[at - 1] == "" and lines[at + 2] == "") == blank


def test_a_repeal_removes_the_rule_and_nothing_else():
    before = canonical(TIGHT)
    after = before.replace("\n\n=== Quorum ===\nHalf, plus one.", "")
    carried = carry_over(TIGHT, before, after, canonical=canonical)
    assert changed_lines(TIGHT, carried) == ["-=== Quorum ===", "-Half, plus one."]
    assert "===Players===" in carried and "Anyone may join.   " in carried


def test_nothing_changed_gives_back_the_original_untouched():
    assert carry_over(TIGHT, canonical(TIGHT), canonical(TIGHT), canonical=canonical) == TIGHT


def test_a_change_that_cannot_be_carried_over_gives_the_canonical_text():
    """Whatever happens, the result reads as the amended Ruleset: here ``before`` is not the original's
    canonical form at all, so the canonical text is returned rather than a wrong splice."""
    after = canonical("== Core Rules ==\n=== Other ===\nElse.\n")
    assert carry_over(TIGHT, "== Unrelated ==", after, canonical=canonical) == after


def test_carrying_one_change_over_grows_with_the_ruleset_not_its_square():
    """One rule changed in a long Ruleset: the change is found between the texts' common first and last lines,
    not by comparing every line with every other (blank lines, every other line, match everywhere; the whole
    comparison took 5 s for an amendment on 4,000 rules)."""

    def carrying(count):
        text = canonical(
            "== Core Rules ==\n" + "".join(f"=== Beacon {n} ===\nKeeper {n} tends it.\n" for n in range(count))
        )
        after = text.replace(f"Keeper {count // 2} tends", f"Keeper {count // 2} guards")
        return lambda: carry_over(text, text, after, canonical=canonical)

    assert growth(carrying, small=250) < LINEAR_GROWTH_LIMIT
