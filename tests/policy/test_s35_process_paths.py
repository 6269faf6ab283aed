"""Red team s35 #3, #4, #5: acting on the hook through a process group, through a /proc
path that names another process only once normalised, and through a link made earlier.

- #3 ``kill -9 -$p`` (a negative pid: a process group; Claude Code and Codex start each
  hook as a group leader) was allowed while ``kill -9 $p`` asked: the real CLIs then ran
  a denied command. Every signal to a group is now at least as strict as to one pid.
- #4 one byte into the hook's stdout through ``/proc/self/../$p/fd/1``: the path was
  judged as written (``self``: the writer's own), not as the kernel reads it.
- #5 ``ln -s /sys/fs/cgroup x`` in one call, ``echo FROZEN > x/freezer/g/freezer.state``
  in the next: the existing part of the path was not resolved.

Each decision is the real ``hookwise hook``'s; each effect is shown with real bash on
processes of the test's own (never the machine's)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hookwise.policy.trust import process_files
from tests.policy.test_s32_hook_code import decide, env  # noqa: F401 - the fixture

CGROUPS = [p for p, kind in process_files.mounts() if kind in process_files.CGROUP_TYPES]


# --- #3 a process group -------------------------------------------------------------------


def test_killing_a_hooks_process_group_is_real_and_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """The attack's effect on a group of the test's own (a leader and its child, as a
    host starts a hook: its own session), and the hook's answer for the same line."""
    leader = subprocess.Popen(["sh", "-c", "sleep 60 & wait"], start_new_session=True)
    try:
        time.sleep(0.2)
        command = "kill -9 -$p"
        decision, reason = decide(env, command, str(isolated))
        assert decision == "ask", reason
        assert "process group -$p" in reason, reason
        subprocess.run(["bash", "-c", command], env={"p": str(leader.pid)}, check=True)
        assert leader.wait(timeout=10) == -signal.SIGKILL
    finally:
        leader.kill()
        leader.wait()


@pytest.mark.parametrize(
    "command",
    [
        "kill -9 -$p",
        "kill -- -123",
        "kill -s KILL -123",
        "kill -KILL -- -$x",
        "kill -n 9 -- -$x",
        "kill 0",
        "kill -1",
        "kill -9 -1",
        "/bin/kill -9 -5",
        "command kill -9 -$p",
        "env kill -KILL -- -$p",
        "while :; do kill -9 -$(pgrep -f hookwise); done &",
        "pkill -g 5",
        "pkill -9 --pgroup 0",
        "killall -g sh",
        "python3 -c 'import os; os.killpg(5, 9)'",
        "python3 -c 'import os; os.kill(-5, 9)'",
        "node -e 'process.kill(-5)'",
        "perl -e 'kill 9, -5'",
    ],
)
def test_signals_to_a_process_group_are_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    decision, reason = decide(env, command, str(isolated))
    assert decision == "ask", (command, reason)


@pytest.mark.parametrize(
    "command",
    [
        "sleep 30 & kill $!",
        "sleep 30 & kill -- -$!",  # (the line's own job's group)
        "sleep 30 & kill -TERM -$!",
        "kill %1",
        "kill -TERM %1",
        "kill -s TERM $!",
        "kill -l",
        "kill -0 12345",
        "pkill -f 'npm run dev'",
        "killall -9 uvicorn",
    ],
)
def test_the_lines_own_jobs_stay_allowed(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    assert decide(env, command, str(isolated)) == (None, ""), command


# --- #4 /proc paths normalised -------------------------------------------------------------


def test_a_byte_into_another_process_stdout_is_real_and_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """A stand-in hook writing its answer into a pipe: the red team's line puts a byte
    into that answer through ``/proc/self/../$p/fd/1``."""
    hook = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(1); print('{}', flush=True)"],
        stdout=subprocess.PIPE,
    )
    command = "printf x > /proc/self/../$p/fd/1"
    subprocess.run(["bash", "-c", command], env={"p": str(hook.pid)}, check=True)
    out, _ = hook.communicate(timeout=10)
    assert out == b"x{}\n"  # (the answer is no longer one JSON document)
    decision, reason = decide(env, command, str(isolated))
    assert decision == "ask", reason
    assert "/proc/$p/fd/1" in reason, reason


@pytest.mark.parametrize(
    ("command", "named"),
    [
        ("printf x > /proc/self/../$p/fd/1", "/proc/$p/fd/1"),
        ("printf x > /proc/$$/../$p/fd/1", "/proc/$p/fd/1"),
        ("printf x >> /proc/thread-self/../../../$p/fd/1", "/proc/$p/fd/1"),
        ("printf x > /proc/self/task/../../$p/fd/1", "/proc/$p/fd/1"),
        ("printf x > /proc/self/root/proc/$p/fd/1", "/proc/$p/fd/1"),
        ("printf x > //proc/./self/../$p/mem", "/proc/$p/mem"),
        ("printf x | tee /proc/self/../$p/fd/1", "/proc/$p/fd/1"),
        ("dd of=/proc/self/../1/oom_score_adj <<< 1", "/proc/1/oom_score_adj"),
    ],
)
def test_proc_paths_are_judged_normalised(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
    named: str,
) -> None:
    decision, reason = decide(env, command, str(isolated))
    assert decision == "ask", (command, reason)
    assert named in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "cat /proc/self/status",
        "grep VmRSS /proc/self/status",
        "echo x > /proc/self/fd/1",
        "echo x > /dev/fd/2",
        "echo x > /dev/stderr",
        "echo 1000 > /proc/thread-self/../../oom_score_adj",  # (the writer's own)
        "sleep 5 & echo 1000 > /proc/$!/oom_score_adj",  # (a process the line started)
        "cat /proc/1/status",
    ],
)
def test_the_writers_own_proc_files_and_reads_stay_allowed(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    assert decide(env, command, str(isolated))[0] is None, command


def test_normalise_reads_proc_as_the_kernel_does() -> None:
    normalise = process_files.normalise
    assert normalise("/proc/self/../9/fd/1") == "/proc/9/fd/1"
    assert normalise("/proc/thread-self/../../9") == "/proc/self/9"
    assert normalise("/proc/thread-self/../../../9/fd/1") == "/proc/9/fd/1"
    assert normalise("/proc/self/root/proc/self/../9/mem") == "/proc/9/mem"
    assert normalise("/proc/self/cwd/x") == "/proc/self/cwd/x"
    assert normalise("/tmp/self/../9") == "/tmp/self/../9"  # (not a proc mount: as given)


# --- #5 a link made earlier -----------------------------------------------------------------


@pytest.mark.skipif(not CGROUPS, reason="needs a cgroup filesystem mounted")
def test_a_cgroup_reached_through_an_earlier_link_is_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """The s33 freezer attack again: the link is made by one (allowed) call, the group
    and its control file by the next, so the judged path's tail does not exist yet."""
    mount = CGROUPS[0]
    link = isolated / "x"
    assert decide(env, f"ln -s {mount} x", str(isolated))[0] is None
    link.symlink_to(mount)
    group = f"x/hookwise-s35-{os.getpid()}"
    for command in (
        f"mkdir -p {group} && echo FROZEN > {group}/freezer.state",
        f"d={group}; mkdir -p $d; echo $p > $d/cgroup.procs",
        f"mkdir {group}; printf 1 | tee {group}/cgroup.kill",
    ):
        decision, reason = decide(env, command, str(isolated))
        assert decision == "ask", (command, reason)
        assert "cgroup" in reason and mount in reason, reason


def test_proc_reached_through_an_earlier_link_is_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    (isolated / "pp").symlink_to("/proc")
    decision, reason = decide(env, "printf x > pp/$p/fd/1", str(isolated))
    assert decision == "ask", reason
    assert "/proc/$p/fd/1" in reason, reason
    # a link to an ordinary directory stays one (friction)
    (isolated / "out").mkdir()
    (isolated / "o").symlink_to(isolated / "out")
    assert decide(env, "mkdir -p o/new/deep && echo x > o/new/deep/f.txt", str(isolated))[0] is None
