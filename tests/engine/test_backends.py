"""The two backends: shellfree's rg in-process, and a real rg subprocess (for parity runs)."""

from __future__ import annotations

import pytest

from shellfree import FileTools
from shellfree.engine.backends import InProcessBackend, RgBackend, make_backend
from tests.engine.conftest import write_tree

ARGV = ["--line-number", "--no-heading", "--with-filename", "--sort", "path", "--", "x", "."]


@pytest.fixture
def tree(root):
    write_tree(root, {"a.txt": "x\n" * 5, "b.txt": "x\n"})
    return root


class TestInProcess:
    def test_runs_relative_to_cwd_without_chdir(self, tree):
        import os

        before = os.getcwd()
        run = InProcessBackend().run(ARGV, str(tree))
        assert os.getcwd() == before
        assert run.stdout.count(b"\n") == 6 and run.status == 0 and run.capped is None

    def test_line_cap(self, tree):
        run = InProcessBackend().run(ARGV, str(tree), max_lines=4)
        assert run.stdout == b"./a.txt:1:x\n./a.txt:2:x\n./a.txt:3:x\n./a.txt:4:x\n"
        assert run.capped == "lines" and run.status == 0

    def test_cap_equal_to_the_output_is_not_capped(self, tree):
        assert InProcessBackend().run(ARGV, str(tree), max_lines=6).capped is None

    def test_byte_cap_keeps_whole_lines(self, tree):
        run = InProcessBackend().run(ARGV, str(tree), max_bytes=30)
        assert run.stdout == b"./a.txt:1:x\n./a.txt:2:x\n" and run.capped == "bytes"
        assert InProcessBackend().run(ARGV, str(tree), max_bytes=72).capped is None

    def test_the_earlier_cap_wins(self, tree):
        run = InProcessBackend().run(ARGV, str(tree), max_lines=1, max_bytes=30)
        assert run.stdout == b"./a.txt:1:x\n" and run.capped == "lines"

    def test_caps_count_and_cut_records_of_a_path_list(self, tree):
        # `--files --null` prints no newline at all: the caps count NUL-ended records.
        files = ["--files", "--null", "--sort", "path", "--", "."]
        run = InProcessBackend().run(files, str(tree), max_lines=1, record_end=b"\0")
        assert run.stdout == b"./a.txt\0" and run.capped == "lines"
        run = InProcessBackend().run(files, str(tree), max_bytes=12, record_end=b"\0")
        assert run.stdout == b"./a.txt\0" and run.capped == "bytes"
        run = InProcessBackend().run(files, str(tree), max_lines=2, record_end=b"\0")
        assert run.stdout == b"./a.txt\0./b.txt\0" and run.capped is None

    def test_deadline(self, tree):
        run = InProcessBackend().run(ARGV, str(tree), timeout=-1)
        assert run.timed_out and run.status == 124

    def test_errors_and_status(self, tree):
        run = InProcessBackend().run(["--", "(", "."], str(tree))
        assert run.status == 2 and run.stderr.startswith(b"rg: regex parse error")

    def test_never_needs_an_rg_binary(self, tree, monkeypatch):
        monkeypatch.setenv("PATH", "")
        ft = FileTools(tree)
        assert '"total_count": 6' in ft.search_files("x")
        # The zero-match probes too: Hermes loses them exactly where rg is missing.
        assert "0 exact matches, but 6 case-insensitive match(es)" in ft.search_files("X")


class TestRg:
    def test_same_bytes_and_cap(self, tree, reference_rg):
        rg = RgBackend(reference_rg)
        assert rg.run(ARGV, str(tree)) == InProcessBackend().run(ARGV, str(tree))
        for caps in ({"max_lines": 4}, {"max_bytes": 30}, {"max_lines": 2, "max_bytes": 50}):
            assert rg.run(ARGV, str(tree), **caps) == InProcessBackend().run(ARGV, str(tree),
                                                                             **caps)
        files = ["--files", "--null", "--sort", "path", "--", "."]
        for caps in ({"max_lines": 1}, {"max_bytes": 12}, {"max_lines": 2}):
            assert rg.run(files, str(tree), record_end=b"\0", **caps) == InProcessBackend().run(
                files, str(tree), record_end=b"\0", **caps)

    def test_version(self, reference_rg):
        assert RgBackend(reference_rg).version() == (15, 1, 0)

    def test_timeout(self, tree, reference_rg):
        run = RgBackend(reference_rg).run(ARGV, str(tree), timeout=0)
        assert run.timed_out or run.status == 0

    def test_config_file_is_ignored(self, tree, reference_rg, tmp_path, monkeypatch):
        config = tmp_path / "rgrc"
        config.write_text("--ignore-case\n--max-count=1\n")
        monkeypatch.setenv("RIPGREP_CONFIG_PATH", str(config))
        assert RgBackend(reference_rg).run(ARGV, str(tree)).stdout.count(b"\n") == 6

    def test_missing_binary(self, monkeypatch):
        monkeypatch.setenv("PATH", "")
        with pytest.raises(FileNotFoundError, match="needs an rg binary"):
            RgBackend()


def test_make_backend():
    assert isinstance(make_backend("inprocess"), InProcessBackend)
    backend = InProcessBackend()
    assert make_backend(backend) is backend
    with pytest.raises(ValueError, match="unknown backend 'grep'"):
        make_backend("grep")


def test_file_tools_on_both_backends_agree(tree, reference_rg):
    a = FileTools(tree)
    b = FileTools(tree, backend="rg", rg_path=reference_rg)
    for args in ({"pattern": "x", "limit": 2}, {"pattern": "X"}, {"pattern": "*.txt",
                                                                   "target": "files"}):
        assert a.search_files(**args) == b.search_files(**args)
