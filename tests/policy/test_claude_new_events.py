"""The policy hook on Claude Code's events of issue 27: a deny on ``config.change`` and
``mcp.elicitation`` answered in the form Claude Code obeys (checked by reading the answer
with the Claude runtime), PermissionDenied and StopFailure recorded only, and install
registering an event exactly when a rule can be raised by it."""

from __future__ import annotations

import json
from typing import Any

from hookwise.host import claude_dialect
from hookwise.host.dialect_answers import Reading
from hookwise.policy.install.registrations import policy_events
from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from hookwise.protocol.claude import CLAUDE
from tests.policy.conftest import compile_text

POLICY = compile_text(
    """\
    version: 1
    rules:
      - id: no-project-settings-change
        events: [config.change]
        when: payload.source == "project_settings"
        action: deny
        reason: "project settings are frozen"
      - id: no-elicitation-from-untrusted
        events: [mcp.elicitation]
        when: payload.mcp_server_name == "untrusted"
        action: deny
        reason: "that server may not ask"
      - {id: denied-seen, events: [permission.denied], action: message, message: "denied"}
      - {id: failure-seen, events: [agent.failure], action: message, message: "API error"}
    """
)
assert POLICY["errors"] == [], POLICY["errors"]


def run(event: str, **extra: Any) -> tuple[dict[str, Any], Any]:
    """hookwise's answer to the payload, and the Claude runtime's outcome of that answer."""
    payload = build_payload("claude", event, extra=extra)
    answer = decide(payload, POLICY, "claude", {"HOME": "/h"}, now=0.0).answer
    spec = CLAUDE.event(event)
    reading = claude_dialect.check(
        spec, claude_dialect.read(spec, answer.stdout, answer.stderr, answer.exit_code)
    )
    effect = claude_dialect.decide(spec, [reading])
    effect = claude_dialect.finish(spec, effect, extra)
    return (json.loads(answer.stdout) if answer.stdout else {}), effect


def test_config_change_is_blocked_in_claudes_form() -> None:
    out, effect = run("ConfigChange", source="project_settings", file_path="/p/.claude/s.json")
    assert out["decision"] == "block"
    assert effect.decision == "block" and effect.outcome.proceed is False
    out, effect = run("ConfigChange", source="user_settings")
    assert out == {} and effect.outcome.proceed is True


def test_managed_settings_changes_apply_whatever_the_policy() -> None:
    policy_block = compile_text(
        "version: 1\nrules:\n  - {id: all, events: [config.change], action: deny, reason: r}\n"
    )
    payload = build_payload("claude", "ConfigChange", extra={"source": "policy_settings"})
    answer = decide(payload, policy_block, "claude", {}, now=0.0).answer
    spec = CLAUDE.event("ConfigChange")
    effect = claude_dialect.finish(
        spec,
        claude_dialect.decide(
            spec, [claude_dialect.read(spec, answer.stdout, "", answer.exit_code)]
        ),
        {"source": "policy_settings"},
    )
    assert effect.outcome.proceed is True  # Claude Code ignores the block there


def test_elicitation_is_declined() -> None:
    out, effect = run("Elicitation", mcp_server_name="untrusted", message="token?")
    assert out["hookSpecificOutput"] == {"hookEventName": "Elicitation", "action": "decline"}
    assert effect.decision == "decline" and effect.outcome.proceed is False
    out, effect = run("Elicitation", mcp_server_name="db", message="user?")
    assert out == {} and effect.decision == "none"


def test_permission_denied_and_stop_failure_are_recorded_not_answered() -> None:
    for event, extra in (
        ("PermissionDenied", {"reason": "auto mode"}),
        ("StopFailure", {"error": "rate_limit"}),
    ):
        payload = build_payload(
            "claude", event, tool="Bash", tool_input={"command": "ls"}, extra=extra
        )
        outcome = decide(payload, POLICY, "claude", {}, now=0.0)
        assert outcome.error is None, event
        if event == "StopFailure":
            assert outcome.answer.stdout == ""  # Claude Code discards it: recorded only


def test_install_registers_an_event_only_for_a_rule_it_raises() -> None:
    events = policy_events(POLICY, "claude")
    assert {"ConfigChange", "Elicitation", "PermissionDenied", "StopFailure"} <= set(events)
    assert not {"ElicitationResult", "TaskCreated", "Setup"} & set(events)
    plain = compile_text("version: 1\nrules:\n  - {id: r, match: {command: rm}, action: deny}\n")
    assert "ConfigChange" not in policy_events(plain, "claude")


def test_the_reading_of_a_decline_is_the_runtime_s() -> None:
    spec = CLAUDE.event("Elicitation")
    answer = {"hookSpecificOutput": {"hookEventName": "Elicitation", "action": "decline"}}
    effect = claude_dialect.decide(spec, [Reading("json", answer)])
    assert effect.decision == "decline"
