"""An archive's email addresses are checked as the account page checks them: an address, and one account's.

The export keeps them (it is for admins, and already holds the password hashes): without them a restored
game could never reset a password, nor could an imported account be claimed by mail."""

from __future__ import annotations

import copy

import pytest

from tests.properties.archives import attempt, exported_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def archive(t0) -> dict:
    return exported_game(t0)


def with_addresses(archive: dict, *addresses: str) -> dict:
    damaged = copy.deepcopy(archive)
    for account, address in zip(damaged["accounts"], addresses, strict=False):
        account["email"] = address
    return damaged


def test_an_address_that_is_not_one_is_refused_naming_it(archive):
    error = attempt(with_addresses(archive, "not an address"))
    assert error is not None and (error.path, error.message) == ("accounts[0].email", "is not an email address")


def test_two_accounts_with_one_address_are_refused(archive):
    error = attempt(with_addresses(archive, "same@example.org", "SAME@example.org"))
    assert error is not None and error.path == "accounts[1].email"


def test_distinct_addresses_are_imported(archive):
    assert attempt(with_addresses(archive, "a@example.org", "b@example.org")) is None
