"""The result of a patch, in Hermes' ``PatchResult.to_dict`` shape (§4.3 step 9)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from shellfree.engine.read_tracking import StatKey
from shellfree.engine.text_decoding import CodePage

__all__ = ["PatchOutcome"]


@dataclass(frozen=True, slots=True)
class PatchOutcome:
    """What a patch did. *lint* is one lint dict (replace mode) or ``{path: lint dict}`` (V4A).
    *rolled_back* (shellfree's own) says a failed V4A apply restored every file it had changed.
    *versions* maps each written real path to its verified version (None when unverified), and
    *code_pages* each one written in a legacy code page to how it uses it, for the task's
    bookkeeping; neither is part of the JSON."""

    success: bool
    no_change: bool = False
    note: str | None = None
    diff: str | None = None
    files_modified: tuple[str, ...] = ()
    files_created: tuple[str, ...] = ()
    files_deleted: tuple[str, ...] = ()
    lint: dict[str, Any] | None = None
    error: str | None = None
    rolled_back: bool = False
    versions: dict[str, StatKey | None] = field(default_factory=dict, compare=False)
    code_pages: dict[str, CodePage] = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """``success`` always; ``no_change`` and ``note`` when set; then, only when truthy,
        ``diff``, ``files_modified``, ``files_created``, ``files_deleted``, ``lint``,
        ``error`` (and shellfree's ``rolled_back``)."""
        result: dict[str, Any] = {"success": self.success}
        if self.no_change:
            result["no_change"] = True
        if self.note:
            result["note"] = self.note
        for key in ("diff", "files_modified", "files_created", "files_deleted", "lint", "error"):
            value = getattr(self, key)
            if value:
                result[key] = list(value) if isinstance(value, tuple) else value
        if self.rolled_back:
            result["rolled_back"] = True
        return result


def failure(error: str, **extra: Any) -> PatchOutcome:
    """An unsuccessful :class:`PatchOutcome` with *error*."""
    return PatchOutcome(False, error=error, **extra)
