"""What a failed patch shows the agent: where the several matches are, or which sections of the
file look most like the text it sent (§4.4.3 locations, §4.4.4 "Did you mean").
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import Sequence

from shellfree.engine import messages

__all__ = ["closest_sections", "match_locations"]

LOCATIONS_SHOWN = 5
SNIPPET_MAX = 80
SNIPPET_CUT = 77
CLOSEST_MIN_RATIO = 0.3
CLOSEST_SHOWN = 3
CONTEXT_LINES = 2


def match_locations(content: str, starts: Sequence[int]) -> str:
    """Up to five ``  L{line}: {snippet}`` rows (the stripped line holding each match start,
    cut to 77 characters plus ``...`` when longer than 80), then ``  ... and {k} more``."""
    rows = []
    for start in starts[:LOCATIONS_SHOWN]:
        line_no = content.count("\n", 0, start) + 1
        line_start = content.rfind("\n", 0, start) + 1
        line_end = content.find("\n", start)
        snippet = content[line_start:line_end if line_end != -1 else len(content)].strip()
        if len(snippet) > SNIPPET_MAX:
            snippet = snippet[:SNIPPET_CUT] + "..."
        rows.append(messages.FUZZY_LOCATION.format(line=line_no, snippet=snippet))
    if len(starts) > LOCATIONS_SHOWN:
        rows.append(messages.FUZZY_MORE_LOCATIONS.format(count=len(starts) - LOCATIONS_SHOWN))
    return "\n".join(rows)


def _visible(leading: str) -> str:
    return leading.replace("\t", "→").replace(" ", "·")


def _show_whitespace(line: str) -> str:
    body = line.lstrip()
    return _visible(line[:len(line) - len(body)]) + body


def closest_sections(old_string: str, content: str) -> str:
    """Hermes ``find_closest_lines``: the file sections most like *old_string*, or ``""``.

    The anchor is the first non-blank line of *old_string*, stripped. Every non-blank file line
    is scored against it (SequenceMatcher ratio of the stripped line); the best three above 0.3
    are shown with two lines of context either side as ``{lineno:4d}| {line}`` rows, the same
    rows once, joined by ``---``. When the best line differs from the anchor only in leading
    whitespace, a block showing both (tab ``→``, space ``·``) follows.
    """
    # Lines as str.splitlines makes them, as Hermes does: a final newline ends the last line
    # rather than starting one more (no row past the end of the file).
    old_lines = old_string.splitlines()
    raw_anchor = next((line for line in old_lines if line.strip()), None)
    if raw_anchor is None:
        return ""
    anchor = raw_anchor.strip()
    lines = content.splitlines()
    scored: list[tuple[float, int]] = []
    matcher = SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(anchor)  # analysed once; each file line is set as seq1
    floor = CLOSEST_MIN_RATIO
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped:
            continue
        matcher.set_seq1(stripped)
        # The ratio never exceeds these upper bounds; a line that cannot enter the top three
        # (or pass the 0.3 floor) is skipped before the costly ratio.
        if matcher.real_quick_ratio() <= floor or matcher.quick_ratio() <= floor:
            continue
        ratio = matcher.ratio()
        if ratio > CLOSEST_MIN_RATIO:
            scored.append((ratio, index))
            # Highest ratio first; among equals, the earlier line.
            scored.sort(key=lambda item: (-item[0], item[1]))
            del scored[CLOSEST_SHOWN:]
            if len(scored) == CLOSEST_SHOWN:
                floor = max(CLOSEST_MIN_RATIO, scored[-1][0])
    if not scored:
        return ""
    windows: list[str] = []
    shown: set[tuple[int, int]] = set()
    for _, index in scored[:CLOSEST_SHOWN]:
        first = max(0, index - CONTEXT_LINES)
        last = min(len(lines), index + len(old_lines) + CONTEXT_LINES)
        if (first, last) not in shown:  # the same rows once
            shown.add((first, last))
            windows.append("\n".join(f"{n + 1:4d}| {lines[n]}" for n in range(first, last)))
    text = messages.DID_YOU_MEAN_SEPARATOR.join(windows)
    best = lines[scored[0][1]]
    if best.strip() == anchor and best != raw_anchor:
        text += messages.WHITESPACE_DIFFERENCE.format(
            file_has=_show_whitespace(best), you_sent=_show_whitespace(raw_anchor))
    return text
