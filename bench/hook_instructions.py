"""Benchmark: instructions executed by the registered hook command, per benchmark payload.

Wall time on a shared machine varies by 10 % from run to run; the instruction count of a
process does not (to a few thousand in forty million), so a change of a few hundred
microseconds in the hook's cold start shows here when ``bench/hook_cold.py`` cannot see
it. Same setup as ``hook_cold.py``'s registered command (its 200-rule policy plus every
rule pack, its three payloads, the per-user launcher and its snapshot, run through the
hosts' ``sh -c``), counted with valgrind's callgrind over the whole process tree (``sh``
included), against ``python -I -S -c pass`` counted the same way in the same run.
Usage::

    .venv/bin/python bench/hook_instructions.py [--runs 3] [--root CHECKOUT]

``--root``: another checkout of hookwise to measure with this interpreter (its
``bench/hook_cold.py`` and ``src``), e.g. main next to a branch.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COLLECTED = re.compile(r"Collected : ([\d,]+)")


def _hook_cold(root: Path) -> Any:
    spec = importlib.util.spec_from_file_location("hook_cold", root / "bench" / "hook_cold.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"no bench/hook_cold.py under {root}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # puts root/src first on sys.path
    return module


def instructions(argv: list[str], data: bytes, env: dict[str, str]) -> int:
    """Instructions of ``argv`` and every process it starts (callgrind's Ir)."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--trace-children=yes",
            "--callgrind-out-file=/dev/null",
            *argv,
        ],
        input=data,
        capture_output=True,
        env=env,
        check=False,
    )
    found = COLLECTED.findall(done.stderr.decode())
    if not found or done.returncode not in (0, 2):
        raise SystemExit(f"{argv} under valgrind failed: {done.stderr.decode()[-2000:]}")
    return sum(int(count.replace(",", "")) for count in found)


def measure(root: Path, runs: int) -> dict[str, float]:
    bench = _hook_cold(root)
    compileall.compile_dir(str(root / "src" / "hookwise"), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env, _launcher = bench.installed_home(base, 200)
        data = bench.payloads(str(base))
        for _ in range(2):  # the policy cache, then the launcher's snapshot
            for payload, host in zip(data, bench.PAYLOAD_HOSTS, strict=True):
                subprocess.run(
                    bench.portable_argv(host),
                    input=payload,
                    env=env,
                    capture_output=True,
                    check=True,
                )
        bare = statistics.median(
            instructions([sys.executable, "-I", "-S", "-c", "pass"], b"", env) for _ in range(runs)
        )
        figures = {"bare": bare}
        for payload, name, host in zip(data, bench.PAYLOAD_NAMES, bench.PAYLOAD_HOSTS, strict=True):
            figures[name] = statistics.median(
                instructions(bench.portable_argv(host), payload, env) for _ in range(runs)
            )
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per command (median)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    figures = measure(args.root.resolve(), args.runs)
    bare = figures.pop("bare")
    print(f"registered hook command, instructions (callgrind), {args.root.resolve()}")
    print(f"  python -I -S -c pass        {bare / 1e6:7.2f} M")
    for name, count in figures.items():
        print(f"  {name:27s} {count / 1e6:7.2f} M  {count / bare:.3f}x bare")


if __name__ == "__main__":
    main()
