"""The statistics drawn as PNG images with matplotlib (its Agg renderer: no display, no pyplot state).

Each chart is a function from the plain ``Statistics`` to a matplotlib ``Figure``; ``render`` turns one into
PNG bytes. An empty game draws a figure that says so rather than failing.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from blognomic.community.stats.selectors import Statistics

INK, MUTED, LINE, ACCENT = "#1d2430", "#5b6473", "#d9dee6", "#2457a6"
FOR, AGAINST, PENDING = "#1f7a3a", "#b3261e", "#e6c770"
WIDTH, HEIGHT, DPI = 8.4, 3.4, 100
TOP_PLAYERS = 15


def _figure(height: float = HEIGHT):
    # Imported here so that only requests for an image pay for loading matplotlib.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        axes.spines[side].set_color(LINE)
    axes.tick_params(colors=MUTED, labelsize=9)
    axes.grid(axis="y", color=LINE, linewidth=0.6)
    axes.set_axisbelow(True)
    return figure, axes


def _whole_numbers(axis) -> None:
    """Dynasty numbers and counts: no ticks at 230.5."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


# A dynasty axis spans at least this many dynasties: one bar alone is a bar, not the whole plot.
FEWEST_DYNASTIES_SHOWN = 10
# Months shown at least, so one month of play is a step, not a point.
FEWEST_MONTHS_SHOWN = 6


def _dynasty_axis(axes, numbers: list[int]) -> None:
    """Dynasty numbers on whole ticks, padded out to ``FEWEST_DYNASTIES_SHOWN`` so a young game's few bars keep
    their width and no tick reads 0.6."""
    low, high = min(numbers), max(numbers)
    spare = max(0, FEWEST_DYNASTIES_SHOWN - (high - low + 1))
    before = min(spare // 2, low - 1) if low > 1 else 0
    axes.set_xlim(low - 0.5 - before, high + 0.5 + (spare - before))
    _whole_numbers(axes.xaxis)


def _month_after(month):
    return _months_from(month, 1)


def _months_from(month, count: int):
    """The first day of the month ``count`` months from ``month`` (earlier when negative)."""
    index = month.year * 12 + month.month - 1 + count
    return month.replace(year=index // 12, month=index % 12 + 1, day=1)


def _month_axis(axes, months: list) -> None:
    """Months as months: a tick per month (or per quarter, year… as they grow), each named once, the year
    beside the axis. ``months`` ends with the month after the last one played."""
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter

    first, end = months[0], months[-1]
    shown = (end.year - first.year) * 12 + end.month - first.month
    if shown < FEWEST_MONTHS_SHOWN:
        first = _months_from(first, shown - FEWEST_MONTHS_SHOWN)  # start earlier: the months played end the axis
    axes.set_xlim(first, end)
    locator = AutoDateLocator(minticks=3, maxticks=8)
    locator.intervald[3] = [1, 3, 6]  # MONTHLY: never a tick every two or four months
    axes.xaxis.set_major_locator(locator)
    axes.xaxis.set_major_formatter(ConciseDateFormatter(locator))


def _empty(axes, message: str) -> None:
    axes.set_xticks([])
    axes.set_yticks([])
    axes.text(0.5, 0.5, message, ha="center", va="center", color=MUTED, transform=axes.transAxes)


def proposals_by_dynasty(stats: Statistics):
    figure, axes = _figure()
    # Proposals from before any dynasty count in the headline; the chart has no bar for them.
    rows = [r for r in stats.proposals_by_dynasty if r.number is not None]
    if not rows:
        _empty(axes, "No proposals in a dynasty yet." if stats.proposals_by_dynasty else "No proposals yet.")
        return figure
    numbers = [r.number for r in rows]
    enacted = [r.enacted for r in rows]
    failed = [r.failed for r in rows]
    pending = [r.pending for r in rows]
    width = 0.85
    axes.bar(numbers, enacted, width, color=FOR, label="Enacted")
    axes.bar(numbers, failed, width, bottom=enacted, color=AGAINST, label="Failed")
    if any(pending):
        axes.bar(
            numbers,
            pending,
            width,
            bottom=[e + f for e, f in zip(enacted, failed, strict=True)],
            color=PENDING,
            label="Pending",
        )
    axes.set_xlabel("Dynasty", color=MUTED)
    axes.set_ylabel("Proposals", color=MUTED)
    _dynasty_axis(axes, numbers)
    _whole_numbers(axes.yaxis)
    # Room above the tallest bar for the legend, which would otherwise sit on it.
    axes.set_ylim(0, max(r.proposals for r in rows) * 1.3)
    axes.legend(frameon=False, fontsize=9, loc="upper left", ncols=3)
    return figure


def active_players(stats: Statistics):
    figure, axes = _figure()
    rows = stats.active_by_month
    if not rows:
        _empty(axes, "Nobody has posted or commented yet.")
        return figure
    # Each month a step to the month's end: the last month's count is held to the start of the next.
    months = [r.month for r in rows] + [_month_after(rows[-1].month)]
    counts = [r.players for r in rows] + [rows[-1].players]
    axes.fill_between(months, counts, step="post", color=ACCENT, alpha=0.15, linewidth=0)
    axes.step(months, counts, where="post", color=ACCENT, linewidth=1.2)
    axes.set_ylim(bottom=0)
    _whole_numbers(axes.yaxis)
    _month_axis(axes, months)
    axes.set_ylabel("Players active in the month", color=MUTED)
    return figure


def resolution_times(stats: Statistics):
    figure, axes = _figure()
    times = stats.resolution_times
    if not times.resolved:
        _empty(axes, "No proposal has been resolved yet.")
        return figure
    starts = [index * times.bin_hours for index in range(len(times.counts))]
    colours = [ACCENT] * (len(starts) - 1) + [MUTED]
    axes.bar(starts, times.counts, width=times.bin_hours * 0.9, align="edge", color=colours)
    last = starts[-1]
    ticks = list(range(0, last, 24)) + [last]
    axes.set_xticks(
        [t + times.bin_hours / 2 if t == last else t for t in ticks],
        [f"≥ {last}" if t == last else str(t) for t in ticks],
    )
    axes.axvline(48, color=INK, linewidth=0.8, linestyle="--")
    share = times.within_two_days / times.resolved
    axes.set_ylim(0, max(times.counts) * 1.15)
    axes.text(
        47, max(times.counts) * 1.13, f"{share:.0%} within 48 hours ", color=INK, fontsize=9, va="top", ha="right"
    )
    axes.set_xlabel("Hours from posting to resolution", color=MUTED)
    axes.set_ylabel("Proposals", color=MUTED)
    _whole_numbers(axes.yaxis)
    return figure


def top_players(stats: Statistics):
    top = stats.top_players(TOP_PLAYERS)
    figure, axes = _figure(height=max(HEIGHT, 0.9 + 0.28 * len(top)))
    if not top:
        _empty(axes, "No proposals yet.")
        return figure
    axes.grid(axis="y", visible=False)
    axes.grid(axis="x", color=LINE, linewidth=0.6)
    names = [p.name for p in reversed(top)]
    enacted = [p.enacted for p in reversed(top)]
    failed = [p.resolved - p.enacted for p in reversed(top)]
    pending = [p.proposals - p.resolved for p in reversed(top)]
    axes.barh(names, enacted, color=FOR, label="Enacted")
    axes.barh(names, failed, left=enacted, color=AGAINST, label="Failed")
    if any(pending):
        axes.barh(
            names, pending, left=[e + f for e, f in zip(enacted, failed, strict=True)], color=PENDING, label="Pending"
        )
    for y, player in enumerate(reversed(top)):
        rate = "–" if player.pass_rate is None else f"{player.pass_rate:.0%}"
        axes.text(player.proposals, y, f"  {rate} passed", va="center", color=MUTED, fontsize=8)
    axes.set_xlim(right=max(p.proposals for p in top) * 1.18)
    axes.set_xlabel("Proposals", color=MUTED)
    _whole_numbers(axes.xaxis)
    axes.legend(frameon=False, fontsize=9, loc="lower right")
    return figure


def dynasty_lengths(stats: Statistics):
    figure, axes = _figure()
    rows = stats.dynasties
    if not rows:
        _empty(axes, "No dynasty yet.")
        return figure
    from matplotlib.patches import Patch

    kinds = {"Won": FOR, "No winner recorded": ACCENT, "Still going": MUTED}
    kind_of = ["Still going" if r.ended_at is None else "Won" if r.winner else "No winner recorded" for r in rows]
    axes.bar([r.number for r in rows], [r.days for r in rows], 0.85, color=[kinds[k] for k in kind_of])
    ended = [r.days for r in rows if r.ended_at is not None]
    if not ended:
        axes.set_ylim(0, max(max(r.days for r in rows), 1) * 1.3)  # room for the legend above the bars
    else:
        # A dynasty still going may have run for years since the last post; scale to the finished ones.
        top = max(ended) * 1.25
        axes.set_ylim(0, top)
        for r in rows:
            if r.ended_at is None and r.days > top:
                # Beside the clipped bar, not on it: the bar is as grey as the text would be.
                axes.text(
                    r.number - 0.5,
                    top * 0.97,
                    f"{r.days:.0f} days so far",
                    ha="right",
                    va="top",
                    color=INK,
                    fontsize=8,
                    bbox={"facecolor": "white", "edgecolor": "none", "pad": 1},
                )
    axes.legend(
        handles=[Patch(color=colour, label=label) for label, colour in kinds.items() if label in kind_of],
        frameon=False,
        fontsize=9,
        loc="upper left",
        ncols=3,
    )
    axes.set_xlabel("Dynasty", color=MUTED)
    axes.set_ylabel("Days", color=MUTED)
    _dynasty_axis(axes, [r.number for r in rows])
    return figure


@dataclass(frozen=True)
class Chart:
    slug: str
    title: str
    draw: Callable[[Statistics], object]
    fixed_height: bool = True

    @property
    def width(self) -> int:
        return round(WIDTH * DPI)

    @property
    def height(self) -> int | None:
        """The image's height in pixels, when it does not depend on the data."""
        return round(HEIGHT * DPI) if self.fixed_height else None


CHARTS = {
    chart.slug: chart
    for chart in (
        Chart("proposals-by-dynasty", "Proposals per dynasty, enacted and failed", proposals_by_dynasty),
        Chart("active-players", "Players active each month", active_players),
        Chart("resolution-times", "Time from posting to resolution", resolution_times),
        Chart("top-players", f"The {TOP_PLAYERS} most prolific proposers", top_players, fixed_height=False),
        Chart("dynasty-lengths", "Dynasty lengths", dynasty_lengths),
    )
}


def render_png(chart: Chart, stats: Statistics) -> bytes:
    """The chart as PNG bytes (no timestamp in the file, so the same data gives the same image)."""
    figure = chart.draw(stats)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
