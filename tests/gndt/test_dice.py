"""Tests for the random tokens of GNDT comments (gndt.dice)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

import pytest

from gndt import dice
from gndt.dice import DEFAULT_LISTS, DiceError, Roll, describe, describe_all, roll_comment


class ScriptedRandom:
    """Returns scripted values: dice results for ``randint``, list positions for ``choice``."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.randint_calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.randint_calls.append((a, b))
        value = self.values.pop(0)
        assert a <= value <= b, f"scripted {value} outside {a}..{b}"
        return value

    def choice(self, seq: Sequence[str]) -> str:
        return seq[self.values.pop(0)]


def test_single_die_rolls_one_to_n():
    """2016 appendix 'The DICEN command can be used to generate a random number between 1 and N'."""
    rng = ScriptedRandom(4)
    [roll] = roll_comment("Slot machine DICE6", rng=rng)
    assert rng.randint_calls == [(1, 6)]
    assert (roll.token, roll.kind, roll.count, roll.sides, roll.results, roll.total) == (
        "DICE6",
        "dice",
        1,
        6,
        (4,),
        4,
    )


def test_several_dice_are_summed():
    """'YDICEX refer to Y X-sided dice': 3DICE6 rolls three six-sided dice and totals them."""
    [roll] = roll_comment("3DICE6", rng=ScriptedRandom(2, 5, 1))
    assert roll.count == 3
    assert roll.results == (2, 5, 1)
    assert roll.total == 8
    assert describe(roll) == "3DICE6: 2, 5, 1 = 8"


def test_tokens_are_rolled_in_comment_order():
    """2008 'HAND#X DICE52 DICE52': each token of a comment is rolled separately, left to right."""
    rolls = roll_comment("HAND#3 DICE52 DICE52", rng=ScriptedRandom(14, 26))
    assert [roll.results for roll in rolls] == [(14,), (26,)]
    assert [(roll.start, roll.end) for roll in rolls] == [(7, 13), (14, 20)]


def test_spaced_dice_token_is_read_as_one_die():
    """2008 prints 'HAND#x TURN DICE 52' in its card rules: 'DICE 52' rolls a 52-sided die."""
    [roll] = roll_comment("HAND#2 TURN DICE 52", rng=ScriptedRandom(33))
    assert (roll.token, roll.sides, roll.total) == ("DICE 52", 52, 33)


def test_bare_dice_is_six_sided():
    """2005 'having kids: DICE, DICE' reads results 1 to 6: a bare DICE is a six-sided die."""
    rng = ScriptedRandom(6, 3)
    rolls = roll_comment("Gretchen and Hans having kids: DICE, DICE", rng=rng)
    assert rng.randint_calls == [(1, 6), (1, 6)]
    assert [roll.total for roll in rolls] == [6, 3]


@pytest.mark.parametrize("token", ["DICE0", "DICE-3", "2DICE0"])
def test_zero_or_fewer_sides_yields_zero(token):
    """Appendix 'a roll of DiceX when X is zero or lower always yields a value of 0'."""
    rng = ScriptedRandom()
    [roll] = roll_comment(f"roll {token}", rng=rng)
    assert roll.total == 0
    assert set(roll.results) == {0}
    assert rng.randint_calls == []


def test_zero_dice_roll_nothing_and_total_zero():
    """0DICE6 (Y is zero, e.g. a train with no safes) rolls no dice and totals 0."""
    [roll] = roll_comment("0DICE6", rng=ScriptedRandom())
    assert (roll.results, roll.total) == ((), 0)
    assert describe(roll) == "0DICE6: no dice = 0"


@pytest.mark.parametrize(
    "comment",
    [
        "PARADICE6",
        "DICE6s",
        "x3DICE6",
        "dice6",
        "Dice6",
        "GRAPEFRUIT",
        "FRUITS",
        "colour",
        "VEGGIES",
        "DICE6_",
    ],
)
def test_tokens_glued_to_words_or_in_lower_case_are_plain_text(comment):
    """Only upper-case tokens standing alone roll: 'PARADICE6' or 'dice6' is ordinary text."""
    assert roll_comment(comment, rng=ScriptedRandom()) == []


@pytest.mark.parametrize("comment", ["(DICE6)", "#DICE6", "DICE6,", "DICE6.", "'DICE6'", "-DICE6"])
def test_tokens_next_to_punctuation_roll(comment):
    """Punctuation is a boundary: '(DICE6)' or 'HAND#DICE6' still rolls."""
    [roll] = roll_comment(comment, rng=ScriptedRandom(5))
    assert roll.token == "DICE6"


def test_adjacent_tokens_separated_by_punctuation():
    """'DICE6-DICE3' is two dice, not a negative-sided die."""
    rolls = roll_comment("DICE6-DICE3", rng=ScriptedRandom(6, 2))
    assert [(roll.token, roll.total) for roll in rolls] == [("DICE6", 6), ("DICE3", 2)]


def test_fruit_draws_from_the_fruit_list():
    """Random Generators 'FRUIT … Lemon, Orange, Kiwi, Grape, Cherry, Tangelo'."""
    [roll] = roll_comment("Fruit drink: FRUIT", rng=ScriptedRandom(2))
    assert (roll.kind, roll.pick) == ("FRUIT", "Kiwi")
    assert describe(roll) == "FRUIT: Kiwi"


def test_color_is_the_colour_list():
    """Random Generators 'The COLOUR (or COLOR) command': both spellings draw from one list."""
    rolls = roll_comment("COLOR COLOUR", rng=ScriptedRandom(0, 9))
    assert [(roll.token, roll.kind, roll.pick) for roll in rolls] == [
        ("COLOR", "COLOUR", "White"),
        ("COLOUR", "COLOUR", "Black"),
    ]


def test_veggie_draws_from_the_veggie_list():
    """Random Generators 'VEGGIE … Potato, Carrot, Triffid, Pumpkin'."""
    [roll] = roll_comment("VEGGIE", rng=ScriptedRandom(2))
    assert roll.pick == "Triffid"


def test_default_lists_are_the_appendix_lists():
    """The 2015 and 2016 appendices give the same three lists, in this order."""
    assert DEFAULT_LISTS == {
        "FRUIT": ("Lemon", "Orange", "Kiwi", "Grape", "Cherry", "Tangelo"),
        "COLOUR": (
            "White",
            "Red",
            "Green",
            "Silver",
            "Yellow",
            "Turquoise",
            "Magenta",
            "Orange",
            "Purple",
            "Black",
        ),
        "VEGGIE": ("Potato", "Carrot", "Triffid", "Pumpkin"),
    }


def test_lists_are_data_a_proposal_can_change():
    """'changes to the potential outcomes … must be made by proposal': a new list is a new token."""
    lists = {"FRUIT": ["Banana"], "ANIMAL": ["Cat", "Dog"]}
    rolls = roll_comment("FRUIT ANIMAL VEGGIE", lists=lists, rng=ScriptedRandom(0, 1))
    assert [(roll.kind, roll.pick) for roll in rolls] == [("FRUIT", "Banana"), ("ANIMAL", "Dog")]
    assert describe(rolls[0]) == "FRUIT: Banana"


def test_empty_list_is_refused():
    """A list with no entries cannot be drawn from; the error names the token."""
    with pytest.raises(DiceError, match="^FRUIT: the FRUIT list has no entries"):
        roll_comment("FRUIT", lists={"FRUIT": []}, rng=ScriptedRandom())


def test_more_than_100_dice_is_refused():
    """An absurd count is refused with a message naming the token."""
    with pytest.raises(DiceError) as refused:
        roll_comment("101DICE6", rng=ScriptedRandom())
    assert str(refused.value) == dice.TOO_MANY_DICE.format(token="101DICE6", limit=100)


def test_100_dice_are_allowed():
    """The limit itself is allowed: 100DICE2 rolls a hundred dice."""
    [roll] = roll_comment("100DICE2", rng=random.Random(1))
    assert len(roll.results) == 100
    assert set(roll.results) <= {1, 2}


def test_more_than_a_million_sides_is_refused():
    """An absurd size is refused with a message naming the token."""
    with pytest.raises(DiceError, match=r"^DICE1000001: a die may have at most 1,000,000 sides\.$"):
        roll_comment("DICE1000001", rng=ScriptedRandom())
    [roll] = roll_comment("DICE1000000", rng=ScriptedRandom(999_999))
    assert roll.total == 999_999


def test_huge_numbers_are_refused_without_echoing_them_whole():
    """A token with thousands of digits is refused, and the message stays short."""
    with pytest.raises(DiceError) as refused:
        roll_comment("DICE" + "9" * 5000, rng=ScriptedRandom())
    assert len(str(refused.value)) < 80


def test_more_than_20_tokens_is_refused_before_rolling():
    """A comment with 21 tokens is refused whole: nothing is rolled."""
    rng = ScriptedRandom(*[1] * 21)
    with pytest.raises(DiceError, match="at most 20 rolls; this one has 21"):
        roll_comment(" ".join(["DICE6"] * 21), rng=rng)
    assert rng.randint_calls == []
    assert len(roll_comment(" ".join(["DICE6"] * 20), rng=rng)) == 20


def test_refused_token_anywhere_rolls_nothing():
    """One bad token refuses the whole comment, so no partial result is stored."""
    rng = ScriptedRandom(3)
    with pytest.raises(DiceError):
        roll_comment("DICE6 then DICE2000000", rng=rng)
    assert rng.randint_calls == []


def test_describe_single_die_and_all():
    """A single die shows just its result; describe_all gives one line per roll."""
    rolls = roll_comment("DICE6 2DICE4 FRUIT", rng=ScriptedRandom(4, 1, 3, 5))
    assert describe_all(rolls) == "DICE6: 4\n2DICE4: 1, 3 = 4\nFRUIT: Tangelo"


def test_roll_is_frozen():
    """A Roll is an immutable record of what happened."""
    [roll] = roll_comment("DICE6", rng=ScriptedRandom(1))
    assert isinstance(roll, Roll)
    with pytest.raises(AttributeError):
        roll.total = 6  # type: ignore[misc]


def test_seeded_generator_gives_repeatable_rolls():
    """Any random.Random fits the rng argument; the same seed gives the same rolls."""
    first = roll_comment("3DICE20 COLOUR", rng=random.Random(42))
    second = roll_comment("3DICE20 COLOUR", rng=random.Random(42))
    assert first == second


def test_default_generator_is_cryptographic(monkeypatch):
    """Without an rng, rolls come from secrets.SystemRandom (the operating system's generator)."""
    assert isinstance(dice.SYSTEM_RNG, secrets.SystemRandom)
    calls: list[tuple[int, int]] = []

    def recorded_randint(self, a, b):
        calls.append((a, b))
        return b

    monkeypatch.setattr(secrets.SystemRandom, "randint", recorded_randint)
    [roll] = roll_comment("DICE20")
    assert calls == [(1, 20)]
    assert roll.total == 20
