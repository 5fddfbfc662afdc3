"""Whose vote counts as what: the tally of a votable matter at a moment, as a pure function over plain data.

`tally` reads a Proposal's, Call for Judgement's or Declaration of Victory's ballots (each player's last
valid icon, DEFERENTIAL following the Emperor where the profile says so, the author's implicit FOR, sticky
self-kills and vetoes); `quorum` and `oldest_pending` are the core rules every judgement starts from.
Every era's differences come from a `dynasties.profiles.Profile`.

Nothing here reads the clock, the database or the settings: `now` is always an argument and must be a
timezone-aware datetime (UTC).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from dynasties.profiles import (
    DEFER_WHILE_EMPEROR_VOTES,
    Profile,
)
from votes.subjects import subject_form

VOTABLE_KINDS = ("proposal", "cfj", "dov")
PROPOSAL, CFJ, DOV = VOTABLE_KINDS
# A matter of a kind the dynasty defined in a category of its own (`votes.matter_kind_rules`): no veto, deferral or
# implicit FOR unless its definition says so.
MATTER = "matter"
ICONS = ("for", "against", "deferential", "veto")
FOR, AGAINST, DEFERENTIAL, VETO = ICONS

# "More than 48 hours" starts one representable instant after the 48th hour.
INSTANT = timedelta(microseconds=1)

UNKNOWN_KIND_MESSAGE = "Unknown votable kind {kind!r}; expected one of proposal, cfj, dov, matter."
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
    anonymous: bool = False  # posted without a name (2008 Calls for Judgement): nothing counted may name its author


@dataclass(frozen=True)
class Electorate:
    """Who may vote at a moment: the active players (joined, not idle, not gone) and the Emperor."""

    active: frozenset[str]
    emperor: str | None  # None in a Metadynasty
    hiatus: bool = False
    # A dynasty's own kind of matter may count Quorum from all active players while fewer may vote, and
    # name who may veto it (`votes.matter_kind_rules.electorate_for`); None keeps the core rules.
    quorum_of: int | None = None
    vetoers: frozenset[str] | None = None
    kind_name: str | None = None  # the dynasty's kind whose electorate this is, for the reasons given


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
    return bool(_TRIVIAL_IN_TITLE.search(subject_form(title)))


def is_stale(posted_at: datetime, *, profile: Profile, now: datetime) -> bool:
    """2016: a proposal "pending for more than 7 days" is skipped as oldest and any admin may fail it."""
    if profile.stale_after_days is None:
        return False
    return now - posted_at > timedelta(days=profile.stale_after_days)


def oldest_pending(pending: Sequence[tuple[object, datetime]], *, profile: Profile, now: datetime) -> object | None:
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
    vetoers = electorate.vetoers
    not_counted: set[object] = set()
    permitted: dict[str, list[Ballot]] = {}
    for ballot in voting:
        # A kind's vetoer may veto without a vote of their own ("If the Mayor is Dead, he is still able to Veto").
        may_act = ballot.author in electorate.active or (
            vetoers is not None and ballot.icon == VETO and ballot.author in vetoers
        )
        if may_act and _icon_permitted(ballot, matter.kind, profile, emperor, vetoers):
            permitted.setdefault(ballot.author, []).append(ballot)
        else:
            not_counted.add(ballot.comment_id)

    self_killed = _apply_self_kill(matter, voting, permitted, not_counted, profile)
    emperor_vote = _emperor_vote(matter, permitted, electorate, profile)
    votes, chosen, superseded = _resolve_votes(permitted, emperor_vote, profile, not_counted)
    _add_implicit_author_vote(matter, electorate, profile, votes, chosen, not_counted)
    if vetoers is None:
        vetoed = _vetoed(matter, voting, emperor, emperor_vote, profile)
    elif profile.veto_sticky:
        vetoed = any(ballot.author in vetoers and ballot.icon == VETO for ballot in voting)
    else:
        vetoed = any(
            permitted.get(name, [None])[-1] is not None and permitted[name][-1].icon == VETO for name in vetoers
        )

    for_count = sum(1 for vote in votes.values() if vote == FOR)
    against_count = sum(1 for vote in votes.values() if vote == AGAINST)
    active_count = len(electorate.active)
    return Tally(
        votes=votes,
        for_count=for_count,
        against_count=against_count,
        valid_count=for_count + against_count,
        quorum=quorum(active_count if electorate.quorum_of is None else electorate.quorum_of),
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
    if matter.kind not in VOTABLE_KINDS and matter.kind != MATTER:
        raise ValueError(UNKNOWN_KIND_MESSAGE.format(kind=matter.kind))
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError(NAIVE_TIME_MESSAGE)


def _icon_permitted(
    ballot: Ballot, kind: str, profile: Profile, emperor: str | None, vetoers: frozenset[str] | None = None
) -> bool:
    """Whether this icon may be a vote at all, whoever else has voted."""
    if ballot.icon == VETO and vetoers is not None:
        return ballot.author in vetoers
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
    if emperor == matter.author and _author_counts_for(matter, profile):
        return FOR
    return None


def _author_counts_for(matter: Matter, profile: Profile) -> bool:
    """Whether an author who has not voted counts as FOR. Not on an anonymous matter: a FOR from its author,
    listed with the votes (and missing from those yet to vote), would say who wrote it."""
    return matter.kind in profile.implicit_author_for_kinds and not matter.anonymous


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
        votes[player] = _read_icon(valid[-1], emperor_vote)
        superseded.update(ballot.comment_id for ballot in valid[:-1])
    return votes, chosen, superseded


def _read_icon(ballot: Ballot, emperor_vote: str | None) -> str:
    """The vote a permitted ballot casts: its icon, or for a deferral the Emperor's FOR or AGAINST."""
    if ballot.icon is None:
        # ``_icon_permitted`` lets no ballot without an icon through.
        raise ValueError(f"the ballot {ballot.comment_id!r} has no icon, so it is no vote")
    if ballot.icon == DEFERENTIAL and emperor_vote in (FOR, AGAINST):
        return emperor_vote
    return ballot.icon


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
    if author not in electorate.active or not _author_counts_for(matter, profile):
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


def _became_trivial(matter: Matter, profile: Profile, votes: dict[str, str], chosen: dict[str, Ballot]) -> bool:
    """2005: declared Trivial in its title, or "most of a Proposal's FOR votes are marked 'Trivial'"."""
    if not profile.trivial_proposals or matter.kind != PROPOSAL:
        return False
    if matter.trivial or title_declares_trivial(matter.title):
        return True
    for_votes = sum(1 for vote in votes.values() if vote == FOR)
    marked = sum(
        1 for player, ballot in chosen.items() if votes[player] == FOR and ballot.icon == FOR and ballot.trivial
    )
    return marked * 2 > for_votes


def not_voted(tally: Tally, *, active: frozenset[str]) -> list[str]:
    """The active players with no counted vote on the matter yet, in name order.

    An author who never voted counts as FOR, and an abstaining DEFERENTIAL is a vote cast, so neither is
    listed; a player whose only icon does not count (a VETO from someone not the Emperor) is.
    """
    return sorted(name for name in active if name not in tally.votes)


# --- Why a comment's icon does or does not decide -----------------------------------------------------

KIND_PLURAL_WORDS = {PROPOSAL: "Proposals", CFJ: "Calls for Judgement", DOV: "Declarations of Victory"}
NOT_ACTIVE = "{author} has no vote here: not an active Player"
NOT_ELIGIBLE = "{author} has no vote here: not among those who may vote on a {kind}"
NOT_A_VETOER = "{author} may not VETO a {kind}"
ONLY_EMPEROR_VETOES = "Only the Emperor may VETO"
ICON_KINDS_ONLY = "{icon} is a valid vote on {kinds} only"
EMPEROR_CANNOT_DEFER = "The Emperor cannot vote DEFERENTIAL"
DEFERRAL_WAITING = "DEFERENTIAL counts only while the Emperor has a valid vote other than VETO"
SELF_KILL_LOCKED = "The author's AGAINST may not be changed"
STILL_COUNTS = "{author}'s {vote} still counts"
AUTHOR_COUNTS_FOR = "the author counts as FOR"


def why_not_counted(ballot: Ballot, *, matter: Matter, electorate: Electorate, profile: Profile, tally: Tally) -> str:
    """Why a comment's voting icon is not a vote, and which vote of its author counts instead."""
    author, icon = ballot.author, ballot.icon
    vetoers = electorate.vetoers
    if icon == VETO and vetoers is not None:
        reason = NOT_A_VETOER.format(author=author, kind=electorate.kind_name or "this matter")
    elif author not in electorate.active and electorate.kind_name:
        reason = NOT_ELIGIBLE.format(author=author, kind=electorate.kind_name)
    elif author not in electorate.active:
        reason = NOT_ACTIVE.format(author=author)
    elif icon == VETO and author != electorate.emperor:
        reason = ONLY_EMPEROR_VETOES
    elif icon == VETO and matter.kind not in profile.veto_kinds:
        reason = ICON_KINDS_ONLY.format(icon="VETO", kinds=_kinds_words(profile.veto_kinds))
    elif icon == DEFERENTIAL and author == electorate.emperor:
        reason = EMPEROR_CANNOT_DEFER
    elif icon == DEFERENTIAL and matter.kind not in profile.deferential_kinds:
        reason = ICON_KINDS_ONLY.format(icon="DEFERENTIAL", kinds=_kinds_words(profile.deferential_kinds))
    elif author == matter.author and matter.kind == PROPOSAL and not profile.self_kill_sticky and tally.self_killed:
        reason = SELF_KILL_LOCKED
    elif icon == DEFERENTIAL:
        reason = DEFERRAL_WAITING
    else:
        return ""
    counted = tally.votes.get(author)
    if counted in (FOR, AGAINST) and tally.effective_ballot.get(author) != ballot.comment_id:
        if tally.effective_ballot.get(author) is None and author == matter.author:
            return f"{reason}; {AUTHOR_COUNTS_FOR}"
        return f"{reason}; " + STILL_COUNTS.format(author=author, vote=counted.upper())
    return reason


def still_decides(
    ballot: Ballot, *, matter: Matter, electorate: Electorate, profile: Profile, tally: Tally, first_of_its_kind: bool
) -> str:
    """For a sticky veto or self-kill that a later vote replaced: what it still decides ("vetoed")."""
    if not first_of_its_kind or matter.kind != PROPOSAL:
        return ""
    vetoers = electorate.vetoers if electorate.vetoers is not None else {electorate.emperor}
    if ballot.icon == VETO and tally.vetoed and profile.veto_sticky and ballot.author in vetoers:
        return "vetoed"
    if ballot.icon == AGAINST and tally.self_killed and profile.self_kill_sticky and ballot.author == matter.author:
        return "self-killed"
    return ""


def _kinds_words(kinds: frozenset[str]) -> str:
    words = [KIND_PLURAL_WORDS[kind] for kind in VOTABLE_KINDS if kind in kinds]
    return " and ".join(words) if words else "no matter"
