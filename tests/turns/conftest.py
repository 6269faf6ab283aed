"""Helpers for turn-hook tests: a workspace with a hook.toml, and a recording agent."""

from __future__ import annotations

import asyncio
import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwise.turns.events import TurnEvent
from hookwise.turns.session import SubmitOutcome, Turn, TurnSession


def hook_section(section: str, script: str, **extra: Any) -> str:
    """A [turn_start]/[turn_end] table running ``sh -c script`` (as the fork's tests do)."""
    lines = [f"[{section}]", 'command = "sh"', f'args = ["-c", {json.dumps(script)}]']
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def write_hook_toml(workspace: Path, text: str) -> None:
    (workspace / ".agent").mkdir(exist_ok=True)
    (workspace / ".agent" / "hook.toml").write_text(text)


@dataclass
class Agent:
    """A model stand-in: records each turn's input and answers from a list."""

    answers: list[str] = field(default_factory=list)
    inputs: list[list[str]] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    delay: float = 0.0

    async def __call__(self, turn: Turn) -> str | None:
        self.turns.append(turn)
        self.inputs.append(turn.model_input())
        if self.delay:
            await asyncio.sleep(self.delay)
        return self.answers.pop(0) if self.answers else "ok"


@dataclass
class Run:
    session: TurnSession
    events: list[TurnEvent]
    agent: Agent
    outcomes: list[SubmitOutcome]

    def of(self, kind: type[TurnEvent]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def types(self) -> list[str]:
        return [e.type for e in self.events]


def play(
    workspace: Path,
    prompts: list[str] | str = "user input",
    *,
    agent: Agent | None = None,
    setup: Callable[[TurnSession], None] | None = None,
    **kwargs: Any,
) -> Run:
    events: list[TurnEvent] = []
    agent = agent or Agent()
    kwargs.setdefault("rollout_path", workspace / "rollout.jsonl")
    session = TurnSession(workspace, subscribers=[events.append], **kwargs)
    if setup is not None:
        setup(session)
    outcomes: list[SubmitOutcome] = []

    async def main() -> None:
        for prompt in [prompts] if isinstance(prompts, str) else prompts:
            outcomes.append(await session.submit(prompt, agent))

    try:
        asyncio.run(main())
    finally:
        session.close()
    return Run(session, events, agent, outcomes)


def quote(path: Path) -> str:
    return shlex.quote(str(path))
