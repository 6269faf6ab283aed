"""Benchmark: what ``hookwise run`` adds to an agent's start.

Two figures, in a fresh home and git project holding every kind of guarded file, rounds
interleaved so machine load hits every contender alike:

1. **start**: from launching the command to the agent's first instruction. The agent is
   ``date +%s%N``, which prints the time it started; ``hookwise run -- date +%s%N`` (the
   console script: the supervisor prepares the guarded paths and placeholders, builds both
   namespaces with their mounts and execs the agent) against ``date +%s%N`` started
   directly. Target: p50 added <= 50 ms.
2. **whole run**: ``hookwise run -- true`` against ``true``, until the supervisor has exited
   (after the agent: the audit sink drained, placeholders removed).

Also shown: ``python -c pass`` with the console script's interpreter (its own start, which
``hookwise run`` cannot avoid) and ``hookwise run --print-paths`` (the computation without
the namespaces). ``--base SRC`` also times another version of hookwise (the ``src``
directory of a checkout, e.g. from ``git archive``), interleaved with the rest: the cost of a
change measured in the same run, under the same load. Usage::

    .venv/bin/python bench/run_start.py [--rounds 40] [--base SRC] [--json]

Bytecode is compiled first (``compileall``), as ``pip install`` does; exits 1 when a
confined run fails.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOOKWISE = str(Path(sys.executable).parent / "hookwise")


def _world(root: Path) -> tuple[dict[str, str], Path]:
    home, project = root / "home", root / "project"
    files = {
        home / ".config/hookwise/policy.yaml": "version: 1\n",
        home / ".config/hookwise/trust.json": "{}\n",
        home / ".local/share/hookwise/hook.snapshot": "x",
        home / ".claude/settings.json": "{}\n",
        home / ".gemini/settings.json": "{}\n",
        home / ".codex/config.toml": "",
        project / ".hookwise/policy.yaml": "version: 1\n",
        project / ".claude/settings.json": "{}\n",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    return env, project


def _time(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, check=False)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {done.returncode}")
    return elapsed


def _start(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    if argv and argv[0] == "base":  # another version of hookwise (--base)
        argv, env = argv[2:], {**env, "PYTHONPATH": argv[1]}
    """Milliseconds from the launch to the moment the agent (``date +%s%N``) ran."""
    launched = time.time_ns()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed with status {done.returncode}: {done.stderr}")
    return (int(done.stdout.strip()) - launched) / 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--base", help="the src/ of another version, timed alongside")
    options = parser.parse_args()
    compileall.compile_dir(str(ROOT / "src" / "hookwise"), quiet=1)
    date = ["date", "+%s%N"]
    starts = {"date": date, "hookwise run -- date": [HOOKWISE, "run", "--", *date]}
    if options.base:
        base = str(Path(options.base).resolve())
        compileall.compile_dir(str(Path(base) / "hookwise"), quiet=1)
        starts["base: hookwise run -- date"] = ["base", base, HOOKWISE, "run", "--", *date]
    wholes = {
        "true": ["true"],
        "hookwise run -- true": [HOOKWISE, "run", "--", "true"],
        "python -c pass": [sys.executable, "-c", "pass"],
        "hookwise run --print-paths": [HOOKWISE, "run", "--print-paths"],
    }
    with tempfile.TemporaryDirectory(prefix="hookwise-run-bench-") as scratch:
        env, project = _world(Path(scratch))
        for argv in wholes.values():  # warm the caches once
            _time(argv, env, project)
        for argv in starts.values():
            _start(argv, env, project)
        start_ms: dict[str, list[float]] = {name: [] for name in starts}
        whole_ms: dict[str, list[float]] = {name: [] for name in wholes}
        for _round in range(options.rounds):
            for name, argv in starts.items():
                start_ms[name].append(_start(argv, env, project))
            for name, argv in wholes.items():
                whole_ms[name].append(_time(argv, env, project))
    start = {name: statistics.median(values) for name, values in start_ms.items()}
    whole = {name: statistics.median(values) for name, values in whole_ms.items()}
    figures = {
        "rounds": options.rounds,
        "start_p50_ms": {name: round(value, 2) for name, value in start.items()},
        "whole_p50_ms": {name: round(value, 2) for name, value in whole.items()},
        "start_added_p50_ms": round(start["hookwise run -- date"] - start["date"], 2),
        "whole_added_p50_ms": round(whole["hookwise run -- true"] - whole["true"], 2),
        "whole_ratio_p50": round(whole["hookwise run -- true"] / whole["true"], 2),
        "python_start_p50_ms": round(whole["python -c pass"] - whole["true"], 2),
        "target_start_added_ms": 50,
    }
    if options.base:
        figures["base_start_added_p50_ms"] = round(
            start["base: hookwise run -- date"] - start["date"], 2
        )
    if options.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"hookwise run, {options.rounds} rounds each, interleaved")
    print("  start (launch to the agent's first instruction)")
    for name, value in start.items():
        print(f"    {name:28} p50 {value:7.2f} ms")
    print(
        f"    added by hookwise run       p50 {figures['start_added_p50_ms']:7.2f} ms "
        "(target <= 50 ms)"
    )
    if options.base:
        print(f"    added by the base version   p50 {figures['base_start_added_p50_ms']:7.2f} ms")
    print("  whole run (until the supervisor exits)")
    for name, value in whole.items():
        print(f"    {name:28} p50 {value:7.2f} ms")
    print(
        f"    added by hookwise run       p50 {figures['whole_added_p50_ms']:7.2f} ms "
        f"(ratio {figures['whole_ratio_p50']:.2f})"
    )
    print(
        f"  the interpreter's own start (python -c pass - true): {figures['python_start_p50_ms']:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
