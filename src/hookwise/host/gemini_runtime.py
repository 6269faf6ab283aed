"""Gemini CLI as a host runtime: its event table, both profiles, its merge and effects.

The pieces live in their own modules (events_input, plan, interpret, aggregate, effect);
this module only binds them to the HostRuntime shape for one profile.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from hookwise.config.environment import expand_command, hook_environment
from hookwise.config.gemini.extensions import load_hook_sources
from hookwise.config.gemini.hook_trust import HookTrustReport, check_project_hooks, project_registry
from hookwise.config.gemini.paths import SettingsPaths
from hookwise.config.gemini.settings import LoadedSettings
from hookwise.config.model import HookEntry
from hookwise.config.registry import Registry
from hookwise.config.timeouts import timer_delay_ms
from hookwise.host.aggregate import Aggregate, aggregate
from hookwise.host.effect import Effect, compute_effect
from hookwise.host.execute import (
    ExecutionSettings,
    HookRun,
    RunHooks,
    apply_to_next_input,
)
from hookwise.host.interpret import Interpretation, interpret
from hookwise.host.plan import MatchContext, Plan, create_plan, match_context
from hookwise.host.runtime import LoadedHooks, LoadOptions
from hookwise.protocol.dialect import DialectSpec
from hookwise.protocol.events_input import build_event_input, validate_event_args
from hookwise.protocol.gemini import EVENTS, event_spec
from hookwise.protocol.jsvalue import JSON, UNDEFINED
from hookwise.protocol.profiles import Profile


def default_plans_dir(project_dir: Path, home: Path) -> str:
    """Where plan files go ($GEMINI_PLANS_DIR): a per-project folder under the home."""
    name = project_dir.name or "root"
    return str(home / ".gemini" / "tmp" / name / "plans")


TRUST_WORKSPACE_ENV: Final = "GEMINI_CLI_TRUST_WORKSPACE"


def _untrusted(
    settings: LoadedSettings,
    report: HookTrustReport,
    refuse: Callable[[HookEntry], str | None] | None,
) -> list[str]:
    """The project hooks that will not run for trust: an untrusted folder, or unapproved."""
    if not settings.trusted:
        return [
            f"{entry.name} ({entry.event}, {entry.origin}): {settings.trust.detail}"
            for entry in project_registry(settings).entries
        ]
    if refuse is None:
        return []
    return [
        f"{status.entry.name} ({status.entry.event}, {status.entry.origin}): {why}"
        for status in report.statuses
        if (why := refuse(status.entry)) is not None
    ]


@dataclass(frozen=True)
class GeminiRuntime:
    """Gemini CLI's hooks, read under one profile (documented or gemini-cli)."""

    profile: Profile
    name: str = "gemini"
    table: DialectSpec | None = None

    def events(self) -> tuple[str, ...]:
        return tuple(EVENTS)

    def load(self, project_dir: str | os.PathLike[str], options: LoadOptions) -> LoadedHooks:
        """Settings of every scope, extension hooks, and the project-hook trust check."""
        env = options.env
        paths = options.paths or SettingsPaths.from_environment(
            project_dir, env=env, home=options.home
        )
        trust_env = {**env, TRUST_WORKSPACE_ENV: "true"} if options.trust_workspace else env
        sources = load_hook_sources(paths, profile=self.profile, env=trust_env)
        report = check_project_hooks(sources.settings, record=options.record_trust)
        refuse = None if options.bypass_hook_trust else report.refuse
        workspace = paths.workspace
        execution = ExecutionSettings(
            profile=self.profile,
            base_env=dict(env),
            redaction=sources.settings.redaction,
            plans_dir=default_plans_dir(workspace, paths.home),
            default_cwd=str(workspace),
            refuse=refuse,
        )
        untrusted = _untrusted(sources.settings, report, refuse)
        return LoadedHooks(
            sources.registry(),
            str(workspace),
            execution,
            [*sources.warnings, *report.warnings],
            untrusted,
        )

    def validate(self, event: str, args: Mapping[str, JSON]) -> list[str]:
        event_spec(event)
        return validate_event_args(event, dict(args))

    def build_input(
        self, event: str, base: Mapping[str, JSON], args: Mapping[str, JSON]
    ) -> dict[str, JSON]:
        event_spec(event)
        return build_event_input(event, dict(base), dict(args), self.profile)

    def match_context(self, event: str, payload: Mapping[str, JSON]) -> MatchContext | None:
        return match_context(event, dict(payload), self.profile)

    def plan(
        self,
        registry: Registry,
        event: str,
        payload: Mapping[str, JSON],
        context: MatchContext | None,
        warnings: list[str],
    ) -> Plan | None:
        return create_plan(registry, event, context, warnings)

    def hooks(
        self, settings: ExecutionSettings, project_dir: str, registry: Registry | None = None
    ) -> RunHooks:
        profile = self.profile

        def reader(event: str, stdout: str, stderr: str, code: int | None) -> Interpretation:
            return interpret(profile, event, stdout, stderr, code)

        def timeout(entry: HookEntry) -> tuple[float, str]:
            return timer_delay_ms(entry.config.get("timeout"))

        def environment(
            base: Mapping[str, str], payload: dict[str, JSON], hook_env: JSON, event: str
        ) -> dict[str, str]:
            del event  # Gemini CLI gives every event's hooks the same variables
            cwd = payload.get("cwd")
            return hook_environment(
                base,
                settings.redaction,
                cwd=cwd if cwd is not None else UNDEFINED,
                session_id=payload.get("session_id", UNDEFINED),
                plans_dir=settings.plans_dir,
                hook_env=hook_env,
            )

        def command(text: str, payload: Mapping[str, JSON]) -> str:
            cwd = payload.get("cwd")
            session = payload.get("session_id", UNDEFINED)
            return expand_command(
                text,
                cwd=cwd if isinstance(cwd, str) else "",
                session_id=session if isinstance(session, str) else "",
                plans_dir=settings.plans_dir,
            )

        return RunHooks(reader, timeout, environment, command, apply_to_next_input)

    def conclude(
        self,
        event: str,
        plan: Plan | None,
        runs: Sequence[HookRun],
        args: Mapping[str, JSON],
        error: Exception | None,
    ) -> tuple[Aggregate, Effect]:
        if error is not None:
            agg = Aggregate(False, None, [], [str(error)])
        elif plan is None or not plan.hooks:
            agg = Aggregate(True, None)
        else:
            outputs = [r.output for r in runs if r.output is not None]
            errors = [r.error for r in runs if r.error is not None]
            agg = aggregate(event, outputs, errors, self.profile)
        return agg, compute_effect(event, agg.final, dict(args), self.profile)
