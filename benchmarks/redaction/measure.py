"""The three measurements: recall per family over the fake-secret corpus, redacted lines over
ordinary text, and the time to redact 1 MB of mixed text, each in the modes the tools use.

Modes: ``file read`` is how read_file and search_files call redaction on an ordinary file
(``file_read=True``: code, so §9's assignment passes are off); ``secret file`` adds
``secret_file=True`` (``.env``, shell rc files); ``plain`` is a call on text that is not file
content (every pass on, head-and-tail masks).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from benchmarks.redaction.corpus import Sample, generate
from benchmarks.redaction.ordinary import ScanResult, iter_texts, scan, sources
from shellfree.redaction import redact_sensitive_text

__all__ = ["MODES", "Miss", "Recall", "Timing", "mixed_text", "recall", "timing"]

MODES: dict[str, dict[str, bool]] = {
    "file read": {"file_read": True},
    "secret file": {"file_read": True, "secret_file": True},
    "plain": {},
}
"""Keyword arguments of :func:`redact_sensitive_text` for each mode."""


def redactor(mode: str) -> Callable[[str], str]:
    """:func:`redact_sensitive_text` with *mode*'s switches (``force`` so that an environment
    that turned redaction off cannot turn the benchmark into a no-op)."""
    kwargs = MODES[mode]
    return lambda text: redact_sensitive_text(text, force=True, **kwargs)


@dataclass(frozen=True, slots=True)
class Miss:
    """A sample whose secret survived."""

    sample: Sample
    output: str


@dataclass(slots=True)
class Recall:
    """Samples and redacted samples per family, and the misses, for one mode."""

    total: dict[str, int] = field(default_factory=dict)
    caught: dict[str, int] = field(default_factory=dict)
    misses: list[Miss] = field(default_factory=list)

    @property
    def overall(self) -> float:
        return sum(self.caught.values()) / max(1, sum(self.total.values()))


def recall(samples: list[Sample], mode: str) -> Recall:
    """A sample counts as caught when none of its secret substrings is left in the output."""
    redact = redactor(mode)
    result = Recall()
    for sample in samples:
        output = redact(sample.text)
        result.total[sample.family] = result.total.get(sample.family, 0) + 1
        if all(secret not in output for secret in sample.secrets):
            result.caught[sample.family] = result.caught.get(sample.family, 0) + 1
        else:
            result.caught.setdefault(sample.family, 0)
            result.misses.append(Miss(sample, output))
    return result


def false_positives(mode: str) -> ScanResult:
    """Redacted lines of the ordinary corpus under *mode*."""
    return scan(sources(), redactor(mode))


def mixed_text(seed: int, size: int = 1_000_000, secret_every: int | None = 40) -> str:
    """*size* characters of ordinary files with a fake secret sample after every
    *secret_every* lines (none when None)."""
    samples = generate(seed, 40)
    lines: list[str] = []
    length = 0
    index = 0
    for _, _, text in iter_texts(sources()):
        for line in text.split("\n"):
            lines.append(line)
            length += len(line) + 1
            if secret_every and len(lines) % secret_every == 0:
                sample = samples[index % len(samples)].text
                index += 1
                lines.append(sample)
                length += len(sample) + 1
            if length >= size:
                return "\n".join(lines)[:size]
    return "\n".join(lines)[:size]


@dataclass(frozen=True, slots=True)
class Timing:
    """Seconds per run of one mode over one text."""

    text: str
    mode: str
    chars: int
    runs: tuple[float, ...]

    @property
    def best(self) -> float:
        return min(self.runs)

    @property
    def median(self) -> float:
        return statistics.median(self.runs)


def timing(label: str, text: str, mode: str, runs: int) -> Timing:
    """Times *runs* redactions of *text* (after one warm-up run); *label* names the text."""
    redact = redactor(mode)
    redact(text)
    seconds = []
    for _ in range(runs):
        started = time.perf_counter()
        redact(text)
        seconds.append(time.perf_counter() - started)
    return Timing(label, mode, len(text), tuple(seconds))
