"""The Python MCP SDK's client -> ``hookwise mcp wrap`` -> the reference filesystem server
(@modelcontextprotocol/server-filesystem, pinned in tests/e2e/mcp-servers/, installed by
``make e2e-install``): what a real client and a real server see through the proxy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from tests.e2e.clis import mcp_server
from tests.mcp_proxy.conftest import ASK_TOKEN, DENY_TOKEN, Project, as_host, wrap_argv

SERVER = mcp_server("mcp-server-filesystem")
pytestmark = pytest.mark.skipif(
    SERVER is None, reason="the filesystem MCP server is not installed (make e2e-install)"
)


async def _session(project: Project, work: Path, script: Any, elicit: Any = None) -> Any:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    argv = as_host(project.env, wrap_argv(str(SERVER), str(work), name="fs"))
    params = StdioServerParameters(
        command=argv[0], args=argv[1:], env=project.env, cwd=str(project.root)
    )
    kwargs: dict[str, Any] = {"elicitation_callback": elicit} if elicit else {}
    async with stdio_client(params) as (read, write), ClientSession(read, write, **kwargs) as s:
        await s.initialize()
        return await script(s)


def _text(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


def _work(project: Project) -> Path:
    work = project.root
    (work / "notes.txt").write_text("hello from the filesystem server\n", encoding="utf-8")
    (work / ".env").write_text("API_KEY=do-not-leak\n", encoding="utf-8")
    (work / "protected").mkdir()
    return work


def test_real_client_and_server_allowed_and_denied_calls(project: Project) -> None:
    work = _work(project)

    async def script(s: Any) -> dict[str, Any]:
        tools = await s.list_tools()
        return {
            "tools": {t.name for t in tools.tools},
            "read": await s.call_tool("read_text_file", {"path": str(work / "notes.txt")}),
            "secret": await s.call_tool("read_text_file", {"path": str(work / ".env")}),
            "write": await s.call_tool(
                "write_file", {"path": str(work / "protected" / "x.txt"), "content": "pwned"}
            ),
            "ok_write": await s.call_tool(
                "write_file", {"path": str(work / "out.txt"), "content": "written"}
            ),
        }

    got = anyio.run(_session, project, work, script)
    assert {"read_text_file", "write_file", "list_directory"} <= got["tools"]
    assert not got["read"].is_error and "hello from the filesystem server" in _text(got["read"])
    assert got["secret"].is_error and DENY_TOKEN in _text(got["secret"])
    assert "do-not-leak" not in _text(got["secret"])
    assert got["write"].is_error and "protected-is-read-only" in _text(got["write"])
    assert not (work / "protected" / "x.txt").exists()  # the server never got the call
    assert (work / "out.txt").read_text(encoding="utf-8") == "written"
    decisions = [
        (r["host_tool"], r["decision"]) for r in project.audit() if r.get("event") == "tool.before"
    ]
    assert decisions == [
        ("mcp__fs__read_text_file", "none"),
        ("mcp__fs__read_text_file", "deny"),
        ("mcp__fs__write_file", "deny"),
        ("mcp__fs__write_file", "none"),
    ]


def test_real_client_answers_an_ask_through_elicitation(project: Project) -> None:
    import mcp.types as types

    work = _work(project)
    policy = project.root / ".hookwise" / "policy.yaml"
    policy.write_text(
        policy.read_text("utf-8")
        + f"""\
  - id: moves-need-approval
    match: {{mcp: {{server: fs, tool: move_file}}}}
    action: ask
    reason: "{ASK_TOKEN}: moving files needs a person"
""",
        encoding="utf-8",
    )
    from hookwise.policy.trust.store import trust_file

    trust_file(str(policy), project.env)
    asked: list[str] = []

    async def elicit(_context: Any, params: Any) -> Any:
        asked.append(params.message)
        allow = "a.txt" in params.message
        return types.ElicitResult(action="accept", content={"allow": allow})

    (work / "a.txt").write_text("a", encoding="utf-8")
    (work / "b.txt").write_text("b", encoding="utf-8")

    async def script(s: Any) -> tuple[Any, Any]:
        moved = await s.call_tool(
            "move_file", {"source": str(work / "a.txt"), "destination": str(work / "a2.txt")}
        )
        kept = await s.call_tool(
            "move_file", {"source": str(work / "b.txt"), "destination": str(work / "b2.txt")}
        )
        return moved, kept

    moved, kept = anyio.run(_session, project, work, script, elicit)
    assert len(asked) == 2 and all(ASK_TOKEN in m for m in asked)
    assert not moved.is_error and (work / "a2.txt").exists()
    assert kept.is_error and (work / "b.txt").exists() and not (work / "b2.txt").exists()
