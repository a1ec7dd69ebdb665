"""Secret keys and invite tokens (``secrets``) and the hashes the server keeps of them.

Both are 256-bit random values, so a plain SHA-256 hash is enough to keep them unguessable at
rest (there is nothing to brute-force); comparisons go through the hash lookup only."""

from __future__ import annotations

import hashlib
import secrets

KEY_BYTES = 32


def new_key() -> str:
    """A fresh secret (player key or invite token), URL-safe text that never begins with ``-``:
    an operator pastes a key on ``westeros server mute KEY``'s command line, where a leading
    ``-`` reads as an option (drawing again costs 1/64 of one character's choices)."""
    while (key := secrets.token_urlsafe(KEY_BYTES)).startswith("-"):
        pass
    return key


def key_hash(key: str) -> str:
    """The hash of ``key`` that the server stores."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()
