"""A small, seeded run of the redaction benchmark (``benchmarks/redaction``): the corpus covers
at least 20 families, recall in file reads stays at or above 98%, and a slice of the standard
library comes back unchanged. The full run is ``python -m benchmarks.redaction``."""

from __future__ import annotations

from benchmarks.redaction.corpus import FAMILIES, generate
from benchmarks.redaction.measure import recall
from benchmarks.redaction.ordinary import Source, scan, sources
from shellfree.redaction import redact_sensitive_text


def test_corpus_is_deterministic_and_wide() -> None:
    assert len(FAMILIES) >= 20
    assert generate(7, 3) == generate(7, 3)
    assert {sample.family for sample in generate(7, 3)} == {family.name for family in FAMILIES}


def test_recall_in_file_reads() -> None:
    result = recall(generate(11, 24), "file read")
    assert result.overall >= 0.98, [(m.sample.family, m.sample.text[:80]) for m in result.misses]


def test_stdlib_slice_is_not_redacted() -> None:
    stdlib = next(source for source in sources() if source.label == "stdlib Lib/*.py")
    picked = Source(stdlib.label, stdlib.root, stdlib.files[:25])
    result = scan([picked], lambda text: redact_sensitive_text(text, file_read=True))
    assert result.total_lines > 2_000
    assert result.hits == [], result.hits[:5]
