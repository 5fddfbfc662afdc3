"""Phases of the game's calendar: named stretches of UTC time a dynastic rule may confine things to.

A dynasty may split time into phases (2008's Werewolves had Daytime on even-numbered days of the month and
Nighttime on odd ones). ``phase_at(now, rule)`` says which phase a moment falls in; ``phase_refusal`` is the
hook any kind of action calls to refuse something outside its phase. Declared GNDT actions use it
(``gndt.models.Action.phase``); a kind of votable matter limited to a phase can call it the same way::

    from dynasties.phases import phase_refusal

    problem = phase_refusal(kind.phase, now, what=f"A {kind.name}", done="posted")
    if problem:
        raise PostingError(problem)

Pure: no Django, no clock; the time is passed in and must be timezone-aware.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

DAY_PARITY = "day-parity"
DAYTIME = "Daytime"
NIGHTTIME = "Nighttime"

# Each rule and the phases it divides time into, in the order a day of the rule passes through them.
PHASE_RULES: dict[str, tuple[str, ...]] = {DAY_PARITY: (DAYTIME, NIGHTTIME)}
# Which rule each phase name belongs to, so that "only during the Daytime" needs no more than the phase.
RULE_OF_PHASE: dict[str, str] = {phase: rule for rule, phases in PHASE_RULES.items() for phase in phases}
PHASE_CHOICES = tuple(RULE_OF_PHASE)

OUTSIDE_PHASE = "{what} may only be {done} during the {phase}; it is now the {now_phase}, until {until} UTC."
UNKNOWN_PHASE = "There is no phase “{phase}”; the phases are {phases}."
UNKNOWN_RULE = "There is no phase rule “{rule}”; the rules are {rules}."
NAIVE_TIME = "A moment must carry its time zone."


class PhaseError(ValueError):
    """A phase or phase rule that does not exist, or a moment without a time zone."""


def _utc(now: datetime) -> datetime:
    if now.tzinfo is None or now.utcoffset() is None:
        raise PhaseError(NAIVE_TIME)
    return now.astimezone(UTC)


def phase_at(now: datetime, rule: str = DAY_PARITY) -> str:
    """The phase ``rule`` puts ``now`` in. Under ``day-parity``, an even-numbered day of the month (UTC) is
    Daytime and an odd one Nighttime, from midnight to midnight (so the 31st and the 1st are both Nighttime)."""
    if rule not in PHASE_RULES:
        raise PhaseError(UNKNOWN_RULE.format(rule=rule, rules=", ".join(PHASE_RULES)))
    day = _utc(now).day
    return DAYTIME if day % 2 == 0 else NIGHTTIME


def phase_ends_at(now: datetime, rule: str = DAY_PARITY) -> datetime:
    """When the phase ``now`` is in gives way to another one (the first UTC midnight with another phase)."""
    current = phase_at(now, rule)
    midnight = _utc(now).replace(hour=0, minute=0, second=0, microsecond=0)
    for days in range(1, 4):  # at most two days of one phase in a row, at a month's end
        candidate = midnight + timedelta(days=days)
        if phase_at(candidate, rule) != current:
            return candidate
    raise AssertionError("a phase rule never changes phase")  # pragma: no cover


def phase_refusal(phase: str, now: datetime, *, what: str = "This", done: str = "taken") -> str | None:
    """None when something limited to ``phase`` ("" for no limit) may happen at ``now``; otherwise the
    message to refuse it with ("{what} may only be {done} during …"), naming the phase it is now and when
    that ends."""
    if not phase:
        return None
    if phase not in RULE_OF_PHASE:
        raise PhaseError(UNKNOWN_PHASE.format(phase=phase, phases=", ".join(PHASE_CHOICES)))
    rule = RULE_OF_PHASE[phase]
    current = phase_at(now, rule)
    if current == phase:
        return None
    until = phase_ends_at(now, rule)
    return OUTSIDE_PHASE.format(
        what=what, done=done, phase=phase, now_phase=current, until=f"{until:%a %d %b %Y %H:%M}"
    )
