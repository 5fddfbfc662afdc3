"""Working out an edit of the Ruleset costs time in proportion to the edit, and a refusal comes first.

Finding: "One request stalls a worker. The Ruleset editor on /new/ works out every operation before the
100-operation cap is checked, in time quadratic in the rules added ... Size and count limits come before any
work, and the derivation is linear." Each test checks that the work grows in proportion to its input; the
quadratic code took 14 s for 4,000 added rules.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruleset.amendment_operations import (
    KEPT_INSIDE_REPEALED,
    TooManyOperations,
    apply_rule_operations,
    derive_rule_operations,
    pair_renamed_rules,
)
from ruleset.structure import _match_heading, parse_ruleset, serialize_ruleset
from tests.growth import LINEAR_GROWTH_LIMIT, cpu_seconds, growth
from votes.amendment_errors import AmendError

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


# Where the linear work takes under a millisecond here, too little to time a growth by, a limit a hundred
# times that stands between it and the seconds the old code took.
INSTANT = 0.1


def test_an_edit_over_the_operation_cap_is_refused_before_it_is_worked_out():
    """Finding 2: an edit adding thousands of rules (4,000 is a 130 KB POST) is refused for the 100-operation
    cap at a cost growing with its length, not with its length squared."""
    assert len(with_added_rules(BASE, 4000).encode()) > 100_000

    def refusing(count):
        edited = with_added_rules(BASE, count)

        def refuse():
            with pytest.raises(TooManyOperations, match="more than 100 operations"):
                derive_rule_operations(BASE, edited, limit=100)

        return refuse

    assert growth(refusing, small=2000) < LINEAR_GROWTH_LIMIT


def test_an_edit_just_under_the_cap_is_worked_out_and_applied_in_one_pass_per_operation():
    """100 operations on a Ruleset of 250 and of 2,000 rules: working them out and applying them (carrying the
    change into the text as written included) cost one pass over the rules for each operation."""

    def deriving_and_applying(count):
        base = serialize_ruleset(parse_ruleset(with_added_rules(BASE, count)))
        edited = with_added_rules(base, 100)
        return lambda: apply_rule_operations(base, derive_rule_operations(base, edited, limit=100))

    assert growth(deriving_and_applying, small=250) < LINEAR_GROWTH_LIMIT

    base = serialize_ruleset(parse_ruleset(with_added_rules(BASE, 500)))
    edited = with_added_rules(base, 100)
    operations = derive_rule_operations(base, edited, limit=100)
    assert len(operations) == 100
    assert apply_rule_operations(base, operations).text == serialize_ruleset(parse_ruleset(edited))


def test_a_long_line_of_spaces_between_equals_signs_parses_at_once():
    """A heading-like line of 100,000 spaces and tabs: the old pattern backtracked in cubic time (12 s for
    2,000)."""

    def parsing(pairs):
        text = "== Core Rules ==\n==" + " \t" * pairs + "x\n=== Players ===\nAnyone.\n"
        return lambda: parse_ruleset(text)

    ruleset = []
    assert cpu_seconds(lambda: ruleset.append(parsing(100_000)())) < INSTANT
    assert [rule.title for rule in ruleset[0].all_rules()] == ["Players"]


# The pattern headings were read with, kept here as the specification the string methods must agree with.
OLD_HEADING = re.compile(r"^(?P<marks>={2,6})[ \t]*(?P<title>.*?)[ \t]*(?P=marks)[ \t]*$")


@settings(deadline=None)  # a busy machine must not fail a test of what is read, not how fast
@given(st.text(alphabet="= \tab", max_size=18))
def test_headings_are_read_as_the_pattern_read_them(line):
    """Any short line of "=", spaces, tabs and letters is a heading of the same level and title as before."""
    match = OLD_HEADING.match(line) if line.strip().strip("=") else None
    assert _match_heading(line) == ((len(match["marks"]), match["title"]) if match else None)


def test_many_rules_of_one_title_get_their_anchors_in_linear_time():
    """Thousands of rules called “Dice” are numbered rule-dice, rule-dice-2, … without trying every suffix
    each time."""

    def text(count):
        return "== Core Rules ==\n=== Dice 2 ===\n" + "=== Dice ===\nRoll.\n" * count

    assert growth(lambda count: lambda: parse_ruleset(text(count)), small=2500) < LINEAR_GROWTH_LIMIT
    anchors = [rule.anchor for rule in parse_ruleset(text(20_000)).all_rules()]
    assert anchors[:4] == ["rule-dice-2", "rule-dice", "rule-dice-3", "rule-dice-4"]
    assert len(set(anchors)) == len(anchors)


def renamed(old: str, new: str):
    """The work of pairing the rules of ``old`` with those of ``new``, both parsed beforehand."""
    before, after = parse_ruleset(old), parse_ruleset(new)
    return lambda: pair_renamed_rules(before, after)


def test_renaming_a_long_rule_is_paired_without_comparing_it_letter_by_letter():
    """A 200 KB rule renamed in place is still the same rule, found at once (the letter by letter comparison
    took 24 s for 10 KB of one letter)."""

    def rule(length):
        return f"== Core Rules ==\n=== Fog ===\n{'x' * length}\n"

    pairs = {}
    pairing = renamed(rule(200_000), rule(200_000).replace("Fog", "Mist"))
    assert cpu_seconds(lambda: pairs.update(pairing())) < INSTANT
    assert pairs == {"rule-mist": "rule-fog"}


def test_renaming_every_rule_of_a_large_ruleset_takes_linear_time():
    """Thousands of rules of 400 characters each, all renamed: pairing grows with the number of rules."""
    body = "Each Keeper tends the beacon at dusk and logs its flame in the harbour book every night. " * 4

    def ruleset(count):
        return "== Core Rules ==\n" + "".join(f"=== Beacon {n} ===\n{n} {body}\n" for n in range(count))

    assert growth(lambda n: renamed(ruleset(n), ruleset(n).replace("Beacon", "Lamp")), small=500) < LINEAR_GROWTH_LIMIT
    assert len(renamed(ruleset(2000), ruleset(2000).replace("Beacon", "Lamp"))()) == 2000


def test_keeping_a_subrule_whose_rule_is_removed_is_refused_with_the_reason():
    """Promoting a subrule while deleting its rule cannot be one amendment (a repeal takes the subrules);
    it is refused saying so, not answered with a server error."""
    edited = BASE.replace("=== Players ===\nAnyone may join.\n\n==== Admins ====", "=== Admins ===")
    assert edited != BASE
    with pytest.raises(AmendError) as refused:
        derive_rule_operations(BASE, edited)
    assert refused.value.reason == KEPT_INSIDE_REPEALED.format(title="Admins", parent="Players")
