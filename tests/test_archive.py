"""The archive format through ``import_archive`` and ``export_archive`` (DESIGN.md, "Archive format").

Import is atomic ("on any bad field it exits non-zero, names the field ... and writes nothing") and
"importing an export gives back the same game".
"""

from __future__ import annotations

import copy
import io
import json
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import CommandError, call_command

from blognomic.moving.archive import ArchiveError, export_archive, import_archive
from blognomic.moving.archive import importer as archive_importer
from dynasties.models import Absence, Dynasty, Game, User
from ruleset.models import Page, Revision
from tests.factories import make_proposal, make_table, vote
from votes.models import Comment, Post, Resolution
from votes.services import matter_resolve

pytestmark = pytest.mark.django_db

MOJIBAKE = "Itâ€™s â€œfineâ€\x9d â€¦ cafÃ©"
GAME_MODELS = (User, Absence, Dynasty, Post, Comment, Resolution, Page, Revision, Game)


def game_archive() -> dict:
    """A small 2016 game: seven players (one idle, one gone, one once idle), a spectator, two dynasties."""
    return {
        "format": "blognomic-archive",
        "version": 1,
        "profile": "2016",
        "players": [
            {"name": "Kevan", "admin": True, "idle": False, "joined_at": "2016-06-01T00:00:00Z"},
            {"name": "Seventy-Fifth Trombone", "admin": False, "idle": False, "joined_at": "2016-06-02T10:00:00Z"},
            {
                "name": "Prince Anduril",
                "admin": True,
                "idle": False,
                "joined_at": "2016-06-03T00:00:00Z",
                "past_absences": [
                    {"kind": "idle", "from": "2016-06-10T00:00:00Z", "until": "2016-06-20T00:00:00Z"},
                ],
            },
            {"name": "The Duke of Waltham", "admin": False, "idle": False, "joined_at": "2016-06-04T00:00:00Z"},
            {"name": "ais523", "admin": False, "idle": False, "joined_at": "2016-06-05T00:00:00Z"},
            {
                "name": "Sleepy O'Brien",
                "admin": False,
                "idle": True,
                "joined_at": "2016-06-06T00:00:00Z",
                "idle_since": "2016-07-01T00:00:00Z",
            },
            {
                "name": "Gone Fishing",
                "admin": False,
                "idle": False,
                "joined_at": "2016-06-07T00:00:00Z",
                "left_at": "2016-07-10T00:00:00Z",
            },
        ],
        "dynasties": [
            {
                "number": 141,
                "emperor": None,
                "player_term": "Player",
                "emperor_term": "Emperor",
                "theme": "",
                "started_at": "2016-06-01T00:00:00Z",
                "ended_at": "2016-07-01T00:00:00Z",
            },
            {
                "number": 142,
                "emperor": "Kevan",
                "player_term": "Hunter",
                "player_term_plural": "Hunting Party",
                "emperor_term": "Pirate",
                "theme": "Pirates",
                "started_at": "2016-07-01T00:00:00Z",
                "ended_at": None,
            },
        ],
        "posts": [
            {
                "id": "quorum_failures",
                "kind": "proposal",
                "title": "Proposal: Quorum Failures",
                "author": "Seventy-Fifth Trombone",
                "posted_at": "2016-07-25T03:32:29Z",
                "dynasty": 142,
                "body": "Add a rule about **Quorum**.",
                "flavour": "",
                "status": "pending",
                "resolution": None,
                "comments": [
                    {"author": "ais523", "at": "2016-07-25T11:32:44Z", "icon": "for", "text": "Looks fine."},
                    {
                        "author": "A Passing Reader",
                        "at": "2016-07-25T12:00:00Z",
                        "icon": "for",
                        "text": "I would vote for this if I could.",
                    },
                    {"author": "Prince Anduril", "at": "2016-07-25T13:00:00Z", "icon": "against", "text": ""},
                ],
            },
            {
                "id": "treasure_maps",
                "kind": "proposal",
                "title": "Proposal: Treasure Maps",
                "author": "Prince Anduril",
                "posted_at": "2016-07-20T09:00:00Z",
                "dynasty": 142,
                "body": "Each Hunter has a Map.",
                "flavour": "Arr.",
                "status": "enacted",
                "resolution": {
                    "by": "Kevan",
                    "at": "2016-07-21T10:00:00Z",
                    "outcome": "enacted",
                    "note": "Enacted 4-0 (Quorum 3) by Kevan.",
                    "tally": {"for": 4, "against": 0, "quorum": 3},
                },
                "comments": [
                    {"author": "Kevan", "at": "2016-07-20T10:00:00Z", "icon": "for", "text": "Yes."},
                    {"author": "ais523", "at": "2016-07-20T11:00:00Z", "icon": "for", "text": ""},
                    {"author": "The Duke of Waltham", "at": "2016-07-20T12:00:00Z", "icon": "for", "text": "Aye"},
                ],
            },
            {
                "id": "walk_the_plank",
                "kind": "proposal",
                "title": "Proposal: Walk the Plank",
                "author": "ais523",
                "posted_at": "2016-07-21T09:00:00Z",
                "dynasty": 142,
                "body": "Oops.",
                "flavour": "",
                "status": "failed",
                "resolution": {
                    "by": "Prince Anduril",
                    "at": "2016-07-21T15:00:00Z",
                    "outcome": "self-killed",
                    "note": "Failed by Prince Anduril: self-killed.",
                },
                "comments": [
                    {
                        "author": "ais523",
                        "at": "2016-07-21T09:30:00Z",
                        "icon": "against",
                        "text": "Withdrawn, this is broken.",
                    },
                ],
            },
            {
                "id": "cfj_map_counts",
                "kind": "cfj",
                "title": "Call for Judgement: Map Counts",
                "author": "The Duke of Waltham",
                "posted_at": "2016-07-22T09:00:00Z",
                "dynasty": 142,
                "body": "The Maps were miscounted.",
                "flavour": "",
                "status": "pending",
                "resolution": None,
                "comments": [{"author": "Kevan", "at": "2016-07-22T10:00:00Z", "icon": "for", "text": ""}],
            },
            {
                "id": "welcome_aboard",
                "kind": "story",
                "title": "Welcome aboard",
                "author": "Kevan",
                "posted_at": "2016-07-01T00:05:00Z",
                "edited_at": "2016-07-01T00:07:00Z",
                "dynasty": 142,
                "body": "The Pirate welcomes you.",
                "flavour": "",
                "status": None,
                "resolution": None,
                "sticky": True,
                "comments": [
                    {
                        "author": "A Passing Reader",
                        "at": "2016-07-01T08:00:00Z",
                        "icon": None,
                        "text": "Good luck, all.",
                    }
                ],
            },
        ],
        "wiki": {
            "pages": [
                {
                    "title": "Ruleset",
                    "kind": "ruleset",
                    "protected": True,
                    "revisions": [
                        {
                            "at": "2016-07-01T00:00:00Z",
                            "author": "Kevan",
                            "summary": "New dynasty",
                            "text": "1. Hunters\n",
                            "post": None,
                        },
                        {
                            "at": "2016-07-21T10:00:00Z",
                            "author": "Kevan",
                            "summary": "Treasure Maps",
                            "text": "1. Hunters\n2. Maps\n",
                            "post": "treasure_maps",
                        },
                        {
                            "at": "2016-07-22T00:00:00Z",
                            "author": None,
                            "summary": "Typo",
                            "text": "1. Hunters\n2. Treasure Maps\n",
                            "post": None,
                        },
                    ],
                },
                {
                    "title": "Gamestate Notes",
                    "revisions": [
                        {"at": "2016-07-02T00:00:00Z", "author": "ais523", "summary": "", "text": "Nothing yet."},
                    ],
                },
            ],
        },
    }


def write_archive(tmp_path, data: dict, name: str = "archive.json", *, raw_utf8: bool = True):
    """Write ``data`` as UTF-8 JSON; ``raw_utf8=False`` escapes non-ASCII (needed for lone surrogates)."""
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=not raw_utf8), encoding="utf-8")
    return path


def import_file(path) -> str:
    out = io.StringIO()
    call_command("import_archive", str(path), stdout=out)
    return out.getvalue()


def export_file(tmp_path, name: str = "export.json") -> dict:
    path = tmp_path / name
    call_command("export_archive", str(path), stderr=io.StringIO())
    return json.loads(path.read_text(encoding="utf-8"))


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in GAME_MODELS}


def empty_the_game() -> None:
    """Delete every row an import writes, children first (users are protected by their posts)."""
    Page.objects.update(current=None)
    for model in (Revision, Page, Comment, Resolution, Post, Absence, Dynasty, User, Game):
        model.objects.all().delete()
    assert not any(row_counts().values())


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


# --- What an import writes --------------------------------------------------------------------------


def test_import_creates_players_whose_names_hold_spaces_and_punctuation(tmp_path):
    """Every player is a user named exactly as in the archive, with their join time and admin flag."""
    import_file(write_archive(tmp_path, game_archive()))

    trombone = User.objects.get(username="Seventy-Fifth Trombone")
    assert trombone.joined_at == utc("2016-06-02T10:00:00")
    assert not trombone.is_admin
    assert User.objects.get(username="Prince Anduril").is_admin
    assert User.objects.get(username="Sleepy O'Brien").is_player
    assert set(User.objects.players().values_list("username", flat=True)) == {
        "Kevan",
        "Seventy-Fifth Trombone",
        "Prince Anduril",
        "The Duke of Waltham",
        "ais523",
        "Sleepy O'Brien",
        "Gone Fishing",
    }


def test_import_records_an_idle_player_as_idle_since_the_given_time(tmp_path):
    """An idle player has an open idle span from idle_since, so they are not active after it."""
    import_file(write_archive(tmp_path, game_archive()))

    sleepy = User.objects.get(username="Sleepy O'Brien")
    absence = Absence.objects.get(user=sleepy)
    assert (absence.kind, absence.started_at, absence.ended_at) == ("idle", utc("2016-07-01T00:00:00"), None)
    assert absence.dynasty.number == 142
    assert not User.objects.active_at(utc("2016-07-25T00:00:00")).filter(pk=sleepy.pk).exists()
    assert User.objects.active_at(utc("2016-06-20T00:00:00")).filter(pk=sleepy.pk).exists()


def test_import_records_a_player_who_left_as_gone_from_then(tmp_path):
    """A player with left_at has an open "left" span: active before it, not after."""
    import_file(write_archive(tmp_path, game_archive()))

    gone = Absence.objects.get(user__username="Gone Fishing")
    assert (gone.kind, gone.started_at, gone.ended_at) == ("left", utc("2016-07-10T00:00:00"), None)
    assert User.objects.active_at(utc("2016-07-09T00:00:00")).filter(username="Gone Fishing").exists()
    assert not User.objects.active_at(utc("2016-07-11T00:00:00")).filter(username="Gone Fishing").exists()


def test_import_records_past_absences_so_past_activity_is_known(tmp_path):
    """A closed idle span makes the player inactive within it and active again after it."""
    import_file(write_archive(tmp_path, game_archive()))

    active = User.objects.active_at
    assert not active(utc("2016-06-15T00:00:00")).filter(username="Prince Anduril").exists()
    assert active(utc("2016-06-25T00:00:00")).filter(username="Prince Anduril").exists()


def test_import_keeps_a_commenter_outside_players_as_a_non_player_account(tmp_path):
    """ "A comment whose author is not in players is kept as a comment by a non-player account"."""
    import_file(write_archive(tmp_path, game_archive()))

    reader = User.objects.get(username="A Passing Reader")
    assert reader.joined_at is None and not reader.is_player
    assert not reader.has_usable_password()
    assert Comment.objects.filter(author=reader).count() == 2


def test_import_creates_the_dynasty_with_its_emperor_and_terms(tmp_path):
    """The dynasty keeps its number, Emperor, the words for players and Emperor, theme and dates."""
    import_file(write_archive(tmp_path, game_archive()))

    dynasty = Dynasty.objects.get(number=142)
    assert dynasty.emperor.username == "Kevan"
    assert (dynasty.player_term, dynasty.emperor_term, dynasty.theme) == ("Hunter", "Pirate", "Pirates")
    assert dynasty.players_term == "Hunting Party"
    assert dynasty.started_at == utc("2016-07-01T00:00:00") and dynasty.ended_at is None
    metadynasty = Dynasty.objects.get(number=141)
    assert metadynasty.emperor is None and metadynasty.name == "Metadynasty 141"
    assert metadynasty.ended_at == utc("2016-07-01T00:00:00")
    assert Game.load().profile == "2016"


def test_import_creates_each_post_with_its_kind_status_and_comments(tmp_path):
    """Posts keep their id, kind, status and comments with their icons, in order."""
    output = import_file(write_archive(tmp_path, game_archive()))

    assert "Imported 7 players, 2 dynasties, 5 posts, 9 comments, 2 pages, 4 revisions." in output
    pending = Post.objects.get(slug="quorum_failures")
    assert (pending.kind, pending.status, pending.outcome) == ("proposal", "pending", "")
    assert pending.author.username == "Seventy-Fifth Trombone"
    assert pending.dynasty.number == 142
    assert "<strong>Quorum</strong>" in pending.body_html
    assert list(pending.comments.order_by("at").values_list("author__username", "icon")) == [
        ("ais523", "for"),
        ("A Passing Reader", "for"),
        ("Prince Anduril", "against"),
    ]
    cfj = Post.objects.get(slug="cfj_map_counts")
    assert (cfj.kind, cfj.status) == ("cfj", "pending")
    story = Post.objects.get(slug="welcome_aboard")
    assert (story.kind, story.status, story.sticky) == ("story", "", True)
    assert story.edited_at == utc("2016-07-01T00:07:00")
    assert story.comments.get().icon is None


def test_import_records_the_resolution_of_an_enacted_proposal(tmp_path):
    """An enacted proposal gets a Resolution with who, when and the note, and its admin field."""
    import_file(write_archive(tmp_path, game_archive()))

    enacted = Post.objects.get(slug="treasure_maps")
    assert (enacted.status, enacted.outcome) == ("enacted", "enacted")
    assert enacted.admin_note == "Enacted 4-0 (Quorum 3) by Kevan."
    resolution = enacted.resolutions.get()
    assert (resolution.outcome, resolution.by.username, resolution.at) == (
        "enacted",
        "Kevan",
        utc("2016-07-21T10:00:00"),
    )
    assert resolution.tally == {"for": 4, "against": 0, "quorum": 3}


def test_import_records_a_self_killed_proposal_as_failed(tmp_path):
    """A self-killed proposal is failed, with the outcome self-killed on the post and its resolution."""
    import_file(write_archive(tmp_path, game_archive()))

    killed = Post.objects.get(slug="walk_the_plank")
    assert (killed.status, killed.outcome) == ("failed", "self-killed")
    assert killed.display_status == "Illegal (self-killed)"
    assert killed.resolutions.get().by.username == "Prince Anduril"
    assert not Post.objects.get(slug="quorum_failures").resolutions.exists()


def test_import_creates_wiki_pages_with_numbered_revisions(tmp_path):
    """Revisions are numbered 1, 2, 3 in archive order; the last is current; one points at its proposal."""
    import_file(write_archive(tmp_path, game_archive()))

    ruleset = Page.objects.get(title="Ruleset")
    assert (ruleset.slug, ruleset.kind, ruleset.protected) == ("ruleset", "ruleset", True)
    revisions = list(ruleset.revisions.order_by("number"))
    assert [r.number for r in revisions] == [1, 2, 3]
    assert ruleset.current == revisions[-1]
    assert ruleset.current.text == "1. Hunters\n2. Treasure Maps\n"
    assert revisions[1].post.slug == "treasure_maps"
    assert revisions[2].author is None
    assert revisions[0].size == len("1. Hunters\n")
    notes = Page.objects.get(title="Gamestate Notes")
    assert (notes.slug, notes.kind, notes.current.number) == ("gamestate-notes", "page", 1)


def test_import_of_a_partial_archive_may_refer_to_a_dynasty_and_posts_already_stored(tmp_path):
    """A later archive with only posts may name a dynasty and link revisions to posts already imported."""
    import_archive(game_archive())
    later = {
        "format": "blognomic-archive",
        "version": 1,
        "posts": [
            {
                "id": "more_maps",
                "kind": "proposal",
                "title": "Proposal: More Maps",
                "author": "Kevan",
                "posted_at": "2016-07-26T00:00:00Z",
                "dynasty": 142,
                "status": "pending",
            }
        ],
        "wiki": {
            "pages": [
                {
                    "title": "Ruleset",
                    "revisions": [
                        {
                            "at": "2016-07-26T01:00:00Z",
                            "author": "Kevan",
                            "text": "1. Hunters\n",
                            "post": "walk_the_plank",
                        },
                    ],
                }
            ]
        },
    }
    import_archive(later)

    assert Post.objects.get(slug="more_maps").dynasty.number == 142
    ruleset = Page.objects.get(title="Ruleset")
    assert ruleset.current.number == 4
    assert ruleset.current.post.slug == "walk_the_plank"


# --- Round trip --------------------------------------------------------------------------------------


def test_export_then_import_into_an_empty_database_gives_the_same_export(tmp_path):
    """ "Importing an export gives back the same game": export, empty, import the export, export again."""
    import_file(write_archive(tmp_path, game_archive()))
    first = export_file(tmp_path, "first.json")

    empty_the_game()
    import_file(tmp_path / "first.json")
    second = export_file(tmp_path, "second.json")

    assert second == first
    assert (tmp_path / "first.json").read_bytes() == (tmp_path / "second.json").read_bytes()


def test_a_game_played_through_the_services_survives_the_round_trip(tmp_path, t0):
    """Votes, an enactment with its recorded tally and an idle spell made by the services round-trip too."""
    players = make_table(9, start=t0)
    proposal = make_proposal(players[2], at=t0, title="Proposal: Round Trip")
    for player in players[3:7]:
        vote(proposal, player, "for", at=t0 + timedelta(hours=1), text="Sure.")
    vote(proposal, players[7], "against", at=t0 + timedelta(hours=2))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 + timedelta(hours=13))
    Absence.objects.create(
        user=players[8], kind=Absence.IDLE, started_at=t0 + timedelta(hours=3), ended_at=t0 + timedelta(hours=20)
    )
    first = export_file(tmp_path, "first.json")

    empty_the_game()
    import_file(tmp_path / "first.json")

    assert export_file(tmp_path, "second.json") == first
    resolution = Post.objects.get(slug="round-trip").resolutions.get()
    assert (resolution.tally["for"], resolution.tally["against"]) == (5, 1)
    assert first["posts"][0]["resolution"]["by"] == "P02"


def test_export_holds_what_was_imported(tmp_path):
    """The export lists the players, the dynasty, every post with its comments and every revision."""
    import_file(write_archive(tmp_path, game_archive()))
    exported = export_file(tmp_path)

    assert (exported["format"], exported["version"], exported["profile"]) == ("blognomic-archive", 3, "2016")
    players = {p["name"]: p for p in exported["players"]}
    assert "A Passing Reader" not in players
    assert players["Sleepy O'Brien"]["idle"] is True
    assert players["Sleepy O'Brien"]["idle_since"] == "2016-07-01T00:00:00Z"
    assert players["Prince Anduril"]["past_absences"] == [
        {"kind": "idle", "from": "2016-06-10T00:00:00Z", "until": "2016-06-20T00:00:00Z"},
    ]
    assert [p["id"] for p in exported["posts"]] == [
        "welcome_aboard",
        "treasure_maps",
        "walk_the_plank",
        "cfj_map_counts",
        "quorum_failures",
    ]
    by_id = {p["id"]: p for p in exported["posts"]}
    assert by_id["walk_the_plank"]["resolution"] == {
        "by": "Prince Anduril",
        "at": "2016-07-21T15:00:00Z",
        "outcome": "self-killed",
        "note": "Failed by Prince Anduril: self-killed.",
    }
    assert isinstance(by_id["quorum_failures"]["comments"][1].pop("pk"), int)
    assert by_id["quorum_failures"]["comments"][1] == {
        "author": "A Passing Reader",
        "at": "2016-07-25T12:00:00Z",
        "icon": "for",
        "text": "I would vote for this if I could.",
    }
    ruleset = next(p for p in exported["wiki"]["pages"] if p["title"] == "Ruleset")
    assert [r["post"] for r in ruleset["revisions"]] == [None, "treasure_maps", None]


def test_export_to_standard_output_writes_the_same_archive(tmp_path):
    """``export_archive -`` prints the archive instead of writing a file."""
    import_archive(game_archive())
    out = io.StringIO()
    call_command("export_archive", "-", stdout=out)

    assert json.loads(out.getvalue()) == export_archive()


def test_export_reads_without_writing():
    """Exporting an empty database writes nothing, not even the game's settings row."""
    exported = export_archive()

    assert exported["players"] == [] and exported["posts"] == []
    assert exported["profile"] == "2016"
    assert not Game.objects.exists()


def test_export_runs_a_fixed_number_of_queries_whatever_the_size(django_assert_num_queries):
    """Export reads each table once, so a bigger game costs no more queries."""
    small = game_archive()
    import_archive(small)
    with django_assert_num_queries(42):  # 39, the GNDT's game variables, the kinds of matter and their effects
        export_archive()

    bigger = copy.deepcopy(small)
    bigger["players"] = []
    bigger["dynasties"] = []
    for post in bigger["posts"]:
        post["id"] += "_again"
    bigger["wiki"]["pages"] = []
    import_archive(bigger)
    with django_assert_num_queries(42):  # 39, the GNDT's game variables, the kinds of matter and their effects
        export_archive()


def test_mojibake_text_imports_and_exports_unchanged(tmp_path):
    """Text mangled by the old site ("â€¦") is kept byte for byte, in the database and in the export."""
    data = game_archive()
    data["posts"][0]["title"] = f"Proposal: {MOJIBAKE}"
    data["posts"][0]["body"] = MOJIBAKE
    data["posts"][0]["comments"][0]["text"] = MOJIBAKE
    data["wiki"]["pages"][1]["revisions"][0]["text"] = MOJIBAKE
    import_file(write_archive(tmp_path, data))

    post = Post.objects.get(slug="quorum_failures")
    assert post.title == f"Proposal: {MOJIBAKE}" and post.body == MOJIBAKE
    assert post.comments.order_by("at").first().text == MOJIBAKE
    exported = export_file(tmp_path)
    by_id = {p["id"]: p for p in exported["posts"]}
    assert by_id["quorum_failures"]["body"] == MOJIBAKE
    assert by_id["quorum_failures"]["comments"][0]["text"] == MOJIBAKE
    assert "â€¦" in (tmp_path / "export.json").read_text(encoding="utf-8")


# --- Atomicity: a bad field anywhere writes nothing ---------------------------------------------------


def _set(path: tuple, value):
    def change(data: dict) -> None:
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def _duplicate_post_id(data: dict) -> None:
    data["posts"][3]["id"] = data["posts"][1]["id"]


def _second_archive_page_with_same_slug(data: dict) -> None:
    revision = {"at": "2016-07-01T00:00:00Z", "text": ""}
    data["wiki"]["pages"].append({"title": "Ruleset!", "revisions": [revision]})


BAD_ARCHIVES = [
    pytest.param(
        _set(("posts", 1, "comments", 0, "at"), "20th July 2016"),
        "posts[1].comments[0].at: not an ISO 8601 time",
        id="comment-time",
    ),
    pytest.param(
        _set(("posts", 0, "comments", 2, "at"), "2016-07-25T13:00:00"),
        "posts[0].comments[2].at: not an ISO 8601 time with a time zone",
        id="naive-time",
    ),
    pytest.param(
        _set(("posts", 2, "kind"), "poll"),
        "posts[2].kind: must be one of proposal, cfj, dov, story, ascension, post, matter; got 'poll'",
        id="unknown-kind",
    ),
    pytest.param(
        _set(("posts", 0, "comments", 1, "icon"), "imperial"),
        "posts[0].comments[1].icon: must be one of for, against, deferential, veto; got 'imperial'",
        id="unknown-icon",
    ),
    pytest.param(_duplicate_post_id, "posts[3].id: 'treasure_maps' is used by another post", id="duplicate-id"),
    pytest.param(
        _set(("posts", 1, "resolution", "outcome"), "failed"),
        "posts[1].resolution.outcome: 'failed' does not agree with status 'enacted'",
        id="outcome-disagrees",
    ),
    pytest.param(
        _set(("posts", 2, "resolution"), None),
        "posts[2].resolution: is required for a post that is failed",
        id="missing-resolution",
    ),
    pytest.param(
        _set(("posts", 0, "resolution"), {"by": "Kevan", "at": "2016-07-26T00:00:00Z", "outcome": "enacted"}),
        "posts[0].resolution: must be null unless the post is enacted or failed",
        id="pending-with-resolution",
    ),
    pytest.param(
        _set(("posts", 1, "resolution", "at"), "2016-07-19T00:00:00Z"),
        "posts[1].resolution.at: is before the post's posted_at",
        id="resolved-before-posted",
    ),
    pytest.param(
        _set(("posts", 4, "status"), "pending"),
        "posts[4].status: a story is not votable, so its status must be null",
        id="story-with-status",
    ),
    pytest.param(_set(("posts", 0, "status"), None), "posts[0].status: is required", id="proposal-no-status"),
    pytest.param(
        _set(("posts", 0, "dynasty"), 7),
        "posts[0].dynasty: no dynasty numbered 7 in this archive or in the database",
        id="unknown-dynasty",
    ),
    pytest.param(
        _set(("posts", 0, "id"), "maps/old"), "posts[0].id: 'maps/old' cannot be a post's address", id="slash-in-id"
    ),
    pytest.param(
        _set(("posts", 0, "body"), "null\x00byte"), "posts[0].body: may not contain the NUL character", id="nul-in-text"
    ),
    pytest.param(
        _set(("posts", 0, "comments", 0, "text"), "half a pair \ud83d"),
        "posts[0].comments[0].text: is not valid Unicode text",
        id="lone-surrogate",
    ),
    pytest.param(
        _set(("posts", 0, "comments", 0, "author"), " Kevan"),
        "posts[0].comments[0].author: ' Kevan' is not a valid name",
        id="bad-name",
    ),
    pytest.param(
        _set(("players", 1, "name"), "Kevan"), "players[1].name: 'Kevan' is listed twice", id="duplicate-player"
    ),
    pytest.param(
        _set(("players", 5, "idle_since"), "2016-05-01T00:00:00Z"),
        "players[5].idle_since: is before joined_at",
        id="idle-before-joining",
    ),
    pytest.param(
        _set(("players", 2, "past_absences", 0, "kind"), "asleep"),
        "players[2].past_absences[0].kind: must be one of idle, left; got 'asleep'",
        id="unknown-absence",
    ),
    pytest.param(
        _set(("dynasties", 0, "number"), 3_000_000_000),
        "dynasties[0].number: must be between 1 and 2147483647",
        id="huge-number",
    ),
    pytest.param(
        _set(("dynasties", 0, "player_term"), "H" * 41),
        "dynasties[0].player_term: is longer than 40 characters",
        id="long-term",
    ),
    pytest.param(
        _set(("wiki", "pages", 0, "revisions", 1, "post"), "no_such_post"),
        "wiki.pages[0].revisions[1].post: no post with id 'no_such_post'",
        id="unknown-revision-post",
    ),
    pytest.param(
        _second_archive_page_with_same_slug,
        "wiki.pages[2].slug: 'ruleset' is the address of another page in this archive",
        id="page-slug-clash",
    ),
    pytest.param(
        _set(("wiki", "pages", 1, "revisions"), []),
        "wiki.pages[1].revisions: must hold at least one revision",
        id="page-without-revisions",
    ),
    pytest.param(
        _set(("gndt",), {"columns": [{"dynasty": 142, "name": "Gold", "kind": "money"}], "rows": [], "log": []}),
        "gndt.columns[0].kind",
        id="gndt-bad-column-kind",
    ),
    pytest.param(
        _set(("profile",), "2020"), "profile: must be one of 2005, 2008, 2016; got '2020'", id="unknown-profile"
    ),
    pytest.param(_set(("version",), 4), "version: must be 1 or 2 or 3", id="unknown-version"),
    pytest.param(_set(("posts",), {"id": "x"}), "posts: must be a list", id="posts-not-a-list"),
    pytest.param(_set(("posts", 3), "cfj_map_counts"), "posts[3]: must be an object", id="post-not-an-object"),
]


@pytest.mark.parametrize(("break_archive", "message"), BAD_ARCHIVES)
def test_a_bad_field_names_its_path_and_writes_nothing(tmp_path, break_archive, message):
    """Import exits with an error naming the exact field, and no row is written."""
    data = game_archive()
    break_archive(data)
    path = write_archive(tmp_path, data, raw_utf8=False)
    before = row_counts()

    with pytest.raises(CommandError) as raised:
        import_file(path)

    assert str(raised.value).startswith("Nothing was imported. ")
    assert message in str(raised.value)
    assert row_counts() == before


def test_a_post_id_already_in_the_database_is_refused_and_nothing_is_written(tmp_path):
    """A second archive reusing a stored post's id fails at that post; its new player is not written."""
    import_archive(game_archive())
    before = row_counts()
    second = {
        "format": "blognomic-archive",
        "version": 1,
        "players": [{"name": "Newcomer", "joined_at": "2016-07-26T00:00:00Z"}],
        "posts": [
            {
                "id": "fresh_idea",
                "kind": "post",
                "title": "A fresh idea",
                "author": "Newcomer",
                "posted_at": "2016-07-26T01:00:00Z",
            },
            {
                "id": "quorum_failures",
                "kind": "post",
                "title": "Again",
                "author": "Newcomer",
                "posted_at": "2016-07-26T02:00:00Z",
            },
        ],
    }

    already = r"posts\[1\]\.id: a post with id 'quorum_failures' already exists"
    with pytest.raises(CommandError, match=already):
        import_file(write_archive(tmp_path, second))

    assert row_counts() == before
    assert not User.objects.filter(username="Newcomer").exists()


def test_a_page_slug_already_used_by_another_stored_page_is_refused(tmp_path):
    """A new page whose address is taken by a stored page with another title names the slug field."""
    import_archive(game_archive())
    before = row_counts()
    clash = {
        "format": "blognomic-archive",
        "version": 1,
        "wiki": {
            "pages": [
                {
                    "title": "Ruleset (old)",
                    "slug": "ruleset",
                    "revisions": [{"at": "2016-07-26T00:00:00Z", "text": ""}],
                },
            ]
        },
    }

    with pytest.raises(CommandError, match=r"wiki\.pages\[0\]\.slug: 'ruleset' is already the address"):
        import_file(write_archive(tmp_path, clash))
    assert row_counts() == before


def test_a_failure_while_writing_rolls_back_everything_already_written(monkeypatch):
    """Writes run in one transaction: a failure at the last step undoes the players and posts before it."""

    def fail_on_pages(*args, **kwargs):
        raise ArchiveError("wiki", "could not be written")

    monkeypatch.setattr(archive_importer, "_write_pages", fail_on_pages)
    before = row_counts()

    with pytest.raises(ArchiveError):
        import_archive(game_archive())
    assert row_counts() == before


def test_the_archive_must_be_an_object_of_the_right_format(tmp_path):
    """A JSON list, or an object of another format, is refused with a clear message."""
    with pytest.raises(CommandError, match="The archive must be a JSON object"):
        import_file(write_archive(tmp_path, []))  # type: ignore[arg-type]
    with pytest.raises(CommandError, match='format: must be "blognomic-archive"'):
        import_file(write_archive(tmp_path, {"format": "wordpress", "version": 1}))


# --- Unreadable input ---------------------------------------------------------------------------------


def test_a_missing_file_gives_a_clear_error(tmp_path):
    """A path that does not exist is reported as unreadable, with the reason."""
    missing = tmp_path / "nowhere.json"
    with pytest.raises(CommandError, match=r"Cannot read .*nowhere\.json: No such file or directory\."):
        import_file(missing)


def test_a_directory_gives_a_clear_error(tmp_path):
    """A directory is not an archive."""
    with pytest.raises(CommandError, match="Cannot read .*: Is a directory"):
        import_file(tmp_path)


def test_invalid_json_gives_a_clear_error(tmp_path):
    """Broken JSON names the file and where parsing stopped."""
    path = tmp_path / "broken.json"
    path.write_text('{"format": "blognomic-archive", "version": 1,', encoding="utf-8")
    with pytest.raises(CommandError, match=r"broken\.json is not valid JSON: .*line 1 column"):
        import_file(path)


def test_a_file_that_is_not_utf8_gives_a_clear_error(tmp_path):
    """Bytes that are not UTF-8 are reported rather than crashing the command."""
    path = tmp_path / "latin1.json"
    path.write_bytes('{"format": "blognomic-archive", "title": "café"}'.encode("latin-1"))
    with pytest.raises(CommandError, match=r"latin1\.json is not UTF-8 text"):
        import_file(path)


def test_a_byte_order_mark_is_accepted(tmp_path):
    """An archive saved with a UTF-8 byte-order mark imports like any other."""
    path = tmp_path / "bom.json"
    path.write_text(json.dumps(game_archive()), encoding="utf-8-sig")
    import_file(path)
    assert Post.objects.count() == 5


def test_import_reads_standard_input_when_the_file_is_a_dash():
    """``import_archive -`` reads the archive from standard input."""
    out = io.StringIO()
    call_command("import_archive", "-", stdin=io.StringIO(json.dumps(game_archive())), stdout=out)
    assert "Imported 7 players" in out.getvalue()


def test_export_to_a_missing_directory_fails_cleanly(tmp_path):
    """An export that cannot be written says so, and leaves no temporary file behind."""
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("export_archive", str(tmp_path / "no" / "such" / "dir.json"))
    target = tmp_path / "taken"
    target.mkdir()
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("export_archive", str(target))
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]


@pytest.mark.django_db(transaction=True)
def test_the_demo_game_survives_a_round_trip_with_its_gndt():
    """Import → export → import gives the same game, GNDT columns, rows, values and log included."""
    from django.utils import timezone

    from blognomic.moving.demo import build_demo
    from gndt.models import Update

    build_demo(now=timezone.now())
    first = export_archive()
    assert first["gndt"]["columns"] and first["gndt"]["log"]
    assert [a["post"] for a in first["amendments"] if a["applications"]] == ["oil-rations", "a-bigger-storehouse"]
    assert first["amendments"][0]["applications"][0]["revisions"] == [{"page": "ruleset", "number": 2}]
    call_command("flush", "--no-input", verbosity=0)
    import_archive(first)
    assert export_archive() == first
    assert Update.objects.exists()
