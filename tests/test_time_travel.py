"""``/at/<moment>/``: the whole game as it stood at a past moment: roster and quorum, the matters then pending
with the tallies of the votes cast by then, the Ruleset revision then current and the GNDT as it stood (secret
columns only for those who may see them); bad and future moments refused with a message."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blognomic.flows.roster.services import rule_change_record
from dynasties.models import Game
from dynasties.profiles import PROFILE_2016, PROFILES
from ruleset.models import Page
from ruleset.services import page_create, revision_add
from tests.factories import T0, make_proposal, make_table, vote
from tests.gndt.builders import make_gndt, update
from votes.judging import judge_posts
from votes.models import Post
from votes.posting import post_create
from votes.services import matter_resolve
from votes.state import game_state

pytestmark = pytest.mark.django_db

# For a visitor: the layout's game state now, and for the moment its dynasty (with its ordinal), roster (the
# active players, then the idle ones it names), pending matters, their votes then, the game's profile, the
# Ruleset page, its revision then, the rules' blame (two), the GNDT then (columns, rows, cells, later changes),
# and for the sidebar then the latest comments and the game variables then.
AT_QUERIES = 22
RULESET = "== Core Rules ==\n=== Lanterns ===\nEach Player carries a lantern.\n"


def build_game():
    """Five players; a Ruleset changed after ``t0``; a proposal posted before ``t0`` with two votes by then and
    three after, enacted after; a proposal posted after ``t0``; GNDT values changed after ``t0``."""
    game = make_gndt(T0)
    page = page_create(
        title="Ruleset",
        kind=Page.RULESET,
        slug="ruleset",
        author=None,
        text=RULESET,
        now=T0 - timedelta(days=5),
        check_permission=False,
    )
    revision_add(
        page=page,
        author=game.admin,
        text=RULESET.replace("a lantern", "two lanterns"),
        summary="More light",
        now=T0 + timedelta(hours=2),
    )
    early = make_proposal(game.players[2], at=T0 - timedelta(hours=3), title="Proposal: Brighter Lamps")
    for i, voter in enumerate(game.players[:5]):
        vote(early, voter, "for", at=T0 - timedelta(hours=2) + timedelta(hours=2 * i))
    matter_resolve(post=early, admin=game.admin, action="enact", now=T0 + timedelta(hours=13))
    make_proposal(game.players[3], at=T0 + timedelta(hours=1), title="Proposal: Later Idea")
    update(game, game.admin, {("P03", "Money"): "450", ("P03", "Role"): "Werewolf"}, now=T0 + timedelta(hours=3))
    return game


@pytest.fixture
def game(db):
    return build_game()


def at(client, moment) -> tuple[int, str]:
    """The status and the main column, without the sidebar."""
    response = client.get(f"/at/{moment:%Y-%m-%dT%H:%M:%SZ}/")
    return response.status_code, response.content.decode().split('<aside class="sidebar')[0]


def test_the_game_as_it_stood_shows_roster_pending_tallies_ruleset_and_gndt(client, game, t0):
    """The banner names the moment; the matter pending then shows the votes cast by then (the author's and two
    more: FOR 3), not the two after, and the matter posted later is absent; the Ruleset is the revision then
    current; the GNDT holds its values then."""
    status, html = at(client, t0)
    assert status == 200
    assert "The game as it stood at" in html and "25 Jul 2016 12:00:00 UTC" in html
    assert "Quorum 3" in html and "P05" in html
    assert "Proposal: Brighter Lamps" in html and "FOR 3" in html and "Proposal: Later Idea" not in html
    assert "carries a lantern" in html and "two lanterns" not in html and "Revision <a" in html
    assert 'class="rule-blame"' in html
    assert ">450<" not in html and ">300<" in html
    later = at(client, t0 + timedelta(hours=4))[1]
    assert ">450<" in later and "two lanterns" in later and "Proposal: Later Idea" in later


def test_secret_columns_stay_secret_in_the_past(client, game, t0):
    """The hidden Role column is not shown to a visitor or a player, as on the GNDT itself; an admin sees it."""
    later = t0 + timedelta(hours=4)
    assert "Role" not in at(client, later)[1] and "Werewolf" not in at(client, later)[1]
    client.force_login(game.players[3])
    assert "Werewolf" not in at(client, later)[1]
    client.force_login(game.admin)
    html = at(client, later)[1]
    assert "Role" in html and "Werewolf" in html


@pytest.mark.parametrize(
    "typed", ["yesterday", "2016-13-40T00:00", "２０１６-07-25T12:00", "99999999999999999999", "-1", "0000-01-01T00:00"]
)
def test_a_moment_that_is_not_one_is_refused_with_a_message(client, game, typed):
    response = client.get(f"/at/{typed}/")
    assert response.status_code == 400
    assert "is not a date and time" in response.content.decode() or "is not a moment" in response.content.decode()
    assert 'type="datetime-local"' in response.content.decode(), "the picker is offered again"


def test_a_future_moment_is_refused_clearly(client, game, t0):
    with time_machine.travel(t0 + timedelta(days=1), tick=False):
        response = client.get(f"/at/{t0 + timedelta(days=2):%Y-%m-%dT%H:%MZ}/")
    assert response.status_code == 400 and "has not happened yet" in response.content.decode()


def test_a_moment_before_the_game_began_says_so(client, game, t0):
    status, html = at(client, t0 - timedelta(days=3650))
    assert status == 404 and "The game had not begun" in html


def test_the_time_picker_is_a_plain_form_sent_on_to_the_moment_s_address(client, game):
    assert client.get("/at/").status_code == 200
    response = client.get("/at/", {"at": "2016-07-25T12:00"})
    assert response.status_code == 302 and response["Location"] == "/at/2016-07-25T12:00:00Z/"
    assert client.get("/at/", {"at": "noon"}).status_code == 400
    assert client.get("/at/", {"at": "noon\x00"}).status_code == 400
    assert client.get("/at/2016-07-25T12:00%00/").status_code == 400


def page_queries(client, moment) -> int:
    with CaptureQueriesContext(connection) as context:
        assert at(client, moment)[0] == 200
    return len(context.captured_queries)


def test_the_page_reads_a_fixed_number_of_queries_however_long_the_history(client, game, t0, settings):
    """More revisions, votes, matters and GNDT updates after the moment (or before it) cost no more queries."""
    settings.PAGE_CACHE = False  # the view's own queries, not a page cache hit
    moment = t0 + timedelta(hours=14)
    page_queries(client, moment)
    few = page_queries(client, moment)
    page = Page.objects.get(slug="ruleset")
    for n in range(10):
        revision_add(
            page=page,
            author=game.admin,
            text=RULESET + f"=== Rule {n} ===\nText.\n",
            summary=f"Edit {n}",
            now=t0 + timedelta(hours=13, minutes=n),
        )
        update(game, game.admin, {("P04", "Money"): str(n)}, now=t0 + timedelta(hours=13, minutes=n))
    for n, author in enumerate(game.players[1:4]):
        post = make_proposal(author, at=t0 + timedelta(hours=13, minutes=10 + n), title=f"Proposal: More {n}")
        for voter in game.players[:3]:
            vote(post, voter, "against", at=t0 + timedelta(hours=13, minutes=30 + n))
    assert page_queries(client, moment) == few
    assert few == AT_QUERIES, few


def test_the_wiki_s_and_the_gndt_s_past_views_link_the_whole_game_then(client, game):
    link = 'href="/at/2016-07-25T12:00:00Z/"'
    assert link in client.get("/wiki/ruleset/as-of/", {"at": "2016-07-25T12:00"}).content.decode()
    assert link in client.get("/gndt/", {"at": "2016-07-25T12:00Z"}).content.decode()


def sidebar_of(client, moment) -> str:
    html = client.get(f"/at/{moment:%Y-%m-%dT%H:%M:%SZ}/").content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.split('<aside class="sidebar')[1]))


def test_the_sidebar_beside_the_past_shows_the_game_then_not_today(client, game, t0):
    """Beside the game at a moment, the sidebar says it shows that moment too: the roster and Quorum then,
    the matter pending then (enacted since) and not the one posted later, its age then, the comments made by
    then, and nothing waiting for the reader's vote, which cannot be cast in the past."""
    client.force_login(game.players[4])
    sidebar = sidebar_of(client, t0)
    assert "As it stood at 25 Jul 2016 12:00:00 UTC , like the page beside it." in sidebar
    assert "There were 5 active players. Quorum was 3." in sidebar
    pending = sidebar.split("Pending then")[1].split("The latest comments then")[0]
    assert "Proposal: Brighter Lamps 3h" in pending and "Later Idea" not in pending
    comments = sidebar.split("The latest comments then")[1]
    assert comments.count(" on Proposal: Brighter Lamps") == 2  # the votes at t0 - 2h and t0, not the three after
    assert "Waiting for your vote" not in sidebar
    today = re.sub(r"<[^>]+>", " ", client.get("/").content.decode().split('<aside class="sidebar')[1])
    assert "Later Idea" in today and "Brighter Lamps" not in today.split("Recent comments")[0]


def test_the_pending_ages_of_a_past_state_note_no_moment_to_come(game, t0):
    """A page of the past changes with no time to come: its ages, of then, must not expire it in the cache."""
    from blognomic.flows.time_travel.selectors import game_at, sidebar_state_at
    from votes import horizon

    state = sidebar_state_at(game_at(t0, viewer=game.admin))
    with horizon.collecting() as moments:
        ages = state.pending_ages
    assert [(age.post.title, round(age.hours)) for age in ages] == [("Proposal: Brighter Lamps", 3)]
    assert moments == []


def pending_then(client, moment) -> str:
    """The pending matters as ``/at/<moment>/`` shows them."""
    status, html = at(client, moment)
    assert status == 200
    return html.split('class="game-at-pending"')[1].split("</section>")[0]


def test_a_parameter_changed_after_the_moment_leaves_the_past_as_it_was(client, t0):
    """A Proposal with Quorum FOR six hours after posting could not be enacted yet under the 12-hour wait then
    in force; a Proposal enacted later shortens that wait to 4 hours, and the game at that moment still
    shows it as it stood: the rules then judge it, not today's."""
    players = make_table(5, start=t0)
    lamps = make_proposal(players[2], at=t0, title="Proposal: Paper Lamps")
    for voter in players[3:5]:
        vote(lamps, voter, "for", at=t0 + timedelta(hours=1))
    moment = t0 + timedelta(hours=6)
    before = pending_then(client, moment)
    assert "Proposal: Paper Lamps" in before and "Could not be resolved yet" in before

    matter_resolve(post=lamps, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    quicker = make_proposal(players[3], at=t0 + timedelta(hours=14), title="Proposal: Quicker Lamps")
    for voter in players[2:5:2]:
        vote(quicker, voter, "for", at=t0 + timedelta(hours=15))
    matter_resolve(post=quicker, admin=players[1], action="enact", now=t0 + timedelta(hours=27))
    quicker = Post.objects.get(pk=quicker.pk)
    rule_change_record(
        parameter="quorum_wait_hours", raw_value="4", proposal=quicker, admin=players[1], now=t0 + timedelta(hours=28)
    )
    assert Game.load().rules_profile().quorum_wait_hours == 4

    assert pending_then(client, moment) == before


def test_a_cfj_pending_across_seasonal_downtime_is_judged_as_the_live_page_judged_it(client, monkeypatch):
    """Under a ruleset whose Calls for Judgement close sooner during any hiatus (as 2008's do during a
    Declaration's), a CfJ open 26 hours into seasonal downtime had closed on the live tally box; the game at
    that moment shows the verdict the live page gave then, hiatus counted, not one judged as if no hiatus."""
    monkeypatch.setitem(PROFILES, "2016", replace(PROFILE_2016, cfj_hiatus_hours=24))
    posted = datetime(2016, 12, 23, 10, 0, tzinfo=UTC)
    players = make_table(5, start=posted)
    cfj = post_create(author=players[2], kind="cfj", title="CfJ: Lanterns In Winter", body="Rule them lit.", now=posted)
    vote(cfj, players[3], "for", at=posted + timedelta(hours=2))
    vote(cfj, players[4], "against", at=posted + timedelta(hours=3))
    moment = posted + timedelta(hours=26)

    with time_machine.travel(moment, tick=False):
        state = game_state(moment)
        live = judge_posts(state.pending, state=state, now=moment)[cfj.pk]
    assert state.hiatus is not None and state.hiatus.reasons == {"seasonal"}
    assert live.can_enact or live.can_fail, "the hiatus closed the CfJ on the live page"

    shown = pending_then(client, moment)
    assert "CfJ: Lanterns In Winter" in shown
    expected = "Could be enacted" if live.can_enact else "Could be failed"
    assert expected in shown
