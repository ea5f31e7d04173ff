"""Tests for search/ignore_files.py: where rg looks for the global gitignore."""

from __future__ import annotations

import os
import sys

import pytest

from shellfree.search.ignore_files import global_excludes_path


class TestGlobalExcludesPath:
    """rg 15.1 finds the home directory with Rust's ``std::env::home_dir``: ``HOME``, and on
    Windows ``USERPROFILE`` alone (its release builds use a Rust that no longer reads HOME
    there). Windows is simulated with ``sys.platform``."""

    @pytest.fixture
    def homes(self, tmp_path):
        """A HOME and a USERPROFILE directory, each with a .gitconfig naming an excludes file
        below it (through ``~``)."""
        homes = {}
        for variable in ("HOME", "USERPROFILE"):
            home = tmp_path / variable.lower()
            home.mkdir()
            (home / ".gitconfig").write_text(f"[core]\n\texcludesFile = ~/{variable}.ignore\n")
            homes[variable] = str(home)
        return homes

    @pytest.mark.parametrize("platform, variable", [("win32", "USERPROFILE"), ("linux", "HOME")])
    def test_the_home_directory_of_the_platform(self, homes, monkeypatch, platform, variable):
        monkeypatch.setattr(sys, "platform", platform)
        expected = os.fsencode(os.path.join(homes[variable], f"{variable}.ignore"))
        assert global_excludes_path(homes) == expected

    def test_the_default_under_the_profile_directory_on_windows(self, tmp_path, monkeypatch):
        monkeypatch.setattr(sys, "platform", "win32")
        environ = {"USERPROFILE": str(tmp_path)}  # no .gitconfig there, no HOME
        expected = os.path.join(str(tmp_path), ".config", "git", "ignore")
        assert global_excludes_path(environ) == os.fsencode(expected)
        assert global_excludes_path({"HOME": str(tmp_path)}) is None
