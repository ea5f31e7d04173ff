"""benchmarks/walk_race.py runs, and finds a walk that yields a path twice or loses a file."""

from __future__ import annotations

import pytest

from benchmarks import walk_race
from shellfree.search.walk import Haystack, Walker


@pytest.fixture
def small_tree(isolated):
    for number in range(8):
        directory = isolated / "src" / f"pkg{number % 3}" / f"mod{number}"
        directory.mkdir(parents=True)
        (directory / "a.py").write_text("import os\n")
    return isolated


def run(tree, capsys) -> tuple[int, str, str]:
    code = walk_race.main(["--tree", str(tree), "--seconds", "0.5", "--pause", "0.005"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_walks_during_edits_are_sound(small_tree, capsys):
    code, out, err = run(small_tree, capsys)
    assert code == 0, err
    walks = int(out.split("/", 1)[0])
    assert walks > 1 and out.startswith(f"{walks}/{walks} walks sound during ")


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
    code, out, err = run(small_tree, capsys)
    assert code == 1
    assert problem in err
    assert "the final walk differs" in out
