"""BlogNomic's vote-counting rules as pure functions over plain data.

`tally` says whose vote counts as what on a votable matter (a Proposal, a Call for Judgement or a
Declaration of Victory) at a given moment; `judge` says whether an admin may enact or fail it then, why,
and from when if no vote changes; `oldest_pending` applies the rule that only the oldest pending proposal
may be resolved. Every era's differences come from a `dynasties.profiles.Profile`. The tally itself is in
`votes.tallying` and the clauses of each kind's rules in `votes.clauses`; this module puts them together.

Nothing here reads the clock, the database or the settings: the moment `now` is always an argument and
must be a timezone-aware datetime (UTC).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from dynasties.profiles import (
    DOV_MAJORITY_OF_PLAYERS,
    Profile,
)
from votes.clauses import Clause, Facts, Rules, rules_for, thresholds, with_emperor_decision

# The engine's public face: what callers need besides `judge` is defined with the tally.
from votes.tallying import (  # noqa: F401
    DOV,
    INSTANT,
    NAIVE_TIME_MESSAGE,
    UNKNOWN_KIND_MESSAGE,
    Ballot,
    Electorate,
    Judgement,
    Matter,
    Tally,
    is_stale,
    not_voted,
    oldest_pending,
    quorum,
    tally,
    title_declares_trivial,
)


@dataclass(frozen=True)
class _Assessment:
    can_enact: bool
    can_fail: bool
    reasons: list[str]


def judge(matter: Matter, *, electorate: Electorate, profile: Profile, now: datetime) -> Judgement:
    """Whether an admin may enact or fail `matter` at `now`, why, and from when if no vote changes.

    This judges the matter's own votes and age; whether it is the oldest pending proposal is for
    `oldest_pending`.
    """
    counted = tally(matter, electorate=electorate, profile=profile, now=now)
    rules = rules_for(matter.kind, profile)

    def assess_at(moment: datetime) -> _Assessment:
        age = max(moment - matter.posted_at, timedelta(0))
        return _assess(rules, Facts(counted, age, profile, electorate.hiatus))

    current = assess_at(now)
    moments = _candidate_moments(matter, profile, electorate.hiatus, now)
    enact_from = next((moment for moment in moments if assess_at(moment).can_enact), None)
    fail_from = next((moment for moment in moments if assess_at(moment).can_fail), None)
    judgement = Judgement(
        tally=counted,
        can_enact=current.can_enact,
        can_fail=current.can_fail,
        reasons=current.reasons,
        enact_from=enact_from,
        fail_from=fail_from,
    )
    if matter.kind == DOV and profile.dov_mode == DOV_MAJORITY_OF_PLAYERS:
        return with_emperor_decision(judgement, matter, electorate, profile, now)
    return judgement


def _assess(rules: Rules, facts: Facts) -> _Assessment:
    enact_reasons = [clause.reason(facts) for clause in rules.enact if clause.holds(facts)]
    barred = any(bar.holds(facts) for bar in rules.bars)
    can_enact = bool(enact_reasons) and not barred
    facts = replace(facts, enactable=can_enact)
    fail_reasons = [clause.reason(facts) for clause in rules.fail if clause.holds(facts)]
    reasons = (enact_reasons if can_enact else []) + fail_reasons
    if not can_enact and not fail_reasons:
        reasons.append(_why_not("enacted", rules.enact, facts))
        reasons.append(_why_not("failed", rules.fail, facts))
    return _Assessment(can_enact=can_enact, can_fail=bool(fail_reasons), reasons=reasons)


def _why_not(action: str, clauses: tuple[Clause, ...], facts: Facts) -> str:
    shortfalls: list[str] = []
    for clause in clauses:
        shortfall = clause.shortfall(facts)
        if shortfall and shortfall not in shortfalls:
            shortfalls.append(shortfall)
    if not shortfalls:
        return f"Cannot be {action} yet"
    return f"Cannot be {action} yet: " + "; ".join(shortfalls)


def _candidate_moments(matter: Matter, profile: Profile, hiatus: bool, now: datetime) -> list[datetime]:
    """`now` and every later moment at which a time threshold of the rules is crossed."""
    moments = {now}
    for hours, strictly_after in thresholds(matter.kind, profile, hiatus):
        moment = matter.posted_at + timedelta(hours=hours) + (INSTANT if strictly_after else timedelta(0))
        if moment > now:
            moments.add(moment)
    return sorted(moments)
