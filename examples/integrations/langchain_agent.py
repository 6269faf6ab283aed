"""A coding agent built with LangChain v1 (create_agent on LangGraph), behind hookwise.

    pip install "hookwise[langchain]"
    export OPENAI_API_KEY=...            # OPENAI_BASE_URL for another endpoint
    python langchain_agent.py --cwd path/to/project "clean the build directory"

HookwiseMiddleware puts the project's .hookwise/policy.yaml (and, with --hooks-from
claude, its existing Claude Code hooks) in front of every tool call: a denied command
never runs and the model reads the reason; a rewritten one runs rewritten; one the policy
asks about pauses the graph (a LangGraph interrupt) until you answer (--yes / --no answer
for you, else you are prompted), and the run resumes with Command(resume=...).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import uuid

from langchain.agents import create_agent
from langchain_core.tools import StructuredTool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from hookwise.integrations.langchain import HookwiseMiddleware, tool_approval


def shell_tool(cwd: str) -> StructuredTool:
    def run_shell(command: str) -> str:
        """Run a shell command in the project directory and return its output."""
        done = subprocess.run(
            command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
        )
        return (done.stdout + done.stderr).strip() or f"(exit {done.returncode})"

    return StructuredTool.from_function(run_shell)


def decide(request: dict[str, object], answer: str | None) -> dict[str, str]:
    if answer is None:
        reply = input(f"hookwise: {request['description']}\nallow {request['args']}? [y/N] ")
        answer = "yes" if reply.strip().lower() in ("y", "yes") else "no"
    if answer == "yes":
        return {"type": "approve"}
    return {"type": "reject", "message": "The user did not approve this command."}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("prompt")
    parser.add_argument("--cwd", default=os.getcwd(), help="the project (its policy applies)")
    parser.add_argument("--model", default=os.environ.get("HOOKWISE_EXAMPLE_MODEL", "gpt-4.1"))
    parser.add_argument("--hooks-from", choices=["claude", "gemini", "codex"])
    answer = parser.add_mutually_exclusive_group()
    answer.add_argument("--yes", dest="answer", action="store_const", const="yes")
    answer.add_argument("--no", dest="answer", action="store_const", const="no")
    args = parser.parse_args()

    agent = create_agent(
        ChatOpenAI(model=args.model, use_responses_api=False),  # OPENAI_BASE_URL / _API_KEY
        [shell_tool(args.cwd)],
        system_prompt="You are a careful coding agent. Use run_shell to work in the project.",
        middleware=[HookwiseMiddleware(agent="coder", cwd=args.cwd, hooks_from=args.hooks_from)],
        checkpointer=InMemorySaver(),  # interrupts (the policy's "ask") need one
    )
    config = {"configurable": {"thread_id": str(uuid.uuid4())}}
    state = agent.invoke({"messages": [{"role": "user", "content": args.prompt}]}, config)
    while state.get("__interrupt__"):
        [pending] = state["__interrupt__"]
        request = tool_approval(pending.value)
        if request is None:  # another middleware's interrupt: not this example's business
            raise SystemExit(f"unexpected interrupt: {pending.value!r}")
        state = agent.invoke(Command(resume=decide(dict(request), args.answer)), config)
    print(state["messages"][-1].content)
    return 0


if __name__ == "__main__":
    sys.exit(main())
