"""``manage.py tally POST_ID [--at TIME] [--json]`` (DESIGN.md, "Tally").

The tally is shown "as it stood at that moment (comments after it ignored; players who joined after it not
counted)". The game is built through the real services: ten players P01…P10 under the 2016 profile, P01 the
Emperor and P02 an admin.
"""

from __future__ import annotations

import io
import json
from datetime import datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blognomic.moving.archive import import_archive
from tests.factories import T0, make_idle, make_player, make_proposal, make_table, vote
from votes.judging import tally_report
from votes.models import Post
from votes.posting import post_create
from votes.selectors import pending_at
from votes.services import matter_reopen, matter_resolve

pytestmark = pytest.mark.django_db

TALLY_KEYS = {
    "post",
    "kind",
    "at",
    "profile",
    "active_players",
    "quorum",
    "open_hours",
    "votes",
    "for",
    "against",
    "self_killed",
    "vetoed",
    "can_enact",
    "can_fail",
    "is_oldest_pending",
    "reasons",
}


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def tally_json(post_id: str, at: datetime | str) -> dict:
    out = io.StringIO()
    call_command("tally", post_id, "--at", at if isinstance(at, str) else stamp(at), "--json", stdout=out)
    text = out.getvalue()
    assert text.count("\n") <= 1, "--json prints one line"
    report = json.loads(text)
    assert isinstance(report, dict)
    return report


def tally_text(post_id: str, at: datetime) -> str:
    out = io.StringIO()
    call_command("tally", post_id, "--at", stamp(at), stdout=out)
    return out.getvalue()


def build_game():
    """An older proposal (pending until it is enacted 34 hours after t0) and the proposal under test.

    On "quorum-failures", posted at t0 by P03 (who counts FOR without voting): P10 votes FOR and then goes
    idle; P04–P07 vote FOR; P02, P08 and P09 vote AGAINST; P02 changes to FOR 33 hours in. P11 joins 35 hours
    in.
    """
    hours = lambda n: T0 + timedelta(hours=n)  # noqa: E731
    players = {user.username: user for user in make_table(10, start=T0)}
    older = make_proposal(players["P04"], at=hours(-1), title="Proposal: Older Business")
    for name in ("P05", "P06", "P07", "P08"):
        vote(older, players[name], "for", at=T0)
    target = make_proposal(players["P03"], at=T0, title="Proposal: Quorum Failures")
    vote(target, players["P10"], "for", at=hours(1))
    make_idle(players["P10"], since=hours(2))
    for name in ("P04", "P05", "P06", "P07"):
        vote(target, players[name], "for", at=hours(2))
    for name in ("P02", "P08", "P09"):
        vote(target, players[name], "against", at=hours(3), text="Not like this.")
    vote(target, players["P02"], "for", at=hours(33), text="Persuaded.")
    matter_resolve(post=older, admin=players["P02"], action="enact", now=hours(34))
    make_player("P11", joined_at=hours(35))
    return {"players": players, "older": older, "target": target, "hours": hours}


@pytest.fixture
def game(db):
    return build_game()


def test_json_prints_one_object_with_the_interface_keys_and_values(game):
    """9 active players, Quorum 5, 5 FOR 3 AGAINST, open 32.5 hours: it may be enacted on its votes."""
    report = tally_json("quorum-failures", game["hours"](32.5))

    assert set(report) == TALLY_KEYS
    assert report == {
        "post": "quorum-failures",
        "kind": "proposal",
        "at": "2016-07-26T20:30:00Z",
        "profile": "2016",
        "active_players": 9,
        "quorum": 5,
        "open_hours": 32.5,
        "votes": {
            "P02": "against",
            "P03": "for",
            "P04": "for",
            "P05": "for",
            "P06": "for",
            "P07": "for",
            "P08": "against",
            "P09": "against",
        },
        "for": 5,
        "against": 3,
        "self_killed": False,
        "vetoed": False,
        "can_enact": True,
        "can_fail": False,
        "is_oldest_pending": False,
        "reasons": report["reasons"],
    }
    assert any("Quorum 5" in reason for reason in report["reasons"])
    assert report["reasons"] == ["5 FOR reaches Quorum 5 and it has been open 12 hours"]


def test_comments_after_the_moment_are_ignored(game):
    """P02's change to FOR 33 hours in is not seen at 32.5 hours, and is seen at 33.5."""
    before = tally_json("quorum-failures", game["hours"](32.5))
    after = tally_json("quorum-failures", game["hours"](33.5))

    assert before["votes"]["P02"] == "against" and (before["for"], before["against"]) == (5, 3)
    assert after["votes"]["P02"] == "for" and (after["for"], after["against"]) == (6, 2)


def test_players_who_joined_after_the_moment_are_not_counted(game):
    """P11, who joined 35 hours in, is not an active player at 32.5 hours but is at 36."""
    assert tally_json("quorum-failures", game["hours"](32.5))["active_players"] == 9
    later = tally_json("quorum-failures", game["hours"](36))
    assert (later["active_players"], later["quorum"]) == (10, 6)


def test_an_idle_players_vote_is_not_counted(game):
    """P10 voted FOR and then went idle: the vote counted while P10 was active, and not after."""
    while_active = tally_json("quorum-failures", game["hours"](1.5))
    assert while_active["votes"]["P10"] == "for"
    assert while_active["active_players"] == 10

    idle = tally_json("quorum-failures", game["hours"](32.5))
    assert "P10" not in idle["votes"]
    assert idle["active_players"] == 9


def test_is_oldest_pending_follows_the_resolution_times(game):
    """An older proposal pending at the moment blocks the queue; from its resolution time on it does not."""
    hours = game["hours"]
    assert tally_json("quorum-failures", hours(32.5))["is_oldest_pending"] is False
    assert tally_json("quorum-failures", hours(33.99))["is_oldest_pending"] is False
    assert tally_json("quorum-failures", hours(34))["is_oldest_pending"] is True
    assert tally_json("quorum-failures", hours(40))["is_oldest_pending"] is True


def test_the_older_proposal_is_the_oldest_pending_until_it_is_resolved(game):
    """The older proposal itself may be resolved before its enactment, and is no longer pending after it."""
    hours = game["hours"]
    assert tally_json("older-business", hours(20))["is_oldest_pending"] is True
    assert tally_json("older-business", hours(35))["is_oldest_pending"] is False
    assert [p.slug for p in pending_at(hours(20))] == ["older-business", "quorum-failures"]
    assert [p.slug for p in pending_at(hours(35))] == ["quorum-failures"]


def test_a_reopened_proposal_is_pending_again_from_its_reopening(game):
    """Reopening the older proposal (a new record; the enactment is kept) queues it again from then on."""
    hours = game["hours"]
    matter_reopen(post=game["older"], admin=game["players"]["P02"], reason="CfJ: miscounted", now=hours(38))

    assert tally_json("quorum-failures", hours(37))["is_oldest_pending"] is True
    assert tally_json("quorum-failures", hours(39))["is_oldest_pending"] is False
    assert [p.slug for p in pending_at(hours(35))] == ["quorum-failures"]
    assert [p.slug for p in pending_at(hours(39))] == ["older-business", "quorum-failures"]


def test_a_call_for_judgement_is_never_held_back_by_the_queue(game):
    """Only proposals queue: a CfJ reports is_oldest_pending true even with older proposals pending."""
    cfj = post_create(
        author=game["players"]["P05"],
        kind="cfj",
        title="Call for Judgement: Votes",
        body="Recount.",
        now=game["hours"](5),
    )
    report = tally_json(cfj.slug, game["hours"](6))
    assert (report["kind"], report["is_oldest_pending"]) == ("cfj", True)
    assert report["votes"] == {"P05": "for"}


def test_human_output_mentions_the_quorum_and_each_voter(game):
    """Without --json the tally is readable text naming the Quorum and every counted voter."""
    text = tally_text("quorum-failures", game["hours"](32.5))

    assert "Proposal: Quorum Failures" in text
    assert "Quorum 5" in text
    for name, icon in [("P02", "AGAINST"), ("P03", "FOR"), ("P04", "FOR"), ("P08", "AGAINST")]:
        assert f"{name}: {icon}" in text
    assert "P10" not in text
    assert "Can enact: yes" in text and "oldest pending: no" in text


def test_without_at_the_tally_is_taken_now(game):
    """With no --at the moment is the current time, so every comment so far counts."""
    out = io.StringIO()
    call_command("tally", "quorum-failures", "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["votes"]["P02"] == "for"
    assert report["active_players"] == 10


# --- Errors ---------------------------------------------------------------------------------------------


def test_an_unknown_post_id_is_an_error(game):
    """A post id that does not exist is reported as such."""
    with pytest.raises(CommandError, match="No post with id 'no-such-post'"):
        tally_json("no-such-post", game["hours"](1))


def test_a_post_that_is_not_votable_is_an_error(game):
    """A story post has no tally."""
    story = post_create(
        author=game["players"]["P03"], kind="story", title="Story: Ahoy", body="Ahoy.", now=game["hours"](1)
    )
    with pytest.raises(CommandError, match="is a Story Post, which is not a votable matter"):
        tally_json(story.slug, game["hours"](2))


@pytest.mark.parametrize("bad_time", ["yesterday", "2016-07-32T00:00:00Z", "26/07/2016 12:00"])
def test_a_malformed_at_is_an_error(game, bad_time):
    """--at must be an ISO 8601 time; the message shows an example."""
    with pytest.raises(CommandError, match=r"is not an ISO 8601 time such as 2016-07-26T12:00:00Z"):
        tally_json("quorum-failures", bad_time)


def test_an_at_without_a_time_zone_is_an_error(game):
    """A time without a zone is ambiguous; the message says to add Z for UTC."""
    with pytest.raises(CommandError, match="has no time zone; add Z for UTC"):
        tally_json("quorum-failures", "2016-07-26T12:00:00")


def test_an_at_before_the_post_is_an_error(game):
    """There is no tally before a matter was posted."""
    expected = r"--at 2016-07-25T11:00:00Z is before 'quorum-failures' was posted \(2016-07-25T12:00:00Z\)"
    with pytest.raises(CommandError, match=expected):
        tally_json("quorum-failures", game["hours"](-1))


# --- Scale (an imported archive on an empty database: tests/test_tally_imported_archive.py) -------------


def test_the_tally_costs_the_same_queries_however_many_matters_were_resolved(game):
    """Past resolved proposals add no queries: the tally reads the queue, not the whole archive."""
    target = Post.objects.select_related("author").get(slug="quorum-failures")
    at = game["hours"](32.5)
    with CaptureQueriesContext(connection) as few:
        tally_report(target, now=at)

    start = game["hours"](-200)
    import_archive(
        {
            "format": "blognomic-archive",
            "version": 1,
            "posts": [
                {
                    "id": f"old_{n}",
                    "kind": "proposal",
                    "title": f"Proposal: Old {n}",
                    "author": "P05",
                    "posted_at": stamp(start + timedelta(hours=n)),
                    "status": "failed",
                    "resolution": {"by": "P02", "at": stamp(start + timedelta(hours=n + 1)), "outcome": "failed"},
                    "comments": [
                        {"author": "P06", "at": stamp(start + timedelta(hours=n, minutes=5)), "icon": "against"}
                    ],
                }
                for n in range(40)
            ],
        }
    )
    with CaptureQueriesContext(connection) as many:
        report = tally_report(target, now=at)

    assert len(many) == len(few)
    assert report["for"] == 5
