"""A host runtime driven by an event table: Claude Code, Codex, and any later host.

Each host contributes its table (protocol/), its reading of a run, its decision rule and
its matcher; validating, building the input, planning, running and the outcome are this
one code for all of them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from hookwise.config.claude.http_limits import HttpHookLimits
from hookwise.config.dialect_hooks import DialectHooks
from hookwise.config.mcp_servers import McpServers
from hookwise.config.model import HookEntry, Source
from hookwise.config.registry import Registry
from hookwise.config.timeouts import claude_session_end_budget_ms, seconds_or_default
from hookwise.host.aggregate import Aggregate
from hookwise.host.dialect_answers import DialectEffect, Reading
from hookwise.host.execute import ExecutionSettings, HookRun, RunHooks
from hookwise.host.interpret import Interpretation
from hookwise.host.plan import MatchContext, Plan
from hookwise.host.runtime import LoadedHooks, LoadOptions
from hookwise.protocol.dialect import DialectEvent, DialectSpec
from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_string, spread
from hookwise.protocol.profiles import DEFAULT_PROFILE

# Reads a project's hook settings: (workspace, options) -> the registry and warnings.
Loader = Callable[[str, LoadOptions], DialectHooks]


@dataclass(frozen=True)
class DialectRuntime:
    spec: DialectSpec
    read: Callable[[DialectEvent, str, str, int | None], Reading]
    decide: Callable[[DialectEvent, Sequence[Reading]], DialectEffect]
    matches: Callable[[JSON, JSON], bool]
    # the variables naming the project directory (a host may set several), if any
    project_env: str | tuple[str, ...] | None
    loader: Loader | None = None  # None: the host has no settings files (hooks from code)
    # the host's own check of an answer after reading it (Claude Code's output schema);
    # the executor applies it, the service's parse-output validates in its own way
    check: Callable[[DialectEvent, Reading], Reading] | None = None
    # the last step, knowing the event's arguments (Codex cuts a blocked call's reason
    # together with the frame that names the command)
    finish: Callable[[DialectEvent, DialectEffect, Mapping[str, JSON]], DialectEffect] | None = None
    timeout_unit: str = "s"  # the unit of a handler's ``timeout`` (HostInfo.timeout_unit)
    # the common fields per event where they differ from the table's (Copilot's camelCase
    # keys), and the session's field each host-named one takes its value from
    event_common: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    # the MCP servers the host would have connected, for its mcp_tool hooks (None: none)
    mcp_loader: Callable[[str, LoadOptions, DialectHooks], McpServers] | None = None
    # the settings' limits on http hooks (Claude Code), from the loaded hooks (None: none)
    http_limits: Callable[[DialectHooks], HttpHookLimits] | None = None

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def table(self) -> DialectSpec:
        return self.spec

    def events(self) -> tuple[str, ...]:
        return tuple(self.spec.events)

    def load(self, project_dir: str | os.PathLike[str], options: LoadOptions) -> LoadedHooks:
        """The host's settings files through its loader, every hook running in the project."""
        workspace = str(Path(os.path.realpath(os.path.abspath(project_dir))))
        if self.loader is None:
            loaded = DialectHooks(self.name, Registry([], []))
        else:
            loaded = self.loader(workspace, options)
        execution = ExecutionSettings(
            profile=DEFAULT_PROFILE, base_env={**options.env, **loaded.env}, default_cwd=workspace
        )
        if self.mcp_loader is not None:
            execution.mcp = self.mcp_loader(workspace, options, loaded)
            loaded.warnings.extend(execution.mcp.warnings)
        if self.http_limits is not None:
            execution.http_limits = self.http_limits(loaded)
            loaded.warnings.extend(execution.http_limits.warnings)
        return LoadedHooks(
            loaded.registry, workspace, execution, loaded.warnings, list(loaded.untrusted)
        )

    def validate(self, event: str, args: Mapping[str, JSON]) -> list[str]:
        spec = self.spec.event(event)
        problems = []
        for name in spec.input_fields:
            if name not in args:
                if name in self.spec.required_input:
                    problems.append(f"missing field '{name}'")
                continue
            kinds = self.spec.input_types.get(name)
            value = args[name]
            wrong = isinstance(value, bool) and bool not in kinds if kinds else False
            if kinds and (wrong or not isinstance(value, kinds)):
                expected = " or ".join(k.__name__ for k in kinds)
                problems.append(f"field '{name}' must be {expected}")
        return problems

    def build_input(
        self, event: str, base: Mapping[str, JSON], args: Mapping[str, JSON]
    ) -> dict[str, JSON]:
        """The table's common fields first (the session's, or an argument with the table's
        default), then the event's own, as the host sends them."""
        self.spec.event(event)
        defaults = self.spec.input_defaults
        payload: dict[str, JSON] = {}
        own = self.spec.event(event).input_fields
        for name in self.event_common.get(event, self.spec.common_input):
            if name == "hook_event_name":
                payload[name] = event
            elif name in own:  # an event field the host sends among the common ones
                if name in args:
                    payload[name] = args[name]
            elif name in self.spec.session_input:
                value = args.get(name, base.get(name))
                if value is not None:
                    payload[name] = value
            elif name in defaults:
                payload[name] = args.get(name, defaults[name])
            else:
                payload[name] = base.get(name, base.get(self.aliases.get(name, name)))
        for key, value in args.items():
            if key not in defaults:
                payload[key] = value
        payload.update(self.spec.event(event).fixed_input)
        return payload

    def match_context(self, event: str, payload: Mapping[str, JSON]) -> MatchContext | None:
        """None: the plan reads the table's matcher field from the payload itself."""
        return None

    def plan(
        self,
        registry: Registry,
        event: str,
        payload: Mapping[str, JSON],
        context: MatchContext | None = None,
        warnings: list[str] | None = None,
    ) -> Plan | None:
        """Every matching hook, in parallel; an identical handler from several settings
        files runs once where the host merges them (a plugin's copy stays separate)."""
        spec = self.spec.event(event)
        entries = registry.for_event(event)
        subject = payload.get(spec.matcher_field) if spec.matcher_field else None
        if spec.matcher_basename and isinstance(subject, str):
            subject = os.path.basename(subject)
        chosen: list[HookEntry] = []
        seen: set[tuple[str, str]] = set()
        for entry in entries:
            if spec.matcher_field is not None and not self.matches(entry.matcher, subject):
                continue
            key = (
                _identity(entry.config),
                entry.origin
                if entry.source is Source.EXTENSIONS
                else ("" if self.spec.merges_identical_handlers else _file_of(entry.origin)),
            )
            if key in seen:
                continue
            seen.add(key)
            chosen.append(entry)
        return Plan(event, chosen, False) if chosen else None

    def effect(self, event: str, runs: Sequence[HookRun]) -> DialectEffect:
        spec = self.spec.event(event)
        readings = [
            replace(
                r.reading if isinstance(r.reading, Reading) else _failed_run(r),
                handler=js_string(r.entry.config.get("type", "command")),
            )
            for r in runs
        ]
        return self.decide(spec, readings)

    def conclude(
        self,
        event: str,
        plan: Plan | None,
        runs: Sequence[HookRun],
        args: Mapping[str, JSON],
        error: Exception | None,
    ) -> tuple[Aggregate, DialectEffect]:
        """Every hook ran in parallel: the effect is the table's decision rule over all
        readings (the aggregate only lists the answers)."""
        if error is not None:
            return Aggregate(False, None, [], [str(error)]), self.effect(event, [])
        outputs = [r.output for r in runs if r.output is not None]
        errors = [r.error for r in runs if r.error is not None]
        effect = self.effect(event, runs)
        if self.finish is not None:
            # the last step reads the input the hooks got (the session's cwd too), the
            # event's own arguments winning
            given = (
                {k: v for k, v in runs[0].stdin.items() if k != "hook_event_name"} if runs else {}
            )
            effect = self.finish(self.spec.event(event), effect, {**given, **args})
        return Aggregate(all(r.success for r in runs), None, outputs, errors), effect

    def hooks(
        self, settings: ExecutionSettings, project_dir: str, registry: Registry | None = None
    ) -> RunHooks:
        """The executor's view: reader, timeouts in seconds, environment."""

        def reader(event: str, stdout: str, stderr: str, code: int | None) -> Interpretation:
            spec = self.spec.event(event)
            reading = self.read(spec, stdout, stderr, code)
            if self.check is not None:
                reading = self.check(spec, reading)
            fmt = "json" if reading.answer is not None else ("text" if reading.text else None)
            warnings = (reading.problem,) if reading.problem else ()
            return Interpretation(reading.answer, fmt, warnings, reading)

        def timeout(entry: HookEntry) -> tuple[float, str]:
            event = self.spec.event(entry.event)
            seconds = seconds_or_default(event, entry.config, self.timeout_unit)
            if event.shared_budget and registry is not None:
                # the hooks run in parallel, so the shared budget is each one's deadline;
                # plugin hooks' own timeouts do not raise it
                configured = [
                    e.config
                    for e in registry.for_event(entry.event)
                    if not e.scope.startswith("plugin:")
                ]
                base = os.environ if settings.base_env is None else settings.base_env
                budget_s = claude_session_end_budget_ms(configured, base) / 1000.0
                seconds = min(seconds, budget_s)
            if event.wait_cap_s is not None:
                seconds = min(seconds, event.wait_cap_s)
            return seconds * 1000.0, f"{js_string(seconds)} s"

        def environment(
            base: Mapping[str, str], payload: dict[str, JSON], hook_env: JSON, event: str
        ) -> dict[str, str]:
            env = dict(base)
            names = (self.project_env,) if isinstance(self.project_env, str) else self.project_env
            for name in names or ():
                env[name] = project_dir
            if event in self.spec.events:
                env.update(self.spec.events[event].env)
            env.update({k: js_string(v) for k, v in spread(hook_env).items() if v is not UNDEFINED})
            return env

        def async_context(event: str, stdout: str, stderr: str, code: int | None) -> str | None:
            # read as a waited-for run would be (exit 2's JSON too, where the host keeps it);
            # only the context is used: the call has already gone on
            answer = reader(event, stdout, stderr, code).output
            specific = answer.get("hookSpecificOutput") if isinstance(answer, dict) else None
            context = specific.get("additionalContext") if isinstance(specific, dict) else None
            return context if isinstance(context, str) else None

        def detached(entry: HookEntry) -> bool:
            config = entry.config
            return (
                self.spec.async_commands_detached
                and config.get("async") is True
                and config.get("type", "command") == "command"
            )

        return RunHooks(
            reader,
            timeout,
            environment,
            detached=detached,
            async_context=async_context if self.spec.async_context_joins_next_request else None,
            mcp_rules=self.spec.mcp_hook,
        )


def _identity(config: Mapping[str, JSON]) -> str:
    """What makes two handlers the same one: a command's text; for the other types
    (http, mcp_tool, prompt, agent) everything but the timeout and status line."""
    kind = config.get("type", "command")
    if kind in ("command", "runtime"):
        return js_string(config.get("command"))
    same = {k: v for k, v in config.items() if k not in ("timeout", "statusMessage")}
    return json.dumps(same, sort_keys=True, default=str)


def _file_of(origin: str) -> str:
    """The settings file of an origin (``path#/hooks/Event/0/hooks/1``)."""
    return origin.partition("#")[0]


def _failed_run(run: HookRun) -> Reading:
    """A hook that never produced a reading (timeout, spawn error): it failed, no answer."""
    return Reading("failed", None, "", run.stderr or "", None, run.error or "hook failed")
