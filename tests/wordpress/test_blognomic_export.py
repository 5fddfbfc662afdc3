"""Importing an export shaped like BlogNomic's own: custom statuses, the admins' notes as written, and the
people as the old site knew them."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command

from blognomic.moving.wordpress.importing import ImportRefused, import_wordpress
from blognomic.moving.wordpress.mapping import MappingError, load_mapping
from dynasties.models import Absence, User
from tests.wordpress.blognomic_wxr import (
    AUTHORS,
    CYRILLIC_ORLA,
    MIRRORED_TITLE,
    blognomic_export,
    matter,
)
from tests.wordpress.wxr import author
from votes.models import Comment, Post, Resolution

pytestmark = pytest.mark.django_db

AT = datetime(2026, 1, 5, 12, tzinfo=UTC)


def run(data: bytes, **options):
    return import_wordpress(lambda: io.BytesIO(data), at=AT, **options)


def post(slug: str) -> Post:
    return Post.objects.get(slug=slug)


def recorded(slug: str) -> dict:
    return Resolution.objects.get(post__slug=slug).tally["recorded"]


def test_each_custom_status_becomes_our_status_and_outcome():
    """open is pending; enacted, failed; vetoed fails with the veto recorded; illegal and quarantined fail
    recorded as such; a failed matter whose note says so was self-killed."""
    run(blognomic_export())
    found = {p.slug: (p.status, p.outcome) for p in Post.objects.filter(slug__startswith="matter-", kind="proposal")}
    assert found == {
        "matter-1": ("pending", ""),
        "matter-2": ("enacted", "enacted"),
        "matter-3": ("failed", "failed"),
        "matter-4": ("failed", "vetoed"),
        "matter-5": ("failed", "failed"),
        "matter-6": ("failed", "failed"),
        "matter-7": ("failed", "self-killed"),
        "matter-8": ("enacted", "enacted"),
    }
    assert [recorded(f"matter-{n}")["outcome"] for n in (4, 5, 6, 7)] == [
        "vetoed",
        "illegal",
        "quarantined",
        "self-killed",
    ]


def test_the_recorded_result_is_kept_in_its_json_shape_with_the_note():
    """Resolution.note keeps the note as written; tally["recorded"] says where the outcome was read."""
    run(blognomic_export())
    assert recorded("matter-2") == {"outcome": "enacted", "source": "status", "counts": [[4, 0]], "deferring": None}
    assert recorded("matter-3") == {"outcome": "failed", "source": "status", "counts": [[1, 3]], "deferring": None}
    assert recorded("matter-8") == {"outcome": "enacted", "source": "note", "counts": [[4, 0]], "deferring": 1}
    assert Resolution.objects.get(post__slug="matter-2").note == "Reached quorum, 4 votes to 0. Enacted by Orla."


def test_drafts_trash_and_private_posts_are_skipped_with_their_reason():
    report = run(blognomic_export())
    skipped = "\n".join(report.skipped)
    assert "<item> 9: its status is 'draft' (a draft)" in skipped
    assert "<item> 10: its status is 'trash' (in the trash)" in skipped
    assert "<item> 11: its status is 'private' (private)" in skipped
    assert not Post.objects.filter(title__in=["Proposal: Unsent", "Proposal: Binned", "Proposal: Hidden"]).exists()


def test_an_import_that_skips_every_item_says_so_and_exits_non_zero(tmp_path):
    """Not "nothing new" (which means "already here"): "Nothing imported: all N items were skipped"."""
    data = blognomic_export([matter(9, "Proposal: Unsent", "draft"), matter(10, "Proposal: Binned", "trash")])
    report = run(data)
    assert report.lines()[0] == "WXR 1.2. Nothing imported: all 2 items were skipped."
    path = tmp_path / "drafts.xml"
    path.write_bytes(data)
    for dry in ([], ["--dry-run"]):
        out = io.StringIO()
        with pytest.raises(CommandError, match="Nothing imported: all 2 items were skipped"):
            call_command("import_wordpress", str(path), *dry, stdout=out)
        assert "nothing new" not in out.getvalue()


def test_a_second_import_reports_the_same_disagreements():
    """The engine's counts are compared with every count a note gives, on every import."""
    first = run(blognomic_export())
    assert any(
        "matter-8" in line and "the note gives 4-0, the engine counts 3-0" in line for line in first.disagreements
    )
    second = run(blognomic_export())
    assert second.disagreements == first.disagreements
    assert not second.added.get("proposals")


def test_admin_user_is_the_authors_user_id_and_never_an_account_called_by_a_number():
    run(blognomic_export())
    assert Resolution.objects.get(post__slug="matter-2").by.username == "Orla"
    assert not User.objects.filter(username__regex=r"^[0-9]+$").exists()


def test_an_unknown_admin_user_id_resolves_by_nobody_and_is_reported():
    report = run(blognomic_export([matter(2, "Proposal: Ropes", "enacted", "Enacted 0-0", by="99")]))
    assert Resolution.objects.get(post__slug="matter-2").by is None
    assert any("admin_user '99' is no author's user id" in note for note in report.notes)


def test_authors_addresses_come_confirmed_and_the_report_says_so():
    """Each author's wp:author_email is their account's confirmed address, so they can claim it by the
    password-reset mail."""
    report = run(blognomic_export())
    orla = User.objects.get(username="Orla")
    assert orla.email == "orla@nomic.example" and not orla.email_pending and not orla.has_usable_password()
    assert any("email address the old site held" in line for line in report.lines())


def test_a_guest_comment_is_never_a_registered_players_comment_or_vote():
    """A comment with comment_user_id 0 signed "Orla" is not Orla's, and its FOR is nobody's."""
    report = run(blognomic_export())
    orla = User.objects.get(username="Orla")
    assert Comment.objects.filter(post__slug="matter-2", author=orla).count() == 1
    assert report.guest_comments == 1


def test_a_lookalike_wordpress_account_is_reported_not_merged():
    report = run(blognomic_export())
    assert not Post.objects.filter(title="Story: Not Orla").exists()
    assert any(CYRILLIC_ORLA in line and "not merged" in line for line in report.skipped)
    assert not User.objects.filter(username=CYRILLIC_ORLA).exists()


def test_an_author_name_that_cannot_be_a_name_here_comes_in_cleaned_with_its_title_exact():
    report = run(blognomic_export())
    story = Post.objects.get(title=MIRRORED_TITLE)
    assert story.author.username == "Mirror Hand"
    assert any("'Mirror Hand'" in note for note in report.notes)


def test_without_is_player_the_named_players_are_active_and_the_rest_idle():
    """Never everyone who ever posted: the admin names who plays now; the others are idle until they return."""
    report = run(blognomic_export(), players=("Orla", "Pim"))
    idle = set(Absence.objects.filter(ended_at__isnull=True).values_list("user__username", flat=True))
    assert idle == {"Nell", "Quill", "Mirror Hand"}
    assert User.objects.get(username="Orla").joined_at == datetime(2019, 3, 2, 10, tzinfo=UTC)
    assert report.idle == 3 and all(a.started_at == AT for a in Absence.objects.all())


def test_without_is_player_or_players_everyone_comes_in_idle():
    run(blognomic_export())
    players = User.objects.filter(joined_at__isnull=False)
    assert players.count() == 5 and Absence.objects.filter(user__in=players, ended_at__isnull=True).count() == 5


def test_players_is_refused_when_the_export_says_who_plays_and_when_it_names_nobody_there():
    with_field = author(1, "Nell", player=True) + author(2, "Orla", player=False)
    with pytest.raises(ImportRefused, match="--players is not needed"):
        run(blognomic_export([matter(1, "Proposal: Lanterns", "open")], authors=with_field), players=("Nell",))
    with pytest.raises(ImportRefused, match="'Zed'"):
        run(blognomic_export(authors=AUTHORS), players=("Zed",))
    assert not Post.objects.exists() and not User.objects.exists()


def test_the_mapping_file_adds_renames_and_skips_statuses():
    mapping = load_mapping('[wp_status]\npassed = "enacted"\nquarantined = "skip"\n')
    report = run(blognomic_export([matter(20, "Proposal: Oars", "passed", "Passes 4-0")]), mapping=mapping)
    assert post("matter-20").status == "enacted"
    with pytest.raises(MappingError, match=r"\[wp_status\] passed: must be one of"):
        load_mapping('[wp_status]\npassed = "won"\n')
    report = run(blognomic_export([matter(21, "Proposal: Nets", "quarantined")]), mapping=mapping)
    assert "its status 'quarantined' is skipped by the mapping file" in report.skipped[0]


def test_an_unknown_status_is_skipped_naming_the_mapping_file():
    report = run(blognomic_export([matter(20, "Proposal: Oars", "limbo")]))
    assert "its status 'limbo' is none this import knows" in report.skipped[0]
