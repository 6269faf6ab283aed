"""A real stdio MCP server (the ``mcp`` SDK's MCPServer) for the mcp_tool hook tests."""

from __future__ import annotations

import json
import os
import sys
import time

from mcp.server.mcpserver import MCPServer

server = MCPServer("hook-tools")


@server.tool()
def check_path(file_path: str) -> str:
    """Deny writes under /etc, as a PreToolUse answer; log what it was called with."""
    log = os.environ.get("MCP_HOOK_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as out:
            out.write(json.dumps({"file_path": file_path}) + "\n")
    pids = os.environ.get("MCP_HOOK_PIDS")
    if pids:  # which server process answered: a session keeps one
        with open(pids, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
    if file_path.startswith("/etc/"):
        return json.dumps(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": "deny",
                    "permissionDecisionReason": f"no writes to {file_path}",
                }
            }
        )
    return ""


@server.tool()
def echo(value: object, event: str = "UserPromptSubmit") -> str:
    """The value as received, as the event's context (what a placeholder gave)."""
    return json.dumps(
        {
            "hookSpecificOutput": {
                "hookEventName": event,
                "additionalContext": json.dumps({"value": value}),
            }
        }
    )


@server.tool()
def broken() -> str:
    """Always fails: the tool's answer has isError."""
    raise RuntimeError("scanner unavailable")


@server.tool()
def slow() -> str:
    time.sleep(5)
    return ""


if __name__ == "__main__":
    print("a banner line on stderr", file=sys.stderr)
    server.run("stdio")
