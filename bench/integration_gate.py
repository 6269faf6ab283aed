"""Benchmark: what hookwise's in-process Gate adds to one framework tool call.

Two contenders, measured in the same run, in interleaved chunks so machine load hits both:

- **baseline**: the framework's own tool call without a gate: a LangChain
  ``StructuredTool.invoke(args)`` (langchain-core, the ``langchain`` extra) of a small tool
  function, falling back to calling the function when langchain-core is not installed;
- **gated**: the same call through a :class:`hookwise.integrations.Gate`, as the bridges make
  it: ``before_tool`` (and the tool only when allowed) then ``after_tool``, with a generated
  200-rule policy plus every rule pack (``bench/hook_cold.py``'s generator), the project
  policy trusted, the audit log on (two records per call, as in real use).

The calls rotate over a denied shell command (the rule that hits is evaluated last), an
allowed one and a file write. Printed: wall-time p50 and p99 of each, the p50 added per
tool call (target <= 1 ms; the exit status is 1 when it is missed) and the ratio, and the
CPU time added (p50 of the thread's CPU time per call), which the machine's other load
disturbs less. Usage::

    .venv/bin/python bench/integration_gate.py [--calls 3000] [--rules 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from hook_cold import policy_text  # noqa: E402

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("run_shell", {"command": "git fetch && git push --force origin main"}),  # denied
    ("run_shell", {"command": "npm test -- --watch=false | tee log.txt"}),  # allowed
    ("write_file", {"path": "src/app.py", "content": "print('hi')\n"}),  # allowed
]


def tool_function(**kwargs: Any) -> str:
    """A small tool: what it does is the same for both contenders."""
    return f"ran with {len(kwargs)} arguments: " + ", ".join(sorted(kwargs))


def framework_call() -> Callable[[str, dict[str, Any]], Any]:
    """The framework's own tool call (LangChain's StructuredTool when installed)."""
    try:
        from langchain_core.tools import StructuredTool
    except ImportError:  # pragma: no cover - the integrations extra is not installed
        return lambda _name, args: tool_function(**args)
    from pydantic import BaseModel

    class Args(BaseModel):
        command: str | None = None
        path: str | None = None
        content: str | None = None

    def run(command: str | None = None, path: str | None = None, content: str | None = None) -> str:
        given = {"command": command, "path": path, "content": content}
        return tool_function(**{k: v for k, v in given.items() if v is not None})

    tool = StructuredTool.from_function(run, name="tool", description="a tool", args_schema=Args)
    return lambda _name, args: tool.invoke(args)


def setup(directory: Path, rules: int) -> Path:
    """A private HOME and a trusted project holding the generated policy."""
    home = directory / "home"
    project = directory / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".hookwise").mkdir()
    (project / ".hookwise" / "policy.yaml").write_text(policy_text(rules), encoding="utf-8")
    os.environ.update(
        {
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_CACHE_HOME": str(home / ".cache"),
            "XDG_STATE_HOME": str(home / ".state"),
            "HOOKWISE_AUDIT_LOG": str(directory / "audit.jsonl"),
        }
    )
    for name in ("HOOKWISE_POLICY", "HOOKWISE_USER_POLICY", "HOOKWISE_MANAGED_POLICY"):
        os.environ.pop(name, None)
    from hookwise.policy.trust.store import trust_file

    trust_file(str(project / ".hookwise" / "policy.yaml"), dict(os.environ))
    return project


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(calls: int, rules: int) -> dict[str, Any]:
    from hookwise.integrations import Gate

    with tempfile.TemporaryDirectory(prefix="hookwise-bench-gate-") as tmp:
        project = setup(Path(tmp), rules)
        invoke = framework_call()
        gate = Gate("bench", agent="bench", cwd=project)
        outcomes: dict[str, int] = {}

        def gated(name: str, args: dict[str, Any]) -> Any:
            verdict = gate.before_tool(name, args)
            outcomes[verdict.action] = outcomes.get(verdict.action, 0) + 1
            if verdict.action == "deny":
                return verdict.reason
            result = invoke(name, verdict.args or args)
            after = gate.after_tool(name, args, result)
            return after.reason if after.action == "deny" else result

        for name, args in CALLS * 20:  # warm up: policy compiled and cached, imports done
            gated(name, args)
            invoke(name, args)
        outcomes.clear()
        base: list[float] = []
        with_gate: list[float] = []
        base_cpu: list[float] = []
        gate_cpu: list[float] = []
        chunk = 50
        done = 0
        while done < calls:
            for contender, sink, cpu in ((invoke, base, base_cpu), (gated, with_gate, gate_cpu)):
                for index in range(done, min(calls, done + chunk)):
                    name, args = CALLS[index % len(CALLS)]
                    started_cpu = time.thread_time_ns()
                    started = time.perf_counter_ns()
                    contender(name, args)
                    sink.append((time.perf_counter_ns() - started) / 1e6)
                    cpu.append((time.thread_time_ns() - started_cpu) / 1e6)
            done += chunk
        audit_text = Path(os.environ["HOOKWISE_AUDIT_LOG"]).read_text(encoding="utf-8")
        audit_lines = audit_text.count("\n")
    p50_base, p50_gate = statistics.median(base), statistics.median(with_gate)
    return {
        "calls": calls,
        "rules": rules,
        "baseline": "langchain_core StructuredTool.invoke",
        "baseline_p50_ms": round(p50_base, 4),
        "baseline_p99_ms": round(percentile(base, 0.99), 4),
        "gated_p50_ms": round(p50_gate, 4),
        "gated_p99_ms": round(percentile(with_gate, 0.99), 4),
        "added_p50_ms": round(p50_gate - p50_base, 4),
        "added_p99_ms": round(percentile(with_gate, 0.99) - percentile(base, 0.99), 4),
        "ratio_p50": round(p50_gate / p50_base, 2) if p50_base else None,
        "added_cpu_p50_ms": round(statistics.median(gate_cpu) - statistics.median(base_cpu), 4),
        "verdicts": outcomes,
        "audit_records": audit_lines,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=3000)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    result = measure(options.calls, options.rules)
    if options.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{result['calls']} tool calls, {result['rules']} rules + every rule pack")
        print(f"verdicts: {result['verdicts']}, audit records: {result['audit_records']}")
        print(f"{'contender':<42} {'p50 ms':>9} {'p99 ms':>9}")
        print(
            f"{'baseline (' + result['baseline'] + ')':<42} "
            f"{result['baseline_p50_ms']:>9.4f} {result['baseline_p99_ms']:>9.4f}"
        )
        print(
            f"{'gated (before_tool + tool + after_tool)':<42} "
            f"{result['gated_p50_ms']:>9.4f} {result['gated_p99_ms']:>9.4f}"
        )
        print(
            f"added per tool call: p50 {result['added_p50_ms']:.4f} ms (target <= 1 ms), "
            f"p99 {result['added_p99_ms']:.4f} ms; gated / baseline p50 {result['ratio_p50']}"
        )
        print(f"CPU time added per tool call: p50 {result['added_cpu_p50_ms']:.4f} ms")
    return 0 if result["added_p50_ms"] <= 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
