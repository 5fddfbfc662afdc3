"""Accounts come with the game: the authors of a WordPress file and the contributors of a MediaWiki file
become accounts matched by name, one person one account across both files, with no usable password."""

from __future__ import annotations

import pytest

from blognomic.moving.archive.people import BAD_NAME, NO_EQUALS, PeopleError, accounts_for, read_names_file
from dynasties.models import User
from tests.factories import PASSWORD, make_player, make_spectator

pytestmark = pytest.mark.django_db

CYRILLIC_A = "\u0430"


def test_a_name_that_is_an_account_here_is_that_account(t0):
    """A contributor whose name is an account here edits as that account; nothing is created."""
    cato = make_player("Cato", joined_at=t0)
    accounts = accounts_for(["Cato"], mapping={})
    assert accounts == {"Cato": cato}
    assert User.objects.count() == 1
    cato.refresh_from_db()
    assert cato.check_password(PASSWORD), "an existing account keeps its password"


def test_a_new_name_becomes_an_account_that_is_no_player_and_has_no_password():
    """Nobody's password travels: a new account can only be claimed by the password-reset mail."""
    accounts = accounts_for(["Kevan"], mapping={})
    kevan = User.objects.get(username="Kevan")
    assert accounts == {"Kevan": kevan}
    assert not kevan.has_usable_password()
    assert not kevan.is_player and kevan.joined_at is None
    assert not kevan.is_admin and not kevan.is_staff


def test_one_person_is_one_account_across_both_files():
    """The second file's names find the accounts the first file's import made, in any case."""
    first = accounts_for(["Kevan", "Bucky"], mapping={})
    second = accounts_for(["kevan", "Bucky", "Clucky"], mapping={})
    assert second["kevan"] == first["Kevan"]
    assert second["Bucky"] == first["Bucky"]
    assert User.objects.count() == 3


def test_a_lookalike_name_is_the_account_it_looks_like():
    """Two names a reader could take for each other may not both be accounts: the lookalike is the same person."""
    ada = make_spectator("Ada")
    accounts = accounts_for([f"{CYRILLIC_A.upper()}da", "ADA"], mapping={})
    assert set(accounts.values()) == {ada}
    assert User.objects.count() == 1


def test_the_names_file_joins_names_that_differ():
    """'a mapping file for the names that differ': kevan_k on the blog is Kevan here."""
    kevan = make_spectator("Kevan")
    mapping = read_names_file("# blog name = name here\n\nkevan_k = Kevan\n  Trombone75 =  Seventy-Fifth Trombone \n")
    assert mapping == {"kevan_k": "Kevan", "Trombone75": "Seventy-Fifth Trombone"}
    accounts = accounts_for(["kevan_k", "Trombone75"], mapping=mapping)
    assert accounts["kevan_k"] == kevan
    assert accounts["Trombone75"].username == "Seventy-Fifth Trombone"


def test_names_are_stored_in_normal_form():
    """Full-width letters in a file's name are the letters they look like, as on the site."""
    accounts = accounts_for(["\uff23\uff41\uff54\uff4f"], mapping={})
    assert accounts["\uff23\uff41\uff54\uff4f"].username == "Cato"


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("Kevan\n", 1),
        ("# fine\nKevan = \n", 2),
        ("a = b\na = c\n", 2),
        ("a = b = c\n", 1),
        ("a = Ka\u200bvan\n", 1),
    ],
)
def test_a_bad_names_file_is_refused_naming_its_line(text, line):
    with pytest.raises(PeopleError, match=f"line {line} of the names file"):
        read_names_file(text)


def test_an_unusable_name_is_refused_and_nothing_is_created():
    """A name the site could never hold (an invisible character) is refused by name, and no account is made."""
    with pytest.raises(PeopleError) as caught:
        accounts_for(["Kevan", "Ca\u200bto"], mapping={})
    assert BAD_NAME.split(":")[0].format(name="Ca\u200bto") in str(caught.value)
    assert not User.objects.exists()


def test_names_file_line_without_equals_says_what_is_expected():
    with pytest.raises(PeopleError, match=NO_EQUALS):
        read_names_file("just a name")
