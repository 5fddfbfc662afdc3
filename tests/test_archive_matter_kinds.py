"""The archive carries a dynasty's own kinds of votable matter and the effects of resolving matters: the 2005
demo's Petitions (the Duke alone votes, a verdict after 48 hours, Thalers for resolving) and the 2008 demo's
Town Meetings (the living and free vote, called by day) are judged and shown the same after an export, a
wipe and an import. A bad definition is refused as the admin's form refuses it, naming the record, and
nothing is written.
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client

from blognomic.moving.archive import ArchiveError, export_archive, import_archive
from blognomic.moving.seed_demos import families, zahndorf
from blognomic.moving.seed_demos.loading import seed_choose, seed_demo_load
from dynasties.models import User
from tests.steady_pages import steady
from votes.matter_kind_rules import NO_SUCH_COLUMN
from votes.matter_kind_services import CITE_ENACTED
from votes.models import VOTABLE_KINDS, MatterEffect, MatterKind, Post

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
NOW = datetime(2026, 11, 18, 15, 0, tzinfo=UTC)
DEMOS = (families.DEMO, zahndorf.DEMO)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def seeds_present():
    if not all((SEEDS / demo.file_name).exists() for demo in DEMOS):
        pytest.skip(f"seed rulesets not found at {SEEDS}")


def load(demo) -> None:
    with time_machine.travel(NOW, tick=False):
        assert seed_demo_load(seed_choose(demo.file_name, directory=SEEDS), now=NOW)


def tallies() -> dict[str, dict]:
    reports = {}
    for slug in Post.objects.filter(kind__in=VOTABLE_KINDS).order_by("pk").values_list("slug", flat=True):
        out = StringIO()
        call_command("tally", slug, "--json", "--at", NOW.isoformat(), stdout=out)
        reports[slug] = json.loads(out.getvalue())
    return reports


def post_pages() -> dict[str, tuple[int, str]]:
    pages = {}
    with time_machine.travel(NOW, tick=False):
        client = Client()
        for post in Post.objects.filter(matter_kind__isnull=False).order_by("pk"):
            response = client.get(post.get_absolute_url())
            pages[post.slug] = (response.status_code, steady(response.content.decode()))
    return pages


def definitions() -> tuple[list, list]:
    """Every field of every kind and effect, the rows they refer to by name (accounts and posts are
    numbered afresh on import; kinds and effects keep their keys)."""

    def fields(model, *related):
        plain = [f.attname for f in model._meta.concrete_fields if not f.is_relation]
        return list(model.objects.order_by("pk").values(*plain, *related))

    return (
        fields(
            MatterKind,
            "dynasty__number",
            "proposal__slug",
            "by__username",
            "retired_by__username",
            "retired_because__slug",
        ),
        fields(MatterEffect, "dynasty__number", "matter_kind_id", "proposal__slug", "by__username"),
    )


@pytest.mark.parametrize("demo", DEMOS, ids=lambda demo: demo.file_name[:3])
def test_a_seed_demos_kinds_and_effects_survive_export_wipe_import(demo):
    """Ruleset 21's Petitions “may only be voted upon by the Duke” and its Thalers of resolving; Ruleset 50's
    Town Meetings are “called … during the daytime” and voted on by the living and free. Every matter's
    tally, every page of a kind's matters and every definition read the same after the round trip."""
    load(demo)
    assert Post.objects.filter(matter_kind__isnull=False).exists()
    before = (tallies(), post_pages(), definitions())
    archive = export_archive()
    assert archive["matter_kinds"] and any(p.get("matter_kind") for p in archive["posts"])

    call_command("flush", "--no-input", verbosity=0)
    import_archive(json.loads(json.dumps(archive)))

    assert export_archive() == archive
    after = (tallies(), post_pages(), definitions())
    assert after[0] == before[0], "a tally changed"
    assert after[1].keys() == before[1].keys()
    for slug, page in before[1].items():
        assert after[1][slug] == page, f"{slug} renders differently after the round trip"
    assert after[2] == before[2], "a kind or an effect changed"


def test_retired_kinds_and_effects_travel_with_their_retirement(t0):
    """A kind ended by a later Proposal stays ended, citing it; matters already posted keep it."""
    load(families.DEMO)
    petition = MatterKind.objects.get()
    reward = MatterEffect.objects.order_by("pk").first()
    later = (
        Post.objects.filter(kind="proposal", status="enacted").exclude(pk=petition.proposal_id).first()
        or petition.proposal
    )
    MatterKind.objects.filter(pk=petition.pk).update(retired_at=NOW, retired_by=petition.by, retired_because=later)
    MatterEffect.objects.filter(pk=reward.pk).update(retired_at=NOW)
    archive = export_archive()
    call_command("flush", "--no-input", verbosity=0)
    import_archive(archive)
    petition = MatterKind.objects.get()
    assert (petition.retired_at, petition.retired_because.slug) == (NOW, later.slug)
    assert MatterEffect.objects.get(pk=reward.pk).retired_at == NOW
    assert Post.objects.filter(matter_kind=petition).exists()


def refused(archive: dict, path: str, message: str) -> None:
    call_command("flush", "--no-input", verbosity=0)
    with pytest.raises(ArchiveError) as caught:
        import_archive(archive)
    assert caught.value.path == path
    assert message in caught.value.message
    assert not User.objects.exists() and not MatterKind.objects.exists(), "a refused archive wrote something"


def test_a_bad_definition_is_refused_naming_it_and_nothing_is_written():
    load(families.DEMO)
    archive = export_archive()
    petition_post = next(i for i, p in enumerate(archive["posts"]) if p.get("matter_kind"))

    broken = copy.deepcopy(archive)
    broken["matter_kinds"][0]["electorate"] = "filter"
    broken["matter_kinds"][0]["electorate_filter"] = [{"column": "Gold", "op": "=", "value": "1"}]
    refused(broken, "matter_kinds[0]", NO_SUCH_COLUMN.format(condition="Gold = 1", column="Gold")[:30])

    broken = copy.deepcopy(archive)
    pending = next(p for p in archive["posts"] if p["status"] == "pending")
    broken["matter_kinds"][0]["proposal"] = pending["id"]
    refused(broken, "matter_kinds[0].proposal", CITE_ENACTED.split("(")[0])

    broken = copy.deepcopy(archive)
    broken["posts"][petition_post]["matter_kind"] = 999
    refused(broken, f"posts[{petition_post}].matter_kind", "no kind of matter with pk 999")

    broken = copy.deepcopy(archive)
    broken["matter_effects"][0]["column"] = "Nonesuch"
    refused(broken, "matter_effects[0]", "Nonesuch")

    broken = copy.deepcopy(archive)
    broken["matter_effects"][0]["amount"] = "10"
    refused(broken, "matter_effects[0].amount", "must be a whole number")


def test_an_archive_without_kinds_still_reads_and_its_matters_are_of_no_kind():
    """Archives written before kinds travelled leave the keys out; they load as before, and their Petitions
    are judged by the core rules of Proposals (which is why the kinds must travel)."""
    load(families.DEMO)
    before = tallies()
    archive = export_archive()
    for key in ("matter_kinds", "matter_effects"):
        archive.pop(key)
    for post in archive["posts"]:
        post.pop("matter_kind", None)
    call_command("flush", "--no-input", verbosity=0)
    import_archive(archive)
    assert not MatterKind.objects.exists() and Post.objects.exists()
    assert tallies() != before
