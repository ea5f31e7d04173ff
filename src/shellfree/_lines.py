"""Line arithmetic on bytes shared by layers that do not import each other (the in-process
rg backend of the file tools, and the command line's split-file search)."""

from __future__ import annotations

__all__ = ["end_of_lines"]


def end_of_lines(data: bytes, count: int, terminator: bytes = b"\n") -> int:
    """The offset just after the *count*-th *terminator* (one byte) of *data* (``len(data)``
    if it has fewer)."""
    pos = -1
    for _ in range(count):
        pos = data.find(terminator, pos + 1)
        if pos < 0:
            return len(data)
    return pos + 1
