"""Result bounds: the collected-line cap, the timeout and the 100,000-character result cap."""

from __future__ import annotations

import json

import pytest

from shellfree.engine.backends import RgRun
from shellfree.engine.envelope import MAX_RESULT_CHARS, fit_to_size
from tests.engine.conftest import search


def test_line_cap_makes_the_total_a_lower_bound(tools):
    ft = tools({"a.txt": "x\n" * 30}, max_result_lines=10)
    out = search(ft, pattern="x", limit=3)
    assert out["total_count"] == 10
    assert (out["truncated"], out["total_count_is_lower_bound"], out["limit_reason"]) == (
        True, True, "max_result_lines")
    assert out["_hint"].startswith("Results truncated. Use offset=3 ")


def test_byte_cap(tools):
    ft = tools({"a.txt": "x\n" * 30}, max_result_bytes=40)
    out = search(ft, pattern="x", limit=2)
    assert out["total_count"] == 3 and out["limit_reason"] == "max_result_bytes"
    assert out["total_count_is_lower_bound"] is True


@pytest.mark.parametrize("call", [
    {"pattern": "*.txt", "target": "files"},
    {"pattern": "x", "output_mode": "files_only"},
])
def test_line_cap_counts_the_paths_of_a_list(tools, call):
    # Lists of paths are read with --null: the cap counts paths, not newlines (there are none).
    ft = tools({f"f{i}.txt": "x\n" for i in range(10)}, max_result_lines=3)
    out = search(ft, limit=2, **call)
    assert (out["files"], out["total_count"], out["limit_reason"]) == (
        ["./f0.txt", "./f1.txt"], 3, "max_result_lines")


def test_exactly_at_the_cap_is_not_truncated(tools):
    ft = tools({"a.txt": "x\n" * 10}, max_result_lines=10)
    out = search(ft, pattern="x", limit=10)
    assert out["total_count"] == 10 and "truncated" not in out


def test_timeout(tools):
    class SlowBackend:
        name = "slow"

        def version(self):
            return (15, 1, 0)

        def run(self, argv, cwd, *, max_lines=None, max_bytes=None, timeout=None,
                record_end=b"\n"):
            return RgRun(b"./a\x001:x\n", b"", 124, timed_out=True)  # --null

    ft = tools({"a": "x\n"}, backend=SlowBackend())
    out = search(ft, pattern="x")
    assert out == {"total_count": 1, "matches": [{"path": "./a", "line": 1, "content": "x"}],
                   "truncated": True, "total_count_is_lower_bound": True,
                   "limit_reason": "search_timeout",
                   "_hint": "Results truncated. Use offset=50 to see more, or narrow with a more "
                            "specific pattern or file_glob."}


class TestCharacterCap:
    def test_default_is_100000(self):
        assert MAX_RESULT_CHARS == 100_000

    def test_page_is_shortened_and_stays_json(self, tools):
        line = "y" * 400
        ft = tools({f"f{i:03}.txt": f"{line}\n" for i in range(400)})
        text = ft.search_files("y", limit=400)
        assert len(text) <= 100_000
        out = json.loads(text)
        shown = out["matches_text"].count("\n  1: ")
        assert out["total_count"] == 400 and 200 < shown < 400
        assert (out["truncated"], out["limit_reason"]) == (True, "max_result_chars")
        assert out["_hint"] == (f"Results truncated. Use offset={shown} to see more, or narrow "
                                "with a more specific pattern or file_glob.")

    def test_files_and_offsets(self, tools):
        ft = tools({f"{'d' * 200}{i:04}.txt": "" for i in range(600)}, max_result_chars=20_000)
        out = json.loads(ft.search_files("*.txt", target="files", limit=600, offset=10))
        assert len(json.dumps(out, ensure_ascii=False)) <= 20_000
        assert out["_hint"].startswith(f"Results truncated. Use offset={10 + len(out['files'])} ")

    def test_count_output(self, tools):
        ft = tools({f"{'c' * 100}{i:04}.txt": "x\n" for i in range(300)},
                   max_result_chars=10_000)
        out = json.loads(ft.search_files("x", output_mode="count", limit=300))
        assert out["truncated"] and out["limit_reason"] == "max_result_chars"
        assert out["total_count"] == 300
        assert out["_hint"].startswith(f"Results truncated. Use offset={len(out['counts'])} ")

    def test_fit_to_size_last_resort_shortens_strings(self):
        def render(keep):
            return {"total_count": 0, "error": "e" * 50_000}

        text = fit_to_size(render, 0, 10_000)
        assert len(text) < 10_000 and json.loads(text)["error"].endswith("…")
