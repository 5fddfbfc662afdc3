"""Tests for typed GNDT cell values (gndt.values)."""

from __future__ import annotations

import pytest

from gndt import values
from gndt.values import (
    CellValueError,
    ColumnSpec,
    apply_adjustment,
    split_list_items,
    starting_value,
    validate_value,
)

THALERS = ColumnSpec("Thalers", "integer", minimum=0, maximum=200, clamp=True, default="200")
MONEY = ColumnSpec("Money", "integer", default="300")
PIECES = ColumnSpec("Pieces", "integer", allow_negative=True, maximum=200, default="8")
TREASURE = ColumnSpec("Treasure", "integer", minimum=1, maximum=10)
QUICK_DRAW = ColumnSpec("QD", "integer", allow_negative=True, choices=("-",), default="-")
POKER_TABLE = ColumnSpec("Poker Table", "choice", choices=("Button", "Yes", "-"))
TURN = ColumnSpec("Turn", "choice", choices=("-", "o", "x"))
MEMBERS = ColumnSpec("Members", "list")
ITEMS = ColumnSpec("Items", "list", choices=("Gun", "Silver Bullet", "Sword"))
FORCED_HAND = ColumnSpec("Forced Hand", "player", choices=("-",), default="-")
DRINK = ColumnSpec("Drink", "text", default="none")
PLAYERS = frozenset({"Kevan", "Seventy-Fifth Trombone", "ais523"})


def refusal(spec: ColumnSpec, raw: str, **kwargs) -> str:
    with pytest.raises(CellValueError) as refused:
        validate_value(spec, raw, **kwargs)
    assert refused.value.column == spec.name
    return str(refused.value)


# Integers


def test_whole_number_is_normalised():
    """Numbers are stored plainly: spaces, a plus sign and leading zeros go."""
    assert validate_value(MONEY, " 042 ") == "42"
    assert validate_value(MONEY, "+7") == "7"
    assert validate_value(PIECES, "-0") == "0"


def test_grouped_thousands_are_accepted():
    """'4,750,000 pfennigs' (2008): correctly grouped thousands are read as one number."""
    assert validate_value(MONEY, "4,750,000") == "4750000"
    assert "whole number" in refusal(MONEY, "47,50")


@pytest.mark.parametrize("raw", ["ten", "10.5", "1e3", "", "1_000", "٣"])
def test_non_numbers_are_refused_naming_column_and_value(raw):
    """'Each Player's Money statistic … must at all times be an integer value' (2008)."""
    assert refusal(MONEY, raw) == values.NOT_A_WHOLE_NUMBER.format(column="Money", value=raw)


def test_message_example_for_thalers():
    """The refusal reads as players expect: "Thalers must be a whole number; got 'ten'"."""
    assert refusal(THALERS, "ten") == "Thalers must be a whole number; got 'ten'"


def test_numbers_default_to_non_negative():
    """Appendix 'game variables defined to hold numeric values can hold only non-negative integers'."""
    assert refusal(MONEY, "-5") == "Money may not be negative; got '-5'"


def test_negative_allowed_where_the_rule_says_so():
    """2016 Ruin 'While a Hunter's Pieces is negative, they are considered Ruined': Pieces may be -3."""
    assert validate_value(PIECES, "-3") == "-3"


def test_maximum_is_refused_when_not_clamped():
    """A column with a maximum and no clamp refuses a larger number, naming the bound."""
    assert refusal(PIECES, "250") == "Pieces may not exceed 200; got '250'"
    assert validate_value(PIECES, "200") == "200"


def test_minimum_other_than_zero_is_named():
    """'a positive integer Treasure Rating, which ranges between 1 … and 10' (2016)."""
    assert refusal(TREASURE, "0") == "Treasure may not be less than 1; got '0'"


def test_clamped_column_sets_the_bound_instead_of_refusing():
    """2005 'Any effect which would take Thalers beyond either of these boundaries instead sets it to that
    boundary'."""
    assert validate_value(THALERS, "250") == "200"
    assert validate_value(THALERS, "-5") == "0"
    assert validate_value(THALERS, "150") == "150"


def test_integer_column_with_literal_placeholder():
    """2008 'Each Player's QD is tracked in the GNDT as "-" until it is determined'."""
    assert validate_value(QUICK_DRAW, "-") == "-"
    assert validate_value(QUICK_DRAW, "-2") == "-2"
    assert "whole number" in refusal(QUICK_DRAW, "?")


def test_absurdly_long_number_is_refused():
    """A number of thousands of digits is refused rather than parsed."""
    assert "whole number" in refusal(MONEY, "9" * 100)


# Choices


def test_choice_must_be_one_of_the_choices():
    """2008 'Each Player's entry in the "Poker Table" column shall be exactly one of … "Button", "Yes" or
    "-"'."""
    assert refusal(POKER_TABLE, "Maybe") == "Poker Table must be one of Button, Yes, -; got 'Maybe'"
    assert validate_value(POKER_TABLE, "Yes") == "Yes"


def test_choice_matching_ignores_case_and_stores_the_choice_spelling():
    """2008 names the Turn marker both 'x' and 'X': either is stored as the listed 'x'."""
    assert validate_value(TURN, "X") == "x"
    assert validate_value(POKER_TABLE, "button") == "Button"


def test_choice_exact_match_wins_over_case_insensitive():
    """When choices differ only by case, the exact spelling decides."""
    spec = ColumnSpec("Mark", "choice", choices=("a", "A"))
    assert validate_value(spec, "A") == "A"
    assert validate_value(spec, "a") == "a"


def test_blank_is_a_choice_only_when_listed():
    """A blank entry is valid for a choice column only if blank is one of its choices."""
    assert validate_value(ColumnSpec("Hairy Back", "choice", choices=("", "Yes", "No")), " ") == ""
    assert refusal(TURN, "") == "Turn must be one of -, o, x; got ''"


def test_choice_column_needs_choices():
    """A choice column without choices is a configuration error, caught when it is declared."""
    with pytest.raises(ValueError):
        ColumnSpec("Empty", "choice")


# Lists


def test_list_is_normalised_to_comma_space():
    """List cells are stored as items joined by ', ', without empty items."""
    assert validate_value(MEMBERS, "Hans,Gretchen ,  Gustav,") == "Hans, Gretchen, Gustav"
    assert validate_value(MEMBERS, "") == ""


def test_commas_inside_brackets_belong_to_the_item():
    """2005 Members 'Hans (10/M, married to Gretchen), Gretchen (20/F, married to Hans), Gustav (10/M)'."""
    raw = "Hans (10/M, married to Gretchen),Gretchen (20/F,married to Hans), Gustav (10/M)"
    assert split_list_items(raw) == [
        "Hans (10/M, married to Gretchen)",
        "Gretchen (20/F,married to Hans)",
        "Gustav (10/M)",
    ]
    assert validate_value(MEMBERS, raw).count(", Gretchen (20/F") == 1


def test_list_items_limited_to_choices():
    """A list with choices (an inventory of known items) refuses an unknown item."""
    assert validate_value(ITEMS, "gun, Sword") == "Gun, Sword"
    assert refusal(ITEMS, "Gun, Cannon") == "Each item of Items must be one of Gun, Silver Bullet, Sword; got 'Cannon'"


# Players


def test_player_column_takes_a_known_name():
    """Names with spaces and punctuation are players' names; the stored spelling is the player's."""
    assert validate_value(FORCED_HAND, "Seventy-Fifth Trombone", players=PLAYERS) == "Seventy-Fifth Trombone"
    assert validate_value(FORCED_HAND, "kevan", players=PLAYERS) == "Kevan"


def test_player_column_allows_blank_and_listed_literals():
    """2008 'Forced Hand, which may have a value of '-' or the name of any active player'."""
    assert validate_value(FORCED_HAND, "-", players=PLAYERS) == "-"
    assert validate_value(FORCED_HAND, "  ", players=PLAYERS) == ""


def test_unknown_player_is_refused():
    """A name that is not a player's is refused, saying what else is allowed."""
    assert (
        refusal(FORCED_HAND, "Bucky", players=PLAYERS)
        == "Forced Hand must be the name of a player or one of -; got 'Bucky'"
    )


# Text


def test_text_is_stripped_and_kept():
    """2016 ships are stored as 'N (C)': free text is kept as typed, without outer spaces."""
    ship = ColumnSpec("Ship", "text")
    assert validate_value(ship, "  Unnamed (Sloop) ") == "Unnamed (Sloop)"


def test_text_must_be_one_line_and_not_huge():
    """A cell holds one line of reasonable length."""
    assert refusal(DRINK, "Pint\nof Beer") == "Drink must fit on one line"
    assert "at most 2000 characters" in refusal(DRINK, "x" * 2001)


# Starting values


def test_starting_value_is_the_default_when_given():
    """2008 'New players receive a $300 Money statistic upon joining'."""
    assert starting_value(MONEY) == "300"


def test_starting_value_nearest_to_zero():
    """2016 'If a game variable has no defined starting value, then that starting value is the nearest legal
    value to zero'."""
    assert starting_value(ColumnSpec("Score", "integer")) == "0"
    assert starting_value(TREASURE) == "1"
    assert starting_value(ColumnSpec("Debt", "integer", allow_negative=True, maximum=-2)) == "-2"
    assert starting_value(POKER_TABLE) == "-"
    assert starting_value(ColumnSpec("Notes", "text")) == ""


# Adjustments


def test_adjustment_adds_to_the_current_value():
    """2005 'Once per day at midnight GMT the Calendar advances 10 Years': add 10 to Year."""
    year = ColumnSpec("Year", "integer")
    assert apply_adjustment(year, "120", 10) == "130"


def test_adjustment_with_an_effect_maximum_stops_there():
    """2016 'the Treasure Rating of each island increases by 1 (to a maximum of 10)'."""
    treasure = ColumnSpec("Treasure", "integer", minimum=1)
    assert apply_adjustment(treasure, "9", 1, at_most=10) == "10"
    assert apply_adjustment(treasure, "10", 1, at_most=10) == "10"
    assert apply_adjustment(treasure, "12", 1, at_most=10) == "12"


def test_adjustment_with_an_effect_minimum_stops_there():
    """2016 'reduce the Treasure Rating … by the number of Pieces gained (to a minimum of 1)'."""
    assert apply_adjustment(TREASURE, "2", -3, at_least=1) == "1"


def test_adjustment_beyond_column_bound_is_refused():
    """2016 'Any action that would set those values below zero is an illegal action'."""
    with pytest.raises(CellValueError, match="^Money may not be negative; got '-5'$"):
        apply_adjustment(MONEY, "5", -10)


def test_adjustment_on_a_clamped_column_clamps():
    """2005 Thalers 'instead sets it to that boundary': a reward past 200 leaves 200."""
    assert apply_adjustment(THALERS, "195", 10) == "200"
    assert apply_adjustment(THALERS, "3", -5) == "0"


def test_cost_on_a_clamped_column_is_refused():
    """2005 '…unless the change must be made as a precondition of a game action (such as paying a "cost")'."""
    with pytest.raises(CellValueError, match="Thalers may not be negative"):
        apply_adjustment(THALERS, "40", -50, cost=True)
    assert apply_adjustment(THALERS, "60", -50, cost=True) == "10"


def test_adjustment_may_go_negative_where_allowed():
    """2016 Exploring 'this reduction may cause that number to become negative'."""
    assert apply_adjustment(PIECES, "0", -1) == "-1"


def test_adjustment_of_blank_cell_starts_from_the_starting_value():
    """A blank numeric cell counts as its starting value."""
    assert apply_adjustment(MONEY, "", -10) == "290"


def test_adjustment_of_a_placeholder_is_refused():
    """A QD of '-' has no number yet to add to."""
    with pytest.raises(CellValueError, match="QD holds '-', which is not a number"):
        apply_adjustment(QUICK_DRAW, "-", 1)


def test_adjustment_of_a_text_column_is_refused():
    """Only integer columns can be added to."""
    with pytest.raises(CellValueError, match="^Drink is not a numeric column$"):
        apply_adjustment(DRINK, "none", 1)


def test_column_spec_rejects_inconsistent_bounds():
    """A spec that contradicts itself is a configuration error."""
    with pytest.raises(ValueError):
        ColumnSpec("Odd", "integer", minimum=-5)
    with pytest.raises(ValueError):
        ColumnSpec("Odd", "integer", minimum=5, maximum=1)
    with pytest.raises(ValueError):
        ColumnSpec("Odd", "number")
