"""Benchmark: what ``hookwise run``'s exec watch (run/exec_watch.py) adds to each ``exec``
in a session: every ``execve`` waits while the supervisor reads its command line.

A shell in the session runs ``/bin/true`` N times and times itself (the session's start is
not counted); the same shell outside is the baseline, in the same run, rounds interleaved.
``--base SRC`` also times another version of hookwise (the ``src`` directory of a checkout,
e.g. ``git archive main src``: a session without the watch), so the watch's own cost is the
difference between the two sessions. Usage::

    .venv/bin/python bench/run_exec.py [--rounds 10] [--execs 300] [--base SRC] [--json]

Target: the watch adds at most 1 ms to an exec (p50 of the per-exec difference against the
base session; without ``--base``, against the shell outside). Exits 1 past it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HOOKWISE = str(Path(sys.executable).parent / "hookwise")
LOOP = (
    "s=$(date +%s%N); i=0; while [ $i -lt {n} ]; do /bin/true; i=$((i+1)); done; "
    "e=$(date +%s%N); echo $((e-s))"
)
TARGET_US = 1000.0


def _per_exec_us(argv: list[str], env: dict[str, str], cwd: str, execs: int) -> float:
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {done.returncode}: {done.stderr}")
    return int(done.stdout.split()[-1]) / execs / 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--execs", type=int, default=300)
    parser.add_argument("--base", help="the src/ of another version, timed alongside")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    script = ["sh", "-c", LOOP.format(n=options.execs)]
    with tempfile.TemporaryDirectory(prefix="hookwise-exec-bench-") as home:
        env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        runs = {"outside": (script, env), "session": ([HOOKWISE, "run", "--", *script], env)}
        if options.base:
            base = {**env, "PYTHONPATH": str(Path(options.base).resolve())}
            runs["base session"] = ([HOOKWISE, "run", "--", *script], base)
        samples: dict[str, list[float]] = {name: [] for name in runs}
        for _round in range(options.rounds):
            for name, (argv, run_env) in runs.items():
                samples[name].append(_per_exec_us(argv, run_env, home, options.execs))
    p50 = {name: statistics.median(values) for name, values in samples.items()}
    against = "base session" if options.base else "outside"
    added = p50["session"] - p50[against]
    figures = {
        "rounds": options.rounds,
        "execs": options.execs,
        "per_exec_p50_us": {name: round(value, 1) for name, value in p50.items()},
        "added_p50_us": round(added, 1),
        "against": against,
        "ratio_p50": round(p50["session"] / p50[against], 2),
        "target_added_us": TARGET_US,
    }
    if options.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"one exec, p50 of {options.rounds} rounds of {options.execs}:")
        for name, value in p50.items():
            print(f"  {name:14} {value:8.1f} us")
        print(f"  added (session - {against}): {added:.1f} us (target <= {TARGET_US:g} us)")
    return 0 if added <= TARGET_US else 1


if __name__ == "__main__":
    sys.exit(main())
