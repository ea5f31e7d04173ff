"""shellfree: the four file tools LLM agents call, in pure Python, with ripgrep 15.1 semantics.

The main object is :class:`FileTools` (one per agent task). The search engine lives in
:mod:`shellfree.search`; the tool contracts build on it in :mod:`shellfree.engine`. Nothing here
spawns a shell or calls ``rg``.
"""

from typing import Any

__version__ = "0.1.0"

__all__ = ["FileTools", "__version__"]


def __getattr__(name: str) -> Any:
    # FileTools is loaded on first use, so `import shellfree` (and `shellfree rg`) stays light.
    if name == "FileTools":
        from shellfree.engine.file_tools import FileTools

        return FileTools
    raise AttributeError(f"module 'shellfree' has no attribute {name!r}")
