"""The wrapped server's process: started, written to by a thread of its own, its stderr
relayed (and its last lines kept for the error a client gets when it dies), stopped as the
MCP spec says (stdin closed, then SIGTERM, then SIGKILL)."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import IO

_TAIL = 2048


class ServerProcess:
    """One server command on pipes."""

    def __init__(
        self, argv: Sequence[str], *, cwd: str | None = None, max_queued: int = 128 << 20
    ) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        # what may wait for a server that stops reading (bytes): past it a message is
        # refused, never held, so a client that keeps writing cannot grow the proxy
        self.max_queued = max_queued
        self._queued = 0
        self._queued_lock = threading.Lock()
        self.proc: subprocess.Popen[bytes] | None = None
        self.start_error: str | None = None
        self._write_lock = threading.Lock()
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._closed = False
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        self.write_failed = threading.Event()

    def start(self) -> bool:
        """Start it; False (and :attr:`start_error`) when it cannot be started."""
        try:
            self.proc = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.cwd,
                bufsize=0,
            )
        except (OSError, ValueError) as exc:
            self.start_error = f"could not be started ({exc})"
            return False
        threading.Thread(target=self._stderr, name="mcp-server-stderr", daemon=True).start()
        self._writer = threading.Thread(target=self._write, name="mcp-server-in", daemon=True)
        self._writer.start()
        return True

    def started(self) -> bool:
        """Whether :meth:`start` has started the process (a failed start is not)."""
        return self.proc is not None

    @property
    def stdout(self) -> IO[bytes]:
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout

    def send(self, line: bytes) -> bool:
        """Queue one message line (the newline is added) for the writer thread; False when
        the queue already holds :attr:`max_queued` bytes the server has not read (the
        message is not queued).

        Never blocks: a server that stops reading its input (busy in a long tool while the
        client sends a large message) must not stall the thread reading the client, which
        would then see neither the client's end of input nor anything after it, nor the
        timeout watcher, which answers the client."""
        if self._closed or self._writer is None:
            return True  # stopping: what it is sent now is not read anyway
        size = len(line) + 1
        with self._queued_lock:
            if self._queued and self._queued + size > self.max_queued:
                return False
            self._queued += size
        self._queue.put(line + b"\n")
        return True

    def _write(self) -> None:
        while True:
            item = self._queue.get()
            with self._write_lock:
                stdin = self.proc.stdin if self.proc is not None else None
                if item is None or stdin is None or self.write_failed.is_set():
                    if stdin is not None:
                        with contextlib.suppress(OSError, ValueError):
                            stdin.close()
                    return
                data = memoryview(item)
                try:
                    while data:  # a raw pipe may take part of it
                        data = data[stdin.write(data) or 0 :]
                except (OSError, ValueError):
                    self.write_failed.set()
                with self._queued_lock:
                    self._queued -= len(item)

    def close_input(self, wait: float = 2.0) -> None:
        """End its input (EOF) after what is queued, if that is written within ``wait``;
        a server that reads nothing is then stopped by signals (:meth:`stop`)."""
        self._closed = True
        if self._writer is None:
            return
        self._queue.put(None)
        self._writer.join(wait)

    def _stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        out = sys.stderr.buffer
        fd = self.proc.stderr.fileno()
        while True:
            try:
                chunk = os.read(fd, 65536)
            except (OSError, ValueError):
                break
            if not chunk:
                break
            with self._tail_lock:
                self._tail += chunk
                del self._tail[:-_TAIL]
            with contextlib.suppress(OSError, ValueError):
                out.write(chunk)
                out.flush()

    def tail(self) -> str:
        """The last of what it wrote on stderr."""
        with self._tail_lock:
            return self._tail.decode("utf-8", "replace").strip()

    def status(self, wait: float = 0.0) -> int | None:
        """Its exit status, waiting at most ``wait`` seconds (None: still running)."""
        if self.proc is None:
            return None
        try:
            return self.proc.wait(wait) if wait > 0 else self.proc.poll()
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace: float = 2.0) -> int | None:
        """Close its input, then SIGTERM, then SIGKILL; its exit status."""
        if self.proc is None:
            return None
        self.close_input(grace)
        for step in (self.proc.terminate, self.proc.kill):
            status = self.status(grace)
            if status is not None:
                return status
            with contextlib.suppress(OSError):
                step()
        return self.status(grace)
