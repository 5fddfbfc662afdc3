"""``import_history``: the real figures become an archive; mojibake is repaired and broken rows are counted."""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from blognomic.moving.history.loading import ALREADY_THERE, BAD_SLICE, DEFAULT_DIRECTORY
from blognomic.moving.history.reading import decode_line, parse_moment, repair_mojibake
from dynasties.models import Dynasty, User
from votes.models import Comment, Post, Resolution

HISTORY = Path(settings.BASE_DIR) / DEFAULT_DIRECTORY
needs_history = pytest.mark.skipif(
    not (HISTORY / "fullprophistory.csv").is_file(), reason="the real history's figures live beside the project"
)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("import_history", *args, stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("garbled", "repaired"),
    [
        ("DÃ©jÃ\xa0 Vu", "Déjà Vu"),
        ("Iâ€™m a Star", "I’m a Star"),
        ("SchrÃ¶dinger’s Corpse", "Schrödinger’s Corpse"),  # a garbled run beside a real ’
        ("Can someone give me an â€œAmbienâ€\x9d?", "Can someone give me an “Ambien”?"),  # 0x9D: Latin-1's
        ("×’", "ג"),
        ("quatre: Û³ (now legal)", "quatre: ۳ (now legal)"),
        ("DÃƒÂ©jÃƒÂ\xa0 garbled twice", "Déjà garbled twice"),
        ("Plain text… and “quotes”", "Plain text… and “quotes”"),
        ("Ã followed by a space", "Ã followed by a space"),  # not a UTF-8 sequence: left as it is
    ],
)
def test_mojibake_is_repaired_where_it_decodes_back(garbled, repaired):
    assert repair_mojibake(garbled) == repaired


def test_bytes_that_are_not_utf8_are_read_as_windows_1252_or_counted():
    assert decode_line("Déjà vu".encode()) == ("Déjà vu", 0)
    assert decode_line(b"caf\xe9 \x93ok\x94") == ("café “ok”", 0)
    assert decode_line(b"bad \x81 byte") == ("bad \ufffd byte", 1)


def test_the_figures_dates_are_read_with_their_odd_spacing():
    assert parse_moment("03 Aug  2005 05:42:56").isoformat() == "2005-08-03T05:42:56+00:00"
    assert parse_moment("04 Aug 2005  04:16:57").isoformat() == "2005-08-04T04:16:57+00:00"
    assert parse_moment("31 Feb 2005 00:00:00") is None


def write_history(directory: Path, proposals: bytes) -> Path:
    directory.mkdir(exist_ok=True)
    (directory / "fullprophistory.csv").write_bytes(proposals)
    (directory / "players.csv").write_bytes(
        "Month,Active Players,New Players,Proposals,Names\n"
        '2016-07,4,4,3,"Bucky, RaichuKFM, Ragnar DanneskjÃ¶ld, Kevan"\n'
        "not a month,1,1,1,Nobody\n".encode()
    )
    (directory / "dynasty_lengths.csv").write_bytes(b'"141","20"\n"142","30"\n"oops"\n')
    return directory


HEADER = b"title,proposer,postedDate,status,admin,closedDate,lifespan,comments,dynasty\n"
CRAFTED = (
    HEADER
    + (
        '"DÃ©jÃ\xa0 Vu","Bucky","25 Jul  2016 03:32:29","Enacted","Kevan","26 Jul 2016  12:00:00",32,3,142\n'
        '"Iâ€™m a Star","RaichuKFM","25 Jul  2016 05:00:00","Failed","?","26 Jul 2016  13:00:00",32,2,142\n'
        '"A title with a broken quote,"Bucky","25 Jul  2016 06:00:00","Failed","Kevan",'
        '"26 Jul 2016  14:00:00",32,1,142\n'
        '"Too few fields","Bucky","25 Jul  2016 07:00:00"\n'
        '"A bad date","Bucky","32 Jul  2016 07:00:00","Failed","Kevan","26 Jul 2016  14:00:00",32,1,142\n'
        '"An unknown status","Bucky","25 Jul  2016 08:00:00","Pondered","Kevan","26 Jul 2016  14:00:00",32,1,142\n'
    ).encode()
    + (
        b'"Caf\xe9 and a lost \x81 byte","Ragnar Danneskj\xc3\x83\xc2\xb6ld","25 Jul  2016 09:00:00","Illegal",'
        b'"Kevan","26 Jul 2016  15:00:00",30,2,142\n'
        b'"Still open","Kevan","26 Jul  2016 09:00:00","Open","-","",-1,4,142\n'
    )
)


def test_a_crafted_file_with_mojibake_and_broken_lines_imports_the_rest_and_counts_the_skips(db, tmp_path):
    """Four unreadable proposal rows and two other bad rows are skipped and reported; the four good rows load."""
    out = run(str(write_history(tmp_path / "history", CRAFTED)))
    assert "Rows skipped because they could not be read: 6." in out
    assert "fullprophistory.csv line 4: a quoted field is never closed" in out
    assert "fullprophistory.csv line 5: has 3 fields, not 9" in out
    assert "postedDate '32 Jul  2016 07:00:00' is not a date" in out
    assert "status 'Pondered' is not one of" in out
    assert "players.csv line 3: Month 'not a month' is not a month" in out
    assert "dynasty_lengths.csv line 3" in out
    assert "Bytes that were not text (shown as \ufffd): 1 on 1 lines." in out
    titles = set(Post.objects.values_list("title", flat=True))
    assert titles == {"Déjà Vu", "I’m a Star", "Café and a lost \ufffd byte", "Still open"}
    assert User.objects.filter(username="Ragnar Danneskjöld").exists()
    assert Post.objects.get(title="Déjà Vu").comments.count() == 3
    assert Post.objects.get(title="Still open").status == "pending"
    illegal = Post.objects.get(title__startswith="Café")
    assert (illegal.status, illegal.outcome) == ("failed", "self-killed")
    first = illegal.comments.order_by("at", "pk").first()
    assert (first.author.username, first.icon) == ("Ragnar Danneskjöld", "against")
    assert Resolution.objects.get(post__title="I’m a Star").by is None  # the admin was "?"


def test_a_directory_without_the_files_is_a_clear_error(db, tmp_path):
    with pytest.raises(CommandError, match="fullprophistory.csv is missing"):
        run(str(tmp_path))
    with pytest.raises(CommandError, match="is not a directory"):
        run(str(tmp_path / "nowhere"))


def test_a_file_that_is_not_the_table_is_a_clear_error(db, tmp_path):
    directory = write_history(tmp_path / "history", b"just,some,columns\n1,2,3\n")
    with pytest.raises(CommandError, match="has no column title, proposer"):
        run(str(directory))
    assert not Post.objects.exists()


def test_a_bad_slice_is_refused(db):
    with pytest.raises(CommandError) as error:
        run("--dynasties", "three")
    assert str(error.value) == BAD_SLICE.format(value="three")
    with pytest.raises(CommandError, match="--limit must be at least 1"):
        run("--limit", "0")


def real_rows(numbers: set[int]) -> list[dict]:
    with (HISTORY / "fullprophistory.csv").open(encoding="utf-8", newline="") as handle:
        return [row for row in csv.DictReader(handle) if int(row["dynasty"]) in numbers]


@needs_history
def test_a_slice_of_the_real_history_keeps_its_figures(db):
    """Dynasties 141 and 142: every proposal, its status and its comment count as the figures give them."""
    out = run("--dynasties", "141-142")
    rows = real_rows({141, 142})
    assert f"{len(rows)} proposals" in out
    assert Post.objects.count() == len(rows)
    assert Comment.objects.count() == sum(int(row["comments"]) for row in rows)
    statuses = Counter(row["status"] for row in rows)
    assert Post.objects.filter(status="enacted").count() == statuses["Enacted"]
    assert Post.objects.filter(outcome="vetoed").count() == statuses["Vetoed"]
    assert Post.objects.filter(status="failed").count() == (
        statuses["Failed"] + statuses["Vetoed"] + statuses["Illegal"]
    )
    assert sorted(Dynasty.objects.values_list("number", flat=True)) == [141, 142]
    per_author = Counter(Post.objects.values_list("author__username", flat=True))
    assert per_author == Counter(row["proposer"] for row in rows)
    lengths = dict(csv.reader((HISTORY / "dynasty_lengths.csv").open()))
    for dynasty in Dynasty.objects.all():
        assert (dynasty.ended_at - dynasty.started_at).days == int(lengths[str(dynasty.number)])


@needs_history
def test_the_votes_agree_with_each_recorded_outcome(db):
    run("--dynasties", "2")
    votes: dict[int, dict[int, str]] = defaultdict(dict)
    for post, author, icon in (
        Comment.objects.filter(icon__isnull=False).order_by("at", "pk").values_list("post", "author", "icon")
    ):
        votes[post][author] = icon
    checked = 0
    for post in Post.objects.exclude(status="pending"):
        tally = Counter(votes[post.pk].values())
        if post.outcome == "enacted":
            assert tally["for"] > tally["against"], post.title
        elif post.outcome in ("failed", "self-killed"):
            assert tally["against"] >= tally["for"], post.title
        if post.outcome == "self-killed" and votes[post.pk]:
            assert votes[post.pk].get(post.author_id) == "against", post.title
        checked += 1
    assert checked > 100


@needs_history
def test_the_monthly_players_of_the_figures_are_the_players_who_wrote_that_month(db):
    """Every player the figures list for August 2024 posts or comments that month (within dynasty 227)."""
    run("--dynasties", "226-227")
    with (HISTORY / "players.csv").open(encoding="utf-8", newline="") as handle:
        listed = next(row for row in csv.DictReader(handle) if row["Month"] == "2024-08")
    names = {name.strip() for name in listed["Names"].split(",")}
    wrote = set(Comment.objects.filter(at__year=2024, at__month=8).values_list("author__username", flat=True))
    wrote |= set(
        Post.objects.filter(posted_at__year=2024, posted_at__month=8).values_list("author__username", flat=True)
    )
    assert wrote == names


@needs_history
def test_limit_takes_the_latest_proposals_and_a_second_import_is_refused(db):
    out = run("--limit", "10")
    assert "10 proposals" in out
    latest = real_rows({232})[-10:]
    assert set(Post.objects.values_list("title", flat=True)) == {row["title"] for row in latest}
    with pytest.raises(CommandError) as error:
        run("--limit", "10")
    assert str(error.value) == ALREADY_THERE.format(numbers="232")
    assert Post.objects.count() == 10
