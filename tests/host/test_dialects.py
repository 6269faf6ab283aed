"""Claude Code and Codex dialects: reading one run, deciding over several, the outcome."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.host import claude_dialect, codex_dialect
from hookwise.host.dialect_answers import Reading
from hookwise.host.system import HookSystem, PayloadError
from hookwise.protocol.claude import CLAUDE
from hookwise.protocol.codex import CODEX

BASH = {"tool_name": "Bash", "tool_input": {"command": "echo hi > marker"}}
DENY = {
    "hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "R",
    }
}


def outcome(
    dialect: str,
    cmd: str,
    event: str = "PreToolUse",
    args: dict[str, Any] | None = None,
    matcher: str | None = "Bash",
    tmp: Path | None = None,
) -> dict[str, Any]:
    definition: dict[str, Any] = {"hooks": [{"type": "command", "command": cmd}]}
    if matcher is not None:
        definition["matcher"] = matcher
    hs = HookSystem.from_hooks({event: [definition]}, dialect=dialect, cwd=str(tmp or Path.cwd()))
    effect = hs.fire_sync(event, BASH if args is None else args).effect
    return effect.to_json()["outcome"]  # type: ignore[no-any-return]


def echo(obj: Any) -> str:
    return "echo '" + json.dumps(obj) + "'"


@pytest.mark.parametrize("dialect", ["claude", "codex"])
def test_universal_blocks(dialect: str, tmp_path: Path) -> None:
    """real-cli-findings 1: exit 2 + stderr, legacy block, and the combined form block on both."""
    combined = {"decision": "block", "reason": "R", **DENY}
    for cmd in (
        "echo R >&2; exit 2",
        echo({"decision": "block", "reason": "R"}),
        echo(combined),
        echo(DENY),
    ):
        out = outcome(dialect, cmd, tmp=tmp_path)
        assert out["proceed"] is False and out["reason_for_model"] == "R", cmd


def test_claude_exit2_blocks_even_when_json_allows(tmp_path: Path) -> None:
    allow = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}}
    out = outcome("claude", echo(allow) + "; echo nope >&2; exit 2", tmp=tmp_path)
    assert out["proceed"] is False and out["reason_for_model"] == "nope"


def test_claude_ignores_specific_output_with_wrong_event_name(tmp_path: Path) -> None:
    wrong = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}
    assert outcome("claude", echo(wrong), tmp=tmp_path)["proceed"] is True


def test_claude_precedence_deny_over_ask_over_allow(tmp_path: Path) -> None:
    def answer(decision: str) -> str:
        return echo(
            {
                "hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": decision,
                    "permissionDecisionReason": decision,
                }
            }
        )

    hooks = {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {"type": "command", "command": answer(d)} for d in ("allow", "ask", "deny")
                ],
            }
        ]
    }
    effect = (
        HookSystem.from_hooks(hooks, dialect="claude", cwd=str(tmp_path))
        .fire_sync("PreToolUse", BASH)
        .effect
    )
    data = effect.to_json()
    assert data["decision"] == "deny" and data["outcome"]["proceed"] is False


def test_claude_plain_stdout_is_context_only_where_the_event_says(tmp_path: Path) -> None:
    prompt = outcome("claude", "echo ctx", "UserPromptSubmit", {"prompt": "p"}, None, tmp_path)
    tool = outcome("claude", "echo ctx", tmp=tmp_path)
    assert prompt["additional_context"] == "ctx" and tool["additional_context"] is None


def test_claude_exit_1_is_a_non_blocking_error(tmp_path: Path) -> None:
    out = outcome("claude", "echo boom >&2; exit 1", tmp=tmp_path)
    assert out["proceed"] is True and "non-blocking status code 1: boom" in out["message_for_user"]


def test_claude_continue_false_on_pre_tool_use_runs_then_stops(tmp_path: Path) -> None:
    out = outcome("claude", echo({"continue": False, "stopReason": "done"}), tmp=tmp_path)
    assert (
        out["proceed"] is True and out["stop_session"] is True and out["message_for_user"] == "done"
    )


def test_claude_matchers_exact_lists_and_regex() -> None:
    assert claude_dialect.matches("Edit|Write", "Write")
    assert not claude_dialect.matches("Edit", "NotebookEdit")
    assert claude_dialect.matches("Edit.*", "NotebookEdit")  # unanchored, as documented
    assert claude_dialect.matches(".*Edit", "NotebookEdit")
    assert claude_dialect.matches("mcp__github__.*", "mcp__github__list")
    assert claude_dialect.matches(None, "x") and claude_dialect.matches("*", "x")


@pytest.mark.parametrize(
    "answer",
    [
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask"}},
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}},
        {"decision": "deny", "reason": "R"},
        {"continue": False},
        {"hookSpecificOutput": {"permissionDecision": "deny"}},
        {**DENY, "extra": 1},
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "x"}}},
    ],
)
def test_codex_fails_open_on_unsupported_answers(answer: dict[str, Any], tmp_path: Path) -> None:
    hs = HookSystem.from_hooks(
        {"PreToolUse": [{"hooks": [{"type": "command", "command": echo(answer)}]}]},
        dialect="codex",
        cwd=str(tmp_path),
    )
    effect = hs.fire_sync("PreToolUse", BASH).effect.to_json()
    assert effect["outcome"]["proceed"] is True
    assert effect["diagnostics"], "a rejected answer is reported"


def test_codex_exit_2_needs_stderr_and_exit_1_json_deny_fails(tmp_path: Path) -> None:
    assert outcome("codex", "exit 2", tmp=tmp_path)["proceed"] is True
    assert outcome("codex", echo(DENY) + "; exit 1", tmp=tmp_path)["proceed"] is True
    assert outcome("codex", "echo no >&2; exit 2", tmp=tmp_path)["proceed"] is False


def test_codex_stop_requires_json_and_continue_false_wins(tmp_path: Path) -> None:
    args = {"stop_hook_active": False, "last_assistant_message": "x"}
    assert outcome("codex", "echo plain", "Stop", args, None, tmp_path)["proceed"] is True
    both = outcome(
        "codex",
        echo({"decision": "block", "reason": "r", "continue": False}),
        "Stop",
        args,
        None,
        tmp_path,
    )
    assert both["stop_session"] is True and both["proceed"] is True


def test_codex_last_rewrite_wins_and_apply_patch_aliases(tmp_path: Path) -> None:
    def rewrite(cmd: str) -> dict[str, str]:
        return {
            "type": "command",
            "command": echo(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "allow",
                        "updatedInput": {"command": cmd},
                    }
                }
            ),
        }

    hooks = {"PreToolUse": [{"matcher": "^Bash$", "hooks": [rewrite("one"), rewrite("two")]}]}
    effect = (
        HookSystem.from_hooks(hooks, dialect="codex", cwd=str(tmp_path))
        .fire_sync("PreToolUse", BASH)
        .effect
    )
    assert effect.to_json()["outcome"]["updated_input"] == {"command": "two"}
    assert codex_dialect.matches("^Edit$", "apply_patch")


def test_dialect_payload_validation(tmp_path: Path) -> None:
    hs = HookSystem.from_hooks({}, dialect="claude", cwd=str(tmp_path))
    with pytest.raises(PayloadError, match="missing field 'tool_input'"):
        hs.fire_sync("PreToolUse", {"tool_name": "Bash"})
    with pytest.raises(KeyError, match="unknown claude hook event"):
        hs.fire_sync("BeforeTool", {})


def test_claude_input_and_environment(tmp_path: Path) -> None:
    hooks = {
        "PreToolUse": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "cat > in.json; echo $CLAUDE_PROJECT_DIR > env.txt",
                    }
                ]
            }
        ]
    }
    HookSystem.from_hooks(hooks, dialect="claude", cwd=str(tmp_path), session_id="s").fire_sync(
        "PreToolUse", BASH
    )
    sent = json.loads((tmp_path / "in.json").read_text())
    assert list(sent)[:5] == [
        "session_id",
        "transcript_path",
        "cwd",
        "permission_mode",
        "hook_event_name",
    ]
    assert sent["tool_input"] == BASH["tool_input"]
    assert (tmp_path / "env.txt").read_text().strip() == str(tmp_path)


@given(
    st.text(),
    st.text(),
    st.one_of(st.none(), st.integers(-5, 300)),
    st.sampled_from(list(CLAUDE.events)),
)
def test_claude_reads_anything(stdout: str, stderr: str, code: int | None, event: str) -> None:
    spec = CLAUDE.event(event)
    reading = claude_dialect.read(spec, stdout, stderr, code)
    assert isinstance(reading, Reading)
    claude_dialect.decide(spec, [reading, reading])


@given(
    st.text(),
    st.text(),
    st.one_of(st.none(), st.integers(-5, 300)),
    st.sampled_from(list(CODEX.events)),
)
def test_codex_reads_anything(stdout: str, stderr: str, code: int | None, event: str) -> None:
    spec = CODEX.event(event)
    reading = codex_dialect.read(spec, stdout, stderr, code)
    assert isinstance(reading, Reading)
    codex_dialect.decide(spec, [reading])


@given(
    st.dictionaries(
        st.sampled_from(
            ["decision", "reason", "continue", "hookSpecificOutput", "systemMessage", "x"]
        ),
        st.one_of(
            st.none(),
            st.booleans(),
            st.text(max_size=5),
            st.dictionaries(
                st.sampled_from(
                    [
                        "hookEventName",
                        "permissionDecision",
                        "updatedInput",
                        "additionalContext",
                        "decision",
                    ]
                ),
                st.one_of(
                    st.text(max_size=5), st.dictionaries(st.text(max_size=3), st.text(max_size=3))
                ),
            ),
        ),
    )
)
def test_any_json_answer_is_decided(answer: dict[str, Any]) -> None:
    text = json.dumps(answer)
    for module, spec in ((claude_dialect, CLAUDE), (codex_dialect, CODEX)):
        event = spec.event("PreToolUse")
        module.decide(event, [module.read(event, text, "", 0)])
