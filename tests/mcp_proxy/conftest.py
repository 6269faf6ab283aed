"""The proxy's tests run ``hookwise mcp wrap`` as a real process between a client (the test,
or the Python MCP SDK) and a real server (``fake_server.py``, or the reference filesystem
server from npm), with a trusted project policy and a private audit log.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

FAKE_SERVER = Path(__file__).with_name("fake_server.py")
DENY_TOKEN = "MCP-DENY"
ASK_TOKEN = "MCP-ASK"

POLICY = f"""\
version: 1
rules:
  - id: no-env-files
    match: {{files: "**/.env"}}
    action: deny
    reason: "{DENY_TOKEN}: .env files hold secrets"
  - id: no-recursive-delete
    match: {{tool: shell, command: rm -r}}
    action: deny
    reason: "{DENY_TOKEN}: recursive deletes are not allowed"
  - id: protected-is-read-only
    match: {{tool: [write, edit], files: "protected/**"}}
    action: deny
    reason: "{DENY_TOKEN}: protected/ is read-only"
  - id: deleting-needs-approval
    match: {{mcp: {{tool: delete_*}}}}
    action: ask
    reason: "{ASK_TOKEN}: deleting needs a person"
  - id: greet-alice
    match: {{mcp: {{tool: greet}}}}
    action: rewrite
    rewrite: {{replace: [{{arg: name, find: bob, with: alice}}]}}
"""


@dataclass
class Project:
    root: Path
    env: dict[str, str]
    audit_log: Path
    server_log: Path

    def audit(self) -> list[dict[str, Any]]:
        if not self.audit_log.exists():
            return []
        return [json.loads(x) for x in self.audit_log.read_text("utf-8").split("\n") if x]

    def received(self) -> list[dict[str, Any] | list[Any]]:
        """What the fake server read, in order."""
        if not self.server_log.exists():
            return []
        return [json.loads(x) for x in self.server_log.read_text("utf-8").split("\n") if x]

    def received_calls(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for msg in self.received():
            for item in msg if isinstance(msg, list) else [msg]:
                if item.get("method") == "tools/call":
                    out.append(item)
        return out


@pytest.fixture
def project(tmp_path: Path) -> Project:
    home = tmp_path / "home"
    home.mkdir()
    root = tmp_path / "proj"
    (root / ".git").mkdir(parents=True)
    (root / ".hookwise").mkdir()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("HOOKWISE_", "CLAUDE_")) and k not in ("XDG_CONFIG_HOME",)
    }
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        HOOKWISE_AUDIT_LOG=str(tmp_path / "audit.jsonl"),
        FAKE_SERVER_LOG=str(tmp_path / "server.jsonl"),
    )
    policy = root / ".hookwise" / "policy.yaml"
    policy.write_text(POLICY, encoding="utf-8")
    from hookwise.policy.trust.store import trust_file

    trust_file(str(policy), env)
    return Project(root, env, tmp_path / "audit.jsonl", tmp_path / "server.jsonl")


@dataclass
class Wrapped:
    """``hookwise mcp wrap`` running, with the test as its client."""

    proc: subprocess.Popen[bytes]
    stderr_path: Path
    lines: queue.Queue[bytes | None] = field(default_factory=queue.Queue)

    def stderr(self) -> str:
        return self.stderr_path.read_text("utf-8", "replace")

    def send(self, value: Any) -> None:
        self.send_raw(json.dumps(value).encode())

    def send_raw(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + b"\n")
        self.proc.stdin.flush()

    def recv(self, timeout: float = 30.0) -> Any:  # a loaded machine starts servers slowly
        line = self.lines.get(timeout=timeout)
        assert line is not None, "the proxy closed its output"
        return json.loads(line)

    def recv_until(self, pred: Any, timeout: float = 30.0) -> tuple[Any, list[Any]]:
        """The first message ``pred`` accepts, and those before it."""
        before: list[Any] = []
        while True:
            msg = self.recv(timeout)
            if pred(msg):
                return msg, before
            before.append(msg)

    def nothing(self, wait: float = 0.5) -> None:
        with pytest.raises(queue.Empty):
            self.lines.get(timeout=wait)

    def initialize(self, capabilities: dict[str, Any] | None = None) -> Any:
        self.send(
            {
                "jsonrpc": "2.0",
                "id": 0,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": capabilities or {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
        )
        answer, _ = self.recv_until(lambda m: m.get("id") == 0)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def call(self, request_id: Any, tool: str, args: dict[str, Any] | None = None) -> None:
        params: dict[str, Any] = {"name": tool}
        if args is not None:
            params["arguments"] = args
        self.send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})

    def close(self) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        return self.proc.wait(10)


# a host: starts the server command with the environment it is given, and waits for it
HOST = "import json, subprocess, sys; sys.exit(subprocess.call(sys.argv[2:], env=json.loads(sys.argv[1])))"


def as_host(env: dict[str, str], argv: list[str]) -> list[str]:
    """``argv`` started by a host process that was itself started with ``env`` (run it with
    ``env`` too): an unpinned proxy takes only the configuration its host holds."""
    return [sys.executable, "-c", HOST, json.dumps(env), *argv]


def wrap_argv(*server: str, name: str = "fake", extra: tuple[str, ...] = ()) -> list[str]:
    return [sys.executable, "-m", "hookwise", "mcp", "wrap", "--name", name, *extra, "--", *server]


@pytest.fixture
def wrap(project: Project) -> Iterator[Any]:
    """``wrap(mode, *options)``: the proxy in front of ``fake_server.py MODE``."""
    started: list[Wrapped] = []

    def start(
        mode: str = "echo",
        *options: str,
        server: list[str] | None = None,
        host: dict[str, str] | None = None,
    ) -> Wrapped:
        """Started by a host process (as a host starts a server: an unpinned proxy refuses
        configuration variables its host was not started with) of ``host``'s environment
        (default ``project.env``), which gives the proxy ``project.env`` (its own plus an
        entry's ``env``)."""
        argv = wrap_argv(*(server or [sys.executable, str(FAKE_SERVER), mode]), extra=options)
        argv = as_host(project.env, argv)
        err = project.root.parent / f"proxy-{len(started)}.err"
        with err.open("wb") as stderr:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                cwd=project.root,
                env=project.env if host is None else host,
            )
        wrapped = Wrapped(proc, err)

        def pump() -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                wrapped.lines.put(line)
            wrapped.lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        started.append(wrapped)
        return wrapped

    yield start
    for wrapped in started:
        if wrapped.proc.poll() is None:  # the proxy ends on its input's end, then the host
            assert wrapped.proc.stdin is not None
            wrapped.proc.stdin.close()
            try:
                wrapped.proc.wait(10)
            except subprocess.TimeoutExpired:
                wrapped.proc.kill()
                wrapped.proc.wait(10)
