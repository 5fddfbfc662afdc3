"""Every importer refuses or skips a date no game may carry (``dynasties.clock.storable_moment_problem``),
naming the line, item or field it is on, and writes nothing of it."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command

from blognomic.moving.mediawiki.importing import import_mediawiki
from blognomic.moving.mediawiki.reading import ExportError
from blognomic.moving.wordpress.importing import import_wordpress
from dynasties.clock import EARLIEST_STORED, FIRST_MOMENT, LAST_MOMENT, LATEST_STORED, moment_plus
from ruleset.models import Page, Revision
from tests.factories import T0
from tests.mediawiki.exports import export, page, revision
from tests.properties.archives import attempt, exported_game
from tests.wordpress.wxr import C, P, author
from tests.wordpress.wxr import export as wxr_export
from votes.models import Comment, Post

pytestmark = pytest.mark.django_db


def test_moment_plus_adds_as_usual_inside_the_range():
    assert moment_plus(T0, timedelta(days=7)) == T0 + timedelta(days=7)
    assert moment_plus(T0, -timedelta(days=7)) == T0 - timedelta(days=7)


def test_moment_plus_holds_at_the_end_of_time_rather_than_overflowing():
    """A deadline past the last moment a datetime holds is that moment: it never comes, and nothing raises."""
    end = datetime(9999, 12, 31, 23, tzinfo=UTC)
    assert moment_plus(end, timedelta(days=7)) == LAST_MOMENT
    assert moment_plus(datetime(1, 1, 1, 1, tzinfo=UTC), -timedelta(days=1)) == FIRST_MOMENT


# --- MediaWiki ------------------------------------------------------------------------------------------


def test_a_mediawiki_revision_dated_9999_is_refused_with_its_line_and_nothing_is_written():
    data = export(
        page(
            "Harbour",
            0,
            1,
            revision(1, "2016-07-01T10:00:00Z", "Calm."),
            revision(2, "9999-12-31T00:00:00Z", "Stormy."),
        )
    )
    line = next(n for n, text in enumerate(data.decode().splitlines(), 1) if "<id>2</id>" in text) - 1
    with pytest.raises(ExportError) as refused:
        import_mediawiki(io.BytesIO(data))
    assert str(refused.value).startswith(f"line {line}: <timestamp> is refused: 9999-12-31T00:00:00Z is outside")
    assert not Page.objects.exists() and not Revision.objects.exists()


def test_a_mediawiki_revision_just_inside_the_bounds_is_kept():
    first, last = "1970-01-01T00:00:00Z", (LATEST_STORED - timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    import_mediawiki(io.BytesIO(export(page("Harbour", 0, 1, revision(1, first, "Old."), revision(2, last, "New.")))))
    assert list(Revision.objects.order_by("number").values_list("at", flat=True)) == [
        EARLIEST_STORED,
        LATEST_STORED - timedelta(seconds=1),
    ]


# --- WordPress ------------------------------------------------------------------------------------------


def test_a_wordpress_post_or_comment_dated_9999_is_skipped_with_its_line():
    data = wxr_export(
        [
            P(20, "Proposal: From Beyond", "Lamplighter", "9999-12-31 00:00:00"),
            P(
                21,
                "Proposal: Here and Now",
                "Lamplighter",
                "2016-07-01 00:00:00",
                comments=[
                    C(200, "Lamplighter", "2016-07-01 01:00:00", vote="for", user_id=1),
                    C(201, "Lamplighter", "9999-12-31 00:00:00", text="From the far future.", user_id=1),
                ],
            ),
        ],
        authors=author(1, "Lamplighter", player=True),
    )
    report = import_wordpress(lambda: io.BytesIO(data))
    skipped = "\n".join(report.skipped)
    assert "<item> 20: its wp:post_date_gmt 9999-12-31T00:00:00Z is outside the dates a game may carry" in skipped
    assert "<wp:comment> 201: its wp:comment_date_gmt 9999-12-31T00:00:00Z is outside" in skipped
    assert list(Post.objects.values_list("title", flat=True)) == ["Proposal: Here and Now"]
    assert Comment.objects.count() == 1


# --- archive --------------------------------------------------------------------------------------------


def test_an_archive_date_outside_the_bounds_is_refused_naming_its_field():
    archive = exported_game(T0)
    archive["posts"][0]["posted_at"] = "9999-12-31T00:00:00Z"
    error = attempt(archive)
    assert error is not None and error.path == "posts[0].posted_at"
    assert error.message.startswith("9999-12-31T00:00:00Z is outside the dates a game may carry")
    archive["posts"][0]["posted_at"] = "1969-12-31T23:59:59Z"
    assert attempt(archive).path == "posts[0].posted_at"


# --- history --------------------------------------------------------------------------------------------

HISTORY_HEADER = "title,proposer,postedDate,status,admin,closedDate,lifespan,comments,dynasty\n"


def _history(directory, rows: str, months: str = "2016-07,1,1,1,Keeper\n", lengths: str = '"1","30"\n'):
    directory.mkdir()
    (directory / "fullprophistory.csv").write_text(HISTORY_HEADER + rows)
    (directory / "players.csv").write_text("Month,Active Players,New Players,Proposals,Names\n" + months)
    (directory / "dynasty_lengths.csv").write_text(lengths)
    return directory


def test_history_rows_with_dates_no_game_may_carry_are_skipped_with_their_lines(tmp_path):
    rows = (
        '"Lamps lit","Keeper","25 Jul 2016 03:00:00","Enacted","Keeper","26 Jul 2016 12:00:00",33,1,1\n'
        '"Far future","Keeper","31 Dec 9999 00:00:00","Failed","Keeper","31 Dec 9999 12:00:00",12,1,1\n'
        '"Endless","Keeper","25 Jul 2016 04:00:00","Failed","Keeper","",99999999999,1,1\n'
    )
    directory = _history(tmp_path / "history", rows, months="2016-07,1,1,1,Keeper\n9999-12,1,1,1,Keeper\n")
    out = io.StringIO()
    call_command("import_history", str(directory), stdout=out)
    text = out.getvalue()
    assert "fullprophistory.csv line 3: postedDate 9999-12-31T00:00:00Z is outside the dates" in text
    assert "fullprophistory.csv line 4: closedDate '' is not a date" in text
    assert "players.csv line 3: Month 9999-12-01T00:00:00Z is outside the dates" in text
    assert list(Post.objects.values_list("title", flat=True)) == ["Lamps lit"]
