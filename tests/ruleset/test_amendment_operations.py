"""Ruleset amendments as data: applying each operation, deriving operations from an edit, rule identity."""

from __future__ import annotations

import pytest

from dynasties.terms import replace_keywords
from ruleset.amendment_operations import (
    MOVE_INTO_ITSELF,
    NO_SUCH_RULE,
    NOT_EXPRESSIBLE,
    PASSAGE_MISSING,
    PASSAGE_NOT_FOUND,
    PASSAGE_REPEATED,
    TOO_DEEP,
    apply_page_operations,
    apply_rule_operations,
    derive_rule_operations,
    follow_renames,
    pair_renamed_rules,
    quote_change,
)
from ruleset.structure import parse_ruleset, serialize_ruleset
from votes.amendment_errors import AmendError

RULESET = serialize_ruleset(
    parse_ruleset("""\
== Core Rules ==
=== Players ===
Anyone may join. A Player may leave.
==== Admins ====
Some Players are Admins.
=== Proposals ===
A Player may post a Proposal.
== Dynastic Rules ==
=== The Lighthouse ===
Each Player keeps Oil, from 0 to 100.
=== Shifts ===
Each Player works the Dawn or Dusk shift.
=== Fog ===
When the fog comes, nobody sees. When the fog comes, nobody sees.
""")
)


def numbered(text: str) -> list[tuple[str, str]]:
    return [(rule.number, rule.title) for rule in parse_ruleset(text).all_rules()]


def test_add_after_a_rule_renumbers_those_after_and_says_so_with_the_new_numbers():
    """“Add a rule or subrule at a position (after a named rule …)” — the words give the result's numbers."""
    applied = apply_rule_operations(
        RULESET,
        [
            {"op": "rule_add", "title": "Storm Warnings", "body": "Ring the bell.", "after": "rule-the-lighthouse"},
        ],
    )
    assert numbered(applied.text)[4:7] == [("2.2", "Storm Warnings"), ("2.3", "Shifts"), ("2.4", "Fog")]
    assert parse_ruleset(applied.text).find("Storm Warnings").body == "Ring the bell."
    assert applied.descriptions == ("Adds 2.2 Storm Warnings after 2.1",)


def test_add_at_the_end_of_a_section_and_as_a_subrule():
    """“… or at the end of a section”; a rule's anchor as the container makes a subrule."""
    applied = apply_rule_operations(
        RULESET,
        [
            {"op": "rule_add", "title": "Tides", "body": "", "into": "section-dynastic-rules", "at": "end"},
            {
                "op": "rule_add",
                "title": "Moderators",
                "body": "Admins may moderate.",
                "into": "rule-players",
                "at": "end",
            },
        ],
    )
    assert ("2.4", "Tides") in numbered(applied.text)
    assert ("1.1.2", "Moderators") in numbered(applied.text)
    assert applied.descriptions[0] == "Adds 2.4 Tides at the end of section 2 Dynastic Rules"


def test_replace_text_keeps_the_title():
    applied = apply_rule_operations(RULESET, [{"op": "rule_replace", "rule": "rule-shifts", "body": "No shifts."}])
    rule = parse_ruleset(applied.text).find("Shifts")
    assert rule.body == "No shifts." and applied.descriptions == ("Replaces the text of 2.2 Shifts",)


def test_replace_passage_that_occurs_once():
    """“Replace one passage inside a rule (the passage must occur exactly once)”."""
    applied = apply_rule_operations(
        RULESET,
        [
            {"op": "rule_replace_passage", "rule": "rule-the-lighthouse", "old": "0 to 100", "new": "0 to 50"},
        ],
    )
    assert parse_ruleset(applied.text).find("The Lighthouse").body == "Each Player keeps Oil, from 0 to 50."


@pytest.mark.parametrize(
    ("old", "reason"),
    [
        ("When the fog comes", PASSAGE_REPEATED.format(count=2)),
        ("sunshine", PASSAGE_NOT_FOUND),
    ],
)
def test_replace_passage_refused_unless_it_occurs_exactly_once(old, reason):
    """A passage that occurs zero or several times is refused, naming the operation's position."""
    ops = [
        {"op": "rule_repeal", "rule": "rule-shifts"},
        {"op": "rule_replace_passage", "rule": "rule-fog", "old": old, "new": "x"},
    ]
    with pytest.raises(AmendError) as caught:
        apply_rule_operations(RULESET, ops)
    assert caught.value.reason == reason and caught.value.index == 1


def test_a_stale_passage_no_longer_occurs():
    with pytest.raises(AmendError, match=PASSAGE_MISSING):
        apply_rule_operations(
            RULESET, [{"op": "rule_replace_passage", "rule": "rule-fog", "old": "sun", "new": "x"}], stale=True
        )


def test_rename_changes_the_title_and_later_operations_still_find_the_rule():
    applied = apply_rule_operations(
        RULESET,
        [
            {"op": "rule_rename", "rule": "rule-shifts", "title": "Watches"},
            {"op": "rule_replace_passage", "rule": "rule-shifts", "old": "Dawn or Dusk", "new": "Dawn, Dusk or Night"},
        ],
    )
    rule = parse_ruleset(applied.text).find("Watches")
    assert rule.number == "2.2" and "Dawn, Dusk or Night" in rule.body
    assert applied.descriptions[0] == "Renames 2.2 Shifts to “Watches”"


def test_repeal_takes_the_subrules_with_it():
    applied = apply_rule_operations(RULESET, [{"op": "rule_repeal", "rule": "rule-players"}])
    assert numbered(applied.text)[:1] == [("1.1", "Proposals")]
    assert parse_ruleset(applied.text).find("Admins") is None


def test_move_to_another_place():
    applied = apply_rule_operations(
        RULESET, [{"op": "rule_move", "rule": "rule-fog", "into": "section-dynastic-rules", "at": "start"}]
    )
    assert numbered(applied.text)[3:] == [("2.1", "Fog"), ("2.2", "The Lighthouse"), ("2.3", "Shifts")]
    assert applied.descriptions == ("Moves 2.3 Fog at the start of section 2 Dynastic Rules (now 2.1)",)


def test_move_into_itself_and_too_deep_are_refused():
    with pytest.raises(AmendError, match=MOVE_INTO_ITSELF):
        apply_rule_operations(RULESET, [{"op": "rule_move", "rule": "rule-players", "into": "rule-admins"}])
    deep = [
        {"op": "rule_add", "title": "A", "body": "", "into": "rule-admins"},
        {"op": "rule_add", "title": "B", "body": "", "into": "rule-a"},
    ]
    with pytest.raises(AmendError, match=TOO_DEEP.format(depth=3)):
        apply_rule_operations(RULESET, deep)


def test_an_unknown_rule_is_named():
    with pytest.raises(AmendError) as caught:
        apply_rule_operations(RULESET, [{"op": "rule_repeal", "rule": "rule-nope"}])
    assert caught.value.reason == NO_SUCH_RULE.format(rule="rule-nope")


def test_page_operations_replace_text_or_one_passage():
    """Other wiki pages: replace a page's text or one passage in it."""
    text = "Chest 1: gold\nChest 2: empty\n"
    assert apply_page_operations(text, [{"op": "page_replace_passage", "old": "gold", "new": "silver"}]) == (
        "Chest 1: silver\nChest 2: empty\n"
    )
    assert apply_page_operations(text, [{"op": "page_replace", "text": "All empty."}]) == "All empty."
    with pytest.raises(AmendError, match="occurs 2 times"):
        apply_page_operations(text, [{"op": "page_replace_passage", "old": "Chest", "new": "Box"}])


# --- deriving operations from the editor -------------------------------------------------------------


def roundtrip(new_text: str) -> list[dict]:
    ops = derive_rule_operations(RULESET, new_text)
    assert apply_rule_operations(RULESET, ops).text == serialize_ruleset(parse_ruleset(new_text))
    return ops


def test_deriving_a_small_edit_gives_a_passage_replacement():
    ops = roundtrip(RULESET.replace("from 0 to 100", "from 0 to 50"))
    assert ops == [
        {
            "op": "rule_replace_passage",
            "rule": "rule-the-lighthouse",
            "old": "Each Player keeps Oil, from 0 to 100.",
            "new": "Each Player keeps Oil, from 0 to 50.",
        }
    ]


def test_deriving_an_added_rule_places_it_after_its_predecessor():
    ops = roundtrip(RULESET.replace("=== Shifts ===", "=== Storm Warnings ===\nRing the bell.\n\n=== Shifts ==="))
    assert ops == [
        {"op": "rule_add", "title": "Storm Warnings", "body": "Ring the bell.", "after": "rule-the-lighthouse"}
    ]


def test_deriving_rename_repeal_move_and_nested_adds():
    new = RULESET.replace("=== Shifts ===", "=== Watches ===").replace(
        "=== Fog ===\nWhen the fog comes, nobody sees. When the fog comes, nobody sees.\n", ""
    )
    new = new.replace("=== Proposals ===\nA Player may post a Proposal.\n", "")
    new = new.replace(
        "== Dynastic Rules ==\n",
        "== Dynastic Rules ==\n=== Proposals ===\nA Player may post a Proposal.\n"
        "==== Limits ====\nTwo at a time.\n===== Exceptions =====\nNone.\n",
    )
    ops = roundtrip(new)
    kinds = [op["op"] for op in ops]
    assert kinds == ["rule_rename", "rule_repeal", "rule_move", "rule_add", "rule_add"]


def test_a_change_outside_the_rules_cannot_be_derived():
    with pytest.raises(AmendError, match=NOT_EXPRESSIBLE):
        derive_rule_operations(RULESET, RULESET.replace("== Dynastic Rules ==", "== Local Rules =="))


# --- identity across revisions ----------------------------------------------------------------------


def test_keyword_replacement_keeps_every_rule_identity():
    """An Ascension's keyword replacement renames rules; each is paired with what it was."""
    after = replace_keywords(RULESET, {"Player": "Keeper"})
    pairs = pair_renamed_rules(parse_ruleset(RULESET), parse_ruleset(after))
    assert pairs == {"rule-keepers": "rule-players"}


def test_a_rename_in_place_is_paired_and_an_unrelated_swap_is_not():
    renamed = RULESET.replace("=== Shifts ===", "=== Watches ===")
    assert pair_renamed_rules(parse_ruleset(RULESET), parse_ruleset(renamed)) == {"rule-watches": "rule-shifts"}
    swapped = RULESET.replace(
        "=== Shifts ===\nEach Player works the Dawn or Dusk shift.",
        "=== Bells ===\nBells ring at noon whenever a ship arrives in harbour.",
    )
    assert pair_renamed_rules(parse_ruleset(RULESET), parse_ruleset(swapped)) == {}


def test_follow_renames_walks_the_chain():
    assert follow_renames("rule-a", [("rule-a", "rule-b"), ("rule-x", "rule-y"), ("rule-b", "rule-c")]) == "rule-c"


def test_a_replaced_passage_is_quoted_where_it_changes():
    """Found in play: "replaces 'Once per day, a Keeper on the Night shift may trim the wick…' with 'Once per
    day, a Keeper on the Night shift may trim the wick…'": both quotes were cut at the same point. Each now
    quotes the part that changed, with a few words before it."""
    old = "Once per day, a Keeper on the Night shift may trim the wick of any lamp that is lit."
    new = "Once per day, a Keeper on the Night shift may trim the wick of their own lamp, if it is lit."
    quoted_old, quoted_new = quote_change(old, new)
    assert quoted_old != quoted_new
    assert quoted_old == "…trim the wick of any lamp that is lit."
    assert quoted_new == "…trim the wick of their own lamp, if it is lit."
    tail = " Oil. " + "x " * 40
    middle = quote_change("Each Keeper starts with 10" + tail, "Each Keeper starts with 12" + tail)
    assert middle == ("…Keeper starts with 10 Oil. x x x…", "…Keeper starts with 12 Oil. x x x…")
    assert quote_change("short", "shorter") == ("short", "shorter")
