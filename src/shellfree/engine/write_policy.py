"""Which paths write_file and patch refuse outright: sensitive system paths and the write deny-list.

Two layers, as in Hermes (§8.2): :meth:`WritePolicy.sensitive_path_error` is the tool-layer check
(NT namespace, system prefixes such as ``/etc/``, the Hermes ``config.yaml``), run on the
task-resolved path and the normalised raw path; :meth:`WritePolicy.write_denied_error` is the
file-ops deny-list (credential files, ``~/.ssh/``, Hermes state, ``HERMES_WRITE_SAFE_ROOT``), run on
the real path just before bytes are written.
"""

from __future__ import annotations

import os
from typing import Iterable

from shellfree.engine import messages
from shellfree.engine.confinement import Confinement
from shellfree.engine.policy import nt_namespace_error

__all__ = ["WritePolicy", "home_directories", "is_within"]

SENSITIVE_PREFIXES = (
    "/etc/", "/boot/", "/usr/lib/systemd/", "/private/etc/", "/private/var/db/", "/private/var/root/",
)
"""Tool-layer system prefixes refused for any write (§8.2)."""

SENSITIVE_EXACT = ("/var/run/docker.sock", "/run/docker.sock")

HOME_EXACT = (
    ".ssh/authorized_keys", ".ssh/id_rsa", ".ssh/id_ed25519", ".netrc", ".pgpass", ".npmrc",
    ".pypirc", ".git-credentials",
)
"""Files under a home directory that are never written (§8.2 ``get_write_denied_error``)."""

HOME_PREFIXES = (
    ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config/gh", ".config/gcloud",
)
"""Directories under a home directory whose contents are never written (``~/.ssh/config`` is the
one carve-out: it goes through the approval gate instead)."""

SYSTEM_EXACT = ("/etc/sudoers", "/etc/passwd", "/etc/shadow")
SYSTEM_PREFIXES = ("/etc/sudoers.d", "/etc/systemd")

HERMES_EXACT = (
    ".env", ".anthropic_oauth.json", "auth/google_oauth.json", "cache/bws_cache.json",
    "cache/bws_cache.enc.json", "state.db",
)
"""Files under a Hermes directory that are never written. EDGE CASE: the active profile's
``.env`` is denied as in the newest ``agent/file_safety.py`` (a test at @1102e29d disagrees,
§12.12)."""

HERMES_PREFIXES = ("sessions", "mcp-tokens", "pairing", "vault", "browser-profile")

SSH_CONFIG = ".ssh/config"
"""Relative to a home directory: approval-gated rather than denied (§3.7)."""


def is_within(path: str, directory: str) -> bool:
    """Whether *path* is *directory* or lies below it (both absolute and normalised)."""
    directory = directory.rstrip("/\\") or directory
    return path == directory or path.startswith(directory.rstrip("/\\") + os.sep)


def home_directories() -> tuple[str, ...]:
    """The process home and the account's real home (they differ under a profile's ``$HOME``),
    each resolved; Hermes checks the union (§8.2)."""
    homes = [os.path.expanduser("~")]
    try:
        import pwd  # POSIX only; Windows has just the one home

        homes.append(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError, AttributeError):
        pass
    return tuple(dict.fromkeys(os.path.realpath(h) for h in homes if h))


def _slashed(path: str) -> str:
    """*path* with ``/`` separators, so the POSIX prefixes also match a Windows spelling."""
    return path.replace("\\", "/")


def _under(base: str, rel: str) -> str:
    """*base*/*rel* resolved, case-folded where the OS folds case (compare with :func:`_key`
    paths). Resolved at each check, as Hermes resolves every entry of its lists: a protected
    path that is itself a symlink (``~/.ssh -> dotfiles/ssh``, a linked ``config.yaml``) is
    protected where it leads, which is what a written path resolves to."""
    return _key(os.path.realpath(os.path.join(base, *rel.split("/"))))


def _key(path: str) -> str:
    return os.path.normcase(os.path.normpath(path))


class WritePolicy:
    """The write refusals for one set of Hermes directories (the first is the active profile).

    *hermes_dirs* are already resolved (``ReadPolicy.hermes_dirs``). *homes* defaults to
    :func:`home_directories`; *safe_roots* to ``HERMES_WRITE_SAFE_ROOT`` read at each check, so a
    test or an embedding application can change the variable at run time.
    """

    def __init__(
        self,
        hermes_dirs: Iterable[str],
        homes: Iterable[str] | None = None,
        confinement: Confinement | None = None,
    ) -> None:
        self.hermes_dirs = tuple(hermes_dirs)
        self.homes = tuple(homes) if homes is not None else home_directories()
        # FileTools(confine=True): every written, moved or deleted path must stay in the root.
        self.confinement = confinement

    def __repr__(self) -> str:
        return f"WritePolicy(hermes_dirs={self.hermes_dirs!r}, homes={self.homes!r})"

    # -- tool layer (§3.3 step 1) ---------------------------------------------------------------

    def sensitive_path_error(self, path: str, resolved: str) -> str | None:
        """The refusal for writing *path* (as given; *resolved* is its task-resolved real path)."""
        nt = nt_namespace_error(path, "Write")
        if nt is not None:
            return nt
        candidates = (_slashed(resolved), _slashed(os.path.normpath(os.path.expanduser(path))))
        for candidate in candidates:
            if candidate.startswith(SENSITIVE_PREFIXES) or candidate in SENSITIVE_EXACT:
                return messages.SENSITIVE_SYSTEM_PATH.format(path=path)
        if self.hermes_dirs:
            config = os.path.join(self.hermes_dirs[0], "config.yaml")
            # The resolved path against the resolved file, and the path as given against the
            # file's own name (§8.2: both).
            if (_key(resolved) == _under(self.hermes_dirs[0], "config.yaml")
                    or _key(os.path.normpath(os.path.expanduser(path))) == _key(config)):
                return messages.HERMES_CONFIG_WRITE.format(path=path)
        return None

    def is_ssh_config(self, resolved: str) -> bool:
        """``~/.ssh/config`` in any home: written only with the user's approval (§3.7)."""
        return any(_key(resolved) == _under(home, SSH_CONFIG) for home in self.homes)

    # -- file-ops layer (§3.4 step 2, §4.3 step 1) ----------------------------------------------

    def write_denied_error(self, path: str, verb: str = "Write") -> str | None:
        """Hermes ``get_write_denied_error``: *path* (absolute) checked by its real path."""
        nt = nt_namespace_error(path, verb)
        if nt is not None:
            return nt
        real = _key(os.path.realpath(os.path.expanduser(path)))
        if self._denied(real):
            return messages.WRITE_DENIED.format(verb=verb, path=path)
        roots = safe_roots()
        if roots and not any(is_within(real, _key(root)) for root in roots):
            return messages.WRITE_OUTSIDE_SAFE_ROOT.format(
                verb=verb, path=path, roots=", ".join(roots))
        return None

    def _denied(self, real: str) -> bool:
        """*real* is a :func:`_key` path."""
        slashed = _slashed(real)
        if slashed in SYSTEM_EXACT or slashed.startswith(tuple(p + "/" for p in SYSTEM_PREFIXES)):
            return True
        for home in self.homes:
            if any(real == _under(home, rel) for rel in HOME_EXACT):
                return True
            if real == _under(home, SSH_CONFIG):
                continue
            if any(is_within(real, _under(home, rel)) for rel in HOME_PREFIXES):
                return True
        for hermes in self.hermes_dirs:
            if any(real == _under(hermes, rel) for rel in HERMES_EXACT):
                return True
            if any(is_within(real, _under(hermes, rel)) for rel in HERMES_PREFIXES):
                return True
        return False


def safe_roots() -> tuple[str, ...]:
    """``HERMES_WRITE_SAFE_ROOT``: ``os.pathsep``-separated roots, ``~`` expanded, empties ignored."""
    raw = os.environ.get("HERMES_WRITE_SAFE_ROOT", "")
    roots = [os.path.realpath(os.path.expanduser(part.strip())) for part in raw.split(os.pathsep)
             if part.strip()]
    return tuple(roots)
