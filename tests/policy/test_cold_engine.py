"""The hook's cold modules stay cold: real ``hookwise hook`` processes, one per event.

Code a typical event does not need was moved out of engine.py, condition.py and globs.py
into modules the hook imports on first use (issue 11: unmarshalling and executing module
code is most of a hook call's cost). What is checked, in fresh processes: the three
payloads of bench/hook_cold.py, under the benchmark's own policy (200 generated rules and
every rule pack), load none of them, nor :mod:`re`; an event that needs one loads it and
gets the decision it got before the split (regexes, approvals, rewrites, compiled
conditions, validators, glob compilation on a cache miss).
"""

from __future__ import annotations

import compileall
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.tools.payloads import build_payload
from hookwise.policy.trust.store import trust_file
from tests.policy.bench_support import BENCH

ROOT = Path(__file__).resolve().parents[2]
SRC = str(ROOT / "src")

TIMED_REGEX = "hookwise.policy.rules.timed_regex"
APPROVAL = "hookwise.policy.rules.approval_cover"
REWRITE = "hookwise.policy.rules.rewrite"
VALIDATOR = "hookwise.policy.rules.validator"
CONDITION_COMPILE = "hookwise.policy.rules.condition_compile"
GLOB_SYNTAX = "hookwise.policy.rules.glob_syntax"
COLD = frozenset({TIMED_REGEX, APPROVAL, REWRITE, VALIDATOR, CONDITION_COMPILE, GLOB_SYNTAX})

# the hook as the hosts' command runs it (python -I -S), reporting what it imported
PROBE = """\
import sys
sys.path[0] = {src!r}
from hookwise.policy.hook import main
try:
    code = main({argv!r})
finally:
    sys.stderr.write("\\nMODULES " + repr(sorted(sys.modules)) + "\\n")
raise SystemExit(code)
"""


def _environment(base: Path, policy_text: str) -> dict[str, str]:
    # the packs' bytecode written first, as an installed hookwise has it: in a fresh
    # checkout, a hook process of another test writing it (the packs directory's mtime is
    # part of the cache's key) would make the second call below compile again
    compileall.compile_dir(str(ROOT / "src" / "hookwise" / "policy" / "packs"), quiet=1)
    policy = base / "policy.yaml"
    policy.write_text(policy_text)
    env = dict(os.environ)
    env.update(
        {
            "HOOKWISE_POLICY": str(policy),
            "HOOKWISE_AUDIT_LOG": str(base / "audit.jsonl"),
            "HOOKWISE_CACHE_DIR": str(base / "cache"),
        }
    )
    trust_file(str(policy), env)
    # the first call compiles the policy into the cache (glob_syntax and the compiler)
    _, compiling = hook(env, _claude("true", base))
    assert GLOB_SYNTAX in compiling
    _, cached = hook(env, _claude("true", base))
    assert not cached & COLD  # from the cache: no glob is compiled
    return env


def hook(env: dict[str, str], payload: Any, host: str = "claude") -> tuple[Any, set[str]]:
    """(the hook's JSON answer or None, the modules it imported) for one event."""
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    probe = PROBE.format(src=SRC, argv=["--platform", host])
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", probe],
        input=data,
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    stderr = done.stderr.decode()
    assert "\nMODULES " in stderr, stderr
    modules = set(eval(stderr.rsplit("\nMODULES ", 1)[1]))
    assert done.returncode in (0, 2), stderr
    out = done.stdout.decode().strip()
    return (json.loads(out) if out else None), modules


def _claude(command: str, cwd: Path) -> dict[str, Any]:
    return build_payload(
        "claude", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=str(cwd)
    )


def _verdict(answer: Any) -> str | None:
    if answer is None:
        return None
    return str(answer["hookSpecificOutput"].get("permissionDecision"))


def test_the_benchmark_payloads_load_no_cold_module(isolated: Path) -> None:
    bench = BENCH
    env = _environment(isolated, bench.policy_text(200))
    payloads = bench.payloads(str(isolated))
    answers = {}
    for data, host in zip(payloads, bench.PAYLOAD_HOSTS, strict=True):
        answer, modules = hook(env, data, host)
        loaded = modules & COLD
        assert not loaded, (host, sorted(loaded))
        assert "re" not in modules, host  # no rule's regex was needed: no re either
        answers[host] = answer
    assert _verdict(answers["claude"]) == "deny"  # git push --force (hookwise/git first)
    reason = answers["claude"]["hookSpecificOutput"]["permissionDecisionReason"]
    assert "force push" in reason.lower()
    # Gemini's npm test and Codex's patch: nothing matches, the host decides
    assert answers["gemini"] in (None, {}) or "decision" not in answers["gemini"]
    assert _verdict(answers["codex"]) in (None, "None")


def test_a_regex_is_loaded_only_when_its_literal_is_in_the_command(isolated: Path) -> None:
    """hookwise/filesystem's find -delete rule: the literal ``-delete`` rules out ``find
    -name`` without the timed regexes or re; ``find /srv -delete`` needs both, and is
    denied as before the split."""
    bench = BENCH
    env = _environment(isolated, bench.policy_text(20))
    answer, modules = hook(env, _claude("find . -name '*.py'", isolated))
    assert TIMED_REGEX not in modules and "re" not in modules
    assert answer is None or _verdict(answer) in ("None", "allow")
    answer, modules = hook(env, _claude("find /srv/data -delete", isolated))
    assert TIMED_REGEX in modules
    assert _verdict(answer) == "deny"
    last = json.loads((isolated / "audit.jsonl").read_text().splitlines()[-1])
    matched = {record["id"] for record in last["rules"]}
    assert "hookwise/filesystem:no-delete-outside-workspace-find" in matched  # the regex rule
    assert not modules & (COLD - {TIMED_REGEX})


POLICY = """\
version: 1
rules:
  - {id: ok-ls, match: {command: ls}, action: allow, reason: listing is fine}
  - id: npm-ci
    match: {command: npm install}
    action: rewrite
    rewrite: {replace: [{arg: command, pattern: 'npm install( |$)', with: 'npm ci\\1'}]}
  - id: to-force
    match: {command: echo push}
    action: rewrite
    rewrite: {set: {command: git push --force}}
  - {id: no-force, match: {command: git push --force}, action: deny, reason: no force push}
  - {id: slow, match: {tool: shell}, when: 'input.timeout > 600', action: ask}
  - id: check-make
    match: {command: make}
    action: validate
    validator: {command: "echo make is frozen >&2; exit 3", timeout: 10}
"""


@pytest.fixture
def env(isolated: Path) -> dict[str, str]:
    return _environment(isolated, POLICY)


def test_an_allow_loads_the_approval_check_only(env: dict[str, str], isolated: Path) -> None:
    answer, modules = hook(env, _claude("ls -la", isolated))
    assert _verdict(answer) == "allow"
    assert modules & COLD == {APPROVAL}


def test_an_allow_that_does_not_cover_the_call_is_withdrawn(
    env: dict[str, str], isolated: Path
) -> None:
    answer, modules = hook(env, _claude("ls && rm notes.txt", isolated))
    assert APPROVAL in modules
    assert _verdict(answer) in (None, "None")  # no approval: the host decides


def test_a_rewrite_loads_its_modules_and_rewrites(env: dict[str, str], isolated: Path) -> None:
    answer, modules = hook(env, _claude("npm install", isolated))
    # the rewritten call is checked again: the `slow` rule's condition is looked at twice
    assert {REWRITE, APPROVAL, TIMED_REGEX, CONDITION_COMPILE} <= modules
    assert VALIDATOR not in modules
    output = answer["hookSpecificOutput"]
    assert output["permissionDecision"] == "allow"
    assert output["updatedInput"]["command"] == "npm ci"


def test_a_rewrite_into_a_denied_command_is_denied(env: dict[str, str], isolated: Path) -> None:
    answer, modules = hook(env, _claude("echo push", isolated))
    assert REWRITE in modules
    assert _verdict(answer) == "deny"
    assert answer["hookSpecificOutput"]["permissionDecisionReason"].startswith("no force push")


def test_a_validator_loads_its_module_and_its_verdict_holds(
    env: dict[str, str], isolated: Path
) -> None:
    answer, modules = hook(env, _claude("make all", isolated))
    assert modules & COLD == {VALIDATOR}
    assert _verdict(answer) == "deny"
    assert "make is frozen" in answer["hookSpecificOutput"]["permissionDecisionReason"]
