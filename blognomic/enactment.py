"""What enacting or failing a matter does, step by step, what may stop Enact being offered, and who reads the GNDT
values a dynasty's own kinds of matter filter voters by.

``votes.services.matter_resolve`` (and the 2005 Duke's ``dov_emperor_decide``) checks that the rules allow
the resolution and works out its tally, note and effects; then it runs these steps, top to bottom, inside
its transaction. A step runs only when its condition holds, so failing a matter closes it, records it and
applies its effects, and nothing else. A step that cannot do its part raises
``votes.resolution_steps.EnactmentRefused``: nothing of the resolution is kept and the admin is told why.

Nobody is told inside the transaction: the notices job (``votes.notices``) tells players of the recorded
resolution on its next run, and cached pages go stale when the transaction commits (``blognomic.web.freshness``).

Votes cannot import the layers these steps write to, so the site installs the list when it starts
(``BlognomicConfig.ready``).
"""

from __future__ import annotations

from blognomic.flows.amendments.services import amendment_apply_on_enactment, amendment_obstacles
from blognomic.flows.succession.services import dynasty_begin_from_declaration
from gndt.services.matters import gndt_apply_resolution_effects, gndt_values_for_kinds
from votes import resolution_steps
from votes.resolution_steps import (
    EnactmentObstacle,
    ResolutionStep,
    Resolving,
    amendable_matter_enacted,
    declaration_enacted,
    effects_due,
)
from votes.services import matter_close, resolution_record


def _start_the_next_dynasty(resolving: Resolving) -> None:
    dynasty_begin_from_declaration(declaration=resolving.post, now=resolving.now)


def _apply_the_amendment(resolving: Resolving) -> None:
    """Writes the Ruleset's and wiki pages' revisions, the GNDT's update, core-rule changes and renames."""
    amendment_apply_on_enactment(
        post=resolving.post, by=resolving.by, now=resolving.now, apply_amendment=resolving.apply_amendment
    )


def _apply_the_effects(resolving: Resolving) -> None:
    """Writes one GNDT update citing the matter."""
    gndt_apply_resolution_effects(
        post=resolving.post, deltas=resolving.deltas, by=resolving.by, now=resolving.now, outcome=resolving.outcome
    )


RESOLUTION_STEPS = (
    ResolutionStep("close the matter", matter_close),
    # Before the record, as it always was: the other pending Declarations' failures are recorded first.
    ResolutionStep("start the next dynasty", _start_the_next_dynasty, when=declaration_enacted),
    ResolutionStep("record the resolution", resolution_record),
    ResolutionStep("apply the amendment", _apply_the_amendment, when=amendable_matter_enacted),
    ResolutionStep("apply the effects", _apply_the_effects, when=effects_due),
)

ENACTMENT_OBSTACLES = (EnactmentObstacle("its amendment no longer applies", amendment_obstacles),)


def install_resolution_steps() -> None:
    # A dynasty's own kinds of matter filter voters by GNDT values, read by the GNDT.
    resolution_steps.install(steps=RESOLUTION_STEPS, obstacles=ENACTMENT_OBSTACLES, game_values=gndt_values_for_kinds)
