"""BlogNomic's vote-counting rules as pure functions over plain data.

`tally` says whose vote counts as what on a votable matter (a Proposal, a Call for Judgement or a
Declaration of Victory) at a given moment; `judge` says whether an admin may enact or fail it then, why,
and from when if no vote changes; `oldest_pending` applies the rule that only the oldest pending proposal
may be resolved. Every era's differences come from a `dynasties.profiles.Profile`.

Nothing here reads the clock, the database or the settings: the moment `now` is always an argument and
must be a timezone-aware datetime (UTC).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from dynasties.profiles import (
    DEFER_WHILE_EMPEROR_VOTES,
    DOV_GRADED,
    DOV_MAJORITY_OF_PLAYERS,
    DOV_QUORUM_AFTER_WAIT,
    LONG_FAIL_MOST_AGAINST,
    LONG_FAIL_NOT_ENACTABLE,
    LONG_FAIL_NOT_PASSING,
    Profile,
)

VOTABLE_KINDS = ("proposal", "cfj", "dov")
PROPOSAL, CFJ, DOV = VOTABLE_KINDS
ICONS = ("for", "against", "deferential", "veto")
FOR, AGAINST, DEFERENTIAL, VETO = ICONS

# "More than 48 hours" starts one representable instant after the 48th hour.
INSTANT = timedelta(microseconds=1)

UNKNOWN_KIND_MESSAGE = "Unknown votable kind {kind!r}; expected one of proposal, cfj, dov."
NAIVE_TIME_MESSAGE = "`now` must be a timezone-aware datetime."

_TRIVIAL_IN_TITLE = re.compile(r"\btrivial\b", re.IGNORECASE)


@dataclass(frozen=True)
class Ballot:
    """One comment on a votable matter, in the order posted; `icon` is None for a comment without one."""

    author: str
    at: datetime
    icon: str | None
    comment_id: object = None
    trivial: bool = False  # 2005: a FOR vote marked Trivial


@dataclass(frozen=True)
class Matter:
    """A votable matter and every comment on it."""

    id: object
    kind: str
    author: str
    posted_at: datetime
    ballots: tuple[Ballot, ...]
    title: str = ""
    trivial: bool = False


@dataclass(frozen=True)
class Electorate:
    """Who may vote at a moment: the active players (joined, not idle, not gone) and the Emperor."""

    active: frozenset[str]
    emperor: str | None  # None in a Metadynasty
    hiatus: bool = False


@dataclass(frozen=True)
class Tally:
    """The votes on a matter as they stand at one moment.

    `votes` maps each counted player to their effective vote, with DEFERENTIAL already replaced by the
    Emperor's vote where the profile says so; "deferential" is left only for an abstention or a deferral
    still waiting for the Emperor. `effective_ballot` names the comment that carries each vote (an author's
    implicit FOR has no comment and is absent). `valid_count` is FOR plus AGAINST.
    """

    votes: dict[str, str]
    for_count: int
    against_count: int
    valid_count: int
    quorum: int
    active_count: int
    open_hours: float
    self_killed: bool
    vetoed: bool
    effective_ballot: dict[str, object]
    superseded: frozenset[object]
    not_counted: frozenset[object]
    not_voting_against: int
    trivial: bool = False
    emperor_vote: str | None = None


@dataclass(frozen=True)
class Judgement:
    """What an admin may do with a matter at one moment, and from when if no vote changes."""

    tally: Tally
    can_enact: bool
    can_fail: bool
    reasons: list[str]
    enact_from: datetime | None
    fail_from: datetime | None
    # 2005: "If no clear decision is reached after 24 hours, the Duke may optionally step in".
    emperor_may_decide: bool = False
    emperor_may_decide_from: datetime | None = None


def quorum(active_count: int) -> int:
    """Half the active players, rounded down, plus one."""
    return active_count // 2 + 1


def title_declares_trivial(title: str) -> bool:
    """2005: "A Family can state in his Proposal's title that the Proposal is Trivial"."""
    return bool(_TRIVIAL_IN_TITLE.search(title))


def is_stale(posted_at: datetime, *, profile: Profile, now: datetime) -> bool:
    """2016: a proposal "pending for more than 7 days" is skipped as oldest and any admin may fail it."""
    if profile.stale_after_days is None:
        return False
    return now - posted_at > timedelta(days=profile.stale_after_days)


def oldest_pending(
    pending: Sequence[tuple[object, datetime]], *, profile: Profile, now: datetime
) -> object | None:
    """The id of the pending proposal that may be resolved now: the oldest one that is not stale."""
    candidates = [
        (posted_at, position, matter_id)
        for position, (matter_id, posted_at) in enumerate(pending)
        if posted_at <= now and not is_stale(posted_at, profile=profile, now=now)
    ]
    if not candidates:
        return None
    return min(candidates, key=lambda candidate: candidate[:2])[2]


# --- Tally ------------------------------------------------------------------------------------------


def tally(matter: Matter, *, electorate: Electorate, profile: Profile, now: datetime) -> Tally:
    """Count the votes on `matter` as they stand at `now`; comments after `now` are ignored."""
    _check_arguments(matter, now)
    voting = [ballot for ballot in matter.ballots if ballot.at <= now and ballot.icon is not None]
    emperor = electorate.emperor
    not_counted: set[object] = set()
    permitted: dict[str, list[Ballot]] = {}
    for ballot in voting:
        if ballot.author in electorate.active and _icon_permitted(ballot, matter.kind, profile, emperor):
            permitted.setdefault(ballot.author, []).append(ballot)
        else:
            not_counted.add(ballot.comment_id)

    self_killed = _apply_self_kill(matter, voting, permitted, not_counted, profile)
    emperor_vote = _emperor_vote(matter, permitted, electorate, profile)
    votes, chosen, superseded = _resolve_votes(permitted, emperor_vote, profile, not_counted)
    _add_implicit_author_vote(matter, electorate, profile, votes, chosen, not_counted)
    vetoed = _vetoed(matter, voting, emperor, emperor_vote, profile)

    for_count = sum(1 for vote in votes.values() if vote == FOR)
    against_count = sum(1 for vote in votes.values() if vote == AGAINST)
    active_count = len(electorate.active)
    return Tally(
        votes=votes,
        for_count=for_count,
        against_count=against_count,
        valid_count=for_count + against_count,
        quorum=quorum(active_count),
        active_count=active_count,
        open_hours=max(0.0, (now - matter.posted_at).total_seconds() / 3600),
        self_killed=self_killed,
        vetoed=vetoed,
        effective_ballot={player: ballot.comment_id for player, ballot in chosen.items()},
        superseded=frozenset(superseded - not_counted),
        not_counted=frozenset(not_counted),
        not_voting_against=active_count - against_count,
        trivial=_became_trivial(matter, profile, votes, chosen),
        emperor_vote=emperor_vote,
    )


def _check_arguments(matter: Matter, now: datetime) -> None:
    if matter.kind not in VOTABLE_KINDS:
        raise ValueError(UNKNOWN_KIND_MESSAGE.format(kind=matter.kind))
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError(NAIVE_TIME_MESSAGE)


def _icon_permitted(ballot: Ballot, kind: str, profile: Profile, emperor: str | None) -> bool:
    """Whether this icon may be a vote at all, whoever else has voted."""
    if ballot.icon == VETO:
        return ballot.author == emperor and kind in profile.veto_kinds
    if ballot.icon == DEFERENTIAL:
        # "The Duke cannot cast a vote of DEFERENTIAL"; 2016 gives meaning only to others' deferrals.
        return ballot.author != emperor and kind in profile.deferential_kinds
    return ballot.icon in (FOR, AGAINST)


def _apply_self_kill(
    matter: Matter,
    voting: list[Ballot],
    permitted: dict[str, list[Ballot]],
    not_counted: set[object],
    profile: Profile,
) -> bool:
    """Mark a self-kill; in 2005/2008 also lock the author's AGAINST ("that vote may not be changed")."""
    if matter.kind != PROPOSAL:
        return False
    if profile.self_kill_sticky:
        # 2016: "even if the author later changes their Vote"; a DEFERENTIAL is never a self-kill.
        return any(ballot.author == matter.author and ballot.icon == AGAINST for ballot in voting)
    own = permitted.get(matter.author, [])
    for position, ballot in enumerate(own):
        if ballot.icon == AGAINST:
            not_counted.update(later.comment_id for later in own[position + 1 :])
            permitted[matter.author] = own[: position + 1]
            return True
    return False


def _emperor_vote(
    matter: Matter, permitted: dict[str, list[Ballot]], electorate: Electorate, profile: Profile
) -> str | None:
    """The Emperor's own vote (FOR, AGAINST or VETO), or None when there is none to defer to."""
    emperor = electorate.emperor
    if emperor is None or emperor not in electorate.active:
        return None
    own = permitted.get(emperor)
    if own:
        return own[-1].icon
    if emperor == matter.author and matter.kind in profile.implicit_author_for_kinds:
        return FOR
    return None


def _resolve_votes(
    permitted: dict[str, list[Ballot]],
    emperor_vote: str | None,
    profile: Profile,
    not_counted: set[object],
) -> tuple[dict[str, str], dict[str, Ballot], set[object]]:
    """Each player's effective vote and the comment carrying it; the comments it replaced."""
    votes: dict[str, str] = {}
    chosen: dict[str, Ballot] = {}
    superseded: set[object] = set()
    deferral_valid = emperor_vote in (FOR, AGAINST)
    for player, ballots in permitted.items():
        valid = ballots
        if profile.deferential_mode == DEFER_WHILE_EMPEROR_VOTES and not deferral_valid:
            # "the last valid voting icon": a deferral that is not valid yet leaves the last valid vote.
            deferrals = [ballot for ballot in ballots if ballot.icon == DEFERENTIAL]
            valid = [ballot for ballot in ballots if ballot.icon != DEFERENTIAL] or deferrals[-1:]
            not_counted.update(ballot.comment_id for ballot in deferrals if ballot is not valid[-1])
        chosen[player] = valid[-1]
        votes[player] = _read_icon(valid[-1].icon, emperor_vote)
        superseded.update(ballot.comment_id for ballot in valid[:-1])
    return votes, chosen, superseded


def _read_icon(icon: str, emperor_vote: str | None) -> str:
    if icon == DEFERENTIAL and emperor_vote in (FOR, AGAINST):
        return emperor_vote
    return icon


def _add_implicit_author_vote(
    matter: Matter,
    electorate: Electorate,
    profile: Profile,
    votes: dict[str, str],
    chosen: dict[str, Ballot],
    not_counted: set[object],
) -> None:
    """An author who has not voted counts as FOR (2016: who has not used a *valid* icon)."""
    author = matter.author
    if author not in electorate.active or matter.kind not in profile.implicit_author_for_kinds:
        return
    unresolved = votes.get(author) == DEFERENTIAL and profile.deferential_mode == DEFER_WHILE_EMPEROR_VOTES
    if author in votes and not unresolved:
        return
    if unresolved:
        not_counted.add(chosen.pop(author).comment_id)
    votes[author] = FOR


def _vetoed(
    matter: Matter, voting: list[Ballot], emperor: str | None, emperor_vote: str | None, profile: Profile
) -> bool:
    if matter.kind not in profile.veto_kinds or emperor is None:
        return False
    if profile.veto_sticky:
        return any(ballot.author == emperor and ballot.icon == VETO for ballot in voting)
    return emperor_vote == VETO


def _became_trivial(
    matter: Matter, profile: Profile, votes: dict[str, str], chosen: dict[str, Ballot]
) -> bool:
    """2005: declared Trivial in its title, or "most of a Proposal's FOR votes are marked 'Trivial'"."""
    if not profile.trivial_proposals or matter.kind != PROPOSAL:
        return False
    if matter.trivial or title_declares_trivial(matter.title):
        return True
    for_votes = sum(1 for vote in votes.values() if vote == FOR)
    marked = sum(
        1
        for player, ballot in chosen.items()
        if votes[player] == FOR and ballot.icon == FOR and ballot.trivial
    )
    return marked * 2 > for_votes


# --- Judging ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Facts:
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


_Test = Callable[[_Facts], bool]
_Text = Callable[[_Facts], str]


@dataclass(frozen=True)
class _Clause:
    """One bullet of a rule: all its conditions must hold; the first that fails explains why not."""

    conditions: tuple[tuple[_Test, _Text | None], ...]
    reason: _Text

    def holds(self, facts: _Facts) -> bool:
        return all(test(facts) for test, _ in self.conditions)

    def shortfall(self, facts: _Facts) -> str | None:
        for test, explain in self.conditions:
            if not test(facts):
                return explain(facts) if explain else None
        return None


@dataclass(frozen=True)
class _Rules:
    enact: tuple[_Clause, ...]
    fail: tuple[_Clause, ...]
    bars: tuple[_Clause, ...] = ()  # any of these forbids enactment


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
    rules = _rules_for(matter.kind, profile)

    def assess_at(moment: datetime) -> _Assessment:
        age = max(moment - matter.posted_at, timedelta(0))
        return _assess(rules, _Facts(counted, age, profile, electorate.hiatus))

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
        return _with_emperor_decision(judgement, matter, electorate, profile, now)
    return judgement


def _assess(rules: _Rules, facts: _Facts) -> _Assessment:
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


def _why_not(action: str, clauses: tuple[_Clause, ...], facts: _Facts) -> str:
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
    for hours, strictly_after in _thresholds(matter.kind, profile, hiatus):
        moment = matter.posted_at + timedelta(hours=hours) + (INSTANT if strictly_after else timedelta(0))
        if moment > now:
            moments.add(moment)
    return sorted(moments)


def _thresholds(kind: str, profile: Profile, hiatus: bool) -> list[tuple[int, bool]]:
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


def _rules_for(kind: str, profile: Profile) -> _Rules:
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


def _has_quorum_for(facts: _Facts) -> bool:
    return facts.tally.for_count >= facts.tally.quorum


def _short_of_quorum(facts: _Facts) -> str:
    return f"{facts.tally.for_count} FOR is short of Quorum {facts.tally.quorum}"


def _more_for_than_against(facts: _Facts) -> bool:
    return facts.tally.for_count > facts.tally.against_count


def _for_to_against(facts: _Facts) -> str:
    return f"{facts.tally.for_count} FOR to {facts.tally.against_count} AGAINST"


def _blocked(facts: _Facts) -> bool:
    return facts.tally.not_voting_against < facts.tally.quorum


def _blocked_text(facts: _Facts) -> str:
    return (
        f"only {_plural(facts.tally.not_voting_against, 'player')} not voting AGAINST, "
        f"fewer than Quorum {facts.tally.quorum}"
    )


def _not_blocked_text(facts: _Facts) -> str:
    return (
        f"{_plural(facts.tally.not_voting_against, 'player')} not voting AGAINST "
        f"still reach Quorum {facts.tally.quorum}"
    )


# --- Proposals ---


_VETOED = _Clause(((lambda f: f.tally.vetoed, None),), lambda f: "Vetoed by the Emperor")
_SELF_KILLED = _Clause(((lambda f: f.tally.self_killed, None),), lambda f: "Self-killed by its author")


def _proposal_rules(profile: Profile) -> _Rules:
    fail = [
        _VETOED,
        _SELF_KILLED,
        _Clause(((_blocked, _not_blocked_text),), lambda f: _capitalized(_blocked_text(f))),
    ]
    if profile.fail_when_all_voted:
        fail.append(_all_voted_clause())
    fail.extend(_long_fail_clauses(profile))
    if profile.stale_after_days is not None:
        fail.append(_stale_clause(profile.stale_after_days))
    # A veto fails a proposal in every era; 2005 lets a self-killed proposal be enacted with Quorum FOR.
    bars = (_VETOED, _SELF_KILLED) if profile.self_kill_blocks_enactment else (_VETOED,)
    return _Rules(
        enact=(_quorum_enact_clause(profile), _long_enact_clause(profile)),
        fail=tuple(fail),
        bars=bars,
    )


def _quorum_enact_clause(profile: Profile) -> _Clause:
    wait = profile.quorum_wait_hours

    def reason(facts: _Facts) -> str:
        reached = f"{facts.tally.for_count} FOR reaches Quorum {facts.tally.quorum}"
        return f"{reached} and it has been open {wait} hours" if wait else reached

    return _Clause(
        (
            (_has_quorum_for, _short_of_quorum),
            (
                lambda f: f.past(wait),
                lambda f: f"it has Quorum FOR but has been open {f.hours_text} of {wait} hours",
            ),
        ),
        reason,
    )


def _long_enact_clause(profile: Profile) -> _Clause:
    hours, strict = profile.long_vote_hours, profile.long_vote_strictly_after
    needed = f"more than {hours}" if strict else f"{hours}"
    min_valid = profile.long_vote_min_valid
    return _Clause(
        (
            (
                lambda f: f.past(hours, strict),
                lambda f: f"a simple majority needs {needed} hours open (open {f.hours_text} hours)",
            ),
            (
                lambda f: f.tally.valid_count >= min_valid,
                lambda f: f"it has {_plural(f.tally.valid_count, 'valid vote')}, fewer than {min_valid}",
            ),
            (_more_for_than_against, lambda f: f"{_for_to_against(f)} is not a majority FOR"),
        ),
        lambda f: (
            f"Open {f.hours_text} hours with more FOR than AGAINST ({f.tally.for_count} to "
            f"{f.tally.against_count})"
        ),
    )


def _all_voted_clause() -> _Clause:
    def missing_text(facts: _Facts) -> str:
        missing = facts.tally.active_count - len(facts.tally.votes)
        return f"{_plural(missing, 'active player')} {'has' if missing == 1 else 'have'} not voted"

    return _Clause(
        (
            (lambda f: len(f.tally.votes) >= f.tally.active_count > 0, missing_text),
            (lambda f: not f.enactable, None),
        ),
        lambda f: f"All {f.tally.active_count} active players have voted and it cannot be enacted",
    )


def _long_fail_clauses(profile: Profile) -> list[_Clause]:
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
            _Clause(
                (open_long, most_against),
                lambda f: f"Open {f.hours_text} hours with most of its votes AGAINST ({_for_to_against(f)})",
            )
        ]
    if profile.long_fail_rule == LONG_FAIL_NOT_PASSING:
        return [
            _Clause(
                (open_long, (lambda f: not _more_for_than_against(f), None)),
                lambda f: (
                    f"Open {f.hours_text} hours with half or fewer of its votes FOR ({_for_to_against(f)})"
                ),
            ),
            _Clause(
                (open_long, (lambda f: f.tally.valid_count < profile.long_vote_min_valid, None)),
                lambda f: (
                    f"Open {f.hours_text} hours with fewer than {profile.long_vote_min_valid} valid votes"
                ),
            ),
        ]
    if profile.long_fail_rule == LONG_FAIL_NOT_ENACTABLE:
        return [
            _Clause(
                (open_long, (lambda f: not f.enactable, None)),
                lambda f: f"Open {f.hours_text} hours and it cannot be enacted",
            )
        ]
    raise ValueError(f"Unknown long_fail_rule {profile.long_fail_rule!r}.")


def _stale_clause(days: int) -> _Clause:
    return _Clause(
        ((lambda f: f.past(days * 24, strictly_after=True), None),),
        lambda f: f"Pending more than {days} days: it is skipped as the oldest and any admin may fail it",
    )


# --- Calls for Judgement ---


def _cfj_timeout_hours(profile: Profile, hiatus: bool) -> int:
    if hiatus and profile.cfj_hiatus_hours is not None:
        return profile.cfj_hiatus_hours
    return profile.cfj_hours


def _cfj_trigger(facts: _Facts) -> str | None:
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


def _cfj_not_ended(facts: _Facts) -> str:
    counted, profile = facts.tally, facts.profile
    ends = [f"Quorum {counted.quorum} FOR"]
    if profile.cfj_ends_on_quorum_against:
        ends.append(f"Quorum {counted.quorum} AGAINST")
    timeout = _cfj_timeout_hours(profile, facts.hiatus)
    more = "more than " if profile.cfj_hours_strictly_after else ""
    ends.append(f"{more}{timeout} hours open")
    standing = f"it has {_for_to_against(facts)}, open {facts.hours_text} hours"
    return f"voting continues until {' or '.join(ends)} ({standing})"


def _cfj_rules() -> _Rules:
    ended = (lambda f: _cfj_trigger(f) is not None, _cfj_not_ended)
    return _Rules(
        enact=(
            _Clause(
                (ended, (_more_for_than_against, lambda f: f"it has {_for_to_against(f)}")),
                lambda f: (
                    f"{_cfj_trigger(f)} and more than half of the cast votes are FOR ({_for_to_against(f)})"
                ),
            ),
        ),
        fail=(
            _Clause(
                (ended, (lambda f: not _more_for_than_against(f), lambda f: f"it has {_for_to_against(f)}")),
                lambda f: (
                    f"{_cfj_trigger(f)} and half or fewer of the cast votes are FOR ({_for_to_against(f)})"
                ),
            ),
        ),
    )


# --- Declarations of Victory ---


def _dov_rules_majority_of_players(profile: Profile) -> _Rules:
    """2005: "If more than half of Families consider the win legal" / "more than half consider it illegal"."""
    return _Rules(
        enact=(
            _Clause(
                (
                    (
                        lambda f: f.tally.for_count * 2 > f.tally.active_count,
                        lambda f: (
                            f"{f.tally.for_count} FOR is not more than half of {f.tally.active_count} players"
                        ),
                    ),
                ),
                lambda f: (
                    f"{f.tally.for_count} of {f.tally.active_count} players consider the win legal, "
                    "more than half"
                ),
            ),
        ),
        fail=(
            _Clause(
                (
                    (
                        lambda f: f.tally.against_count * 2 > f.tally.active_count,
                        lambda f: (
                            f"{f.tally.against_count} AGAINST is not more than half of "
                            f"{f.tally.active_count} players"
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


def _with_emperor_decision(
    judgement: Judgement, matter: Matter, electorate: Electorate, profile: Profile, now: datetime
) -> Judgement:
    """2005: with no clear decision after 24 hours the Emperor may decide the win's legality."""
    if judgement.can_enact or judgement.can_fail or electorate.emperor is None:
        return judgement
    decide_from = max(now, matter.posted_at + timedelta(hours=profile.dov_wait_hours))
    may_decide = decide_from == now
    reasons = list(judgement.reasons)
    if may_decide:
        reasons.append(
            f"No clear decision after {profile.dov_wait_hours} hours: the Emperor may decide whether the win "
            "is legal"
        )
    return replace(
        judgement, reasons=reasons, emperor_may_decide=may_decide, emperor_may_decide_from=decide_from
    )


def _dov_resolvable(facts: _Facts) -> bool:
    profile = facts.profile
    if facts.tally.emperor_vote in (FOR, AGAINST) and profile.dov_wait_hours_if_emperor_voted is not None:
        return facts.past(profile.dov_wait_hours_if_emperor_voted)
    return facts.past(profile.dov_wait_hours)


def _dov_not_resolvable(facts: _Facts) -> str:
    profile = facts.profile
    return (
        f"it may be resolved after {profile.dov_wait_hours} hours, or "
        f"{profile.dov_wait_hours_if_emperor_voted} once the Emperor has voted (open {facts.hours_text})"
    )


def _dov_passes(facts: _Facts) -> bool:
    return facts.tally.valid_count >= facts.tally.quorum and _more_for_than_against(facts)


def _dov_outcome_text(facts: _Facts) -> str:
    counted = facts.tally
    if counted.valid_count < counted.quorum:
        return f"{_plural(counted.valid_count, 'vote')} do not reach Quorum {counted.quorum}"
    if not _more_for_than_against(facts):
        return f"{counted.for_count} of {_plural(counted.valid_count, 'vote')} FOR is not more than half"
    return (
        f"{_plural(counted.valid_count, 'vote')} reach Quorum {counted.quorum} with {counted.for_count} FOR"
    )


def _dov_rules_quorum_after_wait(profile: Profile) -> _Rules:
    """2008: resolvable after 24 hours (12 if the Emperor voted); passes with a Quorum voting, most FOR."""
    resolvable = (_dov_resolvable, _dov_not_resolvable)
    return _Rules(
        enact=(
            _Clause(
                (resolvable, (_dov_passes, lambda f: f"it would fail: {_dov_outcome_text(f)}")),
                lambda f: f"Open {f.hours_text} hours and it passes: {_dov_outcome_text(f)}, more than half",
            ),
        ),
        fail=(
            _Clause(
                (
                    resolvable,
                    (lambda f: not _dov_passes(f), lambda f: f"it would pass: {_dov_outcome_text(f)}"),
                ),
                lambda f: f"Open {f.hours_text} hours and it fails: {_dov_outcome_text(f)}",
            ),
        ),
    )


def _dov_rules_graded(profile: Profile) -> _Rules:
    """2016: three routes to enactment at 12, 24 and 48 hours; failure at 12 and 48 hours."""
    early, middle, late = profile.dov_graded_hours or (12, 24, 48)

    def opened(hours: int) -> tuple[_Test, _Text]:
        return (lambda f: f.past(hours), lambda f: f"it has been open {f.hours_text} of {hours} hours")

    emperor_for_or_unopposed = (
        lambda f: f.tally.emperor_vote == FOR or f.tally.against_count == 0,
        lambda f: (
            f"the Emperor has not voted FOR and it has {_plural(f.tally.against_count, 'AGAINST vote')}"
        ),
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
    return _Rules(
        enact=(
            _Clause(
                (opened(early), (_has_quorum_for, _short_of_quorum), emperor_for_or_unopposed),
                lambda f: (
                    f"{f.tally.for_count} FOR reaches Quorum {f.tally.quorum}, it has been open "
                    f"{early} hours and "
                    + ("the Emperor voted FOR" if f.tally.emperor_vote == FOR else "it has no AGAINST votes")
                ),
            ),
            _Clause(
                (opened(middle), (_has_quorum_for, _short_of_quorum), few_against),
                lambda f: (
                    f"{f.tally.for_count} FOR reaches Quorum {f.tally.quorum}, it has been open "
                    f"{middle} hours and {f.tally.against_count} AGAINST is fewer than {f.tally.quorum // 2}"
                ),
            ),
            _Clause(
                (opened(late), quorum_voted, majority_for),
                lambda f: (
                    f"Open {f.hours_text} hours, {f.tally.valid_count} votes reach Quorum {f.tally.quorum} "
                    f"and more than half are FOR ({f.tally.for_count})"
                ),
            ),
        ),
        fail=(
            _Clause(
                (opened(early), (_blocked, _not_blocked_text)),
                lambda f: f"Open {f.hours_text} hours and {_blocked_text(f)}",
            ),
            _Clause(
                (opened(late), (lambda f: not f.enactable, None)),
                lambda f: f"Open {f.hours_text} hours and it cannot be enacted",
            ),
        ),
    )
