"""The order in which hermes-contract §9's passes and the table's rules run.

:func:`run_passes`: known-prefix tokens (:mod:`.tokens`), the context rules marked to run
before the assignments (Zhipu keys), the ``KEY=value`` assignment passes (:mod:`.assignments`,
only when not reading ordinary code), the remaining context rules in table order
(:mod:`.context_rules`: headers, Telegram, private keys, URL credentials, JWTs, then the rules
beyond §9), and last the switch-driven passes that are about more than secrets: opt-in URL
query parameters, form bodies and phone numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from shellfree.redaction import rules
from shellfree.redaction.assignments import redact_assignments
from shellfree.redaction.context_rules import (
    AFTER_ASSIGNMENTS,
    BEFORE_ASSIGNMENTS,
    Gates,
    apply_rules,
)
from shellfree.redaction.masks import mask_token, sentinel
from shellfree.redaction.tokens import redact_tokens

__all__ = ["run_passes"]

Mask = Callable[[str], str]

_SENSITIVE_PARAMS = "|".join(re.escape(p) for p in rules.SENSITIVE_QUERY_PARAMS)
_QUERY_PARAM = re.compile(r"(?i)(?P<pre>[?&](?:%s)=)[^&#\s]+" % _SENSITIVE_PARAMS)
_URL_USERINFO = re.compile(r"(?<=://)[^/@\s:]+:[^/@\s]+@")
_FORM_BODY = re.compile(r"[^\s=&]+=[^\s&]*(?:&[^\s=&]+=[^\s&]*)+")
_FORM_PAIR = re.compile(r"(?i)(?P<pre>(?:^|(?<=&))(?:%s)=)[^&]*" % _SENSITIVE_PARAMS)
# EDGE CASE: "+" after a letter, digit, "." or ")" is arithmetic or an exponent
# (Decimal('1.2345E+12345680'), x+1234567), and digits followed by ".5" are a decimal number;
# neither is a phone number.
_PHONE = re.compile(r"(?<![A-Za-z0-9.)\]_])\+(?P<digits>[1-9]\d{6,14})(?![A-Za-z0-9]|\.\d)")


def _form_pair(match: re.Match[str]) -> str:
    value = match.group(0)[len(match.group("pre")):]
    if value.startswith("«redacted"):
        return match.group(0)  # a sentinel from an earlier rule: it must stay recognisable
    return match.group("pre") + "***"


def _phone(match: re.Match[str]) -> str:
    digits = match.group("digits")
    keep = 2 if len(digits) <= 8 else 4
    return f"+{digits[:keep]}****{digits[-keep:]}"


def run_passes(text: str, *, file_read: bool, code_file: bool,
               redact_url_credentials: bool) -> str:
    """Applies every pass to *text*; *code_file* is the effective flag (ordinary file content,
    so the assignment passes are skipped)."""
    token_mask: Mask = sentinel if file_read else mask_token
    gates = Gates(text)
    text = redact_tokens(text, token_mask)
    text = apply_rules(text, BEFORE_ASSIGNMENTS, gates, file_read=file_read, code_file=code_file)
    if not code_file:
        text = redact_assignments(text, token_mask)
    text = apply_rules(text, AFTER_ASSIGNMENTS, gates, file_read=file_read, code_file=code_file)
    if redact_url_credentials and "://" in text:
        text = _QUERY_PARAM.sub(lambda m: m.group("pre") + "***", text)
        text = _URL_USERINFO.sub("***:***@", text)
    if "\n" not in text and "&" in text and _FORM_BODY.fullmatch(text.strip()):
        text = _FORM_PAIR.sub(_form_pair, text)
    if "+" in text:
        text = _PHONE.sub(_phone, text)
    return text
