"""Find ``old_string`` in a text and say how to replace it: Hermes ``fuzzy_find_and_replace`` (§4.4).

:func:`fuzzy_find_and_replace` runs the pre-checks, the strategy chain
(:mod:`shellfree.engine.fuzzy_strategies`), the post-match guards (uniqueness, replace_all
with approximate strategies, escape drift, rogue indentation) and the replacement adjustments
(escapes, re-indentation, typographic characters kept). It returns the edits as spans of the
text it was given, so the caller can apply them to the file's own bytes (CRLF kept).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from shellfree.engine import messages
from shellfree.engine.fuzzy_hints import match_locations
from shellfree.engine.fuzzy_normalize import normalize_unicode
from shellfree.engine.fuzzy_strategies import APPROXIMATE_STRATEGIES, STRATEGIES, Span

__all__ = ["Edit", "FuzzyResult", "apply_edits", "fuzzy_find_and_replace", "is_already_applied"]

ALREADY_APPLIED_MIN = 8
"""new_string (stripped) must be at least this long to count as already applied (§4.3)."""

_ESCAPE_DRIFT_SEQUENCES = ("\\'", '\\"')
_BLOCK_OPENERS = (":", "{", "(")
_INDENT = re.compile(r"[ \t]*")


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace ``text[start:end]`` with *text*."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class FuzzyResult:
    """The matcher's answer: *content* after the edits (unchanged on error), the number of
    matches, the winning *strategy*, an *error* text, and the *edits* themselves."""

    content: str
    count: int
    strategy: str | None = None
    error: str | None = None
    edits: tuple[Edit, ...] = ()


def apply_edits(content: str, edits: tuple[Edit, ...]) -> str:
    """*content* with the non-overlapping *edits* applied (from the last to the first)."""
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        content = content[:edit.start] + edit.text + content[edit.end:]
    return content


def is_already_applied(content: str, old_string: str, new_string: str) -> bool:
    """§4.3: new_string is substantial, already in the file, and old_string is gone (or is the
    same text) — the edit was made before, so a retry is a no-op rather than a failure."""
    return (len(new_string.strip()) >= ALREADY_APPLIED_MIN and new_string in content
            and (old_string == new_string or old_string not in content))


def _fail(content: str, error: str, count: int = 0, strategy: str | None = None) -> FuzzyResult:
    return FuzzyResult(content, count, strategy, error)


def fuzzy_find_and_replace(content: str, old_string: str, new_string: str,
                           replace_all: bool = False, *, whole_lines: bool = False) -> FuzzyResult:
    """Replaces *old_string* by *new_string* in *content* (once, or everywhere with
    *replace_all*), trying each strategy in order.

    *whole_lines* (V4A hunks, whose lines are whole lines): a match counts only where it
    starts at a line's start and ends at a line's end, give or take the blanks there; a
    strategy whose matches all fall inside lines does not win. Hermes let ``-two`` match the
    ``two`` of a line ``twoo`` and wrote ``TWOo``."""
    if not old_string:
        return _fail(content, messages.FUZZY_OLD_EMPTY)
    if not old_string.strip():
        return _fail(content, messages.FUZZY_OLD_WHITESPACE)
    if old_string == new_string:
        return _fail(content, messages.FUZZY_IDENTICAL)
    for name, strategy in STRATEGIES:
        spans = strategy(content, old_string)
        if whole_lines:
            spans = [span for span in spans if _spans_whole_lines(content, span)]
        if spans:
            break
    else:
        return _fail(content, messages.FUZZY_NO_MATCH)
    if len(spans) > 1 and not replace_all:
        return _fail(content, messages.FUZZY_MULTIPLE.format(
            count=len(spans), locations=match_locations(content, [s for s, _ in spans])),
            len(spans), name)
    if len(spans) > 1 and name in APPROXIMATE_STRATEGIES:
        return _fail(content, messages.FUZZY_APPROXIMATE_REPLACE_ALL.format(
            count=len(spans), strategy=name), len(spans), name)
    spans = _apart(spans)
    regions = [content[s:e] for s, e in spans]
    if name != "exact":
        error = _escape_drift(old_string, new_string, regions) or _rogue_indent(
            old_string, new_string)
        if error is not None:
            return _fail(content, error, 0, name)
    edits = tuple(Edit(s, e, _replacement(name, old_string, new_string, region))
                  for (s, e), region in zip(spans, regions))
    return FuzzyResult(apply_edits(content, edits), len(spans), name, None, edits)


def _apart(spans: list[Span]) -> list[Span]:
    """*spans* (in order) without those overlapping an earlier one kept. EDGE CASE: Hermes
    replaces overlapping line windows too (replace_all over ``x\nx`` in three lines ``x``),
    each from the end, on offsets the later replacement already moved: it corrupts the file.
    Replaced first to last instead, as ``str.replace`` would."""
    kept: list[Span] = []
    for span in spans:
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def _spans_whole_lines(content: str, span: tuple[int, int]) -> bool:
    """Whether only blanks lie between *span* and the starts and ends of its lines."""
    start, end = span
    line_start = content.rfind("\n", 0, start) + 1
    line_end = content.find("\n", end)
    if line_end < 0:
        line_end = len(content)
    return not content[line_start:start].strip(" \t") and not content[end:line_end].strip(" \t\r")


# -- guards for non-exact matches (§4.4.3) -------------------------------------------------------

def _escape_drift(old: str, new: str, regions: list[str]) -> str | None:
    for seq in _ESCAPE_DRIFT_SEQUENCES:
        if seq in new and seq in old and not any(seq in region for region in regions):
            return messages.FUZZY_ESCAPE_DRIFT.format(seq=seq, plain=seq[1])
    return None


def _indent_width(line: str) -> int:
    return len(_INDENT.match(line).group())  # type: ignore[union-attr]


def _rogue_indent(old: str, new: str) -> str | None:
    lines = old.split("\n") + new.split("\n")
    if any(line.rstrip().endswith(_BLOCK_OPENERS) for line in lines):
        return None
    old_max = max((_indent_width(line) for line in old.split("\n") if line.strip()), default=0)
    deeper = [line for line in new.split("\n") if line.strip() and _indent_width(line) > old_max]
    if not deeper:
        return None
    return messages.FUZZY_ROGUE_INDENT.format(
        count=len(deeper), indent=old_max, sample=deeper[0].strip()[:60])


# -- replacement adjustments (§4.4.3) ------------------------------------------------------------

def _replacement(strategy: str, old: str, new: str, region: str) -> str:
    """The text that replaces *region*. EDGE CASE: an exact match is replaced by new_string
    verbatim — old_string then equals the region, so a literal ``\\t`` the agent sent is meant."""
    if strategy == "exact":
        return new
    text = new
    for seq, char in (("\\t", "\t"), ("\\r", "\r")):  # never "\\n" (§4.4.3)
        if seq in text and char in region:
            text = text.replace(seq, char)
    text = _reindent(old, text, region)
    if strategy == "unicode_normalized":
        text = _keep_typography(old, text, region)
    return text


def _base_indent(text: str) -> str | None:
    for line in text.split("\n"):
        if line.strip():
            return _INDENT.match(line).group()  # type: ignore[union-attr]
    return None


def _reindent(old: str, new: str, region: str) -> str:
    """Moves new_string to the matched region's indentation when old_string's differed: the
    old base prefix is swapped for the file's on each non-blank line; a line shallower than the
    base is anchored at the file's base; blank lines stay as they are."""
    old_base, file_base = _base_indent(old), _base_indent(region)
    if old_base is None or file_base is None or old_base == file_base:
        return new
    out = []
    for line in new.split("\n"):
        if not line.strip():
            out.append(line)
        elif line.startswith(old_base):
            out.append(file_base + line[len(old_base):])
        else:
            out.append(file_base + line.lstrip(" \t"))
    return "\n".join(out)


def _keep_typography(old: str, new: str, region: str) -> str:
    """Applies the agent's edit old→new to the file's *region* without turning the region's
    untouched smart quotes, dashes and special spaces into the ASCII the agent typed.

    When old_string and the region normalise to the same text, the raw old→new diff is
    replayed on the region (so a quote the agent deliberately changed is changed); otherwise
    the normalised region is diffed against the normalised new text. A diff boundary inside an
    expanded character falls back to new_string as sent.
    """
    n_region, n_old = normalize_unicode(region), normalize_unicode(old)
    out: list[str] = []
    if n_region.text == n_old.text:
        matcher = SequenceMatcher(None, old, new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                a, b = n_old.to_copy(i1), n_old.to_copy(i2)
                if a is None or b is None or not (
                        n_region.is_boundary(a) and n_region.is_boundary(b)):
                    return new
                out.append(region[n_region.start(a):n_region.end(b)] if b > a else "")
            else:
                out.append(new[j1:j2])
        return "".join(out)
    n_new = normalize_unicode(new)
    matcher = SequenceMatcher(None, n_region.text, n_new.text, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            if not (n_region.is_boundary(i1) and n_region.is_boundary(i2)):
                return new
            out.append(region[n_region.start(i1):n_region.end(i2)] if i2 > i1 else "")
        elif tag in ("replace", "insert"):
            if not (n_new.is_boundary(j1) and n_new.is_boundary(j2)):
                return new
            out.append(new[n_new.start(j1):n_new.end(j2)])
    return "".join(out)


def spans_of(result: FuzzyResult) -> list[Span]:
    """The matched spans of a successful *result*."""
    return [(edit.start, edit.end) for edit in result.edits]
