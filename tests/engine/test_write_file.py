"""write_file's contract: argument validation, every guard's message in order, the stale-overwrite
blocker, result fields, lint and hints (hermes-contract §3, §6.5, §8.2, §8.3)."""

from __future__ import annotations

import json
import os
import sys

import pytest

from shellfree.engine import messages
from shellfree.engine.write_content_guards import toml_loader, yaml_parser


def write(ft, path, content, **kw):
    text = ft.write_file(path, content, **kw) if kw else ft.write_file(path, content)
    payload = json.loads(text)
    assert json.dumps(payload, ensure_ascii=False) == text
    return payload


@pytest.fixture
def ft(tools):
    return tools()


@pytest.fixture
def no_guard(monkeypatch):
    monkeypatch.setenv("HERMES_DISABLE_FILE_STATE_GUARD", "1")


class TestArguments:
    @pytest.mark.parametrize("path", [None, "", 5])
    def test_missing_path(self, ft, path):
        assert write(ft, path, "x") == {"error": messages.WRITE_MISSING_PATH}
        assert messages.WRITE_MISSING_PATH == (
            "write_file: missing required field 'path'. Re-emit the tool call with both 'path' "
            "and 'content' set.")

    def test_missing_content(self, ft):
        assert json.loads(ft.call("write_file", {"path": "a.txt"})) == {
            "error": "write_file: missing required field 'content'. The tool call included a "
                     "path but no content argument — this is almost always a dropped-arg bug "
                     "under context pressure. Re-emit the tool call with the full content "
                     "payload, or use execute_code with hermes_tools.write_file() for very "
                     "large files."}

    def test_content_not_a_string(self, ft):
        assert write(ft, "a.txt", 5) == {
            "error": "write_file: 'content' must be a string, got int."}

    def test_null_content_is_not_a_missing_one(self, ft):
        # §3.2: only an absent key is "missing"; a null is a content of the wrong type.
        expected = {"error": "write_file: 'content' must be a string, got NoneType."}
        assert json.loads(ft.call("write_file", {"path": "a.txt", "content": None})) == expected
        assert write(ft, "a.txt", None) == expected

    def test_empty_content_truncates(self, ft, root, no_guard):
        (root / "a.txt").write_text("old\n")
        result = write(ft, "a.txt", "")
        assert result["bytes_written"] == 0
        assert (root / "a.txt").read_bytes() == b""


class TestResult:
    def test_new_file_fields(self, ft, root):
        result = write(ft, "sub/dir/f.txt", "hello\n")
        resolved = str(root / "sub" / "dir" / "f.txt")
        assert result == {
            "bytes_written": 6, "dirs_created": True, "verified": True,
            "lint": {"status": "skipped", "message": "No linter for .txt files"},
            "resolved_path": resolved, "files_modified": [resolved]}
        assert (root / "sub/dir/f.txt").read_bytes() == b"hello\n"

    def test_through_call(self, ft, root):
        result = json.loads(ft.call("write_file", {"path": "c.txt", "content": "x"}))
        assert result["files_modified"] == [str(root / "c.txt")]

    def test_python_lint_error_does_not_block(self, ft, root):
        result = write(ft, "bad.py", "def f(:\n")
        assert result["lint"] == {"status": "error",
                                  "output": "SyntaxError: invalid syntax (line 1, column 7)"}
        assert (root / "bad.py").read_text() == "def f(:\n"

    def test_no_linter_for_a_file_without_extension(self, ft):
        # §3.10: "No linter for {ext} files" with the (empty) extension, not the path.
        assert write(ft, "Makefile", "all:\n")["lint"] == {
            "status": "skipped", "message": "No linter for  files"}

    def test_lint_ok(self, ft):
        assert write(ft, "ok.py", "x = 1\n")["lint"] == {"status": "ok", "output": ""}

    def test_lint_delta_filters_pre_existing(self, ft, root):
        write(ft, "b.py", "def f(:\n")
        result = write(ft, "b.py", "def f(:\n# more\n")
        assert result["lint"] == {
            "status": "error", "output": "SyntaxError: invalid syntax (line 1, column 7)",
            "message": messages.LINT_PRE_EXISTING}

    def test_lint_delta_reports_new_errors(self, ft):
        write(ft, "c.py", "def f(:\n")
        result = write(ft, "c.py", "x = 1\ny = (\n")
        assert result["lint"]["output"].startswith(
            "New lint errors introduced by this edit (pre-existing errors filtered out):\n")

    def test_rewrite_hint(self, ft):
        lines = [f"line number {i} with some padding text" for i in range(1000)]
        write(ft, "big.txt", "\n".join(lines) + "\n")
        lines[10] = "changed"
        content = "\n".join(lines) + "\n"
        result = write(ft, "big.txt", content)
        assert result["hint"] == (
            f"999 of 1,000 lines were already on disk (100% unchanged); ~1 line(s) actually "
            f"changed. Re-sending a {len(content):,}-char file costs output tokens for every "
            f"unchanged line; for edits like this use patch (old_string/new_string), which sends "
            f"only the changed region.")

    def test_no_hint_for_small_files(self, ft):
        write(ft, "s.txt", "a\n")
        assert "hint" not in write(ft, "s.txt", "a\nb\n")

    def test_workspace_divergence_warning(self, ft, root):
        result = write(ft, "../outside.txt", "x")
        resolved = str(root.parent / "outside.txt")
        assert result["_warning"] == messages.WORKSPACE_DIVERGENCE.format(
            filepath="../outside.txt", resolved=resolved, root=str(root))
        assert result["_warning"].startswith(
            f"Relative path '../outside.txt' resolved to '{resolved}', which is OUTSIDE the "
            f"active workspace ('{root}'). The edit will land in a different directory than the "
            "terminal's cwd.")

    def test_absolute_outside_path_has_no_warning(self, ft, tmp_path):
        assert "_warning" not in write(ft, str(tmp_path / "abs.txt"), "x")


class TestSensitivePaths:
    @pytest.mark.parametrize("path", ["/etc/hosts.new", "/boot/x", "/usr/lib/systemd/y",
                                      "/private/etc/z", "/private/var/db/q", "/private/var/root/r",
                                      "/var/run/docker.sock", "/run/docker.sock"])
    def test_system_paths(self, ft, path):
        assert write(ft, path, "x") == {"error": (
            f"Refusing to write to sensitive system path: {path}\nUse the terminal tool with "
            "sudo if you need to modify system files.")}

    def test_hermes_config(self, tools, tmp_path):
        hermes = tmp_path / "hermes-home"
        hermes.mkdir()
        ft = tools(hermes_home=hermes)
        path = str(hermes / "config.yaml")
        assert write(ft, path, "a: 1\n") == {"error": (
            f"Refusing to write to Hermes config file: {path}\nAgent cannot modify "
            "security-sensitive configuration. Edit ~/.hermes/config.yaml directly or use "
            "'hermes config' instead.")}

    @pytest.mark.parametrize("path", ["\\??\\C:\\x.txt", "\\\\.\\pipe\\p", "//?/UNC/srv/share"])
    def test_nt_namespace(self, ft, path):
        assert write(ft, path, "x") == {"error": messages.NT_NAMESPACE_DENIED.format(
            verb="Write", path=path)}


class TestWriteDenyList:
    @pytest.mark.parametrize("rel", [".ssh/authorized_keys", ".ssh/id_rsa", ".ssh/id_ed25519",
                                     ".netrc", ".pgpass", ".npmrc", ".pypirc", ".git-credentials",
                                     ".aws/credentials", ".gnupg/x", ".kube/config",
                                     ".docker/config.json", ".azure/a", ".config/gh/hosts.yml",
                                     ".config/gcloud/c"])
    def test_home_credentials(self, ft, home, rel):
        path = str(home / rel)
        assert write(ft, path, "x") == {
            "error": f"Write denied: '{path}' is a protected system/credential file.",
            "resolved_path": path}
        assert not os.path.exists(path)

    @pytest.mark.parametrize("rel", [".env", ".anthropic_oauth.json", "auth/google_oauth.json",
                                     "cache/bws_cache.json", "cache/bws_cache.enc.json",
                                     "state.db", "sessions/s.json", "mcp-tokens/t",
                                     "pairing/p", "vault/v", "browser-profile/b"])
    def test_hermes_state(self, tools, tmp_path, rel):
        hermes = tmp_path / "hermes"
        hermes.mkdir()
        ft = tools(hermes_home=hermes)
        path = str(hermes / rel)
        assert write(ft, path, "x")["error"] == (
            f"Write denied: '{path}' is a protected system/credential file.")

    @pytest.mark.skipif(sys.platform == "win32", reason="symlinks need privileges on Windows")
    def test_protected_paths_that_are_links_protect_where_they_lead(self, tools, home, tmp_path,
                                                                     monkeypatch):
        # Hermes resolves every entry of its lists: ~/.ssh -> dotfiles/ssh is still ~/.ssh.
        monkeypatch.setenv("HERMES_DISABLE_FILE_STATE_GUARD", "1")  # files never read here
        dotfiles = tmp_path / "dotfiles"
        (dotfiles / "ssh").mkdir(parents=True)
        (dotfiles / "netrc").write_text("machine x\n")
        (dotfiles / "ssh_config").write_text("Host y\n")
        (dotfiles / "hermes.yaml").write_text("a: 1\n")
        os.symlink(dotfiles / "ssh", home / ".ssh")
        os.symlink(dotfiles / "netrc", home / ".netrc")
        hermes = tmp_path / "hermes"
        hermes.mkdir()
        os.symlink(dotfiles / "hermes.yaml", hermes / "config.yaml")
        ft = tools(hermes_home=hermes)
        for rel in (".ssh/authorized_keys", ".netrc"):
            assert write(ft, str(home / rel), "x")["error"].startswith("Write denied: ")
        assert write(ft, str(home / ".ssh" / "config"), "x")["error"].startswith(
            "BLOCKED: write to SSH config file(s)")
        assert write(ft, str(hermes / "config.yaml"), "b: 2\n")["error"].startswith(
            "Refusing to write to Hermes config file: ")
        assert sorted(p.name for p in (dotfiles / "ssh").iterdir()) == []
        assert (dotfiles / "netrc").read_text() == "machine x\n"
        assert (dotfiles / "hermes.yaml").read_text() == "a: 1\n"

    def test_hermes_control_files_writable(self, tools, tmp_path):
        hermes = tmp_path / "hermes"
        hermes.mkdir()
        ft = tools(hermes_home=hermes)
        assert "error" not in write(ft, str(hermes / "auth.json"), "{}")

    def test_safe_root(self, ft, root, tmp_path, monkeypatch):
        allowed = root / "allowed"
        monkeypatch.setenv("HERMES_WRITE_SAFE_ROOT", f"{allowed}{os.pathsep}{os.pathsep}")
        path = str(root / "elsewhere.txt")
        assert write(ft, path, "x")["error"] == (
            f"Write denied: '{path}' is outside HERMES_WRITE_SAFE_ROOT ({allowed}). Unset the "
            "variable or add this path's directory prefix.")
        assert "error" not in write(ft, str(allowed / "in.txt"), "x")

    def test_symlink_into_denied_directory(self, ft, root, home):
        (home / ".ssh").mkdir()
        os.symlink(home / ".ssh" / "id_rsa", root / "innocent.txt")
        result = write(ft, "innocent.txt", "x")
        assert result["error"].endswith("is a protected system/credential file.")


class TestBinaryDocuments:
    @pytest.mark.parametrize("ext", [".doc", ".docx", ".docm", ".xls", ".xlsx", ".xlsm", ".xlsb",
                                     ".ppt", ".pps", ".pptx", ".pptm", ".ppsx", ".ppsm", ".odt",
                                     ".ods", ".odp", ".rtf", ".epub"])
    def test_opaque_documents_always_refused(self, ft, ext):
        assert write(ft, "report" + ext.upper(), "x") == {"error": (
            f"Refusing to write plain text to binary document 'report{ext.upper()}' ({ext}). A "
            "text write cannot produce a valid document container and would corrupt the file "
            "(read_file showed you EXTRACTED text, not the real bytes). Use the "
            "docx/xlsx/powerpoint skills or a library like python-docx/openpyxl/python-pptx via "
            "the terminal to create or edit this document.")}

    @pytest.mark.parametrize("name", ["app.db-wal", "x.sqlite-shm", "y.sqlite3-journal"])
    def test_sqlite_sidecars(self, ft, name):
        ext = name[name.index("."):]
        assert write(ft, name, "x") == {"error": messages.SQLITE_SIDECAR_WRITE.format(
            path=name, ext=ext)}

    def test_existing_pdf_refused_new_pdf_allowed(self, ft, root):
        assert "error" not in write(ft, "new.pdf", "%PDF-1.4 text")
        assert write(ft, "new.pdf", "again") == {"error": (
            "Refusing to overwrite existing PDF 'new.pdf' with plain text. read_file showed you "
            "EXTRACTED text, not the real bytes — writing text back would destroy the document. "
            "Use the pdf skill or a PDF library via the terminal to modify it. (Creating a NEW "
            ".pdf file is allowed.)")}

    def test_existing_binary_extension(self, ft, root):
        (root / "img.png").write_bytes(b"\x89PNG")
        assert write(ft, "img.png", "x") == {"error": messages.EXISTING_BINARY_WRITE.format(
            path="img.png", ext=".png")}
        assert "error" not in write(ft, "fresh.png", "not really a png")


class TestProtectedInstructionFiles:
    @pytest.mark.parametrize("name", ["AGENTS.md", "claude.md", "SOUL.md", ".cursorrules",
                                      "sub/Agents.MD", ".hermes/notes.txt"])
    def test_refused_without_callback(self, ft, root, name):
        assert write(ft, name, "x") == {"error": (
            f"BLOCKED: write to protected agent-instruction file(s) ({name}) requires approval "
            "but no interactive user or gateway is present to approve it. The user has NOT "
            "consented to this write. Do NOT retry it or attempt the same edit via another path "
            "(terminal, execute_code, etc.).")}
        assert not (root / name).exists()

    def test_denied_by_user(self, tools, root):
        asked = []
        ft = tools(approval_callback=lambda path, reason: asked.append((path, reason)) or False)
        assert write(ft, "AGENTS.md", "x")["error"] == messages.PROTECTED_INSTRUCTION_BLOCKED.format(
            targets="AGENTS.md", why="was denied by the user.")
        assert asked == [("AGENTS.md", "protected agent-instruction file")]

    def test_approved(self, tools, root):
        ft = tools(approval_callback=lambda path, reason: True)
        assert "error" not in write(ft, "AGENTS.md", "rules\n")
        assert (root / "AGENTS.md").read_text() == "rules\n"

    def test_callback_failure_is_not_consent(self, tools):
        def broken(path, reason):
            raise TimeoutError("no answer")

        ft = tools(approval_callback=broken)
        assert write(ft, "CLAUDE.md", "x")["error"] == messages.PROTECTED_INSTRUCTION_BLOCKED.format(
            targets="CLAUDE.md",
            why="approval prompt could not be delivered or was not answered (no answer).")

    def test_symlink_to_protected_file(self, ft, root):
        (root / "AGENTS.md").write_text("rules")
        os.symlink(root / "AGENTS.md", root / "link.md")
        assert write(ft, "link.md", "x")["error"].startswith(
            "BLOCKED: write to protected agent-instruction file(s) (link.md)")

    def test_hermes_home_files_exempt(self, tools, tmp_path):
        hermes = tmp_path / ".hermes"
        hermes.mkdir()
        ft = tools(hermes_home=hermes)
        assert "error" not in write(ft, str(hermes / "SOUL.md"), "me")

    def test_ssh_config_needs_approval(self, tools, home):
        path = str(home / ".ssh" / "config")
        ft = tools()
        assert write(ft, path, "Host x\n") == {"error": (
            f"BLOCKED: write to SSH config file(s) ({path}) requires approval but no interactive "
            "user or gateway is present to approve it. Do NOT retry it via another path "
            "(terminal, execute_code) without the user's explicit consent.")}
        approved = tools(approval_callback=lambda p, r: r == "SSH config file")
        assert "error" not in write(approved, path, "Host x\n")


class TestContentGuards:
    def test_numbered_read_output(self, ft):
        assert write(ft, "a.txt", "1|import os\n2|print(os)\n") == {
            "error": "Refusing to write internal read_file display text as file content. Strip "
                     "read_file line-number prefixes or reconstruct the intended file contents "
                     "before writing."}

    @pytest.mark.parametrize("content", ["1|value\n", "1|a\n3|b\n", "1|a\nplain\nplain\nplain\n",
                                         "x|1\ny|2\n"])
    def test_numbered_lookalikes_allowed(self, ft, content):
        assert "error" not in write(ft, "ok.txt", content)

    def test_dedup_stub(self, ft):
        stub = json.dumps({"status": "unchanged", "message": messages.READ_UNCHANGED},
                          ensure_ascii=False)
        assert write(ft, "a.txt", stub)["error"] == messages.DISPLAY_TEXT_WRITE
        assert "error" not in write(ft, "b.txt", messages.READ_UNCHANGED + "x" * 2000)

    def test_lone_surrogate(self, ft, root):
        path = str(root / "s.txt")
        assert write(ft, "s.txt", "a\ud800b") == {"error": (
            f"Refusing to write '{path}': content contains a lone surrogate character "
            "('\\ud800') that cannot be encoded as UTF-8. The file was NOT created or modified."),
            "resolved_path": path}
        assert not os.path.exists(path)

    def test_surrogateescape_range_writes_raw_bytes(self, ft, root):
        write(ft, "raw.txt", "caf\udce9\n")
        assert (root / "raw.txt").read_bytes() == b"caf\xe9\n"

    @pytest.mark.parametrize("placeholder", ["«redacted:sk-…»", "«redacted-secret»",
                                             "[REDACTED PRIVATE KEY]"])
    def test_redaction_placeholder(self, ft, root, no_guard, placeholder):
        (root / ".env.local.txt").write_text("KEY=sk-real-secret\n")
        result = write(ft, ".env.local.txt", f"KEY={placeholder}\n")
        assert result == {"error": (
            f"Refusing to write '.env.local.txt': content contains the redaction placeholder "
            f"{placeholder!r}, which stands for a secret that was hidden from you — writing it "
            "would replace the real value with the placeholder. The file was NOT created or "
            "modified. Leave the lines holding secrets out of content (edit only the lines "
            "around them), or ask the user to change them.")}
        assert (root / ".env.local.txt").read_text() == "KEY=sk-real-secret\n"


class TestSyntaxGate:
    def test_json(self, ft, root):
        path = str(root / "c.json")
        assert write(ft, "c.json", '{"a": }') == {"error": (
            f"Refusing to write '{path}': candidate content fails .json syntax validation "
            "(JSONDecodeError: Expecting value (line 1, column 7)). The file was NOT created or "
            "modified. Fix the content and retry."), "resolved_path": path}
        assert not os.path.exists(path)

    def test_json_gate_keeps_existing_file(self, ft, root, no_guard):
        (root / "c.json").write_text('{"a": 1}')
        write(ft, "c.json", "{")
        assert (root / "c.json").read_text() == '{"a": 1}'

    @pytest.mark.skipif(yaml_parser() is None, reason="PyYAML not installed")
    def test_yaml(self, ft, root):
        result = write(ft, "c.yaml", "a: [1, 2\n")
        assert result["error"].startswith(
            f"Refusing to write '{root / 'c.yaml'}': candidate content fails .yaml syntax "
            "validation (YAMLError: ")
        assert "error" not in write(ft, "cf.yml", "Resources: !Sub '${x}'\n---\nb: 2\n")

    def test_yaml_without_pyyaml_is_skipped(self, ft, monkeypatch):
        import shellfree.engine.write_content_guards as guards

        monkeypatch.setattr(guards, "yaml_parser", lambda: None)
        result = write(ft, "c.yaml", "a: [1, 2\n")
        assert "error" not in result
        assert result["lint"] == {"status": "skipped",
                                  "message": "No linter available for .yaml (missing dependency)"}

    @pytest.mark.skipif(toml_loader() is None, reason="no TOML parser")
    def test_toml(self, ft, root):
        result = write(ft, "p.toml", "a = \n")
        assert result["error"].startswith(
            f"Refusing to write '{root / 'p.toml'}': candidate content fails .toml syntax "
            "validation (TOMLDecodeError: ")

    def test_valid_json_lints_ok(self, ft):
        assert write(ft, "ok.json", '{"a": 1}')["lint"] == {"status": "ok", "output": ""}


class TestStaleOverwriteBlocker:
    def refusal(self, path, resolved, reason):
        return {"error": messages.STALE_WRITE_REFUSED.format(path=path, reason=reason),
                "stale_write_blocked": True, "path": path, "resolved_path": resolved}

    def test_unread_existing_file_refused(self, ft, root):
        (root / "a.txt").write_text("keep me\n")
        resolved = str(root / "a.txt")
        result = write(ft, "a.txt", "x")
        assert result == self.refusal("a.txt", resolved, messages.STALE_NOT_SEEN.format(
            resolved=resolved))
        assert result["error"] == (
            f"Refusing to overwrite a.txt: {resolved} exists but this task has not seen its full "
            "current content (never read, only patched, or only a redacted/partial view). Read "
            "the file — every page of it, if it needs offset/limit — or use patch for a targeted "
            "edit; a stale conversation copy must not overwrite the current disk content. The "
            "file was NOT modified. Reload the current contents with read_file (every page, for "
            "a file that needs offset/limit), merge the requested change, then call write_file "
            "again. For small edits, prefer patch so existing unrelated changes are preserved.")
        assert (root / "a.txt").read_text() == "keep me\n"

    def test_full_read_allows(self, ft, root):
        (root / "a.txt").write_text("one\ntwo\n")
        ft.read_file("a.txt")
        assert "error" not in write(ft, "a.txt", "three\n")

    def test_own_write_allows_next_write(self, ft):
        write(ft, "a.txt", "1")
        assert "error" not in write(ft, "a.txt", "2")

    def test_external_change_after_read(self, ft, root):
        (root / "a.txt").write_text("one\n")
        ft.read_file("a.txt")
        (root / "a.txt").write_text("someone else\n")
        assert write(ft, "a.txt", "mine\n") == self.refusal(
            "a.txt", str(root / "a.txt"),
            "a.txt was modified since you last read it (external edit or concurrent agent). "
            "Re-read the file before writing.")
        assert (root / "a.txt").read_text() == "someone else\n"

    def test_patched_only_is_not_seen(self, ft, root):
        (root / "a.txt").write_text("alpha\n")
        assert json.loads(ft.patch(path="a.txt", old_string="alpha", new_string="beta"))["success"]
        assert write(ft, "a.txt", "x")["stale_write_blocked"] is True

    def test_other_task_does_not_share_baseline(self, tools, root):
        first, second = tools(), tools()
        write(first, "a.txt", "1")
        assert write(second, "a.txt", "2")["stale_write_blocked"] is True

    def test_kill_switch(self, ft, root, no_guard):
        (root / "a.txt").write_text("x")
        assert "error" not in write(ft, "a.txt", "y")


def test_existence_unknown_refuses_binary_overwrite(monkeypatch):
    import types

    import shellfree.engine.write_guards as guards

    def stat(path):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(guards, "os", types.SimpleNamespace(path=os.path, stat=stat))
    assert guards.binary_document_error("a.pdf", "/x/a.pdf") == (
        "Refusing to write to 'a.pdf': could not establish whether the target file already "
        "exists where this write would execute (the terminal environment may be starting, "
        "unreachable, or was removed). The file was NOT modified — retry once the environment "
        "is reachable.")
