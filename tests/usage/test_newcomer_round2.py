"""Issue 26 ("a newcomer's first hour, round 2"): each item as a user meets it.

A fresh HOME and project (tests/usage/conftest.py), ``hookwise`` run as a real process.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.usage.conftest import User

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "gemini-project"


def _claude_user_hook(user: User) -> None:
    """Any hook in ~/.claude/settings.json: most Claude Code users have one."""
    settings = user.home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    hook = {"type": "command", "command": "true"}
    settings.write_text(json.dumps({"hooks": {"Stop": [{"hooks": [hook]}]}}))


def test_readme_fire_example_with_a_claude_user_hook(user: User) -> None:
    """Item 2: `fire BeforeTool` is Gemini's event whatever else the user has set up."""
    _claude_user_hook(user)
    example = user.home / "gemini-project"
    shutil.copytree(EXAMPLE, example)
    user.run("hooks", "trust", "--folder", "--project", str(example))
    fired = user.run(
        "fire",
        "BeforeTool",
        "--project",
        str(example),
        "--payload",
        str(example / "payloads" / "shell_rm_rf.json"),
    )
    assert "unknown claude hook event" not in fired.stdout + fired.stderr
    fired = user.run(
        "fire",
        "BeforeTool",
        "--payload",
        "-",
        "--json",
        stdin='{"tool_name":"read_file","tool_input":{"absolute_path":"a"}}',
        cwd=user.home,
    )
    assert json.loads(fired.stdout)["effect"]


def test_fire_an_event_several_hosts_have_asks_for_host(user: User) -> None:
    """Item 2: with all three hosts installed, PreToolUse is Claude Code's or Codex's."""
    user.run("policy", "init")
    user.run("policy", "trust")
    for host in ("claude", "gemini", "codex"):
        user.run("install", host)
    payload = '{"tool_name":"Bash","tool_input":{"command":"ls"}}'
    ambiguous = user.run("fire", "PreToolUse", "--payload", "-", stdin=payload, check=2)
    assert "PreToolUse is an event of Claude Code and Codex" in ambiguous.stderr
    assert "--host claude or --host codex" in ambiguous.stderr
    user.run("fire", "PreToolUse", "--host", "claude", "--payload", "-", stdin=payload)
    # BeforeTool is Gemini's alone: no --host needed
    gemini = '{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}'
    user.run("fire", "BeforeTool", "--payload", "-", "--trust-project", stdin=gemini)
    listed = user.run("hooks", "list")
    assert listed.stdout.startswith("Gemini CLI hooks (detected"), listed.stdout
    listed = user.run("hooks", "list", "--host", "codex")
    assert listed.stdout.startswith("Codex hooks · project"), listed.stdout
    assert json.loads(user.run("hooks", "list", "--host", "claude", "--json").stdout)["host"] == (
        "claude"
    )


def test_fire_a_claude_only_project_needs_no_host(user: User) -> None:
    """Item 2: PreToolUse in a project set up for Claude Code alone is Claude Code's."""
    user.run("policy", "init")
    user.run("policy", "trust")
    user.run("install", "claude")
    payload = '{"tool_name":"Bash","tool_input":{"command":"ls"}}'
    fired = user.run("fire", "PreToolUse", "--payload", "-", "--trust-project", stdin=payload)
    assert "hookwise" in fired.stdout
