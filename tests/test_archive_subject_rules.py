"""An imported post's kind of matter is the one its title marks, read as posting reads it (``votes.subjects``):
an archive may not bring in "Proposal: Town␣␣Meeting: …" as a plain Proposal, nor give a post a kind its title
does not mark. A refused archive names the post and writes nothing."""

from __future__ import annotations

import copy

import pytest

from blognomic.moving.archive import export_archive
from blognomic.moving.archive.matter_kinds import NOT_MARKED, UNMARKED
from blognomic.moving.seed_demos import zahndorf
from tests.test_archive_matter_kinds import load, refused, seeds_present  # noqa: F401 - seeds_present: autouse

pytestmark = pytest.mark.django_db(transaction=True)


def pending_town_meeting(archive: dict) -> int:
    return next(i for i, p in enumerate(archive["posts"]) if p.get("matter_kind") and p["status"] == "pending")


def test_a_pending_town_meeting_spaced_out_and_without_its_kind_is_refused():
    """2008: "If a Proposal title includes the phrase 'Town Meeting'" — two spaces or a no-break space in the
    phrase do not make the pending Town Meeting a plain Proposal on import either."""
    load(zahndorf.DEMO)
    archive = export_archive()
    index = pending_town_meeting(archive)
    kind_pk = archive["posts"][index]["matter_kind"]
    for spaced in ("Proposal: Town  Meeting: A Lynching", "Proposal: Town\u00a0Meeting: A Lynching"):
        broken = copy.deepcopy(archive)
        post = broken["posts"][index]
        post.pop("matter_kind")
        post["title"] = spaced
        refused(
            broken,
            f"posts[{index}].matter_kind",
            UNMARKED.format(title=spaced, pk=kind_pk, subject="a title including “Town Meeting”"),
        )


def test_a_post_may_not_claim_a_kind_its_title_does_not_mark():
    load(zahndorf.DEMO)
    archive = export_archive()
    index = pending_town_meeting(archive)
    broken = copy.deepcopy(archive)
    broken["posts"][index]["title"] = "Proposal: A Lynching"
    refused(
        broken,
        f"posts[{index}].matter_kind",
        NOT_MARKED.format(
            title="Proposal: A Lynching",
            pk=broken["posts"][index]["matter_kind"],
            subject="a title including “Town Meeting”",
        ),
    )
