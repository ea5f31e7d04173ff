"""The kill loop: start a writer, SIGKILL it at a random moment, check the file, repeat.

After every kill the target must be exactly the version last reported written (old) or the one
after it (new), by sha256 — never empty, never a mix — and at most one temp file (the write in
flight) may remain. The next writer's first write removes that leftover.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field

from benchmarks.fault_injection.contents import content, digest

__all__ = ["KillReport", "main", "run_kills"]

TEMP_SUFFIX = ".shellfree-tmp"
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass
class KillReport:
    """What *kills* SIGKILLs did to the file. ``violations`` lists every kill after which the
    target was neither the old nor the new version, or more than one temp file was left."""

    kills: int
    size_bytes: int
    writes_completed: int = 0
    target_old: int = 0
    target_new: int = 0
    temps_after_kill: Counter = field(default_factory=Counter)
    max_temps: int = 0
    temps_after_final_write: int = -1
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        temps = ", ".join(f"{n} temp: {c}" for n, c in sorted(self.temps_after_kill.items()))
        return (
            f"{self.kills} SIGKILLs of a writer rewriting a {self.size_bytes / 1e6:.1f} MB file "
            f"({self.writes_completed} writes completed, {self.seconds:.0f} s)\n"
            f"  target after kill: old version {self.target_old}, new version {self.target_new}, "
            f"torn/other {len(self.violations)}\n"
            f"  temp files after kill: {temps} (max {self.max_temps})\n"
            f"  temp files after the next clean write: {self.temps_after_final_write}")


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    paths = [_REPO, os.path.join(_REPO, "src")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


def _version_on_disk(path: str, seed: int, size: int) -> tuple[int | None, str]:
    """The version the file holds (None when it is none of them) and why."""
    import hashlib

    with open(path, "rb") as handle:
        data = handle.read()
    first = data.split(b"\n", 1)[0]
    if not first.startswith(b"version "):
        return None, f"unexpected first line {first[:40]!r} ({len(data)} bytes)"
    try:
        version = int(first.split()[1])
    except (IndexError, ValueError):
        return None, f"unparsable first line {first[:40]!r}"
    if hashlib.sha256(data).hexdigest() != digest(version, seed, size):
        return None, f"version {version} header but wrong sha256 ({len(data)} bytes)"
    return version, ""


def _temps(directory: str) -> list[str]:
    return [name for name in os.listdir(directory) if name.endswith(TEMP_SUFFIX)]


def run_kills(kills: int, size: int, seed: int = 1, max_delay: float = 0.6,
              directory: str | None = None) -> KillReport:
    """Runs *kills* kill cycles on a *size*-byte file in *directory* (default: a temp dir,
    removed afterwards)."""
    if not hasattr(signal, "SIGKILL"):
        raise RuntimeError("SIGKILL is not available on this platform")
    if directory is None:
        with tempfile.TemporaryDirectory(prefix="shellfree-fault-") as scratch:
            return run_kills(kills, size, seed, max_delay, scratch)
    rng = random.Random(seed)
    target = os.path.join(directory, "target.txt")
    with open(target, "w", encoding="utf-8", newline="") as handle:
        handle.write(content(0, seed, size))
    report = KillReport(kills, size)
    current = 0
    started = time.monotonic()
    for number in range(1, kills + 1):
        child = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.fault_injection.child", directory,
             str(current + 1), str(seed), str(size)],
            stdout=subprocess.PIPE, text=True, env=_child_env(), cwd=_REPO)
        assert child.stdout is not None
        if child.stdout.readline().strip() != "ready":
            child.kill()
            raise RuntimeError("writer did not start: " + child.stdout.read())
        time.sleep(rng.uniform(0, max_delay))
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        lines = child.stdout.read().split("\n")
        child.stdout.close()
        done = [int(line.split()[1]) for line in lines if line.startswith("done ")]
        errors = [line for line in lines if line.startswith("error ")]
        report.writes_completed += len(done)
        old = done[-1] if done else current
        version, why = _version_on_disk(target, seed, size)
        temps = _temps(directory)
        report.temps_after_kill[len(temps)] += 1
        report.max_temps = max(report.max_temps, len(temps))
        if errors:
            report.violations.append(f"kill {number}: writer error {errors[0]}")
        if version is None or version not in (old, old + 1):
            report.violations.append(
                f"kill {number}: expected version {old} or {old + 1}, found "
                f"{version if version is not None else why}")
        elif version == old:
            report.target_old += 1
        else:
            report.target_new += 1
        if len(temps) > 1:
            report.violations.append(f"kill {number}: {len(temps)} temp files: {temps}")
        current = version if version is not None else old
    report.seconds = time.monotonic() - started
    report.temps_after_final_write = _final_write(directory, current + 1, seed, size)
    return report


def _final_write(directory: str, version: int, seed: int, size: int) -> int:
    """One uninterrupted write: it must clear any leftover temp. Returns the temps left."""
    env = {**_child_env(), "HERMES_DISABLE_FILE_STATE_GUARD": "1"}
    script = ("import json,sys;from shellfree import FileTools;"
              "from benchmarks.fault_injection.contents import content;"
              f"r=json.loads(FileTools({directory!r}).write_file('target.txt',"
              f"content({version},{seed},{size})));sys.exit('error' in r)")
    subprocess.run([sys.executable, "-c", script], check=True, cwd=_REPO, env=env)
    return len(_temps(directory))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fault_injection",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=500, help="kill cycles (default 500)")
    parser.add_argument("--size-mb", type=float, default=5.0, help="file size in MB (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=0.6,
                        help="each kill comes after a uniform random delay up to this (s)")
    parser.add_argument("--dir", help="directory for the target (default: a new temp dir)")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    report = run_kills(args.kills, int(args.size_mb * 1_000_000), args.seed, args.max_delay,
                       args.dir)
    if args.json:
        print(json.dumps({**asdict(report), "temps_after_kill": dict(report.temps_after_kill)}))
    else:
        print(report.summary())
        for violation in report.violations:
            print("  VIOLATION " + violation)
    return 1 if report.violations else 0
