"""``import_wordpress``: a WordPress export's posts, comments, votes and authors become this site's records."""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from django.core.management import CommandError, call_command

from blognomic.moving.wordpress.importing import import_wordpress
from blognomic.moving.wordpress.mapping import load_mapping
from blognomic.moving.wordpress.models import WordPressItem
from dynasties.models import User
from tests.wordpress.wxr import C, P, author, export
from votes.models import Comment, Post, Resolution

pytestmark = pytest.mark.django_db

AUTHORS = (
    author(1, "Kevan", player=True)
    + author(2, "Bucky", player=True)
    + author(3, "Cato", player=True)
    + author(4, "Watcher", player=False)
)


def blog(extra: list[P] | None = None) -> bytes:
    return export(
        [
            P(
                10,
                "Proposal: Quorum Matters",
                "Kevan",
                "2016-07-01 00:00:00",
                name="quorum-matters",
                meta={"admin": "Enacted 3-0", "admin_user": "Bucky", "flavour": "Yo ho."},
                modified="2016-07-03 00:00:00",
                comments=[
                    C(100, "Kevan", "2016-07-01 01:00:00", vote="for", user_id=1, text="For."),
                    C(101, "Bucky", "2016-07-01 02:00:00", vote="for", user_id=2),
                    C(102, "Cato", "2016-07-01 03:00:00", vote="for", user_id=3, text="Aye", good_flavour="1"),
                    C(103, "Watcher", "2016-07-01 04:00:00", vote="against", user_id=4, text="I cannot vote."),
                    C(104, "A Passer-by", "2016-07-01 05:00:00", parent=103, text="Nor I."),
                ],
            ),
            P(
                11,
                "Call for Judgment: Who Counts",
                "Bucky",
                "2016-07-02 00:00:00",
                category="Call for Judgment",
                nicename="call-for-judgment",
                meta={"admin": "Failed 1-2"},
                comments=[
                    C(105, "Bucky", "2016-07-02 01:00:00", vote="for", user_id=2),
                    C(106, "Kevan", "2016-07-02 02:00:00", vote="against", user_id=1),
                    C(107, "Cato", "2016-07-02 02:30:00", vote="no-vote", user_id=3),
                ],
            ),
            P(12, "Proposal: Still Open", "Cato", "2016-07-05 00:00:00"),
            P(13, "Stormy Weather", "Kevan", "2016-07-06 00:00:00", category="Story Post"),
            P(14, "About", "Kevan", "2016-07-06 00:00:00", type="page"),
            P(15, "Proposal: Unfinished", "Kevan", "2016-07-06 00:00:00", status="draft"),
            P(16, "Proposal: Timeless", "Kevan", None),
            *(extra or []),
        ],
        authors=AUTHORS,
    )


def run(data: bytes, **options):
    return import_wordpress(lambda: io.BytesIO(data), **options)


def test_posts_become_matters_of_their_category_with_their_fields():
    """Item 3: posts with their category, title, body, author and post_date_gmt; meta flavour and admin."""
    run(blog())
    proposal = Post.objects.get(slug="quorum-matters")
    assert (proposal.kind, proposal.title, proposal.author.username, proposal.flavour) == (
        "proposal",
        "Proposal: Quorum Matters",
        "Kevan",
        "Yo ho.",
    )
    assert proposal.posted_at == datetime(2016, 7, 1, tzinfo=UTC)
    assert (proposal.status, proposal.outcome, proposal.admin_note) == ("enacted", "enacted", "Enacted 3-0")
    resolution = proposal.resolutions.get()
    assert (resolution.by.username, resolution.at) == ("Bucky", datetime(2016, 7, 3, tzinfo=UTC))
    cfj = Post.objects.get(title="Call for Judgment: Who Counts")
    assert (cfj.kind, cfj.status, cfj.outcome) == ("cfj", "failed", "failed")
    assert Post.objects.get(title="Proposal: Still Open").status == "pending"
    assert Post.objects.get(title="Stormy Weather").kind == "story"


def test_a_posts_html_is_shown_as_the_blog_showed_it_not_as_tags():
    """WordPress stores posts and comments as HTML with its line breaks: they become the site's Markdown, so
    the post reads as it did on the blog (emphasis, links, paragraphs), with no tag shown as text."""
    body = 'Add a rule:\n\nEach <em>Pirate</em> has a <a href="https://example.org/ship">Ship</a>.\nOne only.'
    run(
        export(
            [
                P(
                    20,
                    "Proposal: Ships",
                    "Kevan",
                    "2016-07-01 00:00:00",
                    name="ships",
                    body=body,
                    comments=[
                        C(
                            200,
                            "Bucky",
                            "2016-07-01 01:00:00",
                            vote="for",
                            user_id=2,
                            text="<strong>Yes</strong>, 2*3 ships",
                        )
                    ],
                )
            ],
            authors=AUTHORS,
        )
    )
    post = Post.objects.get(slug="ships")
    assert "<em>Pirate</em>" in post.body_html and '<a href="https://example.org/ship"' in post.body_html
    assert "&lt;em&gt;" not in post.body_html and post.body_html.count("<p>") == 2
    comment = Comment.objects.get(post=post)
    assert "<strong>Yes</strong>" in comment.text_html and "2*3 ships" in comment.text_html


def test_votes_come_from_comment_meta_and_only_from_players():
    """Item 3: comment meta vote = for/against/deferential/veto/no-vote; a non-player's vote is not kept."""
    report = run(blog())
    icons = dict(Comment.objects.filter(post__slug="quorum-matters").values_list("author__username", "icon"))
    assert icons == {"Kevan": "for", "Bucky": "for", "Cato": "for", "Watcher": None}
    assert Comment.objects.get(author__username="Cato", post__kind="cfj").icon is None  # no-vote
    assert any("'Watcher' is not a player" in note for note in report.notes)


def test_replies_are_kept_and_guest_comments_are_counted_not_kept():
    """Item 3: threaded replies (kept in time order, the reply's parent recorded); a guest's comment
    (comment_user_id 0) belongs to no account here, so it is not kept, and the report counts it."""
    report = run(
        blog(
            [
                P(
                    17,
                    "Proposal: Guests",
                    "Cato",
                    "2016-07-07 00:00:00",
                    comments=[
                        C(170, "Kevan", "2016-07-07 01:00:00", vote="for", text="Signed with a player's name."),
                        C(171, "Bucky", "2016-07-07 02:00:00", vote="for", user_id=2, parent=170),
                    ],
                )
            ]
        )
    )
    reply = WordPressItem.objects.get(kind="comment", source_id=171)
    assert reply.reply_to == 170 and reply.comment.author.username == "Bucky"
    assert WordPressItem.objects.get(kind="comment", source_id=102).good_flavour
    assert not WordPressItem.objects.filter(source_id__in=[104, 170]).exists()
    assert list(Post.objects.get(slug="wp-17").comments.values_list("author__username", flat=True)) == ["Bucky"]
    assert not User.objects.filter(username="A Passer-by").exists()
    assert report.guest_comments == 2 and any("Guest comments not kept: 2" in line for line in report.lines())


def test_accounts_come_with_no_usable_password_and_players_from_their_first_activity():
    """Item 4: authors become accounts with no usable password; is_player makes a player from their first post
    or comment; the others are not players."""
    run(blog())
    kevan, cato = User.objects.get(username="Kevan"), User.objects.get(username="Cato")
    assert not kevan.has_usable_password()
    assert kevan.joined_at == datetime(2016, 7, 1, tzinfo=UTC)
    assert cato.joined_at == datetime(2016, 7, 1, 3, tzinfo=UTC)
    assert User.objects.get(username="Watcher").joined_at is None


def test_skipped_items_are_reported_with_their_reason_and_line():
    """Item 5/7: pages, drafts and a post without a date are skipped, each named with its line and reason."""
    data = blog()
    report = run(data)
    lines = data.decode().splitlines()
    skipped = "\n".join(report.skipped)
    assert "<item> 14: a page of WordPress's, not a post" in skipped
    assert "<item> 15: its status is 'draft' (a draft)" in skipped
    timeless = [s for s in report.skipped if "<item> 16" in s][0]
    line = int(timeless.split(",")[0].removeprefix("line "))
    assert lines[line - 1].strip() == "<item>" and "has no wp:post_date_gmt" in timeless
    assert not Post.objects.filter(title__in=["About", "Proposal: Unfinished", "Proposal: Timeless"]).exists()


def test_each_resolved_matter_gets_the_engines_tally_and_disagreements_are_reported():
    """Item 3: every matter's tally is computed by the engine; where the admin's recorded result differs, the
    report lists it, and the recorded status is kept."""
    report = run(blog())
    tally = Resolution.objects.get(post__slug="quorum-matters").tally
    assert (tally["for"], tally["against"], tally["votes"]) == (3, 0, {"Bucky": "for", "Cato": "for", "Kevan": "for"})
    assert not any("quorum-matters" in line for line in report.disagreements)
    cfj = [line for line in report.disagreements if "Who Counts" in line]
    assert cfj and "the note gives 1-2, the engine counts 1-1" in cfj[0]
    assert Post.objects.get(title="Call for Judgment: Who Counts").status == "failed"


def test_importing_the_same_file_twice_changes_nothing():
    """Item 5: "Importing the same file twice changes nothing"."""
    run(blog())
    counts = (User.objects.count(), Post.objects.count(), Comment.objects.count(), Resolution.objects.count())
    report = run(blog())
    assert (User.objects.count(), Post.objects.count(), Comment.objects.count(), Resolution.objects.count()) == counts
    assert not report.added.get("posts") and not report.added.get("comments")
    assert report.present["posts"] == 4


def test_a_newer_export_adds_only_what_is_new():
    """Item 5: "importing a newer export adds only what is new (new ... posts, comments)"."""
    run(blog())
    newer = blog(
        [
            P(
                20,
                "Proposal: Newer",
                "Bucky",
                "2016-07-08 00:00:00",
                comments=[C(200, "Kevan", "2016-07-08 01:00:00", vote="against", user_id=1)],
            )
        ]
    )
    report = run(newer)
    assert report.added["proposals"] == 1 and report.added["comments"] == 1
    assert Post.objects.get(title="Proposal: Newer").comments.get().icon == "against"
    assert Post.objects.count() == 5


def test_a_new_comment_on_a_post_imported_before_is_added():
    """Item 5: a newer export's new comment on an old post is added, once."""
    run(blog())
    later = export(
        [
            P(
                12,
                "Proposal: Still Open",
                "Cato",
                "2016-07-05 00:00:00",
                comments=[C(300, "Bucky", "2016-07-05 01:00:00", vote="for", user_id=2)],
            )
        ],
        authors=AUTHORS,
    )
    run(later)
    run(later)
    assert list(Post.objects.get(title="Proposal: Still Open").comments.values_list("icon", flat=True)) == ["for"]


def test_a_dry_run_writes_nothing_and_reports():
    """Item 5: "--dry-run writes nothing and prints the report"."""
    report = run(blog(), dry_run=True)
    assert not Post.objects.exists() and not User.objects.exists() and not WordPressItem.objects.exists()
    assert report.added["proposals"] == 2 and report.added["accounts"] == 4
    assert report.disagreements and report.skipped


def test_a_bad_item_late_in_the_file_leaves_nothing_half_imported():
    """Item 7: nothing half-imported: XML that breaks after many posts refuses the whole file."""
    data = blog([P(30, "Proposal: Late", "KEVAN", "2016-07-09 00:00:00")]).replace(
        b"</channel>", b"<item><title>x</title></channel>"
    )
    with pytest.raises(Exception, match="not well-formed"):
        run(data)
    assert not Post.objects.exists() and not User.objects.exists()


def test_the_status_mapping_can_be_changed_by_a_settings_file():
    """Item 3: the status "however the export carries it ... overridable by a small settings file"."""
    mapping = load_mapping('[status]\nenacted = ["Passed Muster"]\n')
    run(blog([P(40, "Proposal: Tagged", "Kevan", "2016-07-09 00:00:00", tags=("Passed Muster",))]), mapping=mapping)
    assert Post.objects.get(title="Proposal: Tagged").status == "enacted"


def test_the_command_prints_the_report(tmp_path):
    path = tmp_path / "blog.xml"
    path.write_bytes(blog())
    out = io.StringIO()
    call_command("import_wordpress", str(path), "--dry-run", stdout=out)
    text = out.getvalue()
    assert "WXR 1.2. Would import: 4 accounts" in text and "Dry run: nothing was written." in text
    assert not Post.objects.exists()


def test_the_command_refuses_a_bad_file_naming_its_line(tmp_path):
    path = tmp_path / "blog.xml"
    path.write_bytes(blog().replace(b"<wp:wxr_version>1.2<", b"<wp:wxr_version>9.9<"))
    with pytest.raises(CommandError, match=r"Nothing was imported\. .*line 14, <wp:wxr_version>"):
        call_command("import_wordpress", str(path))


def test_the_kept_tally_is_the_one_the_tally_command_reports():
    """The import counts each resolution's tally as ``tally POST --at`` would (same votes, quorum, verdict)."""
    from votes.judging import tally_report

    run(blog())
    for resolution in Resolution.objects.select_related("post"):
        report = tally_report(resolution.post, now=resolution.at)
        kept = resolution.tally
        assert (kept["for"], kept["against"], kept["quorum"], kept["votes"], kept["vetoed"]) == (
            report["for"],
            report["against"],
            report["quorum"],
            report["votes"],
            report["vetoed"],
        )
