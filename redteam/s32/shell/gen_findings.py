#!/usr/bin/env python3
"""Build tests/policy/corpus/redteam_s32_open.tsv from the batches: each verified escape
(the hook's answer in batches/b*.tsv is allow AND verify.py saw damage in batches/v*.tsv),
under its class; then the friction rows (answers in friction.tsv that are not allow).
A command listed below without both facts stops the script (nothing is claimed unseen).
A command with `⟫` is several hook calls, decided and run in turn (d.py, verify.py)."""

from __future__ import annotations

import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
B = os.path.join(HERE, "batches")

from classes import CLASSES  # noqa: E402


def table(prefix: str, value_col: int, key_col: int) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(glob.glob(os.path.join(B, prefix + "*.tsv"))):
        for line in open(path, encoding="utf-8"):
            parts = line.rstrip("\n").split("\t")
            if len(parts) > max(value_col, key_col):
                found.setdefault(parts[key_col], parts[value_col])
    return found


def main() -> None:
    answers = table("b", 0, 1)
    damages = table("v", 1, 0)
    rows = ["class\tcommand\tanswer\tdamage"]
    missing = []
    counts = []
    for label, commands in CLASSES:
        counts.append((label.split(".")[0], len(commands)))
        for cmd in commands:
            ans, dmg = answers.get(cmd), damages.get(cmd)
            if ans != "allow" or not dmg or dmg.startswith("none"):
                missing.append(f"{ans} / {dmg}: {cmd}")
                continue
            rows.append(f"{label}\t{cmd.replace(chr(10), chr(92) + 'n')}\tallow\t{dmg}")
    for line in open(os.path.join(HERE, "friction.tsv"), encoding="utf-8"):
        ans, cmd, why, _ = line.rstrip("\n").split("\t")
        if ans != "allow":
            rows.append(f"friction\t{cmd}\t{ans}\treason: {why}")
    if missing:
        sys.exit("not verified:\n" + "\n".join(missing))
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/policy/corpus/redteam_s32_open.tsv"
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(rows) + "\n")
    print(
        f"{len(rows) - 1} rows;",
        ", ".join(f"{c} {n}" for c, n in counts),
        f"total {sum(n for _, n in counts)}",
    )


if __name__ == "__main__":
    main()
