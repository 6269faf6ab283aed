"""Benchmark: what the pydantic-ai, Google ADK and smolagents bridges add to a tool call.

``bench/integration_gate.py`` measures the Gate alone; this measures each bridge the way an
application runs it, through the framework's own tool-call path, against the same framework
without the bridge, in the same run (interleaved chunks, so machine load hits both):

- **pydantic-ai**: ``Agent.run`` of a ``FunctionModel`` (in process, no HTTP) that asks for
  ``--batch`` tool calls in one response, then answers; with and without
  ``HookwiseCapability``;
- **google-adk**: ``Runner.run_async`` (in-memory sessions) of an ``LlmAgent`` whose model
  (an in-process ``BaseLlm``) asks for ``--batch`` function calls, then answers; with and
  without ``HookwisePlugin``;
- **smolagents**: ``ToolCallingAgent.execute_tool_call`` (smolagents' own dispatch:
  argument validation, the tool's ``__call__``), one call; with and without ``guard()``.

The gated runs use the 200-rule policy plus every rule pack of ``bench/integration_gate.py``
(trusted project, audit log on). A pydantic-ai or ADK run also decides its prompt and its
end once; the figure per tool call is (gated run - plain run) / batch, so those two are
spread over the batch. Tool calls rotate over an allowed shell command and a file write
(a denied call would skip the tool and make the gated run cheaper). Printed: p50 per
contender and the p50 added per tool call (target <= 1 ms; exit status 1 when missed).
Usage::

    .venv/bin/python bench/bridge_tool_call.py [--runs 200] [--batch 10] [--rules 200] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from integration_gate import percentile, setup  # noqa: E402

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("run_shell", {"command": "npm test -- --watch=false | tee log.txt"}),  # allowed
    ("write_file", {"path": "src/app.py", "content": "print('hi')\n"}),  # allowed
]


def run_shell(command: str) -> str:
    """Run a shell command (not really: the same small work for both contenders)."""
    return f"ran {len(command)} characters"


def write_file(path: str, content: str) -> str:
    """Write a file (not really)."""
    return f"wrote {len(content)} characters to {path}"


# --------------------------------------------------------------------------- pydantic-ai
def pydantic_ai_contenders(
    project: Path, batch: int
) -> tuple[Callable[[], Any], Callable[[], Any]]:
    from pydantic_ai import Agent, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.messages import ModelMessage
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from hookwise.integrations.pydantic_ai import HookwiseCapability

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:
            parts = [
                ToolCallPart(
                    CALLS[i % len(CALLS)][0], CALLS[i % len(CALLS)][1], tool_call_id=f"c{i}"
                )
                for i in range(batch)
            ]
            return ModelResponse(parts=list(parts))
        return ModelResponse(parts=[TextPart("done")])

    def agent(gated: bool) -> Agent[None, str]:
        caps = [HookwiseCapability(cwd=project, agent="bench")] if gated else []
        made: Agent[None, str] = Agent(FunctionModel(model), capabilities=caps)
        made.tool_plain(run_shell)
        made.tool_plain(write_file)
        return made

    plain, gated = agent(False), agent(True)
    return (lambda: plain.run_sync("go")), (lambda: gated.run_sync("go"))


# --------------------------------------------------------------------------- google-adk
def adk_contenders(project: Path, batch: int) -> tuple[Callable[[], Any], Callable[[], Any]]:
    from google.adk.agents import LlmAgent
    from google.adk.apps import App
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest
    from google.adk.models.llm_response import LlmResponse
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    from hookwise.integrations.google_adk import HookwisePlugin

    class BatchModel(BaseLlm):
        """Asks for ``batch`` function calls, then answers (no network)."""

        async def generate_content_async(
            self, llm_request: LlmRequest, stream: bool = False
        ) -> AsyncGenerator[LlmResponse, None]:
            answered = any(
                p.function_response for c in llm_request.contents for p in (c.parts or [])
            )
            if answered:
                parts = [types.Part(text="done")]
            else:
                parts = [
                    types.Part(
                        function_call=types.FunctionCall(
                            id=f"c{i}", name=CALLS[i % len(CALLS)][0], args=CALLS[i % len(CALLS)][1]
                        )
                    )
                    for i in range(batch)
                ]
            usage = types.GenerateContentResponseUsageMetadata(
                prompt_token_count=1, candidates_token_count=1, total_token_count=2
            )
            yield LlmResponse(
                content=types.Content(role="model", parts=parts), usage_metadata=usage
            )

    def runner(gated: bool) -> Callable[[], Any]:
        agent = LlmAgent(
            name="bench", model=BatchModel(model="batch"), tools=[run_shell, write_file]
        )
        plugins = [HookwisePlugin(cwd=project)] if gated else []
        sessions = InMemorySessionService()
        made = Runner(
            app=App(name="bench", root_agent=agent, plugins=plugins), session_service=sessions
        )
        loop = asyncio.new_event_loop()

        async def one() -> None:
            session = await sessions.create_session(app_name="bench", user_id="u")
            message = types.Content(role="user", parts=[types.Part(text="go")])
            async for _ in made.run_async(user_id="u", session_id=session.id, new_message=message):
                pass

        return lambda: loop.run_until_complete(one())

    return runner(False), runner(True)


# --------------------------------------------------------------------------- smolagents
def smolagents_contenders(project: Path, batch: int) -> tuple[Callable[[], Any], Callable[[], Any]]:
    from smolagents import OpenAIServerModel, ToolCallingAgent, tool

    from hookwise.integrations.smolagents import guard

    def make() -> ToolCallingAgent:
        @tool
        def run_shell(command: str) -> str:
            """Run a shell command.

            Args:
                command: the command line
            """
            return f"ran {len(command)} characters"

        @tool
        def write_file(path: str, content: str) -> str:
            """Write a file.

            Args:
                path: where
                content: what
            """
            return f"wrote {len(content)} characters to {path}"

        model = OpenAIServerModel(model_id="m", api_base="http://127.0.0.1:9/v1", api_key="x")
        return ToolCallingAgent(tools=[run_shell, write_file], model=model, verbosity_level=0)

    plain = make()
    gated = guard(make(), cwd=project, agent="bench")
    counter = {"i": 0}

    def call(agent: ToolCallingAgent) -> Callable[[], Any]:
        def one() -> Any:
            counter["i"] += 1
            name, args = CALLS[counter["i"] % len(CALLS)]
            return agent.execute_tool_call(name, dict(args))

        return one

    return call(plain), call(gated)


FRAMEWORKS: dict[str, Callable[[Path, int], tuple[Callable[[], Any], Callable[[], Any]]]] = {
    "pydantic-ai": pydantic_ai_contenders,
    "google-adk": adk_contenders,
    "smolagents": smolagents_contenders,
}


def gate_alone(project: Path, framework: str, calls: int, whole_run: bool) -> Callable[[], Any]:
    """The Gate's own decisions of one run, without the framework: ``calls`` tool calls
    (before and after), plus the prompt and the end when the bridge decides them."""
    from hookwise.integrations import Gate

    gate = Gate(framework, agent="bench-gate", cwd=project)

    def one() -> None:
        if whole_run:
            gate.prompt("go")
        for index in range(calls):
            name, args = CALLS[index % len(CALLS)]
            gate.before_tool(name, args)
            gate.after_tool(name, args, "ok")
        if whole_run:
            gate.end("done")

    return one


def measure(framework: str, project: Path, runs: int, batch: int) -> dict[str, Any]:
    per_run = batch if framework != "smolagents" else 1
    plain, gated = FRAMEWORKS[framework](project, batch)
    alone = gate_alone(project, framework, per_run, framework != "smolagents")
    for _ in range(5):  # warm up: imports, the compiled policy
        plain()
        gated()
        alone()
    base: list[float] = []
    with_bridge: list[float] = []
    gate_only: list[float] = []
    chunk = 10
    done = 0
    while done < runs:
        for contender, sink in ((plain, base), (gated, with_bridge), (alone, gate_only)):
            for _ in range(min(chunk, runs - done)):
                started = time.perf_counter_ns()
                contender()
                sink.append((time.perf_counter_ns() - started) / 1e6)
        done += chunk
    p50_base, p50_gated = statistics.median(base), statistics.median(with_bridge)
    p50_gate = statistics.median(gate_only)
    return {
        "framework": framework,
        "tool_calls_per_run": per_run,
        "runs": runs,
        "plain_p50_ms": round(p50_base, 4),
        "plain_p99_ms": round(percentile(base, 0.99), 4),
        "gated_p50_ms": round(p50_gated, 4),
        "gated_p99_ms": round(percentile(with_bridge, 0.99), 4),
        "added_per_tool_call_p50_ms": round((p50_gated - p50_base) / per_run, 4),
        # the part of it that is the Gate's decisions, and the rest: the bridge's own layer
        "gate_per_tool_call_p50_ms": round(p50_gate / per_run, 4),
        "bridge_layer_per_tool_call_p50_ms": round((p50_gated - p50_base - p50_gate) / per_run, 4),
        "ratio_p50": round(p50_gated / p50_base, 2) if p50_base else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--batch", type=int, default=10, help="tool calls per agent run")
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--framework", choices=sorted(FRAMEWORKS), action="append")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory(prefix="hookwise-bench-bridges-") as tmp:
        project = setup(Path(tmp), options.rules)
        for framework in options.framework or list(FRAMEWORKS):
            results.append(measure(framework, project, options.runs, options.batch))
    if options.json:
        print(json.dumps(results, indent=1))
    else:
        print(f"{options.rules} rules + every rule pack; {options.runs} runs per contender")
        head = ("framework", "calls/run", "plain p50", "gated p50", "added/call", "gate", "layer")
        print("{:<12} {:>9} {:>10} {:>10} {:>11} {:>8} {:>8}".format(*head))
        for r in results:
            print(
                f"{r['framework']:<12} {r['tool_calls_per_run']:>9} {r['plain_p50_ms']:>10.3f} "
                f"{r['gated_p50_ms']:>10.3f} {r['added_per_tool_call_p50_ms']:>11.4f} "
                f"{r['gate_per_tool_call_p50_ms']:>8.4f} "
                f"{r['bridge_layer_per_tool_call_p50_ms']:>8.4f}"
            )
        print(
            "ms; added/call = (gated - plain) p50 per run / tool calls per run (target <= 1 ms);\n"
            "gate = the Gate's own decisions per tool call (prompt and end spread over the run),\n"
            "layer = added/call - gate: what the bridge itself adds around them"
        )
    return 0 if all(r["added_per_tool_call_p50_ms"] <= 1.0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
