"""The parameters of BlogNomic's core rules in each era, as rules profiles.

A game runs under one profile. The three built-in ones follow the seed rulesets: "2005" (Ruleset 21),
"2008" (Rulesets 50 and 52) and "2016" (the 2015 ruleset and Ruleset 142). When an enacted proposal
changes the core rules, the game keeps a modified copy (``dataclasses.replace(profile, daily_limit=4)``).

The vote-counting engine (``votes.engine``) and the posting limits (``votes.limits``) read nothing but
these parameters, so each difference between the eras is one named field here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from dynasties.parsing import InputError, parse_whole_number

# How a DEFERENTIAL vote is read.
DEFER_TO_EMPEROR = "emperor_vote"  # 2005/2008: it counts as the Emperor's vote, or abstains without one
DEFER_WHILE_EMPEROR_VOTES = "while_emperor_votes"  # 2016: valid only while the Emperor votes FOR/AGAINST

# When a proposal open long enough may be failed on its votes.
LONG_FAIL_MOST_AGAINST = "most_against"  # 2005: "more than 48 hours old and most of its votes are AGAINST"
LONG_FAIL_NOT_PASSING = "not_passing"  # 2008: "half or fewer of its votes are FOR" or "fewer than 2 valid"
LONG_FAIL_NOT_ENACTABLE = "not_enactable"  # 2016: "open for at least 48 hours and cannot be Enacted"

# How a Declaration of Victory is decided.
DOV_MAJORITY_OF_PLAYERS = "majority_of_players"  # 2005: more than half of all players, or the Emperor decides
DOV_QUORUM_AFTER_WAIT = "quorum_after_wait"  # 2008: after 24 h (12 h if the Emperor voted), Quorum voted
DOV_GRADED = "graded"  # 2016: the three 12/24/48 hour routes

# Who may still edit an official post.
EDIT_UNTIL_OTHERS_COMMENT = "until_others_comment"  # 2005: "If nobody else has commented on it"
EDIT_UNTIL_ANY_COMMENT = "until_any_comment"  # 2008: "If no Villager has commented on it"
EDIT_UNTIL_NON_NOTE_COMMENT = "until_non_note_comment"  # 2016: only "Note:" comments without icons allowed

# Why the game is in hiatus.
HIATUS_DOV = "dov"  # a Declaration of Victory is pending
HIATUS_ASCENSION = "ascension"  # a DoV was enacted and the Ascension Address has not been posted yet
HIATUS_SEASONAL = "seasonal"  # 2016: every year from 24 December

PROPOSAL_ONLY = frozenset({"proposal"})
ALL_VOTABLE = frozenset({"proposal", "cfj", "dov"})

UNKNOWN_PROFILE_MESSAGE = "Unknown rules profile {name!r}; the built-in profiles are {known}."


@dataclass(frozen=True)
class HiatusAllowance:
    """What may still be done while the game is in one kind of hiatus, by kind of post.

    Kinds are those of the archive format: proposal, cfj, dov, ascension (official posts) and story, post
    (never restricted, since they are not game actions).
    """

    post_kinds: frozenset[str]
    vote_kinds: frozenset[str]
    resolve_kinds: frozenset[str]


@dataclass(frozen=True)
class Profile:
    """The parameters of one era's core rules. Hours and days are durations, not calendar days."""

    name: str
    ruleset: str

    # Proposal limits. Weights let 2005 count a Trivial proposal as half a normal one.
    pending_limit: int
    daily_limit: int
    proposal_weight: int
    trivial_weight: int
    trivial_proposals: bool

    # Whose icons count, and how.
    implicit_author_for_kinds: frozenset[str]
    deferential_kinds: frozenset[str]
    deferential_mode: str
    veto_kinds: frozenset[str]
    # True: an AGAINST by the author marks the proposal self-killed for good (2016). False: the author's
    # AGAINST is locked and later icons by the author are ignored (2005/2008 "that vote may not be changed").
    self_kill_sticky: bool
    # True: a VETO stays a veto even if the Emperor votes again (2005 "immediately fails", 2016).
    veto_sticky: bool
    # 2005 only lets an admin fail a proposal its author voted AGAINST; it does not forbid enacting it.
    self_kill_blocks_enactment: bool

    # Resolution of proposals.
    quorum_wait_hours: int
    long_vote_hours: int
    long_vote_strictly_after: bool
    long_vote_min_valid: int
    long_fail_rule: str
    fail_when_all_voted: bool
    stale_after_days: int | None

    # Calls for Judgement.
    cfj_hours: int
    cfj_hours_strictly_after: bool
    cfj_hiatus_hours: int | None
    cfj_ends_on_quorum_against: bool
    cfj_anonymous: bool

    # Declarations of Victory. dov_wait_hours is when the Emperor may decide (2005) or when it may be
    # resolved (2008); the graded routes of 2016 use dov_graded_hours instead.
    dov_mode: str
    dov_wait_hours: int
    dov_wait_hours_if_emperor_voted: int | None
    dov_graded_hours: tuple[int, int, int] | None
    dov_by_emperor: bool
    dov_failed_bar_hours: int | None

    # The Ascension Address. 2005 and 2008: it "may optionally include a proclamation that any number of
    # Dynastic Rules will be repealed", so a rule stays unless named; 2015 on: "any dynastic rules which were
    # not listed to be kept are repealed", so a rule goes unless named.
    ascension_repeals_unlisted: bool

    # Editing official posts and changing their category.
    edit_lock: str
    non_official_category_minutes: int | None
    official_category_fixed_minutes: int | None

    # Hiatus.
    hiatus_dov: HiatusAllowance
    hiatus_ascension: HiatusAllowance
    seasonal_downtime: tuple[tuple[int, int], tuple[int, int]] | None
    hiatus_seasonal: HiatusAllowance | None

    # Actions and idling, for the GNDT and the roster.
    daily_action_spacing_hours: int | None
    weekly_action_spacing_hours: int | None
    idle_after_days: int
    rejoin_bar_days: int | None
    # Ruleset 142: no unidling within four days of going idle in the current dynasty.
    unidle_window_days: int | None = None

    def hiatus_allowance(self, reason: str) -> HiatusAllowance:
        """The allowance for one hiatus reason (HIATUS_DOV, HIATUS_ASCENSION or HIATUS_SEASONAL)."""
        allowances = {
            HIATUS_DOV: self.hiatus_dov,
            HIATUS_ASCENSION: self.hiatus_ascension,
            HIATUS_SEASONAL: self.hiatus_seasonal,
        }
        allowance = allowances.get(reason)
        if allowance is None:
            raise ValueError(f"The {self.name} profile has no hiatus of kind {reason!r}.")
        return allowance


# 2005: "no other game actions (including other victory claims) may be taken" during a DoV's hiatus.
_HIATUS_2005 = HiatusAllowance(
    post_kinds=frozenset({"ascension"}),
    vote_kinds=frozenset({"dov"}),
    resolve_kinds=frozenset({"dov"}),
)

# 2008: only Rules "Villagers", "Calls for Judgment", "Gamestate Tracking" and "Victory and Ascension"
# apply; voting on proposals lives in Rule "Voting", so it waits for the hiatus to end.
_HIATUS_2008 = HiatusAllowance(
    post_kinds=frozenset({"cfj", "dov", "ascension"}),
    vote_kinds=frozenset({"cfj", "dov"}),
    resolve_kinds=frozenset({"cfj", "dov"}),
)

# 2016: Rule "Votable Matters" is listed, so every matter may be voted on; "Resolution of Proposals" and
# "Proposals" are not, so proposals are neither posted nor resolved.
_HIATUS_2016_DOV = HiatusAllowance(
    post_kinds=frozenset({"cfj", "dov", "ascension"}),
    vote_kinds=ALL_VOTABLE,
    resolve_kinds=frozenset({"cfj", "dov"}),
)

# 2016: "A DoV may not be started in the period between an enacted DoV and that DoV's Ascension Address."
_HIATUS_2016_ASCENSION = HiatusAllowance(
    post_kinds=frozenset({"cfj", "ascension"}),
    vote_kinds=ALL_VOTABLE,
    resolve_kinds=frozenset({"cfj", "dov"}),
)

# 2016 Seasonal Downtime lists only "Votable Matters", "Gamestate Tracking" and "Call for Judgement".
_HIATUS_2016_SEASONAL = HiatusAllowance(
    post_kinds=frozenset({"cfj"}),
    vote_kinds=ALL_VOTABLE,
    resolve_kinds=frozenset({"cfj"}),
)

PROFILE_2005 = Profile(
    name="2005",
    ruleset="Ruleset 21",
    pending_limit=4,
    daily_limit=6,
    proposal_weight=2,
    trivial_weight=1,
    trivial_proposals=True,
    implicit_author_for_kinds=PROPOSAL_ONLY,
    deferential_kinds=ALL_VOTABLE,
    deferential_mode=DEFER_TO_EMPEROR,
    veto_kinds=PROPOSAL_ONLY,
    self_kill_sticky=False,
    veto_sticky=True,
    self_kill_blocks_enactment=False,
    quorum_wait_hours=0,
    long_vote_hours=48,
    long_vote_strictly_after=True,
    long_vote_min_valid=0,
    long_fail_rule=LONG_FAIL_MOST_AGAINST,
    fail_when_all_voted=True,
    stale_after_days=None,
    cfj_hours=96,
    cfj_hours_strictly_after=False,
    cfj_hiatus_hours=None,
    cfj_ends_on_quorum_against=False,
    cfj_anonymous=False,
    dov_mode=DOV_MAJORITY_OF_PLAYERS,
    dov_wait_hours=24,
    dov_wait_hours_if_emperor_voted=None,
    dov_graded_hours=None,
    dov_by_emperor=True,
    dov_failed_bar_hours=None,
    ascension_repeals_unlisted=False,
    edit_lock=EDIT_UNTIL_OTHERS_COMMENT,
    non_official_category_minutes=None,
    official_category_fixed_minutes=None,
    hiatus_dov=_HIATUS_2005,
    hiatus_ascension=_HIATUS_2005,
    seasonal_downtime=None,
    hiatus_seasonal=None,
    daily_action_spacing_hours=None,
    weekly_action_spacing_hours=None,
    idle_after_days=7,
    rejoin_bar_days=None,
)

PROFILE_2008 = Profile(
    name="2008",
    ruleset="Rulesets 50 and 52",
    pending_limit=2,
    daily_limit=3,
    proposal_weight=1,
    trivial_weight=1,
    trivial_proposals=False,
    implicit_author_for_kinds=PROPOSAL_ONLY,
    # A DoV is answered "using the FOR and AGAINST icons" only.
    deferential_kinds=frozenset({"proposal", "cfj"}),
    deferential_mode=DEFER_TO_EMPEROR,
    veto_kinds=PROPOSAL_ONLY,
    self_kill_sticky=False,
    veto_sticky=False,
    self_kill_blocks_enactment=True,
    quorum_wait_hours=12,
    long_vote_hours=48,
    long_vote_strictly_after=False,
    long_vote_min_valid=2,
    long_fail_rule=LONG_FAIL_NOT_PASSING,
    fail_when_all_voted=False,
    stale_after_days=None,
    cfj_hours=96,
    cfj_hours_strictly_after=False,
    cfj_hiatus_hours=48,
    cfj_ends_on_quorum_against=True,
    cfj_anonymous=True,
    dov_mode=DOV_QUORUM_AFTER_WAIT,
    dov_wait_hours=24,
    dov_wait_hours_if_emperor_voted=12,
    dov_graded_hours=None,
    dov_by_emperor=False,
    dov_failed_bar_hours=None,
    ascension_repeals_unlisted=False,
    edit_lock=EDIT_UNTIL_ANY_COMMENT,
    non_official_category_minutes=5,
    official_category_fixed_minutes=None,
    hiatus_dov=_HIATUS_2008,
    hiatus_ascension=_HIATUS_2008,
    seasonal_downtime=None,
    hiatus_seasonal=None,
    daily_action_spacing_hours=6,
    weekly_action_spacing_hours=24,
    idle_after_days=7,
    rejoin_bar_days=None,
)

PROFILE_2016 = Profile(
    name="2016",
    ruleset="2015 ruleset and Ruleset 142",
    pending_limit=2,
    daily_limit=3,
    proposal_weight=1,
    trivial_weight=1,
    trivial_proposals=False,
    implicit_author_for_kinds=ALL_VOTABLE,
    deferential_kinds=PROPOSAL_ONLY,
    deferential_mode=DEFER_WHILE_EMPEROR_VOTES,
    veto_kinds=PROPOSAL_ONLY,
    self_kill_sticky=True,
    veto_sticky=True,
    self_kill_blocks_enactment=True,
    quorum_wait_hours=12,
    long_vote_hours=48,
    long_vote_strictly_after=False,
    long_vote_min_valid=2,
    long_fail_rule=LONG_FAIL_NOT_ENACTABLE,
    fail_when_all_voted=False,
    stale_after_days=7,
    cfj_hours=48,
    cfj_hours_strictly_after=True,
    cfj_hiatus_hours=None,
    cfj_ends_on_quorum_against=True,
    cfj_anonymous=False,
    dov_mode=DOV_GRADED,
    dov_wait_hours=12,
    dov_wait_hours_if_emperor_voted=None,
    dov_graded_hours=(12, 24, 48),
    dov_by_emperor=False,
    dov_failed_bar_hours=120,
    ascension_repeals_unlisted=True,
    edit_lock=EDIT_UNTIL_NON_NOTE_COMMENT,
    non_official_category_minutes=15,
    official_category_fixed_minutes=15,
    hiatus_dov=_HIATUS_2016_DOV,
    hiatus_ascension=_HIATUS_2016_ASCENSION,
    seasonal_downtime=((12, 24), (12, 27)),
    hiatus_seasonal=_HIATUS_2016_SEASONAL,
    daily_action_spacing_hours=10,
    weekly_action_spacing_hours=24,
    idle_after_days=7,
    rejoin_bar_days=14,
    unidle_window_days=4,
)

PROFILES: dict[str, Profile] = {profile.name: profile for profile in (PROFILE_2005, PROFILE_2008, PROFILE_2016)}


def get_profile(name: str) -> Profile:
    """The built-in profile called `name`; ValueError for a name that is not one of PROFILES."""
    try:
        return PROFILES[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(PROFILES))
        raise ValueError(UNKNOWN_PROFILE_MESSAGE.format(name=name, known=known)) from None


# Parameters an enacted proposal may change, as (kind, may be "none", what admins see).
ADJUSTABLE: dict[str, tuple[type, bool, str]] = {
    "pending_limit": (int, False, "Most Proposals one player may have pending (weight, under 2005)"),
    "daily_limit": (int, False, "Most Proposals one player may post in a day (weight, under 2005)"),
    "quorum_wait_hours": (int, False, "Hours a Proposal with Quorum FOR must stay open before enactment"),
    "long_vote_hours": (int, False, "Hours after which a Proposal may pass or fail on its majority"),
    "stale_after_days": (int, True, "Days after which a pending Proposal is skipped as stale"),
    "cfj_hours": (int, False, "Hours a Call for Judgement stays open"),
    "dov_wait_hours": (int, False, "Hours before a Declaration of Victory may be resolved"),
    "dov_failed_bar_hours": (int, True, "Hours a failed Declaration bars its author from another"),
    "idle_after_days": (int, False, "Days without a post or comment before an admin may idle a player"),
    "rejoin_bar_days": (int, True, "Days before a player who left may rejoin"),
    "unidle_window_days": (int, True, "Days after going idle before a player may be unidled"),
    "daily_action_spacing_hours": (int, True, "Hours between two daily actions"),
    "weekly_action_spacing_hours": (int, True, "Hours between two weekly actions"),
    "self_kill_sticky": (bool, False, "An author's AGAINST self-kills even if changed later"),
    "veto_sticky": (bool, False, "A VETO stays a veto even if the Emperor votes again"),
    "cfj_anonymous": (bool, False, "Calls for Judgement may be posted anonymously"),
}
UNKNOWN_PARAMETER = "“{parameter}” is not a rule parameter that can be changed here."
BAD_PARAMETER_VALUE = "{parameter} takes {expected}; got “{raw}”."


def parse_parameter(parameter: str, raw: str) -> object:
    """The value an admin typed for ``parameter``, checked: a whole number ≥ 0, yes/no, or "none"."""
    if parameter not in ADJUSTABLE:
        raise ValueError(UNKNOWN_PARAMETER.format(parameter=parameter))
    kind, nullable, _ = ADJUSTABLE[parameter]
    text = (raw or "").strip().lower()
    if nullable and text in ("none", "no limit", ""):
        return None
    if kind is bool:
        if text in ("yes", "true", "1"):
            return True
        if text in ("no", "false", "0"):
            return False
        raise ValueError(BAD_PARAMETER_VALUE.format(parameter=parameter, expected="yes or no", raw=raw))
    try:
        return parse_whole_number(text, maximum=100_000)
    except InputError:
        pass
    expected = "a whole number of 0 or more" + (", or none" if nullable else "")
    raise ValueError(BAD_PARAMETER_VALUE.format(parameter=parameter, expected=expected, raw=raw))


def in_force_at(changes: Iterable[tuple[datetime, str, object]], *, at: datetime | None) -> dict[str, object]:
    """The value each changed parameter had at ``at`` (every change on record when None): ``changes`` are
    (when made, parameter, value), oldest first, so a later change of one parameter wins."""
    return {parameter: value for made, parameter, value in changes if at is None or made <= at}


def with_overrides(profile: Profile, overrides: dict[str, object]) -> Profile:
    """``profile`` with the parameters that enacted proposals changed."""
    # Each value was checked against its parameter's type (``parse_parameter``) before it was recorded.
    known: dict[str, Any] = {name: value for name, value in overrides.items() if name in ADJUSTABLE}
    return replace(profile, **known) if known else profile
