"""Which paths the file tools refuse to read or search, and which files count as secret-bearing.

:class:`ReadPolicy` implements the read deny-list (Hermes ``get_read_block_error``, §8.1) against
configurable Hermes directories, plus the secret-file test that chooses the redaction mode
(``_is_secret_file_arg``, §9). :func:`nt_namespace_error` is the Windows NT/device-namespace
refusal (§8.3), which looks at the raw string only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterable

from shellfree.engine import messages

__all__ = [
    "ENV_FILE_BASENAMES",
    "SHELL_RC_BASENAMES",
    "ReadPolicy",
    "default_hermes_home",
    "nt_namespace_error",
    "windows_device_name",
]

ENV_FILE_BASENAMES = frozenset(
    {".env", ".env.local", ".env.development", ".env.production", ".env.test", ".env.staging",
     ".envrc"}
)
"""Basenames (compared case-insensitively) refused anywhere on disk (§8.1 rule 4)."""

SHELL_RC_BASENAMES = frozenset(
    {".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zlogin",
     ".zshenv"}
)
"""Shell start-up files read with the secret-file redaction passes on (§9)."""

CREDENTIAL_FILES = (
    "auth.json", "auth.lock", ".anthropic_oauth.json", ".env", "webhook_subscriptions.json",
    "auth/google_oauth.json", "cache/bws_cache.json",
)
"""Files directly under a Hermes directory that are credential stores (§8.1 rule 2)."""

_DIR_CACHE_CAP = 10_000
"""Resolved parent directories remembered between result checks."""

_NT_PREFIXES = ("\\??\\", "\\\\.\\")
_NT_QUESTION_PREFIXES = ("\\\\?\\unc\\", "\\\\?\\globalroot\\")


def default_hermes_home() -> str:
    """``~/.hermes``, the Hermes root when no profile is active."""
    return os.path.join(os.path.expanduser("~"), ".hermes")


def nt_namespace_error(path: str, verb: str) -> str | None:
    """The refusal for a raw *path* in a Windows NT/device namespace, or None (§8.3).

    EDGE CASE: ``\\\\?\\C:\\...`` (a long-path drive prefix) is allowed; only UNC and
    GLOBALROOT after ``\\\\?\\`` are refused, case-insensitively.
    """
    raw = path.replace("/", "\\")
    if raw.startswith(_NT_PREFIXES) or raw.lower().startswith(_NT_QUESTION_PREFIXES):
        return messages.NT_NAMESPACE_DENIED.format(verb=verb, path=path)
    if _WINDOWS:
        device = windows_device_name(path)
        if device is not None:
            return messages.WINDOWS_DEVICE_NAME_DENIED.format(verb=verb, path=path, device=device)
    return None


def windows_device_name(path: str) -> str | None:
    """The reserved device a Windows *path* names in its last component, or None.

    Windows maps ``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM0``-``COM9`` and ``LPT0``-``LPT9``
    (also the superscript digits ¹²³) to devices in every directory, case-insensitively and
    whatever follows a dot or trailing spaces: ``nul.txt`` and ``Con .log`` are devices too.
    """
    name = path.replace("/", "\\").rstrip("\\").rsplit("\\", 1)[-1]
    stem = name.split(".", 1)[0].rstrip(" ").upper()
    if stem in _WINDOWS_DEVICES or (
        len(stem) == 4 and stem[:3] in ("COM", "LPT") and stem[3] in "0123456789\u00b9\u00b2\u00b3"
    ):
        return stem
    return None


_WINDOWS = os.name == "nt"
_WINDOWS_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"})


def _fold(path: str) -> str:
    """*path* as the file system compares it: Windows and macOS (APFS and HFS+ by default)
    are case-insensitive, so a deny-list must not be dodged by spelling a name in capitals."""
    path = os.path.normcase(path)  # Windows: lower case, "/" → "\\"
    return path.lower() if sys.platform == "darwin" else path


def _within(path: str, directory: str) -> bool:
    path, directory = _fold(path), _fold(directory)
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _same(a: str, b: str) -> bool:
    return _fold(a) == _fold(b)


class ReadPolicy:
    """The read deny-list and the secret-file test for one set of Hermes directories.

    *hermes_dirs* are the active ``HERMES_HOME`` and the Hermes root (they differ under
    profiles); each is expanded and resolved once. The ``.env``-family rule applies anywhere.
    """

    def __init__(self, hermes_dirs: Iterable[str | os.PathLike[str]]) -> None:
        raw = [os.fspath(d) for d in hermes_dirs]
        resolved = [str(Path(d).expanduser().resolve()) for d in raw]
        # Unresolved spellings are kept too: a path given through a symlinked home must still
        # match after both sides are resolved, and an unresolvable one must match as written.
        self.hermes_dirs: tuple[str, ...] = tuple(dict.fromkeys(resolved))
        self._raw_dirs: tuple[str, ...] = tuple(os.path.expanduser(d) for d in raw)
        self._dir_cache: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"ReadPolicy(hermes_dirs={self.hermes_dirs!r})"

    # -- the deny-list ------------------------------------------------------------------------

    def read_block_error(self, path: str) -> str | None:
        """The ``Access denied: …`` text if reading or searching *path* is refused, else None.

        *path* must be absolute (task-resolved); the message names it as given (§8.1).
        """
        nt = nt_namespace_error(path, "Read")
        if nt is not None:
            return nt
        resolved = str(Path(path).expanduser().resolve())
        return self._block_error_resolved(path, resolved)

    def result_is_blocked(self, path: str) -> bool:
        """Whether a search result at absolute *path* must be filtered out (§5.2 step 7).

        Resolves the parent directory once per directory: rg never follows a symlink while
        walking, so a listed file is never itself a link into a denied directory, while a
        directory on its way may be.
        """
        if os.path.basename(path).lower() in ENV_FILE_BASENAMES:
            return True
        parent, name = os.path.split(path)
        real_parent = self._dir_cache.get(parent)
        if real_parent is None:
            if len(self._dir_cache) >= _DIR_CACHE_CAP:
                self._dir_cache.clear()  # a link changed later is seen again after a while
            real_parent = str(Path(parent).resolve())
            self._dir_cache[parent] = real_parent
        return self._block_error_resolved(path, os.path.join(real_parent, name)) is not None

    def _block_error_resolved(self, path: str, resolved: str) -> str | None:
        for home in self.hermes_dirs:
            error = self._hermes_dir_error(path, resolved, home)
            if error is not None:
                return error
        if os.path.basename(resolved).lower() in ENV_FILE_BASENAMES or (
            os.path.basename(path).lower() in ENV_FILE_BASENAMES
        ):
            return messages.DENY_ENV_FILE.format(path=path)
        return None

    @staticmethod
    def _hermes_dir_error(path: str, resolved: str, home: str) -> str | None:
        if not _within(resolved, home):
            return None
        if _within(resolved, os.path.join(home, "skills", ".hub")):
            return messages.DENY_SKILLS_HUB.format(path=path)
        for rel in CREDENTIAL_FILES:
            if _same(resolved, os.path.join(home, *rel.split("/"))):
                return messages.DENY_CREDENTIAL_STORE.format(path=path)
        for name, (dir_reason, file_reason) in messages.DENY_DIRECTORY_REASONS.items():
            denied = os.path.join(home, name)
            if _same(resolved, denied):
                return messages.DENY_DIRECTORY.format(path=path, reason=dir_reason)
            if _within(resolved, denied):
                return messages.DENY_DIRECTORY.format(path=path, reason=file_reason)
        return None

    # -- the secret-file test -----------------------------------------------------------------

    def is_secret_target(self, path: str) -> bool:
        """:meth:`is_secret_file` of the file *path* names, symlinks followed: Hermes asks it of
        ``Path.resolve()``'s path (§1.5, §2.6 step 5), so ``notes.txt -> .zshrc`` is read
        with every redaction pass on; a link whose own name is secret stays secret too."""
        return self.is_secret_file(path) or self.is_secret_file(os.path.realpath(path))

    def is_secret_file(self, path: str) -> bool:
        """Hermes ``_is_secret_file_arg``: the file is read with every redaction pass on (§9).

        True for the ``.env`` family and shell rc files anywhere, and for ``config.yaml`` (or a
        ``config.yaml.good.*`` / ``config.yaml.corrupt.*`` backup) under a ``.hermes`` directory
        or a Hermes directory. EDGE CASE: a path with an unexpanded ``$`` is never secret.
        """
        if "$" in path:
            return False
        base = os.path.basename(path)
        lowered = base.lower()
        if lowered in ENV_FILE_BASENAMES or lowered in SHELL_RC_BASENAMES:
            return True
        if not (base == "config.yaml" or base.startswith(("config.yaml.good.",
                                                            "config.yaml.corrupt."))):
            return False
        parent = os.path.dirname(path)
        if ".hermes" in Path(parent).parts:
            return True
        candidates = {os.path.normpath(parent), str(Path(parent).resolve())}
        homes = set(self.hermes_dirs) | {os.path.normpath(d) for d in self._raw_dirs}
        return any(_within(c, h) for c in candidates for h in homes)

