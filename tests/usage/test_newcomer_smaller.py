"""Issue 14's smaller first-hour surprises, each run as a user would: the real ``hookwise``."""

from __future__ import annotations

import json

from tests.usage.conftest import User


def _bash(command: str) -> str:
    return json.dumps(
        {
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "session_id": "s1",
        }
    )


def _explain(user: User, command: str) -> list[str]:
    result = user.run("explain", "--host", "claude", stdin=_bash(command))
    return result.stdout.splitlines()


def test_explain_does_not_call_git_arguments_paths(user: User) -> None:
    user.run("policy", "init")
    lines = _explain(user, "git push origin main")
    assert not [line for line in lines if line.startswith("paths:")], lines
    assert "arguments: push, origin, main" in lines
    # file programs' operands and words that read as paths are still paths
    (user.project / "src").mkdir()
    lines = _explain(user, "rm -rf build && git add src notes.md > log")
    assert "paths: build, src, notes.md, log" in lines
    assert "arguments: add" in lines
    # the JSON keeps every word path rules see
    document = json.loads(
        user.run(
            "explain", "--host", "claude", "--json", stdin=_bash("git push origin main")
        ).stdout
    )
    assert document["files"] == ["push", "origin", "main"]
    assert document["paths"] == [] and document["arguments"] == ["push", "origin", "main"]
