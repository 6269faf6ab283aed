"""A coding agent built with smolagents, behind hookwise.

    pip install "hookwise[smolagents]"
    export OPENAI_API_KEY=...            # OPENAI_BASE_URL for another endpoint
    python smolagents_agent.py --cwd path/to/project "clean the build directory"
    python smolagents_agent.py --code ...  # a CodeAgent: the model writes Python calling the tool

smolagents has no gate before a tool, so hookwise wraps every tool of the agent. The
project's .hookwise/policy.yaml (and, with --hooks-from claude, its existing Claude Code
hooks) decides every shell command the agent asks for, also from inside a CodeAgent's code:
a denied command never runs and the model reads the reason; a rewritten one runs
rewritten. smolagents cannot pause for a person, so a command the policy asks about goes to
the approval relay when one is configured, else the policy's ask_fallback (deny by default).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from smolagents import CodeAgent, OpenAIServerModel, Tool, ToolCallingAgent, tool

from hookwise.integrations.smolagents import guard


def make_tools(cwd: str) -> list[Tool]:
    @tool
    def run_shell(command: str) -> str:
        """Run a shell command in the project directory and return its output.

        Args:
            command: the command line to run
        """
        done = subprocess.run(
            command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
        )
        return (done.stdout + done.stderr).strip() or f"(exit {done.returncode})"

    return [run_shell]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("prompt")
    parser.add_argument("--cwd", default=os.getcwd(), help="the project (its policy applies)")
    parser.add_argument("--model", default=os.environ.get("HOOKWISE_EXAMPLE_MODEL", "gpt-4.1"))
    parser.add_argument("--hooks-from", choices=["claude", "gemini", "codex"])
    parser.add_argument("--code", action="store_true", help="a CodeAgent instead of tool calls")
    args = parser.parse_args()

    model = OpenAIServerModel(
        model_id=args.model,
        api_base=os.environ.get("OPENAI_BASE_URL"),
        api_key=os.environ.get("OPENAI_API_KEY"),
    )
    kind = CodeAgent if args.code else ToolCallingAgent
    agent = kind(tools=make_tools(args.cwd), model=model, name="coder", max_steps=8)
    guard(agent, cwd=args.cwd, hooks_from=args.hooks_from)
    print(agent.run(args.prompt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
