"""V4A patches are all or nothing, for any patch text: a random mix of well-formed and broken
operations over a small tree, with a write that may fail at any point, either applies whole
and says so, or says it failed and leaves every file's bytes (and every absent file) as they
were. The example-based cases are in test_patch_v4a.py."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

import shellfree.engine.v4a_apply as v4a_apply
from shellfree import FileTools

TREE = {
    "a.txt": b"alpha\nbeta\ngamma\n",
    "b.txt": b"one\r\ntwo\r\nthree\r\n",
    "sub/c.py": b"def f():\n    return 1\n",
}

# Pieces of operations: headers of files that exist, do not exist, or escape the root; hunk
# lines that match the files, match nothing, or are not hunk lines at all.
HEADERS = [
    "*** Update File: a.txt", "*** Update File: b.txt", "*** Update File: sub/c.py",
    "*** Update File: missing.txt", "*** Add File: new.txt", "*** Add File: a.txt",
    "*** Add File: sub/deeper/n.txt", "*** Delete File: b.txt", "*** Delete File: missing.txt",
    "*** Move to: moved.txt", "*** Move to: sub/c.py", "*** Update File: ../outside.txt",
]
BODY = [
    "-alpha", "+ALPHA", " beta", "-beta", "+BETA", "-gamma", "+", "-one", "+ONE", " two",
    "-three", "+THREE", "-    return 1", "+    return 2", " def f():", "@@ def f():", "@@ beta",
    "-not there", "+added line", "stray text", "",
]


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


# Operations that apply on their own, so that whole patches often pass validation and reach
# the writes (and the injected failure).
VALID = [
    "*** Update File: a.txt\n-alpha\n+ALPHA", "*** Update File: a.txt\n@@ beta\n-gamma\n+G",
    "*** Update File: b.txt\n-two\n+TWO", "*** Add File: new.txt\n+fresh",
    "*** Add File: sub/deeper/n.txt\n+x\n+y", "*** Delete File: b.txt",
    "*** Update File: sub/c.py\n*** Move to: moved.txt\n-    return 1\n+    return 2",
]


@st.composite
def _patches(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        if draw(st.integers(0, 2)):
            lines.append(draw(st.sampled_from(VALID)))
            continue
        lines.append(draw(st.sampled_from(HEADERS)))
        lines.extend(draw(st.lists(st.sampled_from(BODY), max_size=6)))
    text = "\n".join(lines)
    if draw(st.booleans()):
        text = "*** Begin Patch\n" + text + "\n*** End Patch"
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(patch_text=_patches(), fail_at=st.one_of(st.none(), st.integers(1, 4)))
def test_a_v4a_patch_applies_whole_or_changes_nothing(patch_text, fail_at):
    real_write = v4a_apply.atomic_write
    writes = []

    def write(path, data, **kwargs):
        writes.append(path)
        if fail_at is not None and len(writes) == fail_at:
            raise OSError(28, "No space left on device")
        return real_write(path, data, **kwargs)

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "work"
        for rel, data in TREE.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        before = _snapshot(root)
        tools = FileTools(root)
        v4a_apply.atomic_write = write  # not monkeypatch: a fixture would span the examples
        try:
            text = tools.patch(mode="patch", patch=patch_text)
        finally:
            v4a_apply.atomic_write = real_write
        result = json.loads(text)
        after = _snapshot(root)
        outside = (Path(tmp) / "outside.txt").exists()
    assert not outside
    if result.get("success") is not True:
        assert after == before, (patch_text, result)
        assert "error" in result
    else:
        # Applied: no injected failure fired.
        assert fail_at is None or len(writes) < fail_at
        assert "error" not in result
