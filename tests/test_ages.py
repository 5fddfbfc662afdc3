"""Ages in words (``dynasties.ages``): hours while they decide, then days, then years."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from dynasties.ages import age_in_words


@pytest.mark.parametrize(
    ("hours", "options", "words"),
    [
        (0, {}, "0 hours"),
        (1, {}, "1 hour"),
        (12.45, {"decimals": 1}, "12.5 hours"),
        (71.9, {"decimals": 1}, "71.9 hours"),
        (72, {}, "3 days"),
        (24 * 365, {}, "365 days"),
        (24 * 731, {}, "2 years"),
        (178_997, {}, "20 years"),
        (5.4, {"short": True}, "5h"),
        (24 * 4 + 3, {"short": True}, "4d"),
        (178_997, {"short": True}, "20y"),
        (-3, {}, "0 hours"),
    ],
)
def test_an_age_reads_in_the_unit_a_reader_takes_in(hours, options, words):
    """A matter open 178,997 hours reads "20 years"; one open 12.45 hours keeps its tenth of an hour."""
    assert age_in_words(hours, **options) == words


def test_the_age_filter_gives_the_same_words_in_a_template():
    rendered = Template('{{ a|age:1 }} / {{ b|age }} / {{ c|age:"short" }}').render(
        Context({"a": 12.44, "b": 178_997, "c": 30})
    )
    assert rendered == "12.4 hours / 20 years / 30h"
