"""Loads the Hypothesis profile (``tests/properties/profiles.py``) before any property test is collected."""

from tests.properties import profiles  # noqa: F401
