"""benchmarks/walk_race.py runs, makes fresh walks take over from partial replays, and finds a
walk that yields a path twice or loses a file."""

from __future__ import annotations

import re

import pytest

from benchmarks import walk_race
from shellfree.search.walk import _CHECK_AHEAD, Haystack, Walker


@pytest.fixture
def small_tree(isolated):
    # More directories than a replay checks at once: a fresh walk can take over part-way.
    for number in range(2 * _CHECK_AHEAD):
        directory = isolated / "src" / f"pkg{number % 3}" / f"mod{number:03}"
        directory.mkdir(parents=True)
        (directory / "a.py").write_text("import os\n")
    return isolated


def run(tree, capsys, *args: str) -> tuple[int, str, str]:
    code = walk_race.main(["--tree", str(tree), "--settled-clock", "--seconds", "1",
                           "--pause", "0.006", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_walks_during_edits_are_sound(small_tree, capsys):
    code, out, err = run(small_tree, capsys)
    assert code == 0, err
    walks = int(out.split("/", 1)[0])
    assert walks > 1 and out.startswith(f"{walks}/{walks} walks sound during ")
    # The edits made replays turn fresh after files were yielded: the part under test ran.
    assert int(re.search(r"; (\d+) fresh walks took over", out).group(1)) > 0


def test_with_the_real_clock_too(small_tree, capsys):
    code = walk_race.main(["--tree", str(small_tree), "--seconds", "0.5", "--pause", "0.005"])
    out = capsys.readouterr().out
    assert code == 0 and " walks sound during " in out


class _Twice(Walker):
    """A cached walk that yields its first file twice."""

    def walk(self, *args, **kwargs):
        events = super().walk(*args, **kwargs)
        for event in events:
            yield event
            if self._cache is not None and isinstance(event, Haystack):
                yield event
                yield from events
                return


class _Losing(Walker):
    """A cached walk that leaves out one of the files the edits never touch."""

    def walk(self, *args, **kwargs):
        lost = self._cache is None
        for event in super().walk(*args, **kwargs):
            if not lost and isinstance(event, Haystack) and event.path.endswith(b"a.py"):
                lost = True
                continue
            yield event


@pytest.mark.parametrize("walker, problem", [(_Twice, "a path yielded twice"),
                                             (_Losing, "untouched files missing")])
def test_a_walk_gone_wrong_is_reported(small_tree, capsys, monkeypatch, walker, problem):
    monkeypatch.setattr(walk_race, "Walker", walker)
    code, out, err = run(small_tree, capsys, "--seconds", "0.3")
    assert code == 1
    assert problem in err
    assert "a final walk differs" in out
