"""A coding agent built with the OpenAI Agents SDK, behind hookwise.

    pip install "hookwise[openai-agents]"
    export OPENAI_API_KEY=...            # OPENAI_BASE_URL for another endpoint
    python openai_agents_agent.py --cwd path/to/project "clean the build directory"

The project's .hookwise/policy.yaml (and, with --hooks-from claude, its existing Claude
Code hooks) decides every shell command the agent asks for: a denied command never runs
and the model reads the reason; a rewritten one runs rewritten; one the policy asks about
stops the run until you answer (--yes / --no answer for you, else you are prompted).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys

from agents import Agent, Runner, function_tool, set_tracing_disabled

from hookwise.integrations.openai_agents import guard_agent


def make_agent(cwd: str, model: str) -> Agent:
    @function_tool
    def run_shell(command: str) -> str:
        """Run a shell command in the project directory and return its output."""
        done = subprocess.run(
            command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
        )
        return (done.stdout + done.stderr).strip() or f"(exit {done.returncode})"

    return Agent(
        name="coder",
        instructions="You are a careful coding agent. Use run_shell to work in the project.",
        tools=[run_shell],
        model=model,
    )


def approve(item: object, answer: str | None) -> bool:
    if answer is not None:
        return answer == "yes"
    reply = input(f"hookwise: allow {item}? [y/N] ")
    return reply.strip().lower() in ("y", "yes")


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prompt")
    parser.add_argument("--cwd", default=os.getcwd(), help="the project (its policy applies)")
    parser.add_argument("--model", default=os.environ.get("HOOKWISE_EXAMPLE_MODEL", "gpt-4.1"))
    parser.add_argument("--hooks-from", choices=["claude", "gemini", "codex"])
    answer = parser.add_mutually_exclusive_group()
    answer.add_argument("--yes", dest="answer", action="store_const", const="yes")
    answer.add_argument("--no", dest="answer", action="store_const", const="no")
    args = parser.parse_args()
    set_tracing_disabled(True)

    agent = guard_agent(make_agent(args.cwd, args.model), cwd=args.cwd, hooks_from=args.hooks_from)
    result = await Runner.run(agent, args.prompt)
    while result.interruptions:  # the policy asked: the SDK's own approval flow
        state = result.to_state()
        for item in result.interruptions:
            call = f"{item.tool_name}({item.arguments})"
            if approve(call, args.answer):
                state.approve(item)
            else:
                state.reject(item, rejection_message="The user did not approve this command.")
        result = await Runner.run(agent, state)
    print(result.final_output)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
