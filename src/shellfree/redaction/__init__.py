"""Secret redaction applied to text before it reaches an agent's context (hermes-contract §9).

The one entry point is :func:`redact_sensitive_text`. Every rule is a named entry of one table,
:data:`shellfree.redaction.rules.RULES` (known-prefix tokens and context rules, each written from
its format's documented shape); :mod:`.passes` runs them in the contract's order, with
:mod:`.tokens` (the prefix pass), :mod:`.assignments` (``KEY=value`` forms), :mod:`.context_rules`
(headers, URLs, key names), :mod:`.private_keys` (key blocks), :mod:`.checks` (second looks at a
match) and :mod:`.masks` (what replaces a secret). Everything is compiled once, at import. Text
in, text out: this package imports nothing from the rest of shellfree.
"""

from __future__ import annotations

import os
from typing import Any

from shellfree.redaction.passes import run_passes

__all__ = ["REDACTION_ENABLED", "redact_sensitive_text"]

REDACTION_ENABLED = os.environ.get("HERMES_REDACT_SECRETS", "1").strip().lower() in (
    "1", "true", "yes", "on")
"""Hermes: ``HERMES_REDACT_SECRETS`` is read once, at import; redaction is on unless it is set
to something other than 1/true/yes/on. ``force=True`` redacts regardless."""


def redact_sensitive_text(
    text: Any,
    *,
    force: bool = False,
    code_file: bool = False,
    file_read: bool = False,
    secret_file: bool = False,
    redact_url_credentials: bool = False,
) -> Any:
    """Returns *text* with secrets masked (Hermes ``redact_sensitive_text``, §9).

    *file_read* marks file content: known-prefix tokens and assignments then become
    non-reusable sentinels (``«redacted:sk-…»``) rather than head/tail masks. File content is
    treated as code (the ``KEY=value``/JSON/YAML assignment passes are skipped) unless
    *secret_file* says the file holds secrets (``.env``, shell rc files, Hermes config).
    *code_file* asks for the same code treatment for text that is not a file read.
    *redact_url_credentials* also masks sensitive URL query parameters and ``user:pass@``.
    ``None`` is returned as is; other non-strings are converted with ``str``.
    """
    if text is None:
        return None
    if not isinstance(text, str):
        text = str(text)
    if not text or not (REDACTION_ENABLED or force):
        return text
    effective_code_file = (code_file or file_read) and not secret_file
    return run_passes(text, file_read=file_read, code_file=effective_code_file,
                      redact_url_credentials=redact_url_credentials)
