"""The tool contracts (read_file, write_file, patch, search_files) and their per-task state.

The main object is :class:`~shellfree.engine.file_tools.FileTools`, one per agent task; its
methods return the JSON text an agent receives. Searches run through a backend
(:mod:`shellfree.engine.backends`): shellfree's own rg in-process, or a real rg for parity runs.
"""

from shellfree.engine.file_tools import FileTools

__all__ = ["FileTools"]
