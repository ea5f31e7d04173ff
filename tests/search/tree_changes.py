"""The changes the tree cache's tests make between two searches of ``build_tree``'s tree
(tests/search/test_tree_cache.py): each must show in the next search, watched or not, serial or
shared with helper processes."""

from __future__ import annotations

import os
import shutil


def write(path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def rewrite_in_place(path, data: bytes) -> None:
    """Overwrite *path* keeping its inode (``O_TRUNC``, not a rename)."""
    with open(path, "r+b") as handle:
        handle.write(data)
        handle.truncate()


# Each change is applied between two warm runs; the second must print what a fresh run prints.
def append(root):
    with open(root / "a.txt", "ab") as handle:
        handle.write(b"needle appended\n")


def same_size_twice(root):
    rewrite_in_place(root / "a.txt", b"needle One\n")
    rewrite_in_place(root / "a.txt", b"needle ONE\n")


def same_size_same_times(root):
    st = os.stat(root / "sub" / "c.txt")
    rewrite_in_place(root / "sub" / "c.txt", b"needle TWO\n")
    os.utime(root / "sub" / "c.txt", ns=(st.st_atime_ns, st.st_mtime_ns))


def create(root):
    write(root / "sub" / "deep" / "new.txt", b"needle new\n")


def delete(root):
    os.unlink(root / "sub" / "c.txt")


def rename_file(root):
    os.rename(root / "a.txt", root / "sub" / "moved.txt")


def replace_by_rename(root):
    write(root / "tmp.part", b"needle replaced\n")
    os.replace(root / "tmp.part", root / "sub" / "deep" / "d.txt")


def gitignore_in_place(root):
    rewrite_in_place(root / ".gitignore", b"*.txt\n")


def ignore_file_in_place(root):
    rewrite_in_place(root / "sub" / ".ignore", b"c.txt\n")


def new_directory(root):
    write(root / "sub" / "fresh" / "f.txt", b"needle fresh\n")


def remove_directory(root):
    shutil.rmtree(root / "sub" / "deep")


def rename_directory(root):
    os.rename(root / "sub", root / "sub2")


def directory_moved_and_recreated(root):
    # The old directory keeps its watch elsewhere; the new one under its name must not use it.
    os.rename(root / "sub", root / "gone")
    write(root / "sub" / "deep" / "d.txt", b"needle recreated\n")


def directory_replaced_by_symlink(root):
    write(root / "elsewhere" / "e.txt", b"needle elsewhere\n")
    shutil.rmtree(root / "sub" / "deep")
    os.symlink(root / "elsewhere", root / "sub" / "deep")


def mode_change(root):
    os.chmod(root / "sub" / "c.txt", 0o000)


def hard_link_written_through(root):
    # The kernel reports the write under the new name only; a.txt was read under its own.
    os.link(root / "a.txt", root / "sub" / "linked.txt")
    rewrite_in_place(root / "sub" / "linked.txt", b"needle Lnk\n")


def hard_link_made_written_and_removed(root):
    os.link(root / "a.txt", root / "sub" / "tmp.lnk")
    rewrite_in_place(root / "sub" / "tmp.lnk", b"needle Gon\n")
    os.unlink(root / "sub" / "tmp.lnk")


CHANGES = [append, same_size_twice, same_size_same_times, create, delete, rename_file,
           replace_by_rename, gitignore_in_place, ignore_file_in_place, new_directory,
           remove_directory, rename_directory, directory_moved_and_recreated,
           directory_replaced_by_symlink, hard_link_written_through,
           hard_link_made_written_and_removed]


# Text that only the changes above write: before them no file holds it, so every file of a
# new search for it takes _Search.lane (a cached content the absence test proves empty).
CHANGED_TEXT = "appended|One|ONE|TWO|new|replaced|fresh|recreated|elsewhere|Lnk|Gon"
