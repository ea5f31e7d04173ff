"""The redaction passes of hermes-contract §9, compiled once from :mod:`shellfree.redaction.rules`.

:func:`run_passes` applies them in the contract's order: prefix tokens (plain, then split by
control or zero-width characters), Zhipu keys, assignments (only when not reading ordinary
code), authorization and API-key headers, Telegram bot tokens, private-key blocks, URL
credentials, JWTs, opt-in URL query parameters, form bodies, and phone numbers.
"""

from __future__ import annotations

import re
from typing import Callable

from shellfree.redaction import rules
from shellfree.redaction.assignments import redact_assignments
from shellfree.redaction.masks import PRIVATE_KEY_SENTINEL, mask_token, sentinel

__all__ = ["run_passes"]

Mask = Callable[[str], str]


def _family_pattern(family: rules.TokenFamily) -> str:
    prefix = family.prefix_pattern or "|".join(
        re.escape(p) for p in sorted(family.prefixes, key=len, reverse=True))
    body, n = family.body, family.min_body
    if family.exact:
        tail = f"{body}{{{n}}}"
    elif family.dotted:
        tail = rf"{body}(?:{body}|\.(?={body})){{{n - 1},}}"
    else:
        tail = f"{body}{{{n},}}"
    return f"(?:{prefix}){tail}"


# Hermes: a token must not continue a word, except right after an escape such as \n, \u0022 or
# \x22 (a token inside escaped JSON text), and must not be followed by a word character.
_BEFORE = (r"(?:(?<![A-Za-z0-9_-])|(?<=\\[A-Za-z])|(?<=\\u[0-9A-Fa-f]{4})"
           r"|(?<=\\x[0-9A-Fa-f]{2}))")
_TOKEN = re.compile(
    _BEFORE + "(?:" + "|".join(_family_pattern(f) for f in rules.TOKEN_FAMILIES) + ")"
    + r"(?![A-Za-z0-9_-])")
_PREFIX_GATE = re.compile("|".join(
    re.escape(p) for f in rules.TOKEN_FAMILIES for p in f.prefixes))
_SPLIT_CHAR = re.compile(f"[{rules.ZERO_WIDTH_AND_CONTROL}]")

_ZHIPU = re.compile(r"(?<![A-Za-z0-9_.-])[0-9a-f]{32}\.[A-Za-z0-9]{16,}(?![A-Za-z0-9_.-])")

_AUTH_HEADER = re.compile(
    r"(?i)(?P<pre>\b(?:proxy-)?authorization[ \t]*:[ \t]*(?:[A-Za-z][A-Za-z0-9_-]*[ \t]+)?)"
    r"(?P<cred>[^\s\"']+)")
_API_KEY_HEADER = re.compile(
    r"(?i)(?P<pre>(?<![A-Za-z0-9_-])(?:%s)[ \t]*:[ \t]*)(?P<cred>[^\s\"']+)"
    % "|".join(re.escape(h) for h in rules.API_KEY_HEADERS))
_TELEGRAM = re.compile(r"(?P<bot>bot)?(?P<digits>\d{8,}):[-A-Za-z0-9_]{30,}")
_PRIVATE_KEY = re.compile(
    r"-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----.*?-----END[A-Z0-9 ]*PRIVATE KEY-----", re.S)
_DB_URL = re.compile(
    r"(?P<pre>(?<![A-Za-z0-9+.-])(?:%s)://[^:/@\s]*:)(?P<password>[^@\s]+)(?P<post>@)"
    % "|".join(re.escape(s) for s in sorted(rules.DB_URL_SCHEMES, key=len, reverse=True)))
_TOKEN_URL = re.compile(
    r"(?P<pre>(?<![A-Za-z0-9+.-])(?:%s)://)(?P<token>[^:/@\s]{8,})(?P<post>@)"
    % "|".join(sorted(rules.TOKEN_URL_SCHEMES, key=len, reverse=True)))
_JWT = re.compile(r"eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]{4,}){0,2}")
_SENSITIVE_PARAMS = "|".join(re.escape(p) for p in rules.SENSITIVE_QUERY_PARAMS)
_QUERY_PARAM = re.compile(r"(?i)(?P<pre>[?&](?:%s)=)[^&#\s]+" % _SENSITIVE_PARAMS)
_URL_USERINFO = re.compile(r"(?<=://)[^/@\s:]+:[^/@\s]+@")
_FORM_BODY = re.compile(r"[^\s=&]+=[^\s&]*(?:&[^\s=&]+=[^\s&]*)+")
_FORM_PAIR = re.compile(r"(?i)(?P<pre>(?:^|(?<=&))(?:%s)=)[^&]*" % _SENSITIVE_PARAMS)
_PHONE = re.compile(r"\+(?P<digits>[1-9]\d{6,14})(?![A-Za-z0-9])")


def _tokens(text: str, mask: Mask) -> str:
    if not _PREFIX_GATE.search(text):
        return text
    text = _TOKEN.sub(lambda m: mask(m.group(0)), text)
    if _SPLIT_CHAR.search(text):
        text = _split_tokens(text, mask)
    return text


def _split_tokens(text: str, mask: Mask) -> str:
    """Tokens broken up by control or zero-width characters (``sk-ab\\u200bcd…``).

    The plain pass has already replaced every fragment that matched alone, so joining cannot
    reach across a newline into a fragment that was a token by itself.
    """
    kept = [i for i, ch in enumerate(text) if not _SPLIT_CHAR.match(ch)]
    joined = "".join(text[i] for i in kept)
    pieces: list[str] = []
    last = 0
    for found in _TOKEN.finditer(joined):
        start, end = kept[found.start()], kept[found.end() - 1] + 1
        if not _SPLIT_CHAR.search(text, start, end) or start < last:
            continue
        if text[end:end + 1] == "=":
            continue  # EDGE CASE: never when followed by "=" (an assignment's key, not a token)
        pieces.append(text[last:start])
        pieces.append(mask(found.group(0)))
        last = end
    if not pieces:
        return text
    pieces.append(text[last:])
    return "".join(pieces)


_MASKED = re.compile(r"\*\*\*.*|«redacted.*|.{6}\.\.\..{4}", re.S)


def _header(match: re.Match[str]) -> str:
    credential = match.group("cred")
    if _MASKED.fullmatch(credential):
        return match.group(0)  # an earlier pass masked it already; masking twice loses the head
    return match.group("pre") + mask_token(credential)


def _phone(match: re.Match[str]) -> str:
    digits = match.group("digits")
    keep = 2 if len(digits) <= 8 else 4
    return f"+{digits[:keep]}****{digits[-keep:]}"


def run_passes(text: str, *, file_read: bool, code_file: bool,
               redact_url_credentials: bool) -> str:
    """Applies every pass to *text*; *code_file* is the effective flag (ordinary file content,
    so the assignment passes are skipped)."""
    token_mask: Mask = sentinel if file_read else mask_token
    text = _tokens(text, token_mask)
    if "." in text:
        text = _ZHIPU.sub(lambda m: token_mask(m.group(0)), text)
    if not code_file:
        text = redact_assignments(text, token_mask)
    if ":" in text:
        text = _AUTH_HEADER.sub(_header, text)
        text = _API_KEY_HEADER.sub(_header, text)
        text = _TELEGRAM.sub(lambda m: f"{m.group('bot') or ''}{m.group('digits')}:***", text)
    if "PRIVATE KEY-----" in text:
        text = _PRIVATE_KEY.sub(PRIVATE_KEY_SENTINEL, text)
    if "://" in text:
        text = _DB_URL.sub(lambda m: _db_password(m, code_file), text)
        text = _TOKEN_URL.sub(
            lambda m: m.group("pre") + mask_token(m.group("token")) + m.group("post"), text)
    if "eyJ" in text:
        text = _JWT.sub(lambda m: mask_token(m.group(0)), text)
    if redact_url_credentials and "://" in text:
        text = _QUERY_PARAM.sub(lambda m: m.group("pre") + "***", text)
        text = _URL_USERINFO.sub("***:***@", text)
    if "\n" not in text and "&" in text and _FORM_BODY.fullmatch(text.strip()):
        text = _FORM_PAIR.sub(lambda m: m.group("pre") + "***", text)
    if "+" in text:
        text = _PHONE.sub(_phone, text)
    return text


def _db_password(match: re.Match[str], code_file: bool) -> str:
    password = match.group("password")
    if code_file and password.startswith("{") and password.endswith("}"):
        return match.group(0)  # a template placeholder in code, not a password
    return match.group("pre") + "***" + match.group("post")
