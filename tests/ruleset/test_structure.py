"""Parsing, numbering, lookup, glossary and round-tripping of the structured Ruleset."""

from __future__ import annotations

import dataclasses

import pytest

from ruleset.structure import (
    UNNAMED_RULE_TITLE,
    changed_rule_anchors,
    parse_ruleset,
    rule_texts,
    serialize_ruleset,
    slugify,
)

SAMPLE = """\
Preamble words.

== Core Rules ==
=== Ruleset and Gamestate ===
All Hunters obey this.

A second paragraph.
=== Dynasties ===
Each dynasty has a Pirate.
* first bullet
* second bullet
==== Hiatus ====
No actions during hiatus.
===== Downtime =====
Every December.
==== Ascension ====
The winner ascends.
== Dynastic Rules ==
=== Ships ===
Hunters sail.
=== Dice ===
Roll them.
== Appendix ==
Appendix introduction.
* Icons: the pictures used to vote.
=== Keywords ===
; Quorum
: Half the active Hunters, rounded down, plus one.
; Daily Action
: Once per day.
=== Dice ===
Roll dice in the tracker.
"""


@pytest.fixture
def ruleset():
    return parse_ruleset(SAMPLE)


def test_sections_are_numbered_from_one_in_order(ruleset):
    """Sections take numbers 1, 2, 3 from their order."""
    assert [(section.number, section.title) for section in ruleset.sections] == [
        (1, "Core Rules"),
        (2, "Dynastic Rules"),
        (3, "Appendix"),
    ]


def test_rules_subrules_and_sub_subrules_are_numbered_from_their_position(ruleset):
    """Rules are n.m, subrules n.m.k and sub-subrules n.m.k.l."""
    numbers = [(rule.number, rule.title) for rule in ruleset.all_rules()]
    assert numbers[:6] == [
        ("1.1", "Ruleset and Gamestate"),
        ("1.2", "Dynasties"),
        ("1.2.1", "Hiatus"),
        ("1.2.1.1", "Downtime"),
        ("1.2.2", "Ascension"),
        ("2.1", "Ships"),
    ]
    assert ruleset.find("1.2.1").level == 4
    assert ruleset.find("1.2.1.1").level == 5


def test_rule_body_excludes_the_heading_and_subrules(ruleset):
    """A rule's body is its own text; its subrules are children."""
    dynasties = ruleset.find("1.2")
    assert dynasties.body == "Each dynasty has a Pirate.\n* first bullet\n* second bullet"
    assert [child.title for child in dynasties.children] == ["Hiatus", "Ascension"]


def test_preamble_and_section_intro_are_kept(ruleset):
    """Text before the first section is the preamble; text before a section's first rule is its intro."""
    assert ruleset.preamble == "Preamble words."
    assert ruleset.sections[2].intro == "Appendix introduction.\n* Icons: the pictures used to vote."


def test_anchors_are_slugs_of_titles_made_unique_in_document_order(ruleset):
    """Anchors come from titles; a repeated title gets a numeric suffix."""
    assert ruleset.find("1.1").anchor == "rule-ruleset-and-gamestate"
    assert ruleset.find("2.2").anchor == "rule-dice"
    assert ruleset.find("3.2").anchor == "rule-dice-2"
    assert ruleset.sections[0].anchor == "section-core-rules"


def test_removing_a_rule_renumbers_the_rules_after_it_but_keeps_their_anchors():
    """Numbers follow order, so a repeal renumbers; anchors follow titles, so links survive."""
    before = parse_ruleset("== Core Rules ==\n=== A ===\na\n=== B ===\nb\n=== C ===\nc\n")
    after = parse_ruleset("== Core Rules ==\n=== A ===\na\n=== C ===\nc\n")
    assert before.find("C").number == "1.3"
    assert after.find("C").number == "1.2"
    assert before.find("C").anchor == after.find("C").anchor == "rule-c"


@pytest.mark.parametrize(
    ("ref", "expected_title"),
    [
        ("1.2", "Dynasties"),
        ("Rule 1.2", "Dynasties"),
        ("rule 1.2.1", "Hiatus"),
        ("RULE 1.2.1.1", "Downtime"),
        ("dynasties", "Dynasties"),
        ("  Ruleset and   Gamestate ", "Ruleset and Gamestate"),
        ("“Ascension”", "Ascension"),
        ('Rule "Ships"', "Ships"),
        ("rule-dice-2", "Dice"),
    ],
)
def test_find_resolves_numbers_titles_quoted_titles_and_anchors(ruleset, ref, expected_title):
    """A rule is found by number (with or without "Rule"), by title in any case, or by anchor."""
    assert ruleset.find(ref).title == expected_title


def test_find_returns_the_first_rule_when_titles_repeat(ruleset):
    """A title shared by two rules names the first of them."""
    assert ruleset.find("Dice").number == "2.2"


@pytest.mark.parametrize("ref", ["9.9", "Rule 1.7", "Nothing", "", "1", "Rule 1"])
def test_find_returns_none_for_unknown_references(ruleset, ref):
    """References to rules that do not exist give None."""
    assert ruleset.find(ref) is None


def test_toc_lists_sections_and_rules_with_levels(ruleset):
    """The table of contents is flat, in document order, with a level for indentation."""
    toc = ruleset.toc()
    assert [(entry.number, entry.title, entry.level) for entry in toc[:6]] == [
        ("1", "Core Rules", 2),
        ("1.1", "Ruleset and Gamestate", 3),
        ("1.2", "Dynasties", 3),
        ("1.2.1", "Hiatus", 4),
        ("1.2.1.1", "Downtime", 5),
        ("1.2.2", "Ascension", 4),
    ]
    assert toc[0].anchor == "section-core-rules"


def test_glossary_reads_definition_lists_and_term_items_of_the_appendix(ruleset):
    """Keywords come from the Appendix: definition lists and "Term: definition" items."""
    assert ruleset.glossary() == {
        "Icons": "the pictures used to vote.",
        "Quorum": "Half the active Hunters, rounded down, plus one.",
        "Daily Action": "Once per day.",
    }


def test_glossary_reads_the_older_sentence_forms():
    """Older glossaries define terms in sentences: "X is equal to", 'The "subject" of', 'References to'."""
    ruleset = parse_ruleset(
        "== Glossary ==\n"
        "=== Keywords ===\n"
        "* Quorum is equal to half the players plus one.\n"
        "* Gamestate is defined as what the rules track.\n"
        '* The "topic" of a post is its title.\n'
        '* References to a "fortnight" mean fourteen days.\n'
        "* Unless otherwise specified: numbers are whole.\n"
        "* Nothing here defines anything.\n"
    )
    assert list(ruleset.glossary()) == ["Quorum", "Gamestate", "topic", "fortnight"]
    assert ruleset.glossary()["Quorum"] == "Quorum is equal to half the players plus one."


def test_glossary_ignores_rules_outside_the_appendix_unless_titled_keywords():
    """Definitions in ordinary rules are not keywords; a "Keywords" rule anywhere is read."""
    ruleset = parse_ruleset(
        "== Core Rules ==\n=== Votes ===\n* Quorum is equal to five.\n"
        "== Dynastic Rules ==\n=== Keywords ===\n* Ruin: having negative Pieces.\n"
    )
    assert ruleset.glossary() == {"Ruin": "having negative Pieces."}


def test_glossary_keeps_the_first_definition_of_a_term():
    """A term defined twice keeps its first definition."""
    ruleset = parse_ruleset("== Appendix ==\n=== Keywords ===\n; Day\n: first\n; Day\n: second\n")
    assert ruleset.glossary() == {"Day": "first"}


def test_glossary_skips_a_definition_whose_term_is_missing():
    """A definition line with no term above it defines nothing."""
    ruleset = parse_ruleset("== Appendix ==\n=== Keywords ===\n: orphan text\n\n; Post\n: A blog post.\n")
    assert ruleset.glossary() == {"Post": "A blog post."}


def test_serialize_gives_canonical_markup_that_parses_to_the_same_ruleset(ruleset):
    """serialize(parse(text)) is canonical and parses back to an equal Ruleset."""
    canonical = serialize_ruleset(ruleset)
    assert parse_ruleset(canonical) == ruleset
    assert serialize_ruleset(parse_ruleset(canonical)) == canonical


def test_serialize_writes_headings_by_level_without_numbers(ruleset):
    """Numbers are computed, never stored."""
    canonical = serialize_ruleset(ruleset)
    assert "=== Dynasties ===\nEach dynasty has a Pirate." in canonical
    assert "==== Hiatus ====" in canonical
    assert "===== Downtime =====" in canonical
    assert "1.2" not in canonical


def test_serialize_of_a_modified_ruleset_renumbers_on_parse(ruleset):
    """A Ruleset changed with dataclasses.replace is renumbered when its markup is parsed again."""
    core = ruleset.sections[0]
    without_first = dataclasses.replace(core, rules=core.rules[1:])
    changed = dataclasses.replace(ruleset, sections=(without_first, *ruleset.sections[1:]))
    reparsed = parse_ruleset(serialize_ruleset(changed))
    assert reparsed.find("Dynasties").number == "1.1"
    assert reparsed.find("Hiatus").number == "1.1.1"


def test_parsing_normalises_whitespace_around_bodies():
    """Blank lines around bodies and trailing spaces are not part of the text; blank runs collapse."""
    ruleset = parse_ruleset("== S ==\n\n=== R ===   \n\n  \nline one   \n\n\n\nline two\n\n")
    assert ruleset.find("R").body == "line one\n\nline two"


def test_a_subrule_heading_without_a_rule_above_is_read_as_a_rule():
    """A level-4 heading straight after a section heading becomes a rule of that section."""
    ruleset = parse_ruleset("== S ==\n==== Orphan ====\ntext\n")
    assert ruleset.find("1.1").title == "Orphan"


def test_headings_deeper_than_level_five_are_sub_subrules():
    """Level 6 headings are clamped to sub-subrules."""
    ruleset = parse_ruleset("== S ==\n=== R ===\n==== Sub ====\n===== A =====\n====== B ======\n")
    assert [rule.number for rule in ruleset.all_rules()] == ["1.1", "1.1.1", "1.1.1.1", "1.1.1.2"]


def test_a_rule_heading_before_any_section_stays_in_the_preamble():
    """Rules belong to sections, so a rule heading before the first section is preamble text."""
    ruleset = parse_ruleset("=== Stray ===\ntext\n== S ==\n=== R ===\n")
    assert ruleset.preamble == "=== Stray ===\ntext"
    assert [rule.title for rule in ruleset.all_rules()] == ["R"]


def test_a_line_of_equals_signs_is_text_not_a_heading():
    """'======' is not an empty heading."""
    ruleset = parse_ruleset("== S ==\n=== R ===\nabove\n======\nbelow\n")
    assert ruleset.find("R").body == "above\n======\nbelow"


def test_a_rule_with_an_empty_heading_is_named_unnamed_rule():
    """A rule with an empty heading gets the name the 2015 ruleset gives a nameless rule."""
    ruleset = parse_ruleset("== S ==\n===  ===\ntext\n")
    assert ruleset.find("1.1").title == UNNAMED_RULE_TITLE


def test_text_without_sections_parses_to_an_empty_ruleset_with_a_preamble():
    """Markup with no section heading is all preamble."""
    ruleset = parse_ruleset("Just words.\n")
    assert ruleset.sections == ()
    assert ruleset.preamble == "Just words."
    assert serialize_ruleset(parse_ruleset("")) == ""


def test_parse_accepts_windows_line_endings():
    """CRLF line endings parse like LF."""
    assert parse_ruleset(SAMPLE.replace("\n", "\r\n")) == parse_ruleset(SAMPLE)


def test_ruleset_objects_are_frozen(ruleset):
    """Parsed rules are immutable values."""
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.find("1.1").title = "Changed"  # type: ignore[misc]


def test_rule_texts_give_each_rules_own_title_and_body_by_anchor():
    """rule_texts excludes subrules, so a change to a subrule is not a change to its parent."""
    texts = rule_texts(SAMPLE)
    assert texts["rule-dynasties"] == "Dynasties\nEach dynasty has a Pirate.\n* first bullet\n* second bullet"
    assert texts["rule-hiatus"] == "Hiatus\nNo actions during hiatus."
    assert "Hiatus" not in texts["rule-dynasties"].split("\n", 1)[1]


def test_changed_rule_anchors_ignores_renumbering():
    """Adding a rule changes that rule only, though every later rule is renumbered."""
    old = "== S ==\n=== A ===\na\n=== B ===\nb\n=== C ===\nc\n"
    new = "== S ==\n=== New ===\nn\n=== A ===\na\n=== B ===\nb changed\n=== C ===\nc\n"
    assert changed_rule_anchors(old, new) == {"rule-new", "rule-b"}
    assert changed_rule_anchors(old, old) == set()


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Ruleset and Gamestate", "ruleset-and-gamestate"),
        ("King's Visit", "kings-visit"),
        ("The Good, The Bad, and The Ugly.", "the-good-the-bad-and-the-ugly"),
        ("Café Rules", "cafe-rules"),
        ("Food-Related  Occupations", "food-related-occupations"),
        ("Ελληνικά", "ελληνικά"),
        ("!!!", ""),
    ],
)
def test_slugify(title, slug):
    """Slugs are lowercase and hyphenated; accents drop; other scripts are kept rather than lost."""
    assert slugify(title) == slug


def test_a_title_with_no_letters_gets_an_untitled_anchor():
    """A title that slugifies to nothing still gets a usable, unique anchor."""
    ruleset = parse_ruleset("== S ==\n=== !!! ===\n=== ??? ===\n")
    assert [rule.anchor for rule in ruleset.all_rules()] == ["rule-untitled", "rule-untitled-2"]
