"""Regenerate :mod:`shellfree.search.regex_unicode_tables` by probing the reference rg 15.1.

Development tool, never imported at run time: ``python scripts/gen_unicode_tables.py``.
It writes one line per Unicode scalar value (except ``\\n``) to a temporary file, asks rg which
lines ``^\\p{…}$`` matches for every property name the ``regex`` module knows (and which names rg
accepts or rejects, with which message), compares with the ``regex`` module's own sets and writes
the differences. This is data measured from the binary; no code of any other project is used.
Takes a few minutes (about 1 400 rg runs over a 5 MB file).
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import subprocess
import sys
import sysconfig
import tempfile

import regex
import regex._regex as _regex_c

RG = os.path.join(sysconfig.get_path("scripts"), "rg")
OUT = os.path.join(
    os.path.dirname(__file__), os.pardir, "src", "shellfree", "search", "regex_unicode_tables.py"
)
PAIRS = {"GC": "gc", "SC": "sc", "SCX": "scx", "GCB": "gcb", "WB": "wb", "SB": "sb"}


def _ranges(cps) -> list:
    out: list = []
    for c in sorted(cps):
        if out and out[-1][1] == c - 1:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def _norm(s: str) -> str:
    return s.lower().replace(" ", "").replace("_", "").replace("-", "")


class _Probe:
    def __init__(self, tmp: str) -> None:
        self.cps = [c for c in range(0x110000) if c != 10 and not 0xD800 <= c <= 0xDFFF]
        self.all_path = os.path.join(tmp, "all.txt")
        with open(self.all_path, "w", encoding="utf-8") as f:
            f.write("\n".join(chr(c) for c in self.cps) + "\n")
        self.one_path = os.path.join(tmp, "one.txt")
        with open(self.one_path, "w") as f:
            f.write("x\n")
        self.text = "".join(chr(c) for c in self.cps)

    def rg_set(self, pattern: str) -> set:
        out = subprocess.run([RG, "--no-config", "-a", "-n", "-e", pattern, self.all_path],
                             capture_output=True, stdin=subprocess.DEVNULL, check=False).stdout
        return {self.cps[int(ln.split(b":", 1)[0]) - 1] for ln in out.split(b"\n") if ln}

    def rg_error(self, pattern: str):
        p = subprocess.run([RG, "--no-config", "-a", "-e", pattern, self.one_path],
                           capture_output=True, stdin=subprocess.DEVNULL, check=False)
        return None if p.returncode != 2 else p.stderr.decode().strip().splitlines()[-1]

    def re_set(self, expr: str):
        try:
            return {ord(m) for m in regex.findall(expr, self.text)}
        except regex.error:
            return None


def generate() -> str:
    """The text of regex_unicode_tables.py."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = _Probe(tmp)
        new = probe.re_set(r"\p{Assigned}") - probe.rg_set(r"^\p{Assigned}$")
        props = _regex_c.get_properties()
        binary = [k for k, (_, vals) in props.items() if "YES" in vals]
        valued = {k: list(vals) for k, (_, vals) in props.items() if "YES" not in vals}
        names = set(binary) | set(valued["GC"]) | set(valued["SC"]) | set(valued["SCX"])
        cands = sorted(names) + [f"{p}={v}" for p in PAIRS for v in valued[p]]
        with cf.ThreadPoolExecutor(8) as ex:
            errors = dict(zip(cands, ex.map(lambda n: probe.rg_error("\\p{%s}" % n), cands)))
        accepted = [n for n in cands if errors[n] is None]
        with cf.ThreadPoolExecutor(3) as ex:
            rg_sets = dict(zip(accepted, ex.map(lambda n: probe.rg_set("^\\p{%s}$" % n), accepted)))
        table = {}
        for n in accepted:
            rg = rg_sets[n]
            unassigned = new <= rg
            if "=" in n:
                p, v = n.split("=", 1)
                key, exprs = PAIRS[p] + "=" + _norm(v), ["\\p{%s=%s}" % (p, v)]
            else:
                key, exprs = _norm(n), ["\\p{%s}" % n, "\\p{gc=%s}" % n, "\\p{sc=%s}" % n]
            best = None
            for expr in exprs + ["\\p{%s}" % b for b in binary]:
                if expr not in exprs and best is not None and best[0] <= 100:
                    break   # only hunt through other properties for a badly matching name
                got = probe.re_set(expr)
                if got is None:
                    continue
                base = (got - new) | (new if unassigned else set())
                cost = len(rg - base) + len(base - rg)
                if best is None or cost < best[0]:
                    best = (cost, expr, rg - base, base - rg)
            table[key] = (best[1], unassigned, _ranges(best[2]), _ranges(best[3]))
        value_nf = sorted({_norm(n) for n, e in errors.items()
                           if "=" not in n and e and "value not found" in e})
        with cf.ThreadPoolExecutor(8) as ex:
            perr = dict(zip(props, ex.map(lambda n: probe.rg_error("\\p{%s=zzzqqq}" % n), props)))
        known = sorted({_norm(n) for n, e in perr.items() if e and "value not found" in e})
    return _render(_ranges(new), value_nf, known, table)


def _render(new, value_nf, known, table) -> str:
    def rng(rs) -> str:
        return "(" + "".join("(0x%x, 0x%x), " % (a, b) for a, b in rs) + ")"

    out = ['"""Unicode data for the Rust-regex translator: where rg 15.1 (Unicode 16) differs from '
           '``regex``.\n\nGENERATED by :mod:`shellfree.search.regex_unicode_gen`, which probes ``rg`` '
           '15.1 over every Unicode\nscalar value and compares with the ``regex`` module (Unicode 17 '
           'data); it is data measured from\nthe reference binary, not code from any project.\n"""\n',
           "# fmt: off\n",
           "NEW_IN_REGEX = " + rng(new) + "\n\"\"\"Code points assigned in the regex module's "
           "Unicode data but unassigned in Unicode 16 (rg).\"\"\"\n\n",
           "VALUE_NOT_FOUND_NAMES = frozenset(%r)\n\"\"\"Bare ``\\\\p{NAME}`` names rg knows but has "
           "no data for (\"Unicode property value not found\").\"\"\"\n\n" % value_nf,
           "KNOWN_PROPERTY_NAMES = frozenset(%r)\n\"\"\"Property names rg recognises in "
           "``\\\\p{NAME=VALUE}`` (an unknown VALUE is then \"value not found\").\"\"\"\n\n" % known,
           "PROPERTIES = {\n"]
    for k in sorted(table):
        expr, un, add, rem = table[k]
        out.append("    %r: (%r, %r, %s, %s),\n" % (k, expr, un, rng(add), rng(rem)))
    out.append("}\n\"\"\"normalized name (``greek``, ``gc=lu``, ``scx=latn``) -> (regex-module class, "
               "whether rg's set\nholds unassigned code points, code points to add, code points to "
               "remove).\"\"\"\n")
    return "".join(out)


if __name__ == "__main__":
    if not os.path.exists(RG):
        sys.exit(f"reference rg not found at {RG}")
    text = generate()
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {OUT}")
