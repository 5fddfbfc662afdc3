"""Keyword replacement at an Ascension, when the new Emperor renames the game's keywords for the theme."""

from __future__ import annotations

import pytest

from dynasties.terms import pluralize, replace_keywords

HUNTERS = {"Player": "Hunter", "Emperor": "Pirate"}


def test_singular_and_plural_are_replaced():
    """'Player' and 'Players' both change."""
    assert replace_keywords("A Player. Two Players.", HUNTERS) == "A Hunter. Two Hunters."


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("player", "hunter"),
        ("Player", "Hunter"),
        ("PLAYER", "HUNTER"),
        ("players", "hunters"),
        ("PLAYERS", "HUNTERS"),
        ("pLaYeR", "Hunter"),
    ],
)
def test_capitalisation_is_copied(text, expected):
    """Lower, capitalised and upper case are kept; any other mixture takes the term as given."""
    assert replace_keywords(text, HUNTERS) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the Player's vote", "the Hunter's vote"),
        ("the Players' votes", "the Hunters' votes"),
        ("the Emperor’s veto", "the Pirate’s veto"),
    ],
)
def test_possessives_are_replaced(text, expected):
    """Straight and curly apostrophes, singular and plural possessives."""
    assert replace_keywords(text, HUNTERS) == expected


def test_only_whole_words_change():
    """Compounds such as 'Playerhood' are different words and stay; hyphenated words are separate words."""
    text = "Playerhood, Emperorship, Player1 and non-Player or Player-controlled"
    assert replace_keywords(text, HUNTERS) == "Playerhood, Emperorship, Player1 and non-Hunter or Hunter-controlled"


def test_replacements_happen_at_once_so_terms_can_swap():
    """Player→Hunter and Hunter→Player swap cleanly instead of undoing each other."""
    swap = {"Player": "Hunter", "Hunter": "Player"}
    assert replace_keywords("Players hunt Hunters; a player's hunter.", swap) == (
        "Hunters hunt Players; a hunter's player."
    )


@pytest.mark.parametrize(
    ("word", "plural"),
    [
        ("Duke", "Dukes"),
        ("Family", "Families"),
        ("Day", "Days"),
        ("Witch", "Witches"),
        ("Box", "Boxes"),
        ("Bus", "Buses"),
        ("Wish", "Wishes"),
        ("CITY", "CITIES"),
        ("Zero Cool", "Zero Cools"),
    ],
)
def test_default_plurals_follow_english_spelling(word, plural):
    """+s, +es after sibilants, consonant+y → ies, keeping an upper-case word upper-case."""
    assert pluralize(word) == plural


def test_irregular_plurals_can_be_given_for_old_and_new_terms():
    """{"Goose": "Geese"} makes 'Families' become 'Geese', not 'Gooses'."""
    text = "A Family and two Families; Families' wealth."
    result = replace_keywords(text, {"Family": "Goose"}, plurals={"Goose": "Geese"})
    assert result == "A Goose and two Geese; Geese' wealth."


def test_an_irregular_old_plural_is_recognised():
    """An old term with an irregular plural is found in the plural too."""
    result = replace_keywords("One Mouse, many Mice.", {"Mouse": "Rat"}, plurals={"Mouse": "Mice"})
    assert result == "One Rat, many Rats."


def test_the_2005_ascension_keywords():
    """The 2005 keywords Family, Duke and Thalers: a keyword that is already plural stays plural."""
    text = "Each Family pays the Duke 5 Thalers; families' thalers."
    result = replace_keywords(text, {"Family": "Villager", "Duke": "Mayor", "Thalers": "Pfennigs"})
    assert result == "Each Villager pays the Mayor 5 Pfennigs; villagers' pfennigs."


def test_multi_word_terms_match_across_whitespace_and_line_breaks():
    """'Zero Cool' is found even when split across a line, in any case."""
    text = "The Zero Cool and the zero\ncool; ZERO COOL; two Zero Cools."
    assert replace_keywords(text, {"Zero Cool": "Pirate"}) == "The Pirate and the pirate; PIRATE; two Pirates."


def test_longer_terms_win_over_terms_they_contain():
    """With terms 'Zero' and 'Zero Cool', the longer one is matched where both could apply."""
    result = replace_keywords("Zero Cool counts to zero.", {"Zero": "Nil", "Zero Cool": "Pirate"})
    assert result == "Pirate counts to nil."


def test_an_explicit_term_wins_over_a_derived_plural():
    """When a plural keyword is given itself, its own replacement is used."""
    assert replace_keywords("Player and Players", {"Player": "Hunter", "Players": "Crew"}) == "Hunter and Crew"


def test_lowercase_terms_are_capitalised_like_the_text():
    """A term given in lower case still copies the text's capitals."""
    assert replace_keywords("Player and player", {"player": "hunter"}) == "Hunter and hunter"


def test_no_replacements_or_empty_terms_leave_the_text_unchanged():
    """An empty mapping, an empty term or an empty text changes nothing."""
    assert replace_keywords("Players", {}) == "Players"
    assert replace_keywords("Players", {"": "x", "  ": "y"}) == "Players"
    assert replace_keywords("", HUNTERS) == ""


def test_regex_characters_in_terms_are_literal():
    """Terms are words, not patterns."""
    assert replace_keywords("a.b and axb", {"a.b": "c"}) == "c and axb"


def test_markup_survives_replacement():
    """Headings and list markers of ruleset markup are untouched around replaced words."""
    text = "=== Idle Players ===\n* The Emperor may veto."
    assert replace_keywords(text, HUNTERS) == "=== Idle Hunters ===\n* The Pirate may veto."
