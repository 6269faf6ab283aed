"""Running one TurnStart/TurnEnd hook: stdin, streaming, failure reports, HookInput.

The hook runs with cwd = the workspace and this JSON object on stdin (the fields the
Codex fork's tests pin, plus ``session_id`` and, for TurnEnd, the agent's last message)::

    {"hook": "turn_start", "session_id": "...", "sub_id": "<turn id>",
     "cwd": "/path/to/workspace", "is_hook_input_turn": false,
     "session_source": "cli", "timestamp": "2026-01-01T00:00:00.000Z"}

Its output is streamed as ExecCommandBegin / ExecCommandOutputDelta / ExecCommandEnd.
A spawn failure, a non-zero exit, a signal or a timeout is reported as HookFailed and
is otherwise harmless. stdout is shown, never sent to the agent; non-empty stderr (even
from a failing hook) becomes the HookInput. Cancelling `run` (an interrupt) kills the
hook's process group at once and still reports its end, marked ``interrupted``.
"""

from __future__ import annotations

import asyncio
import json
import math
import signal as signals
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hookwise.config.hook_toml import HookToml, TurnHookConfig, TurnHookKind
from hookwise.host.process import ProcessResult, ProcessSpec, StreamName, arun_process
from hookwise.host.system import iso_timestamp
from hookwise.turns.events import (
    ExecCommandBegin,
    ExecCommandEnd,
    ExecCommandOutputDelta,
    HookFailed,
    TurnEvent,
)
from hookwise.turns.hook_input import cap_text, clean_stderr, hook_input_message

__all__ = ["HookOutcome", "PendingHookInput", "TurnHookRunner"]

KILL_GRACE_MS = 2_000.0
MAX_CAPTURE_BYTES = 1 << 20  # per stream, as the process layer's default


@dataclass(frozen=True)
class PendingHookInput:
    """A HookInput not yet delivered: the session decides where it goes."""

    kind: TurnHookKind
    text: str
    message: str
    truncated: bool
    stderr_bytes: int
    exit_code: int | None
    command: list[str]


@dataclass(frozen=True)
class HookOutcome:
    kind: TurnHookKind
    call_id: str
    result: ProcessResult
    failure: str | None
    hook_input: PendingHookInput | None
    stop_session: bool  # a TurnEnd exit code listed in stop_on_exit_code


def failure_reason(result: ProcessResult, timeout_ms: float | None) -> str | None:
    if result.spawn_error is not None:
        detail = result.spawn_error_detail
        return f"{result.spawn_error} ({detail})" if detail else result.spawn_error
    if result.timed_out:
        return f"timed out after {timeout_ms:g} ms; its process group was killed"
    if result.signal is not None:
        try:
            name = signals.Signals(result.signal).name
        except ValueError:
            name = f"signal {result.signal}"
        return f"killed by {name}"
    if result.exit_code not in (0, None):
        return f"exited with code {result.exit_code}"
    return None


class TurnHookRunner:
    """Runs the hooks of one hook.toml for one session, emitting events as they happen."""

    def __init__(
        self,
        config: HookToml,
        *,
        session_id: str,
        session_source: str,
        emit: Callable[[TurnEvent], None],
        env: Mapping[str, str] | None = None,
        clock: Callable[[], str] = iso_timestamp,
    ) -> None:
        self.config = config
        self.session_id = session_id
        self.session_source = session_source
        self.emit = emit
        self.env = env
        self.clock = clock
        self.cwd = str(config.workspace)
        self._calls = 0

    def stdin_payload(
        self,
        kind: TurnHookKind,
        turn_id: str,
        is_hook_input_turn: bool,
        last_agent_message: str | None = None,
    ) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "hook": kind.value,
            "session_id": self.session_id,
            "sub_id": turn_id,
            "cwd": self.cwd,
            "is_hook_input_turn": is_hook_input_turn,
            "session_source": self.session_source,
            "timestamp": self.clock(),
        }
        if kind is TurnHookKind.TURN_END:
            payload["last_assistant_message"] = last_agent_message
        return payload

    async def run(
        self,
        hook: TurnHookConfig,
        turn_id: str,
        *,
        is_hook_input_turn: bool,
        last_agent_message: str | None = None,
    ) -> HookOutcome:
        self._calls += 1
        call_id = f"hook-{self._calls}"
        title = hook.kind.title
        command = list(hook.argv)
        payload = self.stdin_payload(hook.kind, turn_id, is_hook_input_turn, last_agent_message)
        seen: dict[StreamName, list[str]] = {"stdout": [], "stderr": []}

        def on_output(stream: StreamName, text: str) -> None:
            seen[stream].append(text)
            self.emit(ExecCommandOutputDelta(call_id, stream, text))

        spec = ProcessSpec(
            argv=command,
            stdin=(json.dumps(payload, ensure_ascii=False) + "\n").encode("utf-8"),
            env=self.env,
            cwd=self.cwd,
            timeout_ms=math.inf if hook.timeout_ms is None else hook.timeout_ms,
            kill_grace_ms=KILL_GRACE_MS,
            max_output_bytes=MAX_CAPTURE_BYTES,
            on_output=on_output,
        )

        def end(**fields: Any) -> None:
            self.emit(ExecCommandEnd(call_id, turn_id, title, command, **fields))

        self.emit(ExecCommandBegin(call_id, turn_id, title, command, self.cwd))
        started = asyncio.get_running_loop().time()
        try:
            result = await arun_process(spec)
        except asyncio.CancelledError:
            end(
                exit_code=None,
                duration_ms=(asyncio.get_running_loop().time() - started) * 1000.0,
                stdout="".join(seen["stdout"]),
                stderr="".join(seen["stderr"]),
                signal=int(signals.SIGKILL),
                interrupted=True,
            )
            raise
        end(
            exit_code=result.exit_code,
            duration_ms=result.duration_ms,
            stdout=result.stdout,
            stderr=result.stderr,
            signal=result.signal,
            timed_out=result.timed_out,
            spawn_error=result.spawn_error,
            stdout_dropped_bytes=result.stdout_dropped_bytes,
            stderr_dropped_bytes=result.stderr_dropped_bytes,
        )
        stop = (
            hook.kind is TurnHookKind.TURN_END
            and result.exit_code is not None
            and result.exit_code in hook.stop_on_exit_codes
        )
        failure = None if stop else failure_reason(result, hook.timeout_ms)
        if failure is not None:
            self.emit(HookFailed(call_id, turn_id, title, failure))
        pending: PendingHookInput | None = None
        text = clean_stderr(result.stderr)
        if text:
            capped = cap_text(text, self.config.hook_input_max_bytes, result.stderr_dropped_bytes)
            message = hook_input_message(
                hook.kind, capped.text, self.config.hook_input_format, capped.truncated
            )
            pending = PendingHookInput(
                hook.kind,
                capped.text,
                message,
                capped.truncated,
                capped.total_bytes,
                result.exit_code,
                command,
            )
        return HookOutcome(hook.kind, call_id, result, failure, pending, stop)
