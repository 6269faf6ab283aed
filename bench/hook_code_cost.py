"""Benchmark: what a writing call adds to the hook (red team s33 #1-#5).

A call that writes anywhere builds self-protection's list once (``protect.code_reasons``:
hook_code's files, now with every file the interpreter maps, the loader's configuration,
``node`` and each host's commands on PATH and their installs) and judges each written path
against the process files (``process_files.acts_on_processes``: the mount table, read once).
Each is timed in a fresh interpreter, as in a hook (its modules already imported, so only
the work is timed), ``--runs`` times; the median and the minimum are printed. ``--source``
times another tree (``git archive s33-merge src | tar -x -C /tmp/base`` for the figures
before)::

    .venv/bin/python bench/hook_code_cost.py [--runs 21] [--source DIR]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

_PROBE = """
import os, sys, time
sys.path.insert(0, sys.argv[1])
from hookwise.policy.trust import protect
import hookwise.protocol.hosts  # (the hook has it: its adapters)
start = time.perf_counter()
protect.code_reasons(dict(os.environ), os.getcwd())
listed = time.perf_counter() - start
try:
    from hookwise.policy.trust import process_files
except ImportError:
    judged = 0.0
else:
    start = time.perf_counter()
    process_files.acts_on_processes("/tmp/x")
    judged = time.perf_counter() - start
print(listed * 1e3, judged * 1e3, len(protect.code_reasons(dict(os.environ), os.getcwd())))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    default = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + "/src"
    parser.add_argument("--source", default=default)
    args = parser.parse_args()
    rows = []
    for _ in range(args.runs):
        out = subprocess.run(
            [sys.executable, "-S", "-c", _PROBE, args.source],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
        rows.append((float(out[0]), float(out[1]), int(out[2])))
    for index, what in ((0, "code_reasons"), (1, "process_files, first call")):
        values = sorted(row[index] for row in rows)
        print(f"{what}: median {values[len(values) // 2]:.2f} ms, min {values[0]:.2f} ms")
    print(f"entries listed: {rows[0][2]} (PATH of {len(os.environ.get('PATH', '').split(':'))})")


if __name__ == "__main__":
    main()
