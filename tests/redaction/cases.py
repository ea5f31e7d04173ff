"""Shared helpers for the rule tests: synthetic secrets and the true/false-positive case shape.

Every secret in these tests is made up by :func:`synth` (a hash stretched over an alphabet) or
written by hand to the documented shape with obviously fake content: none is a real credential.
Each family test module defines ``CASES``, mapping a rule name of
:data:`shellfree.redaction.rules.RULES` to a :class:`Case`; ``test_table.py`` checks that every
rule has one.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from shellfree.redaction import redact_sensitive_text

ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
WORD_DASH = ALNUM + "_-"
HEX = "0123456789abcdef"
UPPER_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789"
B64 = ALNUM + "+/"


def synth(length: int, alphabet: str = ALNUM, seed: str = "") -> str:
    """A deterministic, random-looking, fake string of *length* characters from *alphabet*."""
    out: list[str] = []
    counter = 0
    while len(out) < length:
        digest = hashlib.sha256(f"shellfree-fake:{seed}:{counter}".encode()).digest()
        out.extend(alphabet[b % len(alphabet)] for b in digest)
        counter += 1
    return "".join(out[:length])


@dataclass(frozen=True)
class Case:
    """True positives as ``(line, secret)`` pairs: after redaction *secret* must be gone from
    the line, in file reads and in other calls. Near misses: lines that must come back as they
    were from a file read of ordinary code (and, when *also_plain*, from a plain call too)."""

    positives: list[tuple[str, str]]
    negatives: list[str] = field(default_factory=list)
    also_plain: bool = True


def assert_redacted(line: str, secret: str) -> None:
    """*secret* is gone from *line* both as a file read and as ordinary tool output."""
    for kwargs in ({"file_read": True}, {}):
        out = redact_sensitive_text(line, **kwargs)
        assert secret not in out, f"{kwargs}: {secret!r} survived in {out!r}"
        assert out != line, f"{kwargs}: nothing was redacted in {line!r}"


def assert_kept(line: str, *, also_plain: bool) -> None:
    """*line* is not changed by a file read of ordinary code (and by a plain call)."""
    out = redact_sensitive_text(line, file_read=True)
    assert out == line, f"file read changed {line!r} into {out!r}"
    if also_plain:
        out = redact_sensitive_text(line)
        assert out == line, f"plain call changed {line!r} into {out!r}"


Positive = tuple[str, str, str]
Negative = tuple[str, str, bool]


def parametrize_cases(cases: dict[str, Case]) -> tuple[list[Positive], list[Negative]]:
    """Flattens *cases* into pytest parameters: ``(rule, line, secret)`` positives and
    ``(rule, line, also_plain)`` negatives."""
    positives = [(rule, line, secret) for rule, case in cases.items()
                 for line, secret in case.positives]
    negatives = [(rule, line, case.also_plain) for rule, case in cases.items()
                 for line in case.negatives]
    return positives, negatives
