"""Posting limits per profile: proposal limits (with 2005's Trivial weighting), hiatus, edit and category
locks, and who may make a Declaration of Victory when."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dynasties.clock import INSTANT, day_start, format_moment, next_day_start
from dynasties.hiatus import hiatus_reasons, in_seasonal_downtime
from dynasties.profiles import (
    EDIT_UNTIL_ANY_COMMENT,
    EDIT_UNTIL_NON_NOTE_COMMENT,
    EDIT_UNTIL_OTHERS_COMMENT,
    get_profile,
)
from votes.limits import (
    ALLOWED,
    BECOMES_OFFICIAL_WINDOW,
    CATEGORY_FIXED,
    DAILY_LIMIT,
    DOV_BARRED,
    DOV_NOT_BY_EMPEROR,
    EDIT_INSTEAD,
    EDIT_LOCKED,
    EDIT_ONLY_AUTHOR,
    HIATUS_FORBIDS,
    NEVER_BECOMES_OFFICIAL,
    PENDING_LIMIT,
    TRIVIAL_STILL_ALLOWED,
    UNKNOWN_HIATUS_REASON,
    WEIGHTED_DAILY_LIMIT,
    WEIGHTED_PENDING_LIMIT,
    LimitVerdict,
    OwnProposal,
    PostComment,
    category_change_allowed,
    dov_post_allowed,
    edit_allowed,
    hiatus_post_allowed,
    hiatus_resolve_allowed,
    hiatus_vote_allowed,
    proposal_limit,
    proposal_weight,
)

P2005, P2008, P2016 = get_profile("2005"), get_profile("2008"), get_profile("2016")
NOW = datetime(2016, 7, 25, 15, 0, tzinfo=UTC)
MIDNIGHT = datetime(2016, 7, 25, 0, 0, tzinfo=UTC)
TOMORROW = datetime(2016, 7, 26, 0, 0, tzinfo=UTC)


def pending(count: int, *, trivial: bool = False, days_ago: int = 3) -> list[OwnProposal]:
    return [OwnProposal(posted_at=NOW - timedelta(days=days_ago), pending=True, trivial=trivial)] * count


def resolved_today(count: int, *, trivial: bool = False) -> list[OwnProposal]:
    return [OwnProposal(posted_at=MIDNIGHT + timedelta(hours=1), pending=False, trivial=trivial)] * count


# --- Days ---


def test_a_day_runs_from_midnight_utc() -> None:
    """'a day beginning at and including 00:00:00 UTC, ending when the next day begins'."""
    assert day_start(NOW) == MIDNIGHT
    assert day_start(MIDNIGHT) == MIDNIGHT
    assert next_day_start(TOMORROW - INSTANT) == TOMORROW


def test_moments_are_shown_in_utc() -> None:
    """Messages name times as '00:00 UTC on 26 Jul 2016'."""
    assert format_moment(TOMORROW) == "00:00 UTC on 26 Jul 2016"


# --- Proposal limits, 2008 and 2016 ---


@pytest.mark.parametrize("profile", [P2008, P2016], ids=["2008", "2016"])
def test_two_pending_proposals_block_a_third(profile) -> None:
    """2008/2016 'unless the [player] already has 2 Proposals pending'."""
    verdict = proposal_limit(profile=profile, now=NOW, own=pending(2))
    assert verdict == LimitVerdict(allowed=False, message=PENDING_LIMIT.format(count=2, limit=2))


@pytest.mark.parametrize("profile", [P2008, P2016], ids=["2008", "2016"])
def test_one_pending_proposal_allows_another(profile) -> None:
    """2008/2016 with one Proposal pending a second is allowed."""
    assert proposal_limit(profile=profile, now=NOW, own=pending(1)) == LimitVerdict(allowed=True, message=ALLOWED)


@pytest.mark.parametrize("profile", [P2008, P2016], ids=["2008", "2016"])
def test_three_proposals_today_block_a_fourth_until_midnight(profile) -> None:
    """2008/2016 'or has already made 3 Proposals that day', even if they have all been resolved; the next
    is allowed from 00:00 UTC."""
    verdict = proposal_limit(profile=profile, now=NOW, own=resolved_today(3))
    assert not verdict.allowed
    assert verdict.message == (
        "You already have 3 Proposals posted today (the limit is 3 per day); "
        "your next Proposal is allowed from 00:00 UTC on 26 Jul 2016."
    )
    assert verdict.message == DAILY_LIMIT.format(count=3, limit=3, when=format_moment(TOMORROW))
    assert verdict.next_allowed_at == TOMORROW


def test_proposals_from_yesterday_do_not_count_today() -> None:
    """2016 a day ends at 23:59:59 UTC: three posted just before midnight do not limit the next day."""
    late = [OwnProposal(posted_at=MIDNIGHT - timedelta(seconds=1), pending=False)] * 3
    assert proposal_limit(profile=P2016, now=MIDNIGHT, own=late).allowed


def test_proposal_at_midnight_counts_for_the_new_day() -> None:
    """2016 a day begins 'at and including 00:00:00 UTC'."""
    at_midnight = [OwnProposal(posted_at=MIDNIGHT, pending=False)] * 3
    assert not proposal_limit(profile=P2016, now=NOW, own=at_midnight).allowed


def test_both_limits_reached_gives_both_messages() -> None:
    """2016 with 2 pending posted today and a third resolved, both limits apply; the time of the next
    proposal is unknown because it waits for a resolution."""
    own = [OwnProposal(posted_at=MIDNIGHT + timedelta(hours=h), pending=h < 2) for h in range(3)]
    verdict = proposal_limit(profile=P2016, now=NOW, own=own)
    assert verdict.message == " ".join(
        [
            PENDING_LIMIT.format(count=2, limit=2),
            DAILY_LIMIT.format(count=3, limit=3, when=format_moment(TOMORROW)),
        ]
    )
    assert verdict.next_allowed_at is None


def test_trivial_flag_means_nothing_outside_2005() -> None:
    """2016 has no Trivial proposals: two pending 'trivial' ones still block a third."""
    assert not proposal_limit(profile=P2016, now=NOW, own=pending(2, trivial=True), new_is_trivial=True).allowed


# --- Proposal limits, 2005 weighting ---


def test_trivial_is_worth_half_a_proposal() -> None:
    """2005 'For the purpose of this rule, 1 non-Trivial Proposal is worth 2 Trivial ones.'"""
    assert proposal_weight(profile=P2005, trivial=True) == 1
    assert proposal_weight(profile=P2005, trivial=False) == 2
    assert proposal_weight(profile=P2016, trivial=True) == 1


def test_two_non_trivials_pending_is_the_maximum() -> None:
    """2005 'The legal maximum is, therefore, 2 non-Trivials, 4 Trivials, or 1 non-Trivial and 2 Trivials.'"""
    assert proposal_limit(profile=P2005, now=NOW, own=pending(1)).allowed
    verdict = proposal_limit(profile=P2005, now=NOW, own=pending(2), new_is_trivial=True)
    assert verdict.message == WEIGHTED_PENDING_LIMIT.format(weight=4, new_weight=1, limit=4, full_weight=2)


def test_four_trivials_pending_is_the_maximum() -> None:
    """2005 no proposal may lead to 'more than 4 Trivial Proposals' worth of Proposals pending'."""
    assert proposal_limit(profile=P2005, now=NOW, own=pending(3, trivial=True), new_is_trivial=True).allowed
    assert not proposal_limit(profile=P2005, now=NOW, own=pending(4, trivial=True), new_is_trivial=True).allowed


def test_room_for_a_trivial_but_not_a_full_proposal() -> None:
    """2005 with 1 non-Trivial and 1 Trivial pending (worth 3), a non-Trivial would make 5 but a Trivial
    makes exactly 4: the message says a Trivial one is still allowed."""
    own = pending(1) + pending(1, trivial=True)
    verdict = proposal_limit(profile=P2005, now=NOW, own=own)
    assert not verdict.allowed
    assert verdict.message == " ".join(
        [WEIGHTED_PENDING_LIMIT.format(weight=3, new_weight=2, limit=4, full_weight=2), TRIVIAL_STILL_ALLOWED]
    )
    assert proposal_limit(profile=P2005, now=NOW, own=own, new_is_trivial=True).allowed


def test_six_trivials_worth_per_day() -> None:
    """2005 'no Family may post more than the worth of 6 Trivial Proposals in the same day': three
    non-Trivials posted today leave no room until midnight."""
    verdict = proposal_limit(profile=P2005, now=NOW, own=resolved_today(3), new_is_trivial=True)
    assert verdict.message == WEIGHTED_DAILY_LIMIT.format(weight=6, new_weight=1, limit=6, when=format_moment(TOMORROW))
    assert verdict.next_allowed_at == TOMORROW


def test_five_worth_today_leaves_room_for_one_trivial() -> None:
    """2005 after 2 non-Trivials and 1 Trivial today (worth 5) only a Trivial fits under 6."""
    own = resolved_today(2) + resolved_today(1, trivial=True)
    assert proposal_limit(profile=P2005, now=NOW, own=own, new_is_trivial=True).allowed
    verdict = proposal_limit(profile=P2005, now=NOW, own=own)
    assert not verdict.allowed
    assert verdict.message.endswith(TRIVIAL_STILL_ALLOWED)


# --- Hiatus ---


def test_2005_dov_hiatus_allows_no_other_game_actions() -> None:
    """2005 'BlogNomic immediately goes into Hiatus, during which no other game actions (including other
    victory claims) may be taken': only the Ascension Address and non-official posts."""
    for kind in ("proposal", "cfj", "dov"):
        assert not hiatus_post_allowed(kind=kind, profile=P2005, hiatus_reason="dov").allowed
    assert hiatus_post_allowed(kind="ascension", profile=P2005, hiatus_reason="dov").allowed
    assert hiatus_post_allowed(kind="story", profile=P2005, hiatus_reason="dov").allowed
    assert not hiatus_vote_allowed(kind="proposal", profile=P2005, hiatus_reason="dov").allowed
    assert hiatus_vote_allowed(kind="dov", profile=P2005, hiatus_reason="dov").allowed


def test_hiatus_message_names_the_reason_and_the_action() -> None:
    """A refusal says why the game is in hiatus and what is not allowed."""
    verdict = hiatus_post_allowed(kind="proposal", profile=P2016, hiatus_reason="dov")
    assert verdict.message == HIATUS_FORBIDS.format(
        why="a Declaration of Victory is pending", what="posting a Proposal"
    )


def test_2008_hiatus_allows_cfjs_and_dovs_but_not_proposals() -> None:
    """2008 'the only game actions that may be taken are those covered by Rules "Villagers", "Calls for
    Judgment", "Gamestate Tracking" and "Victory and Ascension"': Voting on proposals waits."""
    assert hiatus_post_allowed(kind="cfj", profile=P2008, hiatus_reason="dov").allowed
    assert hiatus_post_allowed(kind="dov", profile=P2008, hiatus_reason="dov").allowed
    assert not hiatus_post_allowed(kind="proposal", profile=P2008, hiatus_reason="dov").allowed
    assert not hiatus_vote_allowed(kind="proposal", profile=P2008, hiatus_reason="dov").allowed
    assert hiatus_resolve_allowed(kind="cfj", profile=P2008, hiatus_reason="dov").allowed


def test_2016_hiatus_allows_voting_but_not_resolving_proposals() -> None:
    """2016 hiatus keeps Rule "Votable Matters" (votes on any matter) but not "Resolution of Proposals"."""
    assert hiatus_vote_allowed(kind="proposal", profile=P2016, hiatus_reason="dov").allowed
    assert not hiatus_resolve_allowed(kind="proposal", profile=P2016, hiatus_reason="dov").allowed
    assert hiatus_resolve_allowed(kind="dov", profile=P2016, hiatus_reason="dov").allowed


def test_2016_no_dov_while_awaiting_ascension() -> None:
    """2016 'A DoV may not be started in the period between an enacted DoV and that DoV's Ascension
    Address.'"""
    assert not hiatus_post_allowed(kind="dov", profile=P2016, hiatus_reason="ascension").allowed
    assert hiatus_post_allowed(kind="ascension", profile=P2016, hiatus_reason="ascension").allowed


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        (datetime(2016, 12, 23, 23, 59, 59, tzinfo=UTC), False),
        (datetime(2016, 12, 24, 0, 0, tzinfo=UTC), True),
        (datetime(2016, 12, 26, 23, 59, 59, tzinfo=UTC), True),
        (datetime(2016, 12, 27, 0, 0, tzinfo=UTC), False),
    ],
)
def test_seasonal_downtime_runs_from_24_to_27_december(moment: datetime, expected: bool) -> None:
    """2016 'Blognomic goes into hiatus every year on December 24th, and remains in hiatus until December
    27th' (from 00:00 UTC on the 24th to 00:00 UTC on the 27th)."""
    assert in_seasonal_downtime(profile=P2016, now=moment) is expected


def test_no_seasonal_downtime_before_2015() -> None:
    """Rulesets 21, 50 and 52 have no Seasonal Downtime."""
    assert not in_seasonal_downtime(profile=P2008, now=datetime(2008, 12, 25, tzinfo=UTC))


def test_seasonal_downtime_allows_only_cfjs() -> None:
    """2016 'no game actions may be taken except those described in the rules entitled "Votable
    Matters," "Gamestate Tracking" and "Call for Judgement"'."""
    assert hiatus_post_allowed(kind="cfj", profile=P2016, hiatus_reason="seasonal").allowed
    assert not hiatus_post_allowed(kind="dov", profile=P2016, hiatus_reason="seasonal").allowed
    assert not hiatus_post_allowed(kind="proposal", profile=P2016, hiatus_reason="seasonal").allowed
    assert hiatus_vote_allowed(kind="proposal", profile=P2016, hiatus_reason="seasonal").allowed


def test_every_hiatus_reason_applies_at_once() -> None:
    """A DoV posted in seasonal downtime: both hiatuses restrict, so a DoV is refused."""
    reasons = hiatus_reasons(
        profile=P2016, now=datetime(2016, 12, 25, tzinfo=UTC), dov_pending=True, awaiting_ascension=False
    )
    assert reasons == frozenset({"dov", "seasonal"})
    assert not hiatus_post_allowed(kind="dov", profile=P2016, hiatus_reason=reasons).allowed
    assert hiatus_post_allowed(kind="cfj", profile=P2016, hiatus_reason=reasons).allowed


def test_no_hiatus_allows_everything() -> None:
    """Outside hiatus nothing is restricted here (the proposal limits still apply)."""
    assert hiatus_post_allowed(kind="proposal", profile=P2005, hiatus_reason=None).allowed


def test_unknown_hiatus_reason_is_an_error() -> None:
    """Hiatus reasons are the profile's keys, not free text."""
    with pytest.raises(ValueError) as raised:
        hiatus_post_allowed(kind="proposal", profile=P2016, hiatus_reason="holiday")
    assert str(raised.value) == UNKNOWN_HIATUS_REASON.format(reason="holiday")


# --- Editing official posts ---


def comment(author: str, minutes: float, text: str = "Nice.", icon: str | None = None, player: bool = True):
    return PostComment(author=author, at=NOW + timedelta(minutes=minutes), text=text, icon=icon, by_player=player)


def can_edit(profile, comments, *, editor: str = "Amy", official: bool = True, minutes: float = 60) -> LimitVerdict:
    return edit_allowed(
        profile=profile,
        post_author="Amy",
        editor=editor,
        official=official,
        comments=comments,
        now=NOW + timedelta(minutes=minutes),
    )


def test_only_the_author_edits() -> None:
    """2008 an official post 'may be altered or removed by its author'."""
    assert can_edit(P2008, [], editor="Ben") == LimitVerdict(allowed=False, message=EDIT_ONLY_AUTHOR)


def test_2005_editable_until_someone_else_comments() -> None:
    """2005 'If nobody else has commented on it, an official post may be altered or removed': the
    author's own comment does not lock it; anyone else's does, spectators included."""
    assert can_edit(P2005, [comment("Amy", 1)]).allowed
    assert can_edit(P2005, [comment("Ben", 1)]).message.startswith(
        EDIT_LOCKED[EDIT_UNTIL_OTHERS_COMMENT].format(who="Ben", did="commented")
    )
    assert not can_edit(P2005, [comment("Spectator", 1, player=False)]).allowed


def test_2008_editable_until_any_villager_comments() -> None:
    """2008 'If no Villager has commented on it': even the author's own comment locks it; a non-player's
    comment does not."""
    assert can_edit(P2008, [comment("Amy", 1)]).message.startswith(
        EDIT_LOCKED[EDIT_UNTIL_ANY_COMMENT].format(who="you", did="commented")
    )
    assert can_edit(P2008, [comment("Spectator", 1, player=False)]).allowed


def test_2016_note_comments_do_not_lock() -> None:
    """2016 'or if the only comments on it begin with "Note:" and contain no voting icons'."""
    assert can_edit(P2016, [comment("Ben", 1, text="Note: typo in the second line")]).allowed
    assert can_edit(P2016, [comment("Ben", 1, text="  Note: leading spaces are fine")]).allowed


def test_2016_note_with_an_icon_or_other_comment_locks() -> None:
    """2016 a "Note:" with a voting icon, or any other comment, locks the post; the prefix is read as
    written ("note:" in lower case is not one)."""
    locked = EDIT_LOCKED[EDIT_UNTIL_NON_NOTE_COMMENT]
    voted = can_edit(P2016, [comment("Ben", 1, text="Note: fine by me", icon="for")]).message
    assert voted.startswith(locked.format(who="Ben", did="voted"))
    assert can_edit(P2016, [comment("Ben", 1, text="Looks good")]).message.startswith(
        locked.format(who="Ben", did="commented")
    )
    assert not can_edit(P2016, [comment("Ben", 1, text="note: lower case")]).allowed


def test_a_locked_post_says_who_locked_it_how_and_what_its_author_can_do_instead() -> None:
    """2016: every comment carried a vote, so the message names the first vote that locked it, not "a comment
    other than a Note", and says what remains possible: a comment, or for a Proposal a corrected one."""
    comments = [comment("Ben", 1, icon="for"), comment("Cat", 2, icon="against")]
    verdict = edit_allowed(
        profile=P2016,
        post_author="Amy",
        editor="Amy",
        official=True,
        comments=comments,
        now=NOW + timedelta(minutes=5),
        kind="proposal",
    )
    assert verdict.message == (
        "This post can no longer be edited: Ben voted on it. An official post may be changed only until a "
        "player, its author included, votes or comments on it; a comment that begins “Note:” and carries no "
        "vote does not count. You can still explain in a comment, or post a corrected Proposal and vote AGAINST "
        "this one."
    )
    own = edit_allowed(
        profile=P2016,
        post_author="Amy",
        editor="Amy",
        official=True,
        comments=[comment("Amy", 1, icon="for")],
        now=NOW + timedelta(minutes=5),
        kind="cfj",
    )
    assert own.message.startswith("This post can no longer be edited: you voted on it")
    assert own.message.endswith(EDIT_INSTEAD[""])


def test_comments_after_now_do_not_lock() -> None:
    """An edit lock is judged at the moment of the edit; a later comment does not lock an earlier edit."""
    assert can_edit(P2008, [comment("Ben", 30)], minutes=10).allowed


def test_non_official_posts_stay_editable() -> None:
    """The edit lock is for official posts only."""
    assert can_edit(P2008, [comment("Ben", 1)], official=False).allowed


# --- Changing categories ---


def move(profile, from_kind: str, to_kind: str, *, minutes: float, comments=(), editor: str = "Amy"):
    return category_change_allowed(
        profile=profile,
        post_author="Amy",
        editor=editor,
        from_kind=from_kind,
        to_kind=to_kind,
        posted_at=NOW,
        comments=list(comments),
        now=NOW + timedelta(minutes=minutes),
    )


def test_2005_non_official_post_never_becomes_official() -> None:
    """2005 'A non-official post may not through editing of the blog be changed into an official post.'"""
    assert move(P2005, "story", "proposal", minutes=1) == LimitVerdict(allowed=False, message=NEVER_BECOMES_OFFICIAL)


def test_2005_official_post_changes_category_while_uncommented() -> None:
    """2005 an official post 'may be altered' while nobody else has commented, its category included."""
    assert move(P2005, "proposal", "story", minutes=600).allowed
    assert not move(P2005, "proposal", "story", minutes=600, comments=[comment("Ben", 1)]).allowed


def test_2008_non_official_post_may_become_official_within_five_minutes() -> None:
    """2008 'Whilst a non-official post has been posted for less than five minutes and has no comments,
    the author may change the categories as they wish.'"""
    assert move(P2008, "story", "proposal", minutes=4.99).allowed
    late = move(P2008, "story", "proposal", minutes=5)
    assert late == LimitVerdict(allowed=False, message=BECOMES_OFFICIAL_WINDOW.format(minutes=5))
    assert not move(P2008, "story", "proposal", minutes=1, comments=[comment("Spectator", 0.5, player=False)]).allowed


def test_2016_official_category_fixed_after_fifteen_minutes() -> None:
    """2016 'official posts can never be changed from one category to another ... if they have been posted
    for more than fifteen minutes': allowed at exactly 15 minutes, not after."""
    assert move(P2016, "proposal", "cfj", minutes=15).allowed
    late = category_change_allowed(
        profile=P2016,
        post_author="Amy",
        editor="Amy",
        from_kind="proposal",
        to_kind="cfj",
        posted_at=NOW,
        comments=[],
        now=NOW + timedelta(minutes=15) + INSTANT,
    )
    assert late == LimitVerdict(allowed=False, message=CATEGORY_FIXED.format(minutes=15))


def test_2016_official_category_also_needs_the_edit_lock_open() -> None:
    """2016 within fifteen minutes a Note keeps the category open; a vote closes it."""
    assert move(P2016, "proposal", "cfj", minutes=10, comments=[comment("Ben", 1, text="Note: wrong category")]).allowed
    assert not move(P2016, "proposal", "cfj", minutes=10, comments=[comment("Ben", 1, icon="for")]).allowed


def test_2016_non_official_post_becomes_official_only_under_fifteen_minutes() -> None:
    """2016 'Whilst a non-official post has been posted for less than fifteen minutes and has no
    comments'."""
    assert move(P2016, "post", "dov", minutes=14.99).allowed
    assert not move(P2016, "post", "dov", minutes=15).allowed


def test_non_official_posts_move_freely_between_non_official_categories() -> None:
    """No rule restricts moving a story post to another non-official category."""
    assert move(P2005, "story", "post", minutes=6000).allowed


def test_only_the_author_changes_categories() -> None:
    """The category exception is for 'the author'."""
    assert move(P2016, "post", "proposal", minutes=1, editor="Ben").message == EDIT_ONLY_AUTHOR


# --- Declarations of Victory ---


def test_emperor_may_not_declare_victory_in_2008_and_2016() -> None:
    """2008/2016 'If a [player] (other than the [Emperor]) believes that they have achieved victory'; 2005
    has no such exception."""
    for profile in (P2008, P2016):
        verdict = dov_post_allowed(profile=profile, author="Ivy", emperor="Ivy", now=NOW)
        assert verdict == LimitVerdict(allowed=False, message=DOV_NOT_BY_EMPEROR)
    assert dov_post_allowed(profile=P2005, author="Ivy", emperor="Ivy", now=NOW).allowed


def test_failed_dov_with_against_bars_another_for_120_hours() -> None:
    """2016 'When a DoV is failed, if it had at least one AGAINST vote, the [player] who posted it cannot
    make another DoV until after 120 hours (5 days) have passed'."""
    failed_at = NOW - timedelta(hours=120)
    verdict = dov_post_allowed(
        profile=P2016, author="Amy", emperor="Ivy", now=NOW, last_failed_dov_with_against_at=failed_at
    )
    assert not verdict.allowed
    assert verdict.message == DOV_BARRED.format(failed=format_moment(failed_at), until=format_moment(NOW))
    assert verdict.next_allowed_at == NOW + INSTANT
    later = dov_post_allowed(
        profile=P2016,
        author="Amy",
        emperor="Ivy",
        now=NOW + INSTANT,
        last_failed_dov_with_against_at=failed_at,
    )
    assert later.allowed


def test_no_120_hour_bar_before_2015() -> None:
    """Rulesets 50 and 52 have no bar after a failed DoV."""
    verdict = dov_post_allowed(profile=P2008, author="Amy", emperor="Ivy", now=NOW, last_failed_dov_with_against_at=NOW)
    assert verdict.allowed


def test_dov_during_hiatus_follows_the_hiatus_rules() -> None:
    """2005 forbids 'other victory claims' during hiatus; 2008 lets another DoV be made ('if it hasn't
    already'); 2016 forbids one between an enacted DoV and its Ascension Address."""
    assert not dov_post_allowed(profile=P2005, author="Amy", emperor="Ivy", now=NOW, hiatus_reason="dov").allowed
    assert dov_post_allowed(profile=P2008, author="Amy", emperor="Ivy", now=NOW, hiatus_reason="dov").allowed
    assert not dov_post_allowed(profile=P2016, author="Amy", emperor="Ivy", now=NOW, hiatus_reason="ascension").allowed
