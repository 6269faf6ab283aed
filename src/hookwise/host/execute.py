"""Running a plan: one process (or Python callable) per hook, then its interpretation.

Sequential plans feed each successful answer into the next hook's input, the way the
engine chains tool_input, prompt context and llm_request; parallel plans start every
hook at once and keep the results in plan order.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from hookwise.config.claude.http_limits import HttpHookLimits
from hookwise.config.environment import RedactionConfig
from hookwise.config.mcp_servers import McpServers
from hookwise.config.model import HookEntry
from hookwise.config.timeouts import timer_delay_ms
from hookwise.host.detached import NOTE as DETACHED_NOTE
from hookwise.host.detached import DetachedHooks
from hookwise.host.interpret import Interpretation
from hookwise.host.plan import Plan
from hookwise.host.process import ProcessResult, ProcessSpec, arun_processes, run_processes
from hookwise.protocol.dialect import McpHookRules
from hookwise.protocol.gemini import Chain, event_spec
from hookwise.protocol.jsvalue import (
    JSON,
    UNDEFINED,
    get,
    has_property,
    js_json_stringify,
    js_string,
    spread,
    truthy,
)
from hookwise.protocol.profiles import Profile

if TYPE_CHECKING:
    from hookwise.host.handlers.mcp_client import McpSessions
    from hookwise.host.handlers.model import ModelCallback


@dataclass
class HookRun:
    """What one hook did and said."""

    entry: HookEntry
    stdin: dict[str, JSON]
    success: bool
    exit_code: int | None = None  # as the engine reports it (a signal reads 0); None: no exit
    output: JSON = None  # the hook's answer object, None when it gave none
    output_format: str | None = None
    stdout: str | None = None
    stderr: str | None = None
    error: str | None = None
    duration_ms: float = 0.0
    signal: int | None = None
    warnings: tuple[str, ...] = field(default=())
    reading: Any = None  # the dialect's classification (Claude Code, Codex)


RefusalCheck = Callable[[HookEntry], str | None]


@dataclass
class ExecutionSettings:
    """Everything about the machine side of running hooks."""

    profile: Profile = Profile.DOCUMENTED
    base_env: Mapping[str, str] | None = None  # None: this process's environment
    redaction: RedactionConfig = field(default_factory=RedactionConfig)
    plans_dir: str = ""
    default_cwd: str = "."
    max_parallel: int = 32
    kill_grace_ms: float = 5000.0
    max_output_bytes: int = 1024 * 1024
    shell: tuple[str, ...] = ("bash", "-c")
    refuse: RefusalCheck | None = None  # hookwise's trust gate: a reason not to run a hook
    # what handlers other than commands reach: the MCP servers an mcp_tool hook may call,
    # and the embedding application's model for prompt and agent hooks (None: they fail)
    mcp: McpServers = field(default_factory=McpServers)
    model: ModelCallback | None = None  # host/handlers/model.py
    # the settings' limits on http hooks (Claude Code's allowedHttpHookUrls and
    # httpHookAllowedEnvVars); None: none
    http_limits: HttpHookLimits | None = None
    # the session's connected MCP servers (host/handlers/mcp_client.py), made on first use
    mcp_sessions: McpSessions | None = None


# Handler types run in this process rather than as a command (host/handlers/).
HANDLER_TYPES: Final = frozenset({"http", "mcp_tool", "prompt", "agent"})


def _same_command(command: str, _payload: Mapping[str, JSON]) -> str:
    return command


def _no_chain(_event: str, current: dict[str, JSON], _output: JSON) -> dict[str, JSON]:
    return current


def _never(_entry: HookEntry) -> bool:
    return False


@dataclass(frozen=True)
class RunHooks:
    """What the executor asks the host's runtime: how to read a run, its timeout, the
    environment and command line, and how one answer feeds the next sequential hook."""

    reader: Callable[[str, str, str, int | None], Interpretation]
    timeout: Callable[[HookEntry], tuple[float, str]]  # delay in ms, text for messages
    # (base environment, the stdin payload, the handler's own env, the event)
    environment: Callable[[Mapping[str, str], dict[str, JSON], JSON, str], dict[str, str]]
    command: Callable[[str, Mapping[str, JSON]], str] = _same_command
    chain: Callable[[str, dict[str, JSON], JSON], dict[str, JSON]] = _no_chain
    # a command hook the host starts in the background and does not wait for (host/detached.py)
    detached: Callable[[HookEntry], bool] = _never
    # what a finished background hook hands the next model request (event, stdout, stderr,
    # exit code -> context); None: nothing of it is read (host/detached.py)
    async_context: Callable[[str, str, str, int | None], str | None] | None = None
    mcp_rules: McpHookRules | None = None  # how mcp_tool handlers run (the host's table)


def apply_to_next_input(event: str, current: dict[str, JSON], output: JSON) -> dict[str, JSON]:
    """The engine's applyHookOutputToInput, used between sequential hooks."""
    chain = event_spec(event).chain
    modified = dict(current)
    specific = get(output, "hookSpecificOutput")
    if not truthy(specific) or chain is Chain.NONE:
        return modified
    if chain is Chain.PROMPT:
        if has_property(specific, "additionalContext"):
            context = get(specific, "additionalContext")
            if isinstance(context, str) and "prompt" in modified:
                modified["prompt"] = js_string(modified["prompt"]) + "\n\n" + context
    elif chain is Chain.LLM_REQUEST:
        if has_property(specific, "llm_request"):
            partial = get(specific, "llm_request")
            if truthy(partial) and "llm_request" in modified:
                modified["llm_request"] = {
                    **spread(modified["llm_request"]),
                    **spread(partial),
                }
    elif chain is Chain.TOOL_INPUT and has_property(specific, "tool_input"):
        new_input = get(specific, "tool_input")
        if truthy(new_input) and "tool_input" in modified:
            modified["tool_input"] = {**spread(modified["tool_input"]), **spread(new_input)}
    return modified


@dataclass
class _Batch:
    """One batch of hooks started together: what to spawn and where results go."""

    results: list[HookRun | None]
    specs: list[ProcessSpec] = field(default_factory=list)
    spec_slots: list[int] = field(default_factory=list)
    runtime: list[tuple[int, HookEntry]] = field(default_factory=list)
    handlers: list[tuple[int, HookEntry, dict[str, str]]] = field(default_factory=list)


class HookExecutor:
    def __init__(self, settings: ExecutionSettings, hooks: RunHooks) -> None:
        self.settings = settings
        self.hooks = hooks
        self.background = DetachedHooks()

    def take_async_context(self) -> list[str]:
        """The context of the background hooks finished since the last call, for the next
        model request (empty where the host reads nothing of them)."""
        read = self.hooks.async_context
        if read is None:
            return []
        texts = (
            read(e, r.stdout, r.stderr, r.exit_code) for e, r in self.background.take_finished()
        )
        return [text for text in texts if text]

    def close(self) -> None:
        """The session ends: background hooks are killed, MCP servers stopped."""
        self.background.end()
        if self.settings.mcp_sessions is not None:
            self.settings.mcp_sessions.close()

    async def run_plan(self, plan: Plan, payload: dict[str, JSON]) -> list[HookRun]:
        if not plan.sequential:
            return await self._run_batch(plan.event, plan.hooks, payload)
        runs: list[HookRun] = []
        current = payload
        for entry in plan.hooks:
            run = (await self._run_batch(plan.event, [entry], current))[0]
            runs.append(run)
            if run.success and truthy(run.output):
                current = self.hooks.chain(plan.event, current, run.output)
        return runs

    def run_plan_sync(self, plan: Plan, payload: dict[str, JSON]) -> list[HookRun]:
        """The same as run_plan without an event loop (cheaper for synchronous hosts)."""
        if not plan.sequential:
            return self._run_batch_sync(plan.event, plan.hooks, payload)
        runs: list[HookRun] = []
        current = payload
        for entry in plan.hooks:
            run = self._run_batch_sync(plan.event, [entry], current)[0]
            runs.append(run)
            if run.success and truthy(run.output):
                current = self.hooks.chain(plan.event, current, run.output)
        return runs

    async def _run_batch(
        self, event: str, entries: list[HookEntry], payload: dict[str, JSON]
    ) -> list[HookRun]:
        batch = self._prepare(event, entries, payload)
        handler_results = await self._run_handlers(event, batch, payload)
        if batch.runtime:
            processes = (
                arun_processes(batch.specs, self.settings.max_parallel)
                if batch.specs
                else _no_processes()
            )
            process_results, runtime_runs = await asyncio.gather(
                processes,
                asyncio.gather(*(self._run_runtime(e, payload) for _, e in batch.runtime)),
            )
        else:
            process_results = (
                await arun_processes(batch.specs, self.settings.max_parallel) if batch.specs else []
            )
            runtime_runs = []
        return self._complete(
            event,
            entries=entries,
            payload=payload,
            batch=batch,
            process_results=process_results,
            runtime_runs=runtime_runs,
            handler_results=handler_results,
        )

    def _run_batch_sync(
        self, event: str, entries: list[HookEntry], payload: dict[str, JSON]
    ) -> list[HookRun]:
        batch = self._prepare(event, entries, payload)
        process_results = (
            run_processes(batch.specs, self.settings.max_parallel) if batch.specs else []
        )
        runtime_runs: list[HookRun] = []
        if batch.runtime:

            async def runtime() -> list[HookRun]:
                return list(
                    await asyncio.gather(*(self._run_runtime(e, payload) for _, e in batch.runtime))
                )

            runtime_runs = asyncio.run(runtime())
        handler_results = (
            asyncio.run(self._run_handlers(event, batch, payload)) if batch.handlers else []
        )
        return self._complete(
            event,
            entries=entries,
            payload=payload,
            batch=batch,
            process_results=process_results,
            runtime_runs=runtime_runs,
            handler_results=handler_results,
        )

    async def _run_handlers(
        self, event: str, batch: _Batch, payload: dict[str, JSON]
    ) -> list[ProcessResult]:
        """The batch's http, mcp_tool, prompt and agent hooks, all at once."""
        if not batch.handlers:
            return []
        body = js_json_stringify(payload).encode("utf-8", "surrogatepass")
        return list(
            await asyncio.gather(
                *(self._run_handler(event, e, env, payload, body) for _, e, env in batch.handlers)
            )
        )

    async def _run_handler(
        self,
        event: str,
        entry: HookEntry,
        env: dict[str, str],
        payload: dict[str, JSON],
        body: bytes,
    ) -> ProcessResult:
        # loaded on first use: urllib and the MCP client cost a command-only host nothing
        from hookwise.host.handlers.http import run_http
        from hookwise.host.handlers.mcp_tool import run_mcp_tool
        from hookwise.host.handlers.model import run_model_hook

        config = entry.config
        delay, _ = self.hooks.timeout(entry)
        kind = config.get("type")
        if kind == "http":
            limits = self.settings.http_limits
            urls, names = limits.for_scope(entry.scope) if limits is not None else (None, None)
            return await run_http(
                config,
                body,
                env,
                delay,
                self.settings.max_output_bytes,
                allowed_urls=urls,
                allowed_env_vars=names,
            )
        if kind == "mcp_tool":
            from hookwise.host.handlers.mcp_client import McpSessions
            from hookwise.host.handlers.mcp_tool import TEXT_RULES

            cwd = payload.get("cwd")
            if self.settings.mcp_sessions is None:
                self.settings.mcp_sessions = McpSessions()
            return await run_mcp_tool(
                config,
                payload,
                self.settings.mcp,
                sessions=self.settings.mcp_sessions,
                rules=self.hooks.mcp_rules or TEXT_RULES,
                env=env,
                cwd=cwd if isinstance(cwd, str) else self.settings.default_cwd,
                timeout_ms=delay,
            )
        try:
            return await asyncio.wait_for(
                run_model_hook(config, event, payload, self.settings.model), delay / 1000.0
            )
        except TimeoutError:
            return ProcessResult("", "", timed_out=True, duration_ms=delay)

    def _prepare(self, event: str, entries: list[HookEntry], payload: dict[str, JSON]) -> _Batch:
        batch = _Batch(results=[None] * len(entries))
        stdin: bytes | None = None
        base_env: dict[str, str] | None = None
        for index, entry in enumerate(entries):
            refusal = self.settings.refuse(entry) if self.settings.refuse else None
            if refusal is not None:
                batch.results[index] = HookRun(entry, payload, False, error=refusal)
                continue
            if entry.config.get("type") == "runtime":
                batch.runtime.append((index, entry))
                continue
            if entry.config.get("type") in HANDLER_TYPES:
                hook_env = entry.config.get("env", UNDEFINED)
                batch.handlers.append((index, entry, self._environment(event, payload, hook_env)))
                continue
            command = entry.config.get("command")
            if not truthy(command):
                batch.results[index] = HookRun(
                    entry, payload, False, error="Command hook missing command"
                )
                continue
            if stdin is None:
                stdin = js_json_stringify(payload).encode("utf-8", "surrogatepass")
            hook_env = entry.config.get("env", UNDEFINED)
            if hook_env is UNDEFINED:
                if base_env is None:
                    base_env = self._environment(event, payload, UNDEFINED)
                env = base_env
            else:
                env = self._environment(event, payload, hook_env)
            spec = self._spec(entry, js_string(command), payload, stdin, env)
            if self.hooks.detached(entry):
                keep = event if self.hooks.async_context is not None else None
                self.background.start(spec, keep=keep)
                batch.results[index] = self._detached_run(event, entry, payload)
                continue
            batch.specs.append(spec)
            batch.spec_slots.append(index)
        return batch

    def _detached_run(self, event: str, entry: HookEntry, payload: dict[str, JSON]) -> HookRun:
        """A background hook as the event sees it: ran, said nothing."""
        reading = self.hooks.reader(event, "", "", 0)
        return HookRun(entry, payload, True, reading=reading.reading, warnings=(DETACHED_NOTE,))

    def _complete(
        self,
        event: str,
        *,
        entries: list[HookEntry],
        payload: dict[str, JSON],
        batch: _Batch,
        process_results: list[ProcessResult],
        runtime_runs: list[HookRun],
        handler_results: list[ProcessResult],
    ) -> list[HookRun]:
        results = batch.results
        for slot, result in zip(batch.spec_slots, process_results, strict=True):
            results[slot] = self._from_process(event, entries[slot], payload, result)
        for (slot, entry, _), result in zip(batch.handlers, handler_results, strict=True):
            results[slot] = self._from_process(event, entry, payload, result)
        for (slot, _), run in zip(batch.runtime, runtime_runs, strict=True):
            results[slot] = run
        return [r for r in results if r is not None]

    def _environment(self, event: str, payload: dict[str, JSON], hook_env: JSON) -> dict[str, str]:
        base = os.environ if self.settings.base_env is None else self.settings.base_env
        return self.hooks.environment(base, payload, hook_env, event)

    def _spec(
        self,
        entry: HookEntry,
        command: str,
        payload: dict[str, JSON],
        stdin: bytes,
        env: dict[str, str],
    ) -> ProcessSpec:
        cwd_value = payload.get("cwd")
        cwd = cwd_value if isinstance(cwd_value, str) else self.settings.default_cwd
        delay, _ = self.hooks.timeout(entry)
        return ProcessSpec(
            argv=(*self.settings.shell, self.hooks.command(command, payload)),
            stdin=stdin,
            env=env,
            cwd=cwd,
            timeout_ms=delay,
            kill_grace_ms=self.settings.kill_grace_ms,
            max_output_bytes=self.settings.max_output_bytes,
        )

    def _from_process(
        self, event: str, entry: HookEntry, payload: dict[str, JSON], result: ProcessResult
    ) -> HookRun:
        warnings: list[str] = []
        for stream, cut in (
            ("stdout", result.stdout_truncated),
            ("stderr", result.stderr_truncated),
        ):
            if cut:
                warnings.append(f"{stream} truncated at {self.settings.max_output_bytes} bytes")
        if result.spawn_error is not None:
            return HookRun(
                entry,
                payload,
                False,
                stdout=result.stdout,
                stderr=result.stderr,
                error=result.spawn_error,
                duration_ms=result.duration_ms,
                warnings=tuple(warnings),
            )
        if result.timed_out:
            _, label = self.hooks.timeout(entry)
            return HookRun(
                entry,
                payload,
                False,
                stdout=result.stdout,
                stderr=result.stderr,
                error=f"Hook timed out after {label}ms",
                duration_ms=result.duration_ms,
                signal=result.signal,
                warnings=tuple(warnings),
            )
        reading = self.hooks.reader(event, result.stdout, result.stderr, result.exit_code)
        warnings.extend(reading.warnings)
        return HookRun(
            entry,
            payload,
            success=result.exit_code == 0,
            exit_code=result.exit_code or 0,
            output=reading.output,
            output_format=reading.output_format,
            stdout=result.stdout,
            stderr=result.stderr,
            duration_ms=result.duration_ms,
            signal=result.signal,
            warnings=tuple(warnings),
            reading=reading.reading,
        )

    async def _run_runtime(self, entry: HookEntry, payload: dict[str, JSON]) -> HookRun:
        """A hook registered from Python: called with the input, raced against its timeout."""
        delay, label = timer_delay_ms(entry.config.get("timeout"))
        started = time.monotonic()
        action = entry.action
        try:
            if action is None or not callable(action):
                raise TypeError("hookConfig.action is not a function")
            value = action(dict(payload))
            if inspect.isawaitable(value):
                value = await asyncio.wait_for(value, delay / 1000)
        except TimeoutError:
            return HookRun(
                entry,
                payload,
                False,
                error=f"Hook timed out after {label}ms",
                duration_ms=(time.monotonic() - started) * 1000,
            )
        except Exception as exc:
            return HookRun(
                entry,
                payload,
                False,
                error=str(exc) or type(exc).__name__,
                duration_ms=(time.monotonic() - started) * 1000,
            )
        output = None if value is None or value is UNDEFINED else value
        return HookRun(
            entry,
            payload,
            True,
            output=output,
            output_format="json" if output is not None else None,
            duration_ms=(time.monotonic() - started) * 1000,
        )


async def _no_processes() -> list[ProcessResult]:
    return []
