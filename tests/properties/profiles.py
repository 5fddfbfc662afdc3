"""How hard the property tests look: the ``ci`` profile by default, ``explore`` when asked for.

``ci`` is derandomized: every run tries the same examples, so the suite passes or fails for the code alone, and
it keeps no database of failures between runs. ``explore`` (``HYPOTHESIS_PROFILE=explore``) draws fresh random
examples, many times more of them, and keeps what fails in ``.hypothesis/`` so the next run tries it first; what
it finds is kept in the suite as an ``@example`` or a plain test. ``HYPOTHESIS_EXPLORE_SCALE`` sets how many
times more (20 by default).
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

CI, EXPLORE = "ci", "explore"
EXPLORE_SCALE = int(os.environ.get("HYPOTHESIS_EXPLORE_SCALE", "20"))

settings.register_profile(CI, derandomize=True, database=None, deadline=None, max_examples=100, print_blob=True)
# The database is named rather than inherited: Hypothesis turns its default database off when it sees a CI
# environment, and exploring is exactly when failures must be remembered.
settings.register_profile(
    EXPLORE,
    derandomize=False,
    deadline=None,
    max_examples=100 * EXPLORE_SCALE,
    database=DirectoryBasedExampleDatabase(".hypothesis/examples"),
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", CI)
settings.load_profile(PROFILE)


def examples(in_ci: int) -> int:
    """A test's number of examples: ``in_ci`` under the ``ci`` profile, ``EXPLORE_SCALE`` times as many when
    exploring."""
    return in_ci * EXPLORE_SCALE if PROFILE == EXPLORE else in_ci
