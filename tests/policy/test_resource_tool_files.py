"""The hosts' own resource tools reading a ``file:`` URI are held to ``files:`` rules in the
hook, as the MCP proxy's ``resources/read`` is (red team s27 F18): through the real
``hookwise hook`` for Claude's ReadMcpResourceTool and Gemini's read_mcp_resource."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

RULES = 'version: 1\nrules:\n  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n'


def _hook(root: Path, host: str, event: dict[str, object]) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOOKWISE_", "XDG_"))}
    env.update(HOME=str(root / "home"), XDG_STATE_HOME=str(root / "state"),
               HOOKWISE_USER_POLICY=str(root / "policy.yaml"))  # fmt: skip
    done = subprocess.run([sys.executable, "-m", "hookwise", "hook", "--host", host],
                          input=json.dumps(event), capture_output=True, text=True, env=env,
                          timeout=60, check=False)  # fmt: skip
    return done.stdout


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for name in ("proj", "home", "state"):
        (tmp_path / name).mkdir()
    (tmp_path / "policy.yaml").write_text(RULES)
    (tmp_path / "proj" / ".env").write_text("SECRET=1")
    return tmp_path


def _claude(root: Path, uri: str) -> str:
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(root / "proj"),
             "tool_name": "ReadMcpResourceTool", "tool_input": {"server": "fs", "uri": uri}}  # fmt: skip
    return _hook(root, "claude", event)


def _gemini(root: Path, uri: str) -> str:
    event = {"session_id": "s", "hook_event_name": "BeforeTool", "cwd": str(root / "proj"),
             "tool_name": "read_mcp_resource", "tool_input": {"uri": f"fs:{uri}"},
             "transcript_path": "", "timestamp": "2026-11-28T00:00:00Z"}  # fmt: skip
    return _hook(root, "gemini", event)


@pytest.mark.parametrize("ask", [_claude, _gemini])
@pytest.mark.parametrize("uri", ["file://{p}/.env", "file://{p}\\.env", "file://{p}/%2Eenv"])
def test_a_resource_tool_reading_a_denied_file_is_denied(root: Path, ask: object, uri: str) -> None:
    answer = ask(root, uri.format(p=root / "proj"))  # type: ignore[operator]
    assert "no-env" in answer, answer


@pytest.mark.parametrize("ask", [_claude, _gemini])
def test_a_resource_tool_reading_other_files_or_uris_passes(root: Path, ask: object) -> None:
    for uri in (f"file://{root}/proj/notes.txt", "https://example.com/.env", "db://x/.env"):
        assert "no-env" not in ask(root, uri), uri  # type: ignore[operator]
