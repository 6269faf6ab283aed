from __future__ import annotations

import json
from typing import Any

import pytest

from hookwise.policy import canonical
from hookwise.policy.adapters import detect_platform
from hookwise.policy.adapters.hosts import host_tables
from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.protocol import claude, codex, gemini
from hookwise.protocol.dialect import Kind
from tests.policy.conftest import compile_text

TABLES = host_tables()
POLICY = compile_text(
    """\
    version: 1
    rules:
      - {id: deny-rm, match: {command: rm}, action: deny, reason: "no rm", message: "rm blocked"}
      - {id: ask-reset, match: {command: git reset}, action: ask, reason: "sure?"}
      - {id: allow-ls, match: {command: ls}, action: allow, reason: "fine"}
      - id: rewrite-echo
        match: {command: echo}
        action: rewrite
        rewrite: {replace: [{arg: command, find: marker, with: marker-modified}]}
      - {id: ctx, match: {command: make}, action: context, context: "use make -j"}
      - {id: stop-halt, match: {command: halt}, action: stop, reason: "stopping"}
      - {id: prompt-block, match: {prompt: forbidden}, action: deny, reason: "not that"}
      - {id: prompt-ctx, match: {prompt: deploy}, action: context, context: "pipeline"}
      - {id: retry, match: {response: {contains: [TODO]}}, action: retry, reason: "finish it"}
      - {id: after, events: [tool.after], match: {tool: shell}, action: context, context: "after"}
      - {id: start, events: [session.start], action: context, context: "welcome"}
      - {id: perm-rm, events: [permission.request], match: {command: rm}, action: deny, reason: "no rm"}
      - {id: perm-ls, events: [permission.request], match: {command: ls}, action: allow}
    """
)
assert POLICY["errors"] == [], POLICY["errors"]

PRE = {
    "gemini": ("BeforeTool", "run_shell_command"),
    "claude": ("PreToolUse", "Bash"),
    "codex": ("PreToolUse", "Bash"),
}


def answer(host: str, event: str, **fields: Any) -> tuple[Any, int]:
    payload = build_payload(host, event, **fields)
    outcome = decide(payload, POLICY, None, {"HOME": "/h"}, now=0.0)
    assert outcome.host == host
    out = outcome.answer
    return (json.loads(out.stdout) if out.stdout else None), out.exit_code


def pre(host: str, command: str) -> Any:
    event, tool = PRE[host]
    result, code = answer(host, event, tool=tool, tool_input={"command": command})
    assert code == 0
    return result


def test_deny_forms() -> None:
    assert pre("gemini", "rm x") == {
        "decision": "deny",
        "reason": "no rm",
        "systemMessage": "rm blocked",
    }
    hso = {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": "no rm",
    }
    assert pre("claude", "rm x") == {"hookSpecificOutput": hso, "systemMessage": "rm blocked"}
    assert pre("codex", "rm x") == {"hookSpecificOutput": hso, "systemMessage": "rm blocked"}


def test_gemini_ask_headless_by_default_is_the_fallback() -> None:
    """No interactive ``gemini`` above the hook (pytest, ``gemini -p``): nobody could answer
    Gemini's prompt, so ``gemini_ask: auto`` answers with ask_fallback instead of hanging."""
    answer = pre("gemini", "git reset")
    assert answer["decision"] == "deny"
    assert answer["reason"].startswith("sure? (this needs a user's confirmation")


def test_ask_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    from hookwise.policy.approvals import relay

    monkeypatch.setattr(relay, "attended", lambda *_: True)  # an interactive gemini
    assert pre("gemini", "git reset") == {
        "decision": "ask",
        "reason": "sure?",
        "systemMessage": "sure?",
    }
    assert pre("claude", "git reset") == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "ask",
            "permissionDecisionReason": "sure?",
        }
    }
    codex_answer = pre("codex", "git reset")["hookSpecificOutput"]
    assert codex_answer["permissionDecision"] == "deny"
    assert codex_answer["permissionDecisionReason"].startswith(
        "sure? (this needs a user's confirmation"
    )


def test_explicit_allow_only_where_expressible() -> None:
    assert pre("gemini", "ls") == {"decision": "allow", "reason": "fine"}
    assert pre("claude", "ls") == {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "fine",
        }
    }
    assert pre("codex", "ls") is None  # a bare allow makes Codex ignore the answer


def test_no_rule_no_answer() -> None:
    assert pre("gemini", "pwd") == {}
    assert pre("claude", "pwd") is None
    assert pre("codex", "pwd") is None


def test_rewrite_forms() -> None:
    new = {"command": "echo hi > marker-modified"}
    assert pre("gemini", "echo hi > marker") == {
        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new}
    }
    for host in ("claude", "codex"):
        hso = pre(host, "echo hi > marker")["hookSpecificOutput"]
        assert hso["permissionDecision"] == "allow"
        assert hso["updatedInput"] == new


def test_context_forms() -> None:
    assert pre("gemini", "make") == {}  # Gemini does not pass pre-tool context to the model
    for host in ("claude", "codex"):
        assert pre(host, "make") == {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "additionalContext": "use make -j",
            }
        }


def test_stop_forms() -> None:
    assert pre("gemini", "halt") == {"continue": False, "stopReason": "stopping"}
    claude_answer = pre("claude", "halt")
    assert claude_answer["continue"] is False
    assert claude_answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    codex_answer = pre("codex", "halt")
    assert "continue" not in codex_answer
    assert codex_answer["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_prompt_events() -> None:
    assert answer("gemini", "BeforeAgent", prompt="forbidden thing")[0] == {
        "decision": "deny",
        "reason": "not that",
    }
    assert answer("claude", "UserPromptSubmit", prompt="forbidden thing")[0] == {
        "decision": "block",
        "reason": "not that",
    }
    assert answer("codex", "UserPromptSubmit", prompt="forbidden")[0] == {
        "decision": "block",
        "reason": "not that",
    }
    assert answer("gemini", "BeforeAgent", prompt="deploy")[0] == {
        "hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "pipeline"}
    }
    assert answer("claude", "UserPromptSubmit", prompt="deploy")[0] == {
        "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "pipeline"}
    }


def test_stop_events_and_retry() -> None:
    assert answer("gemini", "AfterAgent", prompt="p", response="TODO")[0] == {
        "decision": "deny",
        "reason": "finish it",
    }
    assert answer("claude", "Stop", response="TODO")[0] == {
        "decision": "block",
        "reason": "finish it",
    }
    assert answer("codex", "Stop", response="TODO")[0] == {
        "decision": "block",
        "reason": "finish it",
    }
    assert answer("codex", "Stop", response="done") == ({}, 0)  # Codex needs JSON on Stop
    assert answer("claude", "Stop", response="done") == (None, 0)


def test_after_tool_and_session_start_context() -> None:
    got, _ = answer("gemini", "AfterTool", tool="run_shell_command", tool_input={"command": "x"})
    assert got == {
        "hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "after"}
    }
    for host in ("claude", "codex"):
        got, _ = answer(host, "PostToolUse", tool="Bash", tool_input={"command": "x"})
        assert got == {
            "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "after"}
        }
    for host in ("gemini", "claude", "codex"):
        got, _ = answer(host, "SessionStart", extra={"source": "startup"})
        assert got == {
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "welcome"}
        }


def test_permission_request() -> None:
    for host in ("claude", "codex"):
        got, _ = answer(host, "PermissionRequest", tool="Bash", tool_input={"command": "rm -rf x"})
        assert got["hookSpecificOutput"] == {
            "hookEventName": "PermissionRequest",
            "decision": {"behavior": "deny", "message": "no rm"},
        }
        got, _ = answer(host, "PermissionRequest", tool="Bash", tool_input={"command": "ls"})
        assert got["hookSpecificOutput"]["decision"] == {"behavior": "allow"}


def test_codex_answers_only_use_schema_keys() -> None:
    allowed_top = {
        "continue",
        "stopReason",
        "systemMessage",
        "suppressOutput",
        "decision",
        "reason",
        "hookSpecificOutput",
    }
    for command in ("rm", "git reset", "ls", "echo marker", "make", "halt", "pwd"):
        got = pre("codex", command)
        if got is None:
            continue
        assert set(got) <= {"systemMessage", "hookSpecificOutput"}, got
        assert set(got.get("hookSpecificOutput", {})) <= {
            "hookEventName",
            "permissionDecision",
            "permissionDecisionReason",
            "updatedInput",
            "additionalContext",
        }
        assert got.get("hookSpecificOutput", {}).get("permissionDecision") in (
            None,
            "deny",
            "allow",
        )
        assert set(got) <= allowed_top


def test_gemini_ask_fallback_setting() -> None:
    policy = compile_text(
        """\
        version: 1
        settings: {gemini_ask: fallback, ask_fallback: allow}
        rules:
          - {id: ask, match: {command: ls}, action: ask, reason: sure?}
        """
    )
    payload = build_payload(
        "gemini", "BeforeTool", tool="run_shell_command", tool_input={"command": "ls"}
    )
    outcome = decide(payload, policy, None, {}, now=0.0)
    assert json.loads(outcome.answer.stdout) == {}


@pytest.mark.parametrize(
    ("payload", "env", "expected"),
    [
        ({"hook_event_name": "BeforeTool"}, {}, "gemini"),
        ({"hook_event_name": "PreToolUse", "turn_id": "t"}, {}, "codex"),
        ({"hook_event_name": "PreToolUse", "model": "m"}, {}, "codex"),
        ({"hook_event_name": "PreToolUse"}, {}, "claude"),
        ({"hook_event_name": "PostToolUseFailure"}, {}, "claude"),
        ({"hook_event_name": "SessionStart", "timestamp": "x"}, {}, "gemini"),
        ({"hook_event_name": "SessionStart"}, {"GEMINI_SESSION_ID": "s"}, "gemini"),
        ({"hook_event_name": "SessionStart", "model": "m"}, {"CODEX_HOME": "/c"}, "codex"),
        ({"hook_event_name": "SessionStart", "model": "m"}, {}, "claude"),
    ],
)
def test_detect_platform(payload: dict[str, Any], env: dict[str, str], expected: str) -> None:
    assert detect_platform(payload, TABLES, env) == expected


def test_tables_come_from_the_protocol_package() -> None:
    assert (
        set(TABLES["gemini"]["events"]) == set(gemini.EVENT_NAMES) == set(canonical.GEMINI_EVENTS)
    )
    assert set(TABLES["claude"]["events"]) == set(claude.CLAUDE.events)
    assert set(TABLES["codex"]["events"]) == set(codex.CODEX.events)
    assert {kind.value for kind in Kind} == set(canonical.KIND_EVENTS) | canonical.UNRULED_KINDS
    assert not set(canonical.KIND_EVENTS) & canonical.UNRULED_KINDS
    raised = {
        c
        for table in TABLES.values()
        for spec in table["events"].values()
        for c in spec["canonical"]
    }
    raised |= {c for extra in canonical.GEMINI_CONDITIONAL.values() for c in extra}
    assert raised == set(canonical.CANONICAL_EVENTS)


def test_every_event_of_every_host_gets_an_answer() -> None:
    for host, table in TABLES.items():
        for event in table["events"]:
            payload = build_payload(
                host,
                event,
                tool="Bash",
                tool_input={"command": "rm x"},
                prompt="forbidden",
                response="TODO",
            )
            outcome = decide(payload, POLICY, host, {}, now=0.0)
            assert outcome.error is None, (host, event)
            if outcome.answer.stdout:
                json.loads(outcome.answer.stdout)
            # the hosts whose only deny is an exit code (Windsurf, Kiro...) answer with it
            exit2 = table["events"][event]["decision"] in ("exit2", "block")
            assert outcome.answer.exit_code == 0 or (exit2 and outcome.answer.exit_code == 2)


@pytest.mark.parametrize(
    ("host", "event", "verdict", "code"),
    [
        ("claude", "PreToolUse", "deny", 2),
        ("codex", "PreToolUse", "deny", 2),
        ("gemini", "BeforeTool", "deny", 2),
        ("claude", "PreToolUse", "ask", 0),
        ("claude", "PostToolUse", "deny", 0),  # exit 2 there is feedback, not a block
        ("claude", "Stop", "deny", 0),  # a retry: exit 2 would mean the same, but is not sent
    ],
)
def test_exit_blocking_follows_the_protocol_tables(
    host: str, event: str, verdict: str, code: int
) -> None:
    """A deny exits 2 too where the host's table says exit 2 blocks whatever stdout holds
    (or, on Gemini CLI, when stdout is not one JSON answer); the reason goes to stderr."""
    from hookwise.policy.adapters.base import Answer, exit_blocking
    from hookwise.policy.rules.engine import Decision

    decision = Decision()
    decision.decision = verdict
    decision.reason = "no rm"
    answer = Answer('{"x": 1}', "", 0)
    exit_blocking(answer, decision, host_tables()[host]["events"][event])
    assert answer.exit_code == code
    assert answer.stdout == '{"x": 1}'
    assert (answer.stderr == "no rm\n") is (code == 2)


def test_a_rewrite_the_rules_do_not_approve_goes_undecided_where_the_host_applies_it() -> None:
    """Issue 27, item 4: ``echo`` is rewritten, ``touch`` is no rule's; the rewrite carries no
    approval. Claude Code and Gemini CLI apply a rewrite that comes without a decision (their
    tables' rewrite_alone) and then decide by their own rules; Codex can only rewrite by
    approving, so there the ask stands (ask_fallback: deny)."""
    line = "echo hi > marker; touch other"
    new = {"command": "echo hi > marker-modified; touch other"}
    assert pre("gemini", line) == {
        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": new}
    }
    assert pre("claude", line) == {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": new}
    }
    hso = pre("codex", line)["hookSpecificOutput"]
    assert hso["permissionDecision"] == "deny" and "updatedInput" not in hso
    assert "confirmation" in hso["permissionDecisionReason"]
    for host, alone in (("gemini", True), ("claude", True), ("codex", False)):
        assert TABLES[host]["events"][PRE[host][0]]["rewrite_alone"] is alone, host


def test_codex_interrupt_is_an_advisory_event_a_policy_can_log() -> None:
    """Issue 27, item 3: Codex's Interrupt is agent.interrupt; only its systemMessage is
    read, so a message rule answers with that and nothing else; no rule: no answer."""
    spec = TABLES["codex"]["events"]["Interrupt"]
    assert spec["canonical"] == [canonical.INTERRUPT] and spec["common"] == ["systemMessage"]
    policy = compile_text(
        "version: 1\nrules:\n"
        "  - {id: noted, events: [agent.interrupt], action: message, message: interrupted}\n"
    )
    assert policy["errors"] == [], policy["errors"]
    payload = build_payload("codex", "Interrupt")
    outcome = decide(payload, policy, None, {"HOME": "/h"}, now=0.0)
    assert [ev.name for ev in outcome.events] == [canonical.INTERRUPT]
    assert json.loads(outcome.answer.stdout) == {"systemMessage": "interrupted"}
    quiet = decide(payload, POLICY, None, {"HOME": "/h"}, now=0.0)
    assert quiet.answer.stdout == "" and quiet.answer.exit_code == 0


def test_codex_pre_model_request_and_session_end_answer_what_codex_reads() -> None:
    """Codex 0.169 obeys nothing a PreModelRequest hook answers (recorded: exit 2, a block,
    continue:false and context change nothing) and reads nothing of a SessionEnd's: a deny
    on model.before reaches the user as a message only, session.end gets no answer; both
    raise their canonical event for the audit log."""
    policy = compile_text(
        "version: 1\nrules:\n"
        "  - {id: m, events: [model.before], action: deny, reason: no model now}\n"
        "  - {id: e, events: [session.end], action: message, message: bye}\n"
    )
    assert policy["errors"] == [], policy["errors"]
    pre = decide(build_payload("codex", "PreModelRequest"), policy, None, {"HOME": "/h"}, now=0.0)
    assert [ev.name for ev in pre.events] == [canonical.MODEL_BEFORE]
    assert pre.answer.exit_code == 0
    assert set(json.loads(pre.answer.stdout)) == {"systemMessage"}
    assert "no model now" in json.loads(pre.answer.stdout)["systemMessage"]
    end = decide(build_payload("codex", "SessionEnd"), policy, None, {"HOME": "/h"}, now=0.0)
    assert [ev.name for ev in end.events] == [canonical.SESSION_END]
    assert end.answer.stdout == "" and end.answer.exit_code == 0
    assert TABLES["codex"]["events"]["SessionEnd"]["honoured"] is False
