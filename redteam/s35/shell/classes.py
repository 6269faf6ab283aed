#!/usr/bin/env python3
"""Sort s35's verified escapes (s33's collect.py over batches/ here) into classes by
ordered patterns; a damaging line no pattern claims stops the run. Writes
tests/policy/corpus/redteam_s35_open.tsv (class, command, answer, damage) with the friction
rows (batches/f*.tsv, answer not allow) at the end, in s33's format."""

from __future__ import annotations

import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "..", "tests", "policy", "corpus", "redteam_s35_open.tsv")
COLLECT = os.path.join(HERE, "..", "..", "s33", "shell", "collect.py")

# a line here: verified damage, but not an escape of the guard's claim (reason given)
APART: list[tuple[str, str]] = []

CLASSES = [
    ("A. An unset variable glued into a path (`~/.netrc${x}`, `..${x}/home`, `.ne${x}trc`, "
     "`zz.pth${x}`): the word has an unknown part, yet reads and writes of it are allowed "
     "although every value it can take starts with (or is) the secret or guard path",
     r"\$x\b|\$\{(x|y|nothing)\}"),
    ("B. Shell start-up files (`~/.bashrc`, `~/.profile`, `~/.bash_profile`, `~/.zshrc`) "
     "written with what changes later commands: a guard variable whose name is made when the "
     "line runs (`printf 'export HOOKWISE_%s=allow' ON_ERROR`, `history -s ...; history -w`), "
     "exports of BASH_ENV/HOME/XDG_CONFIG_HOME/NODE_OPTIONS, functions, aliases, traps "
     "(`git() { rm -rf ../victim; }`); and any writer at all (dd, tee, sort -o, ln -sf, "
     "install, strace -o, script, vim -es w, awk print >, exec {fd}>>)",
     r"bashrc|\.profile|bash_profile|zshrc"),
    ("C. node worker_threads: a Worker given code as a string (`{eval:true}`) or a data: URL "
     "runs it; the guard reads the string as data",
     r"worker_threads"),
    ("D. split/csplit: the output name is prefix + generated suffix (`split -n l/8 -a1 ... "
     "../home/.local/bin/bas` makes `bash`, `csplit -b 'h%.0d'`)",
     r"^(split|csplit) "),
    ("E. ed's own commands on stdin (`w FILE`): the written file is named only inside the "
     "here-string",
     r"^ed "),
    ("F. cpio -id into a directory the subshell cd's to: the archive's member names decide "
     "what is written",
     r"cpio"),
]


def main() -> None:
    env = dict(os.environ, RT_BATCHES=os.path.join(HERE, "batches"))
    rows = subprocess.run([sys.executable, COLLECT], capture_output=True, text=True,
                          check=True, env=env).stdout.splitlines()
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
    for path in sorted(glob.glob(os.path.join(HERE, "batches", "f*.tsv"))):
        for line in open(path, encoding="utf-8"):
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
