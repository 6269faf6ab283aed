"""The wrapped server's process: started, written to without blocking the proxy, its stderr
relayed (and its last lines kept for the error a client gets when it dies), stopped as the
MCP spec says (stdin closed, then SIGTERM, then SIGKILL)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import IO

_TAIL = 2048


class ServerProcess:
    """One server command on pipes."""

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None) -> None:
        self.argv = list(argv)
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.start_error: str | None = None
        self._write_lock = threading.Lock()
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
        return True

    @property
    def stdout(self) -> IO[bytes]:
        assert self.proc is not None and self.proc.stdout is not None
        return self.proc.stdout

    def send(self, line: bytes) -> None:
        """Write one message line (the newline is added), whole: one writer at a time.

        Written by the thread that decided it, without a hand-over to another thread (one
        context switch less per call); a server that stops reading its input stalls only
        the client's direction, and the timeouts still answer the client."""
        with self._write_lock:
            if self._closed or self.proc is None or self.proc.stdin is None:
                return
            data = memoryview(line + b"\n")
            try:
                while data:  # a raw pipe may take part of it
                    data = data[self.proc.stdin.write(data) or 0 :]
            except (OSError, ValueError):
                self.write_failed.set()
                self._closed = True

    def close_input(self, wait: float = 2.0) -> None:
        """End its input (EOF), after the write in progress if that ends within ``wait``."""
        got = self._write_lock.acquire(timeout=wait)
        try:
            self._closed = True
            if got and self.proc is not None and self.proc.stdin is not None:
                with contextlib.suppress(OSError, ValueError):
                    self.proc.stdin.close()
        finally:
            if got:
                self._write_lock.release()

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
