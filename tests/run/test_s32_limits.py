"""Red team s31 run #2 and #6: limits a tool call sets on its host (``prlimit --pid``, from
any program: no spelling can be recognised), which every later hook inherits. A stack of
24 KiB killed the hook with SIGSEGV before its first line (the host ran the tool); a file
size limit cut the ``.pyc`` of a stale module, and every later hook exited 2 ("marshal data
too short"). The registered command now judges the limits where they take effect: a soft
limit is raised to the hook's floor, a hard one below it blocks (exit 2, naming it), and
under a file size limit the hook writes no bytecode; a cut ``.pyc`` already on disk is
read around (the sources), saying so.

Real processes: the command ``hookwise install claude`` registers, under ``prlimit``, run by
dash and by bash as the hosts run it (Claude Code ``/bin/sh -c``, Gemini CLI ``bash -c``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hookwise.config.hookwise_command import (
    _portable_script,
    inherits_limits,
    portable_command,
)
from tests.run.test_redteam_run import BIN, HOOKWISE, SRC, Lab, lab

__all__ = ["lab"]

pytestmark = [
    pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit"),
    pytest.mark.skipif(sys.platform != "linux", reason="prlimit, /proc"),
]

SHELLS = [shell for shell in ("dash", "bash") if shutil.which(shell)]

# (prlimit option, the limit named when the hard limit is below the hook's floor)
LIMITS = [
    ("--stack=24576", "RLIMIT_STACK"),
    ("--nofile=12", "RLIMIT_NOFILE"),
    ("--cpu=1", "RLIMIT_CPU"),
    ("--as=50000000", "RLIMIT_AS"),
    ("--data=20000000", "RLIMIT_DATA"),
]


def _command(lab: Lab) -> str:
    settings = json.loads((lab.proj / ".claude" / "settings.json").read_text())
    command: str = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    return command


def _install(lab: Lab, env: dict[str, str], python_path: str = "") -> str:
    """``hookwise install claude`` (from ``python_path`` when given: a copy of hookwise)."""
    if python_path:
        argv = [
            str(BIN / "python"), "-c",
            "import sys; sys.path.insert(0, sys.argv.pop(1)); "
            "from hookwise.cli.entry import main; sys.exit(main())",
            python_path, "install", "claude",
        ]  # fmt: skip
    else:
        argv = [HOOKWISE, "install", "claude"]
    subprocess.run(argv, cwd=lab.proj, env=env, capture_output=True, timeout=120, check=True)
    return _command(lab)


def _hook(
    lab: Lab, command: str, env: dict[str, str], limit: str = "", shell: str = "dash"
) -> tuple[int, str, str]:
    """The registered command as a host runs it, under ``limit``: (status, answer,
    stderr); stdout and stderr are pipes, as a host's are."""
    argv = ["prlimit", *([limit] if limit else []), "--", shell, "-c", command]
    result = subprocess.run(
        argv, input=lab.payload(), cwd=lab.proj, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    answer = ""
    if result.returncode == 0 and result.stdout.strip():
        answer = json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"]
    return result.returncode, answer, result.stderr


@pytest.mark.parametrize("shell", SHELLS)
def test_a_limit_set_on_the_host_is_raised_or_blocks_naming_it(lab: Lab, shell: str) -> None:
    """Each limit, soft only (``N:``, the hard one unlimited: raised, the policy's deny)
    and hard (``N``: below the floor, exit 2 naming it). The command written before ran
    the hook under them: the stack's killed it with SIGSEGV (status -11), which a host
    takes as a non-blocking error."""
    env = lab.env()
    command = _install(lab, env)
    assert _hook(lab, command, env, shell=shell)[:2] == (0, "deny")
    for limit, name in LIMITS:
        status, answer, stderr = _hook(lab, command, env, f"{limit}:", shell)
        assert (status, answer) == (0, "deny"), (limit, status, stderr[-600:])
        status, answer, stderr = _hook(lab, command, env, limit, shell)
        assert status == 2 and not answer, (limit, status, stderr[-600:])
        assert name in stderr and "blocked" in stderr, (limit, stderr[-600:])


def test_the_command_written_before_died_of_the_stack_limit(lab: Lab) -> None:
    """The attack against the form written in s31 (still recognised, and doctor asks for
    `hookwise install`): the hook dies of a signal, the host runs the tool."""
    env = lab.env()
    command = _install(lab, env)
    assert command == portable_command("claude") and not inherits_limits(command)
    before = _portable_script("--platform claude", limits="", exec_guard=("", ""))
    assert inherits_limits(before)
    status, _answer, _stderr = _hook(lab, before, env, "--stack=24576")
    assert status < 0 or status not in (0, 2), status
    out = subprocess.run(
        [HOOKWISE, "doctor", "--host", "claude", "--no-self-test"], cwd=lab.proj, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert "written before s32" not in out.stdout + out.stderr
    settings = lab.proj / ".claude" / "settings.json"
    settings.write_text(
        settings.read_text().replace(json.dumps(command)[1:-1], json.dumps(before)[1:-1])
    )
    out = subprocess.run(
        [HOOKWISE, "doctor", "--host", "claude", "--no-self-test"], cwd=lab.proj, env=env,
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    said = out.stdout + out.stderr
    assert "written before s32" in said and "`hookwise install claude`" in said, said[-2000:]


def _copy(lab: Lab) -> Path:
    """A copy of the hookwise package, without bytecode: its ``.pyc`` files are the
    test's to write, cut and check (the checkout's are shared)."""
    site = lab.root / "site"
    shutil.copytree(
        Path(SRC) / "hookwise", site / "hookwise", ignore=shutil.ignore_patterns("__pycache__")
    )
    return site


def _bytecode(site: Path, module: str) -> Path:
    tag = sys.implementation.cache_tag
    return site / "hookwise" / "policy" / "__pycache__" / f"{module}.{tag}.pyc"


@pytest.mark.parametrize("shell", SHELLS)
def test_under_a_file_size_limit_no_bytecode_is_cut(lab: Lab, shell: str) -> None:
    """A stale module (an upgrade, an editable install: here a ``touch``) imported by a
    hook under ``--fsize=100``: Python wrote its ``.pyc`` cut at 100 bytes and renamed it
    in place, and every later hook exited 2. Now nothing is written under the limit (the
    stale ``.pyc`` stays whole) and the later hooks deny; without the limit bytecode is
    written as before (the launcher's -B for every call made each hook compile)."""
    env = lab.env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    site = _copy(lab)
    command = _install(lab, env, str(site))
    audit = site / "hookwise" / "policy" / "audit.py"
    pyc = _bytecode(site, "audit")
    assert _hook(lab, command, env, shell=shell)[:2] == (0, "deny")
    os.utime(audit)  # stale: the snapshot and the .pyc
    assert _hook(lab, command, env, shell=shell)[:2] == (0, "deny")
    written = pyc.stat()
    assert written.st_size > 1000, written  # (no limit: written, whole)
    os.utime(audit, ns=(written.st_mtime_ns + 10**9, written.st_mtime_ns + 10**9))
    status, answer, stderr = _hook(lab, command, env, "--fsize=100", shell)
    assert (status, answer) == (0, "deny"), (status, stderr[-600:])
    assert pyc.stat().st_size == written.st_size, "a .pyc was written under the limit"
    for _ in range(2):
        status, answer, stderr = _hook(lab, command, env, shell=shell)
        assert (status, answer) == (0, "deny"), (status, stderr[-600:])


def test_a_cut_bytecode_file_on_disk_is_read_around_and_named(lab: Lab) -> None:
    """A ``.pyc`` already cut (by an older hookwise under the limit): its header is valid,
    so every import of it failed and every hook exited 2 until someone removed it. The
    launcher now imports from the sources, says which file it could not read, and
    answers."""
    env = lab.env()
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    site = _copy(lab)
    command = _install(lab, env, str(site))
    audit = site / "hookwise" / "policy" / "audit.py"
    os.utime(audit)
    assert _hook(lab, command, env)[:2] == (0, "deny")  # (the .pyc written, the snapshot too)
    pyc = _bytecode(site, "audit")
    pyc.write_bytes(pyc.read_bytes()[:100])  # (as the limit cut it: header and a start)
    snapshot = lab.home / ".local" / "share" / "hookwise" / "hook.snapshot"
    snapshot.unlink()  # (stale: the hook imports the module from disk)
    status, answer, stderr = _hook(lab, command, env)
    assert (status, answer) == (0, "deny"), (status, stderr[-600:])
    assert str(pyc) in stderr and "marshal data too short" in stderr, stderr[-600:]
    assert _hook(lab, command, env)[:2] == (0, "deny")
