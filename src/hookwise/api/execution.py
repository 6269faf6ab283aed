"""Running one hook command for ``execute-with-output`` and recording what it did.

The command runs through the host runtime's process layer (host/process.py) as the argv
the allow-list resolved at startup (api/allowlist.py), never through a shell: in its own
process group, its whole process tree contained (setsid and double-fork escapees
included, host/reaper.py), the input JSON on stdin, a timeout that kills it all
(SIGTERM, then SIGKILL after a grace period), output capped per stream. Its environment
is minimal (``minimal_env``: a fixed PATH, HOME, LANG, TMPDIR and the names the operator
lists) plus the variables the event's host gives its hooks; the service's secrets never
reach it. This service parses the output itself (``parse_output``, live configuration).

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

from hookwise.api.allowlist import SAFE_PATH, Argv
from hookwise.api.permissions import create_permission
from hookwise.api.processing.blocks import create_warn_block
from hookwise.api.processing.hook_events import Dialect
from hookwise.api.processing.hook_output import ParsedOutput, parse_output
from hookwise.api.processing.output_config import OutputConfig
from hookwise.api.storage.db import now_ms
from hookwise.api.storage.tables import EXECUTE, executions
from hookwise.api.webhooks.outbox import enqueue
from hookwise.config.environment import RedactionConfig, hook_environment
from hookwise.host.execute import ExecutionSettings
from hookwise.host.process import ProcessResult, ProcessSpec, arun_process
from hookwise.host.runtimes import TABLE_RUNTIMES
from hookwise.protocol.jsvalue import JSON, UNDEFINED, js_json_stringify

KILL_GRACE_MS = 1_000.0  # after SIGTERM, before SIGKILL of the hook's process group
MAX_OUTPUT_BYTES = 256 * 1024  # per stream; the answer carries both streams whole
TIMEOUT_EXIT_CODE = 124  # what `timeout(1)` reports, since a killed hook has no exit code
SPAWN_FAILED_EXIT_CODE = 127  # the shell's "could not run" code
# What a hook gets from the service's own environment: nothing else (no tokens, no cloud
# keys), plus the names the operator lists in ``execute.env``.
BASE_ENV_NAMES = ("HOME", "LANG", "LC_ALL", "TMPDIR", "TZ", "USER", "LOGNAME")
# The service's own secrets: never in a hook's environment nor the policy's (policy_decide).
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


def minimal_env(passed: tuple[str, ...], source: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment every hook starts from: a fixed PATH, the user's basics and what
    the operator passes; never the service's secrets."""
    source = os.environ if source is None else source
    env = {"PATH": SAFE_PATH}
    names = (*BASE_ENV_NAMES, *passed)
    env.update((k, source[k]) for k in names if k in source and k not in WITHHELD_ENV)
    env.setdefault("LANG", "C.UTF-8")
    return env


def hook_env(
    dialect: Dialect, cwd: str, payload: dict[str, JSON], base: Mapping[str, str]
) -> dict[str, str]:
    """``base`` plus the variables the event's host gives its hooks (CLAUDE_PROJECT_DIR...)."""
    runtime = TABLE_RUNTIMES.get(dialect)
    if runtime is None:  # a host with a runtime of its own, not a table's: Gemini CLI
        return hook_environment(
            base,
            RedactionConfig(),
            cwd=cwd,
            session_id=payload.get("session_id"),
            plans_dir="",
            hook_env=UNDEFINED,
        )
    event = payload.get("hook_event_name")
    return runtime.hooks(ExecutionSettings(), cwd).environment(
        base, payload, UNDEFINED, event if isinstance(event, str) else ""
    )


async def run_hook(
    argv: Argv,
    *,
    dialect: Dialect,
    payload: dict[str, JSON],
    cwd: str,
    limit_ms: float,
    passed_env: tuple[str, ...] = (),
) -> HookProcess:
    """Run ``argv`` (no shell) once with ``payload`` on stdin, its whole process tree
    contained (host/reaper.py); never raises for what the hook does."""
    spec = ProcessSpec(
        argv=argv,
        stdin=js_json_stringify(payload).encode("utf-8", "surrogatepass"),
        env=hook_env(dialect, cwd, payload, minimal_env(passed_env)),
        cwd=cwd,
        timeout_ms=limit_ms,
        kill_grace_ms=KILL_GRACE_MS,
        max_output_bytes=MAX_OUTPUT_BYTES,
        contain=True,
    )
    return _from_result(await arun_process(spec), limit_ms)


def _from_result(result: ProcessResult, limit_ms: float) -> HookProcess:
    problems = [
        f"{stream} truncated at {MAX_OUTPUT_BYTES} bytes"
        for stream, cut in (
            ("stdout", result.stdout_truncated),
            ("stderr", result.stderr_truncated),
        )
        if cut
    ]
    exited = result.spawn_error is None and not result.timed_out
    if result.timed_out:
        code = TIMEOUT_EXIT_CODE
        problems.insert(0, f"Hook timed out after {limit_ms:g} ms and was killed")
    elif result.spawn_error is not None:
        code = SPAWN_FAILED_EXIT_CODE
        why = result.spawn_error_detail or result.spawn_error
        problems.insert(0, f"Hook could not be started: {why}")
    elif result.signal is not None:
        code = 128 + result.signal
        problems.insert(0, f"Hook was killed by signal {result.signal}")
    else:
        code = result.exit_code or 0
    return HookProcess(
        code, result.stdout, result.stderr, result.duration_ms, exited, tuple(problems)
    )


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
                kind=EXECUTE,
                host=parsed.dialect,
                session_id=session_id,
                hook_event=event,
                tool_name=tool,
                command=command,
                exit_code=process.exit_code if process.exited else None,
                execution_time=process.execution_time,
                should_continue=should_continue,
                source=parsed.source,
                decision=parsed.decision,
                message_blocks=parsed.message_blocks,
                permission_id=permission["id"] if permission else None,
                created_at=now,
            )
        )
        event_payload = parsed.processed_event(event, tool, session_id, now)
        enqueue(conn, "hook_output_processed", event_payload)
    return Concluded(parsed, permission, should_continue, execution_id, parse_ms)
