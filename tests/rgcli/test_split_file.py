"""Tests for rgcli/split_file.py: one large file searched in ranges by forked workers prints
exactly what rg prints for it, and whatever cannot be split goes back to the serial search."""

from __future__ import annotations

import io
import os
import random
import subprocess

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import shellfree.rgcli.split_file as split_file
import shellfree.search.file_read as file_read
from shellfree.rgcli.run import run

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _content(seed: int, lines: int = 3000) -> bytes:
    """Lines of the kinds a range boundary could mishandle: empty ones, CRLF endings, invalid
    UTF-8, non-ASCII words, long lines, and no newline at the very end."""
    rng = random.Random(seed)
    words = ["return", "needle", "Needle", "naïve", "ΣΊΣΥΦΟΣ", "foo_bar", "x", "TODO", "\xff\xfe"]
    out = []
    for i in range(lines):
        kind = rng.random()
        if kind < 0.08:
            line = b""
        elif kind < 0.1:
            line = b"a" * rng.randrange(100, 400) + b" needle"
        else:
            parts = [rng.choice(words) for _ in range(rng.randrange(1, 8))]
            line = " ".join(parts).encode("utf-8", "surrogateescape")
            if "\xff\xfe" in parts:
                line += b"\xff\x80 needle"
        out.append(line + (b"\r\n" if i % 7 == 0 else b"\n"))
    return b"".join(out)[:-1]


@pytest.fixture
def small_split(monkeypatch):
    """Split files of any size, and record whether each search was split."""
    monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 1)
    calls: list[bool] = []
    original = split_file.search_split

    def recording(*args, **kwargs):
        found = original(*args, **kwargs)
        calls.append(found is not None)
        return found

    monkeypatch.setattr(split_file, "search_split", recording)
    return calls


def _shellfree(args: list[str], cwd) -> tuple[bytes, bytes, int]:
    out, err = io.BytesIO(), io.BytesIO()
    status = run([os.fsencode(a) for a in args], out, err, None, cwd=str(cwd), may_fork=True)
    return out.getvalue(), err.getvalue(), status


def _rg(binary: str, args: list[str], cwd) -> tuple[bytes, bytes, int]:
    proc = subprocess.run([binary, *args], cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, check=False)
    return proc.stdout, proc.stderr, proc.returncode


SPLIT_CASES = [
    ["-n", "needle"],
    ["-n", "-i", "needle"],
    ["-n", "-w", "x"],
    ["-n", "-x", "x"],
    ["-n", "^return"],
    ["-n", "needle$"],
    ["-n", r"\bfoo_\w+"],
    ["-n", "-v", "needle"],
    ["-n", "-v", "-c", "needle"],
    ["-o", "-b", r"n\w+"],
    ["-n", "--column", "TODO|needle"],
    ["-c", "return"],
    ["--count-matches", "return"],
    ["-n", "-M", "30", "needle"],
    ["-n", "--max-columns-preview", "-M", "30", "needle"],
    ["-o", "-n", "Σ\\w*"],
    ["-n", "--crlf", "needle$"],
    ["-n", "-H", "--null", "TODO"],
    ["-n", ""],
    ["-n", "-e", "naïve", "-e", "TODO"],
    ["-n", "-F", "a.b"],
    ["-N", "needle"],
    ["-n", "-a", "needle"],
    # Context: one range, each piece searched with the context lines around it, the lines
    # merged before they are printed.
    ["-n", "-C2", "needle"],
    ["-n", "-A1", "return"],
    ["-n", "-B3", "-v", "needle"],
    ["-C1", "--column", "TODO|needle"],
    ["-n", "-A2", "-B1", "x"],
    ["-n", "--no-context-separator", "-C1", "needle"],
    # -m: one range, searched in pieces up to the piece that completes the count.
    ["-n", "-m", "3", "needle"],
    ["-c", "-m", "5", "return"],
    ["-n", "-v", "-m", "4", "needle"],
    ["--count-matches", "-m", "2", "x"],
    ["-m", "1", "-o", r"n\w+"],
    # -q: the same, printing nothing.
    ["-q", "needle"],
    ["-q", "zzz_absent"],
    # -l: one range, searched in pieces up to the first that matches.
    ["-l", "needle"],
    ["-l", "zzz_absent"],
    ["-l", "-w", "x"],
]


@pytest.mark.parametrize("piece", [None, 700], ids=["whole-ranges", "700-byte-pieces"])
@pytest.mark.parametrize("threads", ["-j1", "-j2", "-j3"])  # -j1: one process, in pieces
@pytest.mark.parametrize("args", SPLIT_CASES, ids=lambda a: " ".join(a))
def test_split_search_prints_what_rg_prints(tmp_path, small_split, reference_rg, monkeypatch,
                                            args, threads, piece):
    if piece is not None:  # each range searched in dozens of pieces
        monkeypatch.setattr(split_file, "_PIECE_BYTES", piece)
    (tmp_path / "big.txt").write_bytes(_content(seed=len(args)))
    command = [threads, *args, "big.txt"]
    ours = _shellfree(command, tmp_path)
    assert small_split == [True]  # the file really was split
    assert ours == _rg(reference_rg, command, tmp_path)


def test_ranges_end_just_after_newlines_and_cover_the_file(tmp_path):
    data = _content(seed=3)
    path = tmp_path / "f"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        for parts in (2, 3, 7):
            ranges = split_file.split_ranges(fd, len(data), parts)
            assert ranges is not None and len(ranges) == parts
            assert ranges[0][0] == 0 and ranges[-1][1] == len(data)
            for (_, end), (start, _) in zip(ranges, ranges[1:]):
                assert end == start and data[start - 1 : start] == b"\n"
    finally:
        os.close(fd)


def test_pieces_end_just_after_newlines_and_cover_the_range(tmp_path, monkeypatch):
    monkeypatch.setattr(split_file, "_PIECE_BYTES", 500)
    monkeypatch.setattr(split_file, "_CUT_WINDOW", 300)
    # Lines longer than the cut window in the middle: the rest of the range is one piece.
    data = _content(seed=4) + b"\n" + b"z" * 2000 + b"\n" + _content(seed=5)
    path = tmp_path / "f"
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        start, end = 1234, len(data) - 10
        pieces = list(split_file._pieces(fd, start, end))
        assert len(pieces) > 20
        assert pieces[0][0] == start and pieces[-1][1] == end
        for (_, cut), (next_start, _) in zip(pieces, pieces[1:]):
            assert cut == next_start and data[cut - 1 : cut] == b"\n"
        assert pieces[-1][1] - pieces[-1][0] > 2000  # the long line ended the cutting
    finally:
        os.close(fd)


def test_no_piece_starts_with_a_byte_order_mark(tmp_path, small_split, reference_rg,
                                               monkeypatch):
    # A line starting with BOM bytes mid-file is plain bytes to rg; a piece starting there
    # would be decoded as UTF-16 or stripped, so the cut moves on to the next line.
    monkeypatch.setattr(split_file, "_PIECE_BYTES", 64)
    lines = []
    for i in range(400):
        mark = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"")[i % 4]
        lines.append(mark + b"needle %d\n" % i)
    data = b"head\n" + b"".join(lines)
    (tmp_path / "big.txt").write_bytes(data)
    fd = os.open(tmp_path / "big.txt", os.O_RDONLY)
    try:
        cuts = [end for _, end in split_file._pieces(fd, 0, len(data))][:-1]
    finally:
        os.close(fd)
    assert cuts and all(not data[cut:].startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"))
                        for cut in cuts)
    command = ["-j2", "-n", "needle", "big.txt"]
    assert _shellfree(command, tmp_path) == _rg(reference_rg, command, tmp_path)
    assert small_split == [True]


def test_context_lines_that_start_with_a_byte_order_mark(tmp_path, small_split, reference_rg,
                                                          monkeypatch):
    # A piece's last line starting with BOM bytes (plain bytes mid-file) must not start the
    # search of the lines around the piece's end, which would strip or decode them (found by
    # the split hypothesis test: "\xef\xbb\xbf needle" printed as " needle").
    monkeypatch.setattr(split_file, "_PIECE_BYTES", 8)
    data = b"\n" * 5 + b"\xef\xbb\xbf needle" + b"\n" * 2
    (tmp_path / "f.txt").write_bytes(data)
    command = ["-n", "-C1", "needle", "f.txt"]
    assert _shellfree(command, tmp_path) == _rg(reference_rg, command, tmp_path)


def test_a_line_longer_than_the_cut_window_keeps_the_file_whole(tmp_path, monkeypatch):
    monkeypatch.setattr(split_file, "_CUT_WINDOW", 64)
    path = tmp_path / "f"
    path.write_bytes(b"short\n" + b"y" * 1000 + b"\nshort\n")
    fd = os.open(path, os.O_RDONLY)
    try:
        assert split_file.split_ranges(fd, os.fstat(fd).st_size, 2) is None
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    "content, args",
    [
        # A NUL past the first range makes the whole file binary: rg's notice, not lines.
        (_content(seed=5) + b"\nbin\0ary needle\n" + _content(seed=6), ["-n", "needle"]),
        # Byte-order marks: the serial search decodes UTF-16 and strips UTF-8's.
        (b"\xef\xbb\xbf" + _content(seed=7), ["-n", "needle"]),
        ("needle\n".encode("utf-16") * 500, ["-n", "needle"]),
        # Output that ties lines together.
        (_content(seed=8), ["-n", "-C1", "--json", "needle"]),
        (_content(seed=8), ["-n", "-m", "3", "-A1", "needle"]),
        (_content(seed=8), ["-m", "3", "--json", "needle"]),
        (_content(seed=8), ["-n", "-U", "needle\\nreturn"]),
        (_content(seed=8), ["--json", "needle"]),
        # \A: rg's printer re-finds it only at its buffer's start, never at a piece's.
        (_content(seed=8), ["-n", r"\Areturn"]),
        (_content(seed=8), ["-n", "--column", r"\Areturn|needle"]),
    ],
    ids=["late-nul", "utf8-bom", "utf16-bom", "context-json", "max-count-context",
         "max-count-json",
         "multiline",
         "json", "text-anchor", "text-anchor-column"],
)
def test_what_cannot_be_split_is_searched_serially(tmp_path, small_split, reference_rg,
                                                  content, args):
    (tmp_path / "big.txt").write_bytes(content)
    command = [*args, "big.txt"]
    ours = _shellfree(command, tmp_path)
    assert not any(small_split)
    if "--json" in args:  # its elapsed times differ from run to run
        assert ours[2] == _rg(reference_rg, command, tmp_path)[2]
    else:
        assert ours == _rg(reference_rg, command, tmp_path)


def test_a_worker_that_finds_binary_data_sends_the_file_back(tmp_path, monkeypatch):
    # The NUL lies in the last range, found only by a forked worker.
    monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 1)
    data = _content(seed=9) + b"\nlast needle\0\n"
    (tmp_path / "big.txt").write_bytes(data)
    fd = os.open(tmp_path / "big.txt", os.O_RDONLY)
    try:
        assert split_file.split_ranges(fd, len(data), 2) is not None
    finally:
        os.close(fd)
    out, err, status = _shellfree(["-j2", "-n", "needle", "big.txt"], tmp_path)
    serial = _shellfree(["-j1", "-n", "needle", "big.txt"], tmp_path)
    assert (out, err, status) == serial
    assert b"binary file matches" in out


@pytest.mark.parametrize("pattern", ["needle", r"need\w+"], ids=["fused", "general"])
def test_a_range_that_gives_up_early_does_not_break_the_one_before(tmp_path, monkeypatch,
                                                                   reference_rg, pattern):
    # The last range meets a NUL in its first piece and leaves at once; the range before it
    # searches on and then forwards its line count into a pipe nobody reads any more. That
    # EPIPE once escaped as a BrokenPipeError, which the command line takes for a reader that
    # left stdout: no output at all, exit 0.
    monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 1)
    data = _content(seed=11, lines=6000) + b"\nlast needle\0\n"
    (tmp_path / "big.txt").write_bytes(data)
    command = ["-j2", "-n", pattern, "big.txt"]
    assert _shellfree(command, tmp_path) == _rg(reference_rg, command, tmp_path)


def test_files_with_matches_stops_at_the_first_matching_piece(tmp_path, small_split,
                                                               monkeypatch, reference_rg):
    monkeypatch.setattr(split_file, "_PIECE_BYTES", 700)
    searched = []
    original = split_file._search_piece

    def counting(*args, **kwargs):
        searched.append(args[5:7])  # (start, end)
        return original(*args, **kwargs)

    monkeypatch.setattr(split_file, "_search_piece", counting)
    data = _content(seed=12)
    first = data.index(b"needle")
    (tmp_path / "big.txt").write_bytes(data)
    command = ["-l", "needle", "big.txt"]  # two threads by default: still one range
    assert _shellfree(command, tmp_path) == _rg(reference_rg, command, tmp_path)
    assert small_split == [True]
    assert searched and searched[-1][0] <= first < searched[-1][1]  # no piece after it


def test_fifo_and_missing_files_are_left_to_the_serial_search(tmp_path, small_split):
    out, err, status = _shellfree(["-j2", "needle", "missing.txt"], tmp_path)
    assert status == 2 and b"missing.txt" in err
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        # Opening a FIFO for reading would block without a writer: the split must stat first.
        writer = subprocess.Popen(
            ["sh", "-c", "printf 'a needle\\n' > fifo"], cwd=tmp_path
        )
        out, err, status = _shellfree(["-j2", "needle", "fifo"], tmp_path)
        writer.wait(timeout=10)
        assert (out, status) == (b"a needle\n", 0)
    assert not any(small_split)


_LINE_PARTS = [b"needle", b"Needle", b"return", b"x", b"na\xc3\xafve", b"\xff\x80", b"\xef\xbb\xbf",
               b"\xff\xfe", b"TODO", b" ", b"\r"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(st.lists(st.sampled_from(_LINE_PARTS), max_size=6), min_size=8, max_size=120),
    final_newline=st.booleans(),
    piece=st.integers(min_value=8, max_value=400),
    workers=st.integers(min_value=1, max_value=4),
    args=st.sampled_from([["-n", "needle"], ["-n", "-i", "needle"], ["-n", "TODO|x"],
                          ["-n", "-w", "x"], ["-c", "needle"], ["-n", "--column", "e"],
                          ["-N", "return"], ["-n", "-o", r"\w+"], ["-n", "-v", "x"],
                          ["-l", "needle"], ["-l", "zzz"], ["-n", "-C1", "needle"],
                          ["-n", "-A2", "-B1", "x"], ["-n", "-B2", "-v", "x"],
                          ["-n", "-m", "2", "x"], ["-c", "-m", "3", "needle"]]),
)
def test_split_search_equals_the_whole_file_search(tmp_path, monkeypatch, small_split, lines,
                                                   final_newline, piece, workers, args):
    # The search of a file read whole is the one the parity harness checks against rg;
    # splitting it into ranges and pieces of any size must not change a byte of its output.
    small_split.clear()  # the fixture lives across the examples
    monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(split_file, "_PIECE_BYTES", piece)
    data = b"\n".join(b" ".join(parts) for parts in lines) + (b"\n" if final_newline else b"")
    (tmp_path / "f.txt").write_bytes(data)
    split = _shellfree([f"-j{workers}", *args, "f.txt"], tmp_path)
    event("split" if small_split == [True] else "read whole")
    monkeypatch.setattr(split_file, "SPLIT_MIN_BYTES", 1 << 62)
    whole = _shellfree([f"-j{workers}", *args, "f.txt"], tmp_path)
    assert small_split[-1] is False  # really read whole
    assert split == whole


@pytest.mark.parametrize("nul_at", ["after-piece", "next-fill", "before-match", "none"])
@pytest.mark.parametrize("piece", [700, 4096])
def test_files_with_matches_sees_a_nul_in_the_matching_fill_as_rg_does(
        tmp_path, small_split, monkeypatch, reference_rg, nul_at, piece):
    # A walked file: rg quits at the fill holding its first NUL, unsearched, so a match in
    # that fill is not reported, even under -l, which stops reading at the first match; one
    # in an earlier fill is. The piece search only saw the pieces up to the match: a NUL
    # after them in the match's fill sends the file to the serial search.
    monkeypatch.setattr(split_file, "_PIECE_BYTES", piece)
    monkeypatch.setattr(file_read, "HEAD_BYTES", 512)  # walked files go to the pieces too
    lines = [b"line %06d" % i for i in range(30000)]
    lines[100] += b" needle"  # bytes 1200-1218
    at = {"after-piece": 450, "next-fill": 20000, "before-match": 50, "none": None}[nul_at]
    if at is not None:
        lines[at] += b" \0"  # line 450: byte 5400, past either piece, in the first 64 KiB
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "big.txt").write_bytes(b"\n".join(lines) + b"\n")
    # A named file's NUL is converted, but in the fill of the last -m line it still makes
    # rg print its binary notice in place of a match.
    for args in (["-l", "needle"], ["-l", "needle", "d"], ["-q", "needle"], ["-c", "needle"],
                 ["-m1", "needle"],
                 ["-n", "-m1", "needle", "d"], ["-n", "-m1", "needle", "d/big.txt"]):
        assert _shellfree(args, tmp_path) == _rg(reference_rg, args, tmp_path), args
    assert small_split[0] is (nul_at in ("next-fill", "none"))  # the first search's outcome


@pytest.mark.parametrize("args", [["-n", "needle"], ["-n", "-i", "needle"], ["-c", "return"],
                                  ["-n", "-v", "needle"], ["-l", "needle"], ["-o", "-b", r"n\w+"]],
                         ids=lambda a: " ".join(a))
@pytest.mark.parametrize("walked", [False, True], ids=["named", "walked"])
def test_without_pread_pieces_are_read_with_a_seek(tmp_path, small_split, reference_rg,
                                                   monkeypatch, args, walked):
    # Windows has no os.pread: the pieces are read with lseek and read by the one process.
    def no_pread(*_args):
        raise AssertionError("os.pread called")

    monkeypatch.setattr(split_file, "_HAS_PREAD", False)
    monkeypatch.setattr(os, "pread", no_pread, raising=False)
    monkeypatch.setattr(split_file, "_PIECE_BYTES", 700)
    monkeypatch.setattr(file_read, "HEAD_BYTES", 512)
    (tmp_path / "big.txt").write_bytes(_content(seed=21))
    command = ["-j2", *args] + ([] if walked else ["big.txt"])
    assert _shellfree(command, tmp_path) == _rg(reference_rg, command, tmp_path)
    assert small_split == [True]  # searched in pieces, not read whole
