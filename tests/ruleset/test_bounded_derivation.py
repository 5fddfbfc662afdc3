"""Working out an edit of the Ruleset costs time in proportion to the edit, and a refusal comes first.

Finding: "One request stalls a worker. The Ruleset editor on /new/ works out every operation before the
100-operation cap is checked, in time quadratic in the rules added ... Size and count limits come before any
work, and the derivation is linear." The times are CPU seconds of this process, far above what the linear
code takes and far below what the quadratic code took (14 s for 4,000 added rules).
"""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ruleset.amendment_operations import (
    KEPT_INSIDE_REPEALED,
    AmendError,
    TooManyOperations,
    apply_rule_operations,
    derive_rule_operations,
    pair_renamed_rules,
)
from ruleset.structure import _match_heading, parse_ruleset, serialize_ruleset

BASE = serialize_ruleset(
    parse_ruleset("""\
== Core Rules ==
=== Players ===
Anyone may join.
==== Admins ====
Some Players are Admins.
=== Proposals ===
A Player may post a Proposal.
== Dynastic Rules ==
=== The Lighthouse ===
Each Player keeps Oil.
""")
)


def with_added_rules(text: str, count: int) -> str:
    return text + "".join(f"\n=== Beacon {n} ===\nKeeper {n} tends beacon {n}.\n" for n in range(count))


# Each limit below is the figure measured on a quiet two-core machine with room to spare, times this: a busy
# machine (the suite's two runs side by side, other work) was seen to spend four times the CPU on the same
# work. Every limit stays far below what the work cost before it was made linear (seconds to minutes).
BUSY_MACHINE = 3


def cpu_seconds(work) -> float:
    """The process's CPU seconds for ``work``, scaled down by ``BUSY_MACHINE`` for the limits to compare."""
    start = time.process_time()
    work()
    return (time.process_time() - start) / BUSY_MACHINE


def test_an_edit_over_the_operation_cap_is_refused_before_it_is_worked_out():
    """Finding 2: 4,000 added rules (a 130 KB POST) are refused for the 100-operation cap in well under a second."""
    edited = with_added_rules(BASE, 4000)

    def refuse():
        with pytest.raises(TooManyOperations, match="more than 100 operations"):
            derive_rule_operations(BASE, edited, limit=100)

    assert cpu_seconds(refuse) < 0.5


def test_an_edit_just_under_the_cap_is_worked_out_quickly_on_a_large_ruleset():
    """100 operations on a Ruleset of 4,000 rules: each operation costs one pass over the rules, not more."""
    base = serialize_ruleset(parse_ruleset(with_added_rules(BASE, 4000)))
    edited = with_added_rules(base, 100)
    operations = []
    assert cpu_seconds(lambda: operations.extend(derive_rule_operations(base, edited, limit=100))) < 1.0
    assert len(operations) == 100
    assert apply_rule_operations(base, operations).text == serialize_ruleset(parse_ruleset(edited))


def test_a_long_line_of_spaces_between_equals_signs_parses_at_once():
    """A heading-like line of 100,000 spaces and tabs: the old pattern backtracked in cubic time (12 s for 2,000)."""
    text = "== Core Rules ==\n==" + " \t" * 50_000 + "x\n=== Players ===\nAnyone.\n"
    ruleset = []
    assert cpu_seconds(lambda: ruleset.append(parse_ruleset(text))) < 0.2
    assert [rule.title for rule in ruleset[0].all_rules()] == ["Players"]


# The pattern headings were read with, kept here as the specification the string methods must agree with.
OLD_HEADING = re.compile(r"^(?P<marks>={2,6})[ \t]*(?P<title>.*?)[ \t]*(?P=marks)[ \t]*$")


@given(st.text(alphabet="= \tab", max_size=18))
def test_headings_are_read_as_the_pattern_read_them(line):
    """Any short line of "=", spaces, tabs and letters is a heading of the same level and title as before."""
    match = OLD_HEADING.match(line) if line.strip().strip("=") else None
    assert _match_heading(line) == ((len(match["marks"]), match["title"]) if match else None)


def test_many_rules_of_one_title_get_their_anchors_at_once():
    """20,000 rules called “Dice” are numbered rule-dice, rule-dice-2, … without trying every suffix each time."""
    text = "== Core Rules ==\n=== Dice 2 ===\n" + "=== Dice ===\nRoll.\n" * 20_000
    ruleset = []
    assert cpu_seconds(lambda: ruleset.append(parse_ruleset(text))) < 1.5
    anchors = [rule.anchor for rule in ruleset[0].all_rules()]
    assert anchors[:4] == ["rule-dice-2", "rule-dice", "rule-dice-3", "rule-dice-4"]
    assert len(set(anchors)) == len(anchors)


def test_renaming_a_long_rule_is_paired_without_comparing_it_letter_by_letter():
    """A 200 KB rule renamed in place is still the same rule, found in well under a second (the letter by
    letter comparison took 24 s for 10 KB of one letter)."""
    old = f"== Core Rules ==\n=== Fog ===\n{'x' * 200_000}\n"
    new = old.replace("=== Fog ===", "=== Mist ===")
    pairs = {}
    assert cpu_seconds(lambda: pairs.update(pair_renamed_rules(parse_ruleset(old), parse_ruleset(new)))) < 0.5
    assert pairs == {"rule-mist": "rule-fog"}


def test_renaming_every_rule_of_a_large_ruleset_takes_a_bounded_time():
    """2,000 rules of 400 characters each, all renamed: pairing stays under a second."""
    body = "Each Keeper tends the beacon at dusk and logs its flame in the harbour book every night. " * 4
    old = "== Core Rules ==\n" + "".join(f"=== Beacon {n} ===\n{n} {body}\n" for n in range(2000))
    new = old.replace("=== Beacon", "=== Lamp")
    pairs = {}
    assert cpu_seconds(lambda: pairs.update(pair_renamed_rules(parse_ruleset(old), parse_ruleset(new)))) < 1.0
    assert len(pairs) == 2000


def test_keeping_a_subrule_whose_rule_is_removed_is_refused_with_the_reason():
    """Promoting a subrule while deleting its rule cannot be one amendment (a repeal takes the subrules);
    it is refused saying so, not answered with a server error."""
    edited = BASE.replace("=== Players ===\nAnyone may join.\n\n==== Admins ====", "=== Admins ===")
    assert edited != BASE
    with pytest.raises(AmendError) as refused:
        derive_rule_operations(BASE, edited)
    assert refused.value.reason == KEPT_INSIDE_REPEALED.format(title="Admins", parent="Players")
