"""The simulator plays GitHub Copilot CLI's and Qwen Code's hook events (the table-driven
runtime of host/claude_form.py): a hook script written for either runs offline and its
answers take the effect the real CLI gives them (tests/e2e/fixtures/copilot.jsonl,
qwen.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.sim.conftest import answer, failures, fired, hooks_for, play_obj, records


def _step(user: str, *replies: dict[str, Any]) -> dict[str, Any]:
    return {"user": user, "model": list(replies)}


def test_copilot_camel_pre_tool_hook_sees_its_payload_and_denies(tmp_path: Path) -> None:
    deny = {"permissionDecision": "deny", "permissionDecisionReason": "no rm"}
    script = f"cat > pre.json; {answer(deny)}"
    result = play_obj(
        tmp_path,
        {
            "host": "copilot",
            "hooks": hooks_for("preToolUse", script),
            "steps": [
                _step(
                    "go",
                    {"calls": [{"name": "bash", "args": {"command": "rm -rf /"}}]},
                    {"text": "ok"},
                )
            ],
            "expect": [{"tool_blocked": "bash", "reason_contains": "no rm"}],
        },
    )
    assert not failures(result), failures(result)
    stdin = json.loads((tmp_path / "pre.json").read_text())
    # Copilot's camelCase payload: no event name, its own field names
    assert "hook_event_name" not in stdin and stdin["sessionId"]
    assert stdin["toolName"] == "bash" and stdin["toolArgs"] == {"command": "rm -rf /"}
    assert [r["event"] for r in records(result, "hook_event")].count("preToolUse") == 1


def test_copilot_both_pre_tool_keys_fire_and_a_rewrite_applies(tmp_path: Path) -> None:
    rewrite = {"permissionDecision": "allow", "modifiedArgs": {"command": "ls -la"}}
    hooks = {
        **hooks_for("preToolUse", answer(rewrite)),
        **hooks_for("PreToolUse", "cat > pascal.json"),
    }
    result = play_obj(
        tmp_path,
        {
            "host": "copilot",
            "hooks": hooks,
            "steps": [_step("go", {"calls": [{"name": "bash", "args": {"command": "ls"}}]})],
            "expect": [{"tool_ran": "bash", "args": {"command": "ls -la"}}],
        },
    )
    assert not failures(result), failures(result)
    assert fired(result, "PreToolUse") and fired(result, "preToolUse")
    pascal = json.loads((tmp_path / "pascal.json").read_text())
    assert pascal["hook_event_name"] == "PreToolUse" and pascal["tool_name"] == "bash"


def test_qwen_ignores_a_rewrite_and_blocks_on_exit2_with_stderr(tmp_path: Path) -> None:
    rewrite = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": "ls -la"},
        }
    }
    script = "input=$(cat); case $input in *'rm -rf'*) echo 'no rm' >&2; exit 2;; esac; " + answer(
        rewrite
    ).replace("cat >/dev/null; ", "")
    result = play_obj(
        tmp_path,
        {
            "host": "qwen",
            "hooks": hooks_for("PreToolUse", script, "run_shell_command"),
            "steps": [
                _step(
                    "go",
                    {
                        "calls": [
                            {"name": "run_shell_command", "args": {"command": "rm -rf /"}},
                            {"name": "run_shell_command", "args": {"command": "ls"}},
                        ]
                    },
                    {"text": "ok"},
                )
            ],
            "expect": [
                {"tool_blocked": "run_shell_command", "reason_contains": "no rm"},
                {"tool_ran": "run_shell_command", "args": {"command": "ls"}},
            ],
        },
    )
    assert not failures(result), failures(result)


def test_cline_hook_sees_the_call_in_its_shape_and_its_cancel_ends_the_session(
    tmp_path: Path,
) -> None:
    """Cline (host/cancel_form.py): the hook gets ``tool_call`` and ``preToolUse`` (its
    parameters JSON-encoded), and a cancel stops the call and the session."""
    cancel = {"cancel": True, "errorMessage": "no rm"}
    result = play_obj(
        tmp_path,
        {
            "host": "cline",
            "hooks": hooks_for("PreToolUse", f"cat > pre.json; {answer(cancel)}"),
            "steps": [
                _step(
                    "go",
                    {"calls": [{"name": "run_commands", "args": {"commands": ["rm -rf /"]}}]},
                    {"text": "ok"},
                )
            ],
            "expect": [{"tool_blocked": "run_commands"}],
        },
    )
    assert not failures(result), failures(result)
    stdin = json.loads((tmp_path / "pre.json").read_text())
    assert stdin["hookName"] == "tool_call" and "tool_name" not in stdin
    assert stdin["tool_call"]["name"] == "run_commands"
    assert stdin["tool_call"]["input"] == {"commands": ["rm -rf /"]}
    assert stdin["preToolUse"]["parameters"] == {"commands": '["rm -rf /"]'}


def test_cline_override_input_rewrites_the_call(tmp_path: Path) -> None:
    rewrite = {"overrideInput": {"commands": ["ls -la"]}}
    result = play_obj(
        tmp_path,
        {
            "host": "cline",
            "hooks": hooks_for("PreToolUse", answer(rewrite)),
            "steps": [
                _step("go", {"calls": [{"name": "run_commands", "args": {"commands": ["ls"]}}]})
            ],
            "expect": [{"tool_ran": "run_commands", "args": {"commands": ["ls -la"]}}],
        },
    )
    assert not failures(result), failures(result)
