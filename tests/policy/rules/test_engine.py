from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hookwise.policy.pipeline import Outcome, decide
from hookwise.policy.retry_state import RetryState
from hookwise.policy.tools.payloads import build_payload
from tests.policy.conftest import compile_text
from tests.strategies import json_values

ENV = {"HOME": "/home/u", "CI": "true"}


def run(
    policy: dict[str, Any], host: str, event: str, state: RetryState | None = None, **fields: Any
) -> Outcome:
    payload = build_payload(host, event, cwd="/work/proj", **fields)
    return decide(payload, policy, host, ENV, now=0.0, state=state)


def verdict(outcome: Outcome) -> str | None:
    assert outcome.decision is not None
    return outcome.decision.decision


FORCE_PUSH = compile_text(
    """\
    version: 1
    rules:
      - id: no-force-push
        match:
          tool: shell
          command:
            - {program: git, args: [push], any_flags: [--force, -f]}
            - {program: git, args: [push, "+*"]}
        action: deny
        reason: no force push
    """
)


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("git push -f origin main", True),
        ("git push --force", True),
        ("git push origin +main", True),
        ("git add . && git push -fu origin main", True),
        ("bash -c 'git push --force'", True),
        ("sudo git -C repo push -f", True),
        ("git push origin feature-fix", False),
        ("git push --force-with-lease", False),
        ("echo 'git push -f'", False),
        ("git commit -m 'git push -f'", False),
        ("git pull -f", False),
    ],
)
def test_shell_aware_command_matching(command: str, denied: bool) -> None:
    for host, event, tool in (
        ("gemini", "BeforeTool", "run_shell_command"),
        ("claude", "PreToolUse", "Bash"),
        ("codex", "PreToolUse", "Bash"),
    ):
        outcome = run(FORCE_PUSH, host, event, tool=tool, tool_input={"command": command})
        assert (verdict(outcome) == "deny") is denied, (host, command)


ENV_FILES = compile_text(
    """\
    version: 1
    rules:
      - id: env-files
        match:
          tool: [write, edit]
          files: {globs: [".env", ".env.*"], exclude: [".env.example"]}
        action: deny
        reason: no env
      - id: py-context
        match:
          tool: [write, edit]
          files: {extensions: [.py]}
        action: context
        context: run the tests
    """
)


@pytest.mark.parametrize(
    ("host", "tool", "tool_input", "denied"),
    [
        ("claude", "Write", {"file_path": "/work/proj/.env", "content": "x"}, True),
        ("claude", "Edit", {"file_path": "/work/proj/config/.env.local"}, True),
        ("claude", "Edit", {"filePath": "config/.env.prod"}, True),
        ("gemini", "write_file", {"file_path": ".env"}, True),
        ("gemini", "replace", {"absolute_path": "/work/proj/.env"}, True),
        ("claude", "Write", {"file_path": ".env.example"}, False),
        ("claude", "Write", {"file_path": "env.txt"}, False),
        ("claude", "Read", {"file_path": ".env"}, False),
        (
            "codex",
            "apply_patch",
            {"command": "*** Begin Patch\n*** Update File: app/.env\n@@\n-a\n+b\n*** End Patch"},
            True,
        ),
        (
            "codex",
            "apply_patch",
            {"command": "*** Begin Patch\n*** Add File: app/main.py\n+x\n*** End Patch"},
            False,
        ),
    ],
)
def test_file_matchers_see_every_path_argument(
    host: str, tool: str, tool_input: dict[str, Any], denied: bool
) -> None:
    event = "BeforeTool" if host == "gemini" else "PreToolUse"
    outcome = run(ENV_FILES, host, event, tool=tool, tool_input=tool_input)
    assert (verdict(outcome) == "deny") is denied


def test_a_file_matcher_does_not_match_events_without_paths() -> None:
    outcome = run(ENV_FILES, "claude", "PreToolUse", tool="Write", tool_input={"content": "x"})
    assert verdict(outcome) is None
    outcome = run(
        ENV_FILES, "claude", "PreToolUse", tool="Edit", tool_input={"file_path": "a/b.py"}
    )
    assert outcome.decision is not None and outcome.decision.contexts == ["run the tests"]


RM = compile_text(
    """\
    version: 1
    rules:
      - id: rm-outside
        match:
          command: {program: rm, any_flags: [-r, -R, --recursive]}
          files: {outside_workspace: true, exclude: ["/tmp/**"]}
        action: deny
    """
)


@pytest.mark.parametrize(
    ("command", "denied"),
    [
        ("rm -rf ../other", True),
        ("rm -r ~/notes", True),
        ("rm -rf $HOME/x", True),
        ('rm -rf "$TARGET"', True),
        ("rm -rf /", True),
        ("rm -rf build dist", False),
        ("rm -rf ./build/../dist", False),
        ("rm -rf /tmp/scratch", False),
        ("rm ../file.txt", False),
        ("rm -rf build && cat ~/.bashrc", False),
    ],
)
def test_paths_outside_the_workspace(command: str, denied: bool) -> None:
    outcome = run(RM, "claude", "PreToolUse", tool="Bash", tool_input={"command": command})
    assert (verdict(outcome) == "deny") is denied, command


def test_deny_beats_ask_beats_allow_and_the_highest_deny_reason_wins() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: allow-all, match: {tool: "*"}, action: allow, priority: 100}
          - {id: ask-ls, match: {command: ls}, action: ask, reason: sure?, priority: 50}
          - {id: deny-low, match: {command: ls}, action: deny, reason: low, priority: 1}
          - {id: deny-high, match: {command: ls}, action: deny, reason: high, priority: 10}
        """
    )
    outcome = run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "ls"})
    decision = outcome.decision
    assert decision is not None
    assert (decision.decision, decision.rule, decision.reason) == ("deny", "deny-high", "high")
    assert [r["id"] for r in decision.records] == ["allow-all", "ask-ls", "deny-high", "deny-low"]
    outcome = run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "pwd"})
    assert verdict(outcome) == "allow"


def test_warn_and_audit_modes() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: w, match: {command: ls}, action: deny, reason: would block, mode: warn, context: ctx}
          - {id: a, match: {command: ls}, action: deny, mode: audit, message: hidden}
        """
    )
    outcome = run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "ls"})
    decision = outcome.decision
    assert decision is not None and decision.decision is None
    assert decision.warnings == ["hookwise: rule 'w' would deny: would block"]
    assert decision.contexts == ["ctx"]
    assert decision.messages == []
    assert [r["outcome"] for r in decision.records] == ["warned", "audited"]


def test_rewrite_applies_to_host_keys_and_is_rechecked() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - id: quiet
            match: {command: npm install}
            action: rewrite
            rewrite:
              replace: [{arg: command, pattern: "npm install", with: "npm ci"}]
          - id: to-danger
            match: {command: echo hi}
            action: rewrite
            rewrite: {set: {command: "git push --force"}}
          - {id: no-force, match: {command: git push --force}, action: deny, reason: nope}
          - id: path
            match: {tool: write}
            action: rewrite
            rewrite: {set: {file_path: out/x.txt}}
        """
    )
    outcome = run(
        policy,
        "claude",
        "PreToolUse",
        tool="Bash",
        tool_input={"command": "npm install x", "timeout": 5},
    )
    decision = outcome.decision
    assert decision is not None
    assert decision.decision == "allow"
    assert decision.updated_input == {"command": "npm ci x", "timeout": 5}
    outcome = run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "echo hi"})
    assert outcome.decision is not None
    assert (outcome.decision.decision, outcome.decision.rule) == ("deny", "no-force")
    assert outcome.decision.updated_input is None
    outcome = run(policy, "claude", "PreToolUse", tool="Write", tool_input={"filePath": "a.txt"})
    assert outcome.decision is not None and outcome.decision.updated_input == {
        "filePath": "out/x.txt"
    }


def test_when_conditions_see_env_time_and_input() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - id: ci-only
            match: {tool: shell}
            when: 'env.CI == "true" and input.timeout > 100 and time.year >= 1970'
            action: deny
        """
    )
    outcome = run(
        policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "x", "timeout": 500}
    )
    assert verdict(outcome) == "deny"
    outcome = run(
        policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "x", "timeout": 5}
    )
    assert verdict(outcome) is None


def test_fields_matcher() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - id: big
            match:
              tool: "*"
              fields:
                - {path: input.timeout, op: gt, value: 100}
                - {path: input.description, op: exists}
                - {path: host, op: in, value: [claude, codex]}
            action: deny
        """
    )
    base = {"command": "x", "timeout": 500, "description": "d"}
    assert verdict(run(policy, "claude", "PreToolUse", tool="Bash", tool_input=base)) == "deny"
    assert (
        verdict(run(policy, "gemini", "BeforeTool", tool="run_shell_command", tool_input=base))
        is None
    )
    assert (
        verdict(
            run(
                policy,
                "claude",
                "PreToolUse",
                tool="Bash",
                tool_input={"command": "x", "timeout": 500},
            )
        )
        is None
    )


def test_prompt_matching_and_dual_fire() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: words, match: {prompt: {words: [deploy], mode: any}}, action: context, context: pipeline}
          - {id: regex, match: {prompt: "rm\\\\s+-rf"}, action: deny, reason: nope}
          - {id: start, events: [agent.start], action: message, message: hello}
        """
    )
    outcome = run(policy, "gemini", "BeforeAgent", prompt="Please DEPLOY it")
    assert [e.name for e in outcome.events] == ["agent.start", "prompt"]
    decision = outcome.decision
    assert (
        decision is not None
        and decision.contexts == ["pipeline"]
        and decision.messages == ["hello"]
    )
    assert verdict(run(policy, "gemini", "BeforeAgent", prompt="redeployment")) is None
    assert verdict(run(policy, "claude", "UserPromptSubmit", prompt="run rm  -rf /")) == "deny"


def test_after_tool_with_an_error_is_also_a_tool_failure() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: fail, events: [tool.failure], match: {tool: shell}, action: context, context: it failed}
        """
    )
    payload = build_payload(
        "gemini", "AfterTool", tool="run_shell_command", tool_input={"command": "x"}
    )
    payload["tool_response"] = {"llmContent": "", "returnDisplay": "", "error": "boom"}
    outcome = decide(payload, policy, None, ENV, now=0.0)
    assert [e.name for e in outcome.events] == ["tool.after", "tool.failure"]
    assert outcome.decision is not None and outcome.decision.contexts == ["it failed"]
    payload["tool_response"] = {"llmContent": "ok", "returnDisplay": "ok"}
    assert decide(payload, policy, None, ENV, now=0.0).decision.contexts == []  # type: ignore[union-attr]


def test_retry_with_a_loop_guard() -> None:
    policy = compile_text(
        """\
        version: 1
        settings: {retry_budget: 2}
        rules:
          - {id: todo, match: {response: {contains: [TODO], case_sensitive: true}}, action: retry, reason: finish}
        """
    )
    state = RetryState()
    results = [
        run(policy, "claude", "Stop", state=state, response="TODO left").decision.retry  # type: ignore[union-attr]
        for _ in range(4)
    ]
    assert results == ["finish", "finish", None, "finish"]
    assert run(policy, "claude", "Stop", state=state, response="done").decision.retry is None  # type: ignore[union-attr]
    assert state.get("hookwise-test", "todo") == 0


def test_mcp_matcher() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: gh, match: {mcp: {server: github, tool: "delete_*"}}, action: deny}
        """
    )
    assert (
        verdict(run(policy, "claude", "PreToolUse", tool="mcp__github__delete_repo", tool_input={}))
        == "deny"
    )
    assert (
        verdict(run(policy, "claude", "PreToolUse", tool="mcp__github__get_repo", tool_input={}))
        is None
    )
    payload = build_payload("gemini", "BeforeTool", tool="delete_repo", tool_input={})
    payload["mcp_context"] = {"server_name": "github", "tool_name": "delete_repo"}
    assert decide(payload, policy, None, ENV, now=0.0).decision.decision == "deny"  # type: ignore[union-attr]


def test_validator(tmp_path: Any) -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - id: v
            match: {tool: shell}
            action: validate
            validator: {command: "grep -q forbidden && { echo 'found forbidden' >&2; exit 1; } || exit 0", timeout: 5}
          - id: slow
            match: {command: slow}
            action: validate
            validator: {command: "sleep 5", timeout: 0.2, on_error: allow}
        """
    )
    assert (
        verdict(run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "ls"}))
        is None
    )
    outcome = run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "forbidden"})
    assert outcome.decision is not None
    assert (outcome.decision.decision, outcome.decision.reason) == ("deny", "found forbidden")
    outcome = run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": "slow"})
    assert outcome.decision is not None and outcome.decision.decision is None
    assert "timed out" in outcome.decision.errors[0]


_PAYLOAD_KEYS = st.sampled_from(
    [
        "hook_event_name",
        "tool_name",
        "tool_input",
        "cwd",
        "session_id",
        "prompt",
        "tool_response",
        "prompt_response",
        "last_assistant_message",
        "stop_hook_active",
        "timestamp",
        "turn_id",
        "mcp_context",
        "notification_type",
        "details",
    ]
)
_EVENT_NAMES = st.sampled_from(
    [
        "BeforeTool",
        "AfterTool",
        "BeforeAgent",
        "AfterAgent",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "UserPromptSubmit",
        "PermissionRequest",
        "Notification",
        "SessionStart",
        "Nope",
        5,
        None,
    ]
)
_ANY_POLICY = compile_text(
    """\
    version: 1
    rules:
      - {id: a, match: {tool: "*", files: {outside_workspace: true}}, action: deny}
      - {id: b, match: {command: {program: rm, any_flags: [-r]}}, action: ask}
      - {id: c, match: {prompt: {words: [x]}}, action: context, context: c}
      - {id: d, match: {response: {contains: [TODO]}}, action: retry, reason: r}
      - {id: e, match: {tool: shell}, when: 'len(command) > 3 and files[0] != null', action: deny}
      - {id: f, match: {mcp: {server: "*"}}, action: rewrite, rewrite: {set: {x: 1}}}
    """
)


@given(
    st.dictionaries(_PAYLOAD_KEYS, json_values, max_size=8),
    _EVENT_NAMES,
    st.sampled_from([None, "gemini", "claude", "codex"]),
    st.sampled_from(["run_shell_command", "Bash", "apply_patch", "mcp__s__t", "Write", None]),
    st.text(max_size=40),
)
def test_any_payload_gets_an_answer(
    payload: dict[str, Any], event: Any, platform: str | None, tool: Any, command: str
) -> None:
    payload = dict(payload)
    if event is not None:
        payload["hook_event_name"] = event
    if tool is not None:
        payload["tool_name"] = tool
        payload.setdefault("tool_input", {"command": command, "file_path": command})
    outcome = decide(payload, _ANY_POLICY, platform, {"HOME": "/h"}, now=0.0, state=RetryState())
    assert outcome.answer.exit_code in (0, 2)
    assert outcome.decision is not None or outcome.error is not None
    if outcome.answer.stdout:
        json.loads(outcome.answer.stdout)


def test_line_regex_rules_are_indexed_by_their_literal() -> None:
    policy = compile_text(
        """\
        version: 1
        rules:
          - {id: exact, match: {command: {line_regex: "curl .*\\\\| *sh"}}, action: deny}
          - {id: folded, match: {command: {line_regex: "(?i)DROP TABLE"}}, action: deny}
          - {id: none, match: {command: {line_regex: "a|b"}}, action: ask}
        """
    )
    bucket = policy["index"]["tool.before"]
    assert bucket["lit"] == {"=curl ": [0], "~drop table": [1]}
    assert bucket["shell"] == [2]
    expected = {
        "curl x | sh": "deny",
        "psql -c 'drop table x'": "deny",
        "echo é; Drop Table t": "deny",
        "ls a": "ask",
    }
    for command, wanted in expected.items():
        outcome = run(policy, "claude", "PreToolUse", tool="Bash", tool_input={"command": command})
        assert verdict(outcome) == wanted, command
