"""The seam between the simulator and a host: one lifecycle class per agent CLI.

A lifecycle knows where its host fires which hook event and how the agent applies each
effect: `hookwise.sim.gemini` (Gemini CLI) and `hookwise.sim.dialect` (Claude Code, Codex)
are built in. The simulator's driver (`hookwise.sim.runner`) owns everything host-neutral:
the scenario, the turn session (TurnStart/TurnEnd hooks, HookInput, the rollout), the
scripted model replies, the transcript and the expectations. Adding a host is adding a
class with this shape and registering it with `register_host`; what a lifecycle is given
(`SimContext`, `ReplyQueue`, `SimOptions`) is in `hookwise.sim.context`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from hookwise.sim.context import ReplyQueue, SimContext, SimOptions
from hookwise.sim.scenario import Scenario, StepSpec
from hookwise.turns.session import Turn

__all__ = ["HostLifecycle", "available_hosts", "create_lifecycle", "register_host"]


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
    from hookwise.host.runtimes import TABLE_RUNTIMES
    from hookwise.sim.dialect import table_lifecycle
    from hookwise.sim.gemini import GeminiLifecycle

    _HOSTS.setdefault("gemini", GeminiLifecycle)
    for name in TABLE_RUNTIMES:  # every host whose runtime its event table drives
        _HOSTS.setdefault(name, table_lifecycle(name))
