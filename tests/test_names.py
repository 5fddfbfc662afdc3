"""Names that imitate other names: normal form, no invisible or direction-changing characters, no lookalikes.

A hostile player applied as ``Cato`` + zero-width space, as ``Саto`` with a Cyrillic С and with a right-to-left
override; an admin rename to ``Ada`` + zero-width space made Cato's post read "by Ada". Each is refused here,
at application, admin rename and archive import, and every rendered name is set apart from the text around it.
"""

from __future__ import annotations

import unicodedata
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from blognomic.flows.roster.services import RosterError, application_submit, player_rename
from blognomic.moving.archive import ArchiveError, import_archive
from dynasties import names
from dynasties.models import Application, Dynasty, PlayerNameValidator, User
from gndt.models import Column, Row
from gndt.services import GndtError, gndt_column_add, gndt_column_edit, gndt_row_add
from tests.factories import make_proposal, make_table, vote
from votes.services import matter_resolve

ZWSP, RLO, LRI, PDI = "\u200b", "\u202e", "\u2066", "\u2069"
CYRILLIC_ES, CYRILLIC_A = "\u0421", "\u0430"


# --- the pure rules -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "stored"),
    [
        ("\uff23\uff41\uff54\uff4f", "Cato"),  # full-width letters
        ("  Cato  ", "Cato"),
        ("\ufb01sh", "fish"),  # the fi ligature
        ("Ca\u0301to", "C\u00e1to"),  # a combining accent composes
    ],
)
def test_names_are_stored_in_nfkc(raw, stored):
    """A name is stored in Unicode's compatibility normal form, so lookalike encodings of it are one name."""
    assert names.normalise(raw) == stored
    assert names.name_problem(stored) is None


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        (f"Cato{ZWSP}", names.INVISIBLE),
        ("Ca\u00adto", names.INVISIBLE),  # soft hyphen
        ("Cato\u2800", names.INVISIBLE),  # Braille blank
        ("Cato\u3164", names.INVISIBLE),  # Hangul filler
        ("Ca\ufe0fto", names.INVISIBLE),  # variation selector
        (f"{RLO}otaC", names.DIRECTIONAL),
        (f"{LRI}Cato{PDI}", names.DIRECTIONAL),
        ("Cato\u200f", names.DIRECTIONAL),  # right-to-left mark
        ("Cato\x07", names.CONTROL),
        ("Ca/to", names.CONTROL),
        ("Ezra  Vane", names.SPACING),  # a page collapses the two spaces: it would read as "Ezra Vane"
        (" Cato", names.SPACING),
        ("", names.SPACING),
    ],
)
def test_invisible_directional_and_control_characters_are_refused(name, problem):
    assert names.name_problem(name) == problem


def test_a_name_not_in_normal_form_is_refused_where_it_is_not_normalised_first():
    """The validator (archive import, Django's admin) refuses a name the site would have normalised."""
    problem = names.name_problem("\uff23ato")
    assert problem == names.NOT_NORMAL.format(normal="Cato", name="\uff23ato")


@pytest.mark.parametrize(
    "name",
    [
        "Seventy-Fifth Trombone",
        "ais523",
        "Sleepy O'Brien",
        "Jacek_FH",
        "\u05e2\u05de\u05d9\u05ea",
        "Zo\u00eb",
        "\u738b\u4f1f",
    ],
)
def test_ordinary_names_in_any_script_are_accepted(name):
    """Real names hold spaces, punctuation, accents and other scripts, right-to-left ones included."""
    assert names.name_problem(unicodedata.normalize("NFKC", name)) is None


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Cato", f"{CYRILLIC_ES}{CYRILLIC_A}to"),
        ("Ada", "ADA"),
        ("modern", "rnodern"),
        ("Il1", "lll"),
        ("Bram", "\U0001d401ram"),  # mathematical bold B
        ("Paul", "Pau\u04c0"),  # Cyrillic capital palochka
    ],
)
def test_names_a_reader_could_confuse_share_a_lookalike_key(a, b):
    """UTS #39 skeletons, folded for case: these pairs look alike on a page."""
    assert names.lookalike_key(a) == names.lookalike_key(b)


@pytest.mark.parametrize(("a", "b"), [("Cato", "Kato"), ("Ada", "Adam"), ("Ezra Vane", "EzraVane")])
def test_different_names_have_different_keys(a, b):
    assert names.lookalike_key(a) != names.lookalike_key(b)


def test_the_confusables_table_is_unicodes_own():
    """The table is read from Unicode's confusables.txt: thousands of entries, Cyrillic es maps to Latin c."""
    table = names.confusables_table()
    assert len(table) > 5000
    assert table["\u0441"] == "c" and table["m"] == "rn"
    assert names.parse_confusables("0441 ;\t0063 ;\tMA\t# ( с → c )\n# comment\n\n") == {"\u0441": "c"}


# --- where names come in --------------------------------------------------------------------------------


@pytest.fixture
def players(db, t0):
    players = make_table(4, start=t0)
    players[0].username, players[2].username = "Cato", "Ada"
    players[0].save()
    players[2].save()
    return players


def submit(name, t0, address=None):
    return application_submit(name=name, password="a-good-passphrase", message="", ip_address=address, now=t0)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (f"Cato{ZWSP}", names.INVISIBLE),
        (f"{CYRILLIC_ES}{CYRILLIC_A}to", names.LOOKALIKE.format(name=f"{CYRILLIC_ES}{CYRILLIC_A}to", other="Cato")),
        (f"{RLO}otaC", names.DIRECTIONAL),
        ("CAT0", names.LOOKALIKE.format(name="CAT0", other="Cato")),
    ],
)
def test_an_application_under_an_imitating_name_is_refused(players, t0, name, message):
    with pytest.raises(RosterError) as refused:
        submit(name, t0)
    assert str(refused.value) == message
    assert not Application.objects.exists()


def test_an_application_is_stored_under_its_normal_form(players, t0):
    application = submit("\uff2e\uff45\uff57 \uff2b\uff45\uff45\uff50\uff45\uff52", t0)
    assert application.name == "New Keeper"


def test_an_application_imitating_a_pending_application_is_refused(players, t0):
    submit("Harriet", t0)
    with pytest.raises(RosterError, match="looks too much like Harriet"):
        submit("Harri\u0435t", t0)  # Cyrillic ie
    assert Application.objects.count() == 1


def test_the_join_form_shows_the_refusal(client, players):
    response = client.post(
        reverse("join"), {"name": f"Cato{ZWSP}", "password": "a-good-passphrase", "password_again": "a-good-passphrase"}
    )
    assert response.status_code == 400
    assert "invisible characters" in response.content.decode()
    assert not Application.objects.exists()


@pytest.fixture
def enacted(players, t0):
    proposal = make_proposal(players[1], at=t0 - timedelta(days=3), title="Proposal: New Names")
    for voter in players[2:]:
        vote(proposal, voter, "for", at=t0 - timedelta(days=2))
    matter_resolve(post=proposal, admin=players[1], action="enact", now=t0 - timedelta(days=1))
    proposal.refresh_from_db()
    return proposal


@pytest.mark.parametrize(
    ("new_name", "message"),
    [
        (f"Ada{ZWSP}", names.INVISIBLE),
        (f"{CYRILLIC_A.upper()}da", names.LOOKALIKE.format(name=f"{CYRILLIC_A.upper()}da", other="Ada")),
        (f"{RLO}adA", names.DIRECTIONAL),
    ],
)
def test_an_admin_rename_to_an_imitating_name_is_refused(players, enacted, t0, new_name, message):
    """The rename that made Cato's post read "by Ada" is refused; Cato keeps the name."""
    with pytest.raises(RosterError) as refused:
        player_rename(user=players[0], new_name=new_name, admin=players[1], proposal=enacted, now=t0)
    assert str(refused.value) == message
    assert User.objects.get(pk=players[0].pk).username == "Cato"


def test_a_rename_is_stored_in_normal_form(players, enacted, t0):
    player_rename(user=players[0], new_name="\uff23ato the Elder", admin=players[1], proposal=enacted, now=t0)
    assert User.objects.get(pk=players[0].pk).username == "Cato the Elder"


def test_a_rename_may_not_take_the_name_of_a_gndt_row(players, enacted, t0):
    """A player's row takes the player's new name, so it must not be another row's ("The Pot")."""
    gndt_row_add(dynasty=Dynasty.objects.get(), by=players[1], now=t0, name="The Pot")
    with pytest.raises(RosterError, match="belongs to someone else"):
        player_rename(user=players[0], new_name="the pot", admin=players[1], proposal=enacted, now=t0)


def archive(*player_names):
    return {
        "format": "blognomic-archive",
        "version": 1,
        "players": [
            {"name": name, "admin": False, "idle": False, "joined_at": "2016-06-01T00:00:00Z"} for name in player_names
        ],
    }


def test_an_archive_with_two_names_that_look_alike_is_refused_naming_the_field(db):
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive("Cato", "Bram", f"{CYRILLIC_ES}{CYRILLIC_A}to"))
    assert "players[2].name" in str(refused.value) and "looks too much like 'Cato'" in str(refused.value)
    assert not User.objects.exists()


def test_an_archive_imitating_a_name_already_stored_is_refused(players):
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive("Newcomer", "ada"))
    assert "players[1].name" in str(refused.value)
    assert not User.objects.filter(username="Newcomer").exists()


@pytest.mark.parametrize("name", [f"Cato{ZWSP}", f"{RLO}otaC", "\uff23ato"])
def test_an_archive_name_with_invisible_or_directional_characters_is_refused(db, name):
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive(name))
    assert "players[0].name" in str(refused.value)
    assert not User.objects.exists()


def test_the_validator_gives_the_specific_reason(db):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        PlayerNameValidator()(f"Cato{ZWSP}")
    assert refused.value.messages == [names.INVISIBLE]


# --- GNDT names ------------------------------------------------------------------------------------------


def test_gndt_column_and_row_names_are_unique_regardless_of_case(players, t0):
    dynasty = Dynasty.objects.get()
    gndt_column_add(dynasty=dynasty, by=players[1], now=t0, name="Gold")
    with pytest.raises(GndtError, match="already a column"):
        gndt_column_add(dynasty=dynasty, by=players[1], now=t0, name="GOLD")
    silver = gndt_column_add(dynasty=dynasty, by=players[1], now=t0, name="Silver")
    with pytest.raises(GndtError, match="already a column"):
        gndt_column_edit(column=silver, by=players[1], now=t0, name="gold")
    gndt_row_add(dynasty=dynasty, by=players[1], now=t0, name="The Pot")
    with pytest.raises(GndtError, match="already a row"):
        gndt_row_add(dynasty=dynasty, by=players[1], now=t0, name="the pot")
    with pytest.raises(GndtError, match="invisible"):
        gndt_row_add(dynasty=dynasty, by=players[1], now=t0, name=f"The{ZWSP} Pot")
    assert Column.objects.filter(name__iexact="gold").count() == 1
    assert Row.objects.filter(name__iexact="the pot").count() == 1


def test_the_database_refuses_gndt_names_differing_only_in_case(players, t0):
    """The constraint holds even for a write that skips the services."""
    dynasty = Dynasty.objects.get()
    Column.objects.create(dynasty=dynasty, name="Gold", kind="integer")
    with pytest.raises(IntegrityError), transaction.atomic():
        Column.objects.create(dynasty=dynasty, name="gOLD", kind="integer")


# --- rendering ------------------------------------------------------------------------------------------


def test_every_rendered_name_is_set_apart_from_the_text_around_it(client, players, enacted, t0):
    """A right-to-left name flipped the rest of its comment header; each name is now in its own <bdi>."""
    hebrew = "\u05e2\u05de\u05d9\u05ea"
    players[3].username = hebrew
    players[3].save()
    post = make_proposal(players[3], at=t0 - timedelta(hours=2), title="Proposal: Lanterns")
    vote(post, players[3], "for", at=t0 - timedelta(hours=1), text="Mine.")
    vote(post, players[0], "against", at=t0 - timedelta(hours=1))
    html = client.get(reverse("post_detail", args=[post.slug])).content.decode()
    isolated = f"<bdi>{hebrew}</bdi>"
    # the byline, the comment header, the tally's FOR column and the sidebar's roster
    assert html.count(isolated) >= 4, html
    body = html.split("</title>", 1)[1]
    assert hebrew not in body.replace(isolated, "").replace(f"/players/{hebrew}/", "")


@pytest.mark.parametrize(
    "raw, clean",
    [
        ("Marisol", "Marisol"),
        ("Mari\u200bsol", "Marisol"),
        ("\u202eTobiah\u202c Vane", "Tobiah Vane"),
        ("\u2067Tide\u2069", "Tide"),
        ("Sea\u00a0\u00a0Glass ", "Sea Glass"),
        ("Half/Moon", "HalfMoon"),
        ("\uff2f\uff52\uff4c\uff41", "Orla"),
        ("Line\nbreak", "Line break"),
    ],
)
def test_a_name_from_elsewhere_is_cleaned_into_one_a_player_may_have(raw, clean):
    """Invisible, direction-changing and control characters go; other spaces become one plain space."""
    assert names.cleaned(raw) == clean
    assert names.name_problem(clean) is None


@pytest.mark.parametrize("raw", ["", "\u200b\u202e", "   ", "/"])
def test_a_name_with_nothing_left_when_cleaned_is_empty(raw):
    assert names.cleaned(raw) == ""
