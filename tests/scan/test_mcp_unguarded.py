"""``mcp-unguarded``: MCP servers whose tool calls no ``hookwise mcp wrap`` decides."""

from __future__ import annotations

import json
from pathlib import Path

from hookwise.mcp_proxy import entry_program, wrapped
from hookwise.mcp_proxy.config_env import pins_for
from hookwise.scan.model import Severity
from hookwise.scan.report import scan_project
from tests.scan.support import context


def test_a_wrapped_server_is_recognised_and_only_that() -> None:
    assert wrapped(["hookwise", "mcp", "wrap", "--name", "fs", "--", "npx", "srv"])
    assert wrapped(["/usr/local/bin/hookwise", "mcp", "wrap", "--", "srv"])
    assert wrapped(["/venv/bin/python", "-m", "hookwise", "mcp", "wrap", "--", "srv"])
    assert not wrapped(["npx", "-y", "@modelcontextprotocol/server-filesystem", "."])
    assert not wrapped(["evil", "mcp", "wrap", "--", "srv"])  # not hookwise's
    assert not wrapped(["hookwise", "mcp"])
    assert not wrapped([])


def test_scan_reports_each_server_not_behind_the_proxy(tmp_path: Path) -> None:
    project, home = (tmp_path / "repo").resolve(), (tmp_path / "home").resolve()
    project.mkdir()
    home.mkdir()
    program = entry_program({"PATH": "/usr/bin:/bin"})
    ctx = context(project, home)
    pins = pins_for(ctx.env)  # pinned as install writes it for this user (s26 F8)
    servers = {
        "mcpServers": {
            "plain": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]},
            "guarded": {  # this hookwise, as install writes it for the scan's PATH
                "command": program[0],
                "args": [*program[1:], "mcp", "wrap", *pins, "--name", "guarded", "--", "npx", "s"],
            },
            "fake": {  # F7: a program of the repository's named hookwise is no proxy
                "command": "./hookwise",
                "args": ["mcp", "wrap", "--name", "fake", "--", "npx", "-y", "srv"],
            },
            "remote": {"type": "http", "url": "https://mcp.example.com/mcp"},
        }
    }
    (project / ".mcp.json").write_text(json.dumps(servers, indent=2), encoding="utf-8")
    report = scan_project(ctx)
    found = sorted(
        f.message for f in report.findings if f.rule == "mcp-unguarded" and "claude" in f.message
    )
    assert found == [
        "claude project MCP server 'fake' runs through a program that is not the proxy: "
        "'./hookwise' is resolved against the host's working directory",
        "claude project MCP server 'plain' does not run through `hookwise mcp wrap`",
        "claude project remote MCP server 'remote' (https://mcp.example.com/mcp): the proxy"
        " cannot wrap it",
    ]
    unguarded = [f for f in report.findings if f.rule == "mcp-unguarded"]
    # a repository's entry dressed as the guard is an attack, not a missing wrap (s25 F15)
    assert {f.severity for f in unguarded if "'fake'" in f.message} == {Severity.HIGH}
    assert all(f.severity is Severity.INFO for f in unguarded if "'fake'" not in f.message)
