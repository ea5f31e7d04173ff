"""shellfree: the four file tools LLM agents call, in pure Python, with ripgrep 15.1 semantics.

The main object is :class:`FileTools` (one per agent task); :func:`tool_schemas` gives the four
tools' schemas to register with an OpenAI, Anthropic or MCP client. The search engine lives in
:mod:`shellfree.search`; the tool contracts build on it in :mod:`shellfree.engine`. Nothing here
spawns a shell or calls ``rg``.
"""

# No `from __future__ import annotations`: it would add a public name, `annotations`.
#
# Nothing on the command line's path imports `typing`: it takes about 7 ms to import (20 ms with
# the `re` it pulls in), about what the interpreter takes to start. Modules import the abstract
# types from `collections.abc` and keep the rest under `if TYPE_CHECKING:`, with the constant
# defined as False in the module, the idiom type checkers recognise (PEP 781).
TYPE_CHECKING = False

__version__ = "0.1.0"

__all__ = ["FileTools", "__version__", "tool_schemas"]

# Public name -> module that defines it. Loaded on first use, so `import shellfree` (and
# `shellfree rg`, which never needs the engine) stays light.
_LAZY = {
    "FileTools": "shellfree.engine.file_tools",
    "tool_schemas": "shellfree.schemas",
}

if TYPE_CHECKING:
    from shellfree.engine.file_tools import FileTools
    from shellfree.schemas import tool_schemas
del TYPE_CHECKING  # not a public name


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'shellfree' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
