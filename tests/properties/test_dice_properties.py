"""Properties of the GNDT's dice and word-list tokens (``gndt.dice``) over any comment text."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gndt.dice import (
    DEFAULT_LISTS,
    MAX_DICE_PER_TOKEN,
    MAX_SIDES,
    MAX_TOKENS_PER_COMMENT,
    DiceError,
    describe_all,
    roll_comment,
)
from tests.properties.profiles import examples


class CountingRandom(random.Random):
    """A seeded generator that counts how often it was asked for randomness."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls = 0

    def randint(self, a: int, b: int) -> int:
        self.calls += 1
        return super().randint(a, b)

    def choice(self, seq):
        self.calls += 1
        return super().choice(seq)


# Text close to real comments: tokens, near-tokens, digits, punctuation and any other character.
fragments = st.one_of(
    st.sampled_from(
        [
            "DICE",
            "DICE6",
            "3DICE6",
            "DICE 52",
            "0DICE6",
            "DICE0",
            "DICE-3",
            "FRUIT",
            "COLOR",
            "COLOUR",
            "VEGGIE",
            "PARADICE6",
            "DICE6s",
            "dice6",
            "#",
            "(",
            ")",
            ",",
            " ",
            "\n",
            "_",
        ]
    ),
    st.integers(min_value=0, max_value=10**12).map(str),
    st.text(max_size=6),
)
comments = st.lists(fragments, max_size=12).map("".join)


@settings(max_examples=examples(150))
@given(comment=comments, seed=st.integers(min_value=0, max_value=2**32))
def test_any_comment_rolls_within_bounds_or_is_refused_whole(comment, seed):
    """Every roll lies on its dice, totals its results and sits where its token is in the comment; a refused
    comment raises DiceError before any die is rolled, never another exception."""
    rng = CountingRandom(seed)
    try:
        rolls = roll_comment(comment, rng=rng)
    except DiceError:
        assert rng.calls == 0, "a refused comment consumed randomness"
        return
    assert len(rolls) <= MAX_TOKENS_PER_COMMENT
    previous_end = 0
    for roll in rolls:
        assert comment[roll.start : roll.end] == roll.token and roll.start >= previous_end
        previous_end = roll.end
        if roll.is_dice:
            assert 0 <= roll.count <= MAX_DICE_PER_TOKEN and roll.sides <= MAX_SIDES
            assert len(roll.results) == roll.count and roll.total == sum(roll.results)
            assert all((1 <= result <= roll.sides) if roll.sides > 0 else result == 0 for result in roll.results)
        else:
            assert roll.pick in DEFAULT_LISTS[roll.kind]
    assert len(describe_all(rolls).splitlines()) == len(rolls)


@settings(max_examples=examples(200))
@given(
    tokens=st.lists(
        st.tuples(
            st.integers(min_value=1, max_value=MAX_DICE_PER_TOKEN), st.integers(min_value=1, max_value=MAX_SIDES)
        ),
        min_size=1,
        max_size=MAX_TOKENS_PER_COMMENT,
    ),
    separator=st.sampled_from([" ", ", ", "\n", " and "]),
)
def test_written_dice_are_read_back_exactly(tokens, separator):
    """``NDICEM`` tokens joined by spaces or punctuation are each read as N dice of M sides, in order."""
    comment = separator.join(f"{count}DICE{sides}" for count, sides in tokens)
    rolls = roll_comment(comment, rng=random.Random(0))
    assert [(roll.count, roll.sides) for roll in rolls] == tokens


@settings(max_examples=examples(100))
@given(count=st.integers(min_value=MAX_DICE_PER_TOKEN + 1, max_value=10**40), prefix=comments, suffix=comments)
def test_too_many_dice_anywhere_refuses_the_whole_comment(count, prefix, suffix):
    rng = CountingRandom(0)
    with pytest.raises(DiceError):
        roll_comment(f"{prefix} {count}DICE6 {suffix}", rng=rng)
    assert rng.calls == 0
