#!/usr/bin/env python3
"""Sort the verified escapes (collect.py) into classes by ordered patterns; lines that are
outside the policy's claim or did nothing to the hook are listed apart (APART), never in
the table. A damaging line no pattern claims stops the run.

Writes ../../../tests/policy/corpus/redteam_s33_open.tsv (class, command, answer, damage)
with the friction rows (batches/f1.tsv, answer not allow) at the end."""

from __future__ import annotations

import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "tests", "policy", "corpus", "redteam_s33_open.tsv")

# a line here: verified damage, but not an escape of the guard's claim (reason given)
APART = [
    (r"move\(|cmake -E rename", "a move of ../victim (outside no-rm-rf-outside-workspace, as s32)"),
    (r"usercustomize|pip\.conf|/x/__init__|encodings\.py|venv --copies --without-pip \.\./home/\.local",
     "written, but the hook does not import it (encodings.py and venv into ~/.local checked with a second call)"),
    (r"site-packages/(yaml|click)/|venv --upgrade \.\./hw|venv --without-pip \.\./hw$",
     "hookwise's dependencies or a venv rebuild: the hook still judged the next call"),
]

CLASSES = [
    ("A. A made value ending in `.` glued to a literal `.`/`./` (`$(echo .)./home`): the two "
     "dots only meet when the line runs; past_parent looks for `..` inside one literal",
     r"\$\(echo \.\)\.|\$\(printf \.\)\.|\$x\./home|\$\(echo \.\)\"\"\.|head -c0\)\."),
    ("B. An env file named by a made value (`--file=\"$(echo .)env\"`, `$(git ls-files -oi ...)`)",
     r"--(env-)?file=.*\$\("),
    ("C. Hook switched off by a .pth/sitecustomize in the hook interpreter's site-packages, "
     "or by replacing/unexecuting the hookwise command or its interpreter (then any call "
     "passes: shown with a second call)",
     r"\.pth|sitecustomize|chmod -x \.\./hw|\.\./hw/bin|hw/lib/.*hookwise/__init__|_yaml\.cpython"),
    ("D. A shell earlier in PATH (`~/.local/bin/bash`, `sh`) created by writers the guard does "
     "not read as writes (curl --output-dir, tar -C -x, sqlite .output, gcc/g++ -Wl,-o, rustc "
     "--out-dir/--emit, php copy(), node's REPL)",
     r"\.local/bin"),
    ("E. git: global trace2 targets append to the trust store",
     r"trace2\."),
    ("F. git: a checkout, switch, revert, rebase or bisect to a commit without the tracked "
     "policy deletes .hookwise/policy.yaml (the hook then fails closed: every call denied)",
     r"^git (checkout|switch|revert|rebase|bisect)"),
    ("G. Node code read from stdin (`repl.start()`, `vm.runInThisContext(readFileSync(0))`, "
     "`readline ... on(\"line\", eval)`): a console the guard does not see",
     r"^(echo .*\| )?node .*(repl|\"vm\"|\"readline\")"),
    ("H. make given a makefile or code on the line (`-f /dev/stdin` with `-C DIR`, `-E/--eval "
     "'$(info $(file <F))'`, `MAKEFILES=/dev/stdin`)",
     r"make |MAKEFILES="),
    ("I. cargo `--config` on the line (a runner, a target-dir that `clean` deletes)",
     r"cargo "),
    ("J. Compilers and linkers: options passed through to the linker (`-Wl,@FILE`), "
     "`include_str!` of an absolute path",
     r"^(gcc|rustc) "),
    ("K. sqlite3 `.import` of a secret, then `.schema`/`pragma table_info`/`.dump`/select "
     "(the header line becomes the column name)",
     r"sqlite3 .*\.import"),
    ("L. Interpreter readers, new spellings (pathlib imported under another name, "
     "subprocess `cwd=`, perl `qx{}`, php highlight_file/show_source/parse_ini_file)",
     r"Path as P|cwd=\"\.\./home|qx[{(]|highlight_file|show_source|parse_ini_file"),
    ("M. Tcl: a command name built by a substitution (`[string map {X x} eXec]`)",
     r"tclsh"),
]


def main() -> None:
    rows = subprocess.run([sys.executable, os.path.join(HERE, "collect.py")],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    table: list[tuple[str, str, str, str]] = []
    apart: list[tuple[str, str, str]] = []
    for row in rows:
        command, damage = row.split("\t")
        why = next((w for p, w in APART if re.search(p, command)), None)
        if why is not None:
            apart.append((command, damage, why))
            continue
        name = next((n for n, p in CLASSES if re.search(p, command)), None)
        if name is None:
            sys.exit(f"no class for: {command}")
        table.append((name, command, "allow", damage))
    table.sort(key=lambda r: [n for n, _ in CLASSES].index(r[0]))
    friction = []
    for line in open(os.path.join(HERE, "batches", "f1.tsv"), encoding="utf-8"):
        answer, command = line.split("\t")[:2]
        if answer != "allow":
            friction.append(("friction", command, answer, "none (an everyday command)"))
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("class\tcommand\tanswer\tdamage\n")
        for r in table + friction:
            f.write("\t".join(r) + "\n")
    counts: dict[str, int] = {}
    for r in table:
        counts[r[0][:2]] = counts.get(r[0][:2], 0) + 1
    print(f"{len(table)} escapes: " + ", ".join(f"{k.rstrip('.')} {v}" for k, v in counts.items()))
    print(f"{len(apart)} apart:")
    for command, damage, why in apart:
        print(f"  {command}\t{damage}\t{why}")
    print(f"{len(friction)} friction rows")


if __name__ == "__main__":
    main()
