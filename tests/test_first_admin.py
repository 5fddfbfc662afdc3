"""``create_first_admin NAME EMAIL`` makes the site's first admin without Django's admin: no password is set,
a link to choose one is mailed and printed, and the command refuses once any admin exists."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth.hashers import is_password_usable
from django.core import mail
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from blognomic.community.accounts.first_admin import ADMIN_EXISTS
from dynasties.mail import mails_send
from dynasties.models import User

pytestmark = pytest.mark.django_db
CHOSEN = "a heron on one leg"


def run(*args: str) -> str:
    out = StringIO()
    call_command("create_first_admin", *args, stdout=out)
    return out.getvalue()


def test_the_first_admin_sets_a_password_through_the_printed_link(settings):
    """The account is a game admin with no usable password; the printed link sets one, once."""
    settings.SITE_URL = "https://nomic.example.org"
    printed = run("Wren Quill", "wren@example.org")
    wren = User.objects.get(username="Wren Quill")
    assert (wren.is_admin, wren.is_superuser, wren.email) == (True, True, "wren@example.org")
    assert not is_password_usable(wren.password)
    link = re.search(r"https://nomic\.example\.org(\S+)", printed).group(1)
    client = Client()
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": CHOSEN, "new_password2": CHOSEN})
    assert Client().login(username="Wren Quill", password=CHOSEN)


def test_the_link_is_mailed_to_the_address_given():
    run("Wren Quill", "wren@example.org")
    mails_send(now=timezone.now())
    assert mail.outbox[-1].to == ["wren@example.org"]
    assert "/accounts/password/reset/" in mail.outbox[-1].body


def test_an_imported_account_of_that_name_is_promoted():
    User.objects.create_user("Old Hand", password=None)
    run("Old Hand", "hand@example.org")
    assert User.objects.count() == 1
    assert User.objects.get().is_admin


def test_refused_once_an_admin_exists():
    User.objects.create_user("Sitting Admin", is_admin=True)
    with pytest.raises(CommandError, match=re.escape(ADMIN_EXISTS.format(name="Sitting Admin"))):
        run("Newcomer", "new@example.org")
    assert not User.objects.filter(username="Newcomer").exists()


@pytest.mark.parametrize(
    ("name", "email", "message"),
    [
        ("Fine Name", "not an address", "That is not an email address."),
        (" ", "ok@example.org", "A name"),
    ],
)
def test_bad_input_writes_nothing(name, email, message):
    with pytest.raises(CommandError, match=message):
        run(name, email)
    assert not User.objects.exists()
