"""The property tests' profiles: CI must be deterministic; exploring is done on purpose.

Finding: "The random search found a real bug and will find others: keep exploring, but CI must be
deterministic (a derandomized profile in CI, an exploring profile run on purpose, found examples kept in the
suite)."
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from tests.properties.profiles import CI, EXPLORE, EXPLORE_SCALE, PROFILE, examples


@pytest.mark.skipif(os.environ.get("HYPOTHESIS_PROFILE", CI) != CI, reason="run under another profile on purpose")
def test_the_suite_runs_the_derandomized_profile_unless_told_otherwise():
    """Every run of the suite tries the same examples and remembers nothing between runs."""
    assert PROFILE == CI
    current = settings()
    assert current.derandomize and current.database is None and current.deadline is None
    assert examples(30) == 30


def test_the_exploring_profile_draws_fresh_examples_and_many_more():
    explore = settings.get_profile(EXPLORE)
    assert not explore.derandomize and explore.database is not None
    assert explore.max_examples == settings.get_profile(CI).max_examples * EXPLORE_SCALE
