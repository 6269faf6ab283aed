"""One child process whose output is handed to a callback as it arrives.

`hookwise.host.process` runs batches of hooks and returns their output at the end; turn
hooks are shown like a user's shell command, so their stdout and stderr must reach the
UI while they run. This module runs one `ProcessSpec` on the asyncio loop and calls
``on_output(stream, text)`` for every chunk read, with the process layer's guarantees:

- the child leads its own process group; a timeout sends the group SIGTERM, then
  SIGKILL after ``kill_grace_ms``; cancelling the awaiting task (an interrupt) sends
  SIGKILL to the group at once, so grandchildren die too;
- each stream keeps its first ``max_output_bytes`` (and streams no more than that); the
  rest is counted in ``*_dropped_bytes``;
- a spawn failure is a `ProcessResult` with ``spawn_error`` (Node's wording, the same
  text the process layer gives), never an exception;
- chunks are decoded as UTF-8 incrementally, so a character split between two reads is
  never mangled.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import math
import os
import signal as signals
from collections.abc import Callable, Sequence
from time import monotonic
from typing import Any, Literal

from hookwise.host.process import ProcessResult, ProcessSpec, _describe_spawn_error

__all__ = ["OutputCallback", "StreamName", "astream_process"]

StreamName = Literal["stdout", "stderr"]
OutputCallback = Callable[[StreamName, str], None]

_READ_CHUNK = 1 << 16
_ESCAPED_PIPE_WAIT_S = 0.2  # after SIGKILL: how long a pipe held outside the group may stay


class _Sink:
    """One output stream: the first ``cap`` bytes, a count of the rest, the live decoder."""

    __slots__ = ("buf", "cap", "decoder", "dropped")

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.buf = bytearray()
        self.dropped = 0
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def keep(self, data: bytes) -> bytes:
        room = self.cap - len(self.buf)
        if room <= 0:
            self.dropped += len(data)
            return b""
        kept = data[:room]
        self.buf += kept
        self.dropped += len(data) - len(kept)
        return kept


async def astream_process(
    spec: ProcessSpec, on_output: OutputCallback | None = None
) -> ProcessResult:
    """Run ``spec``, streaming its output to ``on_output``; the result as the process layer's."""
    started = monotonic()
    if not spec.argv:
        return _spawn_failed(spec, ValueError("argv is empty"), started)
    spawn = asyncio.ensure_future(
        asyncio.create_subprocess_exec(
            *spec.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=spec.env,
            cwd=spec.cwd,
            start_new_session=True,
        )
    )
    try:
        # Shielded: the child runs before its pipes are connected, and asyncio's own
        # clean-up on a cancel here kills only the child, then waits for the pipes that a
        # grandchild may hold. An interrupt must kill the whole group, so let the spawn
        # finish and do that ourselves.
        proc = await asyncio.shield(spawn)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            late = await spawn
            _signal_group(late.pid, signals.SIGKILL)
            await late.wait()
        raise
    except (OSError, ValueError, TypeError) as exc:
        return _spawn_failed(spec, exc, started)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    out = _Sink(spec.max_output_bytes)
    err = _Sink(spec.max_output_bytes)
    tasks: list[asyncio.Future[Any]] = [
        asyncio.ensure_future(_feed(proc.stdin, spec.stdin)),
        asyncio.ensure_future(_pump(proc.stdout, "stdout", out, on_output)),
        asyncio.ensure_future(_pump(proc.stderr, "stderr", err, on_output)),
        asyncio.ensure_future(proc.wait()),
    ]
    timed_out = False
    finished = False
    try:
        timeout_ms = 0.0 if math.isnan(spec.timeout_ms) else max(spec.timeout_ms, 0.0)
        deadline = math.inf if timeout_ms == math.inf else started + timeout_ms / 1000.0
        pending: set[asyncio.Future[Any]] = set(tasks)
        while pending:
            remaining = None if deadline == math.inf else deadline - monotonic()
            if remaining is not None and remaining <= 0:
                break
            done, pending = await asyncio.wait(
                pending, timeout=remaining, return_when=asyncio.FIRST_EXCEPTION
            )
            for task in done:
                task.result()  # a callback that raised surfaces here
        if pending:
            timed_out = True
            _signal_group(proc.pid, signals.SIGTERM)
            _signal_group(proc.pid, signals.SIGCONT)  # a stopped process cannot act on TERM
            _, pending = await asyncio.wait(pending, timeout=max(spec.kill_grace_ms, 0.0) / 1000)
            if pending:
                _signal_group(proc.pid, signals.SIGKILL)
                await _settle(tasks)
            for task in tasks:
                if not task.cancelled():
                    task.result()
        finished = True
    finally:
        if not finished:  # interrupted (cancelled) or a callback raised: kill everything
            _signal_group(proc.pid, signals.SIGKILL)
            await _settle(tasks)
    code = proc.returncode
    return ProcessResult(
        stdout=out.buf.decode("utf-8", "replace"),
        stderr=err.buf.decode("utf-8", "replace"),
        exit_code=code if code is not None and code >= 0 else None,
        signal=-code if code is not None and code < 0 else None,
        timed_out=timed_out,
        stdout_truncated=out.dropped > 0,
        stderr_truncated=err.dropped > 0,
        stdout_dropped_bytes=out.dropped,
        stderr_dropped_bytes=err.dropped,
        duration_ms=(monotonic() - started) * 1000.0,
        pid=proc.pid,
    )


async def _settle(tasks: Sequence[asyncio.Future[Any]]) -> None:
    """After SIGKILL: let the reaper and the pipes finish, then stop waiting for pipes that
    a process outside the group still holds."""
    _, pending = await asyncio.wait(tasks, timeout=_ESCAPED_PIPE_WAIT_S)
    wait_task = tasks[-1]
    for task in pending:
        if task is not wait_task:
            task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _feed(writer: asyncio.StreamWriter, data: bytes) -> None:
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        if data:
            writer.write(data)
            await writer.drain()
        writer.close()
        await writer.wait_closed()


async def _pump(
    reader: asyncio.StreamReader,
    name: StreamName,
    sink: _Sink,
    on_output: OutputCallback | None,
) -> None:
    while True:
        data = await reader.read(_READ_CHUNK)
        if not data:
            break
        kept = sink.keep(data)
        if kept and on_output is not None:
            text = sink.decoder.decode(kept)
            if text:
                on_output(name, text)
    tail = sink.decoder.decode(b"", final=True)
    if tail and on_output is not None:
        on_output(name, tail)


def _spawn_failed(spec: ProcessSpec, exc: BaseException, started: float) -> ProcessResult:
    message, detail = _describe_spawn_error(spec, exc, None)
    return ProcessResult(
        stdout="",
        stderr="",
        spawn_error=message,
        spawn_error_detail=detail,
        duration_ms=(monotonic() - started) * 1000.0,
    )


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
