"""The ``shellfree`` command: --version, --help, dispatch to rg / call / mcp / bench.

``shellfree call`` itself is covered with FileTools in tests/engine/test_file_tools.py, and the
MCP server in tests/test_mcp.py; here is what the command line adds around them.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from shellfree import __version__, cli

REPO = Path(__file__).resolve().parents[1]


def _shellfree(args: list[str], cwd: Path | str | None = None,
               stdin: bytes | None = None, config: str | None = None
               ) -> subprocess.CompletedProcess[bytes]:
    env = {k: v for k, v in os.environ.items() if k != "RIPGREP_CONFIG_PATH"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    if config is not None:
        env["RIPGREP_CONFIG_PATH"] = config
    return subprocess.run([sys.executable, "-m", "shellfree", *args], cwd=cwd, input=stdin,
                          capture_output=True, env=env, check=False)


# rg prepends the arguments of the file RIPGREP_CONFIG_PATH names (one a line, trimmed of
# Unicode white space, "#" lines and blank ones skipped) unless the command line says
# --no-config; a file it cannot read gets a message. shellfree rg ignored the variable.
CONFIGS = {
    "flags": b"--ignore-case\n  # a comment\n\n  -n  \r\n",
    "pattern": b"hello\n",
    "unknown": b"--bogus\n",
    "spaces": "\u00a0-n\u3000\n\x1c-i\n".encode(),
    "missing": None,
    "directory": None,
    "empty-variable": None,
}


@pytest.mark.parametrize("args", [["HELLO", "a.txt"], ["--no-config", "HELLO", "a.txt"],
                                  ["a.txt"], ["-e", "--no-config", "a.txt"]], ids=" ".join)
@pytest.mark.parametrize("name", list(CONFIGS))
def test_rg_reads_ripgrep_config_path_as_rg_does(tmp_path, reference_rg, name, args):
    (tmp_path / "a.txt").write_bytes(b"hello\nHELLO there\n")
    (tmp_path / "directory").mkdir()
    config = str(tmp_path / name) if name != "empty-variable" else ""
    if CONFIGS[name] is not None:
        (tmp_path / name).write_bytes(CONFIGS[name])
    ours = _shellfree(["rg", *args], cwd=tmp_path, config=config)
    env = {**os.environ, "RIPGREP_CONFIG_PATH": config}
    theirs = subprocess.run([reference_rg, *args], cwd=tmp_path, capture_output=True, env=env,
                            stdin=subprocess.DEVNULL, check=False)
    assert (ours.stdout, ours.stderr, ours.returncode) == \
        (theirs.stdout, theirs.stderr, theirs.returncode)


class TestVersionAndHelp:
    @pytest.mark.parametrize("flag", ["--version", "-V"])
    def test_version(self, flag):
        out = _shellfree([flag])
        assert (out.returncode, out.stdout, out.stderr) == (0, f"shellfree {__version__}\n".encode(),
                                                            b"")

    def test_help_lists_every_command(self, capsys):
        with pytest.raises(SystemExit) as exit_:
            cli.main(["--help"])
        assert exit_.value.code == 0
        text = capsys.readouterr().out
        for command in ("rg", "call", "mcp", "bench"):
            assert f"\n    {command} " in text, command
        assert "shellfree call search_files" in text

    def test_no_arguments_print_help_on_stderr(self, capsys):
        assert cli.main([]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.startswith("usage: shellfree")

    @pytest.mark.parametrize("command, expected", [
        ("call", "--root DIR"), ("mcp", "pip install 'shellfree[mcp]'"),
        ("bench", "--suites SUITES"),
    ])
    def test_each_command_has_help(self, capsys, command, expected):
        with pytest.raises(SystemExit) as exit_:
            cli.main([command, "--help"])
        assert exit_.value.code == 0
        assert expected in capsys.readouterr().out.replace("\n  ", " ")

    def test_unknown_command(self, capsys):
        with pytest.raises(SystemExit) as exit_:
            cli.main(["grep", "x"])
        assert exit_.value.code == 2
        assert "invalid choice: 'grep'" in capsys.readouterr().err


class TestRg:
    """``shellfree rg`` hands every argument to the rg-compatible parser, untouched."""

    def test_arguments_argparse_would_take_reach_rg(self, tmp_path):
        (tmp_path / "a.txt").write_bytes(b"-x\n--help\nplain\n")
        out = _shellfree(["rg", "-n", "-e", "-x", "-e", "--help", "--", "a.txt"], cwd=tmp_path)
        assert (out.returncode, out.stdout, out.stderr) == (0, b"1:-x\n2:--help\n", b"")

    def test_same_bytes_as_the_library_call(self, tmp_path):
        from shellfree.rgcli.run import run

        (tmp_path / "b.txt").write_bytes(b"alpha\nbeta\n")
        piped = _shellfree(["rg", "--vimgrep", "a"], cwd=tmp_path)
        direct, err = io.BytesIO(), io.BytesIO()
        status = run([b"--vimgrep", b"a"], direct, err, cwd=str(tmp_path))
        assert (piped.returncode, piped.stdout) == (status, direct.getvalue())

    def test_piped_output_is_byte_identical_to_rg(self, tmp_path, reference_rg):
        (tmp_path / "c.txt").write_bytes(b"one\ntwo\r\nthree one\n")
        args = ["-n", "--column", "one"]
        ours = _shellfree(["rg", *args], cwd=tmp_path)
        theirs = subprocess.run([reference_rg, *args], cwd=tmp_path, capture_output=True,
                                stdin=subprocess.DEVNULL, check=False)
        assert (ours.returncode, ours.stdout) == (theirs.returncode, theirs.stdout)


    @pytest.mark.parametrize("unbuffered", ["", "1"])
    def test_output_is_block_buffered_and_a_closed_pipe_ends_quietly(self, tmp_path, unbuffered):
        # PYTHONUNBUFFERED makes sys.stdout.buffer the raw file; rg's output is still written
        # in blocks, all of it, and a reader that leaves early ends the search without noise.
        for i in range(300):
            (tmp_path / f"f{i:03}.txt").write_bytes(b"needle %d\n" % i * 50)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
               "PYTHONUNBUFFERED": unbuffered}
        command = [sys.executable, "-m", "shellfree", "rg", "-j1", "--sort", "path", "needle"]
        whole = subprocess.run(command, cwd=tmp_path, capture_output=True, env=env, check=False)
        assert whole.returncode == 0 and whole.stderr == b""
        assert whole.stdout.count(b"\n") == 300 * 50
        reader = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, env=env)
        assert reader.stdout is not None and reader.stderr is not None
        first = reader.stdout.read(100)
        reader.stdout.close()
        assert reader.wait(timeout=60) == 0
        with reader.stderr:
            assert reader.stderr.read() == b""
        assert whole.stdout.startswith(first)

    def test_a_broken_pipe_elsewhere_is_not_taken_for_a_reader_that_left(self, monkeypatch):
        # Only stdout's own broken pipe ends a search quietly; one between forked workers once
        # passed for it, and the search printed nothing and exited 0.
        import shellfree.rgcli.run as run_module

        def broken(*args, **kwargs):
            raise BrokenPipeError(32, "Broken pipe")

        monkeypatch.setattr(run_module, "run", broken)
        with pytest.raises(BrokenPipeError):
            cli._rg(["needle"])

        def reader_left(argv, stdout, *args, **kwargs):
            stdout.write(b"x" * 10)  # the reader has gone: this write breaks the pipe
            return 0

        class Closed(io.BytesIO):
            def write(self, data):
                raise BrokenPipeError(32, "Broken pipe")

        monkeypatch.setattr(cli, "_silence_stdout", lambda: None)
        monkeypatch.setattr(cli, "_block_buffered", lambda stream: Closed())
        monkeypatch.setattr(run_module, "run", reader_left)
        assert cli._rg(["needle"]) == 0  # stdout's own: quiet, as rg

    @pytest.mark.parametrize("failing", ["write", "flush"])
    def test_einval_from_a_closed_pipe_is_a_reader_that_left_on_windows(self, monkeypatch,
                                                                        capsysbinary, failing):
        # Windows raises OSError(EINVAL) rather than BrokenPipeError for a write to a pipe
        # whose reader closed it (CPython's subprocess: bpo-19612); elsewhere EINVAL is a bug.
        import errno

        import shellfree.rgcli.run as run_module

        class Closed(io.BytesIO):
            def write(self, data):
                if failing == "write":
                    raise OSError(errno.EINVAL, "Invalid argument")
                return len(data)

            def flush(self):
                if failing == "flush":
                    raise OSError(errno.EINVAL, "Invalid argument")

        def writes(argv, stdout, *args, **kwargs):
            stdout.write(b"x" * 10)
            return 0

        monkeypatch.setattr(cli, "_silence_stdout", lambda: None)
        monkeypatch.setattr(cli, "_block_buffered", lambda stream: Closed())
        monkeypatch.setattr(run_module, "run", writes)
        monkeypatch.setattr(sys, "platform", "win32")
        assert cli._rg(["needle"]) == 0
        assert capsysbinary.readouterr().err == b""
        # Elsewhere it is a failed write: said once, status 2 (as any other write error).
        monkeypatch.setattr(sys, "platform", "linux")
        assert cli._rg(["needle"]) == 2
        assert capsysbinary.readouterr().err == b"rg: Invalid argument (os error 22)\n"

    @pytest.mark.skipif(not os.path.exists("/dev/full"), reason="/dev/full (Linux)")
    def test_a_full_disk_is_a_message_and_status_2(self, tmp_path, reference_rg):
        # rg names each file whose lines it could not write; shellfree, buffered, says it once.
        for i in range(300):
            (tmp_path / f"f{i:03}.txt").write_bytes(b"needle line\n" * 20)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        with open("/dev/full", "wb") as full:
            ours = subprocess.run([sys.executable, "-m", "shellfree", "rg", "needle"],
                                  cwd=tmp_path, stdout=full, stderr=subprocess.PIPE, env=env)
            theirs = subprocess.run([reference_rg, "needle"], cwd=tmp_path, stdout=full,
                                    stderr=subprocess.PIPE)
        assert ours.returncode == theirs.returncode == 2
        assert ours.stderr == b"rg: No space left on device (os error 28)\n"
        assert theirs.stderr.endswith(b": No space left on device (os error 28)\n")

    @pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell closes the streams")
    @pytest.mark.parametrize("shell", ["{prog} needle >&-", "{prog} nothing-here >&-",
                                       "{prog} needle - <&-", "{prog} needle 2>&-"])
    def test_a_closed_standard_stream_as_rg(self, tmp_path, reference_rg, shell):
        # Closed when the process starts (Python's sys.stdout is then None): rg's status, no
        # traceback.
        (tmp_path / "a.txt").write_bytes(b"needle\n")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        ours = subprocess.run(shell.format(prog=f"{sys.executable} -m shellfree rg"), shell=True,
                              cwd=tmp_path, capture_output=True, env=env)
        theirs = subprocess.run(shell.format(prog=reference_rg), shell=True, cwd=tmp_path,
                                capture_output=True)
        assert (ours.returncode, ours.stdout, ours.stderr) == (
            theirs.returncode, theirs.stdout, theirs.stderr)

    @pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
    def test_ctrl_c_ends_quietly(self, tmp_path):
        import signal
        import time

        os.mkfifo(tmp_path / "fifo")  # opened for reading, it waits for a writer
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        process = subprocess.Popen([sys.executable, "-m", "shellfree", "rg", "x", "fifo"],
                                   cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   env=env)
        # Interrupted once it waits on the FIFO (Linux: its wait channel says so), not while
        # the interpreter still starts.
        wchan = f"/proc/{process.pid}/wchan"
        deadline = time.monotonic() + 15
        while os.path.exists(wchan) and time.monotonic() < deadline:
            with open(wchan) as channel:
                if channel.read() == "wait_for_partner":
                    break
            time.sleep(0.05)
        else:
            time.sleep(1.0)  # no /proc: give it a moment
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=20)
        assert (process.returncode, err) == (130, b"")

    @pytest.mark.parametrize("unbuffered", ["", "1"])
    def test_the_fast_exit_keeps_the_status_and_every_message(self, tmp_path, unbuffered):
        # console() leaves an rg run through os._exit: what was written must be flushed first.
        (tmp_path / "a.txt").write_bytes(b"needle\n" * 3000)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path),
               "PYTHONUNBUFFERED": unbuffered}
        out = subprocess.run(
            [sys.executable, "-m", "shellfree", "rg", "needle", "a.txt", "missing.txt"],
            cwd=tmp_path, capture_output=True, env=env, check=False,
        )
        assert out.returncode == 2
        assert out.stdout == b"a.txt:needle\n" * 3000
        assert out.stderr.startswith(b"rg: missing.txt: ") and out.stderr.endswith(b"\n")

    def test_the_block_buffer_is_not_used_for_a_terminal(self, monkeypatch):
        stream = io.BytesIO()
        assert cli._block_buffered(stream) is stream  # no file descriptor: kept as it is
        read_end, write_end = os.pipe()
        try:
            with open(write_end, "wb", buffering=0, closefd=False) as raw:
                wrapped = cli._block_buffered(raw)
                assert isinstance(wrapped, io.BufferedWriter) and wrapped.fileno() == write_end
                monkeypatch.setattr(os, "isatty", lambda fd: True)
                assert cli._block_buffered(raw) is raw
        finally:
            os.close(read_end)
            os.close(write_end)

class TestCall:
    def test_unknown_tool_is_the_contract_error(self, tmp_path):
        out = _shellfree(["call", "--root", str(tmp_path), "terminal", "{}"])
        assert out.returncode == 0
        assert json.loads(out.stdout)["error"].startswith("Unknown tool: 'terminal'.")

    def test_arguments_must_be_an_object(self, tmp_path):
        out = _shellfree(["call", "--root", str(tmp_path), "search_files", "[1]"])
        assert json.loads(out.stdout) == {
            "error": "Arguments for search_files must be a JSON object, got list."}

    @staticmethod
    def _call_with_stdin(monkeypatch, root, tool: str, data: bytes) -> int:
        # sys.stdin as on Windows: its text layer decodes the ANSI code page (cp1252 here).
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="cp1252"))
        return cli.main(["call", "--root", str(root), tool, "-"])

    @pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
    def test_piped_arguments_are_utf8_whatever_the_locale(self, tmp_path, monkeypatch,
                                                           capsysbinary, bom):
        arguments = {"path": "caf\u00e9.txt", "content": "na\u00efve \u2713\n"}
        data = bom + json.dumps(arguments, ensure_ascii=False).encode("utf-8")
        assert self._call_with_stdin(monkeypatch, tmp_path, "write_file", data) == 0
        assert "error" not in json.loads(capsysbinary.readouterr().out)
        assert (tmp_path / "caf\u00e9.txt").read_text(encoding="utf-8") == "na\u00efve \u2713\n"

    def test_piped_arguments_that_are_not_utf8_are_refused(self, tmp_path, monkeypatch,
                                                           capsysbinary):
        data = b'{"path": "caf\xe9.txt"}'
        assert self._call_with_stdin(monkeypatch, tmp_path, "read_file", data) == 2
        assert capsysbinary.readouterr() == (b"", b"shellfree call: the arguments on standard "
                                             b"input are not UTF-8 (byte 0xe9 at offset 13)\n")


    @pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell closes the stream")
    def test_a_closed_stdin_is_no_arguments(self, tmp_path):
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        out = subprocess.run(f"{sys.executable} -m shellfree call --root {tmp_path} read_file <&-",
                             shell=True, capture_output=True, env=env)
        # The call runs with no arguments (the tool's own error for a missing path), no traceback.
        assert (out.returncode, out.stderr) == (0, b"")
        assert "error" in json.loads(out.stdout)

    def test_root_must_be_a_directory(self, tmp_path, capsys):
        missing = tmp_path / "nope"
        assert cli.main(["call", "--root", str(missing), "write_file",
                         '{"path": "n.txt", "content": "x"}']) == 2
        assert capsys.readouterr().err == (
            f"shellfree call: --root {str(missing)!r} is not a directory\n")
        assert not missing.exists()  # the write did not make it

    @pytest.mark.skipif(sys.platform == "win32", reason="a directory in use cannot be removed")
    def test_a_removed_working_directory_needs_root(self, tmp_path):
        gone = tmp_path / "gone"
        gone.mkdir()
        (tmp_path / "a.txt").write_bytes(b"x\n")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
        script = (f"cd {gone} && rmdir {gone} && {sys.executable} -m shellfree call read_file "
                  f"'{{\"path\": \"{tmp_path / 'a.txt'}\"}}'")
        out = subprocess.run(script, shell=True, capture_output=True, env=env)
        assert (out.returncode, out.stdout) == (2, b"")
        assert out.stderr == b"shellfree call: the current directory no longer exists; pass --root\n"
        listed = subprocess.run(f"cd {gone.parent} && mkdir gone && cd gone && rmdir {gone} && "
                                f"{sys.executable} -m shellfree rg --files {tmp_path}",
                                shell=True, capture_output=True, env=env)
        assert (listed.returncode, listed.stdout) == (0, f"{tmp_path / 'a.txt'}\n".encode())

    @pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="a name that is not UTF-8")
    def test_a_name_that_is_not_utf8_is_printed_as_json_escapes(self, tmp_path):
        (tmp_path / os.fsdecode(b"bad\xff.txt")).write_bytes(b"x\n")
        out = _shellfree(["call", "--root", str(tmp_path), "read_file", '{"path": "bad.txt"}'])
        assert out.returncode == 0 and b"bad\\udcff.txt" in out.stdout
        [name] = json.loads(out.stdout)["similar_files"]
        assert os.path.exists(name)  # the parsed name is the file's own


class TestMcp:
    def test_root_must_be_a_directory(self, tmp_path, capsys):
        missing = tmp_path / "nope"
        assert cli.main(["mcp", "--root", str(missing)]) == 2
        assert capsys.readouterr().err == f"shellfree mcp: --root {str(missing)!r} is not a directory\n"


class TestBench:
    def test_outside_a_checkout_says_where_the_benchmarks_are(self, monkeypatch, capsys):
        monkeypatch.setattr(cli, "_benchmarks_report", lambda: None)
        assert cli.main(["bench"]) == 2
        err = capsys.readouterr().err
        assert "benchmarks/ directory of a source checkout" in err
        assert "pip install -e '.[dev,bench]' && shellfree bench" in err

    def test_options_reach_the_report(self, monkeypatch, tmp_path):
        seen = {}
        fake = SimpleNamespace(run_bench=lambda **options: seen.update(options) or 0)
        monkeypatch.setattr(cli, "_benchmarks_report", lambda: fake)
        assert cli.main(["bench", "--suites", "walk", "--cases", "7", "--no-chart",
                         "--out", str(tmp_path)]) == 0
        assert seen == {"suites": "walk", "corpus": "medium",
                        "queries": "rare,common,icase,alt,word,files", "rounds": 5, "cases": 7,
                        "seed": 1, "build_corpora": False, "chart": False, "out": tmp_path}

    def test_finds_the_checkout(self):
        module = cli._benchmarks_report()
        assert module is not None and Path(module.__file__).parent == REPO / "benchmarks" / "report"

    def test_bad_options_are_refused(self, capsys):
        assert cli.main(["bench", "--suites", "speed,fast", "--corpus", "huge"]) == 2
        err = capsys.readouterr().err
        assert "unknown suite 'fast'" in err and "unknown corpus 'huge'" in err


    def test_an_out_that_is_a_file_is_refused_before_any_suite(self, tmp_path, capsys):
        taken = tmp_path / "app.py"
        taken.write_text("x = 1\n")
        assert cli.main(["bench", "--suites", "latency", "--out", str(taken)]) == 2
        assert f"cannot write the report to {taken}: File exists" in capsys.readouterr().err
        assert taken.read_text() == "x = 1\n"

    def test_a_small_real_run_writes_the_report(self, tmp_path, reference_rg):
        out = _shellfree(["bench", "--suites", "search-files", "--cases", "3", "--no-chart",
                          "--out", str(tmp_path)], cwd=REPO)
        assert out.returncode == 0, out.stderr.decode()
        report = (tmp_path / "report.md").read_text(encoding="utf-8")
        assert "| search_files (in-process vs rg backend) | 3 | 3 | 100.00% |" in report
        assert (tmp_path / "parity-search-files.md").is_file()
        data = json.loads((tmp_path / "bench.json").read_text(encoding="utf-8"))
        assert data["suites"][0]["agreements"][0]["total"] == 3
        assert out.stdout.decode() == report
        assert b"search_files parity" in out.stderr  # the progress lines

    def test_report_and_chart_from_results(self, tmp_path):
        pytest.importorskip("matplotlib")
        from benchmarks.report.render import draw_chart, render_markdown
        from benchmarks.report.suites import Agreement, Ratio, SuiteResult

        results = [
            SuiteResult("speed", ratios=[
                Ratio("speed", "medium", "alt `-n TODO|FIXME`", 100.0, 300.0, 3.0, 2.5, 3.2),
                Ratio("speed", "medium", "files `--files`", 60.0, None, None,
                      status="mismatch", detail="3 lines differ")]),
            SuiteResult("latency", ratios=[
                Ratio("latency", "search_files warm", "file names *.py", 12.0, 9.0, 0.75)]),
            SuiteResult("walk", agreements=[
                Agreement("walk (`rg --files`)", 199, 200, 20.0, tmp_path / "parity-walk.md",
                          (("stdout", 1),))]),
        ]
        chart = draw_chart(results, tmp_path / "ratios.png", "test")
        assert chart is not None and chart.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
        text = render_markdown(results, {"date": "today", "machine": "m"}, chart)
        assert "| medium | alt `-n TODO\\|FIXME` | 100 ms | 300 ms | 3.00 | 2.50 | 3.20 |" in text
        assert "| medium | files `--files` | 60 ms | **mismatch** | – | – | – |" in text
        assert "| search_files warm: file names *.py | 12 ms | 9.0 ms | 0.75 |" in text
        assert "| walk (`rg --files`) | 199 | 200 | 99.50% | 20 s | [parity-walk.md]" in text
        assert "![ratios of shellfree to rg](ratios.png)" in text
        assert "Geometric mean over 1 timed cells: wall 3.00, CPU 2.50." in text

    def test_a_busy_machine_is_flagged(self):
        from benchmarks.report import _load_fact

        assert _load_fact(None, 1.0) == ""
        assert "busy machine" in _load_fact(1000.0, 1000.0)
        assert "busy machine" not in _load_fact(0.0, 0.0)


def test_a_profiled_rg_run_exits_normally_so_the_profiler_reports(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"needle\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-m", "cProfile", "-m", "shellfree", "rg", "needle", "a.txt"],
        cwd=tmp_path, capture_output=True, env=env, check=False,
    )
    assert out.returncode == 0
    assert out.stdout.startswith(b"needle\n") and b"function calls" in out.stdout
