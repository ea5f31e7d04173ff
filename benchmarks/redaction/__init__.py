"""Redaction benchmark: recall over a labelled corpus of fake secrets, false positives over
ordinary installed source code, and the time to redact 1 MB of mixed text.

``python -m benchmarks.redaction`` runs all three, prints the tables and writes
``benchmarks/results/redaction.md``. :mod:`.corpus` generates the secrets, :mod:`.ordinary`
picks and scans the ordinary files, :mod:`.measure` runs the three measurements and
:mod:`.report` renders them.
"""
