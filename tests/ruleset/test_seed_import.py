"""Converting plain-text exports of the ruleset wiki page, the five seeds among them, into ruleset markup.

The expected counts were established by reading each seed by hand: every bare title line between blank
lines is a heading; a run of two blank lines marks a heading the export printed as an empty line; the
Appendix/Glossary starts where its opening sentence does; nesting is only where the text shows it (a
heading with no text of its own, a rule that lists its subrules). The test reads the seeds from
``shared/seeds`` beside the project and copies none of their text.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ruleset.seed_import import NO_SECTION_ERROR, convert_plaintext_export, looks_like_title, repair_mojibake
from ruleset.structure import UNNAMED_RULE_TITLE, parse_ruleset, serialize_ruleset

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"

EXPECTED = {
    "002_db893bcde67d061f.txt": {  # Ruleset 21 (2005): no section headings, "Rules 1-10" are core
        "sections": ["Core Rules", "Dynastic Rules", "Glossary"],
        "rules_per_section": [10, 15, 0],
        "subrules": 3,
        "unnamed": 16,
        "titles": {
            "1.1": "Ruleset and Gamestate",
            "1.2": UNNAMED_RULE_TITLE,
            "1.7": "Calls for Judgement",
            "1.10": "Victory and Ascension",
            "2.2": "Death and Inheritance",
            "2.10.1": "The Seminary",
            "2.10.3": "The Hospital",
            "2.15": "Something To Work Towards",
        },
    },
    "004_95b4f428453237d6.txt": {  # Ruleset 50 (2008): every heading printed
        "sections": ["Core Rules", "Dynastic Rules", "Glossary"],
        "rules_per_section": [9, 42, 5],
        "subrules": 0,
        "unnamed": 0,
        "titles": {
            "1.8": "Dynasties",
            "2.1": "Life in Zahndorf",
            "2.26": "Murder",
            "2.42": "King's Visit",
            "3.1": "Typographic Conventions",
            "3.3": "Keywords",
            "3.5": "IEEE",
        },
    },
    "000_788850a6369d0cd2.txt": {  # Ruleset 52 (2008): many headings lost, the Glossary's among them
        "sections": ["Core Rules", "Dynastic Rules", "Glossary"],
        "rules_per_section": [9, 26, 5],
        "subrules": 0,
        "unnamed": 17,
        "titles": {
            "1.1": "Ruleset and Gamestate",
            "1.6": "Calls for Judgment",
            "2.1": "The Good, The Bad, and The Ugly.",
            "2.13": "List of Drinks",
            "2.24": "Victory conditions",
            "2.26": "Slot Machines",
            "3.1": "Typographic Conventions",
        },
    },
    "003_15a6e727611472a9.txt": {  # 2015 ruleset: the Appendix and Keywords headings lost together
        "sections": ["Core Rules", "Dynastic Rules", "Appendix"],
        "rules_per_section": [12, 10, 4],
        "subrules": 6,
        "unnamed": 14,
        "titles": {
            "1.3": "Idle Hackers",
            "1.12": "Seasonal Downtime",
            "2.2": "Covert Actions",
            "2.6": "Corporate Defence",
            "3.1": "Keywords",
            "3.3": "Random Generators",
            "3.4.1": "Numbers and Variables",
        },
    },
    "001_4d757ed51b1cb83a.txt": {  # Ruleset 142 (2016): every heading printed; ships and clarifications
        "sections": ["Core Rules", "Dynastic Rules", "Appendix"],
        "rules_per_section": [12, 13, 4],
        "subrules": 11,
        "unnamed": 0,
        "titles": {
            "1.3": "Idle Hunters",
            "1.12": "Seasonal Downtime",
            "2.8": "Ships",
            "2.8.1": "Raft",
            "2.8.5": "Galleon",
            "2.9": "Sailing",
            "3.4": "Clarifications",
            "3.4.6": "Prioritisation",
        },
    },
}


def read_seed(name: str) -> str:
    path = SEEDS / name
    if not path.exists():
        pytest.skip(f"seed rulesets not found at {SEEDS}")
    return path.read_text(encoding="utf-8")


@pytest.fixture(params=sorted(EXPECTED), ids=lambda name: name[:3])
def seed(request):
    name = request.param
    markup = convert_plaintext_export(read_seed(name))
    return EXPECTED[name], markup, parse_ruleset(markup)


def test_seed_sections_are_found(seed):
    """Each seed has its Core, Dynastic and Appendix/Glossary sections, named as the seed names them."""
    expected, _, ruleset = seed
    assert [section.title for section in ruleset.sections] == expected["sections"]


def test_seed_rules_are_counted_per_section(seed):
    """Each section holds the number of top-level rules counted by hand."""
    expected, _, ruleset = seed
    assert [len(section.rules) for section in ruleset.sections] == expected["rules_per_section"]


def test_seed_subrules_are_found_where_the_text_shows_nesting(seed):
    """Subrules are inferred only from an empty parent heading or a rule that lists its subrules."""
    expected, _, ruleset = seed
    assert sum(rule.level > 3 for rule in ruleset.all_rules()) == expected["subrules"]


def test_seed_lost_headings_become_unnamed_rules(seed):
    """Each heading the export printed as an empty line is an "Unnamed Rule"."""
    expected, _, ruleset = seed
    assert sum(rule.title == UNNAMED_RULE_TITLE for rule in ruleset.all_rules()) == expected["unnamed"]


def test_seed_rule_titles_sit_at_their_numbers(seed):
    """Sample titles are found at the numbers counted by hand."""
    expected, _, ruleset = seed
    assert {number: ruleset.find(number).title for number in expected["titles"]} == expected["titles"]


def test_seed_page_chrome_and_bullet_characters_are_gone(seed):
    """The page chrome is dropped and "  • " bullets become "* " list items."""
    _, markup, ruleset = seed
    for chrome in ("From BlogNomic Wiki", "Jump to", "Revision as of", "Returning players"):
        assert chrome not in markup
    assert "•" not in markup
    assert any(line.startswith("* ") for line in markup.splitlines())
    assert ruleset.preamble == ""


def test_seed_markup_is_canonical(seed):
    """The converter writes canonical markup: parsing and serializing it changes nothing."""
    _, markup, ruleset = seed
    assert serialize_ruleset(ruleset) == markup


def test_seed_every_rule_has_text_or_subrules(seed):
    """No empty rule is invented; a rule without text has subrules."""
    _, _, ruleset = seed
    assert all(rule.body or rule.children for rule in ruleset.all_rules())


def test_2016_ruleset_glossary_is_read_from_the_keywords_definition_list():
    """The 2016 Keywords rule is a definition list; its terms become the glossary."""
    ruleset = parse_ruleset(convert_plaintext_export(read_seed("001_4d757ed51b1cb83a.txt")))
    glossary = ruleset.glossary()
    assert len(glossary) == 33
    assert {"Quorum", "Daily Action", "Effective Vote Comment (EVC)", "Weekly Communal Action"} <= set(glossary)
    assert glossary["Can"] == '"is able to"'


def test_2008_ruleset_glossary_is_read_from_bullet_sentences():
    """The 2008 Glossary defines terms in sentences and "Term: definition" bullets."""
    ruleset = parse_ruleset(convert_plaintext_export(read_seed("004_95b4f428453237d6.txt")))
    assert {"Quorum", "Gamestate", "Appropriate Icons", "subject"} <= set(ruleset.glossary())


def test_mojibake_in_a_seed_is_repaired():
    """A seed read with the wrong encoding converts to the same ruleset as the clean one."""
    clean = read_seed("001_4d757ed51b1cb83a.txt")
    garbled = clean.encode("utf-8").decode("cp1252", errors="replace")
    assert "â€" in garbled
    assert (
        parse_ruleset(convert_plaintext_export(garbled)).toc() == parse_ruleset(convert_plaintext_export(clean)).toc()
    )


def test_a_wiki_footer_is_dropped():
    """Footer lines after the ruleset ("Retrieved from …", "Categories: …") are not rule text."""
    text = read_seed("004_95b4f428453237d6.txt") + (
        '\n\nRetrieved from "https://example.org/index.php?title=Ruleset"\nCategories: Rulesets\n'
        "Navigation menu\nPrivacy policy\n"
    )
    markup = convert_plaintext_export(text)
    assert "Retrieved from" not in markup and "Navigation menu" not in markup


# --- the heuristics, on invented exports ------------------------------------------------------------


def test_a_minimal_export_converts_to_sections_rules_and_bullets():
    """Bare title lines become headings, "  • " bullets list items, chrome and page title go."""
    export = (
        "Ruleset 7\n\nFrom BlogNomic Wiki\nJump to navigation Jump to search\n\n"
        "Core Rules\n\nBasics\n\nEveryone plays nicely.\n\n  • one\n    • nested\n  1. first\n\n"
        "Dynastic Rules\n\nBoats\n\nBoats float.\n"
    )
    assert convert_plaintext_export(export) == (
        "== Core Rules ==\n\n"
        "=== Basics ===\nEveryone plays nicely.\n\n* one\n** nested\n# first\n\n"
        "== Dynastic Rules ==\n\n"
        "=== Boats ===\nBoats float.\n"
    )


def test_two_blank_lines_mark_a_lost_heading():
    """A run of two blank lines starts an "Unnamed Rule"; three mark two headings, the first a parent."""
    export = "Core Rules\n\nFirst\n\nText one.\n\n\nText two.\n\n\n\nText three.\n"
    ruleset = parse_ruleset(convert_plaintext_export(export))
    assert [(rule.number, rule.title, rule.body) for rule in ruleset.all_rules()] == [
        ("1.1", "First", "Text one."),
        ("1.2", UNNAMED_RULE_TITLE, "Text two."),
        ("1.3", UNNAMED_RULE_TITLE, ""),
        ("1.3.1", UNNAMED_RULE_TITLE, "Text three."),
    ]


def test_text_that_looks_like_a_markup_heading_stays_text():
    """A line such as "== x ==" in the export is kept as rule text, not read back as a heading."""
    markup = convert_plaintext_export("Core Rules\n\nOdd\n\nSee below.\n== not a heading ==\n")
    ruleset = parse_ruleset(markup)
    assert [rule.title for rule in ruleset.all_rules()] == ["Odd"]
    assert ruleset.find("Odd").body == "See below.\n == not a heading =="


def test_a_heading_without_text_takes_the_following_headings_as_subrules():
    """An empty rule heading followed by headings is a parent, up to the end of its section."""
    export = "Appendix\n\nKeywords\n\nWords.\n\nClarifications\n\nNumbers\n\nAre whole.\n\nTime\n\nIs UTC.\n"
    ruleset = parse_ruleset(convert_plaintext_export(export))
    assert [(rule.number, rule.title) for rule in ruleset.all_rules()] == [
        ("1.1", "Keywords"),
        ("1.2", "Clarifications"),
        ("1.2.1", "Numbers"),
        ("1.2.2", "Time"),
    ]


def test_a_rule_listing_its_subrules_takes_the_alike_entries_that_follow():
    """After a rule naming its "subrules of this rule", short one-paragraph entries nest; a long one stops."""
    export = (
        "Dynastic Rules\n\nCarts\n\nKinds of cart are subrules of this rule.\n\n"
        "Small\n\nSpeed 1.\n\nLarge\n\nSpeed 2, slowly.\n\n"
        "Roads\n\nRoads join towns, and every cart may use any road that leads to a town it can reach.\n"
    )
    ruleset = parse_ruleset(convert_plaintext_export(export))
    assert [(rule.number, rule.title) for rule in ruleset.all_rules()] == [
        ("1.1", "Carts"),
        ("1.1.1", "Small"),
        ("1.1.2", "Large"),
        ("1.2", "Roads"),
    ]


def test_a_rule_ending_in_a_colon_takes_the_following_entries_as_subrules():
    """ "The guilds are:" followed by headings makes those headings subrules, until a lost heading."""
    export = (
        "Core Rules\n\nGuilds\n\nThe guilds are:\n\nMasons\n\nThey build.\n\nWeavers\n\nThey weave.\n\n\n"
        "Untitled text after a lost heading.\n"
    )
    ruleset = parse_ruleset(convert_plaintext_export(export))
    assert [rule.number for rule in ruleset.all_rules()] == ["1.1", "1.1.1", "1.1.2", "1.2"]


def test_sections_are_split_where_the_first_rule_says_the_core_ends():
    """ "Rules 1-2 are the core" splits a ruleset without section headings into Core and Dynastic Rules."""
    export = (
        "Basics\n\nRules 1-2 are the core rules; the rest change each round.\n\n"
        "Joining\n\nAnyone may join.\n\nBoats\n\nBoats float.\n"
    )
    ruleset = parse_ruleset(convert_plaintext_export(export))
    assert [(section.title, [rule.title for rule in section.rules]) for section in ruleset.sections] == [
        ("Core Rules", ["Basics", "Joining"]),
        ("Dynastic Rules", ["Boats"]),
    ]


def test_a_lost_glossary_heading_is_recognised_by_its_opening_words():
    """The glossary's opening sentence starts the Glossary section, its text the section intro."""
    export = (
        "Core Rules\n\nBasics\n\nPlay.\n\n\nThis is always at the end of the Ruleset, to explain things.\n\n"
        "  • Quorum is equal to three.\n\nTime\n\nIt passes.\n"
    )
    ruleset = parse_ruleset(convert_plaintext_export(export))
    assert [section.title for section in ruleset.sections] == ["Core Rules", "Glossary"]
    assert ruleset.sections[1].intro.startswith("This is always at the end")
    assert [rule.title for rule in ruleset.sections[1].rules] == ["Time"]
    assert ruleset.glossary() == {"Quorum": "Quorum is equal to three."}


def test_a_glossary_of_term_and_definition_lines_becomes_a_definition_list():
    """Alternating term and definition lines become "; term" / ": definition"; a lost term stays apart."""
    export = (
        "Appendix\n\nKeywords\n\nTerms follow.\n\n"
        "Gold\nA yellow metal.\nShip\nA boat that sails.\nAn orphan definition without its term.\n"
        "Tide\nThe sea rising.\n"
    )
    ruleset = parse_ruleset(convert_plaintext_export(export))
    assert ruleset.find("Keywords").body == (
        "Terms follow.\n\n; Gold\n: A yellow metal.\n; Ship\n: A boat that sails.\n\n"
        ": An orphan definition without its term.\n; Tide\n: The sea rising."
    )
    assert ruleset.glossary() == {
        "Gold": "A yellow metal.",
        "Ship": "A boat that sails.",
        "Tide": "The sea rising.",
    }


@pytest.mark.parametrize(
    ("line", "is_title"),
    [
        ("Victory and Ascension", True),
        ("Victory conditions", True),
        ("The Good, The Bad, and The Ugly.", True),
        ("Speed 1.", False),
        ("Is UTC.", False),
        ("King's Visit", True),
        ("The Duke may refuse any Petition he likes.", False),
        ("The following is the list: Alice, Bob", False),
        ("Cost: 5 Hold Size: 10", False),
        ("the lowercase start", False),
        ("  • A bullet", False),
        ("A very long line that goes on far too long to be any reasonable title", False),
        ("http://example.com", False),
        ("", False),
    ],
)
def test_title_lines_are_told_from_sentences(line, is_title):
    """Titles are short, mostly capitalised and end without punctuation unless in Title Case."""
    assert looks_like_title(line) is is_title


@pytest.mark.parametrize("text", ["", "   \n\n  ", "Just a paragraph of prose, with no headings at all.\n"])
def test_text_without_a_recognisable_section_raises_value_error(text):
    """Empty text or plain prose gives a clear ValueError."""
    with pytest.raises(ValueError, match="No ruleset section found"):
        convert_plaintext_export(text)
    assert "Core Rules" in NO_SECTION_ERROR


def test_rules_without_any_section_heading_get_a_core_rules_section_when_another_section_follows():
    """Rules before the first section heading still belong to a section."""
    ruleset = parse_ruleset(convert_plaintext_export("Basics\n\nPlay.\n\nAppendix\n\nWords\n\nMeanings.\n"))
    assert [section.title for section in ruleset.sections] == ["Core Rules", "Appendix"]


def test_repair_mojibake_leaves_clean_text_and_undecodable_runs_alone():
    """Only runs that decode as UTF-8 are repaired."""
    assert repair_mojibake("Hunter’s “ship” — café") == "Hunter’s “ship” — café"
    assert repair_mojibake("Hunterâ€™s") == "Hunter’s"
    assert repair_mojibake("Ã alone") == "Ã alone"


@pytest.mark.parametrize("seed_number", range(30))
def test_odd_input_never_crashes(seed_number):
    """Random mixtures of lines, bullets, control characters and stray bytes give markup or ValueError."""
    rng = random.Random(seed_number)
    pieces = [
        "",
        "",
        "Core Rules",
        "Appendix",
        "Title Line",
        "  • bullet",
        "    • deeper",
        "\x00\x07",
        "Ã©â€",
        "text with words.",
        "\t\ttabbed",
        "Term",
        "A definition line.",
        "=== fake ===",
        "\r",
        "Rules 1-3 are the core.",
        "This is always at the end of the Ruleset, whatever happens",
        "\ufeff",
        "😀",
    ]
    text = "\n".join(rng.choice(pieces) for _ in range(rng.randrange(0, 80)))
    try:
        markup = convert_plaintext_export(text)
    except ValueError as error:
        assert str(error) == NO_SECTION_ERROR
        return
    assert serialize_ruleset(parse_ruleset(markup)) == markup
