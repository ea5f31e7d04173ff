"""Standard input as rg reads it: through Rust's 8 KiB stdin buffer, so its line buffer's
first fill ends within the first 8 KiB (search/line_buffer.py, STDIN_BUFFER), and searched
as it arrives (rgcli/stdin_stream.py): from a regular file, a pipe still being written, a
stream too long to hold, and a read that fails; patterns taken from it by -f -."""

from __future__ import annotations

import errno
import io
import os
import re
import subprocess

import pytest

from benchmarks.parity.stdin_probe import compare
from shellfree.rgcli.run import run
from shellfree.search.errors import os_error_text

_TIMINGS = re.compile(rb'"(?:elapsed|elapsed_total)":\{[^}]*\},?')


def _with_nul(data: bytes, at: int) -> bytes:
    return data[:at] + b"\0" + data[at + 1:]


# Cases that agreed before standard input had fills of its own are controls: -c and -v -c
# (a NUL past a match counts the same), --json (it prints past binary data), UTF-16 (its
# transcoder reads 8 KiB at a time in any case).
ALPHAS = b"alpha\n" * 10000  # 60,000 bytes of six-byte lines
X = b"x" * 9000
CASES = {
    # rg prints the 1,365 lines of the first 8,190 bytes, then the notice; from a file it
    # opens, only the notice (the NUL is in its first 64 KiB fill).
    "nul-past-8k": (ALPHAS + b"\0", ["alpha"]),
    "nul-past-8k-count": (ALPHAS + b"\0", ["-c", "alpha"]),
    "nul-past-8k-json": (ALPHAS + b"\0", ["--json", "alpha"]),
    "nul-past-8k-context": (_with_nul(ALPHAS, 30000), ["-n", "-B2", "-A1", "alpha"]),
    "nul-past-8k-inverted": (_with_nul(ALPHAS, 30000), ["-v", "-c", "zzz"]),
    "utf8-mark": (b"\xef\xbb\xbf" + ALPHAS + b"\0", ["-n", "alpha"]),
    "utf16-mark": (b"\xff\xfe" + (ALPHAS[:30000] + b"\0").decode().encode("utf-16-le"),
                   ["-c", "alpha"]),
    # A long line across the 8 KiB mark: the second fill reads what the buffer's free space
    # allows, past the stdin buffer.
    "long-line": (b"alpha\n" + X + b" alpha\n" + _with_nul(X, 7000) + b"\nalpha\n",
                  ["-n", "alpha"]),
    # \A holds where each fill's buffer starts: the JSON printer re-finds 3 matches (at 0, 2
    # and 8,192), where a file opened by path gives 2.
    "text-start": (b"x\n" * 6000, ["--json", "\\Ax"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_stdin_is_read_in_rgs_fills(tmp_path, reference_rg, name):
    data, args = CASES[name]
    path = tmp_path / "stdin"
    path.write_bytes(data)
    argv = ["--no-config", *args, "-"]
    with open(path, "rb") as stdin:
        theirs = subprocess.run([reference_rg, *argv], stdin=stdin, capture_output=True)
    out, err = io.BytesIO(), io.BytesIO()
    with open(path, "rb") as stdin:
        status = run([os.fsencode(a) for a in argv], out, err, stdin, cwd=str(tmp_path))
    assert (_TIMINGS.sub(b"", out.getvalue()), err.getvalue(), status) == \
        (_TIMINGS.sub(b"", theirs.stdout), theirs.stderr, theirs.returncode)


def test_random_stdin_searches_agree_with_rg(reference_rg):
    # 60 cases of seed 3 of the stdin probe take about 3 s.
    agree, differ = compare(reference_rg, 3, 60)
    assert not differ, f"{len(differ)} of {agree + len(differ)} differ, e.g. {differ[0][1]}"


# -f - reads the patterns from standard input, which then is not searched: with no path rg
# searches the working directory, and with "-" among the paths it refuses (after reading
# the pattern files, so a missing one is reported first; before the globs and the regex).
PATTERNS_FROM_STDIN = [
    ["-f", "-"], ["-f", "-", "-c"], ["--file=-", "-"], ["-f", "-", "-", "a.txt"],
    ["-f", "-", "a.txt", "-"], ["-f", "missing.pat", "-f", "-", "-"], ["-f", "-", "-e", "[", "-"],
    ["-f", "-", "-g", "[", "-"], ["-f", "-", "--files", "-"], ["-f", "-", "a.txt"],
]


@pytest.mark.parametrize("args", PATTERNS_FROM_STDIN, ids=" ".join)
def test_patterns_from_stdin_are_not_searched_again(tmp_path, reference_rg, args):
    (tmp_path / "a.txt").write_bytes(b"alpha\nbeta\n")
    (tmp_path / "b.txt").write_bytes(b"gamma alpha\n")
    path = tmp_path.parent / f"{tmp_path.name}.stdin"
    path.write_bytes(b"alpha\n")
    argv = ["--no-config", "--sort", "path", *args]
    with open(path, "rb") as stdin:
        theirs = subprocess.run([reference_rg, *argv], stdin=stdin, capture_output=True,
                                cwd=tmp_path)
    out, err = io.BytesIO(), io.BytesIO()
    with open(path, "rb") as stdin:
        status = run([os.fsencode(a) for a in argv], out, err, stdin, cwd=str(tmp_path))
    assert (out.getvalue(), err.getvalue(), status) == \
        (theirs.stdout, theirs.stderr, theirs.returncode)


def _choreographed(argv: list[str], parts: list[tuple[int, bytes]]) -> tuple[bytes, int, bool]:
    """Run *argv* with a pipe for stdin, writing each (lines, part) once the output has that
    many lines (or 10 s have passed): what a reader of a stream still being written sees.
    Returns (stdout, exit status, whether every wait ended with the lines printed)."""
    import threading
    import time

    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    got = bytearray()

    def drain() -> None:
        while True:
            data = proc.stdout.read1(1 << 16)
            if not data:
                return
            got.extend(data)

    reader = threading.Thread(target=drain)
    reader.start()
    met = True
    for lines, part in parts:
        deadline = time.monotonic() + 10
        while got.count(b"\n") < lines and time.monotonic() < deadline:
            time.sleep(0.01)
        met = met and got.count(b"\n") >= lines
        proc.stdin.write(part)
        proc.stdin.flush()
    proc.stdin.close()
    reader.join(30)
    return bytes(got), proc.wait(30), met


@pytest.mark.parametrize("parts", [
    [(0, b"one alpha\n"), (1, b"two alpha\n"), (2, b"three\n")],
    [(0, b"one alpha\n"), (1, b"x\0y\nalpha\n")],
    [(0, b"zero\n"), (0, b"x\0y\nalpha\n")],
    [(0, b"one alpha\n"), (1, b"partial al"), (1, b"pha\nend\n")],
], ids=["lines", "nul-after-a-match", "nul-first", "split-line"])
def test_stdin_lines_print_as_they_arrive(reference_rg, parts):
    # A part is written only once the lines before it are printed: under --line-buffered
    # shellfree, like rg, prints a line as soon as it is read, not at the end of the input
    # (`tail -f log | rg --line-buffered alpha`); before, it read to the end first, and each
    # wait here ran out (10 s).
    import sys

    argv = ["--line-buffered", "-n", "alpha"]
    ours = _choreographed([sys.executable, "-m", "shellfree", "rg", *argv], parts)
    theirs = _choreographed([reference_rg, "--no-config", *argv], parts)
    assert ours == theirs
    assert ours[2], "a wait for a printed line ran out"


@pytest.mark.parametrize("argv, parts", [
    (["-n", "-C1", "alpha"], [(0, b"x\n"), (0, b"one alpha\n"), (2, b"two\n"),
                              (3, b"three\nfour\nfive alpha\n"), (6, b"six\n")]),
    (["-A2", "alpha"], [(0, b"one alpha\n"), (1, b"two\n"), (2, b"three\n"), (3, b"four\n"),
                        (3, b"five alpha\n")]),
    (["-B1", "--context-separator=~", "alpha"],
     [(0, b"one\ntwo alpha\n"), (2, b"three\nfour\n"), (2, b"five alpha\n"),
      (5, b"x\0y\nalpha\n")]),
], ids=["C1", "A2", "B1-separator-binary"])
def test_stdin_context_lines_print_as_they_arrive(reference_rg, argv, parts):
    # Context lines as well (`tail -f log | rg -C1 ERROR`): a match prints with its -B lines
    # when it arrives, its -A lines as they come, "--" where groups do not meet, even across
    # reads; before, with context shellfree read to the end first and each wait ran out.
    import sys

    argv = ["--line-buffered", *argv]
    ours = _choreographed([sys.executable, "-m", "shellfree", "rg", *argv], parts)
    theirs = _choreographed([reference_rg, "--no-config", *argv], parts)
    assert ours == theirs
    assert ours[2], "a wait for a printed line ran out"


def test_context_lines_after_a_roll_that_kept_lines(tmp_path, reference_rg):
    # With context rg's buffer keeps lines already searched, which moves its later fills,
    # and with them what it prints before a NUL: here 45 lines, where fills that kept nothing
    # would end the output after 22 (case 164 of the stdin probe's seed 3).
    import random

    from benchmarks.parity.stdin_probe import make_case

    rnd = random.Random(3)
    for _ in range(165):
        data, args = make_case(rnd)
    assert args == ["-A2", "-e", "alpha", "-"] and data.find(b"\0") == 121926
    path = tmp_path / "stdin"
    path.write_bytes(data)
    argv = ["--no-config", *args]
    with open(path, "rb") as stdin:
        theirs = subprocess.run([reference_rg, *argv], stdin=stdin, capture_output=True)
    out, err = io.BytesIO(), io.BytesIO()
    with open(path, "rb") as stdin:
        status = run([os.fsencode(a) for a in argv], out, err, stdin, cwd=str(tmp_path))
    assert theirs.stdout.count(b"\n") == 45
    assert (out.getvalue(), err.getvalue(), status) == \
        (theirs.stdout, theirs.stderr, theirs.returncode)


@pytest.mark.parametrize("args", [[b"zzz"], [b"-c", b"zzz"], [b"-l", b"zzz"],
                                  [b"-q", b"zzz"], [b"--files-without-match", b"alpha"],
                                  [b"-m5", b"zzz"]],
                         ids=lambda args: " ".join(a.decode() for a in args))
def test_stdin_is_searched_a_few_fills_at_a_time(monkeypatch, args):
    # A stream of 40 MB is never held whole: no search sees more than a batch of fills.
    import shellfree.rgcli.stdin_stream as stdin_stream

    seen = []
    searched = stdin_stream.search_bytes

    def recording(data, matcher, config):
        seen.append(len(data))
        return searched(data, matcher, config)

    monkeypatch.setattr(stdin_stream, "search_bytes", recording)
    stdin = io.BytesIO(b"alpha and more text on a line\n" * 1_400_000)
    out, err = io.BytesIO(), io.BytesIO()
    assert run([b"--no-config", *args, b"-"], out, err, stdin) == 1
    assert len(seen) > 5 and max(seen) <= stdin_stream._BATCH + stdin_stream.FILL


@pytest.mark.parametrize("args", [["-q", "alpha"], ["-l", "alpha"], ["-m1", "-n", "alpha"],
                                  ["-m1", "-c", "alpha"], ["-m1", "-v", "alpha"]],
                         ids=" ".join)
def test_stdin_search_stops_at_the_first_match_of_a_stream_still_open(reference_rg, args):
    # rg -q and -l stop at the first match, and -m at its last line, also while the writer
    # has more to come (`tail -f log | rg -q ERROR && alert`, `| rg -m1 ERROR`); shellfree
    # read to the end first.
    import sys

    def first_match(argv: list[str]) -> tuple[bytes, int | None]:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        proc.stdin.write(b"x\none alpha\n")
        proc.stdin.flush()
        try:
            status = proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            status = None
        out = proc.stdout.read()
        proc.stdin.close()
        proc.wait()
        return out, status

    ours = first_match([sys.executable, "-m", "shellfree", "rg", *args])
    assert ours == first_match([reference_rg, "--no-config", *args])
    assert ours[1] == 0


class _FailingStdin(io.RawIOBase):
    """Standard input whose reads fail after *good* bytes."""

    def __init__(self, good: bytes) -> None:
        self._good = good

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self._good and size >= 0:
            data, self._good = self._good[:size], self._good[size:]
            return data
        raise OSError(errno.EIO, os.strerror(errno.EIO))


@pytest.mark.parametrize("args", [[b"alpha", b"-"], [b"-c", b"alpha", b"-"]],
                         ids=["stream", "whole"])
def test_a_failing_stdin_read_is_reported_not_raised(args):
    # The lines read before the failure are printed (when streamed), then rg's error line,
    # exit 2; the search never raises.
    out, err = io.BytesIO(), io.BytesIO()
    status = run([b"--no-config", *args], out, err, _FailingStdin(b"one alpha\n" * 3000))
    assert status == 2
    text = os_error_text(OSError(errno.EIO, os.strerror(errno.EIO)))  # rg's words (errors.py)
    assert err.getvalue() == f"rg: <stdin>: {text}\n".encode()
    if args[0] == b"alpha":
        assert out.getvalue().startswith(b"one alpha\n")


class _Trickle(io.RawIOBase):
    """Standard input that hands over a few bytes at a time, as a slow writer's pipe does."""

    def __init__(self, data: bytes, rnd) -> None:
        self._data, self._rnd = data, rnd

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            size = len(self._data)
        else:
            size = min(size, self._rnd.choice([1, 3, 7, 20, 64, 500, 5000]))
        data, self._data = self._data[:size], self._data[size:]
        return data


def test_context_lines_across_reads_agree_with_rg(monkeypatch, reference_rg):
    # Every read of a trickling stream searched as it comes, with the lines before it that
    # context needs: the output is rg's over the whole input, whatever the reads' sizes
    # (no NUL: then only the fills rg reads from a file would tell).
    import random

    import shellfree.rgcli.stdin_stream as stdin_stream

    monkeypatch.setattr(stdin_stream, "_BATCH", 1)
    rnd = random.Random(29)
    words = [b"alpha", b"beta", b"x", b"gamma delta", b"", b"alphabet", b"  alpha  "]
    flags = [["-n"], ["-b"], ["--column"], ["-o"], ["-H"], ["--no-context-separator"],
             ["--context-separator=XX"], ["-w"], ["--crlf"], ["-M5"], ["--trim"], ["-r", "R"],
             ["--vimgrep"], ["-v"]]
    for case in range(150):
        lines = [b" ".join(rnd.choice(words) for _ in range(rnd.randint(0, 3)))
                 for _ in range(rnd.randint(0, 60))]
        data = b"\n".join(lines) + (b"\n" if rnd.random() < 0.9 else b"")
        if rnd.random() < 0.2:
            data = data.replace(b"\n", b"\r\n")
        args = [rnd.choice(["-A", "-B", "-C"]) + str(rnd.randint(0, 4))]
        for chosen in rnd.sample(flags, rnd.randint(0, 3)):
            args += chosen
        args += [rnd.choice(["alpha", "beta", "^$", "x$", "^alpha", "gamma|beta"]), "-"]
        theirs = subprocess.run([reference_rg, "--no-config", *args], input=data,
                                capture_output=True)
        out, err = io.BytesIO(), io.BytesIO()
        status = run([os.fsencode(a) for a in ["--no-config", *args]], out, err,
                     _Trickle(data, random.Random(case)))
        assert (out.getvalue(), err.getvalue(), status) == \
            (theirs.stdout, theirs.stderr, theirs.returncode), (case, args, data)
