"""``shellfree.__all__`` is exactly the package's public names (httpx's test_exported_members)."""

from __future__ import annotations

import subprocess
import sys
from types import ModuleType

import shellfree


def _public_names() -> list[str]:
    # Subpackages (shellfree.search, shellfree.engine, …) become attributes once imported; they
    # are reached by their dotted names, not re-exported, so they are left out.
    names = {
        name for name in dir(shellfree)
        if not name.startswith("_") and not isinstance(getattr(shellfree, name), ModuleType)
    }
    return sorted(names | {"__version__"})


def test_all_is_the_sorted_public_names():
    assert shellfree.__all__ == _public_names(), "update __all__ together with the exports"


def test_every_exported_name_resolves():
    for name in shellfree.__all__:
        assert getattr(shellfree, name) is not None, name


def test_lazy_names_resolve_to_their_modules():
    from shellfree.engine.file_tools import FileTools
    from shellfree.schemas import tool_schemas

    assert shellfree.FileTools is FileTools
    assert shellfree.tool_schemas is tool_schemas


def test_version_is_the_distribution_version():
    from importlib.metadata import PackageNotFoundError, version

    try:
        installed = version("shellfree")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return
    assert shellfree.__version__ == installed


def test_tool_schemas_import_keeps_the_engine_unloaded():
    code = ("import sys, shellfree; shellfree.tool_schemas('mcp'); "
            "print(sorted(m for m in sys.modules "
            "if m.startswith(('shellfree.engine', 'shellfree.search', 'mcp'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
