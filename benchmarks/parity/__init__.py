"""Differential parity harness: run the same cases through the reference ripgrep 15.1 binary and
through ``python -m shellfree rg``, and report every difference.

The main objects are :class:`~benchmarks.parity.runner.ParityRunner` (runs one case, returns a
:class:`~benchmarks.parity.runner.Comparison`) and :func:`~benchmarks.parity.walk_cases.walk_case`
(seed → random ``--files`` case). ``python -m benchmarks.parity walk`` is the long run.
"""
