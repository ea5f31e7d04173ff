"""The syntax check reported as ``lint`` after a write or patch, limited to errors the edit added.

In-process linters only (Hermes §3.10): ``.py`` (``ast.parse``), ``.json``, ``.yaml``/``.yml``
(PyYAML events) and ``.toml``. Hermes runs ``node``, ``tsc``, ``go vet`` and ``rustfmt`` for other
languages; shellfree spawns no processes, so those files report ``No linter for {ext} files``.
A ``.py`` file with a syntax error is still written: only JSON/YAML/TOML are fail-closed
(:func:`~shellfree.engine.write_content_guards.syntax_error`).
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass
from typing import Any

from shellfree.engine import messages
from shellfree.engine.write_content_guards import MissingParser, syntax_check

__all__ = ["LintResult", "lint", "lint_delta"]


@dataclass(frozen=True, slots=True)
class LintResult:
    """One lint run: *status* ``"ok"``, ``"error"`` or ``"skipped"``; *output* the linter's
    complaint; *message* a note (why it was skipped, or that the errors were there before)."""

    status: str
    output: str = ""
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Hermes ``LintResult.to_dict``: skipped → status and message; otherwise status and
        output, plus message when non-empty."""
        if self.status == "skipped":
            return {"status": "skipped", "message": self.message}
        result: dict[str, Any] = {"status": self.status, "output": self.output}
        if self.message:
            result["message"] = self.message
        return result


def _python_check(text: str) -> str | None:
    try:
        ast.parse(text)
    except SyntaxError as error:
        return f"SyntaxError: {error.msg} (line {error.lineno}, column {error.offset})"
    except ValueError as error:  # source with NUL bytes
        return f"ValueError: {error}"
    return None


def lint(path: str, text: str) -> LintResult:
    """Lints *text* as the content of *path* (by its extension)."""
    ext = os.path.splitext(path)[1].lower()
    if ext == ".py":
        complaint = _python_check(text)
    else:
        if ext not in (".json", ".yaml", ".yml", ".toml"):
            # An extensionless file gets the contract's text with an empty {ext} (§3.10).
            return LintResult("skipped", message=messages.LINT_NO_LINTER.format(ext=ext))
        try:
            complaint = syntax_check(ext, text)
        except MissingParser:
            return LintResult("skipped", message=messages.LINT_MISSING_DEPENDENCY.format(ext=ext))
    if complaint is None:
        return LintResult("ok")
    return LintResult("error", output=complaint)


def lint_delta(path: str, new_text: str, old_text: str | None) -> LintResult:
    """Lints *new_text*; when *old_text* (the content before the edit) failed too, the error
    lines it already had are filtered out (§3.10 "Delta")."""
    after = lint(path, new_text)
    if after.status != "error" or old_text is None:
        return after
    before = lint(path, old_text)
    if before.status != "error":
        return after
    known = set(before.output.splitlines())
    new_lines = [line for line in after.output.splitlines() if line not in known]
    if not new_lines:
        return LintResult("error", output=after.output, message=messages.LINT_PRE_EXISTING)
    return LintResult("error", output=messages.LINT_NEW_ERRORS + "\n".join(new_lines))
