"""How long ago, or how long open, in words a reader takes in at a glance: hours while they matter to the
rules (the 12-, 48- and 72-hour marks), then days, then years. An imported matter from 2006 reads
"20 years", not "178,997 hours". Pure: the age is passed in, in hours.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

HOURS_SHOWN_UNTIL = 72  # under three days, the hours decide what may be done with a matter
DAYS_SHOWN_UNTIL = 365 * 2  # under two years, days; then years
DAYS_PER_YEAR = 365.2425


def _plural(number: int, word: str) -> str:
    return f"{number} {word}" if number == 1 else f"{number} {word}s"


def age_in_words(hours: float, *, decimals: int = 0, short: bool = False) -> str:
    """``12.4 hours`` (``12h`` short) under three days, ``5 days`` (``5d``) under two years, else ``20 years``
    (``20y``). Days and years are whole ones passed, rounded down; hours keep ``decimals`` places."""
    hours = max(0.0, float(hours))
    if hours < HOURS_SHOWN_UNTIL:
        if short:
            return f"{Decimal(repr(hours)).quantize(Decimal(1), rounding=ROUND_HALF_UP)}h"
        # Rounded half up, as the hours were shown before (Django's ``floatformat``).
        shown = str(Decimal(repr(hours)).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP))
        return f"{shown} hour" if shown == "1" else f"{shown} hours"
    days = int(hours // 24)
    if days < DAYS_SHOWN_UNTIL:
        return f"{days}d" if short else _plural(days, "day")
    years = int(days // DAYS_PER_YEAR)
    return f"{years}y" if short else _plural(years, "year")
