"""Benchmark: Python function calls the framework gate adds per tool call (load-independent).

``bench/integration_gate.py`` and ``bench/integration_bridges.py`` time the gate; on a
shared machine their wall (and even CPU) figures move with the other load. This counts
work instead: every Python and C function call (``call`` / ``c_call`` profile events, on
every thread: LangGraph runs tools in worker threads) of

- **gate**: ``bench/integration_gate.py``'s rotation of calls through ``Gate.before_tool``
  (and ``after_tool`` when allowed), against the same count of bare tool-function calls;
- **langchain** / **openai-agents**: ``bench/integration_bridges.py``'s whole agent runs,
  gated against plain, in the same process.

Printed: calls per tool call added by the gate (the baseline named on each line is
subtracted). The figure is deterministic for a given tree, so two trees (before/after a
change) compare exactly; it is a proxy for CPU, not a time. Usage::

    .venv/bin/python bench/integration_calls.py [--runs 5] [--calls 300] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from integration_bridges import FRAMEWORKS  # noqa: E402
from integration_gate import CALLS, setup, tool_function  # noqa: E402


class Counter:
    """Counts function calls on every thread while active."""

    def __init__(self) -> None:
        self.calls = 0

    def _hook(self, frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            self.calls += 1

    def count(self, work: Callable[[], Any], times: int) -> float:
        self.calls = 0
        threading.setprofile(self._hook)
        sys.setprofile(self._hook)
        try:
            for _ in range(times):
                work()
        finally:
            sys.setprofile(None)
            threading.setprofile(None)
        return self.calls / times


def gate_figure(project: Path, calls: int, counter: Counter) -> dict[str, Any]:
    from hookwise.integrations.gate import Gate

    gate = Gate("bench", agent="bench", cwd=project)
    index = [0]

    def plain() -> None:
        _name, args = CALLS[index[0] % len(CALLS)]
        index[0] += 1
        tool_function(**args)

    def gated() -> None:
        name, args = CALLS[index[0] % len(CALLS)]
        index[0] += 1
        verdict = gate.before_tool(name, args, call_id=str(index[0]))
        if verdict.action != "deny":
            result = tool_function(**(verdict.args or args))
            gate.after_tool(name, args, result, call_id=str(index[0]))

    for _ in range(30):  # warm up: the compiled policy, the parser's tables
        gated()
    base = counter.count(plain, calls)
    added = counter.count(gated, calls) - base
    return {"benchmark": "gate", "baseline": "the bare tool function", "added_calls": added}


def bridge_figure(framework: str, project: Path, runs: int, counter: Counter) -> dict[str, Any]:
    steps = 12
    baseline, gated, close = FRAMEWORKS[framework](project, steps)
    try:
        for _ in range(3):
            baseline()
            gated()
        plain_calls = counter.count(baseline, runs)
        gated_calls = counter.count(gated, runs)
    finally:
        close()
    return {
        "benchmark": framework,
        "baseline": f"the same {framework} run without the bridge",
        "added_calls": (gated_calls - plain_calls) / steps,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    counter = Counter()
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-calls-") as tmp:
        project = setup(Path(tmp), options.rules)
        results = [gate_figure(project, options.calls, counter)]
        for framework in sorted(FRAMEWORKS):
            results.append(bridge_figure(framework, project, options.runs, counter))
    for r in results:
        r["added_calls"] = round(r["added_calls"])
    if options.json:
        print(json.dumps(results, indent=1))
    else:
        print(f"{options.rules} rules + every rule pack; function calls added per tool call")
        for r in results:
            print(f"{r['benchmark']:<15} {r['added_calls']:>7}  (baseline: {r['baseline']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
