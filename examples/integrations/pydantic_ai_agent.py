"""A coding agent built with pydantic-ai, behind hookwise.

    pip install "hookwise[pydantic-ai]"
    export OPENAI_API_KEY=...            # OPENAI_BASE_URL for another endpoint
    python pydantic_ai_agent.py --cwd path/to/project "clean the build directory"

The project's .hookwise/policy.yaml (and, with --hooks-from claude, its existing Claude
Code hooks) decides every shell command the agent asks for: a denied command never runs
and the model reads the reason; a rewritten one runs rewritten; one the policy asks about
pauses the run (pydantic-ai's deferred tools) until you answer (--yes / --no answer for
you, else you are prompted).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from pydantic_ai import Agent
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults, ToolDenied

from hookwise.integrations.pydantic_ai import HookwiseCapability

Output = str | DeferredToolRequests


def make_agent(cwd: str, model: str, hooks_from: str | None) -> Agent[None, Output]:
    provider = OpenAIProvider(
        base_url=os.environ.get("OPENAI_BASE_URL"), api_key=os.environ.get("OPENAI_API_KEY")
    )
    agent: Agent[None, Output] = Agent(
        OpenAIChatModel(model, provider=provider),
        name="coder",
        instructions="You are a careful coding agent. Use run_shell to work in the project.",
        # DeferredToolRequests: a call the policy asks about pauses the run for a person
        output_type=[str, DeferredToolRequests],
        capabilities=[HookwiseCapability(cwd=cwd, hooks_from=hooks_from)],
    )

    @agent.tool_plain
    def run_shell(command: str) -> str:
        """Run a shell command in the project directory and return its output."""
        done = subprocess.run(
            command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
        )
        return (done.stdout + done.stderr).strip() or f"(exit {done.returncode})"

    return agent


def approve(call: str, why: str, answer: str | None) -> bool:
    if answer is not None:
        return answer == "yes"
    reply = input(f"hookwise: {why}\nallow {call}? [y/N] ")
    return reply.strip().lower() in ("y", "yes")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("prompt")
    parser.add_argument("--cwd", default=os.getcwd(), help="the project (its policy applies)")
    parser.add_argument("--model", default=os.environ.get("HOOKWISE_EXAMPLE_MODEL", "gpt-4.1"))
    parser.add_argument("--hooks-from", choices=["claude", "gemini", "codex"])
    answer = parser.add_mutually_exclusive_group()
    answer.add_argument("--yes", dest="answer", action="store_const", const="yes")
    answer.add_argument("--no", dest="answer", action="store_const", const="no")
    args = parser.parse_args()

    agent = make_agent(args.cwd, args.model, args.hooks_from)
    result = agent.run_sync(args.prompt)
    while isinstance(result.output, DeferredToolRequests):  # the policy asked
        approvals: dict[str, bool | ToolDenied] = {}
        for call in result.output.approvals:
            why = result.output.metadata.get(call.tool_call_id, {}).get("hookwise", {})
            if approve(f"{call.tool_name}({call.args})", why.get("reason", ""), args.answer):
                approvals[call.tool_call_id] = True
            else:
                approvals[call.tool_call_id] = ToolDenied("The user did not approve this command.")
        result = agent.run_sync(
            message_history=result.all_messages(),
            deferred_tool_results=DeferredToolResults(approvals=approvals),
        )
    print(result.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
