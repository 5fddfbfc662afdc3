"""The statistics' charts read well from one dynasty to two hundred: whole dynasty numbers, bars that keep their
width, a legend clear of the bars, and months named once each."""

from __future__ import annotations

from datetime import UTC, date, datetime

import matplotlib
import pytest

from blognomic.community.stats.plots import (
    FEWEST_DYNASTIES_SHOWN,
    active_players,
    dynasty_lengths,
    proposals_by_dynasty,
)
from blognomic.community.stats.selectors import (
    DynastyProposals,
    DynastyRecord,
    MonthActivity,
    ResolutionTimes,
    Statistics,
)

matplotlib.use("Agg")


def game(dynasties: int, months: list[date]) -> Statistics:
    return Statistics(
        version="test",
        counted_at=datetime(2026, 11, 20, tzinfo=UTC),
        proposals_by_dynasty=tuple(
            DynastyProposals(number=n, proposals=12, enacted=7, failed=4, pending=1) for n in range(1, dynasties + 1)
        ),
        active_by_month=tuple(MonthActivity(month=m, players=5) for m in months),
        resolution_times=ResolutionTimes(bin_hours=6, counts=(1,), resolved=1),
        players=(),
        dynasties=tuple(
            DynastyRecord(
                number=n,
                started_at=datetime(2026, 10, 1, tzinfo=UTC),
                ended_at=None,
                days=40.0,
                emperor="Wren",
                winner=None,
            )
            for n in range(1, dynasties + 1)
        ),
    )


def labels(axis) -> list[str]:
    axis.figure.canvas.draw()
    return [label.get_text() for label in axis.get_ticklabels() if label.get_text()]


@pytest.mark.parametrize("chart", [proposals_by_dynasty, dynasty_lengths])
@pytest.mark.parametrize("dynasties", [1, 2, 200])
def test_dynasty_numbers_are_whole_and_a_lone_bar_keeps_its_width(chart, dynasties):
    """Found in play: "with one dynasty the x axis reads 0.6 … 1.4, one bar fills the plot"."""
    axes = chart(game(dynasties, [date(2026, 10, 1)])).axes[0]
    assert all(text.lstrip("−-").isdigit() for text in labels(axes.xaxis)), labels(axes.xaxis)
    low, high = axes.get_xlim()
    assert high - low >= FEWEST_DYNASTIES_SHOWN


def test_the_legend_sits_above_the_bars():
    """ "one bar fills the plot under its legend": the plot leaves room over the tallest bar."""
    axes = proposals_by_dynasty(game(1, [date(2026, 10, 1)])).axes[0]
    assert axes.get_ylim()[1] >= 12 * 1.25


@pytest.mark.parametrize(
    "months",
    [
        [date(2026, 10, 1), date(2026, 11, 1)],
        [date(2026, 11, 1)],
        [date(2005 + i // 12, i % 12 + 1, 1) for i in range(12 * 20)],
    ],
)
def test_months_are_named_once_each_and_never_crowd(months):
    """Found in play: "monthly data on a daily axis crowds the labels ('2026-10-292026-11-01')"."""
    texts = labels(active_players(game(1, months)).axes[0].xaxis)
    assert 2 <= len(texts) <= 9, texts
    assert len(set(texts)) == len(texts)
    assert not any(char.isdigit() and "-" in text for text in texts for char in text[:1]), texts
