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


def test_one_misspelt_key_is_one_error(user: User) -> None:
    policy = user.project / "policy.yaml"
    for typo, key in (("actoin", "action"), ("idd", "id")):
        rule = {"id": "x", "match": {"command": "git push"}, "action": "deny"}
        rule[typo] = rule.pop(key)
        policy.write_text(json.dumps({"version": 1, "rules": [rule]}), encoding="utf-8")
        result = user.run("policy", "validate", str(policy), check=1)
        errors = [line for line in result.stderr.splitlines() if ": error: " in line]
        assert len(errors) == 1, result.stderr
        assert f"unknown key {typo!r}; did you mean {key!r}?" in errors[0]
        assert "invalid: 1 error, 0 warnings" in result.stdout
    # a key left out (no misspelling of it) is still reported as missing
    policy.write_text('{"version": 1, "rules": [{"id": "x", "match": {"command": "ls"}}]}')
    result = user.run("policy", "validate", str(policy), check=1)
    assert "rule 'x' has no 'action'" in result.stderr


def test_logs_show_the_command_of_shell_calls(user: User) -> None:
    user.run("policy", "init")
    user.run("hook", "--platform", "claude", stdin=_bash("git push --force\n  origin main"))
    write = {
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "notes.md", "content": "hi"},
        "session_id": "s1",
    }
    user.run("hook", "--platform", "claude", stdin=json.dumps(write))
    long = "echo " + "x" * 300
    user.run("hook", "--platform", "claude", stdin=_bash(long))
    lines = user.run("logs").stdout.splitlines()
    assert len(lines) == 3, lines
    assert " PreToolUse Bash $ git push --force origin main -> deny [no-force-push]" in lines[0]
    assert "$" not in lines[1] and " Write -> " in lines[1]
    assert "$ echo xxx" in lines[2] and "…" in lines[2] and len(lines[2]) < 250
    records = [json.loads(line) for line in user.run("logs", "--json").stdout.splitlines()]
    assert records[0]["command"] == "git push --force\n  origin main"
    assert "command" not in records[1]
    assert records[2]["command"] == long
