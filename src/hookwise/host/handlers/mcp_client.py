"""The stdio MCP servers a session keeps connected for its ``mcp_tool`` hooks.

Claude Code and Codex connect each configured server once and keep it for the session; a
hook's call goes over that connection (a server with state between calls sees every call).
``McpSessions`` does the same: a server starts on its first call and stays until
``close()`` (``HookSystem.close``), or until it dies (the next call starts it again). The
connection does not belong to an event loop (a reader thread per server), so synchronous
and asynchronous firing share it.

Hostile servers: a line over ``LINE_CAP`` bytes or a closed output ends the connection and
fails its pending calls; lines that are not JSON are skipped (servers log to stdout); a
request from the server gets an error answer (``ping`` an empty result), so it never waits
on hookwise. The server runs in its own session (process group) and is killed at close.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import IO, Final

from hookwise.config.mcp_servers import McpServer
from hookwise.protocol.jsvalue import JSON

PROTOCOL_VERSION: Final = "2025-06-18"
LINE_CAP: Final = 16 * 1024 * 1024  # one JSON-RPC message; a longer line is a bad server
START_TIMEOUT_S: Final = 30.0


class McpCallError(Exception):
    """The call did not give a usable answer (why, for the user)."""


class McpConnection:
    """One running stdio server: requests by id, answers matched by a reader thread."""

    def __init__(self, server: McpServer, env: Mapping[str, str], cwd: str) -> None:
        self.server = server
        self._lock = threading.Lock()  # the state below
        self._write_lock = threading.Lock()  # one message at a time on the server's stdin
        self._pending: dict[int, Future[dict[str, JSON]]] = {}
        self._next_id = 1
        self._broken: str | None = None
        self.process = subprocess.Popen(
            [server.command, *server.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**env, **dict(server.env)},
            cwd=cwd if os.path.isdir(cwd) else None,
            start_new_session=True,
        )
        assert self.process.stdout is not None
        self._reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self._reader.start()

    @property
    def alive(self) -> bool:
        return self._broken is None and self.process.poll() is None

    def start(self, timeout_s: float) -> None:
        """The initialize handshake."""
        params: dict[str, JSON] = {
            "protocolVersion": PROTOCOL_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "hookwise", "version": "1"},
        }
        self.request("initialize", params, timeout_s)
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def request(self, method: str, params: dict[str, JSON], timeout_s: float) -> dict[str, JSON]:
        """Send one request and wait for its result (blocking: callers use a thread)."""
        future: Future[dict[str, JSON]] = Future()
        with self._lock:
            if self._broken is not None:
                raise McpCallError(self._broken)
            ident = self._next_id
            self._next_id += 1
            self._pending[ident] = future
        try:
            self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
            return future.result(timeout=timeout_s)
        except FutureTimeout:
            self._send(
                {
                    "jsonrpc": "2.0",
                    "method": "notifications/cancelled",
                    "params": {"requestId": ident, "reason": "hook timed out"},
                }
            )
            raise TimeoutError(f"{method} timed out") from None
        finally:
            with self._lock:
                self._pending.pop(ident, None)

    def _send(self, message: dict[str, JSON]) -> None:
        stdin = self.process.stdin
        try:
            assert stdin is not None
            with self._write_lock:
                stdin.write(json.dumps(message).encode() + b"\n")
                stdin.flush()
        except (OSError, ValueError) as exc:
            self._fail(f"cannot write to the server: {exc}")
            raise McpCallError(f"cannot write to the server: {exc}") from None

    def _read(self, stdout: IO[bytes]) -> None:
        while True:
            line = stdout.readline(LINE_CAP + 1)
            if not line:
                self._fail("the server closed its output")
                return
            if len(line) > LINE_CAP:
                self._fail(f"the server sent a message over {LINE_CAP} bytes")
                return
            try:
                message = json.loads(line)
            except ValueError:
                continue  # servers may log to stdout; the SDKs skip such lines too
            if isinstance(message, dict):
                self._dispatch(message)

    def _dispatch(self, message: dict[str, JSON]) -> None:
        ident = message.get("id")
        if "method" in message:
            if ident is not None and not isinstance(ident, bool):
                # a request from the server: hookwise offers no client features
                answer: dict[str, JSON] = {"jsonrpc": "2.0", "id": ident}
                if message.get("method") == "ping":
                    answer["result"] = {}
                else:
                    answer["error"] = {"code": -32601, "message": "not supported by hookwise"}
                with contextlib.suppress(McpCallError):
                    self._send(answer)
            return
        with self._lock:
            wanted = isinstance(ident, int) and not isinstance(ident, bool)
            future = self._pending.get(ident) if wanted else None  # type: ignore[arg-type]
        if future is None or future.done():
            return
        error = message.get("error")
        result = message.get("result")
        if error is not None:
            text = error.get("message") if isinstance(error, dict) else error
            future.set_exception(McpCallError(f"the server answered an error: {text}"))
        elif not isinstance(result, dict):
            future.set_exception(McpCallError("the server's answer has no result object"))
        else:
            future.set_result(result)

    def _fail(self, why: str) -> None:
        with self._lock:
            if self._broken is None:
                self._broken = why
            pending = list(self._pending.values())
        for future in pending:
            if not future.done():
                future.set_exception(McpCallError(why))

    def close(self) -> None:
        self._fail("the session ended")
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except OSError:
                self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


class McpSessions:
    """The servers connected so far in one session, by name and definition."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connections: dict[McpServer, McpConnection] = {}
        self._starting: dict[McpServer, threading.Lock] = {}

    def connection(
        self, server: McpServer, env: Mapping[str, str], cwd: str, timeout_s: float
    ) -> McpConnection:
        """The session's connection to ``server``, started (and initialized) on first use.
        A changed definition of the same name is a different server."""
        with self._lock:
            gate = self._starting.setdefault(server, threading.Lock())
        with gate:
            with self._lock:
                known = self._connections.get(server)
            if known is not None and known.alive:
                return known
            if known is not None:
                known.close()
            connection = McpConnection(server, env, cwd)
            try:
                connection.start(min(timeout_s, START_TIMEOUT_S))
            except BaseException:
                connection.close()
                raise
            with self._lock:
                self._connections[server] = connection
            return connection

    def started(self) -> int:
        """How many servers this session has running (tests, diagnostics)."""
        with self._lock:
            return sum(1 for c in self._connections.values() if c.alive)

    def close(self) -> None:
        """End every server of the session."""
        with self._lock:
            connections = list(self._connections.values())
            self._connections.clear()
        for connection in connections:
            connection.close()
