"""An archive is held to what the site holds its players to, each refusal naming where the bad value is and
writing nothing.

Finding: "Archive import is lax where it matters: deck rolls of the wrong type import, and every later draw
from that deck is a 500; unknown names (a message sender outside the conversation, a seal owner, a row's
player) silently become accounts; a 20 MB post body and a 5 MB revision are accepted though the site caps them
at 100 KB and 1 MB; an unknown ``ruleset_base`` silently turns an amendment into prose."
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from blognomic.community.messaging.services import MAX_BODY as MAX_MESSAGE_BODY
from blognomic.flows.amendments.views import UNKNOWN_RULESET_BASE
from blognomic.moving.archive import import_archive
from blognomic.moving.archive.fields import TOO_LARGE
from blognomic.moving.archive.importer import UNDECLARED_ACCOUNT, UNKNOWN_BASE
from blognomic.moving.archive.personal import NOT_A_PARTICIPANT, PARTICIPANT_TWICE
from dynasties.models import Dynasty, User
from gndt import decks
from gndt.models import Update
from gndt.services import gndt_update
from ruleset.models import Page
from ruleset.services import MAX_PAGE_BYTES, page_create
from tests.factories import PASSWORD, T0, make_table
from tests.properties.archives import attempt, counts, exported_game
from votes.models import MAX_BODY_BYTES, Amendment, Post

pytestmark = pytest.mark.django_db

LATER = "2016-07-25T18:00:00Z"


@pytest.fixture
def archive(db) -> dict:
    return exported_game(T0)


def refused(archive: dict, path: str, message: str) -> None:
    """The import is refused naming ``path`` with ``message``, and leaves every table as it was."""
    error = attempt(archive)
    assert error is not None, f"accepted; expected {path}: {message}"
    assert (error.path, error.message) == (path, message)


# --- deck rolls ------------------------------------------------------------------------------------------


def with_roll(archive: dict, roll: dict) -> tuple[dict, str]:
    """The archive with ``roll`` logged as a draw of the first log entry; returns it and the roll's path."""
    entry = archive["gndt"]["log"][-1]
    entry["rolls"] = [*entry["rolls"], roll]
    return archive, f"gndt.log[{len(archive['gndt']['log']) - 1}].rolls[{len(entry['rolls']) - 1}]"


def deck_roll(**changes) -> dict:
    roll = {
        "token": "DECK52",
        "kind": "deck",
        "deck": "HAND#1",
        "size": 52,
        "count": 1,
        "results": [5],
        "total": 0,
        "pick": None,
        "text": "DECK52 from HAND#1: 5",
    }
    roll.update(changes)
    return roll


@pytest.mark.parametrize(
    ("changes", "key", "message"),
    [
        ({"results": ["5"]}, "results[0]", "must be a whole number"),
        ({"results": [[5]]}, "results[0]", "must be a whole number"),
        ({"results": [53]}, "results[0]", decks.BAD_LOGGED_CARD.format(size=52)),
        ({"results": [0]}, "results[0]", decks.BAD_LOGGED_CARD.format(size=52)),
        ({"results": [5, 5]}, "results", decks.CARD_TWICE.format(card=5)),
        ({"results": []}, "results", decks.BAD_LOGGED_CARDS.format(limit=decks.MAX_CARDS_PER_DRAW)),
        ({"results": "5"}, "results", "must be a list"),
        ({"size": "52"}, "size", decks.BAD_LOGGED_SIZE.format(limit=decks.MAX_DECK_SIZE)),
        ({"size": 10**6}, "size", decks.BAD_LOGGED_SIZE.format(limit=decks.MAX_DECK_SIZE)),
        ({"deck": 7}, "deck", decks.NO_DECK_NAMED),
        ({"deck": None}, "deck", decks.NO_DECK_NAMED),
        ({"text": None}, "text", "is required"),
    ],
)
def test_a_deck_roll_of_the_wrong_type_is_refused_naming_it(archive, changes, key, message):
    """Every later draw from a deck reads every card it dealt: a card that is not one was a 500 on each of them."""
    damaged, path = with_roll(archive, deck_roll(**changes))
    refused(damaged, f"{path}.{key}", message)


def test_a_shuffle_that_names_no_deck_is_refused(archive):
    damaged, path = with_roll(
        archive, {"token": "SHUFFLE", "kind": "shuffle", "deck": ["HAND#1"], "text": "SHUFFLE: HAND#1 is shuffled"}
    )
    refused(damaged, f"{path}.deck", decks.NO_DECK_NAMED)


def test_a_deck_an_archive_carries_deals_on_from_where_it_stopped(archive, t0):
    """A good deck roll imports, and the next draw from that deck never deals its card again."""
    damaged, _ = with_roll(archive, deck_roll())
    import_archive(damaged)
    drawn = gndt_update(
        dynasty=Dynasty.objects.get(),
        by=User.objects.get(username="P03"),
        changes={},
        seen={},
        comment="HAND#1 51DECK52",
        now=t0 + timedelta(days=1),
    )
    [roll] = [roll for roll in drawn.rolls if roll["kind"] == "deck"]
    assert sorted(roll["results"]) == [card for card in range(1, 53) if card != 5]
    assert Update.objects.count() == len(archive["gndt"]["log"]) + 1


# --- names the archive does not declare ------------------------------------------------------------------


def conversation(*participants: str, sender: str) -> dict:
    return {
        "pk": 1,
        "subject": "Lanterns",
        "started_at": LATER,
        "participants": [{"name": name, "last_read_at": None} for name in participants],
        "messages": [{"from": sender, "at": LATER, "body": "Shall we?"}],
    }


def test_a_message_from_someone_outside_its_conversation_is_refused(archive):
    archive["personal"]["conversations"] = [conversation("P03", "P04", sender="P05")]
    refused(archive, "personal.conversations[0].messages[0].from", NOT_A_PARTICIPANT.format(name="P05"))


def test_a_participant_listed_twice_is_refused(archive):
    archive["personal"]["conversations"] = [conversation("P03", "P04", "P03", sender="P03")]
    refused(archive, "personal.conversations[0].participants[2].name", PARTICIPANT_TWICE.format(name="P03"))


def test_a_participant_the_archive_does_not_declare_is_refused(archive):
    archive["personal"]["conversations"] = [conversation("P03", "Nobody", sender="Nobody")]
    refused(archive, "personal.conversations[0].participants[1].name", UNDECLARED_ACCOUNT.format(name="Nobody"))


def seal(owner: str) -> dict:
    return {
        "pk": 1,
        "owner": owner,
        "title": "Hole cards",
        "digest": "0" * 64,
        "nonce": "1" * 32,
        "sealed_at": LATER,
        "revealed_text": "",
        "revealed_at": None,
    }


def test_a_seal_whose_owner_the_archive_does_not_declare_is_refused(archive):
    archive["personal"]["seals"] = [seal("Nobody")]
    refused(archive, "personal.seals[0].owner", UNDECLARED_ACCOUNT.format(name="Nobody"))


def test_a_gndt_row_whose_player_the_archive_does_not_declare_is_refused(archive):
    index = next(i for i, row in enumerate(archive["gndt"]["rows"]) if row["player"] is None)
    archive["gndt"]["rows"][index]["player"] = "Nobody"
    refused(archive, f"gndt.rows[{index}].player", UNDECLARED_ACCOUNT.format(name="Nobody"))


def test_a_comment_by_someone_a_version_2_archive_does_not_declare_is_refused(archive):
    archive["posts"][0]["comments"][0]["author"] = "Nobody"
    refused(archive, "posts[0].comments[0].author", UNDECLARED_ACCOUNT.format(name="Nobody"))


def test_a_name_declared_only_in_accounts_is_one_of_the_archive(archive):
    """``accounts`` declares the accounts that are not players: such an account may own a seal."""
    assert "Spectator" not in {p["name"] for p in archive["players"]}
    archive["accounts"].append({**archive["accounts"][0], "name": "Spectator", "email": ""})
    archive["personal"]["seals"] = [seal("Spectator")]
    assert attempt(archive) is None


def test_an_account_already_on_the_site_may_be_named_by_an_archive_that_adds_to_the_game(archive):
    User.objects.create_user(username="Nobody", password=PASSWORD)
    archive["personal"]["seals"] = [seal("Nobody")]
    assert attempt(archive) is None


def test_a_refused_import_leaves_a_game_already_there_as_it_was(archive, t0):
    """Refused means nothing written, not only into an empty database."""
    make_table(3, start=t0)
    before = counts()
    archive["personal"]["seals"] = [seal("Nobody")]
    refused(archive, "personal.seals[0].owner", UNDECLARED_ACCOUNT.format(name="Nobody"))
    assert counts() == before and not User.objects.filter(username="Nobody").exists()


# --- the site's size limits ------------------------------------------------------------------------------


def test_a_20_mb_post_body_is_refused_by_its_path(archive):
    size = 20 * 1024 * 1024
    archive["posts"][1]["body"] = "x" * size
    refused(archive, "posts[1].body", TOO_LARGE.format(size=size, limit="100 KB", holder="a post"))


def test_a_post_body_is_held_to_the_posting_limit_in_bytes_not_characters(archive):
    """“é” is two bytes: half the limit in characters plus one is over it, as the post form counts."""
    archive["posts"][0]["body"] = "x" * MAX_BODY_BYTES
    assert attempt(archive) is None
    archive["posts"][0]["body"] = "é" * (MAX_BODY_BYTES // 2 + 1)
    refused(archive, "posts[0].body", TOO_LARGE.format(size=MAX_BODY_BYTES + 2, limit="100 KB", holder="a post"))


def test_a_post_flavour_and_a_comment_over_the_limit_are_refused(archive):
    archive["posts"][0]["flavour"] = "x" * (MAX_BODY_BYTES + 1)
    refused(
        archive,
        "posts[0].flavour",
        TOO_LARGE.format(size=MAX_BODY_BYTES + 1, limit="100 KB", holder="a post's flavour text"),
    )
    archive["posts"][0]["flavour"] = ""
    archive["posts"][0]["comments"][0]["text"] = "x" * (MAX_BODY_BYTES + 1)
    refused(
        archive,
        "posts[0].comments[0].text",
        TOO_LARGE.format(size=MAX_BODY_BYTES + 1, limit="100 KB", holder="a comment"),
    )


def test_a_5_mb_revision_is_refused_by_its_path(archive):
    size = 5 * 1024 * 1024
    archive["wiki"]["pages"][0]["revisions"][1]["text"] = "x" * size
    refused(archive, "wiki.pages[0].revisions[1].text", TOO_LARGE.format(size=size, limit="1 MB", holder="a page"))
    archive["wiki"]["pages"][0]["revisions"][1]["text"] = "x" * MAX_PAGE_BYTES
    assert attempt(archive) is None


def test_a_message_over_the_site_limit_is_refused(archive):
    archive["personal"]["conversations"] = [conversation("P03", "P04", sender="P03")]
    archive["personal"]["conversations"][0]["messages"][0]["body"] = "x" * (MAX_MESSAGE_BODY + 1)
    refused(archive, "personal.conversations[0].messages[0].body", f"is longer than {MAX_MESSAGE_BODY} characters")


# --- the Ruleset revision an amendment was written against -----------------------------------------------


def amendment(base) -> dict:
    return {
        "post": "fog",
        "operations": [{"op": "rule_replace_passage", "rule": "rule-lamps", "old": "glow", "new": "shine"}],
        "base_ruleset_revision": base,
        "written_at": LATER,
        "applications": [],
    }


def test_an_amendment_written_against_a_revision_the_ruleset_never_had_is_refused(archive):
    archive["amendments"] = [amendment(2), amendment(99)]
    refused(archive, "amendments[1].base_ruleset_revision", UNKNOWN_BASE.format(number=99))


def test_an_amendment_written_against_a_revision_of_the_archive_imports(archive):
    archive["amendments"] = [amendment(2)]
    assert attempt(archive) is None


def test_the_post_form_refuses_an_edit_of_a_ruleset_revision_that_does_not_exist(client, t0):
    """The post form compared the edited Ruleset with revision ``ruleset_base``; one that does not exist gave an
    empty text to compare with, and the post went up as prose without its amendment."""
    players = make_table(3, start=t0 - timedelta(days=30))
    text = "== Core ==\n=== Lamps ===\nLamps shine."
    page_create(
        title="Ruleset",
        kind=Page.RULESET,
        slug="ruleset",
        author=None,
        text=text,
        now=t0 - timedelta(days=20),
        check_permission=False,
    )
    assert client.login(username=players[2].username, password=PASSWORD)
    response = client.post(
        "/new/",
        {
            "kind": "proposal",
            "title": "Proposal: Glow",
            "body": "Glow.",
            "ruleset_base": "99",
            "ruleset_text": text.replace("shine", "glow"),
        },
    )
    assert response.status_code == 400
    assert UNKNOWN_RULESET_BASE.format(number=99) in response.content.decode().replace("&#x27;", "'")
    assert not Post.objects.exists() and not Amendment.objects.exists()
