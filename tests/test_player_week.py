"""What got in a new player's way over a week of play: each a regression test for one of the fixes."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from tests.factories import PASSWORD, make_proposal, make_spectator, make_table, vote
from votes.models import Post
from votes.posting import post_create
from votes.services import comment_add, matter_resolve

pytestmark = pytest.mark.django_db


def login(client, name: str) -> None:
    assert client.login(username=name, password=PASSWORD)


def cell(html: str, css_class: str) -> str:
    match = re.search(rf'<(?:td|th)[^>]*class="{css_class}"[^>]*>(.*?)</(?:td|th)>', html, re.S)
    assert match, f"no {css_class} in the page"
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def comment_block(html: str, comment_id: int) -> str:
    match = re.search(rf'<div class="comment[^"]*" id="comment-{comment_id}">(.*?)</div>\s*</div>', html, re.S)
    assert match, f"comment {comment_id} is not on the page"
    return match.group(0)


# --- 1. Category pages -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "slug, heading",
    [
        ("calls-for-judgement", "Calls for Judgement"),
        ("declarations-of-victory", "Declarations of Victory"),
        ("ascension-addresses", "Ascension Addresses"),
        ("proposals", "Proposals"),
        ("story-posts", "Story Posts"),
    ],
)
def test_category_pages_use_the_categories_own_plurals(client, t0, slug, heading):
    """Not “Call for Judgements” or “Ascension Addresss”."""
    make_table(3, start=t0)
    html = client.get(f"/category/{slug}/").content.decode()
    assert f"<h1>{heading}</h1>" in html


# --- 2. Tally columns ------------------------------------------------------------------------------------


def test_each_tally_column_counts_the_names_under_it_and_a_deferral_sits_under_its_vote(client, t0):
    """2016: “When the Pirate has a valid Vote other than VETO on a Proposal, then all votes of DEFERENTIAL
    are … the same as the Pirate's Vote”: P03's DEFERENTIAL shows under Against, marked (deferred)."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[1], at=t0)
    vote(proposal, players[2], "deferential", at=t0 + timedelta(hours=1))
    vote(proposal, players[0], "against", at=t0 + timedelta(hours=2))
    vote(proposal, players[3], "against", at=t0 + timedelta(hours=3))
    with time_machine.travel(t0 + timedelta(hours=4), tick=False):
        html = client.get(proposal.get_absolute_url()).content.decode()
    assert cell(html, "voters-against") == "P01, P03 (deferred), P04"
    assert cell(html, "voters-for") == "P02"
    assert "Against (3)" in html and "For (1)" in html
    assert "voters-deferential" not in html  # nobody's deferral is waiting


def test_a_deferral_waiting_for_the_emperor_is_counted_under_deferential_with_its_count(client, t0):
    """2016: a DEFERENTIAL with no Emperor's vote to follow is not yet a valid vote: its own column."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[1], at=t0)
    vote(proposal, players[2], "deferential", at=t0 + timedelta(hours=1))
    with time_machine.travel(t0 + timedelta(hours=4), tick=False):
        html = client.get(proposal.get_absolute_url()).content.decode()
    assert cell(html, "voters-deferential") == "P03"
    assert "Deferential (1)" in html and "For (1)" in html and "Against (0)" in html


# --- 3. Only the icons that count ---------------------------------------------------------------------


def test_deferential_is_not_offered_on_a_cfj_under_2016_and_a_kept_one_says_why(client, t0):
    """2016 gives DEFERENTIAL a meaning on Proposals only; on a CfJ it is offered nowhere, and an old
    DEFERENTIAL comment explains why it does not count and which vote still does."""
    players = make_table(5, start=t0)
    cfj = post_create(author=players[1], kind="cfj", title="Call for Judgement: Oops", body="Fix it.", now=t0)
    vote(cfj, players[2], "against", at=t0 + timedelta(hours=1))
    kept = comment_add(post=cfj, author=players[2], icon="deferential", text="", now=t0 + timedelta(hours=2))
    login(client, "P03")
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        html = client.get(cfj.get_absolute_url()).content.decode()
    assert 'value="for"' in html and 'value="against"' in html
    assert 'value="deferential"' not in html
    block = comment_block(html, kept.pk)
    assert "DEFERENTIAL is a valid vote on Proposals only" in block
    assert "P03&#x27;s AGAINST still counts" in block


def test_the_emperor_is_offered_veto_on_proposals_only(client, t0):
    players = make_table(5, start=t0)
    proposal = make_proposal(players[1], at=t0)
    cfj = post_create(author=players[1], kind="cfj", title="Call for Judgement: Hm", body="Fix it.", now=t0)
    login(client, "P01")
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        on_proposal = client.get(proposal.get_absolute_url()).content.decode()
        on_cfj = client.get(cfj.get_absolute_url()).content.decode()
    assert 'value="veto"' in on_proposal and 'value="deferential"' not in on_proposal
    assert 'value="veto"' not in on_cfj


# --- 4. Sticky vetoes and self-kills ------------------------------------------------------------------


def test_a_veto_changed_later_still_shows_as_what_decides(client, t0):
    """2016: “when the Pirate casts a vote of VETO on a Proposal, this renders the Proposal Vetoed, even if
    the Pirate later changes their Vote”."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[1], at=t0)
    veto = vote(proposal, players[0], "veto", at=t0 + timedelta(hours=1))
    vote(proposal, players[0], "for", at=t0 + timedelta(hours=2))
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        html = client.get(proposal.get_absolute_url()).content.decode()
    block = comment_block(html, veto.pk)
    assert "superseded" not in block
    assert "still decides" in block and "vetoed" in block.lower()


def test_a_self_kill_changed_later_still_shows_as_what_decides(client, t0):
    """2016: an AGAINST on one's own Proposal “renders the Proposal Self-Killed, even if the author later
    changes their Vote”."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[1], at=t0)
    kill = vote(proposal, players[1], "against", at=t0 + timedelta(hours=1))
    vote(proposal, players[1], "for", at=t0 + timedelta(hours=2))
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        html = client.get(proposal.get_absolute_url()).content.decode()
    block = comment_block(html, kill.pk)
    assert "superseded" not in block and "still decides" in block and "self-killed" in block.lower()


# --- 6. Admin panel times to the second ---------------------------------------------------------------


def test_admin_panel_times_agree_with_the_buttons_to_the_second(client, t0):
    """A proposal with one FOR and one AGAINST may be failed once open 48 hours: the panel names that
    second, and the Fail button appears at that second and not before."""
    players = make_table(5, start=t0)
    proposal = make_proposal(players[2], at=t0 + timedelta(seconds=40))
    vote(proposal, players[3], "against", at=t0 + timedelta(hours=1))
    login(client, "P02")
    fail_at = t0 + timedelta(hours=48, seconds=40)
    with time_machine.travel(fail_at - timedelta(seconds=20), tick=False):
        html = client.get(reverse("admin_panel")).content.decode()
    assert "If nothing changes, it could be failed from 27 Jul 2016 12:00:40 UTC." in html
    assert 'value="fail"' not in html
    with time_machine.travel(fail_at, tick=False):
        assert 'value="fail"' in client.get(reverse("admin_panel")).content.decode()


# --- 7. Error pages and the login page for visitors ------------------------------------------------------


@pytest.mark.parametrize("path", ["/admin-panel/", "/roster/", "/gndt/manage/"])
def test_visitors_are_sent_to_log_in_and_players_get_a_styled_403(client, t0, path):
    make_table(3, start=t0)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"/accounts/login/?next={path}"
    login(client, "P03")
    response = client.get(path)
    assert response.status_code == 403
    html = response.content.decode()
    assert 'class="site-header"' in html and "<h1>Not allowed</h1>" in html and "admins" in html


def test_an_unknown_address_gets_a_styled_404(client, t0):
    make_table(3, start=t0)
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'class="site-header"' in html and "<h1>Not found</h1>" in html


def test_a_server_error_gets_a_styled_500_page(client, t0, settings):
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert 'class="site-header"' in html and "went wrong" in html


# --- 8. Non-players are not offered posting ---------------------------------------------------------------


def test_a_non_player_is_not_offered_new_post_and_is_told_how_to_join(client, t0):
    make_table(3, start=t0)
    make_spectator("Sam")
    login(client, "Sam")
    front = client.get("/").content.decode()
    assert ">New post<" not in front
    page = client.get(reverse("new_post")).content.decode()
    assert 'name="title"' not in page
    assert "Only players may post" in page and reverse("join") in page
    login(client, "P03")
    assert ">New post<" in client.get("/").content.decode()


# --- 9. The GNDT refuses a garbage moment -------------------------------------------------------------


def test_gndt_at_garbage_is_refused(client, t0):
    make_table(3, start=t0)
    response = client.get("/gndt/?at=garbage")
    assert response.status_code == 400
    assert "garbage" in response.content.decode()


# --- 10. The Ascension Address renames the GNDT and the gamestate pages too ------------------------------


def test_ascension_renames_reach_gndt_columns_rows_and_gamestate_pages_and_kept_rows_survive(t0):
    """“the two keywords replaced throughout”: the demo's Oil becomes Grain in the new GNDT and on the
    Sightings page, Keepers become Millers there too, and the Storehouse (not a player) is kept."""
    from blognomic.flows.succession.services import AscensionAddress, ascension_address_post
    from blognomic.moving.demo import build_demo
    from dynasties.models import Dynasty, User
    from gndt.models import Column, Row
    from ruleset.models import Page
    from ruleset.services import revision_add

    build_demo(now=t0)
    users = {user.username: user for user in User.objects.all()}
    sightings = Page.objects.get(slug="sightings")
    revision_add(
        page=sightings,
        author=users["Ada"],
        now=t0,
        summary="Oil",
        text=sightings.current.text + "* Day 6: a Keeper spilled Oil on the stairs.\n",
    )
    dov = post_create(author=users["Cato"], kind="dov", title="Declaration of Victory: Cato", body="Won.", now=t0)
    for name in ("Ada", "Bram", "Dilys", "Wren", "Fenna"):
        vote(dov, users[name], "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=dov, admin=users["Ada"], action="enact", now=t0 + timedelta(hours=13))
    ascension_address_post(
        author=users["Cato"],
        address=AscensionAddress(
            title="",
            body="",
            theme="Mills",
            player_term="Miller",
            emperor_term="Master",
            keep_rules=[],
            keep_columns=["Oil", "Shift"],
            keep_rows=["The Storehouse"],
            extra_renames={"Oil": "Grain"},
        ),
        now=t0 + timedelta(hours=14),
    )
    new = Dynasty.objects.current()
    assert list(Column.objects.filter(dynasty=new).order_by("order").values_list("name", flat=True)) == [
        "Grain",
        "Shift",
    ]
    assert Row.objects.filter(dynasty=new, user=None, name="The Storehouse").exists()
    text = Page.objects.get(slug="sightings").current.text
    assert "a Miller spilled Grain" in text


# --- 11. The post form: this profile's fields and the allowance -------------------------------------------


def test_post_form_shows_only_this_profiles_fields_and_the_remaining_allowance(client, t0):
    """2016: “Each Hunter may have no more than 2 Proposals pending … and may not submit more than 3
    Proposals per day”. One pending, posted today: one more may be pending, two more today."""
    players = make_table(5, start=t0)
    make_proposal(players[2], at=t0)
    login(client, "P03")
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        html = client.get(reverse("new_post")).content.decode()
    assert 'name="trivial"' not in html and 'name="anonymous"' not in html
    assert "You may post 2 more Proposals today" in html
    assert "1 more may be pending" in html


def test_post_form_offers_anonymous_cfjs_under_2008_and_trivial_under_2005(client, t0):
    make_table(5, start=t0, profile="2008")
    login(client, "P03")
    html = client.get(reverse("new_post")).content.decode()
    assert 'name="anonymous"' in html and 'name="trivial"' not in html
    from dynasties.models import Game

    game = Game.load()
    game.profile = "2005"
    game.save()
    html = client.get(reverse("new_post")).content.decode()
    assert 'name="trivial"' in html and 'name="anonymous"' not in html


# --- 12. The small ones ---------------------------------------------------------------------------------


def test_a_post_without_votes_does_not_suggest_voting_in_its_comment_box(client, t0):
    players = make_table(3, start=t0)
    story = post_create(author=players[1], kind="story", title="Story Post: Hello", body="Hi.", now=t0)
    login(client, "P03")
    html = client.get(story.get_absolute_url()).content.decode()
    assert "Optional when you vote" not in html and 'name="text"' in html


def test_application_sent_is_a_redirect_so_a_reload_does_not_resubmit(client, t0):
    from dynasties.models import Application

    make_table(3, start=t0)
    password = "a-long-password-1"
    response = client.post(
        reverse("join"), {"name": "Newcomer", "password": password, "password_again": password, "message": "Hello"}
    )
    assert response.status_code == 302
    page = client.get(response["Location"])
    assert "Newcomer" in page.content.decode() and "Application sent" in page.content.decode()
    client.get(response["Location"])
    assert Application.objects.count() == 1


def test_idling_from_the_roster_returns_to_the_roster(client, t0):
    make_table(4, start=t0)
    login(client, "P02")
    response = client.post(reverse("idle", args=["P04"]), {"next": reverse("roster")})
    assert response.status_code == 302 and response["Location"] == reverse("roster")
    response = client.post(reverse("unidle", args=["P04"]), {"next": "https://elsewhere.example/"})
    assert response["Location"] == "/players/P04/"


def test_edit_the_ruleset_link_stays_until_the_ruleset_cites_the_enactment(client, t0):
    from ruleset.models import Page
    from ruleset.services import page_create, revision_add

    players = make_table(3, start=t0)
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        author=players[1],
        text="== Core ==\n=== One ===\nHi.\n",
        summary="start",
        now=t0,
        slug="ruleset",
    )
    proposal = make_proposal(players[2], at=t0, title="Proposal: Change One")
    vote(proposal, players[0], "for", at=t0 + timedelta(hours=1))
    login(client, "P02")
    with time_machine.travel(t0 + timedelta(hours=13), tick=False):
        client.post(reverse("resolve", args=[proposal.slug]), {"action": "enact"})
        assert Post.objects.get(pk=proposal.pk).status == "enacted"
        for _ in range(2):
            html = client.get(reverse("admin_panel")).content.decode()
            assert "edit the Ruleset" in html and f"post={proposal.slug}" in html
        revision_add(
            page=Page.objects.get(slug="ruleset"),
            author=players[1],
            text="== Core ==\n=== One ===\nBye.\n",
            summary="Enacting",
            now=t0 + timedelta(hours=13),
            post=proposal,
        )
        assert "edit the Ruleset" not in client.get(reverse("admin_panel")).content.decode()


def test_atom_feed_links_are_absolute(client, t0):
    players = make_table(3, start=t0)
    make_proposal(players[1], at=t0, title="Proposal: Linky", body="Read the [Ruleset](/wiki/ruleset/).")
    body = client.get("/feed/").content.decode()
    assert "http://testserver/wiki/ruleset/" in body
    assert 'href="http://testserver/posts/' in body
    assert "href=&quot;/wiki" not in body


def test_the_site_has_a_favicon_of_its_own(client, t0):
    from django.contrib.staticfiles import finders

    make_table(3, start=t0)
    html = client.get("/").content.decode()
    match = re.search(r'<link rel="icon"[^>]*href="([^"]+)"', html)
    assert match and match.group(1).endswith("favicon.svg")
    path = finders.find("favicon.svg")
    assert path and "<svg" in open(path).read()
    assert client.get("/favicon.ico").status_code in (301, 302)


def test_an_enactment_carried_out_by_other_means_is_dismissed_and_the_gndt_link_is_filled_in(client, t0):
    """Found in play: "was enacted and no Ruleset revision cites it yet" could not be cleared once the admin
    carried it out by other means, and its "update the GNDT" link was not filled in like the Ruleset's."""
    from ruleset.models import Page
    from ruleset.services import page_create

    players = make_table(3, start=t0)
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        author=players[1],
        text="== Core ==\n=== One ===\nHi.\n",
        summary="start",
        now=t0,
        slug="ruleset",
    )
    proposal = make_proposal(players[2], at=t0, title="Proposal: More Oil")
    vote(proposal, players[0], "for", at=t0 + timedelta(hours=1))
    login(client, "P02")
    with time_machine.travel(t0 + timedelta(hours=13), tick=False):
        client.post(reverse("resolve", args=[proposal.slug]), {"action": "enact"})
        html = client.get(reverse("admin_panel")).content.decode()
        assert "/gndt/edit/?comment=Enacting%20Proposal%3A%20More%20Oil" in html
        form = client.get("/gndt/edit/?comment=Enacting%20Proposal%3A%20More%20Oil").content.decode()
        assert ">Enacting Proposal: More Oil</textarea>" in form
        client.post(reverse("carried_out", args=[proposal.slug]))
        assert "no Ruleset revision cites it" not in client.get(reverse("admin_panel")).content.decode()
        assert Post.objects.get(pk=proposal.pk).carried_out_at is not None
        # Twice changes nothing; a matter not enacted is refused, with its reason; a player may not.
        assert client.post(reverse("carried_out", args=[proposal.slug])).status_code == 302
        pending = make_proposal(players[0], at=t0 + timedelta(hours=13), title="Proposal: Later")
        client.post(reverse("carried_out", args=[pending.slug]))
        assert "was not enacted" in client.get(reverse("admin_panel")).content.decode()
        assert Post.objects.get(pk=pending.pk).carried_out_at is None
        login(client, "P03")
        assert client.post(reverse("carried_out", args=[proposal.slug])).status_code == 403


def test_the_login_page_after_a_redirect_says_why(client, t0):
    """Found in play: "the login page after a redirect doesn't say why"."""
    make_table(3, start=t0)
    sent = client.get("/messages/", follow=True).content.decode()
    assert "That page is for logged-in players" in sent
    assert "That page is for logged-in players" not in client.get("/accounts/login/").content.decode()


def test_the_post_form_says_proposals_wait_for_the_hiatus_instead_of_counting_them(client, t0):
    """Found in play: "The post form says 'You may post 3 more Proposals today' during hiatus, then refuses"."""
    players = make_table(4, start=t0)
    login(client, "P03")
    with time_machine.travel(t0, tick=False):
        assert "You may post 3 more Proposals today" in client.get("/new/").content.decode()
        post_create(author=players[2], kind="dov", title="Declaration of Victory: Mine", body="Won.", now=t0)
        html = client.get("/new/").content.decode()
    assert "You may post" not in html and "The game is in hiatus" in html


def test_who_may_not_vote_is_told_why_beside_the_comment_button(client, t0):
    """Found in play: "someone who may not vote (idle, not a player, dead, the Prisoner) sees only 'Comment',
    with no word why"."""
    from tests.factories import make_idle

    players = make_table(4, start=t0)
    make_idle(players[3], since=t0)
    make_spectator("Sam")
    proposal = make_proposal(players[1], at=t0, title="Proposal: Lamp Oil")
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        for name, why in (
            ("Sam", "You are not a player, so you may comment here but not vote."),
            ("P04", "You are idle, and an idle player has no vote: unidle to vote."),
            ("P03", None),
        ):
            login(client, name)
            html = client.get(proposal.get_absolute_url()).content.decode()
            if why is None:
                assert "why-no-vote" not in html and 'class="vote vote-for"' in html
            else:
                assert f'<p class="muted why-no-vote">{why}</p>' in html
