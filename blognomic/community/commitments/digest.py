"""Sealed commitments as pure functions: the digest of a sealed text, and checking a reveal against it.

The digest is SHA-256 of ``nonce + "\\n" + text`` (UTF-8), written in hex. The random nonce stops anyone
from guessing a short text (a card sequence, a codename) by hashing every possibility; it is published
with the text at the reveal, so anyone can check the digest with any SHA-256 tool.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

NONCE_BYTES = 16


def new_nonce() -> str:
    return secrets.token_hex(NONCE_BYTES)


def seal_digest(text: str, nonce: str) -> str:
    return hashlib.sha256(f"{nonce}\n{text}".encode()).hexdigest()


def reveal_matches(text: str, *, nonce: str, digest: str) -> bool:
    """Whether ``text`` is exactly the text that was sealed (compared in constant time)."""
    return hmac.compare_digest(seal_digest(text, nonce), digest)
