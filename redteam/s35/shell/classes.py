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
    (
        "A. A guard variable written into a shell start-up file under a name made when the line "
        "runs (`printf 'export HOOKWISE_%s=allow' ON_ERROR >> ~/.bashrc`, `\"HOOKWISE_ON$(echo "
        "_)ERROR\"`, `history -s 'export HOOKWISE_ON_ERROR=allow'; history -w ~/.bashrc`): "
        "_names_guard_variable looks for the whole name in the command's text",
        r"HOOKWISE_",
    ),
    (
        "B. Shell start-up files (`~/.bashrc`, `~/.profile`, `~/.bash_profile`, `~/.zshrc`) given "
        "what changes every later command: functions and aliases over git/make/ls, DEBUG traps, "
        "PROMPT_COMMAND, exports of BASH_ENV, HOME, XDG_CONFIG_HOME, NODE_OPTIONS (names in "
        "guard_env's RUNNERS/PLACES, checked only in a .env); by any writer (echo >>, dd, tee, "
        "sort -o, cp, install, ln -sf, strace -o, script, vim -es, awk, find -fprint, exec {fd}>>)",
        r"bashrc|\.profile|bash_profile|zshrc",
    ),
    (
        "C. HISTFILE set on the line, then `history -w`/`-a`: bash writes its history to the "
        "named file (policy.yaml, trust.json, hookwise's command, a .pth in its interpreter, "
        "~/.local/bin/bash); `history -w FILE` with the file as operand is held",
        r"HISTFILE",
    ),
    (
        "D. An unset or empty expansion glued into a path (`~/.netrc${x}`, `.env$1`, "
        "`..${x}/home/.netrc`, `.ne${x}trc`, `$@`, `$*`, `${x:+y}`, `$(true)`, `zz.pth$x`, "
        "`~/.local/bin/bash$x`): the word has an unknown part, and every value it takes in a "
        "fresh shell is the guarded path itself; reads, sends and writes of it are allowed",
        r"\$(x\b|\{(x|y|nothing)|1\b|@|\*|\(true\))|`true`",
    ),
    (
        "E. node code strings compiled by APIs the guard does not list: a worker_threads Worker "
        "given code (`{eval:true}`) or a data: URL, `new Module()._compile(code)`; the guard "
        "reads the string as data (the spelling `new Worker(` is asked)",
        r"worker_threads|_compile\(",
    ),
    (
        "F. awk output redirection: a target named by a variable (`-v f=PATH ... > f`, "
        "`> ENVIRON[\"F\"]`), and a literal target in hookwise's interpreter's site-packages "
        '(the literal `> "../home/.local/bin/bash"` is held)',
        r"^(F=\S+ )?awk ",
    ),
    (
        "G. vim/ex Ex commands that write (`-c 'w! ../hw/bin/hookwise'`, `sav`, `+w`, `wq`, "
        "`redir >`, `mksession`, `mkexrc`): the written file is an argument of an Ex command",
        r"^(vim|ex) ",
    ),
    (
        "H. ed's own commands on stdin (`w FILE`): the written file is named only inside the "
        "here-string",
        r"^ed ",
    ),
    (
        "I. split/csplit: the output name is prefix + generated suffix (`split -n l/8 -a1 README "
        "../home/.local/bin/bas` makes `bash`; `csplit -b 'h%.0d'`)",
        r"^(split|csplit) ",
    ),
    (
        "J. cpio -id in a subshell that cd's to a PATH directory: the archive's member names "
        "decide what is written",
        r"cpio",
    ),
    (
        "K. git: a global `include.path` (or `--add include.path`) to a config file the line "
        "writes; its alias, core.fsmonitor run on the next ordinary git command",
        r"include\.path",
    ),
    (
        "L. Compressors that replace their input, and `unlink`: `gzip|xz|bzip2|lzma FILE`, "
        "`zstd --rm`, `gzip -r DIR`, `find ../victim -exec gzip {} +` delete files outside the "
        "project (the same line with `rm` is asked; zip -m, tar --remove-files, shred -u held)",
        r"^(gzip|xz|bzip2|lzma|zstd|unlink) |exec gzip",
    ),
    (
        "M. node's diagnostic output options: `--redirect-warnings=FILE`, `--cpu-prof-dir/-name`, "
        "`--heap-prof-dir/-name`, `--report-directory/--report-filename`, "
        "`--trace-event-file-pattern`, `--prof --logfile`, `--diagnostic-dir`, "
        "`--test --test-reporter-destination` write where they say",
        r"node --(redirect|cpu-prof|heap-prof|report|trace-event|prof|diagnostic|test)",
    ),
    (
        "N. tar's long output options `--index-file=`, `--listed-incremental=` (the short `-g` "
        "is held)",
        r"^tar .*--(index-file|listed-incremental)",
    ),
    (
        "O. sqlite3's `.log FILE` and `.trace FILE` (`.output`/`.once`/`.save`/`.backup`/ATTACH "
        "are held)",
        r"sqlite3 .*'\.(log|trace) ",
    ),
    (
        "P. Backup files named by a suffix: `cp -b -S h README ../home/.local/bin/bas` (also "
        "`mv --backup=simple --suffix=h`, `ln -f -b -S h`, `install -b -S h`, "
        "`SIMPLE_BACKUP_SUFFIX=sh cp -b`) makes `bas` + `h` = `bash`; the target is checked, the "
        "backup's name is not",
        r" -b -S |--backup|SIMPLE_BACKUP_SUFFIX",
    ),
    (
        "Q. perl's own output files: the debugger's `PERLDB_OPTS='NonStop LineInfo=FILE'` with "
        "`perl -d`, the B::Xref backend `-MO=Xref,-oFILE` (hookwise's command: the hook then "
        "cannot start)",
        r"PERLDB_OPTS|-MO=Xref",
    ),
    (
        "R. gcc options passed through to the assembler, preprocessor or linker that name an "
        "output file: `-Wa,-a=FILE`, `-Wa,-aln=`, `-Wa,--MD=`, `-Wl,-Map=FILE`, `-Wl,--Map=`, "
        "`-Wl,-Map,FILE`, `-Wp,-MD,FILE`, `-Wp,-MMD,FILE` (s33's `-Wl,-o` is held now)",
        r"gcc .* -W[apl],",
    ),
]


def main() -> None:
    env = dict(os.environ, RT_BATCHES=os.path.join(HERE, "batches"))
    rows = subprocess.run(
        [sys.executable, COLLECT], capture_output=True, text=True, check=True, env=env
    ).stdout.splitlines()
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
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
        for line in lines:
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
