"""patch in replace mode through FileTools (§4.2, §4.3): arguments, guards, results, the hints
after misses, verification, and files whose bytes must change only where the edit is."""

from __future__ import annotations

import json
import os

import pytest

import shellfree.engine.patch_replace as patch_replace_module
from shellfree.engine import messages
from shellfree.engine.write_encoding import sniff_format


def patch(ft, **args):
    text = ft.patch(**args)
    payload = json.loads(text)
    assert json.dumps(payload, ensure_ascii=False) == text
    return payload


@pytest.fixture
def ft(tools):
    return tools()


class TestArguments:
    def test_path_required(self, ft):
        assert patch(ft, old_string="a", new_string="b") == {"error": "path required"}

    @pytest.mark.parametrize("missing", ["old_string", "new_string"])
    def test_strings_required(self, ft, root, missing):
        (root / "f.txt").write_text("a")
        args = {"path": "f.txt", "old_string": "a", "new_string": "b"}
        del args[missing]
        assert patch(ft, **args) == {"error": "old_string and new_string required"}

    def test_unknown_mode(self, ft):
        assert patch(ft, mode="sed", path="f.txt", old_string="a", new_string="b") == {
            "error": "Unknown mode: sed"}

    def test_not_a_string(self, ft, root):
        (root / "f.txt").write_text("a")
        assert patch(ft, path="f.txt", old_string=["a"], new_string="b") == {
            "error": "patch: 'old_string' must be a string, got list."}

    def test_through_call(self, ft, root):
        (root / "f.txt").write_text("alpha\n")
        result = json.loads(ft.call("patch", {"path": "f.txt", "old_string": "alpha",
                                              "new_string": "beta"}))
        assert result["success"] is True
        assert (root / "f.txt").read_text() == "beta\n"

    def test_replace_all_as_text(self, ft, root):
        (root / "f.txt").write_text("a.b a.b\n")
        assert patch(ft, path="f.txt", old_string="a.b", new_string="c",
                     replace_all="false")["error"].startswith("Found 2 matches")
        assert patch(ft, path="f.txt", old_string="a.b", new_string="c",
                     replace_all="true")["success"]
        assert (root / "f.txt").read_text() == "c c\n"


class TestResult:
    def test_success_shape(self, ft, root):
        (root / "f.py").write_text("x = 1\ny = 2\n")
        path = str(root / "f.py")
        assert patch(ft, path="f.py", old_string="y = 2", new_string="y = 3") == {
            "success": True,
            "diff": f"--- a/{path}\n+++ b/{path}\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 3\n",
            "files_modified": [path], "lint": {"status": "ok", "output": ""},
            "resolved_path": path}

    def test_already_applied(self, ft, root):
        (root / "f.txt").write_text("value = 2\n")
        path = str(root / "f.txt")
        assert patch(ft, path="f.txt", old_string="value = 1", new_string="value = 2") == {
            "success": True, "no_change": True,
            "note": f"File already contains the target text — the edit appears to be already "
                    f"applied to {path}. No write performed; do not re-send this patch.",
            "files_modified": [path], "resolved_path": path}  # §4.2 step 6: every success

    def test_missing_file(self, ft, root):
        path = str(root / "nope.txt")
        assert patch(ft, path="nope.txt", old_string="a", new_string="b") == {
            "success": False, "error": f"Failed to read file: {path}"}

    def test_lint_error_after_patch(self, ft, root):
        (root / "f.py").write_text("x = 1\n")
        result = patch(ft, path="f.py", old_string="x = 1", new_string="x = (")
        assert result["lint"]["status"] == "error"

    def test_syntax_gate_refuses_broken_json(self, ft, root):
        (root / "c.json").write_text('{"a": 1}\n')
        path = str(root / "c.json")
        result = patch(ft, path="c.json", old_string='"a": 1', new_string='"a": ')
        assert result == {"success": False, "error": (
            f"Failed to write changes: Refusing to write '{path}': candidate content fails .json "
            "syntax validation (JSONDecodeError: Expecting value (line 1, column 7)). The file "
            "was NOT created or modified. Fix the content and retry.")}
        assert (root / "c.json").read_text() == '{"a": 1}\n'

    def test_write_failure(self, ft, root, monkeypatch):
        import shellfree.engine.atomic_write as atomic

        (root / "f.txt").write_text("a\n")

        def boom(*args):
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(atomic, "_write_all", boom)
        assert patch(ft, path="f.txt", old_string="a", new_string="b")["error"] == (
            "Failed to write changes: Failed to write file: [Errno 5] Input/output error")

    def test_verification_mismatch(self, ft, root, monkeypatch):
        (root / "f.txt").write_text("abc\n")
        (root / "other.txt").write_text("something else entirely\n")
        real, calls = patch_replace_module.read_back, []

        def stale_read(path):  # the read after the write finds other bytes
            calls.append(path)
            return real(str(root / "other.txt"))

        monkeypatch.setattr(patch_replace_module, "read_back", stale_read)
        path = str(root / "f.txt")
        assert patch(ft, path="f.txt", old_string="abc", new_string="abd")["error"] == (
            f"Post-write verification failed for {path}: on-disk content differs from intended "
            "write (wrote 4 chars, read back 24 chars after normalizing line endings). The patch "
            "did not persist. Re-read the file and try again.")
        assert calls == [path]  # once, after the write: the read for the edit is another

    def test_reread_failure(self, ft, root, monkeypatch):
        (root / "f.txt").write_text("abc\n")

        def vanish(path):  # gone after the write
            raise FileNotFoundError(path)

        monkeypatch.setattr(patch_replace_module, "read_back", vanish)
        assert patch(ft, path="f.txt", old_string="abc", new_string="abd")["error"] == (
            f"Post-write verification failed: could not re-read {root / 'f.txt'}")
        assert (root / "f.txt").read_text() == "abd\n"  # the edit was read and written


class TestMissHints:
    def test_hints_escalate_on_third_miss(self, ft, root):
        (root / "f.txt").write_text("zzzz\n")
        first = patch(ft, path="f.txt", old_string="qqqqqqqq", new_string="x")
        assert first == {"success": False,
                         "error": "Could not find a match for old_string in the file",
                         "_hint": "old_string not found. Use read_file to verify the current "
                                  "content, or search_files to locate the text."}
        patch(ft, path="f.txt", old_string="qqqqqqqq", new_string="x")
        third = patch(ft, path="f.txt", old_string="qqqqqqqq", new_string="x")
        assert third["_hint"] == (
            "This is failure #3 patching 'f.txt'. Stop retrying with variations of the same "
            "old_string. Either: (1) re-read the file fresh to verify current content, (2) use a "
            "longer / more unique old_string with surrounding context lines, or (3) use "
            "write_file to replace the entire file if the targeted region is hard to anchor.")

    def test_did_you_mean_suppresses_generic_hint(self, ft, root):
        (root / "f.py").write_text("def f():\n\treturn 1\n")
        result = patch(ft, path="f.py", old_string="    return 1\n    x = 2", new_string="y")
        assert "_hint" not in result
        assert result["error"].startswith(
            "Could not find a match for old_string in the file\n\nDid you mean one of these "
            "sections?\n   1| def f():\n   2| \treturn 1")
        assert "Whitespace difference detected" in result["error"]

    def test_success_resets_the_count(self, ft, root):
        (root / "f.txt").write_text("alpha\n")
        for _ in range(2):
            patch(ft, path="f.txt", old_string="qqqqqqqq", new_string="x")
        patch(ft, path="f.txt", old_string="alpha", new_string="beta")
        result = patch(ft, path="f.txt", old_string="qqqqqqqq", new_string="x")
        assert result["_hint"] == messages.PATCH_NOT_FOUND_HINT

    def test_other_errors_get_no_hint(self, ft, root):
        (root / "f.txt").write_text("a a\n")
        assert "_hint" not in patch(ft, path="f.txt", old_string="a", new_string="b")


class TestGuards:
    def test_sensitive_path(self, ft):
        assert patch(ft, path="/etc/hosts", old_string="a", new_string="b") == {
            "error": messages.SENSITIVE_SYSTEM_PATH.format(path="/etc/hosts")}

    def test_binary_document(self, ft, root):
        (root / "d.docx").write_bytes(b"PK")
        assert patch(ft, path="d.docx", old_string="a", new_string="b")["error"].startswith(
            "Refusing to write plain text to binary document 'd.docx' (.docx).")

    def test_protected_file(self, ft, root):
        (root / "AGENTS.md").write_text("rule\n")
        assert patch(ft, path="AGENTS.md", old_string="rule", new_string="x")["error"] == (
            messages.PROTECTED_INSTRUCTION_BLOCKED.format(targets="AGENTS.md",
                                                          why=messages.APPROVAL_NO_USER))
        assert (root / "AGENTS.md").read_text() == "rule\n"

    def test_write_deny_list(self, ft, home):
        (home / ".netrc").write_text("machine x\n")
        path = str(home / ".netrc")
        assert patch(ft, path=path, old_string="machine", new_string="m") == {
            "success": False,
            "error": f"Write denied: '{path}' is a protected system/credential file."}

    @pytest.mark.parametrize("field", ["old_string", "new_string"])
    def test_redaction_placeholder(self, ft, root, field):
        (root / "cfg.py").write_text("KEY = 'sk-live-abcdef'\n")
        args = {"old_string": "KEY = 'sk-live-abcdef'", "new_string": "KEY = 'x'"}
        args[field] = "KEY = '«redacted:sk-…»'"
        result = patch(ft, path="cfg.py", **args)
        assert result == {"error": messages.REDACTED_PLACEHOLDER_WRITE.format(
            path="cfg.py", what=field, placeholder="«redacted:sk-…»")}
        assert (root / "cfg.py").read_text() == "KEY = 'sk-live-abcdef'\n"

    def test_staleness_warning(self, ft, root):
        (root / "f.txt").write_text("one\n")
        ft.read_file("f.txt")
        (root / "f.txt").write_text("one two\n")
        result = patch(ft, path="f.txt", old_string="two", new_string="three")
        assert result["_warning"] == messages.STALE_WARNING.format(path="f.txt")
        again = patch(ft, path="f.txt", old_string="three", new_string="four")
        assert "_warning" not in again  # the task's own patch refreshed its read stamp

    def test_patch_never_grants_a_write_baseline(self, ft, root):
        (root / "f.txt").write_text("one\n")
        patch(ft, path="f.txt", old_string="one", new_string="two")
        assert json.loads(ft.write_file("f.txt", "x"))["stale_write_blocked"] is True


class TestBytesOutsideTheEditUnchanged:
    """CRLF, BOM, no final newline, tabs and cp1252: only the intended bytes change."""

    def check(self, ft, root, original: bytes, old: str, new: str, expected: bytes) -> None:
        (root / "f.txt").write_bytes(original)
        result = patch(ft, path="f.txt", old_string=old, new_string=new)
        assert result["success"] is True, result
        assert (root / "f.txt").read_bytes() == expected

    def test_crlf(self, ft, root):
        self.check(ft, root, b"a\r\nb\r\nc\r\n", "b\nc", "B\nC\nD",
                   b"a\r\nB\r\nC\r\nD\r\n")

    def test_crlf_with_stray_lf_lines_untouched(self, ft, root):
        self.check(ft, root, b"a\r\nb\nc\r\nd\r\n", "c", "C", b"a\r\nb\nC\r\nd\r\n")

    def test_bom(self, ft, root):
        self.check(ft, root, b"\xef\xbb\xbffirst\nsecond\n", "second", "2nd",
                   b"\xef\xbb\xbffirst\n2nd\n")

    def test_bom_at_match_start(self, ft, root):
        self.check(ft, root, b"\xef\xbb\xbffirst\n", "first", "1st", b"\xef\xbb\xbf1st\n")

    def test_no_final_newline(self, ft, root):
        self.check(ft, root, b"a\nlast", "last", "final", b"a\nfinal")

    def test_tabs(self, ft, root):
        self.check(ft, root, b"if x:\n\ty = 1\n\tz = 2\n", "    y = 1\n    z = 2",
                   "    y = 10\n    z = 2", b"if x:\n\ty = 10\n\tz = 2\n")

    def test_cp1252(self, ft, root):
        original = "# Grüße\nname = 'café'\nrest = '…'\n".encode("cp1252")
        expected = "# Grüße\nname = 'naïve'\nrest = '…'\n".encode("cp1252")
        self.check(ft, root, original, "name = 'café'", "name = 'naïve'", expected)

    def test_cp1252_unencodable_refused(self, ft, root):
        original = "name = 'café'\n".encode("cp1252")
        (root / "f.txt").write_bytes(original)
        result = patch(ft, path="f.txt", old_string="café", new_string="café ☃")
        assert result["error"].startswith("Failed to write changes: Refusing to write ")
        assert (root / "f.txt").read_bytes() == original

    def test_a_legacy_file_is_verified_in_the_encoding_it_was_written_in(self, ft, root):
        # Sniffed again, the edited bytes read as mac_latin2, and the patch, which persisted,
        # was reported as lost (found by test_patch_replace_property.py).
        text = "Größe: 5 €, Café au lait, naïve Übergröße, déjà vu\nK;K"
        edited = text.replace("au l", "ééK").encode("cp1252")
        assert sniff_format(edited).encoding == "mac_latin2"  # the premise
        self.check(ft, root, text.encode("cp1252"), "au l", "ééK", edited)

    def test_undecodable_bytes_survive(self, ft, root):
        self.check(ft, root, b"ok\nbad \xff\xfe here\nend\n", "end", "END",
                   b"ok\nbad \xff\xfe here\nEND\n")

    def test_utf16(self, ft, root):
        original = "one\r\ntwo\r\n".encode("utf-16")
        self.check(ft, root, original, "two", "2", "one\r\n2\r\n".encode("utf-16"))

    def test_utf16_without_bom(self, ft, root):
        original = "one\r\ntwo\r\n".encode("utf-16-le")
        self.check(ft, root, original, "two", "2", "one\r\n2\r\n".encode("utf-16-le"))

    @pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
    def test_symlink_target_patched(self, ft, root):
        (root / "real.txt").write_bytes(b"x = 1\n")
        os.symlink(root / "real.txt", root / "link.txt")
        result = patch(ft, path="link.txt", old_string="x = 1", new_string="x = 2")
        assert result["resolved_path"] == str(root / "real.txt")
        assert os.path.islink(root / "link.txt")
        assert (root / "real.txt").read_bytes() == b"x = 2\n"


class TestRareMessages:
    def test_generic_no_match_text(self):
        from shellfree.engine.patch_replace import no_match_error

        assert no_match_error(None, 0, "/p/f.txt", "zzzzzz", "abc\n") == (
            "Could not find match for old_string in /p/f.txt")
        assert no_match_error(None, 0, "/p/f.txt", "abd", "abc\n") == (
            "Could not find match for old_string in /p/f.txt\n\nDid you mean one of these "
            "sections?\n   1| abc")  # no row for the empty "line" after the last newline

    def test_bytes_that_do_not_round_trip(self, ft, root, monkeypatch):
        from shellfree.engine.patch_text import NotRoundTrip

        (root / "sj.txt").write_bytes(b"x")

        def refuse(path, code_page=None):
            raise NotRoundTrip("shift_jis")

        monkeypatch.setattr(patch_replace_module, "open_for_edit", refuse)
        path = root / "sj.txt"
        assert patch(ft, path="sj.txt", old_string="x", new_string="y")["error"] == (
            f"Refusing to patch '{path}': its bytes do not survive decoding as shift_jis and "
            "encoding again, so an edit would change bytes outside the edited region. The file "
            "was NOT modified.")
