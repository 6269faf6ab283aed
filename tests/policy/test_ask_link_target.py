"""The hook's ask for a file tool's call through a symbolic link names the file the link
leads to (issue 28, session 29; the MCP proxy's elicitation does since red team s28 F10):
``tests/fixtures/ssh -> ~/.ssh``, the user is asked about a "fixture" and
``~/.ssh/authorized_keys`` is written. Through the real ``hookwise hook`` for Claude Code
and Gemini CLI, and the proxy's lines from the same place (``canonical.file_lines``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.mcp_proxy.decide import Decider

RULES = (
    "version: 1\nrules:\n"
    '  - id: ask-ssh\n    match: {tool: [write, read, edit], files: "~/.ssh/**"}\n'
    "    action: ask\n    reason: S29-SSH\n"
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("proj/tests/fixtures", "home/.ssh", "state"):
        (tmp_path / name).mkdir(parents=True)
    (tmp_path / "proj" / "tests" / "fixtures" / "ssh").symlink_to(tmp_path / "home" / ".ssh")
    (tmp_path / "home" / ".ssh" / "authorized_keys").write_text("")
    (tmp_path / "policy.yaml").write_text(RULES)
    return tmp_path


def _env(root: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKWISE_", "XDG_"))}
    env.update(HOME=str(root / "home"), XDG_STATE_HOME=str(root / "state"),
               HOOKWISE_USER_POLICY=str(root / "policy.yaml"))  # fmt: skip
    return env


def _hook(root: Path, host: str, event: dict[str, Any]) -> str:
    done = subprocess.run([sys.executable, "-m", "hookwise", "hook", "--host", host],
                          input=json.dumps(event), capture_output=True, text=True,
                          env=_env(root), timeout=60, check=False)  # fmt: skip
    return done.stdout


def _event(host: str, root: Path, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    cwd = str(root / "proj")
    if host == "gemini":
        return {"session_id": "s", "hook_event_name": "BeforeTool", "cwd": cwd,
                "tool_name": tool, "tool_input": args, "transcript_path": "",
                "timestamp": "2026-11-28T00:00:00Z"}  # fmt: skip
    return {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": cwd,
            "tool_name": tool, "tool_input": args, "transcript_path": ""}  # fmt: skip


CALLS = [
    ("claude", "Write", {"file_path": "tests/fixtures/ssh/authorized_keys", "content": "k"}),
    ("claude", "Read", {"file_path": "tests/fixtures/ssh/authorized_keys"}),
    ("gemini", "write_file", {"file_path": "tests/fixtures/ssh/authorized_keys", "content": "k"}),
    ("gemini", "read_file", {"file_path": "tests/fixtures/ssh/authorized_keys"}),
]


@pytest.mark.parametrize(("host", "tool", "args"), CALLS)
def test_the_hook_s_ask_names_the_file_a_link_leads_to(
    root: Path, host: str, tool: str, args: dict[str, Any]
) -> None:
    answer = _hook(root, host, _event(host, root, tool, args))
    target = root / "home" / ".ssh" / "authorized_keys"
    assert "S29-SSH" in answer and f"file: {target}" in answer, answer


def test_the_hook_names_no_file_when_the_path_is_the_file(root: Path) -> None:
    target = root / "home" / ".ssh" / "authorized_keys"
    event = _event("claude", root, "Write", {"file_path": str(target), "content": "k"})
    answer = json.loads(_hook(root, "claude", event))["hookSpecificOutput"]
    assert answer["permissionDecision"] == "ask", answer
    assert answer["permissionDecisionReason"] == "S29-SSH", answer


def test_the_proxy_and_the_hook_name_it_alike(root: Path) -> None:
    """One spelling of the named file (canonical.file_lines) on both sides."""
    decider = Decider("fs", cwd=str(root / "proj"), env=_env(root))
    lines = decider.decided_text(
        "write_file", {"path": "tests/fixtures/ssh/authorized_keys", "content": "k"}
    )
    target = root / "home" / ".ssh" / "authorized_keys"
    assert lines == [f"file: {target}"], lines
    answer = _hook(root, "claude", _event("claude", root, *CALLS[0][1:]))
    assert f"(file: {target})" in answer, answer
