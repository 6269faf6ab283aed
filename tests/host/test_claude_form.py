"""GitHub Copilot CLI and Qwen Code in the host runtime (host/claude_form.py): their hook
files as the hosts read them, their answers as the tables say, offline.

The facts checked here were observed on the real CLIs (tests/e2e/fixtures/copilot.jsonl,
qwen.jsonl: Copilot CLI 1.0.102, Qwen Code 0.24.4), and test_replay.py replays every
recorded cell; these tests pin what a hook author relies on, with real hook processes.
"""

from __future__ import annotations

import json
import shlex
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hookwise.config.host_hooks import load_host_hooks
from hookwise.host.loading import HookTrustWarning, load_hook_system
from hookwise.policy.adapters.hosts import host_tables
from hookwise.policy.pipeline import Outcome, failure_answer
from hookwise.policy.rules.compiler import default_settings
from hookwise.protocol.hosts import table

REASON = "no marker files here"


def _answer_command(stdout: str = "", code: int = 0, stderr: str = "", sleep: float = 0) -> str:
    program = (
        "import sys, time\n"
        f"time.sleep({sleep})\n"
        f"sys.stdout.write({stdout!r})\n"
        f"sys.stderr.write({stderr!r})\n"
        f"sys.exit({code})\n"
    )
    return shlex.join([sys.executable, "-c", program])


def _write(path: Path, value: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value), encoding="utf-8")


def _copilot(proj: Path, event: str, command: str, timeout_s: int = 30) -> None:
    handler = {"type": "command", "bash": command, "timeoutSec": timeout_s}
    _write(proj / ".github" / "hooks" / "a.json", {"version": 1, "hooks": {event: [handler]}})


def _qwen(proj: Path, command: str, timeout_ms: int = 30000) -> None:
    handler = {"type": "command", "command": command, "timeout": timeout_ms}
    group = {"matcher": "run_shell_command", "hooks": [handler]}
    _write(proj / ".qwen" / "settings.json", {"hooks": {"PreToolUse": [group]}})


def _fire(host: str, proj: Path, home: Path, event: str, args: dict[str, Any]) -> Any:
    system = load_hook_system(
        proj, dialect=host, home=home, env={"HOME": str(home)}, trust_workspace=True
    )
    return system.fire_sync(event, args).effect.outcome


PASCAL = {"tool_name": "Bash", "tool_input": {"command": "echo hi > marker"}}
CAMEL = {"toolName": "bash", "toolArgs": {"command": "echo hi > marker"}}
QWEN = {"tool_name": "run_shell_command", "tool_input": {"command": "echo hi > marker"}}


def test_copilot_reads_every_json_file_of_its_hook_directory(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    _copilot(proj, "preToolUse", _answer_command())
    _write(
        proj / ".github" / "hooks" / "b.json",
        {"version": 1, "hooks": {"PreToolUse": [{"type": "command", "bash": "true"}]}},
    )
    _write(
        home / ".copilot" / "hooks" / "mine.json",
        {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "true"}]}},
    )
    loaded = load_host_hooks(
        "copilot", table("copilot"), str(proj), {"HOME": str(home)}, trusted=True
    )
    scopes = sorted((e.event, e.scope) for e in loaded.registry.entries)
    assert scopes == [("PreToolUse", "project"), ("preToolUse", "project"), ("preToolUse", "user")]


def test_copilot_project_hooks_need_a_trusted_folder(tmp_path: Path) -> None:
    proj, home = tmp_path / "proj", tmp_path / "home"
    _copilot(proj, "preToolUse", _answer_command(code=1))
    env = {"HOME": str(home)}
    untrusted = load_host_hooks("copilot", table("copilot"), str(proj), env, trusted=False)
    assert not untrusted.registry.entries and untrusted.untrusted
    switched = load_host_hooks(
        "copilot", table("copilot"), str(proj), {**env, "COPILOT_ALLOW_ALL": "true"}, trusted=False
    )
    assert len(switched.registry.entries) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", HookTrustWarning)
        system = load_hook_system(proj, dialect="copilot", home=home, env=env)
    assert system.fire_sync("preToolUse", CAMEL).effect.outcome.proceed  # the hook never ran


@pytest.mark.parametrize(
    "event,args,stdout",
    [
        (
            "PreToolUse",
            PASCAL,
            json.dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": "PreToolUse",
                        "permissionDecision": "deny",
                        "permissionDecisionReason": REASON,
                    }
                }
            ),
        ),
        (
            "PreToolUse",
            PASCAL,
            json.dumps({"permissionDecision": "deny", "permissionDecisionReason": REASON}),
        ),
        (
            "preToolUse",
            CAMEL,
            json.dumps({"permissionDecision": "deny", "permissionDecisionReason": REASON}),
        ),
    ],
)
def test_copilot_denies_in_its_own_forms(
    event: str, args: dict[str, Any], stdout: str, tmp_path: Path
) -> None:
    _copilot(tmp_path / "proj", event, _answer_command(stdout))
    outcome = _fire("copilot", tmp_path / "proj", tmp_path / "home", event, args)
    assert not outcome.proceed and outcome.reason_for_model == REASON


def test_copilot_ignores_what_each_key_does_not_read(tmp_path: Path) -> None:
    claude_deny = {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}
    }
    _copilot(tmp_path / "proj", "preToolUse", _answer_command(json.dumps(claude_deny)))
    assert _fire("copilot", tmp_path / "proj", tmp_path / "home", "preToolUse", CAMEL).proceed
    _copilot(tmp_path / "p2", "PreToolUse", _answer_command(json.dumps({"decision": "block"})))
    assert _fire("copilot", tmp_path / "p2", tmp_path / "home", "PreToolUse", PASCAL).proceed


def test_copilot_exit2_hides_the_reason_and_a_crash_fails_closed(tmp_path: Path) -> None:
    _copilot(tmp_path / "a", "PreToolUse", _answer_command(code=2, stderr=REASON))
    outcome = _fire("copilot", tmp_path / "a", tmp_path / "home", "PreToolUse", PASCAL)
    assert not outcome.proceed
    assert outcome.reason_for_model == "Denied by preToolUse hook: hook exited with code 2"
    _copilot(tmp_path / "b", "preToolUse", _answer_command(code=1, stderr=REASON))
    outcome = _fire("copilot", tmp_path / "b", tmp_path / "home", "preToolUse", CAMEL)
    assert not outcome.proceed and outcome.reason_for_model == "hook errored"


def test_copilot_timeout_lets_the_tool_run(tmp_path: Path) -> None:
    deny = json.dumps({"permissionDecision": "deny", "permissionDecisionReason": REASON})
    _copilot(tmp_path / "proj", "preToolUse", _answer_command(deny, sleep=5), timeout_s=1)
    assert _fire("copilot", tmp_path / "proj", tmp_path / "home", "preToolUse", CAMEL).proceed


def test_copilot_rewrites_with_modified_args(tmp_path: Path) -> None:
    new = {"command": "echo hi > elsewhere"}
    answer = json.dumps({"permissionDecision": "allow", "modifiedArgs": new})
    _copilot(tmp_path / "proj", "preToolUse", _answer_command(answer))
    outcome = _fire("copilot", tmp_path / "proj", tmp_path / "home", "preToolUse", CAMEL)
    assert outcome.proceed and outcome.updated_input == new


def test_qwen_timeout_is_in_milliseconds_and_fails_open(tmp_path: Path) -> None:
    deny = json.dumps(
        {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}}
    )
    _qwen(tmp_path / "proj", _answer_command(deny, sleep=3), timeout_ms=500)
    assert _fire("qwen", tmp_path / "proj", tmp_path / "home", "PreToolUse", QWEN).proceed


def test_qwen_has_no_rewrite_and_no_empty_exit2(tmp_path: Path) -> None:
    rewrite = {
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "updatedInput": {"command": "true"},
        }
    }
    _qwen(tmp_path / "a", _answer_command(json.dumps(rewrite)))
    outcome = _fire("qwen", tmp_path / "a", tmp_path / "home", "PreToolUse", QWEN)
    assert outcome.proceed and outcome.updated_input is None
    _qwen(tmp_path / "b", _answer_command(code=2))
    assert _fire("qwen", tmp_path / "b", tmp_path / "home", "PreToolUse", QWEN).proceed
    _qwen(tmp_path / "c", _answer_command(code=2, stderr=REASON))
    outcome = _fire("qwen", tmp_path / "c", tmp_path / "home", "PreToolUse", QWEN)
    assert not outcome.proceed and outcome.reason_for_model == REASON


@pytest.mark.parametrize(
    "host,event,args",
    [
        ("copilot", "PreToolUse", PASCAL),
        ("copilot", "preToolUse", CAMEL),
        ("qwen", "PreToolUse", QWEN),
    ],
)
def test_hookwise_failure_answer_denies_with_its_reason_on_every_tool_event(
    host: str, event: str, args: dict[str, Any], tmp_path: Path
) -> None:
    """What `hookwise hook` answers when it cannot place the payload at all (pipeline's
    blind deny), run as that host's hook: every pre-tool key denies, the reason reaching
    the model (Copilot hides an exit 2's reason, Qwen runs the tool after an empty one)."""
    outcome_holder = Outcome()
    outcome_holder.host = host
    answer = failure_answer(outcome_holder, "boom", host_tables(), default_settings(), {})
    command = _answer_command(answer.stdout, answer.exit_code, answer.stderr)
    proj = tmp_path / "proj"
    if host == "copilot":
        _copilot(proj, event, command)
    else:
        _qwen(proj, command)
    outcome = _fire(host, proj, tmp_path / "home", event, args)
    assert not outcome.proceed
    assert outcome.reason_for_model and "hookwise: boom" in outcome.reason_for_model


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(document=json_values, host=st.sampled_from(["copilot", "qwen"]))
def test_any_hook_file_loads_with_warnings_never_an_exception(
    document: Any, host: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    proj = tmp_path_factory.mktemp("proj")
    name = ".github/hooks/x.json" if host == "copilot" else ".qwen/settings.json"
    _write(proj / name, document if not isinstance(document, dict) else {"hooks": document})
    loaded = load_host_hooks(host, table(host), str(proj), {"HOME": str(proj)}, trusted=True)
    for entry in loaded.registry.entries:
        assert isinstance(entry.config.get("command"), str) and entry.config["command"].strip()
    if not isinstance(document, dict) and document is not None:
        assert loaded.warnings
