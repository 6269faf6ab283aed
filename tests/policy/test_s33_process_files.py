"""Red team s33 #2, #3: acting on processes without a pid operand. A loop left by one
allowed call moved each new hook into a cgroup frozen through ``freezer.state`` (a frozen
task ignores every signal: the host waited, then ran the tool); ``fuser -k`` on a file
every hook maps killed each hook. Which processes those are is known only when the line
runs: unverifiable (ask), naming the file, as ``kill $PPID`` is.

Each decision is the real ``hookwise hook``'s; each effect is shown on processes of the
test's own (a ``sleep`` frozen, a ``sleep`` killed by fuser), never on the machine's."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from hookwise.policy.trust import process_files
from tests.policy.test_hook_process import HOOKWISE, pre_payload
from tests.policy.test_s32_hook_code import decide, env  # noqa: F401 - the fixture

FREEZERS = [p for p, kind in process_files.mounts() if kind == "cgroup" and "freezer" in p]
CAN_FREEZE = os.geteuid() == 0 and bool(FREEZERS) and os.access(FREEZERS[0], os.W_OK)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not CAN_FREEZE, reason="needs root and a writable cgroup v1 freezer")
def test_freezing_through_cgroup_files_is_asked(env: dict[str, str], isolated: Path) -> None:  # noqa: F811
    """The write the red team's loop made, judged by the hook; and what it does to a
    process of the test's own: frozen, a SIGTERM waits for the thaw."""
    group = Path(FREEZERS[0]) / f"hookwise-test-{os.getpid()}"
    group.mkdir()
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        for command in (
            f"echo {sleeper.pid} > {group}/tasks",
            f"echo FROZEN > {group}/freezer.state",
            f"for p in $(pgrep -f hookwise/hook); do echo $p > {group}/cgroup.procs; done",
            f"printf FROZEN | tee {group}/freezer.state",
        ):
            decision, reason = decide(env, command, str(isolated))
            assert decision == "ask", (command, reason)
            assert str(group) in reason and "cgroup" in reason, reason
        # the attack on our own sleep: frozen, it ignores SIGTERM until thawed
        (group / "tasks").write_text(f"{sleeper.pid}\n")
        (group / "freezer.state").write_text("FROZEN\n")
        for _ in range(100):
            if (group / "freezer.state").read_text().strip() == "FROZEN":
                break
            time.sleep(0.02)
        sleeper.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        assert sleeper.poll() is None  # (still there: frozen)
        (group / "freezer.state").write_text("THAWED\n")
        assert sleeper.wait(timeout=10) == -signal.SIGTERM
    finally:
        (group / "freezer.state").write_text("THAWED\n")
        sleeper.kill()
        sleeper.wait()
        group.rmdir()


@pytest.mark.parametrize(
    "command",
    [
        "echo 1000 > /proc/$PPID/oom_score_adj",
        "echo 1 > /proc/1/timerslack_ns",
        'printf "y" > "/proc/$(pgrep -f hookwise/hook)/fd/0"',
        "echo c > /proc/sysrq-trigger",
        "dd of=/proc/1/oom_score_adj <<< 1000",
        "cp /tmp/limits /proc/1/oom_adj",
    ],
)
def test_writes_of_another_process_files_are_asked(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    decision, reason = decide(env, command, str(isolated))
    assert decision == "ask", (command, reason)
    assert "/proc/" in reason and "process" in reason, reason


@pytest.mark.parametrize(
    "command",
    [
        "echo 1000 > /proc/self/oom_score_adj",
        "echo 1000 > /proc/$$/oom_score_adj",
        "echo x > /dev/stderr",  # (resolves through /proc/self: the hook's own pid)
        "echo x >/dev/fd/2",
        "echo x | tee /proc/self/fd/1",
        "cat /proc/1/status",
        "grep -c x /proc/1/maps",
        "fuser .",
        "fuser -v -m /tmp",
    ],
)
def test_the_lines_own_process_and_reads_are_let_be(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
    command: str,
) -> None:
    assert decide(env, command, str(isolated))[0] is None, command


@pytest.mark.skipif(
    os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root and unshare"
)
def test_a_proc_mounted_elsewhere_is_found_by_its_type(isolated: Path) -> None:
    """Not by spelling: the hook reads its mount table (a proc mounted at D in a private
    namespace: D/1/oom_score_adj is process 1's)."""
    place = isolated / "p"
    place.mkdir()
    payload = pre_payload("claude", f"echo 1000 > {place}/1/oom_score_adj", str(isolated))
    script = f'mount -t proc proc "{place}" && exec "{HOOKWISE}" hook'
    result = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script],
        input=payload,
        capture_output=True,
        text=True,
        env={**os.environ, "HOOKWISE_AUDIT_LOG": str(isolated / "audit.jsonl")},
        cwd=str(isolated),
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert '"ask"' in result.stdout and f"{place}/1/oom_score_adj" in result.stdout


@pytest.mark.skipif(shutil.which("fuser") is None, reason="needs fuser (psmisc)")
def test_fuser_kill_is_asked_and_kills_what_uses_the_file(
    env: dict[str, str],  # noqa: F811
    isolated: Path,
) -> None:
    """s33 #3: `fuser -k F` signals every process that opens or maps F (every hook maps
    the loader and libc): asked; `fuser F` only lists."""
    target = isolated / "held"
    target.write_text("x")
    for command in (
        f"fuser -k {target}",
        f"fuser -sk {target}",
        f"fuser --kill -TERM {target}",
        # (the project, where the host and its hooks sit; a file the hook maps is denied
        # outright as hook code: fuser is given it)
        f"while :; do fuser -s -k -KILL {isolated}; sleep 0.005; done &",
        f"fuser -m -k -9 {isolated}",
    ):
        decision, reason = decide(env, command, str(isolated))
        assert decision == "ask", (command, reason)
        assert "fuser" in reason and "every process using" in reason, reason
    assert decide(env, f"fuser -v {target}", str(isolated))[0] is None
    # what it does: a process of the test's own holding the file open is killed
    holder = subprocess.Popen(["sh", "-c", f"exec 3<'{target}'; exec sleep 60"])
    time.sleep(0.3)
    subprocess.run(["fuser", "-s", "-k", "-KILL", str(target)], check=False, timeout=30)
    assert holder.wait(timeout=10) == -signal.SIGKILL
    assert not _alive(holder.pid)
