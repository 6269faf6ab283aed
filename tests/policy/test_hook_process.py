"""``hookwise hook`` as a real process, per host: the answer, the exit code, the audit log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.store import trust_file

HOOKWISE = str(Path(sys.executable).parent / "hookwise")

POLICY = """\
version: 1
rules:
  - id: no-force-push
    match: {tool: shell, command: git push --force}
    action: deny
    reason: POLICY-E2E force pushes are not allowed
  - id: marker-rewrite
    match: {command: {program: echo, regex: [marker]}}
    action: rewrite
    rewrite: {replace: [{arg: command, find: marker, with: marker-modified}]}
  - id: prompt-context
    match: {prompt: {words: [deploy]}}
    action: context
    context: deployments use the pipeline
"""

PRE = {
    "gemini": ("BeforeTool", "run_shell_command"),
    "claude": ("PreToolUse", "Bash"),
    "codex": ("PreToolUse", "Bash"),
}


USER_POLICY = """\
version: 1
settings:
  audit: {max_bytes: 2048, keep: 2}
"""


@pytest.fixture
def env(isolated: Path) -> dict[str, str]:
    policy = isolated / "policy.yaml"
    policy.write_text(POLICY)
    user = isolated / "user.yaml"
    user.write_text(USER_POLICY)
    environment = dict(os.environ)
    environment.update(
        {
            "HOOKWISE_POLICY": str(policy),
            "HOOKWISE_USER_POLICY": str(user),
            "HOOKWISE_AUDIT_LOG": str(isolated / "audit.jsonl"),
            "HOOKWISE_CACHE_DIR": str(isolated / "cache"),
        }
    )
    trust_file(str(policy), environment)  # the user reviewed it: rewrites apply
    return environment


def hook(env: dict[str, str], stdin: str | bytes, *args: str) -> subprocess.CompletedProcess[str]:
    data = stdin if isinstance(stdin, str) else stdin.decode("latin-1")
    return subprocess.run(
        [HOOKWISE, "hook", *args],
        input=data,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def pre_payload(host: str, command: str, cwd: str = "/work") -> str:
    event, tool = PRE[host]
    return json.dumps(
        build_payload(host, event, tool=tool, tool_input={"command": command}, cwd=cwd)
    )


@pytest.mark.parametrize("host", ["gemini", "claude", "codex"])
@pytest.mark.parametrize("platform_flag", [True, False])
def test_deny_rewrite_and_pass_per_host(
    env: dict[str, str], host: str, platform_flag: bool
) -> None:
    args = ("--platform", host) if platform_flag else ()
    denied = hook(env, pre_payload(host, "git push --force origin main"), *args)
    assert denied.returncode == 0, denied.stderr
    answer = json.loads(denied.stdout)
    if host == "gemini":
        assert answer == {"decision": "deny", "reason": "POLICY-E2E force pushes are not allowed"}
    else:
        assert answer == {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": "POLICY-E2E force pushes are not allowed",
            }
        }
    rewritten = json.loads(hook(env, pre_payload(host, "echo hi > marker"), *args).stdout)
    hso = rewritten["hookSpecificOutput"]
    new_input = hso["tool_input"] if host == "gemini" else hso["updatedInput"]
    assert new_input == {"command": "echo hi > marker-modified"}
    passed = hook(env, pre_payload(host, "git push origin feature-fix"), *args)
    assert passed.returncode == 0
    assert passed.stdout == ("{}\n" if host == "gemini" else "")


@pytest.mark.parametrize(
    ("host", "event"),
    [("gemini", "BeforeAgent"), ("claude", "UserPromptSubmit"), ("codex", "UserPromptSubmit")],
)
def test_prompt_context(env: dict[str, str], host: str, event: str) -> None:
    result = hook(env, json.dumps(build_payload(host, event, prompt="please deploy")))
    assert json.loads(result.stdout) == {
        "hookSpecificOutput": {
            "hookEventName": event,
            "additionalContext": "deployments use the pipeline",
        }
    }


@pytest.mark.parametrize("host", ["gemini", "claude", "codex"])
def test_a_broken_policy_fails_closed_for_tools_and_open_otherwise(
    env: dict[str, str], host: str
) -> None:
    Path(env["HOOKWISE_POLICY"]).write_text("version: 1\nrules:\n  - id: x\n    actoin: deny\n")
    result = hook(env, pre_payload(host, "ls"))
    assert result.returncode == 0
    answer = json.loads(result.stdout)
    reason = (
        answer["reason"]
        if host == "gemini"
        else answer["hookSpecificOutput"]["permissionDecisionReason"]
    )
    assert (
        f"{env['HOOKWISE_POLICY']}:4:5: rule #1: unknown key 'actoin'; did you mean 'action'?"
        in reason
    )
    assert "fails closed" in reason
    assert env["HOOKWISE_POLICY"] in result.stderr
    event = "BeforeAgent" if host == "gemini" else "UserPromptSubmit"
    advisory = hook(env, json.dumps(build_payload(host, event, prompt="hi")))
    assert advisory.returncode == 0
    if host != "codex":
        assert "policy not applied" in json.loads(advisory.stdout)["systemMessage"]


def test_on_error_can_be_overridden(env: dict[str, str]) -> None:
    Path(env["HOOKWISE_POLICY"]).write_text("version: [\n")
    result = hook({**env, "HOOKWISE_ON_ERROR": "allow"}, pre_payload("claude", "ls"))
    assert result.returncode == 0
    assert "permissionDecision" not in result.stdout


def test_unreadable_input_blocks_with_exit_2(env: dict[str, str]) -> None:
    for stdin in ("not json", "[1, 2]", '{"no": "event"}'):
        result = hook(env, stdin)
        assert result.returncode == 2, stdin
        assert result.stdout == ""
        assert "hookwise:" in result.stderr
    unknown = hook(
        env,
        json.dumps({"hook_event_name": "FutureEvent", "session_id": "s"}),
        "--platform",
        "claude",
    )
    assert unknown.returncode == 0
    assert "unknown Claude Code event 'FutureEvent'" in unknown.stderr


def test_usage_errors_block(env: dict[str, str]) -> None:
    result = hook(env, "{}", "--platform", "vim")
    assert result.returncode == 2
    assert "unknown host 'vim'" in result.stderr
    assert hook(env, "", "--help").stdout.startswith("Usage: hookwise hook")


def test_audit_log_records_and_rotates(env: dict[str, str]) -> None:
    for _ in range(12):
        hook(env, pre_payload("claude", "git push --force"))
    log = Path(env["HOOKWISE_AUDIT_LOG"])
    rotated = Path(str(log) + ".1")
    assert rotated.exists()
    assert not Path(str(log) + ".3").exists()
    assert log.stat().st_size <= 2048
    record = json.loads(rotated.read_text().splitlines()[-1])
    assert record["decision"] == "deny"
    assert record["rule"] == "no-force-push"
    assert record["host"] == "claude"
    assert record["event"] == "PreToolUse"
    assert record["canonical"] == ["tool.before"]
    assert record["tool"] == "shell"
    assert record["session"] == "hookwise-test"
    assert record["rules"][0]["outcome"] == "deny"
    assert record["latency_ms"] > 0
    assert record["policy"] == [env["HOOKWISE_USER_POLICY"], env["HOOKWISE_POLICY"]]


def test_the_cache_follows_policy_edits(env: dict[str, str]) -> None:
    assert (
        json.loads(hook(env, pre_payload("gemini", "git push --force")).stdout)["decision"]
        == "deny"
    )
    assert list(Path(env["HOOKWISE_CACHE_DIR"]).glob("policy-*.marshal"))
    Path(env["HOOKWISE_POLICY"]).write_text("version: 1\nrules: []\n")
    # the edit is seen at once: a trusted file that changed fails closed, naming itself
    changed = json.loads(hook(env, pre_payload("gemini", "git status")).stdout)
    assert changed["decision"] == "deny" and "changed since you trusted it" in changed["reason"]
    trust_file(env["HOOKWISE_POLICY"], env)  # the user read the edit and trusted it
    assert json.loads(hook(env, pre_payload("gemini", "git push --force")).stdout) == {}


def test_the_hot_path_imports_only_the_standard_library(env: dict[str, str]) -> None:
    hook(env, pre_payload("claude", "git push --force"))  # warm the cache
    probe = (
        "import sys\n"
        "from hookwise.cli.entry import main\n"
        "code = main(['hook'])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        input=pre_payload("claude", "git push --force"),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    modules = set(result.stderr.split())
    assert "hookwise.policy.hook" in modules
    heavy = {
        "yaml",
        "re",
        "json",
        "typing",
        "click",
        "rich",
        "dataclasses",
        "enum",
    }
    assert not modules & heavy, modules & heavy
    # of the host tables, only the plain data of the variables that move the guard and,
    # as this environment sets such variables (HOOKWISE_POLICY...), the host rows naming
    # the env files that could have set them (the hook drops those: s27 #3-#5); both are
    # served from the launcher's snapshot (test_snapshot.py)
    protocol = {m for m in modules if m.startswith("hookwise.protocol.")}
    assert protocol <= {"hookwise.protocol.guard_env", "hookwise.protocol.hosts"}, protocol


def test_retry_state_survives_processes(env: dict[str, str]) -> None:
    Path(env["HOOKWISE_POLICY"]).write_text(
        "version: 1\nrules:\n  - {id: todo, match: {response: {contains: [TODO]}}, action: retry, reason: finish, max_retries: 2}\n"
    )
    trust_file(env["HOOKWISE_POLICY"], env)
    payload = json.dumps(build_payload("claude", "Stop", response="TODO"))
    answers: list[Any] = [hook(env, payload).stdout for _ in range(4)]
    assert [
        json.loads(a)["decision"] if a.strip() and "decision" in a else None for a in answers
    ] == ["block", "block", None, "block"]


def test_managed_rules_win_and_cannot_be_disabled(env: dict[str, str], isolated: Path) -> None:
    managed = isolated / "managed.yaml"
    managed.write_text(
        "version: 1\nrules:\n  - {id: corp-no-curl, match: {command: curl}, action: deny, reason: corp policy}\n"
    )
    Path(env["HOOKWISE_POLICY"]).write_text(
        "version: 1\nrules:\n  - {id: allow-all, match: {tool: '*'}, action: allow, priority: 1000}\n"
    )
    trust_file(env["HOOKWISE_POLICY"], env)
    result = hook({**env, "HOOKWISE_MANAGED_POLICY": str(managed)}, pre_payload("claude", "curl x"))
    hso = json.loads(result.stdout)["hookSpecificOutput"]
    assert (hso["permissionDecision"], hso["permissionDecisionReason"]) == ("deny", "corp policy")
    Path(env["HOOKWISE_POLICY"]).write_text(
        "version: 1\noverrides:\n  - {id: corp-no-curl, enabled: false}\n"
    )
    trust_file(env["HOOKWISE_POLICY"], env)
    result = hook({**env, "HOOKWISE_MANAGED_POLICY": str(managed)}, pre_payload("claude", "ls"))
    reason = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "managed rules cannot be disabled or changed" in reason


def test_policy_flag_and_project_discovery(env: dict[str, str], isolated: Path) -> None:
    project = isolated / "repo"
    (project / ".hookwise").mkdir(parents=True)
    (project / ".hookwise" / "policy.yaml").write_text(
        "version: 1\nrules:\n  - {id: p, match: {command: make}, action: deny, reason: from project}\n"
    )
    (project / "sub").mkdir()
    discovered = {k: v for k, v in env.items() if k != "HOOKWISE_POLICY"}
    result = hook(discovered, pre_payload("gemini", "make all", cwd=str(project / "sub")))
    assert json.loads(result.stdout) == {"decision": "deny", "reason": "from project"}
    flagged = hook(
        discovered, pre_payload("gemini", "make all"), "--policy", env["HOOKWISE_POLICY"]
    )
    assert json.loads(flagged.stdout) == {}


def test_the_fast_launcher_answers_the_same(env: dict[str, str]) -> None:
    from hookwise.policy import run_hook

    argv = [sys.executable, "-I", "-S", run_hook.__file__, "--platform", "codex"]
    payload = pre_payload("codex", "git push --force")
    for _ in range(2):  # the first call compiles the policy (site-packages set up then)
        result = subprocess.run(
            argv, input=payload, capture_output=True, text=True, env=env, timeout=60, check=False
        )
        assert result.returncode == 0, result.stderr
        assert json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert result.stdout == hook(env, payload).stdout


# --------------------------------------------- the agent plants things where the hook writes


def _one_answer(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The hook's stdout is exactly one JSON document (a second one makes hosts reject it)."""
    decoder = json.JSONDecoder()
    answer, end = decoder.raw_decode(done.stdout)
    assert done.stdout[end:].strip() == "", done.stdout
    return answer  # type: ignore[no-any-return]


def _denied(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # a hook that blocked on a planted file would hit this timeout and the test fails
    done = subprocess.run(
        [HOOKWISE, "hook", "--platform", "claude"],
        input=pre_payload("claude", "git push --force origin main"),
        capture_output=True,
        text=True,
        env=env,
        timeout=20,
        check=False,
    )
    answer = _one_answer(done)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny", done.stderr
    return done


def test_a_fifo_in_place_of_the_audit_log_neither_blocks_nor_changes_the_answer(
    env: dict[str, str],
) -> None:
    """`rm -f audit.jsonl && mkfifo audit.jsonl`: a blocking open would wait for a reader
    until the host kills the hook, and a killed hook lets the tool run."""
    log = Path(env["HOOKWISE_AUDIT_LOG"])
    os.mkfifo(log)
    done = _denied(env)
    assert "cannot write the audit log" in done.stderr and str(log) in done.stderr
    assert log.is_fifo()  # left alone, reported


def test_an_audit_log_linked_to_stdout_adds_nothing_to_the_answer(env: dict[str, str]) -> None:
    log = Path(env["HOOKWISE_AUDIT_LOG"])
    log.symlink_to("/dev/stdout")
    done = _denied(env)
    assert "cannot write the audit log" in done.stderr


def test_a_fifo_in_place_of_the_policy_cache_costs_a_compile_not_a_hang(
    env: dict[str, str],
) -> None:
    from hookwise.policy.cache import cache_path
    from hookwise.policy.trust.scopes import scope_files

    cache = Path(cache_path(scope_files("/work", env), env))
    cache.parent.mkdir(parents=True)
    os.mkfifo(cache)
    _denied(env)
    assert cache.is_file()  # the compiled policy, written over the FIFO (rename)
    _denied(env)


def test_an_audit_lock_held_forever_does_not_hold_the_answer(env: dict[str, str]) -> None:
    """Rotation takes the lock file's flock; a process holding it must not make the hook
    wait (the log here is past settings.audit.max_bytes, so each call rotates)."""
    import fcntl

    log = Path(env["HOOKWISE_AUDIT_LOG"])
    for _ in range(12):
        _denied(env)
    assert log.with_name("audit.jsonl.1").exists()  # rotation happens
    with open(f"{log}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        before = log.stat().st_size
        _denied(env)
        assert log.stat().st_size > before  # appended to the current file instead


def _terminated_before_the_event(env: dict[str, str], payload: str) -> tuple[int, str, str]:
    """The hook started, SIGTERM sent while it waits for its stdin (before it knows the
    event), then the event: its exit status, stdout and stderr."""
    import signal
    import time

    proc = subprocess.Popen(
        [HOOKWISE, "hook", "--platform", "claude"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert proc.stdin is not None
    proc.stdin.write(payload[:1])  # it has started reading (the handler is in place)
    proc.stdin.flush()
    time.sleep(1.0)
    proc.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    out, err = proc.communicate(payload[1:], timeout=60)
    return proc.returncode, out, err


def test_an_event_whose_answer_the_host_discards_is_recorded_past_a_sigterm(
    env: dict[str, str], isolated: Path
) -> None:
    """Claude Code 2.1.330 sends SIGTERM to StopFailure hooks as ``-p`` ends, 0.1-0.4 s
    after starting them (tests/e2e/test_policy_install.py): the audit record is the hook's
    only job there, so it finishes it."""
    payload = build_payload("claude", "StopFailure", extra={"error": "rate_limit"})
    code, _, err = _terminated_before_the_event(env, json.dumps(payload))
    assert code == 0, err
    records = [json.loads(line) for line in (isolated / "audit.jsonl").read_text().splitlines()]
    assert [(r["event"], r["canonical"]) for r in records] == [("StopFailure", ["agent.failure"])]


def test_an_event_the_host_obeys_dies_of_a_sigterm_as_the_host_expects(
    env: dict[str, str], isolated: Path
) -> None:
    code, out, _ = _terminated_before_the_event(env, pre_payload("claude", "ls"))
    assert code == -15 and out == ""  # no answer after the host gave up on the hook
    assert not (isolated / "audit.jsonl").exists()
