"""Build the benchmark corpora reproducibly into ``benchmarks/speed/corpora/``.

``python -m benchmarks.speed.corpora [--only medium,large,big,minified]``

- ``medium`` and ``large`` are real source trees unpacked from pinned PyPI sdists (checked by sha256),
  one ``git init``ed directory per project so that their .gitignore files apply as in a checkout;
- ``big`` (big.txt) and ``minified`` (minified.js) are single files from seeded generators
  (``synthetic.py``).

Each corpus gets a marker ``<name>.built.json`` recording its recipe, so a second run is a no-op,
and ``manifest.json`` collects what every built corpus contains, including ``rg --files | wc -l``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.speed import synthetic
from benchmarks.speed.reference import ReferenceBinaryError, clean_env, locate_reference

CORPORA_DIR = Path(__file__).resolve().parent / "corpora"
"""Where everything is built; git-ignored (``/benchmarks/speed/corpora/``)."""

DOWNLOADS = "downloads"
"""Sub-directory of CORPORA_DIR keeping the sdists, so a rebuild needs no network."""

MANIFEST = "manifest.json"


class BuildError(RuntimeError):
    """A corpus could not be built; ``str()`` says what failed and what to do about it."""


@dataclass(frozen=True, slots=True)
class Sdist:
    """One pinned source distribution on PyPI.

    *name* and *version* are what pip is asked for; *filename* and *sha256* are what it must save
    (a different file means PyPI changed under us, and the corpus would not be the one measured
    before); *top_dir* is the archive's single top-level directory.
    """

    name: str
    version: str
    filename: str
    sha256: str
    top_dir: str


ANSIBLE_CORE = Sdist(
    "ansible-core",
    "2.17.7",
    "ansible_core-2.17.7.tar.gz",
    "3aaab735d6c4e2d6239bc326800dc0ecda2a1490caa8455b41084ec0bc54dacf",
    "ansible_core-2.17.7",
)
ANSIBLE = Sdist(
    "ansible",
    "9.13.0",
    "ansible-9.13.0.tar.gz",
    "b389a97d1e85c2b2ad6ace9e94f410111f69cc5aa3845c930c873b34c0ddd6e2",
    "ansible-9.13.0",
)
DJANGO = Sdist(
    "django",
    "5.0.6",
    "Django-5.0.6.tar.gz",
    "ff1b61005004e476e0aeea47c7f79b85864c70124030e95146315396f1e7951f",
    "Django-5.0.6",
)

TREES: dict[str, tuple[Sdist, ...]] = {
    # ~4.8k files / 37 MB: close in size to the rails tree of the perf study.
    "medium": (ANSIBLE_CORE,),
    # ~50k files / ~530 MB with 133 .gitignore files (in the ansible collections).
    "large": (ANSIBLE, DJANGO),
}
"""Tree corpora: name -> the sdists unpacked side by side under ``CORPORA_DIR/<name>/``."""

SINGLE_FILES: dict[str, synthetic.FileRecipe] = {
    "big": synthetic.BIG_TXT,
    "minified": synthetic.MINIFIED_JS,
}
"""Single-file corpora: name -> the generator recipe of ``CORPORA_DIR/<recipe.filename>``."""

ALL_CORPORA = (*TREES, *SINGLE_FILES)


def main(argv: list[str] | None = None) -> int:
    """Build the corpora named by ``--only`` (default: all) and rewrite the manifest."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.corpora", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", default=",".join(ALL_CORPORA), help=f"comma-separated subset of {', '.join(ALL_CORPORA)}"
    )
    parser.add_argument("--dir", type=Path, default=CORPORA_DIR, help="where to build (default: %(default)s)")
    args = parser.parse_args(argv)
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in ALL_CORPORA]
    if unknown:
        parser.error(f"unknown corpus {', '.join(unknown)}; choose from {', '.join(ALL_CORPORA)}")
    try:
        rg = locate_reference().path
        args.dir.mkdir(parents=True, exist_ok=True)
        for name in names:
            if name in TREES:
                build_tree(args.dir, name, TREES[name], rg)
            else:
                build_single_file(args.dir, name, SINGLE_FILES[name], rg)
        write_manifest(args.dir)
    except (BuildError, ReferenceBinaryError) as err:
        print(f"corpora: error: {err}", file=sys.stderr)
        return 1
    return 0


# -- trees ------------------------------------------------------------------------------------------


def build_tree(root: Path, name: str, sdists: tuple[Sdist, ...], rg: str) -> None:
    """Build ``root/<name>/`` from *sdists* unless its marker says it already holds exactly them."""
    recipe = {"kind": "tree", "sdists": [asdict(s) for s in sdists]}
    target = root / name
    if _is_built(root, name, recipe, target):
        print(f"corpora: {name}: already built ({target})")
        return
    started = time.monotonic()
    archives = [download(root / DOWNLOADS, sdist) for sdist in sdists]
    _check_free_space(root, sum(a.stat().st_size for a in archives) * 12)
    # Build next to the target and rename at the end, so an interrupted build never looks finished.
    staging = root / f"{name}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(target, ignore_errors=True)
    staging.mkdir()
    for sdist, archive in zip(sdists, archives, strict=True):
        print(f"corpora: {name}: unpacking {archive.name}")
        unpack(archive, staging)
        project = staging / sdist.top_dir
        if not project.is_dir():
            raise BuildError(f"{archive.name} did not unpack into {sdist.top_dir}/")
        # A .git directory makes rg (and shellfree) apply the project's .gitignore files.
        git_init(project)
    staging.rename(target)
    stats = tree_stats(target, rg)
    stats["build_seconds"] = round(time.monotonic() - started, 1)
    _write_marker(root, name, recipe, stats)
    print(f"corpora: {name}: {stats['rg_files']} files (rg --files), {stats['bytes'] / 1e6:.0f} MB")


def download(directory: Path, sdist: Sdist) -> Path:
    """Return the path of *sdist*'s archive in *directory*, downloading it with pip if needed.

    Raises BuildError when pip fails (the network reaches PyPI only) or the file's sha256 differs
    from the pinned one.
    """
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / sdist.filename
    if not (path.is_file() and _sha256(path) == sdist.sha256):
        print(f"corpora: downloading {sdist.name}=={sdist.version} from PyPI")
        cmd = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
            "--disable-pip-version-check", f"{sdist.name}=={sdist.version}", "-d", str(directory),
        ]  # fmt: skip
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True)
        if proc.returncode != 0:
            # pip's last lines say why; long ones (e.g. the list of every version) are cut short.
            tail = "\n".join(ln[:300] for ln in (proc.stdout + proc.stderr).strip().splitlines()[-15:])
            raise BuildError(
                f"pip download of {sdist.name}=={sdist.version} failed (exit {proc.returncode}). "
                f"Only PyPI is reachable from this machine; check that it is, then rerun.\n{tail}"
            )
        if not path.is_file():
            raise BuildError(f"pip download of {sdist.name}=={sdist.version} did not save {path}")
    digest = _sha256(path)
    if digest != sdist.sha256:
        raise BuildError(
            f"{path} has sha256 {digest}, not the pinned {sdist.sha256}: delete it and rerun, "
            "or update the pin in corpora.py (which changes the corpus)"
        )
    return path


def unpack(archive: Path, dest: Path) -> None:
    """Unpack a .tar.gz/.tar.bz2/.zip *archive* into *dest*, refusing any member that would land
    outside *dest* (absolute names, ``..``, links pointing out)."""
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                _check_inside(dest, info.filename, archive)
            zf.extractall(dest)
        return
    with tarfile.open(archive) as tf:
        members = tf.getmembers()
        for member in members:
            _check_inside(dest, member.name, archive)
            if member.issym():
                target = os.path.join(os.path.dirname(member.name), member.linkname)
                _check_inside(dest, target, archive, f"symlink {member.name!r} -> {member.linkname!r}")
            elif member.islnk():
                _check_inside(dest, member.linkname, archive, f"hard link {member.name!r} -> {member.linkname!r}")
            elif not (member.isfile() or member.isdir()):
                raise BuildError(f"{archive.name}: refusing special file {member.name!r}")
        if hasattr(tarfile, "data_filter"):
            # The stdlib's own guard as a second line of defence (Python >= 3.10.12 / 3.11.4).
            tf.extractall(dest, members=members, filter="data")
        else:
            tf.extractall(dest, members=members)


def _check_inside(dest: Path, name: str, archive: Path, what: str = "") -> None:
    """Raise BuildError unless archive path *name* resolves to a path inside *dest*; *what* names
    the member in the message when *name* is a link's target rather than the member itself."""
    base = os.path.realpath(dest)
    resolved = os.path.realpath(os.path.join(base, name))
    if os.path.isabs(name) or (resolved != base and not resolved.startswith(base + os.sep)):
        raise BuildError(f"{archive.name}: {what or f'member {name!r}'} would reach outside {dest}")


def git_init(project: Path) -> None:
    """Run ``git init -q`` in *project*; raises BuildError if git is missing or fails."""
    try:
        subprocess.run(["git", "init", "-q", str(project)], stdin=subprocess.DEVNULL, check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as err:
        raise BuildError(f"git init in {project} failed: {err}") from err


def tree_stats(tree: Path, rg: str) -> dict[str, Any]:
    """Count what rg searches in *tree*: ``rg --files | wc -l``, their total size, and .gitignore files."""
    proc = subprocess.run(
        [rg, "--files"], cwd=tree, stdin=subprocess.DEVNULL, capture_output=True, env=clean_env(), check=False
    )
    if proc.returncode != 0:
        raise BuildError(f"rg --files in {tree} failed (exit {proc.returncode}): {proc.stderr[-500:]!r}")
    files = proc.stdout.splitlines()
    size = sum(os.lstat(os.path.join(tree, os.fsdecode(f))).st_size for f in files)
    gitignores = 0
    for _dirpath, dirnames, filenames in os.walk(tree):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        gitignores += ".gitignore" in filenames
    return {"rg_files": len(files), "bytes": size, "gitignore_files": gitignores}


# -- single files -----------------------------------------------------------------------------------


def build_single_file(root: Path, name: str, recipe: synthetic.FileRecipe, rg: str) -> None:
    """Generate ``root/<recipe.filename>`` unless its marker says it already matches *recipe*."""
    # The pinned digest is a check on the output, not part of the recipe: pinning it must not force a rebuild.
    recipe_dict = {"kind": "file", **asdict(recipe)}
    recipe_dict.pop("expected_sha256")
    target = root / recipe.filename
    if _is_built(root, name, recipe_dict, target):
        print(f"corpora: {name}: already built ({target})")
        return
    _check_free_space(root, recipe.target_bytes * 2)
    started = time.monotonic()
    print(f"corpora: {name}: generating {recipe.filename} (~{recipe.target_bytes / 1e6:.0f} MB)")
    partial = root / f"{recipe.filename}.partial"
    synthetic.generate(recipe, partial)
    partial.rename(target)
    stats: dict[str, Any] = {"bytes": target.stat().st_size, "sha256": _sha256(target)}
    with open(target, "rb") as fh:
        stats["lines"] = sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 24), b""))
    # The rare literal must really be rare: check the count with the reference itself.
    proc = subprocess.run(
        [rg, "-c", "-F", recipe.rare_literal, recipe.filename],
        cwd=root, stdin=subprocess.DEVNULL, capture_output=True, env=clean_env(),
    )  # fmt: skip
    stats["rare_lines_rg"] = int(proc.stdout.strip() or 0)
    if stats["rare_lines_rg"] != recipe.rare_lines:
        raise BuildError(
            f"{target}: rg finds {stats['rare_lines_rg']} lines with {recipe.rare_literal!r}, "
            f"expected {recipe.rare_lines}"
        )
    if recipe.expected_sha256 and stats["sha256"] != recipe.expected_sha256:
        # Not fatal: the numbers stay comparable within one run, but not with older runs.
        print(f"corpora: warning: {target} differs from the pinned sha256 (generator changed?)", file=sys.stderr)
    stats["build_seconds"] = round(time.monotonic() - started, 1)
    _write_marker(root, name, recipe_dict, stats)
    print(f"corpora: {name}: {stats['bytes'] / 1e6:.0f} MB, {stats['lines']} lines")


# -- markers and manifest ---------------------------------------------------------------------------


def _marker_path(root: Path, name: str) -> Path:
    return root / f"{name}.built.json"


def _is_built(root: Path, name: str, recipe: dict, target: Path) -> bool:
    marker = _marker_path(root, name)
    if not (marker.is_file() and target.exists()):
        return False
    try:
        return json.loads(marker.read_text())["recipe"] == json.loads(json.dumps(recipe))
    except (ValueError, KeyError):
        return False


def _write_marker(root: Path, name: str, recipe: dict, stats: dict) -> None:
    data = {"name": name, "recipe": recipe, "stats": stats, "built": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    _marker_path(root, name).write_text(json.dumps(data, indent=2) + "\n")


def write_manifest(root: Path) -> None:
    """Collect every marker under *root* into ``manifest.json`` (what exists, how big, how built)."""
    corpora = {}
    for name in ALL_CORPORA:
        marker = _marker_path(root, name)
        if marker.is_file():
            corpora[name] = json.loads(marker.read_text())
    manifest = {"reference_rg": locate_reference().version_line, "corpora": corpora}
    (root / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")


def read_manifest(root: Path = CORPORA_DIR) -> dict:
    """Return the parsed manifest, or an empty one if nothing was built yet."""
    try:
        return json.loads((root / MANIFEST).read_text())
    except FileNotFoundError:
        return {"corpora": {}}


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _check_free_space(root: Path, needed: int) -> None:
    free = shutil.disk_usage(root).free
    if free < needed:
        raise BuildError(f"{root} has {free / 1e9:.1f} GB free; this build needs about {needed / 1e9:.1f} GB")


if __name__ == "__main__":
    sys.exit(main())
