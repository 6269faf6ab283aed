"""A minimal agent loop that embeds hookwise's host runtime (see docs/embedding.md).

The "model" is scripted: it first asks to run `rm -rf build`, then, after the tool error,
answers in text. The example project's hooks block the command, and its AfterAgent hook
sends the first answer back because it lacks a summary. Run it with:

    GEMINI_CLI_TRUST_WORKSPACE=true .venv/bin/python examples/embed_loop.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hookwise.host.loading import load_hook_system
from hookwise.host.system import HookSystem
from hookwise.protocol.profiles import Profile

PROJECT = Path(__file__).parent / "gemini-project"


class ScriptedModel:
    """Answers from a list, one Gemini API response per call."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = list(replies)

    def generate(self, request: dict[str, Any]) -> dict[str, Any]:
        return self.replies.pop(0)


def text_reply(text: str) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}}]}


def call_reply(name: str, args: dict[str, Any]) -> dict[str, Any]:
    call = {"functionCall": {"name": name, "args": args}}
    return {"candidates": [{"content": {"role": "model", "parts": [call]}}]}


def run_tool(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"llmContent": f"ran {name} {json.dumps(args)}", "returnDisplay": "ok"}


def agent_turn(hooks: HookSystem, model: ScriptedModel, prompt: str, log: list[str]) -> str:
    before = hooks.fire_sync("BeforeAgent", {"prompt": prompt}).effect
    if before.action != "proceed":  # type: ignore[attr-defined]
        return f"(turn blocked: {before.reason})"  # type: ignore[attr-defined]
    contents: list[Any] = [{"role": "user", "parts": [{"text": prompt}]}]
    request: dict[str, Any] = {"model": "gemini-2.5-pro", "contents": contents, "config": {}}
    for _ in range(8):
        effect = hooks.fire_sync("BeforeModel", {"llm_request": request}).effect
        request = effect.request or request  # type: ignore[attr-defined]
        response = model.generate(request)
        parts = response["candidates"][0]["content"]["parts"]
        calls = [p["functionCall"] for p in parts if "functionCall" in p]
        if not calls:
            text = "".join(p.get("text", "") for p in parts)
            done = hooks.fire_sync("AfterAgent", {"prompt": prompt, "prompt_response": text})
            if done.effect.action == "retry":  # type: ignore[attr-defined]
                log.append(f"retry: {done.effect.reason}")  # type: ignore[attr-defined]
                contents.append({"role": "model", "parts": parts})
                contents.append({"role": "user", "parts": done.effect.retry_prompt})  # type: ignore[attr-defined]
                continue
            return text
        contents.append({"role": "model", "parts": parts})
        for call in calls:
            tool = hooks.fire_sync(
                "BeforeTool", {"tool_name": call["name"], "tool_input": call["args"]}
            )
            if tool.effect.action in ("block", "stop"):  # type: ignore[attr-defined]
                log.append(f"blocked: {tool.effect.error}")  # type: ignore[attr-defined]
                result = {"error": tool.effect.error}  # type: ignore[attr-defined]
            else:
                result = run_tool(call["name"], call["args"])
            contents.append(
                {
                    "role": "user",
                    "parts": [{"functionResponse": {"name": call["name"], "response": result}}],
                }
            )
    return "(turn budget exhausted)"


def main() -> int:
    model = ScriptedModel(
        [
            call_reply("run_shell_command", {"command": "rm -rf build"}),
            text_reply("I could not delete build/."),
            text_reply("I could not delete build/.\nSummary: nothing was deleted."),
        ]
    )
    log: list[str] = []
    hooks = load_hook_system(PROJECT, profile=Profile.DOCUMENTED)
    answer = agent_turn(hooks, model, "clean the build directory", log)
    for line in log:
        print(line)
    print(f"answer: {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
