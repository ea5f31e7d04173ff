"""What a secret is replaced with: a head-and-tail mask, ``***``, or a sentinel that cannot be
reused (hermes-contract §9)."""

from __future__ import annotations

import re

from shellfree.redaction.rules import TOKEN_RULES, MaskStyle

__all__ = [
    "GENERIC_SENTINEL",
    "PRIVATE_KEY_SENTINEL",
    "is_masked",
    "mask_token",
    "replacement",
    "sentinel",
]

GENERIC_SENTINEL = "«redacted-secret»"
"""The sentinel when a secret starts with no known prefix."""

PRIVATE_KEY_SENTINEL = "[REDACTED PRIVATE KEY]"

MASK_MIN_LENGTH = 18
"""Shorter secrets are masked completely: a head and tail would give too much away."""

_CONTROL = re.compile("[\x00-\x1f\x7f]")
_LABELS: tuple[str, ...] = tuple(p for rule in TOKEN_RULES for p in rule.prefixes)
_MASKED = re.compile(r"\*\*\*.*|«redacted.*|.{6}\.\.\..{4}", re.DOTALL)


def mask_token(token: str) -> str:
    """Hermes ``_mask_token``: ``***`` for short tokens, else the first 6 and last 4 characters
    around ``...`` (control characters removed first)."""
    token = _CONTROL.sub("", token)
    if len(token) < MASK_MIN_LENGTH:
        return "***"
    return f"{token[:6]}...{token[-4:]}"


def sentinel(secret: str, label: str | None = None) -> str:
    """The non-reusable replacement used for file reads: ``«redacted:PREFIX…»`` naming the first
    known prefix (in table order) that *secret* starts with, else *label* when given, else
    ``«redacted-secret»``."""
    for known in _LABELS:
        if secret.startswith(known):
            return f"«redacted:{known}…»"
    if label:
        return f"«redacted:{label}…»"
    return GENERIC_SENTINEL


def is_masked(value: str) -> bool:
    """Whether *value* is already a mask (``***``, a sentinel, ``abcdef...wxyz``): masking it
    again would only lose its head and tail."""
    return bool(_MASKED.fullmatch(value))


def replacement(style: MaskStyle, secret: str, *, file_read: bool,
                label: str | None = None) -> str:
    """What replaces *secret* under a pattern rule's mask *style* (see
    :data:`shellfree.redaction.rules.MaskStyle`)."""
    if file_read:
        # shellfree: every secret in file content becomes a sentinel, also where §9 uses a
        # head-and-tail mask or "***" (headers, JWTs, URLs): an agent that writes a page back
        # must be refused (write_content_guards), and "abcdef...wxyz" or "***" cannot be told
        # apart from ordinary text.
        return sentinel(secret, label)
    if style == "head-tail":
        return mask_token(secret)
    if style == "stars":
        return "***"
    return mask_token(secret) if style == "secret" else "***"
