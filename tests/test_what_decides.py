"""What decides a pending matter, said once and alike on the tally box, the toteboard and the admin panel:
the queue of Proposals and the hiatus before the votes, and a moment only when time alone decides."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.urls import reverse

from tests.factories import PASSWORD, make_proposal, make_table, vote
from votes.posting import post_create

pytestmark = pytest.mark.django_db


def texts_of(client, post) -> dict[str, str]:
    """The tally box, the post's toteboard on the front page and its admin panel section, as plain text."""
    pages = {
        "tally": client.get(reverse("tally_box", args=[post.slug])).content.decode(),
        "toteboard": client.get("/").content.decode().split(f'id="post-{post.slug}"')[1].split("</article>")[0],
        "panel": client.get("/admin-panel/")
        .content.decode()
        .split(f'id="panel-{post.slug}"')[1]
        .split("</section>")[0],
    }
    return {name: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)) for name, html in pages.items()}


def test_a_proposal_behind_an_older_one_says_it_waits_and_offers_no_moment(client, t0):
    """2016 "the oldest pending Proposal … may be resolved": a newer Proposal with Quorum FOR waits for the
    older one. Every page says so, naming it, and none says "could be enacted from" the 12-hour mark, which
    the queue would make untrue."""
    players = make_table(7, start=t0)
    make_proposal(players[2], at=t0, title="Proposal: Older")
    newer = make_proposal(players[3], at=t0 + timedelta(hours=1), title="Proposal: Newer")
    for voter in players[:5]:
        vote(newer, voter, "for", at=t0 + timedelta(hours=2))
    assert client.login(username="P02", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=3), tick=False):
        pages = texts_of(client, newer)
    for name, text in pages.items():
        assert "Waits for the oldest pending Proposal." in text, name
        assert "could be enacted from" not in text and "Cannot be resolved yet" not in text, name
    for name in ("tally", "panel"):
        assert "Only the oldest pending Proposal may be resolved, and “Proposal: Older” is older." in pages[name]


def test_during_the_hiatus_a_passing_proposal_waits_for_it_to_end(client, t0):
    """2016 a pending DoV puts the game in hiatus, when Proposals are not resolved: a Proposal its votes would
    enact says that it waits for the hiatus, once, and that its votes would allow it."""
    players = make_table(7, start=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Lamps")
    for voter in players[:5]:
        vote(proposal, voter, "for", at=t0 + timedelta(hours=1))
    post_create(
        author=players[4], kind="dov", title="Declaration of Victory", body="I win", now=t0 + timedelta(hours=4)
    )
    assert client.login(username="P02", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(hours=13), tick=False):
        pages = texts_of(client, proposal)
    for name, text in pages.items():
        assert "Waits for the hiatus to end." in text, name
    for name in ("tally", "panel"):
        assert pages[name].count("The game is in hiatus (a Declaration of Victory is pending)") == 1, name
        assert "On its own votes it could be enacted now." in pages[name], name


def test_a_new_dov_says_once_that_its_first_hours_decide(client, t0):
    """2016 no route decides a DoV before 12 hours: the box says that once, and the one moment it could be
    resolved if nothing changes (failed at 48 hours, with only its author's FOR)."""
    players = make_table(7, start=t0)
    dov = post_create(author=players[4], kind="dov", title="Declaration of Victory", body="I win", now=t0)
    assert client.login(username="P02", password=PASSWORD)
    with time_machine.travel(t0 + timedelta(minutes=6), tick=False):
        pages = texts_of(client, dov)
    tally = pages["tally"]
    assert "Cannot be enacted or failed yet: it has been open 0.1 of 12 hours" in tally
    assert "of 24 hours" not in tally and "of 48 hours" not in tally
    assert tally.count("If nothing changes") == 1
    assert "If nothing changes, it could be failed from 27 Jul 2016 12:00:00 UTC." in tally
    assert "If nothing changes, it could be failed from 27 Jul 2016 12:00:00 UTC." in pages["panel"]
