"""Workspace confinement: with ``FileTools(confine=True)`` no tool touches a path outside the root.

Every path a tool is about to read, search, write, patch, move or delete is resolved with every
symlink followed (``os.path.realpath``: links planted inside the tree, ``..`` in any form,
absolute paths) and refused unless it lands in the workspace root. A path that does not exist
yet (a file about to be written) resolves through its existing parent, so a new file under a
linked directory is judged by where the link points.

This is a shellfree addition; the Hermes contract has no confinement.
"""

from __future__ import annotations

import os
import sys

from shellfree.engine import messages

__all__ = ["Confinement"]


def _fold(path: str) -> str:
    path = os.path.normcase(path)
    return path.lower() if sys.platform == "darwin" else path


class Confinement:
    """The workspace root, resolved once, and the check every tool path goes through."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        self._folded = _fold(self.root).rstrip(os.sep) + os.sep

    def __repr__(self) -> str:
        return f"Confinement(root={self.root!r})"

    def error(self, path: str, resolved: str, verb: str) -> str | None:
        """The refusal for *path* (as the agent gave it; *resolved* is its absolute form), or
        None when it stays inside the root."""
        real = os.path.realpath(resolved)
        folded = _fold(real)
        if folded == self._folded[:-1] or folded.startswith(self._folded):
            return None
        return messages.OUTSIDE_WORKSPACE.format(verb=verb, path=path, real=real, root=self.root)
