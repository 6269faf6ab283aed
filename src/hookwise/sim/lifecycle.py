"""The seam between the simulator and a host: one lifecycle class per agent CLI.

A lifecycle knows where its host fires which hook event and how the agent applies each
effect: `hookwise.sim.gemini` (Gemini CLI) and `hookwise.sim.dialect` (Claude Code, Codex)
are built in. The simulator's driver (`hookwise.sim.runner`) owns everything host-neutral:
the scenario, the turn session (TurnStart/TurnEnd hooks, HookInput, the rollout), the
scripted model replies, the transcript and the expectations. Adding a host is adding a
class with this shape and registering it with `register_host`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from hookwise.sim.scenario import ReplySpec, Scenario, StepSpec
from hookwise.turns.session import Turn, TurnSession

__all__ = [
    "HostLifecycle",
    "ReplyQueue",
    "SimContext",
    "SimOptions",
    "available_hosts",
    "create_lifecycle",
    "register_host",
]


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


class HostLifecycle(Protocol):
    name: str
    event_names: tuple[str, ...]
    profile_name: str  # what the transcript shows

    def check(self, scenario: Scenario) -> None:
        """Host-specific checks of the scenario (event names, enum values); raises
        `ScenarioError` before anything runs."""

    def warnings(self) -> list[str]:
        """Problems found while loading the host's hooks (they do not stop the run)."""

    async def start(self, ctx: SimContext) -> None:
        """Session start (SessionStart for Gemini)."""

    async def compress(self, ctx: SimContext, trigger: str, turn: Turn | None) -> None:
        """Context compression (PreCompress for Gemini)."""

    async def run_turn(
        self, ctx: SimContext, turn: Turn, step: StepSpec, queue: ReplyQueue
    ) -> str | None:
        """One agent turn through the host's hook lifecycle; the agent's last message."""

    async def end(self, ctx: SimContext) -> None:
        """Session end (SessionEnd for Gemini); records the final history."""


LifecycleFactory = Callable[[Scenario, SimOptions, Path], HostLifecycle]
_HOSTS: dict[str, LifecycleFactory] = {}


def register_host(name: str, factory: LifecycleFactory) -> None:
    _HOSTS[name] = factory


def available_hosts() -> tuple[str, ...]:
    _load_builtin()
    return tuple(_HOSTS)


def create_lifecycle(
    name: str, scenario: Scenario, options: SimOptions, workspace: Path
) -> HostLifecycle:
    """The host's lifecycle, its hooks loaded; ValueError for a host without one."""
    _load_builtin()
    factory = _HOSTS.get(name)
    if factory is None:
        raise ValueError(f"unknown host {name!r}; available: {', '.join(_HOSTS)}")
    return factory(scenario, options, workspace)


def _load_builtin() -> None:
    """The built-in hosts, imported on first use; a host registered earlier keeps its
    factory (a test or a plugin may replace one)."""
    from hookwise.sim.dialect import claude_lifecycle, codex_lifecycle
    from hookwise.sim.gemini import GeminiLifecycle

    _HOSTS.setdefault("gemini", GeminiLifecycle)
    _HOSTS.setdefault("claude", claude_lifecycle)
    _HOSTS.setdefault("codex", codex_lifecycle)
