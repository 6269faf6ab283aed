"""A shell or interpreter started with nothing on its stdin runs what is typed in later.

Codex's ``exec_command`` with ``tty: true`` starts such a program and ``write_stdin`` types
into it without a hook (red team s25 F17: ``bash`` was allowed, then ``touch`` typed into it
ran past a policy denying ``touch``); Copilot CLI's ``write_bash`` is the same shape. What
such a program will run is known only when it runs: unverifiable (ask; a deny where the
host cannot ask). A program whose code the line gives (``-c``, a script file, a pipe, a
here-document, a redirect) is read as before.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from hookwise.policy.pipeline import decide
from hookwise.policy.tools.payloads import build_payload
from tests.policy.conftest import compile_text

POLICY = "version: 1\nrules:\n  - {id: no-touch, match: {command: touch}, action: deny}\n"
TYPED = ["bash", "bash -i", "sh -s", "sh -s --", "dash", "python3", "python3 -", "perl", "node"]
GIVEN = ["bash x.sh", "sh -s < x.sh", "echo 'ls -la' | sh", "bash -lc 'ls -la'",
         "python3 x.py", "python3 -m pytest -x", "sh -c 'echo hi'", "perl -e 'print 1'"]  # fmt: skip


@pytest.fixture(scope="module")
def policy() -> dict[str, Any]:
    return compile_text(POLICY)


def _decision(host: str, command: str, policy: dict[str, Any]) -> tuple[str, str]:
    payload = build_payload(
        host, "PreToolUse", tool="Bash", tool_input={"command": command}, cwd="/tmp"
    )
    decision = decide(payload, policy, host, {"HOME": "/tmp"}, now=0.0).decision
    assert decision is not None
    return decision.decision or "none", decision.reason


@pytest.mark.parametrize("program", ["bash", "python3"])
def test_what_is_typed_in_later_runs(tmp_path: Path, program: str) -> None:
    """The damage, as write_stdin does it: the program starts with an open stdin, and the
    command arrives after the start (after any hook could have looked)."""
    typed = {"bash": "touch typed-ran\n", "python3": "open('typed-ran', 'w')\n"}[program]
    process = subprocess.Popen([program], stdin=subprocess.PIPE, cwd=tmp_path)
    time.sleep(0.2)
    assert process.stdin is not None
    process.stdin.write(typed.encode())
    process.stdin.close()
    assert process.wait(timeout=30) == 0
    assert (tmp_path / "typed-ran").exists()


@pytest.mark.parametrize("command", TYPED)
def test_a_program_reading_commands_typed_in_later_is_unverifiable(
    command: str, policy: dict[str, Any]
) -> None:
    decision, reason = _decision("claude", command, policy)
    assert decision == "ask", (command, decision, reason)
    assert "standard input" in reason and "typed in later" in reason, reason


@pytest.mark.parametrize("command", TYPED[:3])
def test_on_codex_which_cannot_ask_it_is_denied(tmp_path: Path, command: str) -> None:
    """The hook process, as Codex runs it for exec_command: the ask becomes a deny."""
    import json
    import os
    import sys

    (tmp_path / "policy.yaml").write_text(POLICY)
    payload = build_payload(
        "codex", "PreToolUse", tool="Bash", tool_input={"command": command}, cwd=str(tmp_path)
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path),
           "HOOKWISE_POLICY": str(tmp_path / "policy.yaml"),
           "HOOKWISE_MANAGED_POLICY": str(tmp_path / "managed.yaml"),
           "HOOKWISE_CACHE_DIR": str(tmp_path / "cache"),
           "HOOKWISE_AUDIT_LOG": str(tmp_path / "audit.jsonl")}  # fmt: skip
    done = subprocess.run(
        [str(Path(sys.executable).parent / "hookwise"), "hook", "--platform", "codex"],
        input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=60,
        check=False,
    )  # fmt: skip
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["permissionDecision"] == "deny", done.stdout
    assert "typed in later" in answer["permissionDecisionReason"]


@pytest.mark.parametrize("command", GIVEN)
def test_code_the_line_gives_is_read_as_before(command: str, policy: dict[str, Any]) -> None:
    assert _decision("claude", command, policy)[0] == "none", command


def test_typed_code_given_on_the_line_is_still_decided(policy: dict[str, Any]) -> None:
    assert _decision("claude", "echo 'touch x' | bash", policy)[0] == "deny"
    assert _decision("claude", "bash <<'EOF'\ntouch x\nEOF", policy)[0] == "deny"
