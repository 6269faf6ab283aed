"""The one shape every host's runtime has, so HookSystem never asks which host it runs.

A runtime validates an event's arguments, builds the stdin object the host sends, plans
which hooks run, tells the executor how to run and read them (timeouts, environment,
command line, chaining), and concludes the runs into one aggregate and one effect.
Gemini CLI, Claude Code and Codex implement it; a new host is its protocol table plus
one module implementing this protocol.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from hookwise.config.gemini.paths import SettingsPaths
from hookwise.config.registry import Registry
from hookwise.host.aggregate import Aggregate
from hookwise.host.effect import Effect
from hookwise.host.execute import ExecutionSettings, HookRun, RunHooks
from hookwise.host.plan import MatchContext, Plan
from hookwise.protocol.dialect import DialectSpec
from hookwise.protocol.jsvalue import JSON


@dataclass
class LoadedHooks:
    """A project's hooks as the host would read them, ready for a HookSystem."""

    registry: Registry
    workspace: str
    execution: ExecutionSettings
    warnings: list[str] = field(default_factory=list)
    untrusted: list[str] = field(default_factory=list)
    """Project hooks left out because nobody trusted the project or them, one line each."""


@dataclass(frozen=True)
class LoadOptions:
    """Where and how to read a project's hooks (each host reads what applies to it)."""

    home: str | os.PathLike[str] | None = None
    env: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    paths: SettingsPaths | None = None  # Gemini CLI's settings locations, when given
    bypass_hook_trust: bool = False
    """Run project hooks whose own approval is missing (Codex hashes, ``enforce`` mode)."""
    trust_workspace: bool = False
    """Treat the project folder as trusted, whatever the host's record says (tests, CI)."""
    record_trust: bool = False
    """Write the host's trust state as the host would on load (Gemini's warn-once stores)."""


class HostRuntime(Protocol):
    """How one host finds, runs and reads its hooks."""

    @property
    def name(self) -> str:
        """The host's registry name (gemini, claude, codex, ...)."""
        ...

    @property
    def table(self) -> DialectSpec | None:
        """The event table the settings loader checks hook entries against (None: Gemini's
        own validation in config/registry)."""
        ...

    def events(self) -> tuple[str, ...]:
        """The host's event names, in the host's order."""
        ...

    def load(self, project_dir: str | os.PathLike[str], options: LoadOptions) -> LoadedHooks:
        """Every hook the host would read for ``project_dir``; problems become warnings."""
        ...

    def validate(self, event: str, args: Mapping[str, JSON]) -> list[str]:
        """Problems with an event's arguments; raises KeyError for an unknown event."""
        ...

    def build_input(
        self, event: str, base: Mapping[str, JSON], args: Mapping[str, JSON]
    ) -> dict[str, JSON]:
        """The stdin object, with the host's common fields and the event's own."""
        ...

    def match_context(self, event: str, payload: Mapping[str, JSON]) -> MatchContext | None:
        """What the planner compares matchers with (None: the runtime reads the payload)."""
        ...

    def plan(
        self,
        registry: Registry,
        event: str,
        payload: Mapping[str, JSON],
        context: MatchContext | None,
        warnings: list[str],
    ) -> Plan | None:
        """The hooks that run, in order; None when none does."""
        ...

    def hooks(
        self, settings: ExecutionSettings, project_dir: str, registry: Registry | None = None
    ) -> RunHooks:
        """The executor's view of this host: reader, timeouts, environment, command.

        ``registry`` is the session's (read when a hook's timeout depends on the others)."""
        ...

    def conclude(
        self,
        event: str,
        plan: Plan | None,
        runs: Sequence[HookRun],
        args: Mapping[str, JSON],
        error: Exception | None,
    ) -> tuple[Aggregate, Effect]:
        """All runs of one event -> the merged answer and the effect the agent applies.

        ``error`` is a planning or chaining failure: the host's catch-all."""
        ...
