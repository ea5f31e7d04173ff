"""The speed harness's in-process adapters answer like the tools they stand for."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from benchmarks.speed import adapters, inprocess


@pytest.fixture
def tree(isolated):
    (isolated / ".git").mkdir()
    (isolated / ".gitignore").write_text("*.log\n")
    (isolated / "a.py").write_text("def Unicode():\n    return unicode_x\n")
    (isolated / "b.log").write_text("return\n")
    (isolated / "sub").mkdir()
    (isolated / "sub" / "c.txt").write_text("no\nreturn UNICODE\n")
    return isolated


QUERIES = [["-n", "return"], ["-n", "-i", "unicode"], ["-n", "zzz_absent"], ["--files"]]


@pytest.mark.parametrize("args", QUERIES)
def test_rgcli_prints_what_rg_prints(tree, reference_rg, args):
    expected = subprocess.run([reference_rg, *args], cwd=tree, stdin=subprocess.DEVNULL,
                              capture_output=True, check=False).stdout
    assert sorted(adapters.rgcli(args, [], str(tree)).split(b"\n")) == sorted(expected.split(b"\n"))
    assert adapters.rgcli(args, [], str(tree)) == adapters.rgcli_nocache(args, [], str(tree))


@pytest.mark.parametrize("args", QUERIES[:3])
def test_search_files_matches_the_rg_backend(tree, reference_rg, monkeypatch, args):
    monkeypatch.setenv("SHELLFREE_REFERENCE_RG", reference_rg)
    first = adapters.search_files(args, [], str(tree))
    assert first == adapters.search_files(args, [], str(tree))  # warm
    assert first == adapters.search_files_reference(args, [], str(tree))
    payload = json.loads(first)
    assert "error" not in payload


@pytest.mark.parametrize("adapter", [adapters.search_files_page_new, adapters.search_files_page_watch,
                                     adapters.search_files_page_new_watch],
                         ids=lambda adapter: adapter.__name__)
def test_page_rows_match_the_rg_backend(tree, reference_rg, monkeypatch, adapter):
    monkeypatch.setenv("SHELLFREE_REFERENCE_RG", reference_rg)
    for args in QUERIES[:3]:
        first = adapter(args, [], str(tree))
        assert first == adapter(args, [], str(tree))  # warm
        assert first == adapters.search_files_page_reference(args, [], str(tree))


def test_icase_is_the_inline_flag(tree):
    call = adapters.query_to_call(["-n", "-i", "unicode"], [])
    assert call["pattern"] == "(?i)unicode"
    payload = json.loads(adapters.search_files(["-n", "-i", "unicode"], [], str(tree)))
    assert payload["total_count"] == 3


def test_inexpressible_queries_are_unsupported():
    for args in (["--files"], ["-n", "-w", "x"], ["-n"]):
        with pytest.raises(inprocess.Unsupported):
            adapters.query_to_call(args, [])


def test_unsupported_is_reported_by_the_child(tree, tmp_path):
    bench = inprocess.find("search_files")
    argv = inprocess.child_argv(bench, ["--files"], [], 0, str(tmp_path / "r.json"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(inprocess.__file__).rsplit(os.sep, 3)[0], os.environ.get("PYTHONPATH")) if p))
    proc = subprocess.run(argv, cwd=tree, env=env, capture_output=True, check=False)
    assert proc.returncode == inprocess.UNSUPPORTED_EXIT
    assert b"no search_files equivalent of --files" in proc.stderr
