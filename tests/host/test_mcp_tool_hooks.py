"""Claude Code's ``type: "mcp_tool"`` hooks through a real stdio MCP server (the mcp SDK's MCPServer),
configured where Claude Code reads servers (``~/.claude.json``, an approved ``.mcp.json``)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.config.claude.mcp import load_claude_mcp_servers
from hookwise.host.handlers.mcp_tool import substitute
from hookwise.host.loading import load_hook_system

SERVER = str(Path(__file__).parent / "data" / "mcp_hook_server.py")
WRITE = {"tool_name": "Write", "tool_input": {"file_path": "/etc/passwd", "content": "x"}}


def setup(
    tmp_path: Path, handler: dict[str, Any], *, where: str = "user", approve: bool = True
) -> tuple[Path, Path, Path]:
    home, project, log = tmp_path / "home", tmp_path / "project", tmp_path / "calls.jsonl"
    (home / ".claude").mkdir(parents=True)
    (project / ".claude").mkdir(parents=True)
    server = {"command": sys.executable, "args": [SERVER], "env": {"MCP_HOOK_LOG": str(log)}}
    settings: dict[str, Any] = {
        "hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "mcp_tool", **handler}]}]}
    }
    if where == "user":
        (home / ".claude.json").write_text(json.dumps({"mcpServers": {"scan": server}}))
    else:
        (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"scan": server}}))
        if approve:
            settings["enabledMcpjsonServers"] = ["scan"]
    (home / ".claude" / "settings.json").write_text(json.dumps(settings))
    return home, project, log


def fire(home: Path, project: Path, args: dict[str, Any] = WRITE) -> dict[str, Any]:
    system = load_hook_system(project, home=home, env={"PATH": "/usr/bin:/bin"}, dialect="claude")
    with system:
        result = system.fire_sync("PreToolUse", args)
    out = result.effect.to_json()
    out["runs"] = [
        {"success": r.success, "error": r.error, "stderr": r.stderr} for r in result.runs
    ]
    out["warnings"] = list(system.warnings)
    return out


def test_the_tool_text_is_read_as_stdout_and_input_takes_paths(tmp_path: Path) -> None:
    home, project, log = setup(
        tmp_path,
        {"server": "scan", "tool": "check_path", "input": {"file_path": "${tool_input.file_path}"}},
    )
    out = fire(home, project)
    assert out["decision"] == "deny", out
    assert out["outcome"]["reason_for_model"] == "no writes to /etc/passwd"
    assert [json.loads(line) for line in log.read_text().splitlines()] == [
        {"file_path": "/etc/passwd"}
    ]
    allowed = {"tool_name": "Write", "tool_input": {"file_path": "/tmp/x", "content": ""}}
    out = fire(home, project, allowed)
    assert out["decision"] == "none" and out["runs"][0]["success"] is True


def test_one_server_serves_the_session(tmp_path: Path) -> None:
    """Claude Code keeps its MCP servers connected for the session: every hook call of a
    session reaches the same server process, which ends with the session."""
    home, project, _ = setup(
        tmp_path,
        {"server": "scan", "tool": "check_path", "input": {"file_path": "${tool_input.file_path}"}},
    )
    config = json.loads((home / ".claude.json").read_text())
    config["mcpServers"]["scan"]["env"]["MCP_HOOK_PIDS"] = str(tmp_path / "pids")
    (home / ".claude.json").write_text(json.dumps(config))
    system = load_hook_system(project, home=home, env={"PATH": "/usr/bin:/bin"}, dialect="claude")
    with system:
        for _ in range(3):
            assert system.fire_sync("PreToolUse", WRITE).effect.outcome.proceed is False
        sessions = system.execution.mcp_sessions
        assert sessions is not None and sessions.started() == 1
    pids = (tmp_path / "pids").read_text().split()
    assert len(pids) == 3 and len(set(pids)) == 1
    assert sessions.started() == 0


def test_a_tool_error_is_non_blocking_unless_on_failure_blocks(tmp_path: Path) -> None:
    home, project, _ = setup(tmp_path, {"server": "scan", "tool": "broken"})
    out = fire(home, project)
    assert out["decision"] == "none" and out["outcome"]["proceed"] is True
    assert "returned an error" in out["runs"][0]["stderr"]
    home, project, _ = setup(
        tmp_path / "b", {"server": "scan", "tool": "broken", "onFailure": "block"}
    )
    out = fire(home, project)
    assert out["decision"] == "deny" and out["outcome"]["proceed"] is False


def test_an_unknown_server_or_tool_is_a_non_blocking_error(tmp_path: Path) -> None:
    home, project, _ = setup(tmp_path, {"server": "nope", "tool": "check_path"})
    out = fire(home, project)
    assert out["outcome"]["proceed"] is True
    assert "'nope' is not connected" in out["runs"][0]["stderr"]
    home, project, _ = setup(tmp_path / "b", {"server": "scan", "tool": "no_such_tool"})
    out = fire(home, project)
    assert out["outcome"]["proceed"] is True and out["runs"][0]["success"] is False


def test_a_project_server_runs_only_once_the_user_approved_it(tmp_path: Path) -> None:
    handler = {"server": "scan", "tool": "check_path", "input": {"file_path": "/etc/x"}}
    home, project, log = setup(tmp_path, handler, where="project", approve=False)
    out = fire(home, project)
    assert out["outcome"]["proceed"] is True and not log.exists()
    assert "not approved by the user" in out["runs"][0]["stderr"]
    home, project, log = setup(tmp_path / "b", handler, where="project", approve=True)
    assert fire(home, project)["decision"] == "deny"


def test_a_project_cannot_approve_its_own_server(tmp_path: Path) -> None:
    handler = {"server": "scan", "tool": "check_path", "input": {"file_path": "/etc/x"}}
    home, project, _log = setup(tmp_path, handler, where="project", approve=False)
    (project / ".claude" / "settings.json").write_text(
        json.dumps({"enableAllProjectMcpServers": True})
    )
    servers = load_claude_mcp_servers(project, home=home, env={})
    assert "scan" not in servers.servers and "scan" in servers.unavailable


def test_a_slow_tool_times_out_without_a_decision(tmp_path: Path) -> None:
    home, project, _ = setup(tmp_path, {"server": "scan", "tool": "slow", "timeout": 2})
    started = time.monotonic()
    out = fire(home, project)
    assert time.monotonic() - started < 4.5
    assert out["outcome"]["proceed"] is True and "timed out" in (out["runs"][0]["error"] or "")


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("${tool_input.file_path}", "/etc/passwd"),
        ("a ${tool_input.missing} b", "a  b"),
        ("${tool_input}", json.dumps(WRITE["tool_input"])),
        ("$(rm -rf /) ${tool_name}", "$(rm -rf /) Write"),
    ],
)
def test_substitution(template: str, expected: str) -> None:
    assert substitute({"v": template}, WRITE) == {"v": expected}


@given(st.recursive(st.text(max_size=10), lambda c: st.lists(c, max_size=3), max_leaves=6))
def test_substitution_keeps_the_shape_and_only_rewrites_strings(value: Any) -> None:
    out = substitute(value, WRITE)
    if isinstance(value, list):
        assert isinstance(out, list) and len(out) == len(value)
    if isinstance(value, str) and "${" not in value:
        assert out == value
