"""Every source file compiles without a warning.

A cached ``.pyc`` hides the compiler's warnings on later runs, so a backslash in a docstring
(``"\\w"`` where ``"\\\\w"`` was meant: a DeprecationWarning now, a SyntaxWarning from Python
3.12, an error in time) is seen only on a clean checkout. Compiling the text here sees it on
every run.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted(
    path
    for folder in ("src", "tests", "benchmarks", "scripts")
    for path in (ROOT / folder).rglob("*.py")
    if "corpora" not in path.relative_to(ROOT).parts
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_file_compiles_without_a_warning(path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compile(path.read_bytes(), str(path), "exec")
