"""What resolving a matter does, in order: the steps ``blognomic/enactment.py`` installs and the architecture
page (docs/architecture/index.md) documents, and which of them run when a matter is enacted or failed."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from blognomic import enactment
from blognomic.flows.amendments.services import post_create_with_amendment
from dynasties.models import Dynasty
from gndt.models import Cell, Update
from gndt.services.matters import gndt_values_for_kinds
from tests.factories import make_table, vote
from tests.kinds_builders import duchy
from votes.models import Resolution
from votes.posting import post_create
from votes.resolution_steps import (
    ResolutionStep,
    install,
    installed_game_values,
    installed_obstacles,
    installed_steps,
)
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db

DOCUMENTED_STEPS = [
    "close the matter",
    "start the next dynasty",
    "record the resolution",
    "apply the amendment",
    "apply the effects",
]
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture" / "index.md"


def test_the_installed_steps_are_the_documented_sequence():
    """The site installs the steps in the order the architecture page gives, one obstacle to offering Enact, and the
    GNDT's reader of the values a dynasty's own kinds of matter filter voters by."""
    assert [step.name for step in installed_steps()] == DOCUMENTED_STEPS
    assert [obstacle.name for obstacle in installed_obstacles()] == ["its amendment no longer applies"]
    assert installed_game_values() is gndt_values_for_kinds
    chain = re.search(r"in one\s+transaction: (.*?)\.\n\n", ARCHITECTURE.read_text(), re.DOTALL)
    assert chain, "the architecture page says what resolving a matter does, step by step"
    named = [" ".join(re.sub(r"\(.*", "", part, flags=re.DOTALL).split()) for part in chain.group(1).split("→")]
    assert named == DOCUMENTED_STEPS


@pytest.fixture
def steps_run():
    """The names of the steps that ran, in order, while the installed steps still do their work."""
    ran: list[str] = []

    def watched(step: ResolutionStep) -> ResolutionStep:
        def run(resolving):
            ran.append(step.name)
            return step.run(resolving)

        return ResolutionStep(step.name, run, step.when)

    install(
        steps=[watched(step) for step in enactment.RESOLUTION_STEPS],
        obstacles=enactment.ENACTMENT_OBSTACLES,
        game_values=gndt_values_for_kinds,
    )
    yield ran
    enactment.install_resolution_steps()


def thalers(row: str) -> str:
    return Cell.objects.get(row__name=row, column__name="Thalers").value


def proposal_setting_thalers(players, *, at):
    return post_create_with_amendment(
        author=players[2],
        kind="proposal",
        title="Proposal: A Gift",
        body="P04 gets 150 Thalers.",
        flavour="",
        trivial=False,
        anonymous=False,
        operations=[{"op": "cell_set", "row": "P04", "column": "Thalers", "value": "150"}],
        base_number=None,
        now=at,
    )


def test_enacting_a_proposal_applies_its_amendment_then_its_effects(t0, steps_run):
    """2005: "When a Proposal is enacted, its proposer gains 10 Thalers": the effect comes after the
    amendment, each as its own GNDT update citing the Proposal."""
    players, _ = duchy(t0)
    post = proposal_setting_thalers(players, at=t0)
    for i, voter in enumerate(players[3:8]):
        vote(post, voter, "for", at=t0 + timedelta(minutes=1 + i))
    steps_run.clear()
    resolution = matter_resolve(post=post, admin=players[1], action="enact", now=t0 + timedelta(hours=1))
    assert steps_run == ["close the matter", "record the resolution", "apply the amendment", "apply the effects"]
    assert resolution == Resolution.objects.get(post=post)
    assert (thalers("P04"), thalers("P03")) == ("150", "110")
    amendment, effects = Update.objects.filter(post=post).order_by("pk")
    assert "Effects of enacting" in effects.comment and "Effects" not in amendment.comment


def test_failing_a_matter_closes_it_records_it_and_applies_its_effects_only(t0, steps_run):
    """2005: "When a Proposal fails, its proposer loses 3 Thalers"; its amendment is not applied."""
    players, _ = duchy(t0)
    post = proposal_setting_thalers(players, at=t0)
    for i, voter in enumerate(players[3:8]):
        vote(post, voter, "against", at=t0 + timedelta(minutes=1 + i))
    steps_run.clear()
    matter_resolve(post=post, admin=players[1], action="fail", now=t0 + timedelta(hours=1))
    assert steps_run == ["close the matter", "record the resolution", "apply the effects"]
    assert (thalers("P04"), thalers("P03")) == ("100", "97")


def test_enacting_a_declaration_starts_the_next_dynasty_before_its_record(t0, steps_run):
    """“all other active DoVs are failed, and a new Dynasty begins with the Hunter who made the DoV”: the
    rival's failure is recorded before the winner's enactment."""
    players = make_table(7, start=t0)
    winner = post_create(author=players[2], kind="dov", title="Declaration of Victory: I Win", body="", now=t0)
    rival = post_create(author=players[3], kind="dov", title="DoV: No, Me", body="", now=t0 + timedelta(minutes=5))
    for voter in (players[0], *players[4:7]):
        vote(winner, voter, "for", at=t0 + timedelta(hours=1))
    matter_resolve(post=winner, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    assert steps_run == ["close the matter", "start the next dynasty", "record the resolution"]
    assert Dynasty.objects.current().declaration == winner
    assert list(Resolution.objects.order_by("pk").values_list("post", flat=True)) == [rival.pk, winner.pk]
