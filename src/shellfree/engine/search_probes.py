"""The zero-match steering probes: when a content search finds nothing, say why it might have.

Three probes run in order, each a ``--count-matches`` search with one change: case-insensitive,
hidden and ignored files included (prune directories excluded), or the pattern taken literally.
The first that finds something produces the warning (§5.4, §8.7). They run in-process like any
other search, so they work where Hermes, lacking rg, loses them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from shellfree.engine import messages
from shellfree.engine.backends import RgRun
from shellfree.engine.rg_commands import probe_command, prune_globs
from shellfree.engine.search_output import parse_probe_counts
from shellfree.engine.text_decoding import LineDecoder

__all__ = ["PROBES", "Probe", "REGEX_METACHARACTERS", "listed", "zero_match_warning"]

REGEX_METACHARACTERS = ".[](){}?*+^$\\|"
"""The literal probe runs only for patterns containing one of these."""

PROBE_PATHS_SHOWN = 5
"""The warning names at most this many files, then says how many more there are."""


@dataclass(frozen=True, slots=True)
class Probe:
    """One probe: extra rg flags and the warning it produces when it finds matches."""

    name: str
    flags: tuple[str, ...]
    message: str
    needs_metacharacters: bool = False

    def applies_to(self, pattern: str) -> bool:
        return not self.needs_metacharacters or any(c in pattern for c in REGEX_METACHARACTERS)


PROBES: tuple[Probe, ...] = (
    Probe("case-insensitive", ("-i",), messages.PROBE_CASE),
    Probe("hidden-or-ignored", ("--hidden", "--no-ignore", *prune_globs()),
          messages.PROBE_HIDDEN),
    Probe("literal", ("-F",), messages.PROBE_LITERAL, needs_metacharacters=True),
)
"""The probes in the order Hermes runs them."""


def zero_match_warning(
    pattern: str,
    path: str,
    file_glob: str | None,
    run_rg: Callable[[list[str]], RgRun],
    decoder: LineDecoder,
    exclude_globs: Sequence[str] = (),
) -> str | None:
    """The warning of the first probe that finds a match, or None.

    EDGE CASE: probes never pass ``--multiline`` (Hermes), so rg refuses a pattern containing
    ``\\n`` and a multiline search gets no probe warning.

    Fixed defect: Hermes reads only the first 50 lines of a probe's output, so its file and match
    counts stop growing there; shellfree counts them all.
    """
    for probe in PROBES:
        if not probe.applies_to(pattern):
            continue
        total, paths = parse_probe_counts(
            run_rg(probe_command(probe.flags, pattern, path, file_glob, exclude_globs)), decoder)
        if total > 0:
            return probe.message.format(total=total, files=len(paths), paths=listed(paths))
    return None


def listed(paths: Sequence[str]) -> str:
    """The first :data:`PROBE_PATHS_SHOWN` of *paths*, and how many more there are."""
    shown = ", ".join(paths[:PROBE_PATHS_SHOWN])
    if len(paths) > PROBE_PATHS_SHOWN:
        shown += messages.PROBE_PATHS_MORE.format(extra=len(paths) - PROBE_PATHS_SHOWN)
    return shown
