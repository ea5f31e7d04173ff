"""write_file, patch and search_files resolve a missing name to the one entry next to it whose
name differs only invisibly (NFC/NFD, special spaces and quotes), as read_file does (§2.5).

Hermes resolved it for reads only: an agent that typed ``café.txt`` in NFC read the NFD file
that is there, then its patch failed ("Failed to read file"), its write_file made a second
file that looks the same, and its search answered "Path not found: café.txt. Similar paths:
./café.txt".
"""

from __future__ import annotations

import json
import os
import sys
import unicodedata

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform == "darwin", reason="macOS file systems find an NFD name by its NFC spelling")

NFC = unicodedata.normalize("NFC", "café.txt")
NFD = unicodedata.normalize("NFD", "café.txt")


def note(root, asked: str, found: str) -> str:
    return (f"Note: '{root / asked}' not found byte-for-byte; resolved to the unicode-equivalent "
            f"file '{root / found}' (invisible encoding difference: NFC/NFD or special "
            "space/quote characters).")


def names(root) -> list[str]:
    return sorted(os.listdir(root))


def test_patch_edits_the_file_read_file_read(tools, root):
    ft = tools({NFD: "x = 1\n"})
    assert json.loads(ft.read_file(NFC))["content"] == "1|x = 1"
    out = json.loads(ft.patch(path=NFC, old_string="x = 1", new_string="x = 2"))
    assert out["success"] and out["_warning"] == note(root, NFC, NFD)
    assert out["resolved_path"] == str(root / NFD)
    assert names(root) == [NFD] and (root / NFD).read_text() == "x = 2\n"


def test_write_file_replaces_it_instead_of_adding_a_look_alike(tools, root):
    ft = tools({NFD: "old\n"})
    json.loads(ft.read_file(NFC))
    out = json.loads(ft.write_file(NFC, "new\n"))
    assert out["files_modified"] == [str(root / NFD)]
    assert out["_warning"] == note(root, NFC, NFD)
    assert names(root) == [NFD] and (root / NFD).read_text() == "new\n"


def test_write_file_of_an_unread_variant_is_refused_as_any_unread_file(tools, root):
    ft = tools({NFD: "old\n"})
    out = json.loads(ft.write_file(NFC, "new\n"))
    assert out["stale_write_blocked"] and out["resolved_path"] == str(root / NFD)
    assert names(root) == [NFD] and (root / NFD).read_text() == "old\n"


def test_v4a_update_and_add(tools, root):
    ft = tools({NFD: "a\n"})
    out = json.loads(ft.patch(mode="patch", patch=f"*** Update File: {NFC}\n-a\n+b\n"))
    assert out["success"] and (root / NFD).read_text() == "b\n"
    out = json.loads(ft.patch(mode="patch", patch=f"*** Add File: {NFC}\n+c\n"))
    assert out["error"].endswith(f"{root / NFD}: file already exists — use Update File, not "
                                 "Add File")
    assert names(root) == [NFD]


def test_special_spaces_and_quotes(tools, root):
    ft = tools({"it\u2019s\u00a0here.md": "a\n"})
    out = json.loads(ft.patch(path="it's here.md", old_string="a", new_string="b"))
    assert out["success"] and (root / "it\u2019s\u00a0here.md").read_text() == "b\n"


def test_no_variant_or_several_leave_the_name_as_given(tools, root):
    ft = tools({"other.txt": "x\n"})
    out = json.loads(ft.write_file(NFC, "new\n"))
    assert "_warning" not in out and names(root) == sorted([NFC, "other.txt"])
    # Two look-alikes of the name: neither is chosen, as read_file chooses neither.
    (root / "it\u2019s.md").write_text("x\n")
    (root / "it\u2018s.md").write_text("x\n")
    asked = root / "it's.md"
    assert json.loads(ft.patch(path="it's.md", old_string="x", new_string="y"))["error"] == (
        f"Failed to read file: {asked}")
    out = json.loads(ft.write_file("it's.md", "y\n"))
    assert "_warning" not in out and out["resolved_path"] == str(root / "it's.md")
    assert (root / "it\u2019s.md").read_text() == (root / "it\u2018s.md").read_text() == "x\n"


def test_a_name_that_is_there_is_the_file(tools, root):
    ft = tools({NFC: "a\n", NFD: "a\n"})
    out = json.loads(ft.patch(path=NFC, old_string="a", new_string="b"))
    assert "_warning" not in out and out["resolved_path"] == str(root / NFC)
    assert (root / NFC).read_text() == "b\n" and (root / NFD).read_text() == "a\n"


def test_search_files_path(tools, root):
    ft = tools({NFD: "needle\n", unicodedata.normalize("NFD", "dé/f.txt"): "needle\n"})
    out = json.loads(ft.search_files("needle", path=NFC))
    assert out == {"total_count": 1, "matches": [{"path": NFD, "line": 1, "content": "needle"}],
                   "warning": note(root, NFC, NFD)}
    dir_nfc, dir_nfd = "dé", unicodedata.normalize("NFD", "dé")
    out = json.loads(ft.search_files("*.txt", target="files", path=dir_nfc + "/"))
    assert [f.replace("\\", "/") for f in out.pop("files")] == [f"{dir_nfd}/f.txt"]
    assert out == {"total_count": 1, "warning": note(root, dir_nfc, dir_nfd)}
    out = json.loads(ft.search_files("needle", path="nothere.txt"))
    assert out["error"].startswith("Path not found: nothere.txt")


def test_a_directory_on_the_way(tools, root):
    # Hermes looked at the last name only: through an NFD directory, read_file found nothing
    # and write_file made a second directory that looks the same.
    dir_nfc, dir_nfd = "dé", unicodedata.normalize("NFD", "dé")
    ft = tools({f"{dir_nfd}/f.txt": "needle\n"})
    out = json.loads(ft.read_file(f"{dir_nfc}/f.txt"))
    assert out["content"] == "1|needle" and out["hint"] == note(root, f"{dir_nfc}/f.txt",
                                                                 f"{dir_nfd}/f.txt")
    out = json.loads(ft.search_files("needle", path=f"{dir_nfc}/f.txt"))
    assert [m["path"] for m in out["matches"]] == [os.path.join(dir_nfd, "f.txt")]
    for new in ("new.txt", "sub/deep.txt"):
        out = json.loads(ft.write_file(f"{dir_nfc}/{new}", "x\n"))
        assert out["resolved_path"] == str(root / dir_nfd / new)
        assert out["_warning"] == note(root, f"{dir_nfc}/{new}", f"{dir_nfd}/{new}")
    assert names(root) == [dir_nfd]
    assert json.loads(ft.read_file(f"{dir_nfc}/nope.txt"))["error"] == (
        f"File not found: {root / dir_nfc / 'nope.txt'}")
    out = json.loads(ft.write_file("fresh/a.txt", "x\n"))  # nothing invisible: as given
    assert "_warning" not in out and names(root) == sorted([dir_nfd, "fresh"])
