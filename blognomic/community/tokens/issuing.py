"""Making, checking and revoking personal access tokens.

A token reads ``bn_<public id>_<secret>``. The public id finds the row; the whole token's SHA-256 is compared
in constant time with the one kept. A fast hash is right here, unlike for passwords: the secret is 256 random
bits, so there is nothing to guess by trying, and every API request checks one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction

from blognomic.community.tokens.models import AccessToken, TokenUse
from blognomic.community.tokens.scopes import ADMIN, SCOPES

EXPIRY_DAYS = (7, 30, 90, 365)
MAX_LIVE_TOKENS = 20
NAME_LENGTH = 80
# How often the record of a token's last use is rewritten: a bot polling every few seconds writes once a minute.
USE_RECORD_EVERY = timedelta(minutes=1)
_TOKEN = re.compile(r"bn_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})")


class TokenError(Exception):
    """A token the player asked for cannot be made, or one cannot be revoked; the message says why."""


class TokenRefused(Exception):
    """A token presented to the API does not act; the message says why, without saying more than its holder knows."""


@dataclass(frozen=True)
class Issued:
    token: AccessToken
    secret: str  # The whole token, shown to its owner once and never again.


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _public_id() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


def token_problem(*, user, name: str, scopes: list[str], days: int | None) -> str | None:
    """What is wrong with a request for a new token, or None."""
    if not name.strip():
        return "Give the token a name, so you know later which program holds it."
    if len(name) > NAME_LENGTH:
        return f"A token's name is at most {NAME_LENGTH} characters."
    if "\x00" in name:
        return "A token's name cannot contain a NUL character."
    if not scopes:
        return "Choose at least one thing the token may do."
    unknown = [scope for scope in scopes if scope not in SCOPES]
    if unknown:
        return f"There is no scope called “{unknown[0]}”; the scopes are {', '.join(SCOPES)}."
    if ADMIN in scopes and not user.is_admin:
        return "Only an admin may give a token the admin scope."
    if days not in EXPIRY_DAYS:
        return f"A token lasts {', '.join(str(d) for d in EXPIRY_DAYS[:-1])} or {EXPIRY_DAYS[-1]} days."
    return None


def issue_token(*, user, name: str, scopes: list[str], days: int | None, now: datetime) -> Issued:
    problem = token_problem(user=user, name=name, scopes=scopes, days=days)
    if problem:
        raise TokenError(problem)
    assert days is not None
    with transaction.atomic():
        live = AccessToken.objects.select_for_update().filter(user=user, revoked_at=None, expires_at__gt=now)
        if len(live) >= MAX_LIVE_TOKENS:
            raise TokenError(f"You have {MAX_LIVE_TOKENS} tokens already; revoke one you no longer use first.")
        public_id = _public_id()
        secret = f"bn_{public_id}_{secrets.token_urlsafe(32)}"
        token = AccessToken.objects.create(
            user=user,
            name=name.strip(),
            public_id=public_id,
            secret_hash=_digest(secret),
            scopes=[scope for scope in SCOPES if scope in scopes],
            created_at=now,
            expires_at=now + timedelta(days=days),
        )
    return Issued(token=token, secret=secret)


def may_revoke(token: AccessToken, by) -> bool:
    """Its owner may revoke a token, and so may a game admin: the token acts in their game."""
    return token.user_id == by.pk or by.is_admin


def revoke_token(*, token: AccessToken, by, now: datetime) -> bool:
    """Revoke it now; False when it already was (nothing changes)."""
    if not may_revoke(token, by):
        raise TokenError("Only its owner or an admin may revoke a token.")
    return bool(
        AccessToken.objects.filter(pk=token.pk, revoked_at=None).update(revoked_at=now, revoked_by=by),
    )


def token_for(presented: str, *, now: datetime) -> AccessToken:
    """The token that ``presented`` is, if it acts now; otherwise ``TokenRefused``."""
    match = _TOKEN.fullmatch(presented.strip())
    if not match:
        raise TokenRefused("That is not a personal access token: they read bn_… as the account page showed.")
    token = AccessToken.objects.select_related("user").filter(public_id=match.group(1)).first()
    if token is None or not hmac.compare_digest(token.secret_hash, _digest(presented.strip())):
        raise TokenRefused("No token matches that secret.")
    refusal = token.refusal_at(now)
    if refusal:
        raise TokenRefused(refusal)
    return token


def record_use(token: AccessToken, *, now: datetime, address: str | None) -> None:
    """Note when and from where the token was used, at most once a minute."""
    updated = TokenUse.objects.filter(token=token, at__lte=now - USE_RECORD_EVERY).update(at=now, address=address)
    if not updated:
        TokenUse.objects.get_or_create(token=token, defaults={"at": now, "address": address})
