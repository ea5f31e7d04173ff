"""V4A patches (§4.5): the parser, validation messages, apply results, guards on every header
path, and all-or-nothing application with rollback (shellfree's departure from Hermes)."""

from __future__ import annotations

import json
import os
import stat
import sys

import pytest

import shellfree.engine.v4a_apply as v4a_apply
from shellfree.engine import messages
from shellfree.engine.v4a_parser import (
    Hunk, HunkLine, V4AOperation, V4AParseError, header_paths, parse_v4a)


def run(ft, patch_text):
    text = ft.patch(mode="patch", patch=patch_text)
    payload = json.loads(text)
    assert json.dumps(payload, ensure_ascii=False) == text
    return payload


@pytest.fixture
def ft(tools):
    return tools()


def snapshot(root):
    return {p.name: p.read_bytes() for p in sorted(root.iterdir()) if p.is_file()}


class TestParser:
    def test_all_operations(self):
        ops = parse_v4a(
            "*** Begin Patch\n"
            "*** Update File: a.py\n"
            "@@ def f @@\n"
            " def f():\n"
            "-    return 1\n"
            "+    return 2\n"
            "@@\n"
            "-x\n"
            "+y\n"
            "*** End of File\n"
            "*** Add File: b.txt\n"
            "+hello\n"
            "+\n"
            "+world\n"
            "*** Delete File: c.txt\n"
            "*** Move File: d.txt -> e/d.txt\n"
            "*** End Patch\n"
            "*** Delete File: ignored-after-end.txt\n")
        assert ops == [
            V4AOperation("update", "a.py", None, (
                Hunk("def f", (HunkLine(" ", "def f():"), HunkLine("-", "    return 1"),
                               HunkLine("+", "    return 2"))),
                Hunk(None, (HunkLine("-", "x"), HunkLine("+", "y"))),
            ), 2),
            V4AOperation("add", "b.txt", None, (
                Hunk(None, (HunkLine("+", "hello"), HunkLine("+", ""), HunkLine("+", "world"))),
            ), 11),
            V4AOperation("delete", "c.txt", None, (), 15),
            V4AOperation("move", "d.txt", "e/d.txt", (), 16),
        ]

    def test_hunk_texts(self):
        hunk = parse_v4a("*** Update File: a\n ctx\n-old\n+new\nimplicit\n")[0].hunks[0]
        assert hunk.search == "ctx\nold\nimplicit"
        assert hunk.replace == "ctx\nnew\nimplicit"

    def test_no_begin_marker_cr_and_skipped_lines(self):
        ops = parse_v4a("***Update File: a.py\r\n@@ hint\r\n-a\r\n\r\n\\ No newline at end of "
                        "file\r\n+b\r\n")
        assert ops[0].path == "a.py"
        assert ops[0].hunks == (Hunk("hint", (HunkLine("-", "a"), HunkLine("+", "b"))),)

    @pytest.mark.parametrize("header, hint", [
        ("@@ def f(): @@", "def f():"),
        ("@@ def f():", "def f():"),  # OpenAI's form: the rest of the line (Hermes: no hint)
        ("@@ a @@ trailing @@", "a"),  # Hermes' regex: up to the first closing @@
        ("@@", None), ("@@ @@", None), ("@@@@", None),
    ])
    def test_hunk_header_hints(self, header, hint):
        ops = parse_v4a(f"*** Update File: a.py\n{header}\n+x\n")
        assert ops[0].hunks[0].hint == hint

    def test_commentary_outside_operations_ignored(self):
        assert parse_v4a("Here is the patch:\n*** Delete File: x\n")[0].kind == "delete"

    def test_empty_patch(self):
        assert parse_v4a("") == [] and parse_v4a("*** Begin Patch\n*** End Patch") == []

    def test_errors_name_the_line(self):
        with pytest.raises(V4AParseError) as caught:
            parse_v4a("*** Begin Patch\n*** Update File: a.py\n*** Add File: \n+x\n"
                      "*** Move File: m.txt\n*** Update File: b.py\n*** Move to: c.py\n-a\n+b\n")
        assert str(caught.value) == (
            "Parse error: UPDATE 'a.py': no hunks found (patch line 2); Operation with empty "
            "file path (patch line 3); MOVE 'm.txt': missing destination path (expected 'src -> "
            "dst') (patch line 5); '*** Move to: c.py' is not supported; rename with '*** Move "
            "File: b.py -> c.py' and put any edits in their own '*** Update File:' block (patch "
            "line 7)")

    def test_header_scan(self):
        assert header_paths("*** Update File: a\n***Add File:b\n*** Move File: c -> d\n") == [
            ("Update", "a"), ("Add", "b"), ("Move", "c"), ("Move", "d")]


class TestApply:
    def test_update_add_delete_move(self, ft, root):
        (root / "a.py").write_text("def f():\n    return 1\n")
        (root / "c.txt").write_text("bye\n")
        (root / "d.txt").write_text("moving\n")
        result = run(ft, "*** Begin Patch\n*** Update File: a.py\n@@ def f @@\n def f():\n"
                         "-    return 1\n+    return 2\n*** Add File: b.txt\n+hello\n+world\n"
                         "*** Delete File: c.txt\n*** Move File: d.txt -> e/d.txt\n"
                         "*** End Patch")
        a, b, c, d, e = (str(root / n) for n in ("a.py", "b.txt", "c.txt", "d.txt", "e/d.txt"))
        assert result == {
            "success": True,
            "diff": (f"--- a/{a}\n+++ b/{a}\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n"
                     f"+    return 2\n\n--- /dev/null\n+++ b/{b}\n+hello\n+world\n"
                     f"--- a/{c}\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n\n# Moved: {d} -> {e}"),
            "files_modified": [a, b, c, d, e],
            "files_created": [b],
            "files_deleted": [c],
            "lint": {a: {"status": "ok", "output": ""},
                     b: {"status": "skipped", "message": "No linter for .txt files"}},
        }
        assert (root / "a.py").read_text() == "def f():\n    return 2\n"
        assert (root / "b.txt").read_bytes() == b"hello\nworld"  # no final newline added
        assert not (root / "c.txt").exists() and not (root / "d.txt").exists()
        assert (root / "e" / "d.txt").read_text() == "moving\n"

    def test_addition_only_after_unique_hint(self, ft, root):
        (root / "a.txt").write_text("alpha\nbeta\ngamma\n")
        assert run(ft, "*** Update File: a.txt\n@@ beta @@\n+inserted\n")["success"]
        assert (root / "a.txt").read_text() == "alpha\nbeta\ninserted\ngamma\n"

    def test_addition_only_without_hint_appends(self, ft, root):
        (root / "a.txt").write_text("alpha\n\n\n")
        assert run(ft, "*** Update File: a.txt\n@@\n+omega\n")["success"]
        assert (root / "a.txt").read_text() == "alpha\nomega\n"

    def test_later_operations_see_earlier_ones(self, ft, root):
        (root / "a.txt").write_text("one\n")
        assert run(ft, "*** Update File: a.txt\n-one\n+two\n*** Update File: a.txt\n-two\n"
                       "+three\n")["success"]
        assert (root / "a.txt").read_text() == "three\n"

    def test_delete_then_add(self, ft, root):
        (root / "a.txt").write_text("old\n")
        assert run(ft, "*** Delete File: a.txt\n*** Add File: a.txt\n+new\n")["success"]
        assert (root / "a.txt").read_text() == "new"

    def test_hint_disambiguates(self, ft, root):
        """A hunk matching twice is retried within [hint − 500, hint + 2000) characters."""
        filler = "# filler line\n" * 40  # 560 characters: the first match is out of the window
        (root / "a.py").write_text("def a():\n    x = 1\n" + filler + "def b():\n    x = 1\n")
        assert run(ft, "*** Update File: a.py\n@@ def b @@\n-    x = 1\n+    x = 2\n")["success"]
        assert (root / "a.py").read_text().startswith("def a():\n    x = 1\n")
        assert (root / "a.py").read_text().endswith("def b():\n    x = 2\n")

    def test_hunk_lines_match_whole_lines(self, ft, root):
        """Fixed defect: a hunk's lines are lines. Hermes found ``-two`` in ``twoo`` and wrote
        ``TWOo``, and called a file with ``twoo`` and ``two`` ambiguous."""
        (root / "a.txt").write_text("twoo\n")
        error = run(ft, "*** Update File: a.txt\n-two\n+TWO\n")["error"]
        assert error.startswith(
            f"Patch validation failed (no files were modified):\n  • {root / 'a.txt'}: hunk 1 "
            "'(no hint)' not found — Could not find a match for old_string in the file")
        assert (root / "a.txt").read_text() == "twoo\n"
        (root / "a.txt").write_text("twoo\n  two  \nxtwo\n")  # blanks around a line are fine
        assert run(ft, "*** Update File: a.txt\n-two\n+TWO\n")["success"]
        assert (root / "a.txt").read_text() == "twoo\n  TWO  \nxtwo\n"

    def test_hint_window_starts_at_a_line(self, ft, root):
        # The window [hint - 500, ...) begins inside "AAAAAAAAAAtwo": that cut is not a line start.
        filler = "# f\n" * 124
        (root / "a.py").write_text("A" * 10 + "two\n" + filler + "def h():\n    pass\n")
        assert (root / "a.py").read_text().index("def h") - 500 == 10
        assert not run(ft, "*** Update File: a.py\n@@ def h @@\n-two\n+TWO\n")["success"]
        assert (root / "a.py").read_text().startswith("A" * 10 + "two\n")

    def test_crlf_and_bom_kept(self, ft, root):
        (root / "w.txt").write_bytes(b"\xef\xbb\xbfa\r\nb\r\nc\r\n")
        assert run(ft, "*** Update File: w.txt\n a\n-b\n+B\n")["success"]
        assert (root / "w.txt").read_bytes() == b"\xef\xbb\xbfa\r\nB\r\nc\r\n"

    @pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
    def test_move_keeps_mode(self, ft, root):
        (root / "run.sh").write_text("#!/bin/sh\n")
        os.chmod(root / "run.sh", 0o750)
        assert run(ft, "*** Move File: run.sh -> bin/run.sh\n")["success"]
        assert stat.S_IMODE(os.stat(root / "bin" / "run.sh").st_mode) == 0o750

    def test_move_of_binary_bytes(self, ft, root):
        data = bytes(range(256))
        (root / "blob.bin").write_bytes(data)
        assert run(ft, "*** Move File: blob.bin -> moved.bin\n")["success"]
        assert (root / "moved.bin").read_bytes() == data


class TestValidation:
    def failed(self, *errors, **extra):
        return {"success": False, "error": "Patch validation failed (no files were modified):\n"
                                           + "\n".join(f"  • {e}" for e in errors), **extra}

    def test_messages(self, ft, root):
        (root / "a.txt").write_text("alpha\nbeta\nbeta\n")
        (root / "exists.txt").write_text("x")
        (root / "dst.txt").write_text("x")
        r = lambda n: str(root / n)  # noqa: E731
        result = run(ft, "*** Update File: missing.txt\n-a\n+b\n"
                         "*** Update File: a.txt\n@@ nowhere @@\n+x\n"
                         "*** Update File: a.txt\n@@ beta @@\n+x\n"
                         "*** Update File: a.txt\n@@ alpha @@\n-qqqqqqqqq\n+x\n"
                         "*** Delete File: gone.txt\n"
                         "*** Move File: nosrc.txt -> new.txt\n"
                         "*** Move File: exists.txt -> dst.txt\n"
                         "*** Add File: exists.txt\n+x\n")
        assert result == self.failed(
            f"{r('missing.txt')}: File not found: {r('missing.txt')}",
            f"{r('a.txt')}: addition-only hunk context hint 'nowhere' not found",
            f"{r('a.txt')}: addition-only hunk context hint 'beta' is ambiguous (2 occurrences)",
            f"{r('a.txt')}: hunk 1 'alpha' not found — Could not find a match for old_string in "
            "the file",
            f"{r('gone.txt')}: file not found for deletion",
            f"{r('nosrc.txt')}: source file not found for move",
            f"{r('dst.txt')}: destination already exists — move would overwrite",
            f"{r('exists.txt')}: file already exists — use Update File, not Add File",
            _hint=messages.PATCH_NOT_FOUND_HINT)
        assert (root / "a.txt").read_text() == "alpha\nbeta\nbeta\n"

    def test_hunk_without_hint_and_did_you_mean(self, ft, root):
        (root / "a.py").write_text("def compute():\n    return 1\n")
        error = run(ft, "*** Update File: a.py\n-def compute():\n-    print('other')\n+x\n")["error"]
        assert error.startswith(
            f"Patch validation failed (no files were modified):\n  • {root / 'a.py'}: hunk 1 "
            "'(no hint)' not found — Could not find a match for old_string in the file\n\n"
            "Did you mean one of these sections?\n   1| def compute():")

    def test_only_context(self, ft, root):
        (root / "a.txt").write_text("a\n")
        assert run(ft, "*** Update File: a.txt\n a\n") == self.failed(
            "Patch contains no changes (only context lines were provided)")
        assert run(ft, "") == {"error": "patch content required"}

    def test_already_applied_hunk_is_skipped(self, ft, root):
        (root / "a.txt").write_text("value = 2\n")
        (root / "b.txt").write_text("one\n")
        assert run(ft, "*** Update File: a.txt\n-value = 1\n+value = 2\n"
                       "*** Update File: b.txt\n-one\n+two\n")["success"]
        assert (root / "b.txt").read_text() == "two\n"

    def test_a_patch_sent_again_is_a_no_op(self, ft, root):
        # Every hunk already applied, each with +/- lines: they count as changes (§4.5), so
        # the re-sent patch succeeds and writes nothing, rather than "no changes".
        (root / "a.py").write_text("def f():\n    return 1\n")
        patch = "*** Update File: a.py\n def f():\n-    return 1\n+    return compute_total()\n"
        assert run(ft, patch)["success"]
        before = snapshot(root)
        assert run(ft, patch) == {"success": True, "files_modified": [str(root / "a.py")],
                                  "resolved_path": str(root / "a.py")}
        assert snapshot(root) == before

    def test_syntax_gate_before_any_write(self, ft, root):
        (root / "a.txt").write_text("one\n")
        (root / "c.json").write_text('{"a": 1}\n')
        result = run(ft, "*** Update File: a.txt\n-one\n+two\n*** Update File: c.json\n"
                         '-{"a": 1}\n+{"a": }\n')
        assert result["error"].startswith("Patch validation failed (no files were modified):\n"
                                          f"  • Refusing to write '{root / 'c.json'}'")
        assert (root / "a.txt").read_text() == "one\n"

    def test_parse_error_result(self, ft):
        assert run(ft, "*** Update File: a.txt\n") == {
            "success": False,
            "error": "Failed to parse patch: Parse error: UPDATE 'a.txt': no hunks found "
                     "(patch line 1)"}


class TestGuards:
    @pytest.mark.parametrize("header", ["*** Update File: ../x.txt\n-a\n+b",
                                        "*** Add File: sub/../../x.txt\n+b",
                                        "*** Delete File: ..\\x.txt",
                                        "*** Move File: a.txt -> ../b.txt"])
    def test_traversal(self, ft, header):
        bad = header.split(": ", 1)[1].split("\n")[0]
        if "->" in bad:
            bad = bad.split(" -> ")[1]
        assert run(ft, header) == {"error": messages.V4A_TRAVERSAL.format(path=bad)}
        assert messages.V4A_TRAVERSAL.format(path="../x") == (
            "V4A patch header contains '..' traversal: '../x'. Use the agent's cwd-relative path "
            "(no '..') or an absolute path in '*** Update File:' / '*** Add File:' / '*** Delete "
            "File:' / '*** Move File:' headers.")

    def test_sensitive_move_destination(self, ft, root):
        (root / "a.txt").write_text("x")
        assert run(ft, "*** Move File: a.txt -> /etc/cron.d/job") == {
            "error": messages.SENSITIVE_SYSTEM_PATH.format(path="/etc/cron.d/job")}
        assert (root / "a.txt").exists()

    def test_binary_document_update(self, ft, root):
        assert run(ft, "*** Add File: notes.docx\n+x")["error"].startswith(
            "Refusing to write plain text to binary document 'notes.docx' (.docx).")

    def test_delete_of_binary_document_allowed(self, ft, root):
        (root / "old.docx").write_bytes(b"PK")
        assert run(ft, "*** Delete File: old.docx")["success"]

    def test_one_approval_for_all_protected_files(self, tools, root):
        asked = []
        ft = tools(approval_callback=lambda p, r: asked.append(p) or False)
        result = run(ft, "*** Add File: AGENTS.md\n+a\n*** Add File: docs/CLAUDE.md\n+b")
        assert asked == ["AGENTS.md, docs/CLAUDE.md"]
        assert result["error"] == messages.PROTECTED_INSTRUCTION_BLOCKED.format(
            targets="AGENTS.md, docs/CLAUDE.md", why="was denied by the user.")

    def test_write_deny_on_delete(self, ft, home):
        (home / ".npmrc").write_text("x")
        path = str(home / ".npmrc")
        assert run(ft, f"*** Delete File: {path}")["error"] == (
            "Patch validation failed (no files were modified):\n"
            f"  • Delete denied: '{path}' is a protected system/credential file.")

    def test_redaction_placeholder_in_hunk(self, ft, root):
        (root / "s.py").write_text("TOKEN = 'ghp_realrealreal'\n")
        result = run(ft, "*** Update File: s.py\n-TOKEN = '«redacted:ghp_…»'\n+TOKEN = 'x'\n")
        assert result == {"error": messages.REDACTED_PLACEHOLDER_WRITE.format(
            path=str(root / "s.py"), what="the patch",
            placeholder="«redacted:ghp_…»")}
        assert (root / "s.py").read_text() == "TOKEN = 'ghp_realrealreal'\n"


class TestAllOrNothing:
    PATCH = ("*** Begin Patch\n"
             "*** Update File: one.txt\n-one\n+ONE\n"
             "*** Update File: two.txt\n-two\n+TWO\n"
             "*** Update File: three.txt\n-three\n+THREE\n"
             "*** End Patch")

    @pytest.fixture
    def files(self, root):
        for name in ("one", "two", "three"):
            (root / f"{name}.txt").write_bytes(f"{name}\r\n".encode())
        return root

    def test_directories_made_for_a_rolled_back_file_are_removed(self, ft, root):
        # The second add fails when written (its parent is a file): the first file goes, and
        # so do the directories made for it; a directory that was there before stays.
        (root / "a.txt").write_text("x\n")
        (root / "kept").mkdir()
        result = run(ft, "*** Add File: kept/newdir/deep/x.txt\n+hi\n"
                         "*** Add File: a.txt/new.txt\n+no\n")
        assert result["rolled_back"] is True
        assert sorted(p.name for p in root.rglob("*")) == ["a.txt", "kept"]

    def test_third_file_failing_validation_leaves_first_two(self, ft, files):
        (files / "three.txt").write_text("something else\n")
        before = snapshot(files)
        result = run(ft, self.PATCH)
        assert result["success"] is False
        assert result["error"].startswith("Patch validation failed (no files were modified):")
        assert snapshot(files) == before

    def test_third_write_failing_restores_first_two(self, ft, files, monkeypatch):
        before = snapshot(files)
        real, calls = v4a_apply.atomic_write, []

        def third_fails(path, data, **kwargs):
            calls.append(path)
            if len(calls) == 3:
                raise OSError(28, "No space left on device")
            return real(path, data, **kwargs)

        monkeypatch.setattr(v4a_apply, "atomic_write", third_fails)
        result = run(ft, self.PATCH)
        three = files / "three.txt"
        assert result == {
            "success": False,
            "error": "Apply phase failed; every file this patch had already changed was "
                     "restored, so no file was modified:\n"
                     f"  • Failed to update {three}: [Errno 28] No space left on device",
            "rolled_back": True}
        assert snapshot(files) == before
        assert [os.path.basename(p) for p in calls] == [
            "one.txt", "two.txt", "three.txt", "two.txt", "one.txt"]  # restored in reverse

    def test_rollback_removes_added_and_restores_deleted(self, ft, root, monkeypatch):
        (root / "keep.txt").write_text("keep\n")
        (root / "target.txt").write_text("target\n")
        before = snapshot(root)
        real = v4a_apply.atomic_write

        def fail_on_target(path, data, **kwargs):
            if path.endswith("target.txt"):
                raise OSError(13, "Permission denied")
            return real(path, data, **kwargs)

        monkeypatch.setattr(v4a_apply, "atomic_write", fail_on_target)
        result = run(ft, "*** Add File: new.txt\n+fresh\n*** Delete File: keep.txt\n"
                         "*** Update File: target.txt\n-target\n+changed\n")
        assert result["rolled_back"] is True
        assert snapshot(root) == before

    def test_file_changed_during_patch(self, ft, files, monkeypatch):
        real = v4a_apply._current_bytes

        def meddle(path):
            if path.endswith("two.txt"):
                return b"someone else"
            return real(path)

        monkeypatch.setattr(v4a_apply, "_current_bytes", meddle)
        result = run(ft, self.PATCH)
        assert result["error"].endswith(
            f"Failed to update {files / 'two.txt'}: the file changed on disk while the patch "
            "was being applied")
        assert (files / "one.txt").read_bytes() == b"one\r\n"

    def test_restore_failure_is_reported(self, ft, files, monkeypatch):
        real, calls = v4a_apply.atomic_write, []

        def fail_after_two(path, data, **kwargs):
            calls.append(path)
            if len(calls) >= 3:
                raise OSError(5, "Input/output error")
            return real(path, data, **kwargs)

        monkeypatch.setattr(v4a_apply, "atomic_write", fail_after_two)
        error = run(ft, self.PATCH)["error"]
        assert error.startswith(
            "Apply phase failed and restoring the files this patch had already changed failed "
            "too — the files listed below may be inconsistent (run `git diff` to assess):\n"
            f"  • Failed to update {files / 'three.txt'}: [Errno 5] Input/output error\n"
            "Not restored:\n")
        assert f"  • {files / 'two.txt'}: [Errno 5] Input/output error" in error


class TestRareMessages:
    def test_move_without_destination(self, root):
        from shellfree.engine.v4a_plan import plan_v4a
        from shellfree.engine.write_policy import WritePolicy

        path = str(root / "a.txt")
        _, errors = plan_v4a([V4AOperation("move", path, None)], WritePolicy([]))
        assert errors == [f"{path}: MOVE operation missing destination path"]

    def test_path_not_confirmed_free(self, ft, root, monkeypatch):
        import shellfree.engine.v4a_plan as v4a_plan

        real = v4a_plan._on_disk

        def unknown(path):
            if path.endswith("new.txt"):
                raise PermissionError(13, "Permission denied")
            return real(path)

        monkeypatch.setattr(v4a_plan, "_on_disk", unknown)
        assert run(ft, "*** Add File: new.txt\n+x")["error"] == (
            "Patch validation failed (no files were modified):\n"
            f"  • {root / 'new.txt'}: could not confirm the path is free — Permission denied")

    def test_deleting_an_empty_file(self, ft, root):
        (root / "empty.txt").write_bytes(b"")
        result = run(ft, "*** Delete File: empty.txt")
        assert result["diff"] == f"# Deleted: {root / 'empty.txt'}"
        assert result["files_deleted"] == [str(root / "empty.txt")]

    def test_added_file_with_read_output_refused(self, ft, root):
        assert run(ft, "*** Add File: copy.py\n+1|import os\n+2|print(os)\n") == {
            "error": messages.DISPLAY_TEXT_WRITE}
        assert not (root / "copy.py").exists()
