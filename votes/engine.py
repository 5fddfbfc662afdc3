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

from dynasties.clock import moment_plus
from dynasties.profiles import (
    DOV_MAJORITY_OF_PLAYERS,
    Profile,
)
from votes import matter_kind_rules
from votes.clauses import Clause, Facts, Rules, rules_for, thresholds, with_emperor_decision

# The engine's public face: what callers need besides `judge` is defined with the tally.
from votes.tallying import (
    DOV,
    INSTANT,
    MATTER,
    NAIVE_TIME_MESSAGE,
    PROPOSAL,
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

__all__ = [
    "DOV",
    "INSTANT",
    "MATTER",
    "NAIVE_TIME_MESSAGE",
    "PROPOSAL",
    "UNKNOWN_KIND_MESSAGE",
    "Ballot",
    "Electorate",
    "Judgement",
    "Matter",
    "Tally",
    "is_stale",
    "judge",
    "not_voted",
    "oldest_pending",
    "quorum",
    "tally",
    "title_declares_trivial",
]


@dataclass(frozen=True)
class _Assessment:
    can_enact: bool
    can_fail: bool
    reasons: list[str]


def judge(
    matter: Matter,
    *,
    electorate: Electorate,
    profile: Profile,
    now: datetime,
    kind: matter_kind_rules.KindSpec | None = None,
) -> Judgement:
    """Whether an admin may enact or fail `matter` at `now`, why, and from when if no vote changes.

    This judges the matter's own votes and age; whether it is the oldest pending proposal is for
    `oldest_pending`. A matter of a dynasty's own `kind` is judged by its definition, with `electorate`
    already narrowed by `votes.matter_kind_rules.electorate_for`.
    """
    counted = tally(matter, electorate=electorate, profile=profile, now=now)
    rules = _rules(matter.kind, profile, kind)

    assessed: dict[datetime, _Assessment] = {}

    def assess_at(moment: datetime) -> _Assessment:
        # Finding enact_from and fail_from walks the same moments, `now` first: assess each once.
        if moment not in assessed:
            age = max(moment - matter.posted_at, timedelta(0))
            assessed[moment] = _assess(rules, Facts(counted, age, profile, electorate.hiatus))
        return assessed[moment]

    current = assess_at(now)
    moments = _candidate_moments(matter, profile, electorate.hiatus, now, kind)
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


def _rules(matter_kind: str, profile: Profile, kind: matter_kind_rules.KindSpec | None) -> Rules:
    if kind is not None and kind.resolution == matter_kind_rules.RESOLVE_VERDICT:
        return matter_kind_rules.verdict_rules(matter_kind_rules.verdict_hours(kind))
    # A kind resolved by the core rules follows those of Proposals, with its own electorate and Quorum; so does
    # a matter whose definition is not at hand (imported without it).
    return rules_for(PROPOSAL if kind is not None or matter_kind == MATTER else matter_kind, profile)


def _assess(rules: Rules, facts: Facts) -> _Assessment:
    enact_reasons = [clause.reason(facts) for clause in rules.enact if clause.holds(facts)]
    barred = any(bar.holds(facts) for bar in rules.bars)
    can_enact = bool(enact_reasons) and not barred
    facts = replace(facts, enactable=can_enact)
    fail_reasons = [clause.reason(facts) for clause in rules.fail if clause.holds(facts)]
    reasons = (enact_reasons if can_enact else []) + fail_reasons
    if not can_enact and not fail_reasons:
        not_enacted, not_failed = _shortfalls(rules.enact, facts), _shortfalls(rules.fail, facts)
        if not_enacted == not_failed:
            # One thing decides both (a DoV's first 12 hours, a verdict's wait): said once.
            reasons.append(_why_not("enacted or failed", not_enacted))
        else:
            reasons.append(_why_not("enacted", not_enacted))
            reasons.append(_why_not("failed", not_failed))
    return _Assessment(can_enact=can_enact, can_fail=bool(fail_reasons), reasons=reasons)


def _shortfalls(clauses: tuple[Clause, ...], facts: Facts) -> list[str]:
    """What each route still lacks, each said once; of the routes still waiting for their hours, only the
    soonest ("open 0.1 of 12 hours", not also "of 24" and "of 48")."""
    waits = [hours for clause in clauses if (hours := clause.waits_for(facts)) is not None]
    shortfalls: list[str] = []
    for clause in clauses:
        hours = clause.waits_for(facts)
        if hours is not None and hours > min(waits):
            continue
        shortfall = clause.shortfall(facts)
        if shortfall and shortfall not in shortfalls:
            shortfalls.append(shortfall)
    return shortfalls


def _why_not(action: str, shortfalls: list[str]) -> str:
    if not shortfalls:
        return f"Cannot be {action} yet"
    return f"Cannot be {action} yet: " + "; ".join(shortfalls)


def _candidate_moments(
    matter: Matter, profile: Profile, hiatus: bool, now: datetime, kind: matter_kind_rules.KindSpec | None = None
) -> list[datetime]:
    """`now` and every later moment at which a time threshold of the rules is crossed."""
    moments = {now}
    if kind is not None and kind.resolution == matter_kind_rules.RESOLVE_VERDICT:
        crossings = matter_kind_rules.verdict_thresholds(matter_kind_rules.verdict_hours(kind))
    else:
        crossings = thresholds(PROPOSAL if kind is not None or matter.kind == MATTER else matter.kind, profile, hiatus)
    for hours, strictly_after in crossings:
        moment = moment_plus(matter.posted_at, timedelta(hours=hours) + (INSTANT if strictly_after else timedelta(0)))
        if moment > now:
            moments.add(moment)
    return sorted(moments)
