"""shellfree: the four file tools LLM agents call, in pure Python, with ripgrep 15.1 semantics.

The search engine lives in :mod:`shellfree.search`; the tool contracts build on it. Nothing here
spawns a shell or calls ``rg``.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
