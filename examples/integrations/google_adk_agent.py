"""A coding agent built with Google ADK, behind hookwise.

    pip install "hookwise[google-adk]"
    export GOOGLE_API_KEY=...            # GOOGLE_GEMINI_BASE_URL for another endpoint
    python google_adk_agent.py --cwd path/to/project "clean the build directory"

hookwise is a plugin of the App, so it guards every agent its Runner runs. The project's
.hookwise/policy.yaml (and, with --hooks-from claude, its existing Claude Code hooks)
decides every shell command the agent asks for: a denied command never runs and the model
reads the reason; a rewritten one runs rewritten; one the policy asks about pauses the run
with ADK's tool confirmation until you answer (--yes / --no answer for you, else you are
prompted).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys

from google.adk.agents import LlmAgent
from google.adk.apps import App
from google.adk.models.google_llm import Gemini
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from hookwise.integrations.google_adk import HookwisePlugin

CONFIRMATION = "adk_request_confirmation"  # the function call ADK pauses a run with


def make_agent(cwd: str, model: str) -> LlmAgent:
    def run_shell(command: str) -> dict[str, str]:
        """Run a shell command in the project directory and return its output."""
        done = subprocess.run(
            command, shell=True, cwd=cwd, capture_output=True, text=True, timeout=120, check=False
        )
        return {"output": (done.stdout + done.stderr).strip(), "exit_code": str(done.returncode)}

    return LlmAgent(
        name="coder",
        model=Gemini(model=model, base_url=os.environ.get("GOOGLE_GEMINI_BASE_URL")),
        instruction="You are a careful coding agent. Use run_shell to work in the project.",
        tools=[run_shell],
    )


def approve(hint: str, call: str, answer: str | None) -> bool:
    if answer is not None:
        return answer == "yes"
    reply = input(f"hookwise: {hint}\nallow {call}? [y/N] ")
    return reply.strip().lower() in ("y", "yes")


async def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("prompt")
    parser.add_argument("--cwd", default=os.getcwd(), help="the project (its policy applies)")
    model = os.environ.get("HOOKWISE_EXAMPLE_MODEL", "gemini-2.5-flash")
    parser.add_argument("--model", default=model)
    parser.add_argument("--hooks-from", choices=["claude", "gemini", "codex"])
    answer = parser.add_mutually_exclusive_group()
    answer.add_argument("--yes", dest="answer", action="store_const", const="yes")
    answer.add_argument("--no", dest="answer", action="store_const", const="no")
    args = parser.parse_args()

    sessions = InMemorySessionService()
    app = App(
        name="hookwise-example",
        root_agent=make_agent(args.cwd, args.model),
        plugins=[HookwisePlugin(cwd=args.cwd, hooks_from=args.hooks_from)],
    )
    runner = Runner(app=app, session_service=sessions)
    session = await sessions.create_session(app_name="hookwise-example", user_id="me")
    message: types.Content | None = types.Content(role="user", parts=[types.Part(text=args.prompt)])
    final = ""
    while message is not None:
        answers: list[types.Part] = []
        run = runner.run_async(user_id="me", session_id=session.id, new_message=message)
        async for event in run:
            for call in event.get_function_calls():
                if call.name != CONFIRMATION or not call.args:  # the policy asked
                    continue
                original = call.args.get("originalFunctionCall") or {}
                hint = (call.args.get("toolConfirmation") or {}).get("hint", "")
                shown = f"{original.get('name')}({original.get('args')})"
                confirmed = approve(hint, shown, args.answer)
                answers.append(
                    types.Part(
                        function_response=types.FunctionResponse(
                            id=call.id, name=CONFIRMATION, response={"confirmed": confirmed}
                        )
                    )
                )
            if event.is_final_response() and event.content and event.content.parts:
                final = "".join(p.text or "" for p in event.content.parts) or final
        message = types.Content(role="user", parts=answers) if answers else None
    print(final)
    await runner.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
