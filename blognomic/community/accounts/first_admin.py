"""The site's first admin, made from the command line on a new or freshly imported site, without Django's admin.

The account gets no password: a password-reset link (Django's tokens, as the reset page mails them) is queued
to its address and given to whoever ran the command, so the password is only ever typed by its owner.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from blognomic.community.accounts.addresses import ADDRESS_TAKEN, AddressError, address_check
from dynasties.mail import mail_queue
from dynasties.models import PlayerNameValidator, User
from dynasties.tasks import send_soon

ADMIN_EXISTS = "The site already has an admin ({name}); ask them to make another from the roster."
NAME_LOOKALIKE = "“{name}” could be mistaken for the account “{other}”; give that name exactly, or another."


class FirstAdminError(Exception):
    """The first admin cannot be made; the message says why and nothing was written."""


def password_link(user: User) -> str:
    """The address at which ``user`` sets a password: Django's reset link, good once and for
    ``PASSWORD_RESET_TIMEOUT``."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return settings.SITE_URL + reverse("password_reset_confirm", args=[uid, token])


def first_admin_create(*, name: str, email: str, now: datetime) -> tuple[User, str]:
    """Make ``name`` the site's admin (game admin and superuser) with ``email`` as its confirmed address.

    An account of that name (one imported, say) is promoted; otherwise one is made, not a player. Refused when
    any admin or superuser exists. Returns the account and the link at which it sets its password, which is
    also queued to ``email``."""
    name = (name or "").strip()
    try:
        PlayerNameValidator()(name)
        address = address_check(email)
    except ValidationError as error:
        raise FirstAdminError(error.messages[0]) from error
    except AddressError as error:
        raise FirstAdminError(str(error)) from error
    with transaction.atomic():
        existing_admin = User.objects.select_for_update().filter(Q(is_admin=True) | Q(is_superuser=True)).first()
        if existing_admin is not None:
            raise FirstAdminError(ADMIN_EXISTS.format(name=existing_admin.username))
        user = User.objects.filter(username=name).first()
        if user is None:
            other = User.objects.lookalike(name)
            if other is not None:
                raise FirstAdminError(NAME_LOOKALIKE.format(name=name, other=other))
            user = User(username=name)
            user.set_unusable_password()
        if User.objects.filter(email__iexact=address).exclude(pk=user.pk).exists():
            raise FirstAdminError(ADDRESS_TAKEN)
        user.email, user.email_pending = address, ""
        user.is_admin = user.is_staff = user.is_superuser = user.is_active = True
        user.save()
        link = password_link(user)
        mail_queue(
            user=user,
            to=address,
            kind="reset",
            subject="You are the admin of the new BlogNomic site",
            text=f"Hello {user.username},\n\nYou are now this site's admin. Choose your password here (the link "
            f"works once):\n{link}\n",
            now=now,
            secret=True,
        )
        send_soon()
    return user, link
