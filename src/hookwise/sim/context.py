"""What a host's lifecycle is given by the simulator's driver: options, the run, replies.

The driver (``runner``) builds these; each lifecycle (``gemini``, ``dialect``, or one a
plugin registers with ``lifecycle.register_host``) and the helpers they share (``common``)
only read and record through them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hookwise.sim.scenario import ReplySpec, Scenario
from hookwise.turns.session import Turn, TurnSession

__all__ = ["ReplyQueue", "SimContext", "SimOptions"]


@dataclass
class SimOptions:
    host: str | None = None  # None: the scenario's, else gemini
    profile: str | None = None  # None: the scenario's, else the host's default
    workspace: Path | None = None  # None: the scenario's
    home: Path | None = None
    env: Mapping[str, str] | None = None
    rollout_path: Path | None = None
    bypass_hook_trust: bool = False  # run project hooks nobody approved (Codex, enforce)
    trust_workspace: bool = False  # treat the workspace as a trusted project (tests, CI)


class ReplyQueue:
    """The scripted replies of one turn; the scenario's default once they run out."""

    def __init__(self, replies: tuple[ReplySpec, ...], default: ReplySpec, label: str) -> None:
        self.replies = list(replies)
        self.default = default
        self.label = label
        self.used = 0

    def next(self) -> tuple[ReplySpec, bool]:
        """The next reply, and whether the scenario scripted it."""
        if self.replies:
            self.used += 1
            return self.replies.pop(0), True
        return self.default, False


@dataclass
class SimContext:
    """What a lifecycle gets: the scenario, the session and where to record."""

    scenario: Scenario
    session: TurnSession
    workspace: Path
    options: SimOptions
    notes: list[str] = field(default_factory=list)

    def record(self, turn: Turn | None, name: str, data: dict[str, Any]) -> None:
        payload = {"turn": turn.index if turn is not None else None, **data}
        if turn is not None:
            turn.record(name, payload)
        else:
            self.session.record(name, payload)
