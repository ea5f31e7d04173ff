"""What a secret is replaced with: a head-and-tail mask, or a sentinel that cannot be reused (§9)."""

from __future__ import annotations

import re

from shellfree.redaction.rules import TOKEN_FAMILIES

__all__ = ["GENERIC_SENTINEL", "PRIVATE_KEY_SENTINEL", "mask_token", "sentinel"]

GENERIC_SENTINEL = "«redacted-secret»"
"""The sentinel when a secret starts with no known prefix."""

PRIVATE_KEY_SENTINEL = "[REDACTED PRIVATE KEY]"

MASK_MIN_LENGTH = 18
"""Shorter secrets are masked completely: a head and tail would give too much away."""

_CONTROL = re.compile("[\x00-\x1f\x7f]")
_LABELS: tuple[str, ...] = tuple(p for family in TOKEN_FAMILIES for p in family.prefixes)


def mask_token(token: str) -> str:
    """Hermes ``_mask_token``: ``***`` for short tokens, else the first 6 and last 4 characters
    around ``...`` (control characters removed first)."""
    token = _CONTROL.sub("", token)
    if len(token) < MASK_MIN_LENGTH:
        return "***"
    return f"{token[:6]}...{token[-4:]}"


def sentinel(secret: str) -> str:
    """The non-reusable replacement used for file reads: ``«redacted:PREFIX…»`` naming the first
    known prefix (in table order) that *secret* starts with, else ``«redacted-secret»``."""
    for label in _LABELS:
        if secret.startswith(label):
            return f"«redacted:{label}…»"
    return GENERIC_SENTINEL
