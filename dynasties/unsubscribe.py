"""Turning a kind of mail off from the mail itself: a signed link per player and kind, good without logging in.

The link is the ``List-Unsubscribe`` header's (RFC 8058: a mail client POSTs to it, with no cookie) and the
unsubscribe line at the foot of every mail. It never expires, as a mail may be read long after it was sent,
and it can only ever turn something off.
"""

from __future__ import annotations

from django.core import signing

from dynasties.models import NoticePreferences

SALT = "dynasties.unsubscribe"
# Everything a mail can be sent for and a link can stop: each notice kind, the daily digest, and "by_email"
# for notices without a kind of their own (the admins' reports), which stops every notice by mail.
KINDS = {name: label for name, label, _ in NoticePreferences.KINDS} | {
    "daily_digest": "The daily email of the matters waiting for my vote",
    "by_email": "Every notice by email",
}


def unsubscribe_token(*, user_pk: int, kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"no such kind of mail: {kind!r}")
    return signing.dumps([user_pk, kind], salt=SALT, compress=False)


def unsubscribe_read(token: str) -> tuple[int, str] | None:
    """The (user pk, kind) a token was made for, or None when it is not one of the site's."""
    try:
        user_pk, kind = signing.loads(token, salt=SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not isinstance(user_pk, int) or kind not in KINDS:
        return None
    return user_pk, kind
