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
    assert "not-voted" not in html.split('id="game-summary"')[1].split("</section>")[0]  # nor is asked to
    login(client, players[0])
    with time_machine.travel(t0 + timedelta(hours=2), tick=False):
        html = client.get(reverse("tally_box", args=[petition.slug])).content.decode()
        post_page = client.get(petition.get_absolute_url()).content.decode()
    assert "If nothing changes, it could be failed from 27 Jul 2016 12:00:00 UTC" in html
    assert "my-vote not-voted" in post_page.split('id="game-summary"')[1].split("</section>")[0]
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
        response = client.post(
            reverse("resolve", args=[post.slug]), {"action": "enact", "effect_enact": [str(claim.pk)]}
        )
    assert response.status_code == 302
    assert Post.objects.get(pk=post.pk).status == "enacted"
    values = dict(
        Cell.objects.filter(column__name="Thalers", row__name__in=["P02", "P03"]).values_list("row__name", "value")
    )
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
        response = client.post(
            reverse("resolve", args=[post.slug]), {"action": "enact", "effect_enact": [str(docking.pk)]}, follow=True
        )
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


def test_the_core_rules_page_lists_the_dynastys_kinds_and_effects(client, t0):
    """Every player can read what the dynasty's own rules say, with the Proposal each definition cites."""
    duchy(t0)
    html = client.get(reverse("core_rules")).content.decode()
    assert "<h3>Petition</h3>" in html
    assert "Who may vote: the Emperor alone." in html
    assert "Resolved after 48 hours: approved with more FOR than AGAINST, rejected otherwise" in html
    assert "On enacting a Proposal: its author&#x27;s Thalers +10 (+2 if Trivial)" in html
    assert "Proposal: Our Own Rules" in html


def _django_admin(client, user):
    user.is_staff = user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    login(client, user)


KIND_FORM = {
    "name": "Town Meeting",
    "base": "proposal",
    "subject_rule": "phrase",
    "subject_text": "Town Meeting",
    "posters": "any",
    "posters_filter": "[]",
    "electorate": "filter",
    "electorate_filter": '[{"column": "Alive", "op": "=", "value": "Yes"}]',
    "quorum": "eligible",
    "resolution": "core",
    "verdict_hours": "",
    "veto": "emperor",
    "veto_filter": "[]",
    "counts_towards_limits": "on",
}


def test_djangos_admin_refuses_a_filter_on_a_missing_column_and_saves_nothing(client, t0):
    """An electorate filter naming a column that does not exist is refused on the form, with the reason."""
    players, citation = duchy(t0)
    _django_admin(client, players[1])
    from votes.models import MatterKind

    before = MatterKind.objects.count()
    response = client.post("/django-admin/votes/matterkind/add/", KIND_FORM | {"proposal": citation.pk})
    assert response.status_code == 200
    assert "names the GNDT column “Alive”, which does not exist" in response.content.decode()
    assert MatterKind.objects.count() == before


def test_djangos_admin_defines_a_kind_through_the_service(client, t0):
    players, citation = village(t0)
    _django_admin(client, players[1])
    from votes.models import MatterKind

    response = client.post(
        "/django-admin/votes/matterkind/add/",
        KIND_FORM | {"name": "Gathering", "subject_text": "Gathering", "proposal": citation.pk},
    )
    assert response.status_code == 302
    kind = MatterKind.objects.get(name="Gathering")
    assert (kind.by, kind.proposal, kind.dynasty.emperor) == (players[1], citation, players[0])
    assert kind.electorate_filter == [{"column": "Alive", "op": "=", "value": "Yes"}]


def test_an_admin_removes_a_kind_from_the_core_rules_page_citing_a_proposal(client, t0):
    players, citation = duchy(t0)
    from votes.models import MatterKind

    kind = MatterKind.objects.get(name="Petition")
    login(client, players[4])
    assert client.post(reverse("core_rules"), {"retire_kind": kind.pk, "proposal": citation.slug}).status_code == 403
    login(client, players[1])
    response = client.post(reverse("core_rules"), {"retire_kind": "٣", "proposal": citation.slug}, follow=True)
    assert "There is no such kind of matter or effect" in response.content.decode()
    response = client.post(reverse("core_rules"), {"retire_kind": kind.pk, "proposal": citation.slug}, follow=True)
    assert "“Petition” was removed." in response.content.decode()
    kind.refresh_from_db()
    assert kind.retired_at is not None and kind.retired_because == citation
    assert "<h3>Petition</h3>" not in response.content.decode()
