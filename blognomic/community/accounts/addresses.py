"""A player's email address: given (when joining or on the account page), confirmed by a link sent to it, and
only then used for anything else.

The link is signed (``django.core.signing``) over the account and the address, and good for
``PASSWORD_RESET_TIMEOUT``. It works once: confirming moves the address from ``email_pending`` to ``email``, after
which the same link finds nothing to confirm; giving another address makes the earlier link useless too.

Nobody learns from the site whether an address belongs to an account: an address another account has confirmed
is answered on the page exactly as a free one, and only its owner is told, by a mail to it
(``address_taken_notify``), at most ``TAKEN_NOTICES_PER_HOUR`` an hour.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse

from dynasties.mail import absolute, mail_queue
from dynasties.models import OutgoingMail, User
from dynasties.tasks import send_soon

SALT = "accounts.email-confirmation"

NOT_AN_ADDRESS = "That is not an email address."
ADDRESS_TAKEN = "That address belongs to another account."
LINK_BROKEN = "This confirmation link is not one of this site's; check that it was copied whole."
LINK_EXPIRED = "This confirmation link has expired. Give your address again on your account page for a new one."
LINK_USED = (
    "This confirmation link has been used, or a newer address was given since; "
    "your account page shows which address is confirmed."
)


# Someone may give another's address again and again; its owner is told a few times an hour at most.
TAKEN_NOTICES_PER_HOUR = 3


class AddressError(ValueError):
    """An address cannot be given or confirmed; the message says why."""


def address_check(raw: str, *, user: User | None = None) -> str:
    """``raw`` as an address to store: trimmed, checked, and not another account's confirmed address (for the
    site's own uses; a stranger's form asks ``address_shape`` and ``address_owner`` instead, saying nothing)."""
    address = address_shape(raw)
    if address_owner(address, besides=user) is not None:
        raise AddressError(ADDRESS_TAKEN)
    return address


def address_shape(raw: str) -> str:
    """``raw`` trimmed, when it is an email address at all."""
    address = (raw or "").strip()
    try:
        validate_email(address)
    except ValidationError:
        raise AddressError(NOT_AN_ADDRESS) from None
    if len(address) > 254:
        raise AddressError(NOT_AN_ADDRESS)
    return address


def address_owner(address: str, *, besides: User | None = None) -> User | None:
    """The account other than ``besides`` whose confirmed address this is, if any."""
    others = User.objects.filter(email__iexact=address)
    if besides is not None and besides.pk is not None:
        others = others.exclude(pk=besides.pk)
    return others.first()


def address_taken_notify(*, owner: User, now: datetime) -> None:
    """Tell ``owner``, at their own address, that someone gave it as theirs; nothing else was changed."""
    if (
        OutgoingMail.objects.filter(user=owner, kind="address-taken", created_at__gte=now - timedelta(hours=1)).count()
        >= TAKEN_NOTICES_PER_HOUR
    ):
        return
    mail_queue(
        user=owner,
        to=owner.email,
        kind="address-taken",
        now=now,
        subject="Someone gave your address at BlogNomic",
        text=f"Hello {owner.username},\n\nSomeone gave this address at BlogNomic as their own, for another account "
        "or to join. It stays yours alone: it was added to nothing, and nobody was told it is yours.\n\n"
        f"If it was you, you already have an account here, {owner.username}; a forgotten password is reset at "
        f"{absolute(reverse('password_reset'))}",
    )
    send_soon()


def confirmation_link(*, user: User, address: str) -> str:
    token = signing.dumps({"u": user.pk, "e": address}, salt=SALT, compress=True)
    return absolute(reverse("email_confirm", args=[token]))


def email_change_request(*, user: User, address: str, now: datetime) -> None:
    """Keep ``address`` as the one to confirm and mail it the link; the confirmed address, if any, stays in use
    until the new one is confirmed. Nothing else is ever mailed to an address before it is confirmed.

    Another account's confirmed address is kept to confirm all the same, so the account page reads as for any
    address, but no link goes out: its owner is told instead."""
    address = address_shape(address)
    with transaction.atomic():
        user = User.objects.select_for_update().get(pk=user.pk)
        if user.email and user.email.lower() == address.lower():
            user.email_pending = ""
            user.save(update_fields=["email_pending"])
            return
        user.email_pending = address
        user.save(update_fields=["email_pending"])
        owner = address_owner(address, besides=user)
        if owner is not None:
            address_taken_notify(owner=owner, now=now)
            return
        link = confirmation_link(user=user, address=address)
        mail_queue(
            user=user,
            to=address,
            kind="confirm",
            now=now,
            secret=True,
            subject="Confirm your address for BlogNomic",
            text=f"Hello {user.username},\n\nTo confirm that this is your address, follow this link within "
            f"{settings.PASSWORD_RESET_TIMEOUT // 86400} days:\n\n{link}\n\n"
            "If you did not give this address, ignore this mail: nothing more will be sent to it.",
        )
        send_soon()


def email_remove(*, user: User) -> None:
    User.objects.filter(pk=user.pk).update(email="", email_pending="")


def email_confirm(*, token: str) -> User:
    """Confirm the address a link was made for; raises ``AddressError`` with why not, changing nothing."""
    try:
        found = signing.loads(token, salt=SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
    except signing.SignatureExpired:
        raise AddressError(LINK_EXPIRED) from None
    except (signing.BadSignature, ValueError, TypeError, UnicodeError):
        raise AddressError(LINK_BROKEN) from None
    if not isinstance(found, dict) or not isinstance(found.get("u"), int) or not isinstance(found.get("e"), str):
        raise AddressError(LINK_BROKEN)
    try:
        with transaction.atomic():
            user = User.objects.select_for_update().filter(pk=found["u"], is_active=True).first()
            if user is None or user.email_pending.lower() != found["e"].lower() or not user.email_pending:
                raise AddressError(LINK_USED)
            if User.objects.filter(email__iexact=user.email_pending).exclude(pk=user.pk).exists():
                raise AddressError(ADDRESS_TAKEN)
            user.email, user.email_pending = user.email_pending, ""
            user.save(update_fields=["email", "email_pending"])
    except IntegrityError:  # confirmed by another account at the same moment
        raise AddressError(ADDRESS_TAKEN) from None
    return user
