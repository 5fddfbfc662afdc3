"""The tally box and the admin panel for a dynasty's own kinds of matter and its effects of resolving."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from gndt.models import Cell
from tests.factories import PASSWORD, make_proposal, vote
from tests.kinds_builders import duchy, village
from tests.test_pages import add_comments, count_queries
from votes.models import MatterEffect, Post
from votes.posting import post_create

pytestmark = pytest.mark.django_db


def login(client, user):
    assert client.login(username=user.username, password=PASSWORD)


def test_the_tally_box_of_a_petition_names_its_kind_and_its_one_voter(client, t0):
    """2005: "only the Duke may vote on it": the box says who may vote and offers icons to the Duke alone."""
    players, _ = duchy(t0)
    petition = post_create(author=players[3], kind="matter", title="Petition: Accuse P05", now=t0)
    login(client, players[4])
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        html = client.get(petition.get_absolute_url()).content.decode()
    assert '<dd class="tally-kind">Petition</dd>' in html
    assert '<dd class="tally-electorate"><bdi>P01</bdi></dd>' in html
    assert "1 (of 1 who may vote)" in html
    assert 'value="for"' not in html  # P05 may comment, not vote
    login(client, players[0])
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        html = client.get(reverse("tally_box", args=[petition.slug])).content.decode()
        post_page = client.get(petition.get_absolute_url()).content.decode()
    assert "If nothing changes, it could be failed from 27 Jul 2016 12:00:00 UTC" in html
    assert 'value="for"' in post_page and 'value="veto"' not in post_page and 'value="deferential"' not in post_page


def test_the_admin_panel_offers_the_claim_as_a_checkbox_and_applies_it(client, t0):
    """2005: "Whenever an Admin Enacts a non-Trivial Proposal, they may claim 5 Thalers": a checkbox beside
    Enact; ticking it pays the admin in the same resolution."""
    players, _ = duchy(t0)
    post = make_proposal(players[2], at=t0, title="Proposal: Taxes")
    for i, voter in enumerate(players[3:8]):
        vote(post, voter, "for", at=t0 + timedelta(minutes=1 + i))
    claim = MatterEffect.objects.get(label="the enacting admin's claim")
    login(client, players[1])
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        html = client.get(reverse("admin_panel")).content.decode()
        block = html.split('id="panel-taxes"')[1].split("</section>")[0]
        assert f'name="effect_enact" value="{claim.pk}"' in block
        assert "On enacting: the enacting admin&#x27;s claim (Thalers +5, +2 if Trivial)" in block
        assert 'name="effect_fail"' not in block  # docking non-voters only after 48 hours, and on failure
        response = client.post(reverse("resolve", args=[post.slug]),
                               {"action": "enact", "effect_enact": [str(claim.pk)]})
    assert response.status_code == 302
    assert Post.objects.get(pk=post.pk).status == "enacted"
    values = dict(Cell.objects.filter(column__name="Thalers", row__name__in=["P02", "P03"])
                  .values_list("row__name", "value"))
    assert values == {"P02": "105", "P03": "110"}


def test_a_refused_effect_shows_why_and_resolves_nothing(client, t0):
    """All or nothing: an optional effect not on offer is refused with the reason; the matter stays pending."""
    players, _ = duchy(t0)
    post = make_proposal(players[2], at=t0, title="Proposal: Taxes")
    for i, voter in enumerate(players[3:8]):
        vote(post, voter, "for", at=t0 + timedelta(minutes=1 + i))
    docking = MatterEffect.objects.get(label="deducted for not voting")
    login(client, players[1])
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        response = client.post(reverse("resolve", args=[post.slug]),
                               {"action": "enact", "effect_enact": [str(docking.pk)]}, follow=True)
    assert "is not an optional effect of resolving “Proposal: Taxes” this way now" in response.content.decode()
    assert Post.objects.get(pk=post.pk).status == "pending"


def test_town_meeting_pages_read_the_gndt_once_whatever_the_comments(client, t0):
    """A Town Meeting's electorate comes from the GNDT (Alive, Occupation): the admin panel and the tally box
    read it once, with as many queries for 90 more comments and another meeting."""
    players, _ = village(t0)
    meeting = make_proposal(players[2], at=t0, title="Proposal: Town Meeting: Barn Raising")
    add_comments(meeting, players[:5], 10, t0 + timedelta(minutes=5))
    login(client, players[1])
    with time_machine.travel(t0 + timedelta(hours=20), tick=False):
        box = count_queries(client, reverse("tally_box", args=[meeting.slug]))
        panel = count_queries(client, reverse("admin_panel"))
        html = client.get(reverse("tally_box", args=[meeting.slug])).content.decode()
    assert "4 (of 6 who may vote)" in html
    assert '<dd class="tally-vetoers"><bdi>P01</bdi></dd>' in html
    add_comments(meeting, players[:5], 90, t0 + timedelta(hours=1))
    make_proposal(players[3], at=t0 + timedelta(minutes=1), title="Proposal: Town Meeting: Lynching")
    with time_machine.travel(t0 + timedelta(hours=20), tick=False):
        assert count_queries(client, reverse("tally_box", args=[meeting.slug])) == box
        assert count_queries(client, reverse("admin_panel")) == panel
