"""FileTools as a public object: construction, dispatch by name, exports, the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import shellfree
from shellfree import FileTools
from tests.engine.conftest import write_tree


class TestExports:
    def test_file_tools_is_exported(self):
        assert "FileTools" in shellfree.__all__
        from shellfree.engine.file_tools import FileTools as Direct

        assert shellfree.FileTools is Direct

    def test_import_shellfree_stays_light(self):
        code = ("import sys, shellfree; "
                "print(any(m.startswith(('shellfree.engine', 'shellfree.search')) "
                "for m in sys.modules))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True)
        assert out.stdout.strip() == "False"

    def test_unknown_attribute(self):
        with pytest.raises(AttributeError):
            shellfree.Nope  # noqa: B018


class TestCall:
    def test_dispatches_search_files(self, tools):
        ft = tools({"a.txt": "needle\n"})
        assert json.loads(ft.call("search_files", {"pattern": "needle", "target": "grep"})) == {
            "total_count": 1, "matches": [{"path": "./a.txt", "line": 1, "content": "needle"}]}

    def test_unknown_arguments_are_ignored(self, tools):
        ft = tools({"a.txt": "needle\n"})
        out = json.loads(ft.call("search_files", {"pattern": "needle", "task_id": "t1"}))
        assert out["total_count"] == 1

    def test_missing_pattern_defaults_to_empty(self, tools):
        ft = tools({"a.txt": "1\n2\n"})
        assert json.loads(ft.call("search_files", {}))["total_count"] == 2
        assert json.loads(ft.call("search_files"))["total_count"] == 2

    def test_unknown_tool_is_another_tool(self, tools):
        ft = tools({"a.txt": "x\n"})
        for _ in range(3):
            ft.call("search_files", {"pattern": "x"})
        assert json.loads(ft.call("web_search", {"q": "x"})) == {
            "error": "Unknown tool: 'web_search'. Available file tools: read_file, write_file, "
                     "patch, search_files."}
        assert "_warning" not in json.loads(ft.call("search_files", {"pattern": "x"}))

    def test_arguments_must_be_an_object(self, tools):
        ft = tools()
        assert json.loads(ft.call("search_files", ["x"])) == {
            "error": "Arguments for search_files must be a JSON object, got list."}

    def test_handler_exceptions_become_tool_errors(self, tools, monkeypatch):
        ft = tools()

        def boom(*args, **kwargs):
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(ft._search, "search", boom)
        assert json.loads(ft.call("search_files", {"pattern": "x"})) == {"error": "disk on fire"}

    def test_tool_names(self, tools):
        assert tools().tool_names == ("read_file", "write_file", "patch", "search_files")


def test_root_defaults_to_the_process_directory(root, monkeypatch):
    monkeypatch.chdir(root)
    assert FileTools().root == str(root)
    assert "FileTools(root=" in repr(FileTools())


class TestCli:
    def _run(self, args, cwd, stdin=None):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        return subprocess.run([sys.executable, "-m", "shellfree", "call", *args], cwd=cwd,
                              input=stdin, capture_output=True, text=True, env=env, check=False)

    def test_json_argument(self, root):
        write_tree(root, {"a.txt": "héllo\n"})
        out = self._run(["search_files", '{"pattern": "héllo"}'], root)
        assert out.returncode == 0
        assert out.stdout == ('{"total_count": 1, "matches": [{"path": "./a.txt", "line": 1, '
                              '"content": "héllo"}]}\n')

    def test_stdin_and_root_option(self, root, tmp_path):
        write_tree(root, {"a.txt": "x\n"})
        out = self._run(["--root", str(root), "search_files", "-"], tmp_path,
                        stdin='{"pattern": "*.txt", "target": "files"}')
        assert json.loads(out.stdout) == {"total_count": 1, "files": ["./a.txt"]}
        omitted = self._run(["--root", str(root), "search_files"], tmp_path,
                            stdin='{"pattern": "x"}')
        assert json.loads(omitted.stdout)["total_count"] == 1

    def test_bad_json(self, root):
        out = self._run(["search_files", "{nope"], root)
        assert out.returncode == 2 and "not JSON" in out.stderr
