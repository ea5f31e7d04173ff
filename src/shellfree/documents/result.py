"""The value every extractor returns, and the one place its text is normalised."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Extraction", "finish_text"]


@dataclass(frozen=True, slots=True)
class Extraction:
    """Text extracted from one document.

    *text* is what read_file pages like any file: line boundaries are plain ``"\\n"`` and it
    ends with exactly one. *kind* is the extractor that produced it (``"docx"``, ``"xlsx"``,
    ``"pdf"``, ``"ipynb"``). *warnings* repeats, one line each, what the agent should know
    because content is missing from *text* (PDF pages without text, rows over the cap, hidden
    sheets skipped, outputs truncated); the inline notes in *text* say the same where it
    happens. *diagnostics* holds what the parsing library reported while recovering from a
    malformed file (pypdf's log messages, openpyxl's warnings), for logs rather than the agent.
    """

    text: str
    kind: str
    warnings: tuple[str, ...] = ()
    diagnostics: tuple[str, ...] = ()


# Every character str.splitlines() breaks on besides "\n": PDF text layers and Word files use
# form feeds, vertical tabs and U+2028, and a caller paging with splitlines() must see the same
# lines as one splitting on "\n".
_LINE_BREAKS = str.maketrans(dict.fromkeys("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", "\n"))


def finish_text(text: str) -> str:
    """Normalise line boundaries to ``"\\n"`` and end *text* with exactly one newline."""
    return text.replace("\r\n", "\n").translate(_LINE_BREAKS).rstrip() + "\n"
