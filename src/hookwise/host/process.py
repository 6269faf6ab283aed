"""Child processes for hooks: spawn, feed stdin, capture capped output, kill on timeout.

This layer knows nothing about hooks. It exists because running a hook must never hang,
leak or raise, and must cost little more than the fork/exec itself: asyncio's
subprocess support in 3.11 watches every child with a thread and reads through
transports, which costs more than a `bash -c true` hook. Here children start with
os.posix_spawn where it can serve (Popen otherwise), and each is watched as two
non-blocking pipes (plus a pidfd when its exit is not obvious from EOF) in one private
epoll per batch. `run_processes` blocks on that epoll; `arun_processes` hands its
single fd to the running asyncio loop, so a batch costs the loop one reader and one
timer however many children it has.

Every child leads its own process group, so a timeout kills everything the hook
started (SIGTERM, then SIGKILL after a grace period), including grandchildren that
keep the output pipes open. Spawn failures come back as results, never as exceptions,
and use Node's wording (``spawn bash ENOENT``) because that is what Gemini CLI reports.

Streaming is a mode, not a second runner: a spec with ``on_output`` gets each chunk of
its (capped) output as text while it runs, decoded incrementally so a character split
between two reads is never mangled; turn hooks use it to show output live. A callback
that raises ends the run: its children are killed and the exception reaches the caller.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import errno
import heapq
import math
import os
import select
import signal as signals
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import count
from time import monotonic
from typing import Literal

from hookwise.host import reaper

__all__ = [
    "DEFAULT_KILL_GRACE_MS",
    "DEFAULT_MAX_OUTPUT_BYTES",
    "DEFAULT_MAX_PARALLEL",
    "DEFAULT_TIMEOUT_MS",
    "OutputCallback",
    "ProcessResult",
    "ProcessSpec",
    "StreamName",
    "arun_process",
    "arun_processes",
    "run_process",
    "run_processes",
]

DEFAULT_TIMEOUT_MS = 60_000.0
DEFAULT_KILL_GRACE_MS = 5_000.0
DEFAULT_MAX_OUTPUT_BYTES = 1 << 20
DEFAULT_MAX_PARALLEL = 32

_READ_CHUNK = 1 << 16
_DRAIN_READS = 64  # reads per pipe once we stop waiting for EOF (a writer may never stop)
_GROUP_POLL_S = 0.02  # TERMed group with no pipe left open: how often to look for survivors
_REAP_POLL_MIN_S = 0.0005  # without pidfds, waitpid polling backs off between these
_REAP_POLL_MAX_S = 0.05


StreamName = Literal["stdout", "stderr"]
OutputCallback = Callable[[StreamName, str], None]


@dataclass(frozen=True, slots=True)
class ProcessSpec:
    """One process to run. ``env``/``cwd`` None inherit this process's."""

    argv: Sequence[str]
    stdin: bytes = b""
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    timeout_ms: float = DEFAULT_TIMEOUT_MS  # math.inf: no timeout
    kill_grace_ms: float = DEFAULT_KILL_GRACE_MS
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES  # per stream
    contain: bool = False  # its whole tree, setsid escapees included, ends with it (reaper)
    on_output: OutputCallback | None = None  # streaming: each chunk of kept output, as text


@dataclass(frozen=True, slots=True)
class ProcessResult:
    """What a process did.

    Exactly one of three shapes: ``spawn_error`` set (nothing ran); ``exit_code`` set
    (normal exit); ``signal`` set (killed by a signal). ``timed_out`` is independent:
    a child can exit 0 and still have timed out when a grandchild kept its pipes open
    past the deadline.
    """

    stdout: str
    stderr: str
    exit_code: int | None = None
    signal: int | None = None
    timed_out: bool = False
    spawn_error: str | None = None  # Node's wording: "spawn <argv0> <ERRNO>"
    spawn_error_detail: str | None = None  # which path, and why
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    stdout_dropped_bytes: int = 0
    stderr_dropped_bytes: int = 0
    duration_ms: float = 0.0
    pid: int | None = None


# --- public API -----------------------------------------------------------------------


def run_processes(
    specs: Iterable[ProcessSpec], max_parallel: int = DEFAULT_MAX_PARALLEL
) -> list[ProcessResult]:
    """Run all specs, at most ``max_parallel`` at a time; results in spec order."""
    todo = list(specs)
    _check_parallel(max_parallel)
    if not todo:
        return []
    reactor = _Reactor()
    batch = _Batch(todo, max_parallel, reactor)
    try:
        batch.pump()
        reactor.run_until(batch.is_finished)
    finally:
        batch.abort()
        reactor.close()
    return batch.collect()


def run_process(spec: ProcessSpec) -> ProcessResult:
    """Run one spec."""
    return run_processes((spec,), 1)[0]


async def arun_processes(
    specs: Iterable[ProcessSpec], max_parallel: int = DEFAULT_MAX_PARALLEL
) -> list[ProcessResult]:
    """`run_processes` on the running asyncio loop; cancelling it kills the children."""
    todo = list(specs)
    _check_parallel(max_parallel)
    if not todo:
        return []
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def crashed(exc: Exception) -> None:
        if not done.done():
            done.set_exception(exc)

    reactor: _Reactor | _LoopReactor
    if _Features.epoll:
        reactor = _Reactor()
        reactor.attach(loop, crashed)
    else:
        reactor = _LoopReactor(loop, crashed)
    batch = _Batch(todo, max_parallel, reactor, done)
    try:
        batch.pump()
        await done
    finally:
        batch.abort()
        reactor.close()
    return batch.collect()


async def arun_process(spec: ProcessSpec) -> ProcessResult:
    """Run one spec on the running asyncio loop."""
    return (await arun_processes((spec,), 1))[0]


def _check_parallel(max_parallel: int) -> None:
    if max_parallel < 1:
        raise ValueError(f"max_parallel must be >= 1, got {max_parallel}")


# --- reactors ------------------------------------------------------------------------


class _Features:
    """What this kernel offers; tests switch these off to exercise the fallbacks."""

    epoll = hasattr(select, "epoll")
    pidfd = hasattr(os, "pidfd_open")  # also switched off by the first ENOSYS


class _Timer:
    """A cancellable call at a monotonic() time."""

    __slots__ = ("callback", "cancelled")

    def __init__(self, callback: Callable[[], object]) -> None:
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


_NO_TIMER = _Timer(lambda: None)
_NO_TIMER.cancelled = True


class _Reactor:
    """fd readiness and timers for one batch, on a private epoll (or poll()).

    Run standalone by `run_until`, or attached to an asyncio loop as one reader (the
    epoll fd) plus one timer (the earliest deadline). An fd is watched for reading or
    for writing, never both. Callbacks must tolerate spurious calls: an fd closed by
    an earlier callback may already belong to a new child.
    """

    def __init__(self) -> None:
        self._epoll = select.epoll() if _Features.epoll else None
        poller = self._epoll if self._epoll is not None else select.poll()
        self._register = poller.register
        self._unregister = poller.unregister
        self._wait_raw = poller.poll
        self._callbacks: dict[int, Callable[[], object]] = {}
        self._timers: list[tuple[float, int, _Timer]] = []
        self._seq = count()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._crashed: Callable[[Exception], None] | None = None
        self._wakeup: asyncio.TimerHandle | None = None
        self._wakeup_at = math.inf
        self._firing = False

    # -- fds --

    def add_reader(self, fd: int, callback: Callable[[], object]) -> None:
        self._callbacks[fd] = callback
        self._register(fd, select.POLLIN)

    def add_writer(self, fd: int, callback: Callable[[], object]) -> None:
        self._callbacks[fd] = callback
        self._register(fd, select.POLLOUT)

    def remove_reader(self, fd: int) -> None:
        if self._callbacks.pop(fd, None) is not None:
            self._unregister(fd)

    remove_writer = remove_reader

    def _wait(self, timeout: float | None) -> list[tuple[int, int]]:
        if self._epoll is not None:
            return self._epoll.poll(-1 if timeout is None else timeout)
        return self._wait_raw(None if timeout is None else timeout * 1000.0)

    def _dispatch(self, events: list[tuple[int, int]]) -> None:
        callbacks = self._callbacks
        for fd, mask in events:
            callback = callbacks.get(fd)
            if callback is not None:
                callback()
            elif mask & select.POLLNVAL:  # poll() only; never expected
                self._unregister(fd)

    # -- timers --

    def call_at(self, when: float, callback: Callable[[], object]) -> _Timer:
        timer = _Timer(callback)
        heapq.heappush(self._timers, (when, next(self._seq), timer))
        if self._loop is not None and not self._firing and when < self._wakeup_at:
            self._schedule_wakeup(when)
        return timer

    def _next_deadline(self) -> float:
        timers = self._timers
        while timers and timers[0][2].cancelled:
            heapq.heappop(timers)
        return timers[0][0] if timers else math.inf

    def _fire_due(self) -> None:
        timers = self._timers
        self._firing = True
        try:
            now = monotonic()
            while timers and (timers[0][2].cancelled or timers[0][0] <= now):
                timer = heapq.heappop(timers)[2]
                if not timer.cancelled:
                    timer.callback()
        finally:
            self._firing = False

    # -- standalone --

    def run_until(self, finished: Callable[[], bool]) -> None:
        while not finished():
            deadline = self._next_deadline()
            if deadline == math.inf and not self._callbacks:
                raise RuntimeError("process reactor has nothing to wait for")  # a bug
            timeout = None if deadline == math.inf else max(0.0, deadline - monotonic())
            self._dispatch(self._wait(timeout))
            if self._timers:
                self._fire_due()

    # -- inside asyncio --

    def attach(self, loop: asyncio.AbstractEventLoop, crashed: Callable[[Exception], None]) -> None:
        assert self._epoll is not None
        self._loop = loop
        self._crashed = crashed
        loop.add_reader(self._epoll.fileno(), self._on_loop_ready)

    def _on_loop_ready(self) -> None:
        try:
            self._dispatch(self._wait(0.0))
        except Exception as exc:
            self._crash(exc)

    def _on_loop_timer(self) -> None:
        self._wakeup = None
        self._wakeup_at = math.inf
        try:
            self._fire_due()
        except Exception as exc:
            self._crash(exc)
            return
        deadline = self._next_deadline()
        if deadline != math.inf:
            self._schedule_wakeup(deadline)

    def _schedule_wakeup(self, when: float) -> None:
        assert self._loop is not None
        if self._wakeup is not None:
            self._wakeup.cancel()
        self._wakeup_at = when
        self._wakeup = self._loop.call_later(max(0.0, when - monotonic()), self._on_loop_timer)

    def _crash(self, exc: Exception) -> None:
        assert self._crashed is not None
        self._crashed(exc)

    def close(self) -> None:
        self._timers.clear()  # cancelled timers still hold their runs: free them now
        self._callbacks.clear()
        if self._wakeup is not None:
            self._wakeup.cancel()
            self._wakeup = None
        if self._epoll is not None:
            if self._loop is not None:
                self._loop.remove_reader(self._epoll.fileno())
                self._loop = None
            self._epoll.close()


class _LoopReactor:
    """The `_Reactor` API straight on an asyncio loop, for platforms without epoll."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, crashed: Callable[[Exception], None]
    ) -> None:
        self._loop = loop
        self._crashed = crashed

    def _guarded(self, callback: Callable[[], object]) -> None:
        try:
            callback()
        except Exception as exc:
            self._crashed(exc)

    def add_reader(self, fd: int, callback: Callable[[], object]) -> None:
        self._loop.add_reader(fd, self._guarded, callback)

    def add_writer(self, fd: int, callback: Callable[[], object]) -> None:
        self._loop.add_writer(fd, self._guarded, callback)

    def remove_reader(self, fd: int) -> None:
        self._loop.remove_reader(fd)

    def remove_writer(self, fd: int) -> None:
        self._loop.remove_writer(fd)

    def call_at(self, when: float, callback: Callable[[], object]) -> asyncio.TimerHandle:
        return self._loop.call_later(max(0.0, when - monotonic()), self._guarded, callback)

    def close(self) -> None:
        pass


_AnyReactor = _Reactor | _LoopReactor
_AnyTimer = _Timer | asyncio.TimerHandle


# --- batches -------------------------------------------------------------------------


class _Batch:
    """Keeps up to max_parallel `_Run`s going and collects their results in order."""

    def __init__(
        self,
        specs: list[ProcessSpec],
        max_parallel: int,
        reactor: _AnyReactor,
        done: asyncio.Future[None] | None = None,
    ) -> None:
        self.specs = specs
        self.max_parallel = max_parallel
        self.reactor = reactor
        self.done = done
        self.results: list[ProcessResult | None] = [None] * len(specs)
        self.active: set[_Run] = set()
        self.next = 0
        self.remaining = len(specs)
        self.pumping = False

    def is_finished(self) -> bool:
        return self.remaining == 0

    def pump(self) -> None:
        if self.pumping:  # a spawn failure finishes inside start(); the loop below goes on
            return
        self.pumping = True
        spawned: list[_Run] = []
        try:
            # Spawn first, register after: each child starts without waiting for the
            # bookkeeping of the ones before it.
            while len(self.active) < self.max_parallel and self.next < len(self.specs):
                run = _Run(self.specs[self.next], self.next, self)
                self.next += 1
                self.active.add(run)
                if run.spawn():
                    spawned.append(run)
        finally:
            for run in spawned:
                run.watch()
            self.pumping = False
        if self.remaining == 0 and self.done is not None and not self.done.done():
            self.done.set_result(None)

    def finished(self, run: _Run) -> None:
        self.results[run.index] = run.result
        self.active.discard(run)
        self.remaining -= 1
        self.pump()

    def abort(self) -> None:
        """Kill and reap whatever still runs (cancellation, KeyboardInterrupt, a bug)."""
        while self.active:
            self.active.pop().abort()

    def collect(self) -> list[ProcessResult]:
        out: list[ProcessResult] = []
        for result in self.results:
            if result is None:  # unreachable unless a crash was swallowed by the caller
                raise RuntimeError("process batch ended before every process finished")
            out.append(result)
        return out


# --- one process ---------------------------------------------------------------------


class _Stream:
    """One output pipe: the first `cap` bytes read, and a count of the rest.

    No reference back to its run: finished runs must be freed by refcounting, not
    left as cycles for the garbage collector (hook hosts have big heaps). In streaming
    mode it also hands what it keeps, decoded, to the spec's callback.
    """

    __slots__ = ("buf", "cap", "decoder", "dropped", "fd", "name", "on_output")

    def __init__(
        self,
        fd: int,
        cap: int,
        name: StreamName = "stdout",
        on_output: OutputCallback | None = None,
    ) -> None:
        self.fd = fd
        self.cap = cap
        self.buf = bytearray()
        self.dropped = 0
        self.name: StreamName = name
        self.on_output = on_output
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace") if on_output else None

    def keep(self, data: bytes) -> None:
        room = self.cap - len(self.buf)
        if len(data) <= room:
            kept = data
        elif room > 0:
            kept = data[:room]
            self.dropped += len(data) - room
        else:
            self.dropped += len(data)
            return
        self.buf += kept
        if self.on_output is not None and self.decoder is not None:
            text = self.decoder.decode(kept)
            if text:
                self.on_output(self.name, text)

    def read(self) -> bool:
        """Read what is there; False at EOF (or a read error, which ends it too)."""
        try:
            data = os.read(self.fd, _READ_CHUNK)
        except BlockingIOError:
            return True  # spurious wakeup
        except OSError:
            return False
        if not data:
            return False
        self.keep(data)
        return True

    def drain(self) -> None:
        """Take what is already in the pipe, without waiting for a writer to finish."""
        for _ in range(_DRAIN_READS):
            try:
                data = os.read(self.fd, _READ_CHUNK)
            except OSError:
                return
            if not data:
                return
            self.keep(data)

    def close(self, reactor: _AnyReactor) -> None:
        if self.fd >= 0:
            reactor.remove_reader(self.fd)
            os.close(self.fd)
            self.fd = -1

    def flush(self) -> None:
        """Streaming: the end of the output, once (a character cut at the end shows as U+FFFD)."""
        if self.on_output is not None and self.decoder is not None:
            tail = self.decoder.decode(b"", final=True)
            self.decoder = None
            if tail:
                self.on_output(self.name, tail)

    def text(self) -> str:
        return self.buf.decode("utf-8", "replace")


class _Run:
    """The life of one child, driven by fd readiness and timers from its batch's reactor.

    Done means: the child is reaped and both output pipes are closed (EOF, or given
    up after the group was killed). A child usually exits when its pipes reach EOF,
    so that is when we first try to reap it; only when that is not enough (it closed
    its output and runs on, or a grandchild holds the pipes past the timeout) does
    it get a pidfd (or, without pidfds, a waitpid poll). On a timeout the group gets
    SIGTERM; once the child is gone and the pipes are closed we still wait for the
    rest of the group, up to the grace period, then SIGKILL it.
    """

    __slots__ = (
        "batch",
        "err",
        "exited",
        "index",
        "kill_sent",
        "mark",
        "out",
        "pid",
        "pidfd",
        "poll_delay",
        "poll_timer",
        "reactor",
        "result",
        "spec",
        "started",
        "status",
        "stdin",
        "stdin_fd",
        "stdin_pos",
        "timed_out",
        "timer",
        "watching_exit",
    )

    def __init__(self, spec: ProcessSpec, index: int, batch: _Batch) -> None:
        self.spec = spec
        self.index = index
        self.batch = batch
        self.reactor = batch.reactor
        self.result: ProcessResult | None = None
        self.pid = -1
        self.pidfd = -1
        self.stdin_fd = -1
        self.stdin = memoryview(spec.stdin)
        self.stdin_pos = 0
        self.out: _Stream | None = None
        self.err: _Stream | None = None
        self.status: int | None = None  # raw wait status once reaped
        self.exited = False
        self.watching_exit = False
        self.timed_out = False
        self.kill_sent = False
        self.started = 0.0
        self.timer: _AnyTimer = _NO_TIMER
        self.poll_timer: _AnyTimer = _NO_TIMER
        self.poll_delay = _REAP_POLL_MIN_S
        self.mark: str | None = None
        if spec.contain:
            env, self.mark = reaper.marked(spec.env)
            self.spec = replace(spec, env=env)

    # -- start --

    def spawn(self) -> bool:
        """Start the child; False when it could not be (the result says why)."""
        spec = self.spec
        self.started = monotonic()
        in_r = out_r = out_w = err_r = err_w = -1
        executable: str | None = None
        try:
            if not spec.argv:
                raise ValueError("argv is empty")
            in_r, self.stdin_fd = os.pipe()
            out_r, out_w = os.pipe()
            err_r, err_w = os.pipe()
            # Input goes into the pipe before the child exists: no EPIPE is possible
            # yet, and usually nothing is left to watch afterwards. An empty pipe
            # takes PIPE_BUF bytes without blocking; more needs a non-blocking fd.
            if len(self.stdin) > select.PIPE_BUF:
                os.set_blocking(self.stdin_fd, False)
            self._write_stdin()
            executable = _EXECUTABLES.lookup(spec.argv[0], spec.env)
            self.pid = _spawn(spec, executable, in_r, out_w, err_w)
            if self.mark is not None:
                reaper.track(self.pid)
        except (OSError, ValueError, TypeError) as exc:
            for fd in (in_r, out_r, out_w, err_r, err_w):
                if fd >= 0:
                    os.close(fd)
            self._close_stdin()
            self._spawn_failed(exc, executable)
            return False
        os.close(in_r)
        os.close(out_w)
        os.close(err_w)
        self.out = _Stream(out_r, spec.max_output_bytes, "stdout", spec.on_output)
        self.err = _Stream(err_r, spec.max_output_bytes, "stderr", spec.on_output)
        return True

    def watch(self) -> None:
        """Hand the pipes and the deadline to the reactor (after the batch's spawns)."""
        spec = self.spec
        reactor = self.reactor
        out, err = self.out, self.err
        assert out is not None and err is not None
        os.set_blocking(out.fd, False)
        os.set_blocking(err.fd, False)
        reactor.add_reader(out.fd, self._on_stdout)
        reactor.add_reader(err.fd, self._on_stderr)
        if self.stdin_fd >= 0:
            reactor.add_writer(self.stdin_fd, self._write_stdin)
        if self.mark is not None:  # contained: its exit, not EOF, ends the whole tree
            self._watch_exit()
        timeout_ms = spec.timeout_ms
        if math.isnan(timeout_ms):  # NaN: like Node's setTimeout, fire at once
            timeout_ms = 0.0
        if timeout_ms != math.inf:
            self.timer = reactor.call_at(
                self.started + max(timeout_ms, 0.0) / 1000.0, self._on_timeout
            )

    def _write_stdin(self) -> None:
        fd = self.stdin_fd
        if fd < 0:
            return
        data = self.stdin
        while self.stdin_pos < len(data):
            try:
                self.stdin_pos += os.write(fd, data[self.stdin_pos :])
            except BlockingIOError:
                return  # pipe full: the reactor calls again when the child has read some
            except OSError:  # EPIPE: the child does not want the rest; not an error
                break
        self._close_stdin()

    def _close_stdin(self) -> None:
        if self.stdin_fd >= 0:
            if self.pid > 0:  # before the spawn it was never watched
                self.reactor.remove_writer(self.stdin_fd)
            os.close(self.stdin_fd)
            self.stdin_fd = -1
        self.stdin = memoryview(b"")

    # -- the child's exit --

    def _try_reap(self) -> bool:
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:  # someone else reaped it (SIGCHLD ignored, a watcher)
            pid, status = self.pid, -1
        if pid == 0:
            return False
        self.exited = True
        self.status = status if status >= 0 else None
        self._end_tree()
        if self.pidfd >= 0:
            self.reactor.remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = -1
        self.poll_timer.cancel()
        self.poll_timer = _NO_TIMER
        return True

    def _watch_exit(self) -> None:
        """Get told when the child exits: a pidfd, else a backing-off waitpid poll."""
        if self.watching_exit or self.exited:
            return
        self.watching_exit = True
        if _Features.pidfd:
            try:
                self.pidfd = os.pidfd_open(self.pid)
            except OSError as exc:
                if exc.errno in (errno.ENOSYS, errno.EPERM):  # old kernel, seccomp
                    _Features.pidfd = False
                # else (EMFILE...): poll this one
        if self.pidfd >= 0:
            self.reactor.add_reader(self.pidfd, self._on_exit)
        else:
            self.poll_delay = _REAP_POLL_MIN_S
            self.poll_timer = self.reactor.call_at(monotonic(), self._poll_reap)

    def _end_tree(self) -> None:
        """A contained run: whatever the hook left behind ends with it (host/reaper.py)."""
        if self.mark is not None:
            reaper.untrack(self.pid)
            reaper.end_tree(self.mark, self.pid)

    def _on_exit(self) -> None:
        if self._try_reap():
            self._settle()

    def _poll_reap(self) -> None:
        self.poll_timer = _NO_TIMER
        if self._try_reap():
            self._settle()
        elif self.result is None:
            self.poll_delay = min(self.poll_delay * 2, _REAP_POLL_MAX_S)
            self.poll_timer = self.reactor.call_at(monotonic() + self.poll_delay, self._poll_reap)

    # -- events --

    def _on_stdout(self) -> None:
        out = self.out
        if out is not None and not out.read():
            out.close(self.reactor)
            out.flush()
            self._stream_closed()

    def _on_stderr(self) -> None:
        err = self.err
        if err is not None and not err.read():
            err.close(self.reactor)
            err.flush()
            self._stream_closed()

    def _stream_closed(self) -> None:
        if not self.exited and not self._streams_open() and not self._try_reap():
            self._watch_exit()  # it closed its output but runs on, or is still exiting
            return
        self._settle()

    def _on_timeout(self) -> None:
        self.timed_out = True
        _signal_group(self.pid, signals.SIGTERM)
        _signal_group(self.pid, signals.SIGCONT)  # a stopped process cannot act on TERM
        self.timer = self.reactor.call_at(
            monotonic() + max(self.spec.kill_grace_ms, 0.0) / 1000.0, self._on_kill
        )
        if not self.exited and not self._try_reap():
            self._watch_exit()
        self._settle()

    def _on_kill(self) -> None:
        self.timer = _NO_TIMER
        self.kill_sent = True
        _signal_group(self.pid, signals.SIGKILL)
        self._settle()

    def _on_group_poll(self) -> None:
        self.poll_timer = _NO_TIMER
        self._settle()

    def _settle(self) -> None:
        """Finish if nothing is left to wait for; otherwise make sure something wakes us."""
        if not self.exited or self.result is not None:
            return
        streams_open = self._streams_open()
        if self.kill_sent:
            if streams_open:  # held by something outside the group: stop waiting
                self._stop_reading()
            self._finish()
        elif self.timed_out:
            if not _group_alive(self.pid):
                if streams_open:
                    self._stop_reading()
                self._finish()
            elif self.poll_timer is _NO_TIMER:
                self.poll_timer = self.reactor.call_at(
                    monotonic() + _GROUP_POLL_S, self._on_group_poll
                )
        elif not streams_open:
            self._finish()
        # else: a grandchild holds a pipe; wait for EOF or the timeout

    def _streams_open(self) -> bool:
        out, err = self.out, self.err
        return (out is not None and out.fd >= 0) or (err is not None and err.fd >= 0)

    def _stop_reading(self) -> None:
        for stream in (self.out, self.err):
            if stream is not None and stream.fd >= 0:
                stream.drain()
                stream.close(self.reactor)
                stream.flush()

    # -- endings --

    def _finish(self) -> None:
        self._release()
        out, err = self.out, self.err
        assert out is not None and err is not None
        code = _returncode(self.status)
        self.result = ProcessResult(
            stdout=out.text(),
            stderr=err.text(),
            exit_code=code if code is not None and code >= 0 else None,
            signal=-code if code is not None and code < 0 else None,
            timed_out=self.timed_out,
            stdout_truncated=out.dropped > 0,
            stderr_truncated=err.dropped > 0,
            stdout_dropped_bytes=out.dropped,
            stderr_dropped_bytes=err.dropped,
            duration_ms=(monotonic() - self.started) * 1000.0,
            pid=self.pid,
        )
        self.batch.finished(self)

    def _spawn_failed(self, exc: BaseException, executable: str | None) -> None:
        message, detail = _describe_spawn_error(self.spec, exc, executable)
        self.result = ProcessResult(
            stdout="",
            stderr="",
            spawn_error=message,
            spawn_error_detail=detail,
            duration_ms=(monotonic() - self.started) * 1000.0,
        )
        self.batch.finished(self)

    def _release(self) -> None:
        self.timer.cancel()
        self.poll_timer.cancel()
        self.timer = self.poll_timer = _NO_TIMER
        self._close_stdin()
        for stream in (self.out, self.err):
            if stream is not None:
                stream.close(self.reactor)
        if self.pidfd >= 0:
            self.reactor.remove_reader(self.pidfd)
            os.close(self.pidfd)
            self.pidfd = -1

    def abort(self) -> None:
        """Kill the group, reap the child, close everything; no result."""
        if self.result is not None or self.pid <= 0:
            return
        _signal_group(self.pid, signals.SIGKILL)
        if not self.exited:
            try:
                _, status = os.waitpid(self.pid, 0)
            except ChildProcessError:
                status = -1
            self.exited = True
            self.status = status if status >= 0 else None
            self._end_tree()
        self._release()


# --- helpers -------------------------------------------------------------------------

# Python ignores these; an ignored signal stays ignored across exec, so children get
# them back at their defaults, as subprocess's restore_signals does.
_RESTORED_SIGNALS = tuple(
    getattr(signals, name) for name in ("SIGPIPE", "SIGXFZ", "SIGXFSZ") if hasattr(signals, name)
)
_FAST_SPAWN = sys.platform == "linux" and hasattr(os, "POSIX_SPAWN_DUP2")


def _spawn(spec: ProcessSpec, executable: str | None, stdin: int, stdout: int, stderr: int) -> int:
    """Start the child as leader of a new session; return its pid.

    os.posix_spawn (a vfork-like clone in glibc) costs about half of Popen's
    fork_exec path in the parent, and a parent that spawns 3 hooks per event on a
    busy machine feels that. It cannot chdir, so it serves only children that run in
    our own cwd (the usual case: hooks run in the project dir, which is the agent's
    cwd); everything else, and every failure, goes through Popen, whose errors name
    the culprit. Both close our ends of the pipes (they are O_CLOEXEC); Popen also
    closes any other inherited descriptor, posix_spawn leaves those the embedding
    program marked inheritable, as Node's spawn does.
    """
    argv0 = spec.argv[0]
    path = executable if executable is not None else (argv0 if "/" in argv0 else None)
    if (
        _FAST_SPAWN
        and path is not None
        and min(stdin, stdout, stderr) > 2
        and (spec.cwd is None or _is_our_cwd(spec.cwd))
    ):
        try:
            return os.posix_spawn(
                path,
                tuple(spec.argv),
                os.environ if spec.env is None else spec.env,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, stdin, 0),
                    (os.POSIX_SPAWN_DUP2, stdout, 1),
                    (os.POSIX_SPAWN_DUP2, stderr, 2),
                ],
                setsid=True,
                setsigdef=_RESTORED_SIGNALS,
            )
        except (OSError, NotImplementedError):
            executable = None  # let Popen search PATH afresh, and word the error
    try:
        proc = _popen(spec, executable, stdin, stdout, stderr)
    except OSError as exc:
        if executable is None or exc.filename != executable:
            raise
        proc = _popen(spec, None, stdin, stdout, stderr)  # the remembered path went stale
    # We reap the child ourselves; a returncode keeps Popen's __del__ and
    # subprocess._cleanup() from ever calling waitpid on it behind our back.
    proc.returncode = 0
    return proc.pid


def _popen(
    spec: ProcessSpec, executable: str | None, stdin: int, stdout: int, stderr: int
) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        spec.argv,
        executable=executable,
        stdin=stdin,
        stdout=stdout,
        stderr=stderr,
        env=spec.env,
        cwd=spec.cwd,
        start_new_session=True,
    )


def _is_our_cwd(cwd: str) -> bool:
    try:
        return cwd == os.getcwd()
    except OSError:  # our own cwd was removed
        return False


class _ExecutableCache:
    """PATH lookups, remembered while the directories they depend on stay unchanged.

    Without it the spawn searches PATH each time: Popen's vforked child tries execve
    in every directory before the one holding `bash`, with the parent blocked. A hit
    is re-checked, at most once a second, by the mtimes of the directories up to and
    including the one it was found in: a binary added earlier in PATH, or removed, is
    seen within that second (execvp would see it at once; re-checking every time
    costs a stat per PATH entry per spawn, about 20 us on a typical PATH).
    """

    _MAX_ENTRIES = 256
    _RECHECK_S = 1.0

    def __init__(self) -> None:
        # (name, PATH) -> [path, ((dir, mtime), ...), checked_at]
        self._hits: dict[tuple[str, str], tuple[str, tuple[tuple[str, int], ...], float]] = {}

    def lookup(self, name: str, env: Mapping[str, str] | None) -> str | None:
        """The path execvp would run, or None to let the spawn search PATH itself."""
        if not name or "/" in name:
            return None
        path = (os.environ if env is None else env).get("PATH", os.defpath)
        key = (name, path)
        hit = self._hits.get(key)
        now = monotonic()
        if hit is not None:
            found, stamps, checked_at = hit
            if now - checked_at < self._RECHECK_S:
                return found
            if all(_mtime(directory) == stamp for directory, stamp in stamps):
                self._hits[key] = (found, stamps, now)
                return found
            del self._hits[key]
        stamps_list: list[tuple[str, int]] = []
        for directory in path.split(os.pathsep):
            if not os.path.isabs(directory):
                return None  # relative entries depend on the child's cwd: let exec decide
            stamps_list.append((directory, _mtime(directory)))
            candidate = os.path.join(directory, name)
            if os.access(candidate, os.X_OK) and not os.path.isdir(candidate):
                if len(self._hits) >= self._MAX_ENTRIES:
                    self._hits.clear()
                self._hits[key] = (candidate, tuple(stamps_list), now)
                return candidate
        return None


_EXECUTABLES = _ExecutableCache()


def _mtime(directory: str) -> int:
    try:
        return os.stat(directory).st_mtime_ns
    except OSError:
        return -1


def _returncode(status: int | None) -> int | None:
    """Exit code, or minus the signal number, from a raw wait status."""
    if status is None:
        return None
    try:
        return os.waitstatus_to_exitcode(status)
    except ValueError:
        return None


def _signal_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


def _group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs. Zombies do not count: an init that is
    slow to reap (or a container's PID 1 that never does) must not cost a grace period."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        names = os.listdir("/proc")
    except OSError:
        return True  # no procfs: the group exists, assume it runs
    for name in names:
        if not name.isdigit():
            continue
        try:
            fd = os.open(f"/proc/{name}/stat", os.O_RDONLY)
        except OSError:
            continue
        try:
            stat = os.read(fd, 1024)
        except OSError:
            continue
        finally:
            os.close(fd)
        # "pid (comm) state ppid pgrp ...": comm may contain anything, even ") ".
        fields = stat[stat.rfind(b")") + 2 :].split(b" ", 3)
        if len(fields) > 2 and fields[2] == str(pgid).encode() and fields[0] not in (b"Z", b"X"):
            return True
    return False


def _describe_spawn_error(
    spec: ProcessSpec, exc: BaseException, executable: str | None
) -> tuple[str, str]:
    """Node's one-line message, and a precise one naming the path at fault."""
    argv0 = str(spec.argv[0]) if spec.argv else ""
    if not isinstance(exc, OSError) or exc.errno is None:
        return f"spawn {argv0} EINVAL", f"invalid process spec: {exc}"
    code = errno.errorcode.get(exc.errno, f"E{exc.errno}")
    reason = exc.strerror or os.strerror(exc.errno)
    filename = exc.filename
    cwd = spec.cwd
    if cwd is not None and filename == cwd and (filename != argv0 or not os.path.isdir(cwd)):
        if exc.errno == errno.ENOENT:
            detail = f"working directory {cwd!r} does not exist"
        else:
            detail = f"cannot use working directory {cwd!r}: {reason}"
    elif filename is not None and filename in (argv0, executable):
        if exc.errno == errno.ENOENT:
            where = "" if "/" in argv0 else " in PATH"
            detail = f"command {argv0!r} not found{where}"
        else:
            detail = f"cannot execute {filename!r}: {reason}"
    else:
        detail = f"cannot start {argv0!r}: {reason}"
    return f"spawn {argv0} {code}", detail
