"""The whole-call deadline of ``hookwise hook`` (policy/call_deadline.py; red team s27 #1,
#2): a call whose deciding runs past it is answered as a failure (closed) in the host's
form, before the host's timeout; validators, bounded by their own timeouts, do not count.

Each test runs the real hook in a child interpreter whose budget is cut to a fraction of a
second and whose deciding is made slow where it would be slow for real (the shell analysis,
the rule evaluation), so no test waits the full seven seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.policy.test_hook_process import env, pre_payload  # noqa: F401 (fixture)

# the hook with its budget cut and one stage of deciding slowed by ``delay`` seconds
WRAPPER = """\
import sys, time
from hookwise.policy import call_deadline
call_deadline.DECIDE_BUDGET_S = {budget}
import {module} as slowed
real = slowed.{function}
def slow(*args, **kwargs):
    time.sleep({delay})
    return real(*args, **kwargs)
slowed.{function} = slow
{rebind}
from hookwise.policy.hook import main
sys.exit(main(sys.argv[1:], own_process=True))  # (as the entry points call it)
"""

SLOW_STAGES = {
    # the shell analysis (where s27 #1 and #2 spent their seconds)
    "analysis": ("hookwise.policy.trust.followed", "extra_starts",
                 "import hookwise.policy.trust.followed"),
    # the rule evaluation, after the policy is loaded
    "evaluation": ("hookwise.policy.pipeline", "decide",
                   "import hookwise.policy.hook as h; h.decide = slowed.decide"),
}  # fmt: skip


def run_hook(
    environment: dict[str, str], host: str, stdin: str, stage: str, budget: float, delay: float
) -> tuple[subprocess.CompletedProcess[str], float]:
    module, function, rebind = SLOW_STAGES[stage]
    code = WRAPPER.format(
        budget=budget, module=module, function=function, delay=delay, rebind=rebind
    )
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", code, "--platform", host],
        input=stdin,
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
        check=False,
    )
    return done, time.monotonic() - started


@pytest.mark.parametrize("stage", sorted(SLOW_STAGES))
@pytest.mark.parametrize("host", ["claude", "gemini", "codex"])
def test_a_call_past_its_deadline_is_denied_before_the_slow_part_ends(
    env: dict[str, str],  # noqa: F811
    host: str,
    stage: str,
) -> None:
    done, took = run_hook(env, host, pre_payload(host, "cd sub && ls"), stage, 0.5, 30.0)
    assert took < 20.0, "the hook waited for the slow part instead of its deadline"
    assert "took more than" in done.stderr + done.stdout, done
    if done.stdout.strip():  # the host's own form of a deny
        answer = json.loads(done.stdout)
        text = json.dumps(answer)
        assert "deny" in text or answer.get("decision") in ("deny", "block"), answer
    else:
        assert done.returncode == 2, done  # exit 2 blocks on every host that reads it


def test_a_call_within_its_deadline_is_decided_as_usual(env: dict[str, str]) -> None:  # noqa: F811
    done, _ = run_hook(
        env, "claude", pre_payload("claude", "git push --force origin main"), "evaluation", 5.0, 0.1
    )
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "POLICY-E2E" in answer["hookSpecificOutput"]["permissionDecisionReason"]


def test_a_validator_does_not_spend_the_calls_deadline(
    env: dict[str, str],  # noqa: F811
    tmp_path: Path,
) -> None:
    """A validator slower than the whole budget still decides: its own timeout bounds it,
    and the installed timeout adds it (policy/install/registrations.timeout_seconds)."""
    from hookwise.policy.trust.store import trust_file

    policy = Path(env["HOOKWISE_POLICY"])
    policy.write_text(
        "version: 1\nrules:\n"
        "  - id: slow-check\n    match: {tool: shell, command: make}\n    action: validate\n"
        "    validator: {command: 'sleep 2.5; echo checked; exit 1', timeout: 20}\n"
    )
    trust_file(str(policy), env)
    run_hook(env, "claude", pre_payload("claude", "ls"), "evaluation", 30.0, 0.0)  # (compiles)
    done, took = run_hook(
        env, "claude", pre_payload("claude", "make deploy"), "evaluation", 2.0, 0.0
    )
    assert took >= 2.5
    assert "took more than" not in done.stdout + done.stderr, done
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "checked" in answer["hookSpecificOutput"]["permissionDecisionReason"]


@pytest.mark.parametrize("platform", ["claude", "no-such-host"])
def test_no_way_out_of_the_hook_leaves_its_deadline_armed(
    env: dict[str, str],  # noqa: F811
    platform: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """main() in-process (an embedder, the tests): a timer left running would raise into
    whatever runs seven seconds later."""
    import signal

    from hookwise.policy import hook

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(hook, "_read_stdin", lambda: pre_payload("claude", "ls"))
    assert hook.main(["--platform", platform]) in (0, 2)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


REGEX_POLICY = """\
version: 1
rules:
  - id: slow-regex
    match: {tool: shell, command: {line_regex: ["(a|aa)+$"]}}
    action: deny
    reason: never reached in time
"""


@pytest.mark.parametrize("host", ["claude", "gemini"])
def test_a_backtracking_policy_regex_does_not_move_the_deadline_later(
    env: dict[str, str],  # noqa: F811
    host: str,
    tmp_path: Path,
) -> None:
    """Red team s28 run (observation, #6): the regex budget (2 s) re-armed the process's one
    timer with what it had left, later than the call's deadline; the answer came up to 2 s
    late. Now the deadline's own answer comes at the deadline."""
    from hookwise.policy.trust.store import trust_file

    policy = tmp_path / "regex.yaml"
    policy.write_text(REGEX_POLICY)
    environment = {**env, "HOOKWISE_POLICY": str(policy)}
    trust_file(str(policy), environment)
    stdin = pre_payload(host, "echo " + "a" * 60 + "!")
    warm, _ = run_hook(environment, host, stdin, "evaluation", 30.0, 0.0)  # compiles the cache
    done, took = run_hook(environment, host, stdin, "evaluation", 0.6, 0.0)
    assert "deciding this call took more than the 0.6 s" in done.stdout + done.stderr, (
        done.stdout,
        done.stderr,
        warm.stderr,
    )
    assert took < 1.8, took


def test_the_deadline_counts_from_the_hooks_process_start(
    env: dict[str, str],  # noqa: F811
) -> None:
    """s28 #6: the interpreter's start-up counts too (the host's clock runs from its fork).
    A hook process whose exec came 0.5 s after its fork, with a 0.6 s budget, has 0.1 s left
    for its decision (slowed by 0.4 s): it answers with the deadline's deny."""
    delayed = (
        "import time, subprocess, sys; "
        "import os; pid = os.fork()\n"
        "if pid == 0:\n"
        "    time.sleep(0.5); os.execv(sys.executable, [sys.executable, '-c', sys.argv[1], *sys.argv[2:]])\n"
        "_, status = os.waitpid(pid, 0); sys.exit(os.waitstatus_to_exitcode(status))\n"
    )
    module, function, rebind = SLOW_STAGES["evaluation"]
    code = WRAPPER.format(budget=0.6, module=module, function=function, delay=0.4, rebind=rebind)
    stdin = pre_payload("claude", "ls")
    run_hook(env, "claude", stdin, "evaluation", 30.0, 0.0)  # (compiles the cache)
    done = subprocess.run(
        [sys.executable, "-c", delayed, code, "--platform", "claude"],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert "deciding this call took more than the 0.6 s" in done.stdout + done.stderr, done
