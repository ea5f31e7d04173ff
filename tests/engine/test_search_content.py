"""search_files content search end to end on the in-process engine (§5.4, §5.6)."""

from __future__ import annotations

import sys

import pytest

from shellfree.engine import messages
from tests.engine.conftest import search

PY = "def alpha():\n    return 1\n\ndef beta():\n    return alpha()\n"


class TestContentMode:
    def test_matches_with_paths_as_typed(self, tools):
        ft = tools({"src/a.py": PY, "b.txt": "alpha\n"})
        assert search(ft, pattern="alpha") == {"total_count": 3, "matches": [
            {"path": "./b.txt", "line": 1, "content": "alpha"},
            {"path": "./src/a.py", "line": 1, "content": "def alpha():"},
            {"path": "./src/a.py", "line": 5, "content": "    return alpha()"}]}
        assert search(ft, pattern="alpha", path="src")["matches"][0]["path"] == "src/a.py"
        assert search(ft, pattern="beta", path="src/a.py")["matches"] == [
            {"path": "src/a.py", "line": 4, "content": "def beta():"}]

    def test_absolute_path(self, tools, root):
        ft = tools({"a.py": PY})
        out = search(ft, pattern="beta", path=str(root))
        assert out["matches"][0]["path"] == f"{root}/a.py"

    def test_grep_alias(self, tools):
        ft = tools({"a.py": PY})
        assert search(ft, pattern="beta", target="grep")["total_count"] == 1

    def test_densified_from_five_matches(self, tools):
        ft = tools({"a.py": "x1\nx2\n", "b.py": "x3\nx4\nx5  \n"})
        assert search(ft, pattern="x") == {
            "total_count": 5, "matches_format": messages.MATCHES_FORMAT,
            "matches_text": "./a.py\n  1: x1\n  2: x2\n./b.py\n  1: x3\n  2: x4\n  3: x5"}

    def test_hidden_and_ignored_files_are_skipped(self, tools, root):
        ft = tools({".hidden/a.txt": "needle\n", "ignored.txt": "needle\n",
                    ".ignore": "ignored.txt\n", "seen.txt": "needle\n"})
        assert search(ft, pattern="needle")["matches"] == [
            {"path": "./seen.txt", "line": 1, "content": "needle"}]

    def test_context_lines_are_rows_too(self, tools):
        ft = tools({"a.py": PY})
        out = search(ft, pattern="beta", context=1)
        assert out == {"total_count": 3, "matches": [
            {"path": "./a.py", "line": 3, "content": ""},
            {"path": "./a.py", "line": 4, "content": "def beta():"},
            {"path": "./a.py", "line": 5, "content": "    return alpha()"}]}

    def test_files_only(self, tools):
        ft = tools({"a.py": PY, "b.py": "alpha\n", "c.txt": "none\n"})
        assert search(ft, pattern="alpha", output_mode="files_only") == {
            "total_count": 2, "files": ["./a.py", "./b.py"]}

    def test_count(self, tools):
        ft = tools({"a.py": PY, "b.py": "alpha alpha\n"})
        # rg -c counts lines, not matches.
        assert search(ft, pattern="alpha", output_mode="count") == {
            "total_count": 3, "counts": {"./a.py": 2, "./b.py": 1}}

    def test_count_pages_files_and_sums_all(self, tools):
        ft = tools({"a.py": PY, "b.py": "alpha alpha\n", "c.py": "alpha\n"})
        assert search(ft, pattern="alpha", output_mode="count", limit=1, offset=1) == {
            "total_count": 4, "counts": {"./b.py": 1}, "truncated": True,
            "_hint": "Results truncated. Use offset=2 to see more, or narrow with a more specific "
                     "pattern or file_glob."}

    def test_file_glob(self, tools):
        ft = tools({"a.py": "alpha\n", "b.txt": "alpha\n", "sub/c.py": "alpha\n"})
        out = search(ft, pattern="alpha", file_glob="*.py", output_mode="files_only")
        assert out["files"] == ["./a.py", "./sub/c.py"]

    def test_pattern_starting_with_a_dash_is_searched(self, tools):
        ft = tools({"a.txt": "x --force y\n"})
        assert search(ft, pattern="--force")["total_count"] == 1

    def test_empty_pattern_matches_every_line(self, tools):
        ft = tools({"a.txt": "1\n2\n"})
        assert search(ft, pattern="")["total_count"] == 2

    def test_invalid_regex(self, tools):
        ft = tools({"a.txt": "x\n"})
        assert search(ft, pattern="a(") == {"total_count": 0, "error": (
            "Search failed: rg: regex parse error:\n    (?:a()\n    ^\nerror: unclosed group")}


class TestLongLines:
    def test_500_character_content_clamp(self, tools):
        ft = tools({"a.txt": "k" + "é" * 1200 + "\n"})
        content = search(ft, pattern="k")["matches"][0]["content"]
        assert content == "k" + "é" * 499

    def test_2000_column_preview_comes_from_rg(self, tools):
        # Past 2000 bytes rg prints a preview of the first 2000 graphemes and a marker; the
        # files_only and count modes do not pass --max-columns.
        ft = tools({"a.txt": "x" * 2500 + "\n", "b.txt": "y" * 2001 + "\n"})
        from shellfree.engine.rg_commands import content_command

        argv = content_command("x", ["."], output_mode="content", context=0, multiline=False,
                               file_glob=None)
        assert argv[:7] == ["--line-number", "--no-heading", "--with-filename", "--null",
                            "--max-columns", "2000", "--max-columns-preview"]
        assert "--max-columns" not in content_command(
            "x", ["."], output_mode="count", context=0, multiline=False, file_glob=None)
        out = search(ft, pattern="x+$")
        assert out["matches"][0]["content"] == "x" * 500

    def test_preview_marker_visible_with_short_clamp(self, tools, monkeypatch):
        monkeypatch.setattr("shellfree.engine.search_output.CONTENT_CLAMP", 3000)
        ft = tools({"a.txt": "x" * 2500 + "\n"})
        content = search(ft, pattern="x")["matches"][0]["content"]
        assert content == "x" * 2000 + " [... omitted end of long line]"


class TestMultiline:
    def test_backslash_n_enables_multiline_with_the_warning(self, tools):
        ft = tools({"a.py": PY})
        out = search(ft, pattern=r"alpha\(\):\n")
        assert out["matches"] == [{"path": "./a.py", "line": 1, "content": "def alpha():"}]
        assert out["warning"] == (
            "Pattern contains \\n — multiline mode (-U) was enabled automatically so the regex "
            "can match across line boundaries.")

    def test_a_match_across_lines_gives_one_row_per_line(self, tools):
        ft = tools({"a.py": PY})
        out = search(ft, pattern=r"return 1\n\ndef")
        assert [m["line"] for m in out["matches"]] == [2, 3, 4]

    def test_files_only_keeps_the_warning_count_drops_it(self, tools):
        ft = tools({"a.py": PY})
        assert "warning" in search(ft, pattern=r"1\n", output_mode="files_only")
        assert "warning" not in search(ft, pattern=r"1\n", output_mode="count")

    def test_escaped_backslash_n_is_not_multiline(self, tools):
        ft = tools({"a.txt": "a\\nb\n"})
        out = search(ft, pattern=r"a\\nb")
        assert out == {"total_count": 1, "matches": [
            {"path": "./a.txt", "line": 1, "content": "a\\nb"}]}


class TestDecoding:
    def test_legacy_encoding_is_decoded_not_replaced(self, tools):
        text = "Le café de la gare est très animé, déjà plein à midi, où l'on mange bien.\n"
        ft = tools({"fr.txt": text.encode("cp1252") * 3})
        content = search(ft, pattern="gare")["matches"][0]["content"]
        assert content == text.rstrip("\n")

    def test_utf16_with_bom_is_transcoded_by_rg(self, tools):
        ft = tools({"w.txt": "\ufeffhello wörld\n".encode("utf-16-le")})
        assert search(ft, pattern="wörld")["matches"][0]["content"] == "hello wörld"

    def test_binary_files_are_skipped(self, tools):
        ft = tools({"b.bin": b"needle\x00\x01\n", "t.txt": "needle\n"})
        assert search(ft, pattern="needle", output_mode="files_only")["files"] == ["./t.txt"]


class TestRedaction:
    def test_tokens_in_match_lines_become_sentinels(self, tools):
        ft = tools({"app.py": 'client = make(key="sk-abcdefghijklmnopqrstu")\n'})
        assert search(ft, pattern="client")["matches"][0]["content"] == (
            'client = make(key="«redacted:sk-…»")')

    def test_assignments_in_ordinary_code_are_kept(self, tools):
        ft = tools({"app.py": 'API_KEY = "abcd1234efgh5678"\n'})
        assert search(ft, pattern="API_KEY")["matches"][0]["content"] == (
            'API_KEY = "abcd1234efgh5678"')

    def test_secret_files_get_the_assignment_passes(self, tools):
        ft = tools({".bashrc": "export TOKEN=opaque123abcdefXYZ\n"})
        out = search(ft, pattern="TOKEN", path=".bashrc")
        assert out["matches"][0]["content"] == "export TOKEN=«redacted-secret»"

    def test_densified_text_is_redacted_too(self, tools):
        ft = tools({"a.txt": "".join(f"t{i} ghp_ABCDEFGHIJ0123456789\n" for i in range(5))})
        assert "ghp_A" not in search(ft, pattern="t")["matches_text"]


@pytest.mark.parametrize("limit, offset, shown, truncated", [
    (2, 0, [1, 2], True), (2, 2, [3, 4], True), (2, 4, [5], False), (5, 0, [1, 2, 3, 4, 5], False),
])
def test_pages_are_exact_and_do_not_overlap(tools, limit, offset, shown, truncated):
    ft = tools({"a.txt": "x\n" * 3, "b.txt": "x\n" * 2})
    out = search(ft, pattern="x", limit=limit, offset=offset)
    rows = out.get("matches") or []
    if "matches_text" in out:
        rows = [None] * 5
    assert len(rows) == len(shown)
    assert out["total_count"] == 5
    assert out.get("truncated", False) is truncated
    assert "total_count_is_lower_bound" not in out
    if truncated:
        assert out["_hint"] == (
            f"Results truncated. Use offset={offset + limit} to see more, or narrow with a more "
            "specific pattern or file_glob.")
    else:
        assert "_hint" not in out


class TestBinaryFileNamedAsRoot:
    """rg names a matching binary file that was named as a root in a notice line of its own;
    Hermes dropped it (and probed: "0 exact matches, but 1 case-insensitive match(es)"), and
    read with --null the notice became the start of the next row's path."""

    def test_named_and_not_probed(self, tools, backend_options):
        ft = tools({"bin.dat": "hi\0there\n", "a.txt": "hi\n"}, **backend_options)
        assert search(ft, pattern="hi", path="bin.dat") == {
            "total_count": 0,
            "warning": "1 binary file(s) matched, whose lines are not shown: bin.dat"}
        assert search(ft, pattern="hi", path="bin.dat,a.txt") == {
            "total_count": 1, "matches": [{"path": "a.txt", "line": 1, "content": "hi"}],
            "warning": "path contained 2 entries; searched 2 that exist; 1 binary file(s) "
                       "matched, whose lines are not shown: bin.dat"}
        assert search(ft, pattern="zz", path="bin.dat") == {"total_count": 0}


class TestBinaryDataAfterAMatch:
    """A walked file whose first NUL comes after a match, in a later fill of rg's buffer: rg
    prints its matches, then ``PATH: WARNING: stopped searching binary file after match (…)``
    on stdout, which read with --null became the start of the next row's path."""

    def test_the_next_row_keeps_its_path(self, tools, backend_options):
        late_nul = b"needle here\n" + b"filler line\n" * 10_000 + b"\0tail\n"
        ft = tools({"a.bin": late_nul, "b.txt": "needle two\n"}, **backend_options)
        assert search(ft, pattern="needle") == {"total_count": 2, "matches": [
            {"path": "./a.bin", "line": 1, "content": "needle here"},
            {"path": "./b.txt", "line": 1, "content": "needle two"}]}


class TestFileNamesThatLookLikeRows:
    """A file named ``notes:12:x.md`` (or with a newline in its name) keeps its name: every
    search reads rg's output with ``--null`` (Hermes split ``path:LINE:`` at the first
    ``:DIGITS:``, reporting ``notes`` at line 12, and a list of paths at each newline)."""

    NAMES = ["notes:12:x.md", "a-3-b.txt"] + ([] if sys.platform == "win32" else ["new\nline"])

    def test_every_mode_keeps_the_name(self, tools, backend_options):
        if sys.platform == "win32":
            pytest.skip("':' is not allowed in Windows file names")
        ft = tools({name: "before\nneedle 1:2:3\nafter\n" for name in self.NAMES},
                   **backend_options)
        paths = sorted("./" + name for name in self.NAMES)
        out = search(ft, pattern="needle")
        assert [(m["path"], m["line"], m["content"]) for m in out["matches"]] == [
            (p, 2, "needle 1:2:3") for p in paths]
        out = search(ft, pattern="needle", context=1)  # nine rows: the path-grouped form
        assert out["matches_text"] == "\n".join(
            f"{p}\n  1: before\n  2: needle 1:2:3\n  3: after" for p in paths)
        assert search(ft, pattern="needle", output_mode="count")["counts"] == {
            p: 1 for p in paths}
        assert search(ft, pattern="needle", output_mode="files_only")["files"] == paths
        assert search(ft, pattern="*", target="files")["files"] == paths
        out = search(ft, pattern="*", target="files", limit=1, offset=1)
        assert (out["files"], out["total_count"]) == (paths[1:2], len(paths))
        probe = search(ft, pattern="NEEDLE")
        assert probe["warning"].startswith(
            f"0 exact matches, but {len(paths)} case-insensitive match(es) in {len(paths)} "
            f"file(s): {', '.join(paths)} — ")
