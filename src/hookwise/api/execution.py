"""Running one hook command for ``execute-with-output`` and recording what it did.

The command goes through ``HookExecutor`` (host/execute.py) exactly as a configured hook
would: ``bash -c`` in its own process group, the input JSON on stdin, a timeout that
kills the whole group (SIGTERM, then SIGKILL after a grace period), output capped per
stream. Only the dialect hooks differ: this service parses the output itself (with
``parse_output`` and the live configuration), so the executor's reader returns nothing,
and the timeout is the one computed here.

Units and bounds: ``hookConfig.timeout`` is in **seconds**, as in Claude Code's hook
settings; the run is bounded by ``timeoutMs.hookExecution`` (milliseconds) of the live
configuration, which is also the timeout when ``hookConfig.timeout`` is 0.

A run that did not end with an exit code reads as one, because the contract's
``exitCode`` is a number: 124 for a timeout (the output is then ignored, as Claude Code
renders no decision for a timed-out hook), 127 when the shell could not start, 128+N
when signal N killed it. Each also adds its own line to ``errorMessages`` and a warn
block. The ``executions`` row keeps NULL as the exit code of a run that never exited.

``conclude`` then parses the output under the live configuration, creates the pending
permission of an "ask", writes the ``executions`` row and queues
``hook_output_processed``, all in one transaction.
"""

from __future__ import annotations

import math
import os
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.engine import Engine

from hookwise.api.blocks import create_warn_block
from hookwise.api.db import now_ms
from hookwise.api.hook_events import Dialect
from hookwise.api.hook_output import ParsedOutput, parse_output
from hookwise.api.output_config import OutputConfig
from hookwise.api.permissions import create_permission
from hookwise.api.tables import executions
from hookwise.api.webhooks.outbox import enqueue
from hookwise.config.environment import RedactionConfig, hook_environment
from hookwise.config.model import HookEntry, Source
from hookwise.host.execute import ExecutionSettings, HookExecutor, HookRun, RunHooks
from hookwise.host.interpret import Interpretation
from hookwise.host.plan import Plan
from hookwise.host.runtimes import TABLE_RUNTIMES
from hookwise.protocol.jsvalue import JSON

KILL_GRACE_MS = 1_000.0  # after SIGTERM, before SIGKILL of the hook's process group
MAX_OUTPUT_BYTES = 256 * 1024  # per stream; the answer carries both streams whole
TIMEOUT_EXIT_CODE = 124  # what `timeout(1)` reports, since a killed hook has no exit code
SPAWN_FAILED_EXIT_CODE = 127  # the shell's "could not run" code
# The service's own secrets never reach a hook's environment.
WITHHELD_ENV = frozenset({"HOOKWISE_API_TOKEN", "HOOKWISE_DATABASE_URL"})


@dataclass(frozen=True)
class HookProcess:
    """What the command did, in the contract's HookOutputResult terms plus diagnostics."""

    exit_code: int
    stdout: str
    stderr: str
    execution_time: float  # ms, measured by the process layer
    exited: bool  # False: timed out or never started (no exit code of its own)
    problems: tuple[str, ...]  # timeout, spawn failure, truncation: for errorMessages


def timeout_ms(timeout_s: float | None, hook_execution_ms: int) -> float:
    """``hookConfig.timeout`` seconds, bounded by ``timeoutMs.hookExecution``."""
    if timeout_s is None or not math.isfinite(timeout_s) or timeout_s <= 0:
        return float(hook_execution_ms)
    return min(timeout_s * 1000.0, float(hook_execution_ms))


def _base_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in WITHHELD_ENV}


def _dialect_hooks(
    dialect: Dialect, settings: ExecutionSettings, cwd: str, limit_ms: float
) -> RunHooks:
    """The executor's per-host hooks: no reading (parse_output reads), this run's
    timeout, and the variables each host gives its hooks on the service's environment."""
    claude_env = TABLE_RUNTIMES["claude"].hooks(settings, cwd).environment
    codex_env = TABLE_RUNTIMES["codex"].hooks(settings, cwd).environment

    def environment(
        base: Mapping[str, str], payload: dict[str, JSON], hook_env: JSON
    ) -> dict[str, str]:
        if dialect == "gemini":
            return hook_environment(
                base,
                RedactionConfig(),
                cwd=cwd,
                session_id=payload.get("session_id"),
                plans_dir="",
                hook_env=hook_env,
            )
        chosen = codex_env if dialect == "codex" else claude_env
        return chosen(base, payload, hook_env)

    def timeout(_entry: HookEntry) -> tuple[float, str]:
        return limit_ms, f"{limit_ms:g}"

    return RunHooks(_no_reading, timeout, environment)


def _no_reading(_event: str, _stdout: str, _stderr: str, _code: int | None) -> Interpretation:
    return Interpretation()


async def run_hook(
    command: str,
    *,
    event: str,
    dialect: Dialect,
    payload: dict[str, JSON],
    cwd: str,
    limit_ms: float,
) -> HookProcess:
    """Run ``command`` once with ``payload`` on stdin; never raises for what the hook does."""
    settings = ExecutionSettings(
        base_env=_base_env(),
        default_cwd=cwd,
        max_parallel=1,
        kill_grace_ms=KILL_GRACE_MS,
        max_output_bytes=MAX_OUTPUT_BYTES,
    )
    executor = HookExecutor(settings, _dialect_hooks(dialect, settings, cwd, limit_ms))
    entry = HookEntry(
        config={"type": "command", "command": command},
        event=event,
        source=Source.RUNTIME,
        origin="execute-with-output",
    )
    (run,) = await executor.run_plan(Plan(event, [entry], False), payload)
    return _from_run(run, limit_ms)


def _from_run(run: HookRun, limit_ms: float) -> HookProcess:
    problems = list(run.warnings)
    stdout, stderr = run.stdout or "", run.stderr or ""
    timed_out = run.error is not None and run.error.startswith("Hook timed out")
    exited = run.error is None
    if timed_out:
        code = TIMEOUT_EXIT_CODE
        problems.insert(0, f"Hook timed out after {limit_ms:g} ms and was killed")
    elif run.error is not None:  # could not start (no shell, cwd vanished, ...)
        code = SPAWN_FAILED_EXIT_CODE
        problems.insert(0, f"Hook could not be started: {run.error}")
    elif run.signal is not None:
        code = 128 + run.signal
        problems.insert(0, f"Hook was killed by signal {run.signal}")
    else:
        code = run.exit_code or 0
    return HookProcess(code, stdout, stderr, run.duration_ms, exited, tuple(problems))


@dataclass(frozen=True)
class Concluded:
    """The parsed run and what it created."""

    parsed: ParsedOutput
    permission: dict[str, Any] | None
    should_continue: bool
    execution_id: str
    parse_ms: float  # for the health metric avgParsingTime


def new_execution_id(now: int) -> str:
    return f"exec_{now}_{secrets.token_hex(8)}"


def parse_process(process: HookProcess, event: str, config: OutputConfig) -> ParsedOutput:
    """``parse_output`` of the run, with the run's own problems in front."""
    stdout = process.stdout if process.exited else ""  # a killed hook decides nothing
    parsed = parse_output(
        process.exit_code, stdout, process.stderr, event, process.execution_time, config
    )
    if not process.problems:
        return parsed
    return replace(
        parsed,
        errors=[*process.problems, *parsed.errors],
        message_blocks=[
            *(create_warn_block(f"Hook Error: {p}") for p in process.problems),
            *parsed.message_blocks,
        ],
    )


def conclude(
    engine: Engine,
    *,
    command: str,
    event: str,
    payload: Mapping[str, Any],
    session_id: str,
    process: HookProcess,
    config: OutputConfig,
) -> Concluded:
    """Parse the run; in one transaction create the "ask" permission, write the
    ``executions`` row and queue ``hook_output_processed``."""
    started = time.perf_counter()
    parsed = parse_process(process, event, config)
    parse_ms = (time.perf_counter() - started) * 1000.0
    tool_name = payload.get("tool_name")
    tool = tool_name if isinstance(tool_name, str) else None
    now = now_ms()
    execution_id = new_execution_id(now)
    permission: dict[str, Any] | None = None
    with engine.begin() as conn:
        if parsed.ask is not None:
            tool_input = payload.get("tool_input")
            permission = create_permission(
                conn,
                tool or "unknown",
                parsed.ask.reason or "The hook asked for the user's permission",
                tool_input if isinstance(tool_input, dict) else {},
                parsed.ask.updated_input,
                session_id,
                config,
            )
        should_continue = parsed.proceed and parsed.continue_
        conn.execute(
            executions.insert().values(
                id=execution_id,
                session_id=session_id,
                hook_event=event,
                tool_name=tool,
                command=command,
                exit_code=process.exit_code if process.exited else None,
                execution_time=process.execution_time,
                should_continue=should_continue,
                source=parsed.source,
                message_blocks=parsed.message_blocks,
                permission_id=permission["id"] if permission else None,
                created_at=now,
            )
        )
        event_payload = parsed.processed_event(event, tool, session_id, now)
        enqueue(conn, "hook_output_processed", event_payload)
    return Concluded(parsed, permission, should_continue, execution_id, parse_ms)
