"""Benchmark: what ``hookwise run`` adds to an agent's start.

``hookwise run -- true`` (the console script: the supervisor prepares the guarded paths and
placeholders, builds both namespaces with their mounts, execs ``true`` as the agent and
waits) against ``true`` started directly, in a fresh home and git project holding every kind
of guarded file, rounds interleaved so machine load hits both alike. Also shown: ``python
-c pass`` with the console script's interpreter (its start alone, which ``hookwise run``
cannot avoid) and ``hookwise run --print-paths`` (the computation without the namespaces).
Target: p50 added <= 50 ms. Usage::

    .venv/bin/python bench/run_start.py [--rounds 40] [--json]

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    compileall.compile_dir(str(ROOT / "src" / "hookwise"), quiet=1)
    contenders = {
        "true": ["true"],
        "hookwise run -- true": [HOOKWISE, "run", "--", "true"],
        "python -c pass": [sys.executable, "-c", "pass"],
        "hookwise run --print-paths": [HOOKWISE, "run", "--print-paths"],
    }
    with tempfile.TemporaryDirectory(prefix="hookwise-run-bench-") as scratch:
        env, project = _world(Path(scratch))
        for argv in contenders.values():  # warm the caches once
            _time(argv, env, project)
        times: dict[str, list[float]] = {name: [] for name in contenders}
        for _round in range(options.rounds):
            for name, argv in contenders.items():
                times[name].append(_time(argv, env, project))
    p50 = {name: statistics.median(values) for name, values in times.items()}
    figures = {
        "rounds": options.rounds,
        "p50_ms": {name: round(value, 2) for name, value in p50.items()},
        "added_p50_ms": round(p50["hookwise run -- true"] - p50["true"], 2),
        "ratio_p50": round(p50["hookwise run -- true"] / p50["true"], 2),
        "added_over_python_start_ms": round(p50["hookwise run -- true"] - p50["python -c pass"], 2),
        "target_added_ms": 50,
    }
    if options.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"`hookwise run -- true` against `true`, {options.rounds} rounds each, interleaved")
    for name, value in p50.items():
        print(f"  {name:28} p50 {value:7.2f} ms")
    print(
        f"  added by hookwise run       p50 {figures['added_p50_ms']:7.2f} ms "
        f"(ratio {figures['ratio_p50']:.2f}; target <= 50 ms added)"
    )
    print(f"  of which the interpreter's own start: {p50['python -c pass'] - p50['true']:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
