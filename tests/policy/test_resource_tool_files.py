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

RULES = (
    "version: 1\nrules:\n"
    '  - id: no-env\n    match: {files: "**/.env"}\n    action: deny\n'
    '  - id: no-secret-read\n    match: {tool: read, files: "**/secret.txt"}\n    action: deny\n'
    '  - id: no-key-read\n    match: {tool: "re*", files: "**/key.pem"}\n    action: deny\n'
    "  - id: no-list\n    match: {tool: read, mcp: {server: lister}}\n    action: deny\n"
)


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
    for uri in (f"file://{root}/proj/notes.txt", "https://example.com/notes", "db://x/table"):
        assert "no-env" not in ask(root, uri), uri  # type: ignore[operator]


@pytest.mark.parametrize("ask", [_claude, _gemini])
def test_a_uri_under_any_scheme_whose_path_names_a_denied_file_is_denied(
    root: Path, ask: object
) -> None:
    """A server maps its own schemes to files (``db://x/.env`` may be ``x/.env`` or
    ``/.env`` to it): each reading of the path part is decided (red team s28 F9; these
    passed as no file before)."""
    for uri in ("db://x/.env", "https://example.com/.env", "workspace://.env"):
        assert "no-env" in ask(root, uri), uri  # type: ignore[operator]


@pytest.mark.parametrize("ask", [_claude, _gemini])
def test_a_tool_read_rule_holds_for_a_resource_tool_reading(root: Path, ask: object) -> None:
    """s27 F18's second half: ``tool: read`` (by name or glob) holds for the hosts' resource
    readers, as it does for the proxy's ``resources/read`` (one mapping)."""
    secret = ask(root, f"file://{root}/proj/secret.txt")  # type: ignore[operator]
    assert "no-secret-read" in secret, secret
    key = ask(root, f"file://{root}/proj/key.pem")  # type: ignore[operator]
    assert "no-key-read" in key, key
    assert "no-secret-read" not in ask(root, f"file://{root}/proj/notes.txt")  # type: ignore[operator]


def test_listing_resources_is_no_read(root: Path) -> None:
    event = {"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(root / "proj"),
             "tool_name": "ListMcpResourcesTool", "tool_input": {"server": "lister"}}  # fmt: skip
    assert "no-list" not in _hook(root, "claude", event)
    event["tool_input"] = {"server": "lister", "uri": "x://y"}
    event["tool_name"] = "ReadMcpResourceTool"
    assert "no-list" in _hook(root, "claude", event)


def test_the_proxy_and_the_hook_share_the_mapping() -> None:
    from hookwise.mcp_proxy import decide
    from hookwise.policy import canonical

    assert set(decide.RESOURCE_METHODS) == set(canonical.RESOURCE_METHOD_TOOLS)
    assert canonical.RESOURCE_METHOD_TOOLS["resources/read"] == "read"
