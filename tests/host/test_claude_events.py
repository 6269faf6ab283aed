"""The rest of Claude Code 2.1.330's events in the host runtime: matcher fields, what an
exit 2 and each event's own answer do (hooks reference, "Exit code 2 behavior per event"
and "Decision control"), fired through real hook processes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hookwise.host.system import HookSystem
from hookwise.protocol.claude import CLAUDE

ARGS: dict[str, dict[str, Any]] = {
    "Setup": {"trigger": "init"},
    "InstructionsLoaded": {
        "file_path": "/p/CLAUDE.md",
        "memory_type": "Project",
        "load_reason": "session_start",
    },
    "UserPromptExpansion": {
        "expansion_type": "slash_command",
        "command_name": "deploy",
        "command_args": "prod",
        "prompt": "/deploy prod",
    },
    "MessageDisplay": {"turn_id": "t", "message_id": "m", "index": 0, "final": True, "delta": "hi"},
    "PermissionDenied": {
        "tool_name": "Bash",
        "tool_input": {"command": "rm -rf /"},
        "tool_use_id": "toolu_1",
        "reason": "auto mode",
    },
    "PostToolBatch": {"tool_calls": [{"tool_name": "Bash", "tool_input": {}, "tool_use_id": "t"}]},
    "TaskCreated": {"task_id": "1", "task_subject": "write docs"},
    "TaskCompleted": {"task_id": "1", "task_subject": "write docs"},
    "StopFailure": {"error": "rate_limit", "last_assistant_message": "API Error"},
    "TeammateIdle": {"teammate_name": "ada", "team_name": "t"},
    "ConfigChange": {"source": "project_settings", "file_path": "/p/.claude/settings.json"},
    "CwdChanged": {"old_cwd": "/a", "new_cwd": "/b"},
    "DirectoryAdded": {"directory": "/d", "source": "slash_command"},
    "FileChanged": {"file_path": "/p/.envrc", "event": "change"},
    "WorktreeCreate": {"name": "feature"},
    "WorktreeRemove": {"worktree_path": "/w"},
    "Elicitation": {"mcp_server_name": "db", "message": "user?", "mode": "form"},
    "ElicitationResult": {"mcp_server_name": "db", "action": "accept", "content": {"u": "a"}},
}


def fire(
    tmp_path: Path, event: str, command: str, matcher: str | None = None, **extra: Any
) -> dict[str, Any]:
    group: dict[str, Any] = {"hooks": [{"type": "command", "command": command}]}
    if matcher is not None:
        group["matcher"] = matcher
    hs = HookSystem.from_hooks({event: [group]}, dialect="claude", cwd=str(tmp_path))
    result = hs.fire_sync(event, {**ARGS[event], **extra})
    out = result.effect.to_json()
    out["ran"] = len(result.runs)
    out["stdin"] = result.runs[0].stdin if result.runs else None
    return out


def echo(answer: dict[str, Any]) -> str:
    return "echo '" + json.dumps(answer) + "'"


def test_every_new_event_is_in_the_table_and_fires(tmp_path: Path) -> None:
    for event, args in ARGS.items():
        assert event in CLAUDE.events
        out = fire(tmp_path, event, "cat > /dev/null")
        assert out["ran"] == 1, event
        assert out["stdin"]["hook_event_name"] == event
        assert {k: out["stdin"][k] for k in args} == args


@pytest.mark.parametrize(
    ("event", "matcher", "extra", "runs"),
    [
        ("Setup", "maintenance", {}, 0),
        ("Setup", "init", {}, 1),
        ("UserPromptExpansion", "deploy|ship", {}, 1),
        ("PermissionDenied", "Bash", {}, 1),
        ("StopFailure", "overloaded", {}, 0),
        ("ConfigChange", "project_settings", {}, 1),
        ("InstructionsLoaded", "compact", {}, 0),
        ("FileChanged", ".envrc", {}, 1),  # the basename of file_path
        ("FileChanged", "p", {}, 0),
        ("Elicitation", "db", {}, 1),
        ("DirectoryAdded", "register_repo_root", {}, 0),
        ("TaskCreated", "nothing-matches-this", {}, 1),  # matchers are ignored there
        ("CwdChanged", "nothing", {}, 1),
    ],
)
def test_matcher_fields(
    tmp_path: Path, event: str, matcher: str, extra: dict[str, Any], runs: int
) -> None:
    assert fire(tmp_path, event, "true", matcher, **extra)["ran"] == runs


EXIT2 = "echo because >&2; exit 2"


@pytest.mark.parametrize(
    ("event", "proceed", "model", "user"),
    [
        ("UserPromptExpansion", False, None, "because"),  # blocked, shown to the user
        ("PostToolBatch", False, "because", None),  # the loop stops; Claude sees it later
        ("TaskCreated", False, "because", None),  # rolled back, the tool's error
        ("TaskCompleted", False, "because", None),  # not completed, feedback
        ("TeammateIdle", False, "because", None),  # keeps working
        ("ConfigChange", False, None, None),  # blocked; a debug-log line only
        ("Elicitation", False, None, None),  # declined; stderr shown nowhere
        ("ElicitationResult", False, None, None),
        ("WorktreeCreate", False, None, "because"),  # creation fails, an error
        ("PermissionDenied", True, None, None),  # ignored: the denial already happened
        ("StopFailure", True, None, None),
        ("InstructionsLoaded", True, None, None),
        ("MessageDisplay", True, None, None),
        ("WorktreeRemove", True, None, None),
        ("DirectoryAdded", True, None, None),
        ("Setup", True, None, "because"),  # stderr to the user only
        ("CwdChanged", True, None, "because"),
        ("FileChanged", True, None, "because"),
    ],
)
def test_exit_2(
    tmp_path: Path, event: str, proceed: bool, model: str | None, user: str | None
) -> None:
    out = fire(tmp_path, event, EXIT2)["outcome"]
    assert out["proceed"] is proceed
    assert out["reason_for_model"] == model
    assert out["message_for_user"] == user


def test_policy_settings_changes_cannot_be_blocked(tmp_path: Path) -> None:
    out = fire(tmp_path, "ConfigChange", EXIT2, source="policy_settings")
    assert out["outcome"]["proceed"] is True and out["decision"] == "none"


def test_own_answers(tmp_path: Path) -> None:
    retry = {"hookSpecificOutput": {"hookEventName": "PermissionDenied", "retry": True}}
    assert fire(tmp_path, "PermissionDenied", echo(retry))["decision"] == "retry"
    shown = {"hookSpecificOutput": {"hookEventName": "MessageDisplay", "displayContent": "HI"}}
    out = fire(tmp_path, "MessageDisplay", echo({**shown, "systemMessage": "dropped"}))
    assert out["output"] == {"displayContent": "HI"}
    assert out["outcome"]["message_for_user"] is None  # systemMessage is discarded there
    accept = {
        "hookSpecificOutput": {
            "hookEventName": "Elicitation",
            "action": "accept",
            "content": {"username": "alice"},
        }
    }
    out = fire(tmp_path, "Elicitation", echo(accept))
    assert out["decision"] == "accept" and out["output"] == {"content": {"username": "alice"}}
    watch = {"hookSpecificOutput": {"hookEventName": "CwdChanged", "watchPaths": ["/b/.envrc", 3]}}
    assert fire(tmp_path, "CwdChanged", echo(watch))["output"] == {"watchPaths": ["/b/.envrc"]}
    context = {"hookSpecificOutput": {"hookEventName": "Setup", "additionalContext": "deps in"}}
    assert fire(tmp_path, "Setup", echo(context))["outcome"]["additional_context"] == "deps in"
    assert fire(tmp_path, "Setup", "echo plain")["outcome"]["additional_context"] is None
    block = {"decision": "block", "reason": "no /deploy today"}
    out = fire(tmp_path, "UserPromptExpansion", echo(block))
    assert out["outcome"]["proceed"] is False
    assert out["outcome"]["message_for_user"] == "no /deploy today"
    stop = {"continue": False, "stopReason": "enough"}
    assert fire(tmp_path, "TaskCreated", echo(stop))["outcome"]["stop_session"] is False
    out = fire(tmp_path, "TeammateIdle", echo(stop))["outcome"]
    assert out["stop_session"] is True and out["message_for_user"] == "enough"


@pytest.mark.parametrize(
    ("command", "path"),
    [
        ("echo /w/feature", "/w/feature"),
        ("echo 'cloning...'; printf '\\033[32m/w/x\\033[0m\\n\\n'", "/w/x"),
        # stdout is the path, JSON or not (a relative one, under the hook's directory)
        ("echo '{\"continue\": true}'", '{"continue": true}'),
        ("true", None),
        ("echo /w/../etc", None),
        ("echo /w/x; exit 1", None),
    ],
)
def test_worktree_create_reads_the_last_line_as_the_path(
    tmp_path: Path, command: str, path: str | None
) -> None:
    out = fire(tmp_path, "WorktreeCreate", command)
    if path is not None and not path.startswith("/"):
        path = f"{tmp_path}/{path}"
    assert out.get("output", {}).get("worktreePath") == path
    assert out["outcome"]["proceed"] is (path is not None)


def test_worktree_create_resolves_a_relative_path_in_the_hooks_directory(tmp_path: Path) -> None:
    """2.1.330 resolves a relative path against the directory the hook ran in (the input's
    cwd), normalised, so dot segments there are no refusal."""
    out = fire(tmp_path, "WorktreeCreate", "echo wt/../trees/feature")
    assert out["output"]["worktreePath"] == str(tmp_path / "trees" / "feature")
    assert out["outcome"]["proceed"] is True
    dotted = fire(tmp_path, "WorktreeCreate", "echo ./x")
    assert dotted["output"]["worktreePath"] == str(tmp_path / "x")
