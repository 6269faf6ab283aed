"""A rewrite of an MCP tool mapped by its own name names the server's own keys (issue 28,
session 31, item 1). The rules read ``{"file": ...}`` as ``file_path`` and ``cmd`` or an
argv list as ``command`` (tool_input.canonical_input); the hook's rewrite answer put a
``file_path`` beside the server's ``file`` (the server writes where ``file`` says) and a
``replace`` on ``command`` found no ``command`` and left ``cmd`` as it was. Now each host's
rewrite (``updatedInput``, Gemini's ``tool_input``, Kiro's ``modifiedArgs``) carries the
arguments as the server names them, as the MCP proxy forwards them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.protocol.hosts import HOSTS
from tests.mcp_proxy.conftest import Project
from tests.policy.conftest import compile_text

RULES = """version: 1
rules:
  - id: rw-shell
    match: {tool: shell, command: echo}
    action: rewrite
    rewrite: {replace: [{arg: command, find: marker, with: fixed}]}
  - id: rw-draft
    match: {tool: write, files: '**/draft.txt'}
    action: rewrite
    rewrite: {replace: [{arg: file_path, find: draft.txt, with: final.txt}]}
  - id: rw-notes
    match: {tool: write, files: '**/notes.txt'}
    action: rewrite
    rewrite: {set: {file_path: /w/kept/secret.txt}}
  - {id: kept, match: {tool: write, files: '**/kept/**'}, action: deny}
"""
POLICY = compile_text(RULES)
assert POLICY["errors"] == [], POLICY["errors"]

# (call, the arguments the server must get): each under the server's own keys
CALLS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("run_command", {"cmd": "echo marker"}, {"cmd": "echo fixed"}),
    ("run_command", {"script": "echo marker"}, {"script": "echo fixed"}),
    ("run_command", {"command": ["echo", "marker"]}, {"command": ["echo", "fixed"]}),
    ("write_file", {"file": "/w/draft.txt", "content": "x"}, {"file": "/w/final.txt", "content": "x"}),
    ("write_file", {"filePath": "/w/draft.txt"}, {"filePath": "/w/final.txt"}),
]  # fmt: skip


def _rewritten(answer: dict[str, Any]) -> Any:
    """The rewritten input of a host's answer, whichever field its format uses."""
    hso = answer.get("hookSpecificOutput", {})
    for found in (hso.get("updatedInput"), hso.get("tool_input"), answer.get("modifiedArgs")):
        if found is not None:
            return found
    return None


def _rewriting_hosts() -> list[str]:
    """Every host whose answer can carry a rewrite of an MCP tool named ``mcp__S__T`` (or
    Gemini's ``mcp_S_T``): found by asking, so a host added later is covered too."""
    out = []
    for host in HOSTS:
        answer = _answer(host, "write_file", {"file_path": "/w/draft.txt"})
        if answer is not None and _rewritten(answer) is not None:
            out.append(host)
    return out


def _answer(host: str, tool: str, args: dict[str, Any]) -> dict[str, Any] | None:
    name = f"mcp_fs_{tool}" if host == "gemini" else f"mcp__fs__{tool}"
    extra = {"mcp_context": {"server_name": "fs", "tool_name": tool}} if host == "gemini" else None
    payload = build_payload(
        host, HOSTS[host].pre_tool_event, tool=name, tool_input=args, cwd="/w", extra=extra
    )
    out = decide(payload, POLICY, None, {"HOME": "/h"}, now=0.0).answer
    return json.loads(out.stdout) if out.stdout.strip().startswith("{") else None


def test_each_host_gets_the_rewrite_in_the_server_s_own_keys() -> None:
    hosts = _rewriting_hosts()
    # (the hosts known to rewrite today: a host losing its rewrite fails here too)
    assert {"claude", "codex", "gemini", "opencode", "kilo", "kiro", "copilot"} <= set(hosts)
    for host in hosts:
        for tool, args, expected in CALLS:
            answer = _answer(host, tool, args)
            assert answer is not None and _rewritten(answer) == expected, (host, tool, answer)


def test_a_rewrite_onto_a_denied_file_under_the_server_s_key_is_denied() -> None:
    """The rewritten call is read again as the first was (Event.derived maps it): a
    ``set`` of ``file_path`` lands in ``file``, and that file is what the deny rules see."""
    for host in _rewriting_hosts():
        answer = _answer(host, "write_file", {"file": "/w/notes.txt", "content": "x"})
        assert answer is not None, host
        text = json.dumps(answer)
        assert "kept" in text and "deny" in text.lower() and _rewritten(answer) is None, (
            host,
            answer,
        )


def test_the_proxy_and_the_hook_rewrite_to_the_same_arguments(
    project: Project, wrap: Any, tmp_path: Path
) -> None:
    """The same call through ``hookwise mcp wrap`` (what the server reads) and through a real
    ``hookwise hook --host claude`` process (its ``updatedInput``): the same arguments."""
    user = Path(project.env["XDG_CONFIG_HOME"]) / "hookwise" / "policy.yaml"
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text(RULES, "utf-8")
    root = project.root
    calls = [
        ("run_command", {"cmd": "echo marker"}),
        ("run_command", {"command": ["echo", "marker"]}),
        ("write_file", {"file": f"{root}/draft.txt", "content": "x"}),
    ]
    proxy = wrap()
    proxy.initialize()
    for n, (tool, args) in enumerate(calls, 1):
        proxy.call(n, tool, args)
    for _ in calls:
        proxy.recv()
    proxy.close()
    received = [c["params"]["arguments"] for c in project.received_calls()]
    assert len(received) == len(calls), received
    for (tool, args), server_got in zip(calls, received, strict=True):
        payload = build_payload(
            "claude", "PreToolUse", tool=f"mcp__fake__{tool}", tool_input=args, cwd=str(root)
        )
        done = subprocess.run(
            [sys.executable, "-m", "hookwise", "hook", "--host", "claude"],
            input=json.dumps(payload), capture_output=True, text=True, env=project.env,
            cwd=root, timeout=60, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        hook_got = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]
        assert hook_got == server_got != args, (tool, hook_got, server_got)
