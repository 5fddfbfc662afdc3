"""The rule clauses that decide when a matter may be enacted or failed, kind by kind and era by era.

Each clause is one bullet of a seed rule: conditions over a tally seen at one age of the matter (`Facts`),
and the reason it gives when it holds. `rules_for` picks the clauses of a kind under a profile; `judge`
in `votes.engine` applies them. Pure, like the tally: no clock, no database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from dynasties.clock import moment_plus
from dynasties.profiles import (
    DOV_GRADED,
    DOV_MAJORITY_OF_PLAYERS,
    DOV_QUORUM_AFTER_WAIT,
    LONG_FAIL_MOST_AGAINST,
    LONG_FAIL_NOT_ENACTABLE,
    LONG_FAIL_NOT_PASSING,
    Profile,
)
from votes.tallying import (
    AGAINST,
    CFJ,
    FOR,
    PROPOSAL,
    Electorate,
    Judgement,
    Matter,
    Tally,
)


@dataclass(frozen=True)
class Facts:
    """A tally seen at one age of the matter, which is all a rule clause looks at."""

    tally: Tally
    age: timedelta
    profile: Profile
    hiatus: bool
    enactable: bool = False

    @property
    def hours_text(self) -> str:
        return _hours_text(self.age)

    def past(self, hours: int, strictly_after: bool = False) -> bool:
        limit = timedelta(hours=hours)
        return self.age > limit if strictly_after else self.age >= limit


Test = Callable[[Facts], bool]
Text = Callable[[Facts], str]


@dataclass(frozen=True)
class Wait:
    """A condition that the matter has been open ``hours``. Where several routes each still wait, only the
    soonest is worth telling: until then nothing else decides, and from then its other conditions do."""

    hours: int
    strictly_after: bool = False

    def __call__(self, facts: Facts) -> bool:
        return facts.past(self.hours, self.strictly_after)


@dataclass(frozen=True)
class Clause:
    """One bullet of a rule: all its conditions must hold; the first that fails explains why not."""

    conditions: tuple[tuple[Test, Text | None], ...]
    reason: Text

    def holds(self, facts: Facts) -> bool:
        return all(test(facts) for test, _ in self.conditions)

    def shortfall(self, facts: Facts) -> str | None:
        for test, explain in self.conditions:
            if not test(facts):
                return explain(facts) if explain else None
        return None

    def waits_for(self, facts: Facts) -> int | None:
        """The hours it waits for, when the first condition that fails is its wait."""
        for test, _ in self.conditions:
            if not test(facts):
                return test.hours if isinstance(test, Wait) else None
        return None


@dataclass(frozen=True)
class Rules:
    enact: tuple[Clause, ...]
    fail: tuple[Clause, ...]
    bars: tuple[Clause, ...] = ()  # any of these forbids enactment


def thresholds(kind: str, profile: Profile, hiatus: bool) -> list[tuple[int, bool]]:
    if kind == PROPOSAL:
        thresholds = [
            (profile.quorum_wait_hours, False),
            (profile.long_vote_hours, profile.long_vote_strictly_after),
        ]
        if profile.stale_after_days is not None:
            thresholds.append((profile.stale_after_days * 24, True))
        return thresholds
    if kind == CFJ:
        return [(_cfj_timeout_hours(profile, hiatus), profile.cfj_hours_strictly_after)]
    if profile.dov_mode == DOV_GRADED and profile.dov_graded_hours:
        return [(hours, False) for hours in profile.dov_graded_hours]
    thresholds = [(profile.dov_wait_hours, False)]
    if profile.dov_wait_hours_if_emperor_voted is not None:
        thresholds.append((profile.dov_wait_hours_if_emperor_voted, False))
    return thresholds


def rules_for(kind: str, profile: Profile) -> Rules:
    if kind == PROPOSAL:
        return _proposal_rules(profile)
    if kind == CFJ:
        return _cfj_rules()
    builders = {
        DOV_MAJORITY_OF_PLAYERS: _dov_rules_majority_of_players,
        DOV_QUORUM_AFTER_WAIT: _dov_rules_quorum_after_wait,
        DOV_GRADED: _dov_rules_graded,
    }
    return builders[profile.dov_mode](profile)


def _hours_text(age: timedelta) -> str:
    return f"{round(age.total_seconds() / 3600, 1):g}"


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


# Shared tests and explanations, each reading one number of the tally.


def _has_quorum_for(facts: Facts) -> bool:
    return facts.tally.for_count >= facts.tally.quorum


def _short_of_quorum(facts: Facts) -> str:
    return f"{facts.tally.for_count} FOR is short of Quorum {facts.tally.quorum}"


def _more_for_than_against(facts: Facts) -> bool:
    return facts.tally.for_count > facts.tally.against_count


def _for_to_against(facts: Facts) -> str:
    return f"{facts.tally.for_count} FOR to {facts.tally.against_count} AGAINST"


def _blocked(facts: Facts) -> bool:
    return facts.tally.not_voting_against < facts.tally.quorum


def _blocked_text(facts: Facts) -> str:
    return (
        f"only {_plural(facts.tally.not_voting_against, 'player')} not voting AGAINST, "
        f"fewer than Quorum {facts.tally.quorum}"
    )


def _not_blocked_text(facts: Facts) -> str:
    return (
        f"{_plural(facts.tally.not_voting_against, 'player')} not voting AGAINST "
        f"still reach Quorum {facts.tally.quorum}"
    )


# --- Proposals ---


_VETOED = Clause(((lambda f: f.tally.vetoed, None),), lambda f: "Vetoed by the Emperor")
_SELF_KILLED = Clause(((lambda f: f.tally.self_killed, None),), lambda f: "Self-killed by its author")


def _proposal_rules(profile: Profile) -> Rules:
    fail = [
        _VETOED,
        _SELF_KILLED,
        Clause(((_blocked, _not_blocked_text),), lambda f: _capitalized(_blocked_text(f))),
    ]
    if profile.fail_when_all_voted:
        fail.append(_all_voted_clause())
    fail.extend(_long_fail_clauses(profile))
    if profile.stale_after_days is not None:
        fail.append(_stale_clause(profile.stale_after_days))
    # A veto fails a proposal in every era; 2005 lets a self-killed proposal be enacted with Quorum FOR.
    bars = (_VETOED, _SELF_KILLED) if profile.self_kill_blocks_enactment else (_VETOED,)
    return Rules(
        enact=(_quorum_enact_clause(profile), _long_enact_clause(profile)),
        fail=tuple(fail),
        bars=bars,
    )


def _quorum_enact_clause(profile: Profile) -> Clause:
    wait = profile.quorum_wait_hours

    def reason(facts: Facts) -> str:
        reached = f"{facts.tally.for_count} FOR reaches Quorum {facts.tally.quorum}"
        return f"{reached} and it has been open {wait} hours" if wait else reached

    return Clause(
        (
            (_has_quorum_for, _short_of_quorum),
            (
                Wait(wait),
                lambda f: f"it has Quorum FOR but has been open {f.hours_text} of {wait} hours",
            ),
        ),
        reason,
    )


def _long_enact_clause(profile: Profile) -> Clause:
    hours, strict = profile.long_vote_hours, profile.long_vote_strictly_after
    needed = f"more than {hours}" if strict else f"{hours}"
    min_valid = profile.long_vote_min_valid
    return Clause(
        (
            (
                Wait(hours, strict),
                lambda f: f"a simple majority needs {needed} hours open (open {f.hours_text} hours)",
            ),
            (
                lambda f: f.tally.valid_count >= min_valid,
                lambda f: f"it has {_plural(f.tally.valid_count, 'valid vote')}, fewer than {min_valid}",
            ),
            (_more_for_than_against, lambda f: f"{_for_to_against(f)} is not a majority FOR"),
        ),
        lambda f: (
            f"Open {f.hours_text} hours with more FOR than AGAINST ({f.tally.for_count} to {f.tally.against_count})"
        ),
    )


def _all_voted_clause() -> Clause:
    def missing_text(facts: Facts) -> str:
        missing = facts.tally.active_count - len(facts.tally.votes)
        return f"{_plural(missing, 'active player')} {'has' if missing == 1 else 'have'} not voted"

    return Clause(
        (
            (lambda f: len(f.tally.votes) >= f.tally.active_count > 0, missing_text),
            (lambda f: not f.enactable, None),
        ),
        lambda f: f"All {f.tally.active_count} active players have voted and it cannot be enacted",
    )


def _long_fail_clauses(profile: Profile) -> list[Clause]:
    hours, strict = profile.long_vote_hours, profile.long_vote_strictly_after
    needed = f"more than {hours}" if strict else f"{hours}"
    open_long = (
        lambda f: f.past(hours, strict),
        lambda f: f"it has been open {f.hours_text} hours, not yet {needed}",
    )
    if profile.long_fail_rule == LONG_FAIL_MOST_AGAINST:
        most_against = (
            lambda f: f.tally.against_count > f.tally.for_count,
            lambda f: f"{_for_to_against(f)} is not a majority AGAINST",
        )
        return [
            Clause(
                (open_long, most_against),
                lambda f: f"Open {f.hours_text} hours with most of its votes AGAINST ({_for_to_against(f)})",
            )
        ]
    if profile.long_fail_rule == LONG_FAIL_NOT_PASSING:
        return [
            Clause(
                (open_long, (lambda f: not _more_for_than_against(f), None)),
                lambda f: f"Open {f.hours_text} hours with half or fewer of its votes FOR ({_for_to_against(f)})",
            ),
            Clause(
                (open_long, (lambda f: f.tally.valid_count < profile.long_vote_min_valid, None)),
                lambda f: f"Open {f.hours_text} hours with fewer than {profile.long_vote_min_valid} valid votes",
            ),
        ]
    if profile.long_fail_rule == LONG_FAIL_NOT_ENACTABLE:
        return [
            Clause(
                (open_long, (lambda f: not f.enactable, None)),
                lambda f: f"Open {f.hours_text} hours and it cannot be enacted",
            )
        ]
    raise ValueError(f"Unknown long_fail_rule {profile.long_fail_rule!r}.")


def _stale_clause(days: int) -> Clause:
    return Clause(
        ((lambda f: f.past(days * 24, strictly_after=True), None),),
        lambda f: f"Pending more than {days} days: it is skipped as the oldest and any admin may fail it",
    )


# --- Calls for Judgement ---


def _cfj_timeout_hours(profile: Profile, hiatus: bool) -> int:
    if hiatus and profile.cfj_hiatus_hours is not None:
        return profile.cfj_hiatus_hours
    return profile.cfj_hours


def _cfj_trigger(facts: Facts) -> str | None:
    """What ends voting on a CfJ, if anything has yet."""
    counted, profile = facts.tally, facts.profile
    if counted.for_count >= counted.quorum:
        return f"{counted.for_count} FOR reaches Quorum {counted.quorum}"
    if profile.cfj_ends_on_quorum_against and counted.against_count >= counted.quorum:
        return f"{counted.against_count} AGAINST reaches Quorum {counted.quorum}"
    timeout = _cfj_timeout_hours(profile, facts.hiatus)
    if facts.past(timeout, profile.cfj_hours_strictly_after):
        during = " during hiatus" if timeout != profile.cfj_hours else ""
        return f"Open {facts.hours_text} hours{during}"
    return None


def _cfj_not_ended(facts: Facts) -> str:
    counted, profile = facts.tally, facts.profile
    ends = [f"Quorum {counted.quorum} FOR"]
    if profile.cfj_ends_on_quorum_against:
        ends.append(f"Quorum {counted.quorum} AGAINST")
    timeout = _cfj_timeout_hours(profile, facts.hiatus)
    more = "more than " if profile.cfj_hours_strictly_after else ""
    ends.append(f"{more}{timeout} hours open")
    standing = f"it has {_for_to_against(facts)}, open {facts.hours_text} hours"
    return f"voting continues until {' or '.join(ends)} ({standing})"


def _cfj_rules() -> Rules:
    ended = (lambda f: _cfj_trigger(f) is not None, _cfj_not_ended)
    return Rules(
        enact=(
            Clause(
                (ended, (_more_for_than_against, lambda f: f"it has {_for_to_against(f)}")),
                lambda f: f"{_cfj_trigger(f)} and more than half of the cast votes are FOR ({_for_to_against(f)})",
            ),
        ),
        fail=(
            Clause(
                (ended, (lambda f: not _more_for_than_against(f), lambda f: f"it has {_for_to_against(f)}")),
                lambda f: f"{_cfj_trigger(f)} and half or fewer of the cast votes are FOR ({_for_to_against(f)})",
            ),
        ),
    )


# --- Declarations of Victory ---


def _dov_rules_majority_of_players(profile: Profile) -> Rules:
    """2005: "If more than half of Families consider the win legal" / "more than half consider it illegal"."""
    return Rules(
        enact=(
            Clause(
                (
                    (
                        lambda f: f.tally.for_count * 2 > f.tally.active_count,
                        lambda f: f"{f.tally.for_count} FOR is not more than half of {f.tally.active_count} players",
                    ),
                ),
                lambda f: (
                    f"{f.tally.for_count} of {f.tally.active_count} players consider the win legal, more than half"
                ),
            ),
        ),
        fail=(
            Clause(
                (
                    (
                        lambda f: f.tally.against_count * 2 > f.tally.active_count,
                        lambda f: (
                            f"{f.tally.against_count} AGAINST is not more than half of {f.tally.active_count} players"
                        ),
                    ),
                ),
                lambda f: (
                    f"{f.tally.against_count} of {f.tally.active_count} players consider the win "
                    "illegal, more than half: the hiatus ends"
                ),
            ),
        ),
    )


def with_emperor_decision(
    judgement: Judgement, matter: Matter, electorate: Electorate, profile: Profile, now: datetime
) -> Judgement:
    """2005: with no clear decision after 24 hours the Emperor may decide the win's legality."""
    if judgement.can_enact or judgement.can_fail or electorate.emperor is None:
        return judgement
    decide_from = max(now, moment_plus(matter.posted_at, timedelta(hours=profile.dov_wait_hours)))
    may_decide = decide_from == now
    reasons = list(judgement.reasons)
    if may_decide:
        reasons.append(
            f"No clear decision after {profile.dov_wait_hours} hours: the Emperor may decide whether the win is legal"
        )
    return replace(judgement, reasons=reasons, emperor_may_decide=may_decide, emperor_may_decide_from=decide_from)


def _dov_resolvable(facts: Facts) -> bool:
    profile = facts.profile
    if facts.tally.emperor_vote in (FOR, AGAINST) and profile.dov_wait_hours_if_emperor_voted is not None:
        return facts.past(profile.dov_wait_hours_if_emperor_voted)
    return facts.past(profile.dov_wait_hours)


def _dov_not_resolvable(facts: Facts) -> str:
    profile = facts.profile
    return (
        f"it may be resolved after {profile.dov_wait_hours} hours, or "
        f"{profile.dov_wait_hours_if_emperor_voted} once the Emperor has voted (open {facts.hours_text})"
    )


def _dov_passes(facts: Facts) -> bool:
    return facts.tally.valid_count >= facts.tally.quorum and _more_for_than_against(facts)


def _dov_outcome_text(facts: Facts) -> str:
    counted = facts.tally
    if counted.valid_count < counted.quorum:
        return f"{_plural(counted.valid_count, 'vote')} do not reach Quorum {counted.quorum}"
    if not _more_for_than_against(facts):
        return f"{counted.for_count} of {_plural(counted.valid_count, 'vote')} FOR is not more than half"
    return f"{_plural(counted.valid_count, 'vote')} reach Quorum {counted.quorum} with {counted.for_count} FOR"


def _dov_rules_quorum_after_wait(profile: Profile) -> Rules:
    """2008: resolvable after 24 hours (12 if the Emperor voted); passes with a Quorum voting, most FOR."""
    resolvable = (_dov_resolvable, _dov_not_resolvable)
    return Rules(
        enact=(
            Clause(
                (resolvable, (_dov_passes, lambda f: f"it would fail: {_dov_outcome_text(f)}")),
                lambda f: f"Open {f.hours_text} hours and it passes: {_dov_outcome_text(f)}, more than half",
            ),
        ),
        fail=(
            Clause(
                (
                    resolvable,
                    (lambda f: not _dov_passes(f), lambda f: f"it would pass: {_dov_outcome_text(f)}"),
                ),
                lambda f: f"Open {f.hours_text} hours and it fails: {_dov_outcome_text(f)}",
            ),
        ),
    )


def _dov_rules_graded(profile: Profile) -> Rules:
    """2016: three routes to enactment at 12, 24 and 48 hours; failure at 12 and 48 hours."""
    early, middle, late = profile.dov_graded_hours or (12, 24, 48)

    def opened(hours: int) -> tuple[Test, Text]:
        return (Wait(hours), lambda f: f"it has been open {f.hours_text} of {hours} hours")

    emperor_for_or_unopposed = (
        lambda f: f.tally.emperor_vote == FOR or f.tally.against_count == 0,
        lambda f: f"the Emperor has not voted FOR and it has {_plural(f.tally.against_count, 'AGAINST vote')}",
    )
    few_against = (
        lambda f: f.tally.against_count < f.tally.quorum // 2,
        lambda f: f"{f.tally.against_count} AGAINST is not fewer than {f.tally.quorum // 2}",
    )
    quorum_voted = (
        lambda f: f.tally.valid_count >= f.tally.quorum,
        lambda f: f"{_plural(f.tally.valid_count, 'vote')} do not reach Quorum {f.tally.quorum}",
    )
    majority_for = (_more_for_than_against, lambda f: f"{_for_to_against(f)} is not more than half FOR")
    return Rules(
        enact=(
            Clause(
                (opened(early), (_has_quorum_for, _short_of_quorum), emperor_for_or_unopposed),
                lambda f: (
                    f"{f.tally.for_count} FOR reaches Quorum {f.tally.quorum}, it has been open "
                    f"{early} hours and "
                    + ("the Emperor voted FOR" if f.tally.emperor_vote == FOR else "it has no AGAINST votes")
                ),
            ),
            Clause(
                (opened(middle), (_has_quorum_for, _short_of_quorum), few_against),
                lambda f: (
                    f"{f.tally.for_count} FOR reaches Quorum {f.tally.quorum}, it has been open "
                    f"{middle} hours and {f.tally.against_count} AGAINST is fewer than {f.tally.quorum // 2}"
                ),
            ),
            Clause(
                (opened(late), quorum_voted, majority_for),
                lambda f: (
                    f"Open {f.hours_text} hours, {f.tally.valid_count} votes reach Quorum {f.tally.quorum} "
                    f"and more than half are FOR ({f.tally.for_count})"
                ),
            ),
        ),
        fail=(
            Clause(
                (opened(early), (_blocked, _not_blocked_text)),
                lambda f: f"Open {f.hours_text} hours and {_blocked_text(f)}",
            ),
            Clause(
                (opened(late), (lambda f: not f.enactable, None)),
                lambda f: f"Open {f.hours_text} hours and it cannot be enacted",
            ),
        ),
    )
