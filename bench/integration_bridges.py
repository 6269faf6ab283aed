"""Benchmark: what the OpenAI Agents SDK and LangChain bridges add to a tool call of a real run.

``bench/integration_gate.py`` measures the Gate against a bare tool call. This one measures
the bridges as users run them: a whole agent run of each framework, once as built and once
behind hookwise (``guard_agent`` / ``HookwiseMiddleware``), with an in-process scripted model
(the SDK's own ``agents.testing.ScriptedModel``; LangChain's ``GenericFakeChatModel``), so no
network time hides the difference. Each run makes ``--steps`` sequential tool calls that
rotate over a denied shell command (the rule that hits is evaluated last), an allowed one and
a file write, then answers. The policy is ``bench/hook_cold.py``'s generated 200 rules plus
every rule pack, trusted, with the audit log on (as in real use).

Both contenders run in the same process, interleaved run by run so machine load hits both.
Printed per framework: the p50 of a whole run for each, the p50 added per tool call
((gated - baseline) / steps; target <= 1 ms, the exit status is 1 when it is missed), and
the same in process CPU time, which the machine's other load disturbs less. The gated run
also decides the prompt and the end of the run (two more decisions, counted in).

``--rounds N`` repeats the whole measurement N times (fresh agents each round) and
reports, per framework, the median over rounds of each figure, plus every round's added
p50, so one noisy stretch of a shared machine does not decide the verdict. Usage::

    .venv/bin/python bench/integration_bridges.py [--runs 40] [--steps 12] [--rules 200]
        [--rounds 1] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
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

from integration_gate import setup  # noqa: E402

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("run_shell", {"command": "git fetch && git push --force origin main"}),  # denied
    ("run_shell", {"command": "echo tests passed"}),  # allowed
    ("write_file", {"path": "notes.txt", "content": "hello\n"}),  # allowed
]


def run_shell(command: str) -> str:
    """Run a shell command (here: only say what would run)."""
    return f"would run: {command}"


def write_file(path: str, content: str) -> str:
    """Write a file (here: only say what would be written)."""
    return f"would write {len(content)} bytes to {path}"


def script(steps: int) -> list[tuple[str, dict[str, Any]]]:
    return [CALLS[i % len(CALLS)] for i in range(steps)]


# ---------------------------------------------------------------------------- OpenAI Agents
def openai_agents_runner(
    project: Path, steps: int
) -> tuple[Callable[[], Any], Callable[[], Any], Callable[[], None]]:
    from agents import Agent, RunConfig, Runner, function_tool, set_tracing_disabled
    from agents.testing.model import ScriptedModel, assistant_message, function_call

    from hookwise.integrations.openai_agents import guard_agent

    set_tracing_disabled(True)
    loop = asyncio.new_event_loop()

    def model() -> ScriptedModel:
        items: list[Any] = [
            [function_call(name, args, call_id=f"call_{i}")]
            for i, (name, args) in enumerate(script(steps))
        ]
        return ScriptedModel([*items, [assistant_message("done")]])

    def make(guarded: bool) -> Callable[[], Any]:
        # built once, as an application builds its agent; each run gets a fresh script
        agent = Agent(
            name="bench",
            instructions="bench",
            tools=[function_tool(run_shell), function_tool(write_file)],
        )
        if guarded:
            agent = guard_agent(agent, cwd=project)

        def once() -> Any:
            config = RunConfig(model=model())
            result = loop.run_until_complete(
                Runner.run(agent, "go", max_turns=steps + 5, run_config=config)
            )
            assert result.final_output == "done"
            return result

        return once

    return make(False), make(True), loop.close


# ---------------------------------------------------------------------------- LangChain
def langchain_runner(
    project: Path, steps: int
) -> tuple[Callable[[], Any], Callable[[], Any], Callable[[], None]]:
    from langchain.agents import create_agent
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.tools import StructuredTool

    from hookwise.integrations.langchain import HookwiseMiddleware

    class Model(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

    tools = [StructuredTool.from_function(run_shell), StructuredTool.from_function(write_file)]

    def messages() -> Any:
        made = [
            AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{i}"}])
            for i, (name, args) in enumerate(script(steps))
        ]
        return iter([*made, AIMessage("done")])

    def make(guarded: bool) -> Callable[[], Any]:
        # built once, as an application builds its agent; each run gets a fresh script
        model = Model(messages=messages())
        middleware = [HookwiseMiddleware(agent="bench", cwd=project)] if guarded else []
        agent = create_agent(model, tools, middleware=middleware)

        def once() -> Any:
            model.messages = messages()
            out = agent.invoke({"messages": [HumanMessage("go")]})
            assert out["messages"][-1].content == "done"
            return out

        return once

    return make(False), make(True), lambda: None


FRAMEWORKS = {"openai-agents": openai_agents_runner, "langchain": langchain_runner}


def measure(framework: str, runs: int, steps: int, project: Path) -> dict[str, Any]:
    baseline, gated, close = FRAMEWORKS[framework](project, steps)
    try:
        for _ in range(3):  # warm up: imports, the compiled policy, the SDK's caches
            baseline()
            gated()
        base: list[float] = []
        guarded: list[float] = []
        base_cpu: list[float] = []
        guarded_cpu: list[float] = []
        for _ in range(runs):
            for contender, sink, cpu in ((baseline, base, base_cpu), (gated, guarded, guarded_cpu)):
                started_cpu = time.process_time_ns()
                started = time.perf_counter_ns()
                contender()
                sink.append((time.perf_counter_ns() - started) / 1e6)
                cpu.append((time.process_time_ns() - started_cpu) / 1e6)
    finally:
        close()
    p50_base, p50_gated = statistics.median(base), statistics.median(guarded)
    return {
        "framework": framework,
        "runs": runs,
        "tool_calls_per_run": steps,
        "baseline_run_p50_ms": round(p50_base, 3),
        "gated_run_p50_ms": round(p50_gated, 3),
        "added_per_tool_call_p50_ms": round((p50_gated - p50_base) / steps, 4),
        "added_cpu_per_tool_call_p50_ms": round(
            (statistics.median(guarded_cpu) - statistics.median(base_cpu)) / steps, 4
        ),
        "baseline_per_tool_call_p50_ms": round(p50_base / (steps + 1), 4),
    }


def median_of_rounds(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """One framework's figures: the median over rounds of each, and every round's added
    p50 per tool call."""
    out = dict(rounds[0])
    for key, value in rounds[0].items():
        if isinstance(value, float):
            out[key] = round(statistics.median(r[key] for r in rounds), 4)
    out["rounds"] = len(rounds)
    out["rounds_added_per_tool_call_p50_ms"] = [r["added_per_tool_call_p50_ms"] for r in rounds]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--steps", type=int, default=12)
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--framework", choices=sorted(FRAMEWORKS), action="append")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    if options.rounds < 1:
        parser.error("--rounds must be at least 1")
    frameworks = options.framework or sorted(FRAMEWORKS)
    rounds: dict[str, list[dict[str, Any]]] = {f: [] for f in frameworks}
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-bridges-") as tmp:
        project = setup(Path(tmp), options.rules)
        for _ in range(options.rounds):
            for framework in frameworks:
                rounds[framework].append(measure(framework, options.runs, options.steps, project))
    results = [median_of_rounds(rounds[f]) for f in frameworks]
    if options.json:
        print(json.dumps(results, indent=1))
    else:
        print(
            f"{options.runs} runs per contender, {options.steps} tool calls per run, "
            f"{options.rules} rules + every rule pack, median of {options.rounds} round(s)"
        )
        print(
            f"{'framework':<15} {'run p50 ms':>11} {'gated run p50':>14} "
            f"{'added/call p50 ms':>18} {'CPU added/call':>15}"
        )
        for r in results:
            print(
                f"{r['framework']:<15} {r['baseline_run_p50_ms']:>11.2f} "
                f"{r['gated_run_p50_ms']:>14.2f} {r['added_per_tool_call_p50_ms']:>18.4f} "
                f"{r['added_cpu_per_tool_call_p50_ms']:>15.4f}"
            )
        if options.rounds > 1:
            for r in results:
                each = ", ".join(f"{x:.3f}" for x in r["rounds_added_per_tool_call_p50_ms"])
                print(f"{r['framework']:<15} added/call p50 per round: {each}")
        print("target: <= 1 ms added per tool call (p50)")
    return 0 if all(r["added_per_tool_call_p50_ms"] <= 1.0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
