"""HookSystem: the facade an agent loop embeds to run a host's hooks.

fire(event, args) asks the host's runtime to validate and build the hook input, plan,
run and read the hooks, and conclude them into the effect the agent must apply; the
facade itself never asks which host it runs. Async first; fire_sync runs the same
pipeline with no event loop at all.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from hookwise.config.model import HookEntry, Source
from hookwise.config.registry import HooksObject, Registry, build_registry, validate_hook_config
from hookwise.host.aggregate import Aggregate
from hookwise.host.effect import (
    Effect,
    ModelRequestEffect,
    ModelResponseEffect,
    PromptEffect,
    ResponseEffect,
    ToolCallEffect,
    ToolResultEffect,
    ToolSelectionEffect,
)
from hookwise.host.execute import ExecutionSettings, HookExecutor, HookRun
from hookwise.host.plan import MatchContext, Plan
from hookwise.host.runtime import HostRuntime
from hookwise.host.runtimes import runtime_for
from hookwise.protocol.jsvalue import JSON, JSTypeError
from hookwise.protocol.profiles import DEFAULT_PROFILE, Profile

_T = TypeVar("_T")


class PayloadError(ValueError):
    """The event arguments do not match the event's schema; no hook was started."""


@dataclass
class FireResult:
    """Everything one event did: plan, runs, the merged answer and the effect."""

    event: str
    input: dict[str, JSON]
    context: MatchContext | None
    plan: Plan | None
    runs: list[HookRun]
    aggregate: Aggregate
    effect: Effect
    error: str | None = None  # the engine's catch-all: planning or chaining failed
    warnings: list[str] = field(default_factory=list)


def iso_timestamp() -> str:
    """``new Date().toISOString()``: UTC, milliseconds, Z."""
    now = time.time()
    parts = time.gmtime(now)
    millis = int(now * 1000) % 1000
    return time.strftime("%Y-%m-%dT%H:%M:%S", parts) + f".{millis:03d}Z"


class HookSystem:
    """Runs the hooks of one registry for one session."""

    def __init__(
        self,
        registry: Registry,
        *,
        profile: Profile = DEFAULT_PROFILE,
        cwd: str | None = None,
        session_id: str | None = None,
        transcript_path: str = "",
        execution: ExecutionSettings | None = None,
        clock: Callable[[], str] = iso_timestamp,
        warnings: Iterable[str] = (),
        dialect: str = "gemini",
        runtime: HostRuntime | None = None,
        untrusted: Iterable[str] = (),
    ) -> None:
        """``runtime`` runs a host not in the registry; else ``dialect`` names the host.

        ``untrusted`` lists the project hooks loading left out for trust (one line each).
        """
        self.registry = registry
        self.profile = profile
        self.cwd = cwd if cwd is not None else os.getcwd()
        self.session_id = session_id if session_id is not None else str(uuid.uuid4())
        self.transcript_path = transcript_path
        self.execution = execution or ExecutionSettings(profile=profile, default_cwd=self.cwd)
        self.execution.profile = profile
        self.runtime = runtime if runtime is not None else runtime_for(dialect, profile)
        self.dialect = self.runtime.name
        self.clock = clock
        self.warnings = [*registry.warnings, *warnings]
        self.untrusted: list[str] = list(untrusted)
        """Project hooks that do not run until the user trusts the project or them."""
        self.session_input: dict[str, JSON] = {}
        """What the embedding loop knows of its session that the host sends where its table
        says (``session_input``: Claude Code's ``prompt_id`` once a prompt was submitted,
        ``effort``); unset, they are left out, as the host leaves them out."""
        self._executor = HookExecutor(
            self.execution, self.runtime.hooks(self.execution, self.cwd, registry)
        )

    def take_async_context(self) -> list[str]:
        """What background (``async: true``) hooks finished since the last call add to the
        next model request: their ``additionalContext`` on Claude Code, nothing on Codex.
        An agent loop calls it before each model request."""
        return self._executor.take_async_context()

    def close(self) -> None:
        """End the session: background (async) hooks still running are killed and the MCP
        servers its mcp_tool hooks connected are stopped, as the hosts do when they exit."""
        self._executor.close()

    def __enter__(self) -> HookSystem:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_hooks(
        cls,
        hooks: JSON,
        *,
        extension_hooks: Sequence[JSON] = (),
        disabled: Sequence[JSON] = (),
        trusted: bool = True,
        profile: Profile = DEFAULT_PROFILE,
        dialect: str = "gemini",
        runtime: HostRuntime | None = None,
        **kwargs: Any,
    ) -> HookSystem:
        """From a settings-style ``hooks`` object (already merged), as the engine sees it."""
        objects = []
        if trusted:
            objects.append(HooksObject(hooks, Source.PROJECT, "settings", "project"))
        for index, ext in enumerate(extension_hooks):
            objects.append(
                HooksObject(ext, Source.EXTENSIONS, f"ext{index}", f"extension:ext{index}")
            )
        chosen = runtime if runtime is not None else runtime_for(dialect, profile)
        registry = build_registry(objects, disabled, dialect=chosen.table)
        return cls(registry, profile=profile, runtime=chosen, **kwargs)

    def register(
        self,
        event: str,
        action: Callable[[dict[str, JSON]], Any] | None = None,
        *,
        command: str | None = None,
        name: str | None = None,
        matcher: str | None = None,
        sequential: bool = False,
        timeout_ms: float | None = None,
    ) -> HookEntry:
        """Add a hook from code: a Python callable (runtime hook) or a shell command."""
        self.runtime.validate(event, {})  # KeyError naming the host's events
        config: dict[str, JSON] = {"type": "runtime" if action is not None else "command"}
        if command is not None:
            config["command"] = command
        if name is not None:
            config["name"] = name
        if timeout_ms is not None:
            config["timeout"] = timeout_ms
        problem = validate_hook_config(config)
        if problem is not None:
            raise ValueError(problem)
        config["source"] = Source.RUNTIME.value
        entry = HookEntry(
            config,
            event,
            Source.RUNTIME,
            matcher=matcher,
            sequential=sequential,
            origin="runtime",
            scope="runtime",
            action=action,
        )
        self.registry.entries.append(entry)
        return entry

    # -- firing -------------------------------------------------------------------------
    def base_input(self, event: str) -> dict[str, JSON]:
        return {
            **self.session_input,
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": self.cwd,
            "hook_event_name": event,
            "timestamp": self.clock(),
        }

    def prepare(
        self, event: str, args: dict[str, JSON] | None = None, *, validate: bool = True
    ) -> tuple[dict[str, JSON], MatchContext | None, dict[str, JSON]]:
        """The stdin object and matcher context for an event's arguments."""
        arguments = dict(args or {})
        problems = self.runtime.validate(event, arguments) if validate else []
        if problems:
            raise PayloadError(f"{event} payload: " + "; ".join(problems))
        payload = self.runtime.build_input(event, self.base_input(event), arguments)
        return payload, self.runtime.match_context(event, payload), arguments

    async def fire(
        self, event: str, args: dict[str, JSON] | None = None, *, validate: bool = True
    ) -> FireResult:
        """Fire an event from its arguments (tool_name/tool_input, prompt, llm_request...)."""
        payload, context, arguments = self.prepare(event, args, validate=validate)
        return await self.fire_input(event, payload, context, args=arguments)

    async def fire_input(
        self,
        event: str,
        payload: dict[str, JSON],
        context: MatchContext | None,
        *,
        args: dict[str, JSON] | None = None,
    ) -> FireResult:
        """Fire with a ready stdin object (sent verbatim) and planner context."""
        warnings: list[str] = []
        plan: Plan | None = None
        runs: list[HookRun] = []
        error: JSTypeError | None = None
        try:
            plan = self._plan(event, payload, context, warnings)
            if plan is not None and plan.hooks:
                runs = await self._executor.run_plan(plan, payload)
        except JSTypeError as exc:
            error = exc
        return self._conclude(event, payload, context, plan, runs, args, warnings, error)

    def fire_sync(
        self, event: str, args: dict[str, JSON] | None = None, *, validate: bool = True
    ) -> FireResult:
        """Blocking fire for agent loops that are not asyncio programs (no event loop)."""
        payload, context, arguments = self.prepare(event, args, validate=validate)
        return self.fire_input_sync(event, payload, context, args=arguments)

    def fire_input_sync(
        self,
        event: str,
        payload: dict[str, JSON],
        context: MatchContext | None,
        *,
        args: dict[str, JSON] | None = None,
    ) -> FireResult:
        """fire_input without an event loop."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError("HookSystem.fire_sync called inside an event loop; await fire()")
        warnings: list[str] = []
        plan: Plan | None = None
        runs: list[HookRun] = []
        error: JSTypeError | None = None
        try:
            plan = self._plan(event, payload, context, warnings)
            if plan is not None and plan.hooks:
                runs = self._executor.run_plan_sync(plan, payload)
        except JSTypeError as exc:
            error = exc
        return self._conclude(event, payload, context, plan, runs, args, warnings, error)

    def _plan(
        self,
        event: str,
        payload: dict[str, JSON],
        context: MatchContext | None,
        warnings: list[str],
    ) -> Plan | None:
        return self.runtime.plan(self.registry, event, payload, context, warnings)

    def _conclude(  # noqa: PLR0917 - the parts of one firing, passed through
        self,
        event: str,
        payload: dict[str, JSON],
        context: MatchContext | None,
        plan: Plan | None,
        runs: list[HookRun],
        args: dict[str, JSON] | None,
        warnings: list[str],
        error: JSTypeError | None,
    ) -> FireResult:
        """Merge the runs into one answer and its effect.

        A planning or chaining error is the engine's catch-all: no answer is used.
        """
        agg, effect = self.runtime.conclude(event, plan, runs, args or {}, error)
        failure = str(error) if error is not None else agg.merge_error
        return FireResult(
            event, payload, context, plan, runs, agg, effect, error=failure, warnings=warnings
        )

    # -- typed conveniences for agent loops ---------------------------------------------
    async def before_tool(
        self, tool_name: str, tool_input: dict[str, JSON], mcp_context: JSON = None
    ) -> ToolCallEffect:
        args: dict[str, JSON] = {"tool_name": tool_name, "tool_input": tool_input}
        if mcp_context is not None:
            args["mcp_context"] = mcp_context
        return _expect((await self.fire("BeforeTool", args)).effect, ToolCallEffect)

    async def after_tool(
        self,
        tool_name: str,
        tool_input: dict[str, JSON],
        tool_response: dict[str, JSON],
        mcp_context: JSON = None,
    ) -> ToolResultEffect:
        args: dict[str, JSON] = {
            "tool_name": tool_name,
            "tool_input": tool_input,
            "tool_response": tool_response,
        }
        if mcp_context is not None:
            args["mcp_context"] = mcp_context
        return _expect((await self.fire("AfterTool", args)).effect, ToolResultEffect)

    async def before_agent(self, prompt: str) -> PromptEffect:
        return _expect((await self.fire("BeforeAgent", {"prompt": prompt})).effect, PromptEffect)

    async def after_agent(
        self, prompt: str, response: str, stop_hook_active: bool = False
    ) -> ResponseEffect:
        args = {"prompt": prompt, "prompt_response": response, "stop_hook_active": stop_hook_active}
        return _expect((await self.fire("AfterAgent", args)).effect, ResponseEffect)

    async def before_model(self, request: dict[str, JSON]) -> ModelRequestEffect:
        result = await self.fire("BeforeModel", {"llm_request": request})
        return _expect(result.effect, ModelRequestEffect)

    async def after_model(
        self, request: dict[str, JSON], chunk: dict[str, JSON]
    ) -> ModelResponseEffect:
        result = await self.fire("AfterModel", {"llm_request": request, "llm_response": chunk})
        return _expect(result.effect, ModelResponseEffect)

    async def before_tool_selection(self, request: dict[str, JSON]) -> ToolSelectionEffect:
        result = await self.fire("BeforeToolSelection", {"llm_request": request})
        return _expect(result.effect, ToolSelectionEffect)


def _expect(effect: Effect, kind: type[_T]) -> _T:
    if not isinstance(effect, kind):
        raise TypeError(f"expected {kind.__name__}, got {type(effect).__name__}")
    return effect


__all__ = ["FireResult", "HookSystem", "PayloadError", "iso_timestamp"]
