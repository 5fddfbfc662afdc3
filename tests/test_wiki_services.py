"""Writes on the wiki through its services: append-only revisions, edit conflicts, permissions, bad input,
rule histories, snapshots at a new dynasty, keyword replacement and repeal at an Ascension."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ruleset.ascension import ruleset_apply_ascension, ruleset_repeal_rules, ruleset_replace_keywords, ruleset_snapshot
from ruleset.models import Page, ProtectionChange, Revision, RevisionIsImmutable, RuleChange
from ruleset.rule_index import rule_changes_index
from ruleset.services import (
    ADMINS_CREATE_KIND,
    ADMINS_ONLY,
    ADMINS_PROTECT,
    EMPTY_TITLE,
    NO_CHANGES,
    NO_RULESET,
    PAGE_TOO_LARGE,
    PLAYERS_ONLY,
    PROTECTED,
    TITLE_TAKEN,
    TITLE_TOO_LONG,
    EditConflict,
    NoChanges,
    WikiError,
    WikiPermissionDenied,
    page_create,
    page_set_protection,
    revision_add,
    revision_revert,
    ruleset_import_plaintext,
)
from ruleset.structure import parse_ruleset
from tests.factories import make_idle, make_player, make_spectator
from votes.posting import post_create

pytestmark = pytest.mark.django_db

RULESET_TEXT = """\
== Core Rules ==
=== Ruleset and Gamestate ===
Every Player obeys this Ruleset. Dynasties are described in Rule 1.3.
=== Players ===
Any Player may leave the game. The Emperor may not.
=== Dynasties ===
Each dynasty has an Emperor, chosen by the Players.
== Dynastic Rules ==
=== Ships ===
Each Player has a ship.
==== Rafts ====
A raft is the smallest ship.
=== Treasure ===
Players dig for treasure on the island.
=== Storms ===
Storms sink the ships of careless Players.
== Appendix ==
=== Keywords ===
; Quorum
: Half the active Players, rounded down, plus one.
"""


def make_people(t0):
    """An admin, an active player, an idle player and a spectator, all joined a month before ``t0``."""
    joined = t0 - timedelta(days=30)
    admin = make_player("Kevan", joined_at=joined, admin=True)
    player = make_player("Bucky", joined_at=joined)
    idle = make_player("Brendan", joined_at=joined)
    make_idle(idle, since=t0 - timedelta(days=2))
    return {"admin": admin, "player": player, "idle": idle, "spectator": make_spectator("Spectator Sam")}


def make_ruleset(author, t0, text: str = RULESET_TEXT) -> Page:
    return page_create(
        title="Ruleset", kind=Page.RULESET, author=author, text=text, summary="Starter", now=t0, slug="ruleset"
    )


# --- revisions are appended, never changed -----------------------------------------------------------


def test_creating_a_page_writes_revision_one_and_makes_it_current(t0):
    """A new page has one revision, numbered 1, with its author, time, summary and size in bytes."""
    people = make_people(t0)
    page = page_create(title="Chests", author=people["player"], text="Gold — lots", now=t0)
    revision = page.current
    assert (page.slug, page.kind, revision.number, revision.author, revision.at) == (
        "chests",
        Page.ORDINARY,
        1,
        people["player"],
        t0,
    )
    assert revision.summary == "Created the page"
    assert revision.size == len("Gold — lots".encode())


def test_each_save_appends_the_next_number_and_leaves_earlier_revisions_untouched(t0):
    """Revisions are numbered per page; an edit adds one and never changes an earlier one."""
    people = make_people(t0)
    chests = page_create(title="Chests", author=people["player"], text="one", now=t0)
    other = page_create(title="Map", author=people["player"], text="a", now=t0)
    second = revision_add(page=chests, author=people["player"], text="two", summary="More", now=t0 + timedelta(1))
    third = revision_add(page=chests, author=people["admin"], text="three", now=t0 + timedelta(2))
    revision_add(page=other, author=people["player"], text="b", now=t0 + timedelta(3))
    assert [r.number for r in chests.revisions.order_by("number")] == [1, 2, 3]
    assert list(chests.revisions.order_by("number").values_list("text", flat=True)) == ["one", "two", "three"]
    assert (second.number, third.number) == (2, 3)
    assert Page.objects.get(pk=chests.pk).current == third
    assert [r.number for r in other.revisions.order_by("number")] == [1, 2]


def test_a_saved_revision_cannot_be_changed_in_place(t0):
    """History is append-only: saving an existing revision again is refused."""
    page = page_create(title="Notes", text="first", now=t0)
    revision = page.current
    revision.text = "rewritten history"
    with pytest.raises(RevisionIsImmutable):
        revision.save()
    assert Revision.objects.get(pk=revision.pk).text == "first"


def test_a_revision_records_the_post_that_caused_it(t0):
    """An enactment links the revision to its proposal (summary like "Enacting Proposal: …")."""
    people = make_people(t0)
    page = make_ruleset(people["admin"], t0)
    proposal = post_create(
        author=people["player"], kind="proposal", title="Proposal: Quorum Failures", body="Change it.", now=t0
    )
    revision = revision_add(
        page=page,
        author=people["admin"],
        text=RULESET_TEXT + "\nMore.\n",
        summary="Enacting Proposal: Quorum Failures",
        now=t0 + timedelta(hours=13),
        post=proposal,
    )
    assert Revision.objects.get(pk=revision.pk).post == proposal
    assert proposal.revisions.get() == revision


def test_windows_line_endings_are_stored_as_plain_newlines(t0):
    """Text from a browser's textarea (CRLF) is stored with "\\n" only."""
    page = page_create(title="Notes", text="a\r\nb\r\n", now=t0)
    assert page.current.text == "a\nb\n"


def test_a_revert_is_a_new_revision_with_the_old_text(t0):
    """Restoring revision 1 adds revision 3 with its text; revision 2 stays in the history."""
    people = make_people(t0)
    page = page_create(title="Notes", author=people["player"], text="first", now=t0)
    revision_add(page=page, author=people["player"], text="vandalised", now=t0 + timedelta(1))
    restored = revision_revert(page=page, number=1, author=people["admin"], now=t0 + timedelta(2))
    assert (restored.number, restored.text) == (3, "first")
    assert restored.summary == "Reverted to revision 1 by Bucky"
    assert page.revisions.get(number=2).text == "vandalised"


def test_saving_the_same_text_again_writes_nothing(t0):
    """A save that changes nothing is refused, so the history holds only real changes."""
    page = page_create(title="Notes", text="same", now=t0)
    with pytest.raises(NoChanges, match=NO_CHANGES):
        revision_add(page=page, author=None, text="same", now=t0 + timedelta(1))
    assert page.revisions.count() == 1


# --- edit conflicts ----------------------------------------------------------------------------------


def test_saving_on_top_of_an_unseen_revision_is_an_edit_conflict_and_writes_nothing(t0):
    """Two editors open revision 1; the second to save gets EditConflict with the latest revision."""
    people = make_people(t0)
    page = page_create(title="Notes", author=people["player"], text="start", now=t0)
    revision_add(page=page, author=people["admin"], text="admin's words", now=t0 + timedelta(1), base_number=1)
    with pytest.raises(EditConflict) as caught:
        revision_add(page=page, author=people["player"], text="player's words", now=t0 + timedelta(2), base_number=1)
    assert (caught.value.latest.number, caught.value.latest.text, caught.value.base_number) == (
        2,
        "admin's words",
        1,
    )
    assert "revision 2 was saved after revision 1" in str(caught.value)
    assert page.revisions.count() == 2
    assert Page.objects.get(pk=page.pk).current.text == "admin's words"


def test_saving_on_top_of_the_latest_revision_is_no_conflict(t0):
    """An editor who saw the latest revision saves normally."""
    page = page_create(title="Notes", text="start", now=t0)
    assert revision_add(page=page, author=None, text="next", now=t0, base_number=1).number == 2


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("title", "message"), [("", EMPTY_TITLE), ("   ", EMPTY_TITLE), ("x" * 201, TITLE_TOO_LONG)])
def test_a_missing_or_overlong_title_is_refused(t0, title, message):
    """An empty or blank title, or one over 200 characters, gets a clear message and writes nothing."""
    with pytest.raises(WikiError, match=message):
        page_create(title=title, text="x", now=t0)
    assert not Page.objects.exists() and not Revision.objects.exists()


@pytest.mark.parametrize("title", ["Chests", "CHESTS", "  chests "])
def test_a_title_that_clashes_is_refused(t0, title):
    """A title already used, in any capitalisation, is refused; the existing page is untouched."""
    page_create(title="Chests", text="x", now=t0)
    with pytest.raises(WikiError, match=TITLE_TAKEN.format(title=title.strip())):
        page_create(title=title, text="y", now=t0)
    assert Page.objects.count() == 1 and Revision.objects.count() == 1


def test_a_title_whose_address_clashes_is_refused(t0):
    """ "Chests!" would live at /wiki/chests/ like "Chests", so it is refused too."""
    page_create(title="Chests", text="x", now=t0)
    with pytest.raises(WikiError, match="already exists"):
        page_create(title="Chests!", text="y", now=t0)


def test_a_title_may_not_take_the_address_of_the_new_page_form(t0):
    """A page titled "New" gets the address new-page, since /wiki/new/ is the form for new pages."""
    assert page_create(title="New", text="x", now=t0).slug == "new-page"


def test_a_page_over_one_megabyte_is_refused_and_nothing_is_written(t0):
    """Text over 1 MB, new or edited, gets a clear message with its size; nothing is written."""
    big = "x" * (1024 * 1024 + 1)
    with pytest.raises(WikiError, match="at most 1 MB; this text is 1,048,577 bytes"):
        page_create(title="Huge", text=big, now=t0)
    page = page_create(title="Small", text="x", now=t0)
    with pytest.raises(WikiError, match=PAGE_TOO_LARGE.split(";")[0]):
        revision_add(page=page, author=None, text=big, now=t0)
    assert Revision.objects.count() == 1
    assert page_create(title="Exactly", text="x" * 1024 * 1024, now=t0).current.size == 1024 * 1024


# --- who may edit ------------------------------------------------------------------------------------


def test_only_admins_edit_the_ruleset_and_gamestate_pages(t0):
    """Players are refused on the Ruleset and on gamestate pages; admins are not."""
    people = make_people(t0)
    ruleset = make_ruleset(people["admin"], t0)
    chests = page_create(title="Chests", kind=Page.GAMESTATE, author=people["admin"], text="none", now=t0)
    for page in (ruleset, chests):
        with pytest.raises(WikiPermissionDenied, match=ADMINS_ONLY.format(title=page.title)):
            revision_add(page=page, author=people["player"], text="mine now", now=t0)
        revision_add(page=page, author=people["admin"], text="admin edit", now=t0)
    assert Revision.objects.filter(author=people["player"]).count() == 0


def test_any_active_player_edits_an_ordinary_page_but_idle_players_and_spectators_do_not(t0):
    """Ordinary pages are open to active players only."""
    people = make_people(t0)
    page = page_create(title="Logbook", author=people["player"], text="day 1", now=t0)
    revision_add(page=page, author=people["player"], text="day 2", now=t0)
    for who in ("idle", "spectator"):
        with pytest.raises(WikiPermissionDenied, match=PLAYERS_ONLY):
            revision_add(page=page, author=people[who], text=f"{who} was here", now=t0)
    assert page.revisions.count() == 2


def test_a_protected_page_is_for_admins_only(t0):
    """Protection by an admin shuts players out and is logged; a player may not protect."""
    people = make_people(t0)
    page = page_create(title="Logbook", author=people["player"], text="day 1", now=t0)
    with pytest.raises(WikiPermissionDenied, match=ADMINS_PROTECT):
        page_set_protection(page=page, protected=True, admin=people["player"], now=t0)
    page_set_protection(page=page, protected=True, admin=people["admin"], now=t0, reason="Edit war")
    page.refresh_from_db()
    with pytest.raises(WikiPermissionDenied, match=PROTECTED.format(title="Logbook")):
        revision_add(page=page, author=people["player"], text="day 2", now=t0)
    revision_add(page=page, author=people["admin"], text="day 2", now=t0)
    log = ProtectionChange.objects.get()
    assert (log.protected, log.by, log.reason) == (True, people["admin"], "Edit war")


def test_only_admins_create_gamestate_pages(t0):
    """A player may create an ordinary page, not a gamestate one."""
    people = make_people(t0)
    with pytest.raises(WikiPermissionDenied, match=ADMINS_CREATE_KIND.format(kind="Gamestate")):
        page_create(title="Map", kind=Page.GAMESTATE, author=people["player"], text="~~~", now=t0)
    with pytest.raises(WikiPermissionDenied, match=PLAYERS_ONLY):
        page_create(title="Musings", author=people["spectator"], text="hi", now=t0)
    assert page_create(title="Map", kind=Page.GAMESTATE, author=people["admin"], text="~~~", now=t0)


# --- time travel and rule histories ------------------------------------------------------------------


def test_as_of_gives_the_revision_current_at_a_moment(t0):
    """The page as it stood at any moment is the last revision saved by then."""
    page = page_create(title="Notes", text="one", now=t0)
    revision_add(page=page, author=None, text="two", now=t0 + timedelta(hours=2))
    assert page.revisions.as_of(t0 - timedelta(seconds=1)) is None
    assert page.revisions.as_of(t0).text == "one"
    assert page.revisions.as_of(t0 + timedelta(hours=1, minutes=59)).text == "one"
    assert page.revisions.as_of(t0 + timedelta(hours=2)).text == "two"


def test_each_ruleset_revision_records_the_rules_it_added_changed_or_removed(t0):
    """Adding a rule renumbers those after it, but only the rules whose text changed are recorded."""
    people = make_people(t0)
    page = make_ruleset(people["admin"], t0)
    assert RuleChange.objects.filter(revision=page.current, kind="added").count() == 8
    text = RULESET_TEXT.replace("=== Ships ===", "=== Gold ===\nGold shines.\n=== Ships ===")
    text = text.replace("Storms sink the ships", "Storms wreck the ships").replace(
        "=== Treasure ===\nPlayers dig for treasure on the island.\n", ""
    )
    second = revision_add(page=page, author=people["admin"], text=text, now=t0 + timedelta(1))
    changes = {(c.anchor, c.kind, c.number) for c in second.rule_changes.all()}
    assert changes == {
        ("rule-gold", "added", "2.1"),
        ("rule-storms", "changed", "2.3"),
        ("rule-treasure", "removed", "2.2"),
    }
    assert parse_ruleset(text).find("Ships").number == "2.2", "Ships moved from 2.1 without a change"


def test_rule_changes_of_revisions_loaded_in_bulk_are_indexed_once(t0):
    """Revisions written without the services (an archive import) are indexed by rule_changes_index."""
    people = make_people(t0)
    page = Page.objects.create(title="Ruleset", slug="ruleset", kind=Page.RULESET, created_at=t0)
    texts = [RULESET_TEXT, RULESET_TEXT.replace("smallest ship", "smallest boat")]
    Revision.objects.bulk_create(
        Revision(page=page, number=i + 1, author=people["admin"], at=t0 + timedelta(i), text=text, size=len(text))
        for i, text in enumerate(texts)
    )
    assert rule_changes_index() == 2
    assert rule_changes_index() == 0
    assert list(RuleChange.objects.filter(anchor="rule-rafts").values_list("revision__number", "kind")) == [
        (2, "changed"),
        (1, "added"),
    ]


# --- the dynasty and Ascension flows -----------------------------------------------------------------


def test_a_snapshot_copies_the_ruleset_into_a_protected_page_once(t0):
    """ruleset_snapshot keeps "Ruleset 142"; a second call returns the same page and writes nothing."""
    people = make_people(t0)
    ruleset = make_ruleset(people["admin"], t0)
    snapshot = ruleset_snapshot(dynasty_number=142, now=t0 + timedelta(hours=1))
    assert (snapshot.title, snapshot.slug, snapshot.kind, snapshot.protected) == (
        "Ruleset 142",
        "ruleset-142",
        Page.RULESET,
        True,
    )
    assert snapshot.current.text == ruleset.current.text
    again = ruleset_snapshot(dynasty_number=142, now=t0 + timedelta(hours=2), author=people["admin"])
    assert again.pk == snapshot.pk and again.revisions.count() == 1


def test_a_late_snapshot_copies_the_ruleset_as_it_stood_when_the_dynasty_began(t0):
    """Called after later edits, with ``now`` the dynasty's start, the snapshot holds the text of then."""
    people = make_people(t0)
    ruleset = make_ruleset(people["admin"], t0)
    revision_add(page=ruleset, author=people["admin"], text=RULESET_TEXT + "\nLater.\n", now=t0 + timedelta(2))
    snapshot = ruleset_snapshot(dynasty_number=7, now=t0 + timedelta(1))
    assert snapshot.current.text == RULESET_TEXT


def test_a_snapshot_needs_a_ruleset(t0):
    with pytest.raises(WikiError, match=NO_RULESET):
        ruleset_snapshot(dynasty_number=1, now=t0)


def test_an_ascension_repeals_and_renames_in_one_revision(t0):
    """Dynastic rules not kept are repealed and Player → Hunter, Emperor → Pirate, in ONE revision."""
    people = make_people(t0)
    ruleset = make_ruleset(people["admin"], t0)
    revision = ruleset_apply_ascension(
        replacements={"Player": "Hunter", "Emperor": "Pirate"},
        keep_anchors=["rule-storms", "2.1.1"],
        author=people["player"],
        now=t0 + timedelta(1),
    )
    assert ruleset.revisions.count() == 2 and revision.number == 2
    new = parse_ruleset(revision.text)
    assert [rule.title for rule in new.sections[1].walk()] == ["Ships", "Rafts", "Storms"]
    assert "Each Hunter has a ship." in revision.text
    assert "careless Hunters" in revision.text and "The Pirate may not." in revision.text
    assert "Player" not in revision.text and "Emperor" not in revision.text
    assert revision.summary == "Repealed 1 dynastic rule; Replaced Player → Hunter, Emperor → Pirate"
    renamed_or_repealed = {(c.anchor, c.kind) for c in revision.rule_changes.exclude(kind="changed")}
    assert renamed_or_repealed == {
        ("rule-treasure", "removed"),
        ("rule-players", "removed"),
        ("rule-hunters", "added"),
    }, "a renamed rule (Players → Hunters) starts a new history under its new anchor"


def test_an_ascension_keeping_nothing_repeals_every_dynastic_rule(t0):
    """An empty keep list repeals all the Dynastic Rules; the Core Rules and Appendix stay."""
    people = make_people(t0)
    make_ruleset(people["admin"], t0)
    revision = ruleset_repeal_rules(keep_anchors=[], author=people["admin"], now=t0)
    new = parse_ruleset(revision.text)
    assert [len(section.rules) for section in new.sections] == [3, 0, 1]
    assert "== Dynastic Rules ==" in revision.text


@pytest.mark.parametrize(
    ("keep", "message"),
    [
        (["No Such Rule"], "No rule “No Such Rule”"),
        (["1.2"], "Rule 1.2 “Players” is not a dynastic rule"),
    ],
)
def test_an_ascension_naming_a_rule_that_cannot_be_kept_writes_nothing(t0, keep, message):
    """A typo in the rules to keep never repeals a rule: the whole Ascension rewrite is refused."""
    people = make_people(t0)
    ruleset = make_ruleset(people["admin"], t0)
    with pytest.raises(WikiError, match=message):
        ruleset_apply_ascension(replacements={"Player": "Hunter"}, keep_anchors=keep, author=None, now=t0)
    assert ruleset.revisions.count() == 1


def test_keyword_replacement_alone_keeps_every_rule(t0):
    """ruleset_replace_keywords renames throughout, plurals and capitals included, in one revision."""
    people = make_people(t0)
    make_ruleset(people["admin"], t0)
    revision = ruleset_replace_keywords(
        replacements={"Player": "Hunter"}, author=people["admin"], now=t0, summary="Ascension Address: Pirates"
    )
    assert revision.summary == "Ascension Address: Pirates"
    assert "Hunters dig" in revision.text and "Every Hunter obeys" in revision.text
    assert len(list(parse_ruleset(revision.text).all_rules())) == 8


def test_an_ascension_that_changes_nothing_is_still_recorded(t0):
    """Keeping every rule and term still adds a revision, so the Ascension shows in the history."""
    people = make_people(t0)
    ruleset = make_ruleset(people["admin"], t0)
    revision = ruleset_apply_ascension(replacements={}, keep_anchors=None, author=people["admin"], now=t0)
    assert (revision.number, revision.text, revision.summary) == (2, ruleset.current.text, "Ascension")


def test_importing_a_plain_text_ruleset_creates_the_ruleset_page_then_adds_revisions(t0):
    """The first import creates the Ruleset; the next one adds revision 2; prose alone is refused."""
    export = "Core Rules\n\nBasics\n\nPlay nicely.\n\nDynastic Rules\n\nBoats\n\nBoats float.\n"
    first = ruleset_import_plaintext(text=export, now=t0)
    assert (first.page.slug, first.page.kind, first.number) == ("ruleset", Page.RULESET, 1)
    second = ruleset_import_plaintext(text=export.replace("float", "sink"), now=t0, summary="Again")
    assert (second.number, second.summary) == (2, "Again")
    with pytest.raises(WikiError, match="No ruleset section found"):
        ruleset_import_plaintext(text="Just words.", now=t0)
    assert Revision.objects.count() == 2
