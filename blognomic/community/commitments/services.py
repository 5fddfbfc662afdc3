"""Sealing a text and revealing it; a reveal that does not match the digest is refused and changes nothing."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from blognomic.community.commitments.digest import new_nonce, reveal_matches, seal_digest
from blognomic.community.commitments.models import Seal
from dynasties.models import User

MAX_TEXT = 10_000
TITLE_NEEDED = "Say what the sealed text is (a title of at most 200 characters)."
TEXT_NEEDED = "Write the text to seal (at most 10,000 characters)."
NUL_CHARACTER = "The text may not contain the NUL character."
ONLY_PLAYERS = "Only players may seal a text."
ONLY_OWNER = "Only {owner}, who sealed it, may reveal it."
ALREADY_REVEALED = "This seal was already revealed on {at:%d %b %Y at %H:%M} UTC."
NO_MATCH = (
    "That text does not match the digest: it is not exactly what was sealed (check every space, line "
    "break and capital). Nothing was revealed."
)


class SealError(Exception):
    """Sealing or revealing was refused; the message says why."""


def _check(text: str, title: str | None = None) -> None:
    if title is not None and (not title.strip() or len(title.strip()) > 200 or "\x00" in title):
        raise SealError(TITLE_NEEDED)
    if "\x00" in (text or ""):
        raise SealError(NUL_CHARACTER)
    if not (text or "").strip() or len(text) > MAX_TEXT:
        raise SealError(TEXT_NEEDED)


def seal_create(*, owner: User, title: str, text: str, now: datetime) -> Seal:
    """Seal ``text``: only its digest (and the secret nonce) is kept, and everyone sees the digest at once."""
    if owner.joined_at is None or owner.absences.filter(kind="left", ended_at__isnull=True).exists():
        raise SealError(ONLY_PLAYERS)
    _check(text, title)
    nonce = new_nonce()
    return Seal.objects.create(
        owner=owner, title=title.strip(), nonce=nonce, digest=seal_digest(text, nonce), sealed_at=now
    )


def seal_reveal(*, seal: Seal, by: User, text: str, now: datetime) -> Seal:
    """Publish the sealed text, with its nonce, if it is exactly what was sealed."""
    _check(text)
    with transaction.atomic():
        seal = Seal.objects.select_for_update().select_related("owner").get(pk=seal.pk)
        if seal.owner_id != by.pk:
            raise SealError(ONLY_OWNER.format(owner=seal.owner.username))
        if seal.is_revealed:
            raise SealError(ALREADY_REVEALED.format(at=seal.revealed_at))
        if not reveal_matches(text, nonce=seal.nonce, digest=seal.digest):
            raise SealError(NO_MATCH)
        seal.revealed_text, seal.revealed_at = text, now
        seal.save(update_fields=["revealed_text", "revealed_at"])
        return seal
