"""Session 33, issue 23 (left open in s32): the direct commands and hard limits.

A tool call can set its host's limits (``prlimit --pid``), which every later hook inherits.
The portable command judges them before the interpreter starts (test_s32_limits.py); the
direct commands (``hookwise install --direct``: this machine's interpreter running
run_hook.py; ``--console``: its ``hookwise hook``) were a bare argv and checked nothing: a
stack of 24 KiB killed Python before its first line (SIGSEGV), which every host takes as a
non-blocking error, and the host ran the tool. They now run the same check in the host's
shell, then exec the interpreter. A hard limit below a floor blocks every hook until the
agent restarts: the message names the limit, its value, the floor and that fix.

Real processes: the command ``hookwise install claude`` writes, under ``prlimit``, run by
dash and by bash as the hosts run it (Claude Code ``/bin/sh -c``, Gemini CLI ``bash -c``).
"""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys

import pytest

from hookwise.config.hookwise_command import (
    DIRECT_PREFIX,
    direct_inherits_limits,
    is_hookwise_command,
    machine_paths,
)
from tests.run.test_redteam_run import BIN, HOOKWISE, Lab, lab
from tests.run.test_s32_limits import SHELLS, _command, _hook

__all__ = ["lab"]

pytestmark = [
    pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit"),
    pytest.mark.skipif(sys.platform != "linux", reason="prlimit, /proc"),
]

# (prlimit option, what the block says: the limit, its floor, the hard limit's value in
# ulimit's unit: KiB for the stack, the address space and the data segment)
HARD = [
    ("--stack=24576", "RLIMIT_STACK (ulimit -s): the hook needs 8192 KiB, the hard limit is 24"),
    ("--nofile=12", "RLIMIT_NOFILE (ulimit -n): the hook needs 1024 descriptors, the hard "
     "limit is 12"),
    ("--cpu=1", "RLIMIT_CPU (ulimit -t): the hook needs 60 s, the hard limit is 1"),
    ("--as=50000000", "RLIMIT_AS (ulimit -v): the hook needs 2097152 KiB, the hard limit is "
     "48828"),
    ("--data=20000000", "RLIMIT_DATA (ulimit -d): the hook needs 2097152 KiB, the hard limit "
     "is 19531"),
]  # fmt: skip


def _install(lab: Lab, env: dict[str, str], *options: str) -> str:
    subprocess.run(
        [HOOKWISE, "install", "claude", *options], cwd=lab.proj, env=env,
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    return _command(lab)


def _said_in_full(stderr: str, line: str) -> bool:
    return any(text.strip() == f"hookwise:   {line}" for text in stderr.splitlines())


@pytest.mark.parametrize("form", ["--direct", "--console"])
@pytest.mark.parametrize("shell", SHELLS)
def test_a_direct_command_raises_soft_limits_and_blocks_under_hard_ones(
    lab: Lab, form: str, shell: str
) -> None:
    """Each limit soft only (raised: the policy's deny) and hard (exit 2, naming the limit,
    its value, the floor, and restarting the agent). The command is still hookwise's and
    still names this machine's paths (doctor's portability warning)."""
    env = lab.env()
    command = _install(lab, env, form)
    assert command.startswith(DIRECT_PREFIX), command[:200]
    assert is_hookwise_command(command) and not direct_inherits_limits(command)
    assert machine_paths(command)[0].startswith(str(BIN)), machine_paths(command)
    assert _hook(lab, command, env, shell=shell)[:2] == (0, "deny")
    for limit, said in HARD:
        status, answer, stderr = _hook(lab, command, env, f"{limit}:", shell)
        assert (status, answer) == (0, "deny"), (limit, status, stderr[-600:])
        status, answer, stderr = _hook(lab, command, env, limit, shell)
        assert status == 2 and not answer, (limit, status, stderr[-600:])
        assert _said_in_full(stderr, said), (limit, stderr[-900:])
        assert "restart the agent" in stderr and "blocked" in stderr, stderr[-900:]


@pytest.mark.parametrize("form", ["--direct", "--console"])
def test_the_direct_form_written_before_died_of_the_stack_limit(lab: Lab, form: str) -> None:
    """The attack against the bare argv written before s33 (still recognised; doctor now
    warns of it): Python dies of a signal before its first line, which the host takes as
    a non-blocking error, and runs the tool."""
    env = lab.env()
    command = _install(lab, env, form)
    before = command.removeprefix(DIRECT_PREFIX)
    assert shlex.split(before)[0].startswith(str(BIN)), before
    assert is_hookwise_command(before) and direct_inherits_limits(before)
    assert _hook(lab, before, env)[:2] == (0, "deny")
    status, _answer, stderr = _hook(lab, before, env, "--stack=24576")
    assert status not in (0, 2), (status, stderr[-600:])
    settings = lab.proj / ".claude" / "settings.json"
    said = _doctor(lab, env)
    assert "checks no resource limits" not in said, said[-2000:]
    settings.write_text(
        settings.read_text().replace(json.dumps(command)[1:-1], json.dumps(before)[1:-1])
    )
    said = _doctor(lab, env)
    assert "checks no resource limits" in said and f"install claude {form}" in said, said[-3000:]


def _doctor(lab: Lab, env: dict[str, str], *options: str) -> str:
    out = subprocess.run(
        [HOOKWISE, "doctor", "--host", "claude", "--no-self-test", *options], cwd=lab.proj,
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    return out.stdout + out.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_the_portable_commands_block_names_value_floor_and_fix(lab: Lab, shell: str) -> None:
    """The portable command (install's default) says the same: before, the limit's name
    and its floor only, not its value."""
    env = lab.env()
    command = _install(lab, env)
    for limit, said in HARD[:2]:
        status, _answer, stderr = _hook(lab, command, env, limit, shell)
        assert status == 2 and _said_in_full(stderr, said), (limit, status, stderr[-900:])
        assert "restart the agent" in stderr, stderr[-900:]


@pytest.mark.parametrize(
    ("limit", "resource"), [("--stack=24576", "RLIMIT_STACK"), ("--nofile=900", "RLIMIT_NOFILE")]
)
def test_doctor_reports_its_own_hard_limits_below_the_floors(
    lab: Lab, limit: str, resource: str
) -> None:
    """`hookwise doctor` run under a lowered hard limit (as an agent whose limits a tool
    call lowered would run it) fails naming the limit, its value and the floor, and the
    fix; a soft limit alone is raised by the hook (no failure); JSON too."""
    env = lab.env()
    _install(lab, env)
    plain = _doctor(lab, env)
    assert resource not in plain, plain[-2000:]
    argv = [HOOKWISE, "doctor", "--host", "claude", "--no-self-test"]
    soft = subprocess.run(
        ["prlimit", f"{limit.replace('24576', '262144')}:", "--", *argv], cwd=lab.proj,
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert f"FAIL  {resource}" not in soft.stdout and soft.returncode in (0, 1), soft.stdout[-2000:]
    hard = subprocess.run(
        ["prlimit", limit.replace("24576", "262144"), "--", *argv, "--json"], cwd=lab.proj,
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert hard.returncode == 1, (hard.returncode, hard.stderr[-2000:])
    checks = json.loads(hard.stdout)["policy"]["checks"]
    found = [c for c in checks if c["name"] == "limits" and resource in c["detail"]]
    assert found and found[0]["status"] == "fail", checks
    assert "restart" in found[0]["detail"], found
