"""The file versions the writer cycles through: version *k* of a run is a fixed pseudo-random
ASCII text of the chosen size whose first line names *k*, so every version has its own sha256
and the parent can recompute any of them without being told."""

from __future__ import annotations

import base64
import hashlib
import random

__all__ = ["content", "digest"]

_BODIES: dict[tuple[int, int], str] = {}


def _body(seed: int, size: int) -> str:
    key = (seed, size)
    if key not in _BODIES:
        rng = random.Random(seed)
        raw = base64.b64encode(rng.randbytes(size * 3 // 4 + 3)).decode("ascii")[:size]
        # 76-column lines, like a base64 dump: a realistic line-oriented text file.
        _BODIES[key] = "\n".join(raw[i:i + 76] for i in range(0, len(raw), 76)) + "\n"
    return _BODIES[key]


def content(version: int, seed: int, size: int) -> str:
    """Version *version* of the file (about *size* bytes)."""
    return f"version {version}\n" + _body(seed, size)


def digest(version: int, seed: int, size: int) -> str:
    """The sha256 of :func:`content` as written (UTF-8, LF)."""
    return hashlib.sha256(content(version, seed, size).encode("utf-8")).hexdigest()
