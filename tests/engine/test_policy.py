"""The read deny-list, the NT namespace check and the secret-file test (§8.1, §8.3, §9)."""

from __future__ import annotations

import os

import pytest

from shellfree.engine.policy import ENV_FILE_BASENAMES, ReadPolicy, nt_namespace_error

NOT_A_BOUNDARY = " (Defense-in-depth — not a security boundary; the terminal tool can still bypass.)"


@pytest.fixture
def hermes(tmp_path):
    path = tmp_path / "hermes"
    path.mkdir()
    return path


@pytest.fixture
def policy(hermes):
    return ReadPolicy([hermes])


class TestNtNamespace:
    @pytest.mark.parametrize("path", ["\\??\\C:\\x", "\\\\.\\pipe\\x", "\\\\?\\UNC\\srv\\share",
                                      "\\\\?\\globalroot\\Device", "//./pipe/x", "//?/unc/srv/s"])
    def test_refused(self, path):
        assert nt_namespace_error(path, "Search") == (
            f"Search denied: '{path}' uses a Windows NT/device namespace prefix (\\??\\, \\\\.\\, "
            "\\\\?\\UNC\\, or GLOBALROOT). These paths bypass normal path normalization and can "
            "trigger outbound SMB authentication (NTLM credential leak) merely by being resolved. "
            "Use a normal absolute path instead.")

    @pytest.mark.parametrize("path", ["\\\\?\\C:\\x", "C:\\x", "/tmp/x", "./a", "\\\\server\\s"])
    def test_allowed(self, path):
        assert nt_namespace_error(path, "Read") is None


class TestReadBlockError:
    def test_skills_hub(self, policy, hermes):
        path = str(hermes / "skills" / ".hub" / "x.md")
        assert policy.read_block_error(path) == (
            f"Access denied: {path} is an internal Hermes cache file and cannot be read directly "
            "to prevent prompt injection. Use the skills_list or skill_view tools instead.")

    @pytest.mark.parametrize("rel", ["auth.json", "auth.lock", ".anthropic_oauth.json", ".env",
                                     "webhook_subscriptions.json", "auth/google_oauth.json",
                                     "cache/bws_cache.json"])
    def test_credential_stores(self, policy, hermes, rel):
        path = str(hermes / rel)
        assert policy.read_block_error(path) == (
            f"Access denied: {path} is a Hermes credential store and cannot be read directly. "
            "Provider tools consume these credentials through internal channels." + NOT_A_BOUNDARY)

    @pytest.mark.parametrize("name, dir_reason, file_reason", [
        ("mcp-tokens", "is the Hermes MCP token directory and cannot be read directly.",
         "is a Hermes MCP token file and cannot be read directly."),
        ("browser-profile",
         "is the Hermes real-profile browser snapshot directory (copied cookies/logins) and "
         "cannot be read directly.",
         "is inside the Hermes real-profile browser snapshot (copied cookies/logins) and cannot "
         "be read directly."),
        ("vault",
         "is the Hermes credential vault directory and cannot be read directly (secrets are "
         "filled server-side by browser_vault_fill).",
         "is inside the Hermes credential vault (encrypted secrets + local key) and cannot be "
         "read directly (browser_vault_fill resolves them server-side)."),
    ])
    def test_directory_denies(self, policy, hermes, name, dir_reason, file_reason):
        directory = str(hermes / name)
        inner = str(hermes / name / "sub" / "f")
        assert policy.read_block_error(directory) == (
            f"Access denied: {directory} {dir_reason}{NOT_A_BOUNDARY}")
        assert policy.read_block_error(inner) == (
            f"Access denied: {inner} {file_reason}{NOT_A_BOUNDARY}")

    def test_the_hermes_directory_itself_and_other_files_are_allowed(self, policy, hermes):
        assert policy.read_block_error(str(hermes)) is None
        assert policy.read_block_error(str(hermes / "config.yaml")) is None
        assert policy.read_block_error(str(hermes / "skills" / "x.md")) is None

    @pytest.mark.parametrize("name", sorted(ENV_FILE_BASENAMES) + [".ENV", ".Env.Local"])
    def test_env_files_anywhere(self, policy, tmp_path, name):
        path = str(tmp_path / "proj" / name)
        assert policy.read_block_error(path) == (
            f"Access denied: {path} is a secret-bearing environment file and cannot be read to "
            "prevent credential leakage. If you need to check the file structure, read "
            ".env.example instead." + NOT_A_BOUNDARY)

    @pytest.mark.parametrize("name", [".env.example", "env", ".envx", "x.env"])
    def test_env_lookalikes_are_allowed(self, policy, tmp_path, name):
        assert policy.read_block_error(str(tmp_path / name)) is None

    def test_symlink_into_a_denied_directory(self, policy, hermes, tmp_path):
        (hermes / "mcp-tokens").mkdir()
        (hermes / "mcp-tokens" / "t.json").write_text("{}")
        link = tmp_path / "innocent"
        os.symlink(hermes / "mcp-tokens", link)
        assert policy.read_block_error(str(link / "t.json")).startswith(
            f"Access denied: {link / 't.json'} is a Hermes MCP token file")
        assert policy.result_is_blocked(str(link / "t.json"))

    def test_several_hermes_directories(self, tmp_path):
        profile = tmp_path / "root" / "profiles" / "p"
        policy = ReadPolicy([profile, tmp_path / "root"])
        assert policy.read_block_error(str(profile / "auth.json")) is not None
        assert policy.read_block_error(str(tmp_path / "root" / "auth.json")) is not None


class TestResultIsBlocked:
    def test_env_and_hermes_files(self, policy, hermes, tmp_path):
        assert policy.result_is_blocked(str(tmp_path / "a" / ".env.production"))
        assert policy.result_is_blocked(str(hermes / "auth.json"))
        assert not policy.result_is_blocked(str(tmp_path / "a" / "main.py"))


class TestIsSecretFile:
    @pytest.mark.parametrize("name", [".env", ".envrc", ".bashrc", ".zshenv", ".profile"])
    def test_env_and_shell_rc_files(self, policy, tmp_path, name):
        assert policy.is_secret_file(str(tmp_path / name))

    def test_hermes_config(self, policy, hermes, tmp_path):
        assert policy.is_secret_file(str(hermes / "config.yaml"))
        assert policy.is_secret_file(str(hermes / "config.yaml.good.1"))
        assert policy.is_secret_file(str(hermes / "config.yaml.corrupt.2"))
        assert policy.is_secret_file(str(tmp_path / "x" / ".hermes" / "config.yaml"))
        assert not policy.is_secret_file(str(tmp_path / "config.yaml"))

    def test_unexpanded_variable(self, policy):
        assert not policy.is_secret_file("$HOME/.bashrc")

    def test_ordinary_files(self, policy, tmp_path):
        assert not policy.is_secret_file(str(tmp_path / "app.py"))
