"""The known-prefix token pass (hermes-contract §9 pass 1), compiled once from the table's
:class:`~shellfree.redaction.rules.TokenRule` entries.

Every prefix becomes one alternative of a single regex that begins with the prefix literal, so
the regex engine can skip quickly to the places where a prefix starts. Whether a token may start
there (not in the middle of a word) is checked in Python on the few candidates. A second step
joins text split by control or zero-width characters (``sk-ab\\u200bcd…``) and looks again.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

from shellfree.redaction.rules import TOKEN_RULES, ZERO_WIDTH_AND_CONTROL, TokenRule

__all__ = ["redact_tokens", "token_rule_for"]

Mask = Callable[[str], str]

_WORD_DASH = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


def _tail(rule: TokenRule) -> str:
    body, low, high = rule.body, rule.min_body, rule.max_body
    if rule.dotted:
        # Single dots may sit between body characters: "sk-proj.abc" but not "sk-..x".
        return rf"{body}(?:{body}|\.(?={body})){{{low - 1},}}"
    return f"{body}{{{low},{'' if high is None else high}}}"


def _alternatives(rule: TokenRule) -> list[str]:
    if rule.prefix_pattern:
        return [rule.prefix_pattern + _tail(rule)]
    ordered = sorted(rule.prefixes, key=len, reverse=True)
    return [re.escape(prefix) + _tail(rule) for prefix in ordered]


# One alternative per prefix, in table order, each starting with its literal: the engine then
# searches for the set of first characters instead of trying every position.
_TOKEN = re.compile(
    "(?:" + "|".join(alt for rule in TOKEN_RULES for alt in _alternatives(rule)) + ")"
    + r"(?![A-Za-z0-9_-])")
_RULE_PATTERNS = tuple(
    (rule, re.compile("(?:" + "|".join(_alternatives(rule)) + ")")) for rule in TOKEN_RULES)
_ESCAPE_BEFORE = re.compile(r"(?:\\[A-Za-z]|\\u[0-9A-Fa-f]{4}|\\x[0-9A-Fa-f]{2})\Z")
_DIGEST_BEFORE = re.compile(r"(?i)(?:sha(?:1|224|256|384|512)|md5|blake2[bs]?)[=:]\Z")
_SPLIT_CHAR = re.compile(f"[{ZERO_WIDTH_AND_CONTROL}]")
_SPLIT_TABLE = {ord(c): None for c in map(chr, range(0x2100)) if _SPLIT_CHAR.match(c)}
_SPLIT_TABLE[0xFEFF] = None


def token_rule_for(token: str) -> TokenRule | None:
    """The table entry whose shape *token* has: the first in table order, as the single regex's
    alternation would choose."""
    for rule, pattern in _RULE_PATTERNS:
        if pattern.fullmatch(token):
            return rule
    return None


def _may_start(text: str, start: int) -> bool:
    # Hermes: a token must not continue a word, except right after an escape such as \n,
    # \u0022 or \x22 (a token inside escaped JSON text).
    if start == 0:
        return True
    if text[start - 1] not in _WORD_DASH:
        # EDGE CASE: a base64url digest in a pip RECORD or lock file ("sha256=sk_HDVL…") may
        # begin with a token prefix; after a hash label it is a checksum, not a secret.
        return _DIGEST_BEFORE.search(text, max(0, start - 8), start) is None
    return _ESCAPE_BEFORE.search(text, max(0, start - 6), start) is not None


def _accepted(token: str) -> bool:
    rule = token_rule_for(token)
    if rule is None or rule.check is None:
        return True
    prefix = max((p for p in rule.prefixes if token.startswith(p)), key=len, default="")
    return rule.check(token[len(prefix):])


# Every token is a run of at least _MIN_TOKEN characters of _RUN (prefixes and bodies only use
# these). Finding such runs is one fast regex; a token can only start at a run's start, after a
# separator inside the run (".", "=", "+", "/": not word characters), or after an escape.
_MIN_TOKEN = min(min(len(p) for p in rule.prefixes) + rule.min_body for rule in TOKEN_RULES)
_RUN = re.compile(rf"[A-Za-z0-9_.=+/-]{{{_MIN_TOKEN},}}")
_SEPARATORS = ".=+/"
_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _rule in TOKEN_RULES:
    for _prefix in _rule.prefixes:
        _BY_FIRST[_prefix[0]] = _BY_FIRST.get(_prefix[0], ()) + (_prefix,)


def _find(text: str) -> list[tuple[int, int]]:
    """Spans of the tokens in *text*, leftmost first, none overlapping."""
    spans: list[tuple[int, int]] = []
    last = 0
    by_first, match, startswith = _BY_FIRST.get, _TOKEN.match, text.startswith

    def token_at(start: int) -> None:
        nonlocal last
        prefixes = by_first(text[start:start + 1])
        if start < last or not prefixes or not startswith(prefixes, start):
            return
        found = match(text, start)
        if found is not None and _may_start(text, start) and _accepted(found.group(0)):
            spans.append((start, found.end()))
            last = found.end()

    for run in _RUN.finditer(text):
        start = run.start()
        starts = [start]
        if start and text[start - 1] == "\\":  # a run right after \n, \u0022 or \x22
            starts += [start + 1, start + 3, start + 5]
        body = run.group()
        for separator in _SEPARATORS:  # a token may also start right after one of these
            index = body.find(separator)
            while index != -1:
                starts.append(start + index + 1)
                index = body.find(separator, index + 1)
        if len(starts) > 1:
            starts.sort()
        for candidate in starts:
            token_at(candidate)
    return spans


def _splice(text: str, spans: list[tuple[int, int]], replace: Callable[[int, int], str]) -> str:
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces.append(text[last:start])
        pieces.append(replace(start, end))
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def redact_tokens(text: str, mask: Mask) -> str:
    """Replaces every known-prefix token in *text* by ``mask(token)``, including tokens split by
    control or zero-width characters."""
    spans = _find(text)
    if spans:
        text = _splice(text, spans, lambda s, e: mask(text[s:e]))
    return _split_tokens(text, mask)


def _split_tokens(text: str, mask: Mask) -> str:
    """Tokens broken up by control or zero-width characters (``sk-ab\\u200bcd…``).

    The plain pass has already replaced every fragment that matched alone, so joining cannot
    reach across a newline into a fragment that was a token by itself.
    """
    # str.translate is the fastest way to drop characters from ASCII text; once a sentinel
    # ("«…»") made the text non-ASCII, the regex is.
    joined = text.translate(_SPLIT_TABLE) if text.isascii() else _SPLIT_CHAR.sub("", text)
    if len(joined) == len(text):
        return text
    found = _find(joined)
    if not found:
        return text
    removed = [m.start() for m in _SPLIT_CHAR.finditer(text)]
    # The i-th removed character sat before joined[removed[i] - i]; a joined index j maps back
    # to j plus the number of removed characters at or before that place.
    shifted = [index - n for n, index in enumerate(removed)]

    def original(j: int) -> int:
        return j + bisect.bisect_right(shifted, j)

    spans: list[tuple[int, int]] = []
    last = 0
    for start, end in found:
        o_start, o_end = original(start), original(end - 1) + 1
        if o_end - o_start == end - start or o_start < last:
            continue  # nothing was removed inside: the plain pass saw this one already
        if text[o_end:o_end + 1] == "=":
            continue  # EDGE CASE: never when followed by "=" (an assignment's key, not a token)
        spans.append((o_start, o_end))
        last = o_end
    if not spans:
        return text
    return _splice(text, spans, lambda s, e: mask(joined_token(text, s, e)))


def joined_token(text: str, start: int, end: int) -> str:
    """The token at ``text[start:end]`` with its splitting characters removed."""
    return _SPLIT_CHAR.sub("", text[start:end])
