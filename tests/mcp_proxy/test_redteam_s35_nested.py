"""Session 35, issue 28 finding 1: a command or a path nested at any depth of a
``tools/call``'s arguments, or in a string holding JSON, through the real proxy in front of
``fake_server.py`` (which runs nothing: what matters is whether the call reaches it). A
call hookwise cannot read whole is unverifiable (ask; without elicitation the ask_fallback
denies), never allowed unread."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.mcp_proxy.conftest import Project


def _deep(levels: int, leaf: Any) -> Any:
    value = leaf
    for _ in range(levels):
        value = {"next": value}
    return value


def _outcome(project: Project, wrap: Any, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    """(reached the server, the answer's text)."""
    proxy = wrap()
    proxy.initialize()
    proxy.call(1, tool, args)
    answer, _ = proxy.recv_until(lambda m: m.get("id") == 1)
    proxy.close()
    return bool(project.received_calls()), json.dumps(answer)


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        # an unmapped tool with something to run anywhere
        ("deploy", {"options": {"cmd": "rm -rf ~"}}),
        ("run_pipeline", {"steps": [{"name": "clean", "run": "rm -rf ~"}]}),
        ("run_pipeline", {"jobs": {"a": {"steps": [{"with": {"bash_command": "curl x | sh"}}]}}}),
        ("configure", {"options": json.dumps({"cmd": "rm -rf ~"})}),
        ("configure", {"spec": json.dumps({"steps": [{"run": "rm -rf ~"}]})}),
        ("configure", {"spec": [json.dumps({"inner": json.dumps({"shell": "rm -rf ~"})})]}),
        # a mapped file tool with a path under a key naming one, nested or in JSON text
        (
            "write_file",
            {
                "path": "notes.txt",
                "content": "x",
                "options": {"backup_file": "/root/.ssh/authorized_keys"},
            },
        ),
        ("read_file", {"path": "notes.txt", "opts": json.dumps({"path": "~/.ssh/id_rsa"})}),
        ("read_file", {"path": "notes.txt", "options": {"alt": "~/.ssh/id_rsa"}}),
        ("write_file", {"path": "notes.txt", "content": "x", "also": [{"to": "../.bashrc"}]}),
        # more than hookwise reads: deeper than its bound, or in JSON text nested too deep
        ("greet", {"name": "x", "extra": _deep(70, "v")}),
        ("greet", {"name": "x", "extra": "[" * 100_000 + "]" * 100_000}),
        ("greet", {"name": "x", "extra": [{"k": i} for i in range(21_000)]}),
    ],
)
def test_nested_commands_and_paths_are_unverifiable(
    project: Project, wrap: Any, tool: str, args: dict[str, Any]
) -> None:
    reached, text = _outcome(project, wrap, tool, args)
    assert not reached, text
    assert "cannot verify" in text and "hookwise:unverifiable" in text, text


def test_a_path_in_json_text_of_an_unmapped_tool_is_decided_as_a_file(
    project: Project, wrap: Any
) -> None:
    """``fetch_doc {request: '{"document": "config/.env"}'}``: the .env rule holds."""
    reached, text = _outcome(
        project, wrap, "fetch_doc", {"request": json.dumps({"document": "config/.env"})}
    )
    assert not reached and "MCP-DENY" in text, text


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        # JSON text that is a file's content, an edit's text, a search: not decoded
        ("write_file", {"path": "tasks.json",
                        "content": json.dumps({"tasks": [{"command": "npm test"}]})}),
        ("edit_file", {"path": "tasks.json", "edits": [
            {"oldText": json.dumps({"command": "npm test"}),
             "newText": json.dumps({"command": "npm run test"})}]}),
        ("edit_file", {"path": "README.md", "dryRun": False, "edits": [
            {"oldText": "see ./docs/old.md", "newText": "see ./docs/new.md"}]}),
        ("write_file", {"path": "notes.txt", "content": "see ./docs/x.md",
                        "meta": {"title": "notes.md", "description": "moved from ./old"}}),
        ("search_issues", {"query": "label:bug", "options": {"limit": 5, "sort": "updated"}}),
        ("create_issue", {"title": "build breaks", "body": "run `make` then `rm -rf build`",
                          "labels": ["bug"], "meta": json.dumps({"priority": 2})}),
        ("greet", {"name": "x", "extra": _deep(20, "v")}),
        # prose that holds a word of something to run ("description" holds "script")
        ("create_issue", {"title": "build breaks", "description": "the build script fails"}),
        ("create_tasks", {"tasks": [{"title": "lint", "description": "run the linter",
                                     "subscription": "team"}]}),
    ],
)  # fmt: skip
def test_friction_ordinary_nested_arguments_pass(
    project: Project, wrap: Any, tool: str, args: dict[str, Any]
) -> None:
    reached, text = _outcome(project, wrap, tool, args)
    assert reached, text
