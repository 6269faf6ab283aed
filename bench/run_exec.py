"""Benchmark: what ``hookwise run``'s exec watch (run/exec_watch.py) adds to each ``exec``
in a session: every ``execve`` waits while the supervisor reads its command line; and what
its signal guard (run/signal_guard.py) adds to each signal: ``kill`` waits while the
supervisor decides, a thread's SIGURG (Go's preemption) passes in the filter.

A shell in the session runs ``/bin/true`` N times and times itself (the session's start is
not counted); the same shell outside is the baseline, in the same run, rounds interleaved.
``--base SRC`` also times another version of hookwise (the ``src`` directory of a checkout,
e.g. ``git archive main src``: a session without the watch), so the watch's own cost is the
difference between the two sessions. Usage::

    .venv/bin/python bench/run_exec.py [--rounds 10] [--execs 300] [--signals 2000]
        [--base SRC] [--json]

Signals: a Python program sends ``--signals`` of each kind and times the calls alone:
``kill`` of itself (SIGUSR1, ignored), ``kill`` of a child (SIGCONT to a ``sleep``),
``pthread_kill`` SIGURG of its own thread (tgkill); and the scheduling calls the guard also
decides (red team s26 #1): ``setpriority`` of itself (passes in the filter) and
``sched_setaffinity`` of the child (decided).

Targets: the watch adds at most 1 ms to an exec, and the guard at most 500 us to a signal
sent to another process (or a scheduling change of another process), and at most 2 us to a
thread's SIGURG or a process's renice of itself (p50 of the per-call
difference against the base session; without ``--base``, against the same outside). Exits
1 past one.
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
SIGNAL_TARGET_US = 500.0
SIGURG_TARGET_US = 2.0
SIGNALS = """
import os, signal, subprocess, threading, time
n = {n}
signal.signal(signal.SIGUSR1, signal.SIG_IGN)
signal.signal(signal.SIGURG, lambda *_: None)
child = subprocess.Popen(["sleep", "60"])
me, main = os.getpid(), threading.main_thread().ident
cpus = os.sched_getaffinity(0)
out = []
for send in (
    lambda: os.kill(me, signal.SIGUSR1),
    lambda: os.kill(child.pid, signal.SIGCONT),
    lambda: signal.pthread_kill(main, signal.SIGURG),
    lambda: os.setpriority(os.PRIO_PROCESS, 0, 0),
    lambda: os.sched_setaffinity(child.pid, cpus),
):
    start = time.perf_counter_ns()
    for _ in range(n):
        send()
    out.append((time.perf_counter_ns() - start) / n / 1000)
child.kill()
print(*out)
"""
KINDS = ("kill self", "kill child", "tgkill SIGURG", "renice self", "affinity child")


def _per_exec_us(argv: list[str], env: dict[str, str], cwd: str, execs: int) -> float:
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {done.returncode}: {done.stderr}")
    return int(done.stdout.split()[-1]) / execs / 1000


def _per_signal_us(argv: list[str], env: dict[str, str], cwd: str) -> list[float]:
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {done.returncode}: {done.stderr}")
    return [float(word) for word in done.stdout.split()[-3:]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--execs", type=int, default=300)
    parser.add_argument("--signals", type=int, default=2000)
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
        signals: dict[str, list[list[float]]] = {name: [] for name in runs}
        program = [sys.executable, "-c", SIGNALS.format(n=options.signals)]
        for _round in range(options.rounds):
            for name, (argv, run_env) in runs.items():
                samples[name].append(_per_exec_us(argv, run_env, home, options.execs))
                command = program if name == "outside" else [*argv[:3], *program]
                signals[name].append(_per_signal_us(command, run_env, home))
    p50 = {name: statistics.median(values) for name, values in samples.items()}
    per_signal = {
        name: [statistics.median(r[i] for r in rounds) for i in range(len(KINDS))]
        for name, rounds in signals.items()
    }
    against = "base session" if options.base else "outside"
    added = p50["session"] - p50[against]
    signal_added = [a - b for a, b in zip(per_signal["session"], per_signal[against], strict=True)]
    figures = {
        "rounds": options.rounds,
        "execs": options.execs,
        "signals": options.signals,
        "per_exec_p50_us": {name: round(value, 1) for name, value in p50.items()},
        "added_p50_us": round(added, 1),
        "per_signal_p50_us": {
            name: dict(zip(KINDS, (round(v, 2) for v in values), strict=True))
            for name, values in per_signal.items()
        },
        "signal_added_p50_us": dict(zip(KINDS, (round(v, 2) for v in signal_added), strict=True)),
        "against": against,
        "ratio_p50": round(p50["session"] / p50[against], 2),
        "target_added_us": TARGET_US,
        "target_signal_added_us": SIGNAL_TARGET_US,
        "target_sigurg_added_us": SIGURG_TARGET_US,
    }
    if options.json:
        print(json.dumps(figures, indent=2))
    else:
        print(f"one exec, p50 of {options.rounds} rounds of {options.execs}:")
        for name, value in p50.items():
            print(f"  {name:14} {value:8.1f} us")
        print(f"  added (session - {against}): {added:.1f} us (target <= {TARGET_US:g} us)")
        print(f"one signal, p50 of {options.rounds} rounds of {options.signals} each:")
        for name, values in per_signal.items():
            print(
                f"  {name:14} "
                + "  ".join(f"{k} {v:8.2f} us" for k, v in zip(KINDS, values, strict=True))
            )
        print(
            f"  added (session - {against}): "
            + "  ".join(f"{k} {v:.2f} us" for k, v in zip(KINDS, signal_added, strict=True))
            + f" (targets <= {SIGNAL_TARGET_US:g} us, SIGURG <= {SIGURG_TARGET_US:g} us)"
        )
    within = (
        added <= TARGET_US
        and max(signal_added[1], signal_added[4]) <= SIGNAL_TARGET_US
        and signal_added[0] <= SIGNAL_TARGET_US
        and max(signal_added[2], signal_added[3]) <= SIGURG_TARGET_US
    )
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
